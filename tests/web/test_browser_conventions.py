"""The browser tests measure and tap board elements only through ``_browser.rect`` and its helpers.

A board is drawn again whenever a state, a preview or the AI's move arrives; a Playwright call that holds an
element found by an earlier call can then meet a detached node (CI failed so: a spot's box read as ``None``,
a hint's ghost "not attached to the DOM"). ``_browser.rect`` finds, scrolls and measures in one step of the
page's JavaScript. This check needs no browser.
"""

from __future__ import annotations

import re
from pathlib import Path

HERE = Path(__file__).resolve().parent
RACY = re.compile(r"\.(bounding_box|scroll_into_view_if_needed)\(")


def test_no_browser_test_measures_a_located_element_in_a_second_call() -> None:
    found = [
        f"{path.name}:{n}: {line.strip()}"
        for path in sorted(HERE.glob("*.py"))
        if path.name != Path(__file__).name
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if RACY.search(line)
    ]
    assert not found, "use _browser.rect / centre / tap / scroll_to instead:\n" + "\n".join(found)


def test_the_check_catches_the_racy_calls() -> None:
    assert RACY.search('box = page.locator("#qc-table rect.spot").first.bounding_box()')
    assert RACY.search("page.locator(ghost).first.scroll_into_view_if_needed()")
    assert not RACY.search('box = rect(page, "#qd-3d")')
