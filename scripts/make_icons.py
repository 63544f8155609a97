"""Draw the installable app's PNG icons from the site's papaya (static/img/favicon.svg).

Run from the repository's root when the papaya changes: `.venv/bin/python scripts/make_icons.py`.
Debian's Chromium (headless, through Playwright) draws the SVG at each size and saves a
screenshot of it under static/img/:

- icon-192.png, icon-512.png: the papaya on a transparent ground, "any" purpose;
- icon-maskable-512.png: on the site's paper colour to the edges, the papaya inside the middle
  60% (the safe zone a launcher's mask keeps is the middle 80% circle);
- apple-touch-icon.png (180): on the paper colour (iOS fills transparency with black).
"""

from __future__ import annotations

import shutil
from pathlib import Path

from playwright.sync_api import sync_playwright

REPO = Path(__file__).resolve().parent.parent
IMG = REPO / "static" / "img"
PAPER = "#fffaf3"  # static/css/junta.css --paper
# name: (size in pixels, share of the side the papaya takes, background or None)
ICONS = {
    "icon-192.png": (192, 1.0, None),
    "icon-512.png": (512, 1.0, None),
    "icon-maskable-512.png": (512, 0.6, PAPER),
    "apple-touch-icon.png": (180, 0.8, PAPER),
}


def page_html(svg: str, size: int, share: float, background: str | None) -> str:
    inner = round(size * share)
    ground = background or "transparent"
    return (f'<!DOCTYPE html><html><body style="margin:0;background:{ground}">'
            f'<div style="width:{size}px;height:{size}px;display:flex;align-items:center;'
            f'justify-content:center">'
            + svg.replace("<svg ", f'<svg width="{inner}" height="{inner}" ', 1)
            + "</div></body></html>")


def main() -> None:
    svg = (IMG / "favicon.svg").read_text().strip()
    executable = shutil.which("chromium")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable,
                                             args=["--no-sandbox", "--disable-gpu"])
        for name, (size, share, background) in ICONS.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(page_html(svg, size, share, background))
            page.screenshot(path=str(IMG / name), omit_background=background is None)
            page.close()
            print(IMG / name)
        browser.close()


if __name__ == "__main__":
    main()
