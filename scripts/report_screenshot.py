"""Render a balance report's page to PNG with Playwright and Debian's Chromium (for docs/ screenshots).

python scripts/report_screenshot.py docs/reports/NAME/report.html docs/reports/NAME/screenshot.png
"""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright


def main(page_path: str, png: str, width: int = 1100) -> None:
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
        page = browser.new_page(viewport={"width": width, "height": 900})
        page.goto(Path(page_path).resolve().as_uri())
        page.screenshot(path=png, full_page=True)
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
