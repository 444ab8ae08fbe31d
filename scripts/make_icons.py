"""Make the app's PNG icons (``src/cardhall/web/icons/icon-192.png`` and ``icon-512.png``, named in the web
app manifests) from the favicon's design (``src/cardhall/web/favicon.svg``): the favicon drawn by Debian's
headless Chromium (through Playwright, as the browser tests use it) in the middle of a square of the
header's dark green, at 72 % of its side, so that a launcher's round or rounded mask keeps the two cards
whole. The PNGs are committed; run this again after changing the favicon:

    PYTHONPATH=src python scripts/make_icons.py
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import sync_playwright

WEB = Path(__file__).resolve().parent.parent / "src" / "cardhall" / "web"
CHROMIUM = "/usr/bin/chromium"
SIZES = (192, 512)
BACKGROUND = "#143d29"  # the header's green (style.css), the manifests' theme colour
SHARE = 0.72  # the favicon's part of the icon's side


def page(svg: str, size: int) -> str:
    inner = round(size * SHARE)
    return (
        "<!doctype html><html><body style='margin:0'>"
        f"<div style='width:{size}px;height:{size}px;background:{BACKGROUND};"
        "display:grid;place-items:center'>"
        f"<div style='width:{inner}px;height:{inner}px'>{svg}</div></div></body></html>"
    )


def main() -> None:
    svg = (
        (WEB / "favicon.svg")
        .read_text(encoding="utf-8")
        .replace("<svg ", "<svg width='100%' height='100%' ", 1)
    )
    out = WEB / "icons"
    out.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        for size in SIZES:
            tab = browser.new_page(viewport={"width": size, "height": size})
            tab.set_content(page(svg, size))
            tab.screenshot(
                path=str(out / f"icon-{size}.png"), clip={"x": 0, "y": 0, "width": size, "height": size}
            )
            tab.close()
        browser.close()
    print("\n".join(f"{out / f'icon-{size}.png'}" for size in SIZES))


if __name__ == "__main__":
    main()
