"""Rulebook text and polytable's readings stay apart: every rule the app adds (a point of CLARIFICATIONS.md
marked Chosen, Inferred or Accepted reading, a choice where both are silent, an item that is not a rulebook
sentence) is flagged in ``i18n/readings.json`` on the How-to-play item that states it, with its note in
``docs/rules/``; and both the web page's model and ``polytable rules`` mark exactly those items, in English and
Dutch.

A trace note says what it is on a ``- Reading:`` line: ``stated`` (the rulebook says it; the note records how),
``sourced`` (another edition or description says it), or one of the app's own readings, ``inferred``,
``chosen`` and ``accepted``. Every note outside the rulebook sections needs one, and so does a rulebook-section
item that opens with "(Not a rulebook sentence".
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from polytable.cli import app
from polytable.cli.cmd_rules import readings, rules_pages

from .test_rules_traces import I18N, KEY_REF, RULES

ROOT = Path(__file__).resolve().parents[2]
TRACE = {"formfinity": "formfinity", "foldris": "foldris", "forma": "forma", "qwirkle": "qwirkle_cubes",
         "quadefy": "quadefy"}  # fmt: skip
KINDS = ("stated", "sourced", "inferred", "chosen", "accepted")
APP_ADDED = ("inferred", "chosen", "accepted")
READING = re.compile(r"^- Reading: (\w[\w ]*?)(?:[:.(]|$)", re.M)


@dataclass
class Note:
    """One item of a trace: its id, whether it is a rulebook sentence, whether it must say what it is, its
    reading kind, the rule items (``section.n``) its How-to-play line names and whether it is off the page."""

    id: str
    rulebook: bool
    needs_kind: bool
    kind: str | None
    items: set[str]
    off_page: bool


def _notes(page: str) -> list[Note]:
    text = (RULES / f"{TRACE[page]}.md").read_text(encoding="utf-8")
    item_key = re.compile(rf"rules\.{page}\.(\w+\.\d+)$")
    out = []
    for part in re.split(r"^## ", text, flags=re.M)[1:]:
        rulebook_section = part.startswith("Rulebook")
        for item in re.split(r"^### ", part, flags=re.M)[1:]:
            heading, _, body = item.partition("\n")
            kind = READING.search(body)
            play = "\n".join(line for line in body.splitlines() if line.startswith("- How to play"))
            not_a_sentence = body.lstrip().startswith("> (Not a rulebook sentence")
            keys = (item_key.match(k) for k in KEY_REF.findall(play))
            out.append(
                Note(
                    id=heading.split(".")[0].strip(),
                    rulebook=rulebook_section and not not_a_sentence,
                    needs_kind=not rulebook_section or not_a_sentence,
                    kind=kind.group(1).strip() if kind else None,
                    items={m.group(1) for m in keys if m},
                    off_page="not on the page" in play,
                )
            )
    return out


def _keys(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


FLAGS = readings()
PAGES = list(TRACE)


def test_readings_cover_every_page_and_name_their_notes_file() -> None:
    assert sorted(FLAGS) == sorted(PAGES)
    for page in PAGES:
        assert FLAGS[page]["notes"] == f"docs/rules/{TRACE[page]}.md"
        assert (ROOT / FLAGS[page]["notes"]).is_file()


@pytest.mark.parametrize("page", PAGES)
def test_every_note_outside_the_rulebook_says_what_it_is(page: str) -> None:
    bad = [f"{n.id}: {n.kind!r}" for n in _notes(page) if n.needs_kind and n.kind not in KINDS]
    assert not bad, f"{page}: notes without a '- Reading: {'|'.join(KINDS)}' line:\n" + "\n".join(bad)
    assert any(n.kind in APP_ADDED for n in _notes(page))  # each game has readings of its own


@pytest.mark.parametrize("page", PAGES)
def test_every_flag_is_a_note_of_the_apps_own_that_names_the_item(page: str) -> None:
    notes = {n.id: n for n in _notes(page)}
    en, nl = _keys("en"), _keys("nl")
    bad = []
    for item, flagged in FLAGS[page]["items"].items():
        key = f"rules.{page}.{item}"
        if key not in en or key not in nl:
            bad.append(f"{item}: no such How-to-play item in en.json and nl.json")
        for note, kind in flagged.items():
            n = notes.get(note)
            if n is None:
                bad.append(f"{item}: no note {note} in {FLAGS[page]['notes']}")
            elif n.kind != kind or kind not in APP_ADDED:
                bad.append(f"{item}: {note} is {n.kind!r} in the notes, {kind!r} here")
            elif item not in n.items:
                bad.append(f"{item}: note {note} does not name it on its How-to-play line")
    assert not bad, f"{page}:\n" + "\n".join(bad)


@pytest.mark.parametrize("page", PAGES)
def test_every_rule_the_app_adds_is_flagged_where_the_page_states_it(page: str) -> None:
    """An app-added note's items that no rulebook sentence names are its own words: each carries its flag;
    and a note the page shows is flagged on at least one item."""
    notes = _notes(page)
    said_by_rulebook = {item for n in notes if n.rulebook for item in n.items}
    flags = FLAGS[page]["items"]
    bad = []
    for n in notes:
        if n.kind not in APP_ADDED:
            continue
        for item in sorted(n.items - said_by_rulebook):
            if n.id not in flags.get(item, {}):
                bad.append(f"{n.id} ({n.kind}) is stated by {item}, which is not flagged with it")
        if n.items and not any(n.id in flags.get(item, {}) for item in n.items):
            bad.append(f"{n.id} ({n.kind}) is shown on the page but flagged on none of its items")
        if not n.items and not n.off_page:
            bad.append(f"{n.id} ({n.kind}) names no How-to-play item and does not say it is not on the page")
    assert not bad, f"{page}: app-added rules not marked:\n" + "\n".join(bad)


runner = CliRunner()
GAMES = {page: game for game, page in rules_pages().items()}


@pytest.mark.parametrize("lang", ["en", "nl"])
@pytest.mark.parametrize("page", PAGES)
def test_polytable_rules_marks_exactly_the_flagged_rules(page: str, lang: str) -> None:
    keys = _keys(lang)
    out = runner.invoke(app, ["rules", GAMES[page], "--lang", lang], env={"COLUMNS": "100"}).output
    flat = " ".join(out.split())
    mark = keys["rules.reading"]
    for item, flagged in FLAGS[page]["items"].items():
        said = " ".join(keys[f"rules.{page}.{item}"].split())
        note = keys["rules.reading.note"].format(notes=", ".join(flagged), file=FLAGS[page]["notes"])
        assert f"{said} [{mark}: {note}]" in flat, (item, lang)
    assert flat.count(f"[{mark}:") == len(FLAGS[page]["items"])  # and no other item
    assert keys["rules.readings"].upper() in out
    kinds = {kind for flagged in FLAGS[page]["items"].values() for kind in flagged.values()}
    assert all(" ".join(keys[f"rules.reading.{k}"].split()) in flat for k in kinds)


def test_the_printed_templates_mark_the_readings_too(tmp_path: Path) -> None:
    """The rules printed under a FORMFINITY template mark polytable's readings as the pages do."""
    pdfium = pytest.importorskip("pypdfium2")
    from polytable.printables import printables

    said = {}
    for variant in ("1", "3", "4"):
        out = tmp_path / f"v{variant}.pdf"
        printables()["formfinity"](str(out), "a4", {"variant": variant})
        said[variant] = " ".join(pdfium.PdfDocument(str(out))[0].get_textpage().get_text_range().split())
    assert "*two lines in the same direction never do" in said["1"]
    assert "*No element may leave the other player without a way" in said["3"]
    for variant in ("1", "3"):
        assert "polytable's reading, not the rulebook's words: see docs/rules/formfinity.md" in said[variant]
    assert "*" not in said["4"] and "polytable's reading" not in said["4"]  # nothing of its own printed there
