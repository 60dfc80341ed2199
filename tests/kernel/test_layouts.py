"""The compiled kernels' state buffers: each is described once, in Python (a core.StateLayout), and the C
struct that reads it must lay its members out at the same offsets and sizes, in the same order. The C
reports its layout (``layout()``); a member added, moved or resized on one side alone fails here."""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from polytable.core import StateLayout, get_game

LAYOUTS = [
    ("polytable.games.forma._cforma", "polytable.games.forma._kernel", "PLAYOUT"),
    ("polytable.games.qwirkle_cubes._cqwirkle", "polytable.games.qwirkle_cubes._kernel", "PLAYOUT"),
    ("polytable.games.qwirkle_cubes._cqwirkle_vec", "polytable.games.qwirkle_cubes._kernel", "PLAYOUT"),
    ("polytable.games.formfinity._cformfinity", "polytable.games.formfinity._kernel", "PLAYOUT"),
    ("polytable.ai.formfinity._cformfinity_greedy", "polytable.games.formfinity._kernel", "PLAYOUT"),
    ("polytable.games.quadefy._cquadefy", "polytable.games.quadefy._kernel", "POSITION"),
    ("polytable.games.foldris._cfoldris", "polytable.games.foldris._kernel", "SHEET"),
    ("polytable.games.foldris._cfoldris", "polytable.games.foldris._kernel", "STATE"),
]
"""(the compiled extension, the module holding the description, its name) of every state buffer. An extension
with more than one struct reports them by name: ``layout()[name.lower()]``."""


@pytest.mark.parametrize(("ext_name", "module", "name"), LAYOUTS)
def test_c_struct_matches_the_description(ext_name: str, module: str, name: str) -> None:
    ext = pytest.importorskip(ext_name, reason="the compiled kernel is not built")
    layout: StateLayout = getattr(importlib.import_module(module), name)
    reported = ext.layout()
    members, size = reported[name.lower()] if isinstance(reported, dict) else reported
    assert [m[0] for m in members] == [f[0] for f in layout.fields]
    sizes = layout.sizes()
    assert {m: (off, n) for m, off, n in members} == {f: (layout.offsets[f], sizes[f]) for f in layout.offsets}
    assert size == layout.size == layout.struct.size


def test_layout_packs_and_unpacks_by_field() -> None:
    layout = StateLayout((("turn", "q", 1), ("rngs", "Q", 2), ("board", "16s", 1), ("stock", "8s", 2)))
    assert layout.offsets == {"turn": 0, "rngs": 8, "board": 24, "stock": 40}
    assert layout.index == {"turn": 0, "rngs": 1, "board": 3, "stock": 4}
    buf = layout.pack(-3, [1, 2**64 - 1], b"\x01", [b"ab", b""])
    assert len(buf) == layout.size == 56
    assert layout.unpack(buf) == [-3, (1, 2**64 - 1), b"\x01" + bytes(15), (b"ab" + bytes(6), bytes(8))]


def test_layout_refuses_a_field_that_would_pad_the_struct() -> None:
    with pytest.raises(ValueError, match="multiple of 8"):
        StateLayout((("flag", "i", 1),))


def test_a_kernel_refuses_a_description_that_is_not_its_struct() -> None:
    """A kernel that reads the rules' value objects into its struct checks the description when it binds the
    class: a member moved (here two swapped) or a field the class does not have is refused."""
    ext = pytest.importorskip("polytable.games.quadefy._cquadefy", reason="the compiled kernel is not built")
    position: StateLayout = importlib.import_module("polytable.games.quadefy._kernel").POSITION
    QuadefyState = type(get_game("quadefy").new_game(seed=0))
    fields = list(position.fields)
    fields[3], fields[4] = fields[4], fields[3]
    with pytest.raises(ValueError, match="not the struct's"):
        ext.bind(QuadefyState, StateLayout(fields).codec_spec(QuadefyState))
    with pytest.raises(ValueError, match="no field"):
        StateLayout((("nowhere", "q", 1),)).codec_spec(QuadefyState)
    ext.bind(QuadefyState, position.codec_spec(QuadefyState))  # the right one binds (as the kernel did)


def test_codec_spec_names_the_kind_of_each_field() -> None:
    from dataclasses import dataclass

    @dataclass(frozen=True, slots=True)
    class Value:
        name: str
        bits: int
        seen: bool
        pair: tuple[int, int]
        count: int

    spec = StateLayout((("bits", "16s", 1), ("seen", "q", 1), ("pair", "Q", 2), ("count", "q", 1))).codec_spec(Value)
    assert spec == (
        ("name", "bits", "seen", "pair", "count"),
        (("bits", "n", 1, 0, 16), ("seen", "b", 1, 16, 8), ("pair", "u", 2, 24, 8), ("count", "i", 1, 40, 8)),
    )


def test_forma_playout_boards_land_in_their_members() -> None:
    """Forma's playout takes the state's boards as ints (``_kernel.BOARDS``, in the buffer's order) and its
    stocks as tuples, and converts them itself: with no action to take, each comes back unchanged and sits,
    as little-endian bytes, at its own member of the buffer (a board member moved or swapped on one side, or
    a stock written elsewhere, fails here)."""
    ext = pytest.importorskip("polytable.games.forma._cforma", reason="the compiled kernel is not built")
    kernel = importlib.import_module("polytable.games.forma._kernel")
    layout: StateLayout = kernel.PLAYOUT
    kernel.CompiledForma(ext).tables(14)
    one = {"obstacles": 3, "tower": 1 << 40, "filled": 7 << 100, "closed": 5, "watch": 9 << 300, "last": 1 << 330}
    boards = tuple(one.get(name, (11 << 200, 13 << 201, 17 << 202)) for name in kernel.BOARDS)
    values: dict[str, object] = {n: (b"" if code[-1] == "s" else 0) for n, code, _ in layout.fields}
    values.update({n: [values[n]] * count for n, _, count in layout.fields if count > 1})
    values.update(size=14, players=3, turn=1, max_actions=0, rngs=[1, 2, 3, 0], scores=[0] * 4, bridges=[0] * 4)
    stocks = ((1,) * 21, (2,) * 20 + (0,), (0,) * 20 + (3,))
    buf = layout.pack(*(values[name] for name, _, _ in layout.fields))
    assert ext.playout(buf, boards, stocks) == (*boards, stocks)
    got: dict[str, Any] = dict(zip((f[0] for f in layout.fields), layout.unpack(buf), strict=True))
    for name, board in zip(kernel.BOARDS, boards, strict=True):
        each = (board,) if isinstance(board, int) else (*board, 0)
        assert tuple(int.from_bytes(b, "little") for b in (got[name] if len(each) > 1 else (got[name],))) == each
    assert got["stock"] == (*(bytes(st) + bytes(3) for st in stocks), bytes(24))
    with pytest.raises(ValueError, match="one bitboard per player"):
        ext.playout(buf, (*boards[:-1], (1, 2)), stocks)
    with pytest.raises(ValueError, match="takes"):
        ext.playout(buf, boards[:-1], stocks)
    with pytest.raises(ValueError, match="one stock per player"):
        ext.playout(buf, boards, stocks[:2])
    with pytest.raises(ValueError, match="0 to 255"):
        ext.playout(buf, boards, (*stocks[:2], (256,) * 21))
