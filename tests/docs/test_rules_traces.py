"""The rules traces (docs/rules/<game>.md) stay true: every test they name exists, every How-to-play key
they name exists in English and Dutch, and every rule item says how it is enforced.

A trace is a list of items, one ``###`` heading each: the rulebook's sentence(s), a ``- How to play:`` line
(translation keys in backticks, or why the page leaves it out) and a ``- Test:`` line (tests as
``tests/path/test_file.py::test_name`` in backticks, or ``not enforced by code:`` and the reason). A test
that another change is still bringing is written on a ``TODO-by-lead`` line; it may be missing only while
it is listed in ``PENDING`` below, which is emptied once that change has landed.
"""

from __future__ import annotations

import ast
import json
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "docs" / "rules"
I18N = ROOT / "src" / "polytable" / "web" / "static" / "i18n"
GAMES = ("formfinity", "foldris", "forma", "qwirkle_cubes", "quadefy")
PAGE = {"qwirkle_cubes": "qwirkle"}  # the page key prefix where it differs from the game

TEST_REF = re.compile(r"`(tests/[\w/.-]+\.py(?:::\w+)+)`")
KEY_REF = re.compile(r"`(rules\.[\w.-]+)`")

# Tests named on TODO-by-lead lines that other changes bring; each may be missing until it lands. The lead
# empties this list after merging those changes (an entry that exists already, or that no trace names, fails).
PENDING: frozenset[str] = frozenset(
    {
        "tests/games/foldris/test_foldris_rules.py::test_the_starting_player_is_drawn_from_the_seed",
        "tests/games/forma/test_forma_rules.py::test_touch_move_is_the_default",
        "tests/games/forma/test_forma_setup.py::test_players_place_the_obstacles_and_the_tower_before_the_first_move",
        "tests/games/forma/test_forma_setup.py::test_placed_obstacles_keep_off_the_border_and_apart",
        "tests/games/formfinity/test_formfinity_connect.py::test_v3_reading_decides_most_games",
        "tests/games/formfinity/test_formfinity_connect.py::test_v4_ties_are_rare",
    }
)


def _items(text: str) -> list[tuple[str, str]]:
    """The ``###`` items of a trace: (heading, body)."""
    parts = re.split(r"^### +(.+)$", text, flags=re.M)
    return [(parts[i].strip(), parts[i + 1]) for i in range(1, len(parts) - 1, 2)]


@cache
def _tests_in(path: Path) -> frozenset[str]:
    """``name`` and ``Class::name`` of every test function in a test file (by AST, without importing it)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith("test"):
            out.add(node.name)
        elif isinstance(node, ast.ClassDef) and node.name.startswith("Test"):
            out |= {
                f"{node.name}::{f.name}"
                for f in node.body
                if isinstance(f, ast.FunctionDef | ast.AsyncFunctionDef) and f.name.startswith("test")
            }
    return frozenset(out)


def _test_exists(ref: str) -> bool:
    path, _, name = ref.partition("::")
    file = ROOT / path
    return file.is_file() and name in _tests_in(file)


@cache
def _keys(lang: str) -> frozenset[str]:
    return frozenset(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")))


def _problems(game: str, path: Path | None = None) -> tuple[list[str], set[str]]:
    """What is wrong with one trace (``docs/rules/<game>.md`` unless ``path``), and the TODO-by-lead tests it
    names."""
    path = path or RULES / f"{game}.md"
    if not path.is_file():
        return [f"{path} is missing"], set()
    items = _items(path.read_text(encoding="utf-8"))
    bad: list[str] = [] if items else [f"{game}: no ### items"]
    todo: set[str] = set()
    for heading, body in items:
        where = f"{game} [{heading}]"
        test_lines = [line for line in body.splitlines() if line.startswith("- Test")]
        play_lines = [line for line in body.splitlines() if line.startswith("- How to play")]
        if not play_lines:
            bad.append(f"{where}: no '- How to play:' line")
        if not test_lines:
            bad.append(f"{where}: no '- Test:' line")
        refs = [r for line in test_lines for r in TEST_REF.findall(line)]
        if test_lines and not refs and not any("not enforced by code:" in line.lower() for line in test_lines):
            bad.append(f"{where}: names no test and does not say 'not enforced by code:' and why")
        for line in test_lines:
            for ref in TEST_REF.findall(line):
                if "TODO-by-lead" in line:
                    todo.add(ref)
                    if not _test_exists(ref) and ref not in PENDING:
                        bad.append(f"{where}: TODO-by-lead test {ref} is missing and not in PENDING")
                elif not _test_exists(ref):
                    bad.append(f"{where}: test {ref} does not exist")
        for line in play_lines:
            for key in KEY_REF.findall(line):
                for lang in ("en", "nl"):
                    if key not in _keys(lang):
                        bad.append(f"{where}: How-to-play key {key} is missing from {lang}.json")
    return bad, todo


@pytest.mark.parametrize("game", GAMES)
def test_every_named_test_and_key_exists(game: str) -> None:
    bad, _ = _problems(game)
    assert not bad, "rules trace problems:\n" + "\n".join(bad)


@pytest.mark.parametrize("game", GAMES)
def test_every_page_item_is_traced(game: str) -> None:
    """Nothing on a How-to-play page is left untraced: each of its sentences is tied to the rulebook."""
    text = (RULES / f"{game}.md").read_text(encoding="utf-8")
    named = {key for heading, body in _items(text) for line in body.splitlines() if line.startswith("- How to play")
             for key in KEY_REF.findall(line)}  # fmt: skip
    item = re.compile(rf"rules\.{PAGE.get(game, game)}\.(goal|caption|\w+\.\d+)$")
    untraced = sorted(k for k in _keys("en") if item.match(k) and k not in named)
    assert not untraced, f"How-to-play sentences of {game} that its trace does not name:\n" + "\n".join(untraced)


def test_pending_lists_only_missing_tests_that_a_trace_names() -> None:
    named: set[str] = set()
    for game in GAMES:
        named |= _problems(game)[1]
    stale = sorted(ref for ref in PENDING if _test_exists(ref) or ref not in named)
    assert not stale, "remove from PENDING (it exists now, or no trace names it):\n" + "\n".join(stale)


def test_the_checker_finds_what_is_missing(tmp_path: Path) -> None:
    here = "tests/docs/test_rules_traces.py"
    trace = tmp_path / "game.md"
    trace.write_text(
        "# A game\n\n"
        "### 1. Fine\n> A rule.\n- How to play: `rules.title`\n"
        f"- Test: `{here}::test_the_checker_finds_what_is_missing`\n\n"
        "### 2. Broken\n> Another rule.\n- How to play: `rules.nope.key`\n"
        f"- Test: `{here}::test_no_such_test`, `tests/docs/no_such_file.py::test_x`\n\n"
        "### 3. Silent\n> A third.\n- Test: nothing here\n\n"
        "### 4. Component\n> A pencil.\n- How to play: not on the page.\n- Test: not enforced by code: a pencil.\n\n"
        f"### 5. Pending\n> Soon.\n- How to play: `rules.title`\n- Test (TODO-by-lead): `{here}::test_later`\n",
        encoding="utf-8",
    )
    bad, todo = _problems("game", trace)
    assert todo == {f"{here}::test_later"}
    assert bad == [
        "game [2. Broken]: test tests/docs/test_rules_traces.py::test_no_such_test does not exist",
        "game [2. Broken]: test tests/docs/no_such_file.py::test_x does not exist",
        "game [2. Broken]: How-to-play key rules.nope.key is missing from en.json",
        "game [2. Broken]: How-to-play key rules.nope.key is missing from nl.json",
        "game [3. Silent]: no '- How to play:' line",
        "game [3. Silent]: names no test and does not say 'not enforced by code:' and why",
        f"game [5. Pending]: TODO-by-lead test {here}::test_later is missing and not in PENDING",
    ]
