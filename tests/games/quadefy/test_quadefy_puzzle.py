"""The bonus puzzle: named patterns solved and verified cell by cell, impossible ones proven impossible,
the pattern format, and the ``polytable puzzle quadefy`` command."""

from __future__ import annotations

from pathlib import Path

import pytest

from polytable.core import ConfigError
from polytable.games.quadefy import (
    BLOCKS,
    FULL,
    GRID,
    PATTERN_NOTES,
    PATTERNS,
    PLACEMENTS,
    SearchStats,
    parse_pattern,
    pattern_text,
    solve_pattern,
    tile_region,
    verify_solution,
)
from polytable.geometry import TETRACUBES, orientations3

SOLVABLE = ["halves", "columns", "steps", "spiral", "diagonal"]
IMPOSSIBLE = ["octants", "twist", "layers"]


def test_shipped_patterns() -> None:
    assert sorted(PATTERNS) == sorted(SOLVABLE + IMPOSSIBLE) == sorted(PATTERN_NOTES)
    for dark in PATTERNS.values():
        assert dark.bit_count() == 32


def _cell_by_cell(dark: int, dark_tiling: list[int], light_tiling: list[int]) -> None:
    """Independent check: rebuild each cell's colour and block from the placements' own cells."""
    owner: dict[tuple[int, int, int], tuple[int, str]] = {}
    for colour, tiling in enumerate((dark_tiling, light_tiling)):
        names = []
        for pid in tiling:
            p = PLACEMENTS[pid]
            name = BLOCKS[p.block]
            names.append(name)
            cells = GRID.cells(p.mask)
            # The cells are a rotation (never a mirror image) of the block, translated.
            mx, my, mz = (min(c[i] for c in cells) for i in range(3))
            shape = tuple(sorted(((x - mx, y - my, z - mz) for x, y, z in cells), key=lambda c: (c[2], c[1], c[0])))
            assert shape in orientations3(TETRACUBES[name])
            for c in cells:
                assert c not in owner, f"cell {c} covered twice"
                owner[c] = (colour, name)
        assert sorted(names) == sorted(BLOCKS)
    for z in range(4):
        for y in range(4):
            for x in range(4):
                colour, _ = owner[(x, y, z)]
                assert colour == (0 if dark >> GRID.index(x, y, z) & 1 else 1), (x, y, z)


@pytest.mark.parametrize("name", SOLVABLE)
def test_solvable_patterns_are_solved(name: str) -> None:
    dark = PATTERNS[name]
    result = solve_pattern(dark)
    assert result.solved
    d, light = result.tilings
    assert d is not None and light is not None
    assert verify_solution(dark, (d, light)) == []
    _cell_by_cell(dark, d, light)


@pytest.mark.parametrize("name", IMPOSSIBLE)
def test_impossible_patterns_are_proven_impossible(name: str) -> None:
    result = solve_pattern(PATTERNS[name])
    assert not result.solved
    assert result.tilings == (None, None)  # both colours fail (the patterns are symmetric)
    assert all(s.nodes > 0 for s in result.stats)


def test_octant_checkerboard_reason() -> None:
    """Each colour is four separate 2x2x2 octants; the I block (length 4) fits in none of them, so no
    tiling exists, and the complete search agrees."""
    dark = PATTERNS["octants"]
    region_components = []
    rest = dark
    while rest:
        comp = GRID.flood(rest & -rest, rest)
        region_components.append(comp)
        rest ^= comp
    assert [c.bit_count() for c in region_components] == [8, 8, 8, 8]
    i_masks = [p.mask for p in PLACEMENTS if BLOCKS[p.block] == "I"]
    assert not any(m & dark == m for m in i_masks)
    stats = SearchStats()
    assert tile_region(dark, stats) is None and stats.nodes > 1


def test_search_statistics_and_region_checks() -> None:
    stats = SearchStats()
    assert tile_region(GRID.layer(0) | GRID.layer(1), stats) is not None
    assert stats.nodes >= 9 and stats.tried >= 8
    assert tile_region(GRID.layer(0)) is None  # 16 cells: not 8 blocks' worth
    assert verify_solution(PATTERNS["halves"], ([], [])) != []


def test_pattern_text_format_round_trip() -> None:
    for dark in PATTERNS.values():
        assert parse_pattern(pattern_text(dark)) == dark
    text = pattern_text(PATTERNS["spiral"])
    # Layer 1, row 4 is the first line after the comment; the spiral's layer 1 is dark on columns a-b.
    assert text.splitlines()[1] == "XX.."
    one_line = "/".join(line for line in text.splitlines() if not line.startswith("#"))
    assert parse_pattern(one_line) == PATTERNS["spiral"]
    assert parse_pattern(one_line.replace("X", "D").replace(".", "L")) == PATTERNS["spiral"]
    assert parse_pattern("  Halves ") == PATTERNS["halves"]
    # Row order: the first line of a layer is row 4 (the back).
    cells = ["...." * 4] * 4
    cells[0] = "XXXX" + "...." * 3
    with pytest.raises(ConfigError, match="32"):
        parse_pattern("".join(cells))
    dark_back_rows = parse_pattern("".join(("XXXX" if r < 2 else "....") for _ in range(4) for r in range(4)))
    assert dark_back_rows == sum(1 << GRID.index(x, y, z) for x in range(4) for y in (2, 3) for z in range(4))


@pytest.mark.parametrize(
    ("text", "message"),
    [("XXXX", "64 cells"), ("X" * 64, "32 cells"), ("Z" * 64, "unexpected"), ("nonsense pattern", "unexpected")],
)
def test_pattern_errors(text: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_pattern(text)


def test_puzzle_command(tmp_path: Path) -> None:
    typer_testing = pytest.importorskip("typer.testing")
    import typer

    from polytable.cli.cmd_quadefy import puzzle_report, register

    app = typer.Typer()
    register(app)

    @app.command("noop")
    def _noop() -> None:  # a second command keeps "puzzle" a subcommand group
        pass

    runner = typer_testing.CliRunner()
    res = runner.invoke(app, ["puzzle", "quadefy", "columns"])
    assert res.exit_code == 0, res.output
    assert "Solution" in res.output and "layer 1 (floor)" in res.output and "dI" in res.output
    res = runner.invoke(app, ["puzzle", "quadefy", "octants"])
    assert res.exit_code == 0 and "No solution exists" in res.output and "nodes" in res.output
    f = tmp_path / "p.txt"
    f.write_text("# my pattern\n" + pattern_text(PATTERNS["steps"]) + "\n", encoding="utf-8")
    res = runner.invoke(app, ["puzzle", "quadefy", "--pattern-file", str(f)])
    assert res.exit_code == 0 and "Solution" in res.output
    res = runner.invoke(app, ["puzzle", "quadefy", "XXXX"])
    assert res.exit_code == 2
    res = runner.invoke(app, ["puzzle", "quadefy"])
    assert res.exit_code == 0 and "octants" in res.output
    solved, text = puzzle_report(FULL & ~PATTERNS["halves"])
    assert solved and "light: tiled" in text


def test_printables(tmp_path: Path) -> None:
    pytest.importorskip("reportlab")
    from polytable.printables.quadefy import PRINTABLES

    assert {"quadefy", "quadefy-puzzles", "quadefy-field"} <= set(PRINTABLES)
    for name, paper, options in (
        ("quadefy-puzzles", "a4", {"pattern": "octants"}),
        ("quadefy-puzzles", "letter", {"solutions": "no"}),
        ("quadefy-field", "a4", {}),
    ):
        out = tmp_path / f"{name}-{paper}.pdf"
        PRINTABLES[name](str(out), paper, options)
        assert out.read_bytes().startswith(b"%PDF")
    with pytest.raises(ValueError, match="unknown pattern"):
        PRINTABLES["quadefy"](str(tmp_path / "x.pdf"), "a4", {"pattern": "nope"})
