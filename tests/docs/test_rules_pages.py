"""The How-to-play pages and the terminal's ``polytable rules``: one text, in English and Dutch, in the same
sections, saying what the rulebooks say where earlier pages did not."""

from __future__ import annotations

import json
import re
from pathlib import Path
from types import SimpleNamespace

import pytest
from typer.testing import CliRunner

from polytable.cli import app, cmd_rules
from polytable.cli.cmd_rules import rules_pages
from polytable.core import GameSpec

ROOT = Path(__file__).resolve().parents[2]
STATIC = ROOT / "src" / "polytable" / "web" / "static"
PAGES = rules_pages()
runner = CliRunner()


def _load(lang: str) -> dict[str, str]:
    return json.loads((STATIC / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _sections(keys: dict[str, str], page: str) -> list[str]:
    head = re.compile(rf"rules\.{page}\.(\w+)$")
    return [m.group(1) for k in keys if (m := head.match(k)) and f"{k}.1" in keys]


def test_the_pages_come_from_what_each_game_declares() -> None:
    assert PAGES == {
        "foldris": "foldris",
        "forma": "forma",
        "formfinity": "formfinity",
        "quadefy": "quadefy",
        "qwirkle-cubes": "qwirkle",  # GameSpec.rules_page; the others' pages are their ids
    }
    assert "toy" not in PAGES  # not listed, and no page


def test_a_new_game_with_a_page_needs_no_edit_of_the_command(monkeypatch: pytest.MonkeyPatch) -> None:
    def game(gid: str, page: str = "", listed: bool = True) -> SimpleNamespace:
        return SimpleNamespace(spec=GameSpec(gid, gid.title(), 2, 2, 2, "1", listed=listed, rules_page=page))

    games = [game("nim"), game("go-moku", page="gomoku"), game("hidden", listed=False), game("bare")]
    monkeypatch.setattr(cmd_rules, "all_games", lambda: games)
    keys = {f"rules.{p}.name": p for p in ("nim", "gomoku", "hidden")}
    assert rules_pages(keys) == {"nim": "nim", "go-moku": "gomoku"}  # unlisted and page-less games skipped


def test_english_and_dutch_have_the_same_rules_keys() -> None:
    en = {k for k in _load("en") if k.startswith("rules.")}
    nl = {k for k in _load("nl") if k.startswith("rules.")}
    assert en == nl, sorted(en ^ nl)
    assert all(_load("nl")[k] and _load("nl")[k] != _load("en")[k] for k in en if re.search(r"\.\d+$", k))


def test_the_web_page_and_the_terminal_show_the_same_sections_in_the_same_order() -> None:
    js = (STATIC / "rules.js").read_text(encoding="utf-8")
    block = js[js.index("const SECTIONS") : js.index("};", js.index("const SECTIONS"))]
    listed = {m.group(1): re.findall(r'"(\w+)"', m.group(2)) for m in re.finditer(r"(\w+): \[([^\]]*)\]", block)}
    en = _load("en")
    assert listed == {page: _sections(en, page) for page in PAGES.values()}


@pytest.mark.parametrize("lang", ["en", "nl"])
@pytest.mark.parametrize("game", list(PAGES))
def test_polytable_rules_prints_every_sentence_of_the_page(game: str, lang: str) -> None:
    r = runner.invoke(app, ["rules", game, "--lang", lang])
    assert r.exit_code == 0, r.output
    keys = _load(lang)
    page = PAGES[game]
    flat = " ".join(r.output.split())
    wanted = [keys[f"rules.{page}.goal"]] + [
        keys[k] for sec in _sections(keys, page) for k in keys if re.fullmatch(rf"rules\.{page}\.{sec}\.\d+", k)
    ]
    assert all(" ".join(text.split()) in flat for text in wanted)
    assert all(keys[f"rules.{page}.{sec}"].upper() in r.output for sec in _sections(keys, page))


def test_polytable_rules_refuses_an_unknown_game_or_language() -> None:
    r = runner.invoke(app, ["rules", "chess"])
    assert r.exit_code == 2 and "choose one of foldris, forma, formfinity, quadefy, qwirkle-cubes" in r.output
    r = runner.invoke(app, ["rules", "Qwirkle_Cubes"])
    assert r.exit_code == 0 and "QWIRKLE" in r.output.upper()
    r = runner.invoke(app, ["rules", "forma", "--lang", "de"])
    assert r.exit_code == 2 and "en, nl" in r.output


def test_the_known_errors_are_gone() -> None:
    """FORMFINITY: players take turns on one shared template; Foldris: the player chooses where the block falls
    and the card's number is the lane of the start square and the barrier."""
    en = _load("en")
    ff = " ".join(v for k, v in en.items() if k.startswith("rules.formfinity."))
    assert "Everyone draws the same card" not in ff and "on their own template" not in ff
    assert "Take turns" in en["rules.formfinity.goal"] and "shared template" in en["rules.formfinity.goal"]
    fo = " ".join(v for k, v in en.items() if k.startswith("rules.foldris."))
    assert "lane it falls in" not in fo
    assert "You choose the column the block falls in" in en["rules.foldris.round.3"]
    assert (
        "starting player's lane" in en["rules.foldris.setup.5"]
        and "lane of the card's number" in en["rules.foldris.round.6"]
    )


def test_rules_during_terminal_play() -> None:
    r = runner.invoke(app, ["play", "quadefy", "--seed", "1", "--no-color"], input="rules\nquit\n")
    assert r.exit_code == 0, r.output
    flat = " ".join(r.output.split())
    assert " ".join(_load("en")["rules.quadefy.end.1"].split()) in flat and "Game abandoned." in flat
    r = runner.invoke(app, ["play", "toy", "--seed", "1"], input="rules\nquit\n")
    assert "no rules for 'toy'" in r.output
