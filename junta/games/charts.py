"""Charts drawn as SVG on the server, with no script: the end report's money, deck and votes.

Each chart scales to the width it is given (a `viewBox`, no fixed size) so a phone draws it
whole; each mark carries its numbers (`data-x`, `data-y` and a `<title>` a pointer or a
screen reader finds) and the page puts the same numbers in a table beside it, for those who
do not see the drawing."""

from __future__ import annotations

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

# ten colours told apart by most eyes (Tableau 10), one a family, in ranking order
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1",
           "#ff9da7", "#9c755f", "#79706e")
WIDTH, HEIGHT = 640, 300
LEFT, RIGHT, TOP, BOTTOM = 56, 14, 14, 44


def _n(x: float) -> str:
    return f"{x:.1f}"


def _scale(top: int) -> int:
    """A round top for the vertical axis, at least `top`."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if top <= step * 5:
            return step * 5 if top > 0 else 5
    return top


def _frame(chart_id: str, title: str, body: list[str], x_ticks: list[tuple[float, str]],
           top: int, y_label: str) -> SafeString:
    inner_h = HEIGHT - TOP - BOTTOM
    parts: list[str] = [format_html(
        '<svg class="chart" id="{}" viewBox="0 0 {} {}" role="img" aria-labelledby="{}-t" '
        'preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg">'
        '<title id="{}-t">{}</title>', chart_id, WIDTH, HEIGHT, chart_id, chart_id, title)]
    for i in range(6):
        value = top * i // 5
        y = TOP + inner_h - inner_h * i / 5
        parts.append(format_html(
            '<line class="grid" x1="{}" x2="{}" y1="{}" y2="{}"/>'
            '<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>',
            LEFT, WIDTH - RIGHT, _n(y), _n(y), LEFT - 6, _n(y + 4), value))
    for x, label in x_ticks:
        parts.append(format_html('<text class="tick" x="{}" y="{}" text-anchor="middle">'
                                 '{}</text>', _n(x), HEIGHT - BOTTOM + 20, label))
    parts.append(format_html('<text class="axis-label" x="{}" y="{}" text-anchor="middle">{}'
                             '</text>', (LEFT + WIDTH - RIGHT) // 2, HEIGHT - 4, "Turn"))
    parts.append(format_html('<text class="axis-label" x="12" y="{}" text-anchor="middle" '
                             'transform="rotate(-90 12 {})">{}</text>',
                             TOP + inner_h // 2, TOP + inner_h // 2, y_label))
    parts.extend(body)
    parts.append("</svg>")
    return mark_safe("".join(str(p) for p in parts))  # every piece escaped by format_html


def line_chart(chart_id: str, title: str, series: list[tuple[str, list[tuple[int, int]]]],
               y_label: str = "MP") -> SafeString:
    """One line a series ((label, [(turn, value), ...])), a dot at each point."""
    turns = sorted({t for _label, points in series for t, _v in points})
    if not turns:
        return mark_safe("")
    top = _scale(max((v for _label, points in series for _t, v in points), default=0))
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x_of(turn: int) -> float:
        if len(turns) == 1:
            return LEFT + inner_w / 2
        inset = 18  # the first and last dots clear of the axis's numbers and the frame
        return LEFT + inset + (inner_w - 2 * inset) * (turn - turns[0]) / (turns[-1] - turns[0])

    def y_of(value: int) -> float:
        return TOP + inner_h - inner_h * value / top

    body: list[str] = []
    for i, (label, points) in enumerate(series):
        colour = PALETTE[i % len(PALETTE)]
        path = " ".join(f"{x_of(t):.1f},{y_of(v):.1f}" for t, v in points)
        body.append(format_html('<g class="series" data-label="{}"><polyline points="{}" '
                                'fill="none" stroke="{}" stroke-width="2"/>',
                                label, path, colour))
        for t, v in points:
            body.append(format_html(
                '<circle cx="{}" cy="{}" r="3.5" fill="{}" data-x="{}" data-y="{}">'
                '<title>{}, turn {}: {}</title></circle>',
                _n(x_of(t)), _n(y_of(v)), colour, t, v, label, t, v))
        body.append("</g>")
    return _frame(chart_id, title, body, [(x_of(t), str(t)) for t in turns], top, y_label)


def bar_chart(chart_id: str, title: str, groups: list[tuple[str, list[tuple[str, int]]]],
              y_label: str = "Votes") -> SafeString:
    """Side by side bars for each group ((its turn's label, [(label, value), ...])): the
    budget votes."""
    if not groups:
        return mark_safe("")
    top = _scale(max((v for _t, bars in groups for _l, v in bars), default=0))
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = inner_w / len(groups)
    body: list[str] = []
    ticks: list[tuple[float, str]] = []
    for g, (turn, bars) in enumerate(groups):
        width = slot * 0.8 / max(len(bars), 1)
        start = LEFT + slot * g + slot * 0.1
        ticks.append((LEFT + slot * g + slot / 2, str(turn)))
        for b, (label, value) in enumerate(bars):
            height = inner_h * value / top
            body.append(format_html(
                '<rect class="bar bar-{}" x="{}" y="{}" width="{}" height="{}" '
                'data-x="{}" data-label="{}" data-y="{}"><title>Turn {}, {}: {}</title></rect>',
                escape(label.lower()), _n(start + width * b), _n(TOP + inner_h - height), _n(width),
                _n(height),
                turn, label, value, turn, label, value))
    return _frame(chart_id, title, body, ticks, top, y_label)
