"""Geometry: known enumeration counts, symmetry laws (hypothesis), bitboard operations."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polytable.geometry import (
    CUBE_ROTATIONS,
    FREE_NAMES,
    TETRACUBES,
    Grid3,
    Memo,
    bits,
    canonical_free,
    canonical_one_sided,
    canonical_polycube,
    derived,
    fixed_polyominoes,
    flood,
    free_name,
    free_polyominoes,
    is_connected,
    lowest,
    normalize,
    one_sided_polyominoes,
    orientations,
    orientations3,
    polycubes,
    popcount,
    rotate3,
    select_bit,
    shape_from_text,
    shape_to_text,
    transform,
)


def test_polyomino_counts() -> None:
    assert [len(free_polyominoes(n)) for n in range(1, 7)] == [1, 1, 2, 5, 12, 35]
    assert [len(one_sided_polyominoes(n)) for n in range(1, 7)] == [1, 1, 2, 7, 18, 60]
    assert [len(fixed_polyominoes(n)) for n in range(1, 7)] == [1, 2, 6, 19, 63, 216]


def test_polycube_counts() -> None:
    assert [len(polycubes(n)) for n in range(1, 5)] == [1, 1, 2, 8]
    assert len(polycubes(4, mirror=True)) == 7
    assert len(CUBE_ROTATIONS) == 24


def test_tetracubes_are_the_eight_and_screws_are_mirror_images() -> None:
    canon = {name: canonical_polycube(s) for name, s in TETRACUBES.items()}
    assert sorted(canon.values()) == sorted(polycubes(4))
    sl, sr = TETRACUBES["SL"], TETRACUBES["SR"]
    assert canonical_polycube(sl) != canonical_polycube(sr)
    mirrored = tuple((-x, y, z) for x, y, z in sl)
    assert canonical_polycube(mirrored) == canonical_polycube(sr)
    assert canonical_polycube(sl, mirror=True) == canonical_polycube(sr, mirror=True)
    assert {name: len(orientations3(s)) for name, s in TETRACUBES.items()} == {
        "I": 3, "O": 3, "T": 12, "L": 24, "S": 12, "B": 8, "SL": 12, "SR": 12,
    }  # fmt: skip


def test_free_names_cover_sizes_one_to_five() -> None:
    assert len(FREE_NAMES) == 21
    assert free_name(shape_from_text(".#./###/.#.")) == "X5"
    assert free_name(shape_from_text("##/#.")) == "V3"
    assert {free_name(s) for n in range(1, 6) for s in free_polyominoes(n)} == set(FREE_NAMES.values())


def test_orientation_counts_of_tetrominoes() -> None:
    counts = sorted(len(orientations(s)) for s in free_polyominoes(4))
    assert counts == [1, 2, 4, 4, 8]  # O, I, S/Z, T, L/J: 19 fixed tetrominoes
    assert sum(len(orientations(s)) for s in free_polyominoes(5)) == 63


def test_shape_text_round_trip() -> None:
    s = shape_from_text(".##/##./.#.")
    assert shape_to_text(s, sep="/") == ".##/##./.#."
    assert shape_from_text(shape_to_text(s)) == s


shapes = st.sampled_from([s for n in range(1, 6) for s in fixed_polyominoes(n)])


@given(shapes, st.integers(0, 7))
def test_canonical_forms_are_invariant(shape: tuple[tuple[int, int], ...], k: int) -> None:
    t = transform(shape, k)
    assert canonical_free(t) == canonical_free(shape)
    if k < 4:
        assert canonical_one_sided(t) == canonical_one_sided(shape)
    assert is_connected(t)
    assert len(t) == len(shape)


@given(shapes)
def test_four_quarter_turns_are_identity(shape: tuple[tuple[int, int], ...]) -> None:
    s = normalize(shape)
    t = s
    for _ in range(4):
        t = transform(t, 1)
    assert t == s
    assert transform(transform(s, 4), 4) == s


cubes = st.sampled_from(list(TETRACUBES.values()))


@given(cubes, st.integers(0, 23), st.integers(0, 23))
def test_rotations_compose_within_the_group(shape: tuple[tuple[int, int, int], ...], a: int, b: int) -> None:
    r = rotate3(rotate3(shape, a), b)
    assert r in {rotate3(shape, k) for k in range(24)}
    assert canonical_polycube(r) == canonical_polycube(shape)


def test_flood_respects_the_guard_column_and_the_board() -> None:
    stride = 6  # a 5x5 board
    board = sum(0b11111 << (y * stride) for y in range(5))
    column = sum(1 << (y * stride + 2) for y in range(5))
    left = flood(1, board & ~column, stride)
    assert left == sum(0b11 << (y * stride) for y in range(5))  # never wraps past the guard onto a row
    assert flood(1 << 4, board, stride) == board and flood(0, board, stride) == 0


@settings(max_examples=100)
@given(st.integers(1, 2**70))
def test_bit_helpers_agree_with_the_plain_definitions(b: int) -> None:
    idx = [i for i in range(b.bit_length()) if b >> i & 1]
    assert list(bits(b)) == idx and lowest(b) == idx[0] and popcount(b) == len(idx)
    assert [select_bit(b, k) for k in range(len(idx))] == idx
    assert lowest(0) == -1


@dataclass(frozen=True)
class Box:
    """A hashable immutable object that accepts weak references (as a game config does)."""

    items: tuple[int, ...]


def test_derived_runs_once_per_object_and_stays_bounded() -> None:
    calls: list[object] = []

    @derived(maxsize=2)
    def size(obj: Box) -> int:
        calls.append(obj)
        return len(obj.items)

    a, b = Box((1, 2)), Box((1, 2, 3))
    assert size(a) == 2 and size(a) == 2 and size(b) == 3 and len(calls) == 2
    c = Box((4,))
    assert size(c) == 1 and size(a) == 2 and len(calls) == 4  # full: cleared, a computed again
    size.cache_clear()
    assert size(a) == 2 and len(calls) == 5


def test_derived_forgets_a_collected_object_so_a_reused_id_never_answers_for_another() -> None:
    calls: list[object] = []

    @derived(maxsize=1000)
    def size(obj: Box) -> int:
        calls.append(obj.items)
        return len(obj.items)

    seen = set()
    for n in range(200):  # each box dies at once; CPython hands its id to the next one
        box = Box(tuple(range(n)))
        seen.add(id(box))
        assert size(box) == n
        del box
    assert len(calls) == 200 and len(seen) < 200  # ids were reused, and every answer was right
    with pytest.raises(TypeError):
        size((1, 2))  # type: ignore[arg-type]  # a tuple takes no weak reference


def test_derived_by_value_builds_once_per_equal_object() -> None:
    calls: list[object] = []

    @derived(maxsize=2, by_value=True)
    def total(obj: Box) -> int:
        calls.append(obj)
        return sum(obj.items)

    a = Box((1, 2))
    keep = [Box((1, 2)) for _ in range(5)]  # equal, other objects, alive at once
    assert total(a) == 3 and len(calls) == 1
    for box in keep:  # the identity table fills, the value stays
        assert total(box) == 3
    assert len(calls) == 1
    five, six = Box((5,)), Box((6,))
    assert total(five) == 5 and total(six) == 6 and len(calls) == 3  # two values: full, cleared at the second
    assert total(Box((1, 2))) == 3 and len(calls) == 4  # forgotten by value, built again
    total.cache_clear()
    assert total(a) == 3 and len(calls) == 5


def test_memo_is_a_dict_that_empties_when_full() -> None:
    memo: Memo[int, int] = Memo(3)
    for k in range(3):
        assert memo.put(k, k * k) == k * k
    assert dict(memo) == {0: 0, 1: 1, 2: 4} and memo.get(2) == 4
    assert memo.put(3, 9) == 9 and dict(memo) == {3: 9}  # full: emptied before the new entry
    with pytest.raises(ValueError, match="at least one"):
        Memo(0)


def test_grid3_is_one_64_bit_int_and_steps_do_not_wrap() -> None:
    g = Grid3(4, 4, 4)
    assert g.full == (1 << 64) - 1
    corner = g.mask([(3, 0, 0)])
    assert g.step(corner, 0, 1) == 0
    assert g.step(corner, 0, -1) == g.mask([(2, 0, 0)])
    assert g.step(g.mask([(0, 3, 0)]), 1, 1) == 0
    assert g.step(g.mask([(0, 0, 3)]), 2, 1) == 0
    assert g.neighbours6(g.mask([(1, 1, 1)])).bit_count() == 6
    assert g.flood(1, g.full & ~g.layer(1)) == g.layer(0)
    assert g.cell(g.index(1, 2, 3)) == (1, 2, 3)
