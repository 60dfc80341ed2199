"""Foldris's compiled kernel, when it is built: ``_cfoldris`` (C, next to these rules) or None.

Why here, inside the game's package: rules code imports only ``core`` and ``geometry``, and the kernel is
this game's rules in another language, so it lives beside the Python it mirrors; the lookup (and the
``POLYTABLE_PURE`` switch) is :func:`polytable.core.native_module`. The kernel covers legal drops (count,
list, sample with the same draws as ``FoldrisGame._sample``), a round's resolution (drops, folds, barriers)
and a random playout to the end (reveals included). Checks, notation, views and the AIs' evaluation stay in
Python; the pure rules remain the reference (tests/games/foldris/test_foldris_native.py, ``polytable fuzz``).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from polytable.core import Config, IllegalActionError, Rng, native_module, player_name
from polytable.geometry import derived

from ._state import Drop

if TYPE_CHECKING:
    from ._cards import VariantTable
    from ._state import FoldrisState

__all__ = ["EXT", "can_act", "fast_drop", "fast_sample", "native_playout", "pure_engine", "table_id"]

EXT: ModuleType | None = native_module("polytable.games.foldris._cfoldris")
"""The extension module, or None when the pure engine runs."""

_IDS: dict[int, int] = {}
"""A table's ``number`` -> its number in the kernel."""
_DECKS: dict[tuple[str | None, int], int] = {}
"""(deck text or None for the standard deck, trim cost) -> the kernel's number of that deck."""


def _types() -> None:
    """Tell the kernel the frozen value classes it reads and builds (their fields in order)."""
    from dataclasses import fields

    from ._state import FoldrisState, Sheet

    assert EXT is not None
    EXT.types(Sheet, [f.name for f in fields(Sheet)], FoldrisState, [f.name for f in fields(FoldrisState)])


if EXT is not None:  # before any call: a view asks acting_players before any table is registered
    _types()


def table_id(table: VariantTable) -> int:
    """The kernel's number of a variant table, registered on first use (tables are memoised per shape)."""
    hit = _IDS.get(table.number)
    if hit is None:
        assert EXT is not None
        rows = [
            (v.cost, v.width, v.height, v.bits, [b for _, b in v.profile], v.mirror, v.trim, v.rot)
            for v in table.variants
        ]
        keys = [(m, t, r, i) for (m, t, r), i in table.by_key.items()]
        hit = _IDS[table.number] = EXT.register(rows, keys)
    return hit


def _deck_id(state: FoldrisState, tabs: tuple[VariantTable, ...]) -> int:
    """The kernel's number of the config's deck (``tabs``: its tables by card), registered once per deck
    text and trim cost (what the tables are built from): per card, its table, a key equal for equal
    (name, lane) cards, and its lane."""
    from ._game import deck_of, trim_cost  # here: the game module imports this one

    text = state.config["deck"]
    key = (text if isinstance(text, str) else None, trim_cost(state.config))
    hit = _DECKS.get(key)
    if hit is None:
        assert EXT is not None
        deck = deck_of(state.config)
        keys = [deck.names.index(n) * 8 + lane for n, lane in deck.cards]
        hit = _DECKS[key] = EXT.deck([table_id(t) for t in tabs], keys, [c[1] for c in deck.cards])
    return hit


def native_playout(
    state: FoldrisState, tabs: tuple[VariantTable, ...], rngs: Sequence[Rng], max_actions: int | None
) -> tuple[FoldrisState, int]:
    """``FoldrisGame.playout`` in C (the caller checks ``EXT``; ``tabs``: the config's tables by card); the same
    states and draws as the pure loop."""
    assert EXT is not None
    pending = None
    if state.card >= 0 and state.pending.count(None) != len(state.pending):
        by_key = tabs[state.card].by_key
        pending = [-1 if d is None else by_key[(d.mirror, d.trim, d.rot)] * 8 + d.col for d in state.pending]
    deck = _deck_id(state, tabs)
    return EXT.playout(deck, state, pending, rngs, len(rngs) == 1, -1 if max_actions is None else max_actions)  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------- the protocol's step, fast
# A random step through the protocol is legal_actions(s, p).sample(rng) then apply(s, action, p); with the
# kernel each part is one C call, and what is left is Python around it. These helpers are that Python, cut
# short: the same answers, states and draws as the general path (which still runs, and explains, whenever
# something is not a plain legal drop).

_DROPS: dict[tuple[int, str], tuple[Drop, ...]] = {}
"""(table number, card name) -> every drop of that card, at index variant * 8 + column (actions are
immutable values, so one object each serves every step)."""


@derived(maxsize=1000)
def _cards(config: Config) -> tuple[tuple[int, str, int, tuple[Drop, ...]], ...]:
    """Per card of the config's deck: its table's number, its name, its lane, its drops."""
    from ._game import deck_of, tables_of

    out = []
    for (name, lane), table in zip(deck_of(config).cards, tables_of(config), strict=True):
        tid = table_id(table)
        drops = _DROPS.get((tid, name))
        if drops is None:
            drops = _DROPS[(tid, name)] = tuple(
                Drop(name, v.mirror, v.trim, v.rot, col) for v in table.variants for col in range(8)
            )
        out.append((tid, name, lane, drops))
    return tuple(out)


def can_act(state: FoldrisState, player: int | None) -> bool:
    """Whether ``player`` (an int) is one of the players still to choose this round: exactly when the
    protocol's player resolution accepts it (any other case takes that path, which says why not)."""
    return (
        type(player) is int
        and state.card >= 0
        and not state.over
        and 0 <= player < len(state.pending)
        and state.pending[player] is None
        and not state.sheets[player].out
    )


def fast_sample(state: FoldrisState, player: int, rng: Rng) -> Drop:
    """``FoldrisGame._sample`` of a player in C: the same draw, the drop object from the card's table."""
    assert EXT is not None
    tid, _, _, drops = _cards(state.config)[state.card]
    s = state.sheets[player]
    i, col, rng.state = EXT.sample(tid, s.ink, s.barrier, s.height, s.bonus, rng.state)
    if i < 0:
        raise IllegalActionError(f"{player_name(player)} has no legal action", "no_action", {"player": player + 1})
    k: int = i * 8 + col
    return drops[k]


def fast_drop(state: FoldrisState, action: object, player: int | None) -> FoldrisState | None:
    """``apply`` of a legal drop by a player still to choose: the compiled check, then the compiled
    record (or resolution); None for anything else, which the general path then judges."""
    if type(action) is not Drop or not can_act(state, player):
        return None
    assert EXT is not None and player is not None
    tid, name, lane, _ = _cards(state.config)[state.card]
    s = state.sheets[player]
    if action.name != name or not EXT.check(
        tid, action.mirror, action.trim, action.rot, action.col, s.ink, s.barrier, s.height, s.bonus
    ):
        return None
    return EXT.choose(tid, lane, state, player, action)  # type: ignore[no-any-return]


class pure_engine:
    """Inside the block, the pure-Python rules run even where the kernel is built, so differential tests
    and ``polytable fuzz`` can play both engines side by side in one process. Not thread-safe."""

    def __enter__(self) -> None:
        from . import _game

        self._modules = (vars(_game),)
        for d in self._modules:
            d["EXT"] = None

    def __exit__(self, *exc: object) -> None:
        for d in self._modules:
            d["EXT"] = EXT
