"""Speeches: Markdown rendered and sanitised with nh3; raw HTML reads as written, never acts."""

from __future__ import annotations

from junta.games.markdown import render_markdown
from tests.web.active_markup import active


def test_markdown_is_rendered():
    html = render_markdown("**Viva** the *Republic*\n\n> a quote\n\n- one\n- two")
    assert "<strong>Viva</strong>" in html
    assert "<em>Republic</em>" in html
    assert "<blockquote>" in html and "<li>one</li>" in html


def test_raw_html_reads_as_written_and_nothing_acts():
    html = render_markdown(
        '<script>alert("x")</script><img src=x onerror="alert(1)">'
        "[click](javascript:alert(1)) <a href=\"https://ok.example\" onclick=\"evil()\">ok</a>"
        " and <https://fine.example>"
    )
    assert active(html) == []
    assert "&lt;script&gt;" in html and "&lt;img src=x" in html  # shown, as typed
    assert 'href="https://fine.example"' in html  # an autolink is still a link
    assert 'rel="nofollow noopener noreferrer"' in html


def test_what_a_player_writes_between_angle_brackets_is_kept():
    """ "I pay <Lucia> 2 million" lost "<Lucia>" (taken for a tag and deleted)."""
    assert str(render_markdown("I pay <Lucia> 2 million.")) == \
        "<p>I pay &lt;Lucia&gt; 2 million.</p>"
    assert str(render_markdown("if x<y and a>b")) == "<p>if x&lt;y and a&gt;b</p>"
    assert "<blockquote>" in render_markdown("> a quote")  # Markdown's own > still quotes


def test_a_text_with_very_many_brackets_starts_no_link():
    """Python-Markdown's links take time growing with the square of the "[" count (20,000 took
    most of a minute): beyond MAX_BRACKETS they are written as entities, read the same and
    start no link. (Its speed is not timed here: bench/ measures speed.)"""
    from junta.games.markdown import MAX_BRACKETS

    few = render_markdown("[a prize](https://prize.example) " + "[" * 10)
    assert 'href="https://prize.example"' in few
    many = render_markdown("[a prize](https://prize.example) " + "[" * MAX_BRACKETS)
    assert "href=" not in many and many.count("[") == MAX_BRACKETS + 1 and active(many) == []
