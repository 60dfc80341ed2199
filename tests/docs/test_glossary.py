"""One glossary per language: each game's terms in ``web/static/i18n/glossary-<lang>.json`` (for Forma and
Qwirkle Cubes the Dutch rulebook's own words), each with the known alternatives it replaces (``not``, regular
expressions matched as whole words, case-insensitive). Nothing players read may use an alternative where the
glossary has a term: the translations (every page, the boards, the errors), the rules traces' own words in
``docs/rules/`` (the rulebook quotes stay as printed), the rules' error messages in the source and the
command line's strings. ``docs/glossary.md`` lists the glossary in both languages (run this file to rewrite it).

A string belongs to a game by its key (``rules.forma.``, ``qc.``, ``error.engine.quadefy.`` ...), a trace by its
file and a command by its module; the terms under ``all`` apply everywhere. Placeholders (``{cell}``) and
quoted literals (``'template'``, a key of a file format) are not words of the sentence.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "src" / "polytable" / "web" / "static" / "i18n"
DOC = ROOT / "docs" / "glossary.md"
LANGS = ("en", "nl")
GAMES = ("formfinity", "foldris", "forma", "qwirkle-cubes", "quadefy")
NAMES = {"formfinity": "FORMFINITY", "foldris": "Foldris", "forma": "Forma", "qwirkle-cubes": "Qwirkle Cubes",
         "quadefy": "Quadefy", "all": "Every game"}  # fmt: skip

SCOPES = {
    "formfinity": ("rules.formfinity.", "learn.formfinity.", "game.formfinity.", "option.formfinity.",
                   "error.engine.formfinity.", "ff.", "cp.", "card.", "ds.", "error.variant_", "error.bad_card",
                   "home.designer"),
    "foldris": ("rules.foldris.", "learn.foldris.", "game.foldris.", "option.foldris.", "error.engine.foldris.",
                "fd.", "cp."),
    "forma": ("rules.forma.", "learn.forma.", "game.forma.", "option.forma.", "error.engine.forma.", "forma."),
    "qwirkle-cubes": ("rules.qwirkle.", "learn.qwirkle-cubes.", "game.qwirkle-cubes.", "option.qwirkle-cubes.",
                      "error.engine.qwirkle.", "qc."),
    "quadefy": ("rules.quadefy.", "learn.quadefy.", "game.quadefy.", "option.quadefy.", "error.engine.quadefy.",
                "qd.", "error.no_pattern", "error.engine.print.unknown_pattern"),
}  # fmt: skip
"""Which translation keys are a game's words (the companion's ``cp.`` serves both card games)."""

TRACES = {"formfinity.md": "formfinity", "foldris.md": "foldris", "forma.md": "forma",
          "qwirkle_cubes.md": "qwirkle-cubes", "quadefy.md": "quadefy", "README.md": None}  # fmt: skip
CLI = {"cmd_formfinity.py": "formfinity", "cmd_foldris.py": "foldris", "cmd_forma.py": "forma",
       "cmd_quadefy.py": "quadefy", "formfinity.py": "formfinity", "_formfinity_qr.py": "formfinity",
       "foldris.py": "foldris", "forma.py": "forma", "quadefy.py": "quadefy",
       "qwirkle_cubes.py": "qwirkle-cubes"}  # fmt: skip
"""The game of a module of the command line (``cli/``) or of the printed sheets (``printables/``)."""
CODES = {"formfinity.": "formfinity", "foldris.": "foldris", "forma.": "forma", "qwirkle.": "qwirkle-cubes",
         "quadefy.": "quadefy"}  # fmt: skip


def glossary(lang: str) -> dict[str, list[dict[str, object]]]:
    return json.loads((I18N / f"glossary-{lang}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _patterns(lang: str, game: str | None) -> list[tuple[str, re.Pattern[str]]]:
    g = glossary(lang)
    entries = [*g["all"], *(g[game] if game else [])]
    return [
        (str(e["term"]), re.compile(rf"(?<![\w-])(?:{alt})(?![\w-])", re.I))
        for e in entries
        for alt in e["not"]  # type: ignore[attr-defined]
    ]


def _words(text: str) -> str:
    """The sentence without its placeholders and quoted literals."""
    return re.sub(r"\{\w+\}|'[^'\s][^']*'", " ", text)


def problems(lang: str, strings: Mapping[str, tuple[str | None, str]]) -> list[str]:
    """``name: 'found' (use 'term'): text`` for each alternative found; ``strings``: name -> (game, text)."""
    cache: dict[str | None, list[tuple[str, re.Pattern[str]]]] = {}
    out = []
    for name, (game, text) in strings.items():
        pats = cache.setdefault(game, _patterns(lang, game))
        for term, pat in pats:
            m = pat.search(_words(text))
            if m:
                out.append(f"{lang} {name}: {m.group(0)!r} (use {term!r}): {text}")
    return out


def _translations(lang: str) -> Iterator[tuple[str, tuple[str | None, str]]]:
    data = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    for key, text in data.items():
        games = [g for g, prefixes in SCOPES.items() if key.startswith(prefixes)] or [None]
        for game in games:
            yield f"{key} [{game or 'all'}]", (game, text)


def test_the_glossaries_name_the_same_things_in_both_languages() -> None:
    en, nl = glossary("en"), glossary("nl")
    assert list(en) == list(nl) == ["all", *GAMES]
    for part in en:
        assert len(en[part]) == len(nl[part]), f"{part}: one Dutch term for each English one"
        for e in (*en[part], *nl[part]):
            assert e["term"] and e["means"], e
            for alt in e["not"]:  # type: ignore[attr-defined]
                pat = re.compile(rf"(?<![\w-])(?:{alt})(?![\w-])", re.I)
                assert not pat.search(str(e["term"])), f"{e['term']!r} is one of its own alternatives ({alt})"


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_board_and_error_uses_the_glossary(lang: str) -> None:
    bad = problems(lang, dict(_translations(lang)))
    assert not bad, "a known alternative where the glossary has a term:\n" + "\n".join(bad)


def test_the_rules_traces_use_the_english_terms() -> None:
    strings = {}
    for path in sorted((ROOT / "docs" / "rules").glob("*.md")):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.startswith(">") and not line.startswith("- Test"):  # quotes are the rulebook's words
                strings[f"docs/rules/{path.name}:{n}"] = (TRACES[path.name], re.sub(r"`[^`]*`", " ", line))
    bad = problems("en", strings)
    assert not bad, "\n".join(bad)


def test_the_rules_error_messages_use_the_english_terms() -> None:
    from polytable.web._i18n import engine_messages

    strings = {
        code: (next((g for prefix, g in CODES.items() if code.startswith(prefix)), None), text)
        for code, text in engine_messages().items()
    }
    assert len(strings) > 300
    bad = problems("en", strings)
    assert not bad, "\n".join(bad)


def _cli_strings() -> Iterator[tuple[str, tuple[str | None, str]]]:
    """Every string constant but docstrings in the command line's modules and the printables (the PDFs)."""
    src = ROOT / "src" / "polytable"
    for path in sorted([*(src / "cli").glob("*.py"), *(src / "printables").glob("*.py")]):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, ast.Module | ast.FunctionDef | ast.ClassDef | ast.AsyncFunctionDef)
            and node.body
            and isinstance(node.body[0], ast.Expr)
            and isinstance(node.body[0].value, ast.Constant)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings:
                yield f"{path.name}:{node.lineno}:{node.col_offset}", (CLI.get(path.name), node.value)


def test_the_command_line_and_the_printed_sheets_use_the_english_terms() -> None:
    strings = dict(_cli_strings())
    assert any("--players" in text for _, text in strings.values())
    bad = problems("en", strings)
    assert not bad, "\n".join(bad)


def test_the_terminal_boards_and_move_descriptions_use_the_english_terms() -> None:
    """What ``polytable play`` shows: each game's board and its moves in words, over a short seeded game."""
    from polytable.core import Rng, all_games
    from polytable.match import Match

    strings = {}
    for game in all_games():
        if game.spec.id not in GAMES:
            continue
        match, rng = Match(game, {}, game.spec.default_players, 3), Rng(1)
        for step in range(12):
            match.resolve_chance()
            if match.is_over():
                break
            board = re.sub(r"\x1b\[[0-9;]*m", "", game.render(match.state, None, color=False))
            strings[f"{game.spec.id} board {step}"] = (game.spec.id, board)
            seat = match.acting_players()[0]
            action = game.legal_actions(match.state, seat).sample(rng)
            strings[f"{game.spec.id} move {step}"] = (game.spec.id, game.describe_action(action, match.state))
            match.play(action, seat)
    assert len(strings) > 40
    bad = problems("en", strings)
    assert not bad, "\n".join(bad)


CALQUES = (r"\bkreeg\b", r"\bneemt (een|\d|true|tekst|gehele)", r"\bfaalde\b", r"\bzaad\b", r"\bAI (?!'s)[A-Z]\w+")
"""English read word for word into Dutch: 'got 9' as 'kreeg 9', 'takes a number' as 'neemt een getal', 'failed'
as 'faalde', a seed as 'zaad', 'Greedy AI' as 'AI Gulzig'."""


def test_dutch_errors_and_names_read_as_dutch() -> None:
    nl = json.loads((I18N / "nl.json").read_text(encoding="utf-8"))
    bad = [f"{k}: {v}" for k, v in nl.items() for c in CALQUES if re.search(c, v)]
    assert not bad, "word-for-word Dutch:\n" + "\n".join(bad)
    named = {k: v for k, v in nl.items() if k.startswith("ai.") and k.endswith(".named")}
    assert named["ai.greedy.named"] == "Gretige AI" and named["ai.random.named"] == "Willekeurige AI"
    assert all(not v.startswith("AI ") for v in named.values()), named  # the adjective comes first


def test_the_checker_flags_a_known_alternative() -> None:
    planted = {
        "rules.formfinity.x": ("formfinity", "Wie de lijn claimt, tekent op de template."),
        "qc.x": ("qwirkle-cubes", "Gooi je blokjes opnieuw."),
        "forma.x": ("forma", "Spiegel de vorm."),
        "fd.x": ("foldris", "Inkorten kost 2 punten; het vel is vol."),
        "error.x": (None, "Het zaad van dit apparaat"),
        "ok": ("formfinity", "Het onderdeel 'template' moet een geheel getal zijn, niet {template}"),
    }
    found = {line.split(":")[0].split()[1]: line for line in problems("nl", planted)}
    assert set(found) == {"rules.formfinity.x", "qc.x", "forma.x", "fd.x", "error.x"}, found
    assert "'claimt' (use 'veroveren')" in found["rules.formfinity.x"] or "'template'" in found["rules.formfinity.x"]
    assert len(problems("nl", {"qc.x": planted["qc.x"]})) == 2  # both words: gooi and blokjes
    assert problems("en", {"x": ("forma", "Tap a square")}) and not problems("en", {"x": ("forma", "unit squares")})


def markdown() -> str:
    """``docs/glossary.md`` as the glossary files make it."""
    en, nl = glossary("en"), glossary("nl")
    out = [
        "# Glossary: one word for each thing, in English and in Dutch",
        "",
        "Every page of the web app, every board, every error message and the command line name each thing of a",
        "game with the one term below. The source is `src/polytable/web/static/i18n/glossary-en.json` and",
        "`glossary-nl.json` (one file per language, read by the How-to-play pages and `polytable rules`, which",
        "show a game's words at the end); this page is made from them (`python tests/docs/test_glossary.py`).",
        "For Forma and Qwirkle Cubes the Dutch terms are the Dutch rulebook's own words (Qwirkle Cubes' rulebook",
        "calls a hand *dek*); for the other games one Dutch term was chosen for each thing and kept.",
        "",
        "`tests/docs/test_glossary.py` flags a known alternative (the last column) wherever the glossary has a",
        "term: in `en.json` and `nl.json` (pages, boards, errors), in the rules traces of `docs/rules/` (the",
        "rulebook quotes stay as printed), in the rules' error messages and in the command line's strings.",
    ]
    for part in ["all", *GAMES]:
        out += ["", f"## {NAMES[part]}", "", "| English | Nederlands | Meaning | Betekenis | Not (en / nl) |",
                "|---|---|---|---|---|"]  # fmt: skip
        for e, n in zip(en[part], nl[part], strict=True):
            alts = " / ".join(", ".join(f"`{a}`" for a in x["not"]) or "-" for x in (e, n))  # type: ignore[attr-defined]
            alts = alts.replace("|", r"\|")  # a regular expression's | inside a table cell
            out.append(f"| {e['term']} | {n['term']} | {e['means']} | {n['means']} | {alts} |")
    return "\n".join(out) + "\n"


def test_the_glossary_page_lists_the_glossary() -> None:
    assert DOC.read_text(encoding="utf-8") == markdown(), "docs/glossary.md is stale: run tests/docs/test_glossary.py"


if __name__ == "__main__":
    DOC.write_text(markdown(), encoding="utf-8")
    sys.exit(0)
