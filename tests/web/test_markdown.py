"""Speeches: Markdown rendered and sanitised with nh3; no script survives."""

from __future__ import annotations

from junta.games.markdown import render_markdown


def test_markdown_is_rendered():
    html = render_markdown("**Viva** the *Republic*\n\n> a quote\n\n- one\n- two")
    assert "<strong>Viva</strong>" in html
    assert "<em>Republic</em>" in html
    assert "<blockquote>" in html and "<li>one</li>" in html


def test_scripts_handlers_and_javascript_links_are_removed():
    html = render_markdown(
        '<script>alert("x")</script><img src=x onerror="alert(1)">'
        "[click](javascript:alert(1)) <a href=\"https://ok.example\" onclick=\"evil()\">ok</a>"
    )
    assert "<script" not in html and "alert" not in html
    assert "onerror" not in html and "onclick" not in html and "<img" not in html
    assert "javascript:" not in html
    assert 'href="https://ok.example"' in html
    assert 'rel="nofollow noopener noreferrer"' in html


def test_headings_are_demoted_below_the_page_headings():
    html = render_markdown("# Big\n\n## Smaller")
    assert "<h3>Big</h3>" in html and "<h4>Smaller</h4>" in html
    assert "<h1" not in html and "<h2" not in html
