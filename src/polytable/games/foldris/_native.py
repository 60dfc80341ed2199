"""Foldris's compiled kernel, when it is built: ``_cfoldris`` (C, next to these rules) or None.

Why here, inside the game's package: rules code imports only ``core`` and ``geometry``, and the kernel is
this game's rules in another language, so it lives beside the Python it mirrors; the lookup (and the
``POLYTABLE_PURE`` switch) is :func:`polytable.core.native_module`. The kernel covers legal drops (count,
list, sample with the same draws as ``FoldrisGame._sample``), a round's resolution (drops, folds, barriers),
the protocol's random step on the state itself (a new game, ``legal_actions`` and its sample, a legal drop's
``apply``, ``apply_chance``) and a random playout to the end (reveals included). Explanations of refusals,
notation, views and the AIs' evaluation stay in Python; the pure rules remain the reference
(tests/games/foldris/test_foldris_native.py, ``polytable fuzz``).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from polytable.core import Config, IllegalActionError, LegalActions, Rng, native_module, player_name
from polytable.geometry import derived

from ._decks import deck_of, table_of, tables_of, trim_cost
from ._state import Drop
from ._text import format_action

if TYPE_CHECKING:
    from ._cards import VariantTable
    from ._state import Action, FoldrisState

__all__ = ["EXT", "Drops", "can_act", "compiled_check", "fast_sample", "native_playout", "pure_engine", "table_id"]

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


def _deck_id(config: Config, tabs: tuple[VariantTable, ...]) -> int:
    """The kernel's number of the config's deck (``tabs``: its tables by card), registered once per deck
    text and trim cost (what the tables are built from): per card, its table, a key equal for equal
    (name, lane) cards, and its lane."""

    text = config["deck"]
    key = (text if isinstance(text, str) else None, trim_cost(config))
    hit = _DECKS.get(key)
    if hit is None:
        assert EXT is not None
        deck = deck_of(config)
        keys = [deck.names.index(n) * 8 + lane for n, lane in deck.cards]
        hit = _DECKS[key] = EXT.deck([table_id(t) for t in tabs], keys, [c[1] for c in deck.cards])
    return hit


def native_playout(state: FoldrisState, rngs: Sequence[Rng], max_actions: int | None) -> tuple[FoldrisState, int]:
    """``FoldrisGame.playout`` in C (the caller checks ``EXT``); the same states and draws as the pure loop.
    The kernel finds the config's deck itself (``_deck_values``); the tables are read only for choices
    already recorded this round."""
    assert EXT is not None
    pending = None
    if state.card >= 0 and state.pending.count(None) != len(state.pending):
        by_key = tables_of(state.config)[state.card].by_key
        pending = [-1 if d is None else by_key[(d.mirror, d.trim, d.rot)] * 8 + d.col for d in state.pending]
    return EXT.playout(-1, state, pending, rngs, len(rngs) == 1, -1 if max_actions is None else max_actions)  # type: ignore[no-any-return]


# ---------------------------------------------------------------------------- the protocol's step, fast
# A random step through the protocol is legal_actions(s, p).sample(rng) then apply(s, action, p), and
# apply_chance between rounds; with the kernel each is one C call on the state (_cfoldris_step.h), which
# finds the config's deck through ``_deck_values`` and answers None for anything that is not a plain legal
# step: the general path then judges it (and explains a refusal).


@derived(maxsize=1000, by_value=True)
def _deck_values(config: Config) -> int:
    """The kernel's number of the config's deck, with its card names and every drop of each card (actions
    are immutable values: one object each serves every step), given to the kernel once per deck."""

    tabs = tables_of(config)
    deck = _deck_id(config, tabs)
    if deck not in _VALUED:
        names = tuple(name for name, _ in deck_of(config).cards)
        drops = tuple(
            tuple(Drop(name, v.mirror, v.trim, v.rot, col) for v in table.variants for col in range(8))
            for name, table in zip(names, tabs, strict=True)
        )
        EXT.values(deck, names, drops)  # type: ignore[union-attr]
        _VALUED.add(deck)
    return deck


_VALUED: set[int] = set()
"""The decks whose values the kernel holds."""


_TEXTS: dict[tuple[int, str], tuple[str, ...]] = {}
"""(a table's ``number``, the card's name) -> the notation of every drop the kernel numbers ``8 * variant +
column``, by that number."""


def _texts(table: VariantTable, name: str) -> tuple[str, ...]:
    key = (table.number, name)
    hit = _TEXTS.get(key)
    if hit is None:
        hit = _TEXTS[key] = tuple(
            format_action(Drop(name, v.mirror, v.trim, v.rot, col)) for v in table.variants for col in range(8)
        )
    return hit


class Drops(LegalActions["Action"]):
    """``legal_actions`` of a player choosing now, built by the kernel (``view``): a sample is one C call,
    with no list of drops made, and the notation is read from a table by the kernel's numbers (no drop
    values made: a server lists the acting seats' drops after every change)."""

    __slots__ = ()

    def notation(self, limit: int | None = None) -> list[str]:
        assert EXT is not None
        state: FoldrisState = self._state
        sheet = state.sheets[self._player]
        table = table_of(state)
        texts = _texts(table, deck_of(state.config).cards[state.card][0])
        found = EXT.legal(table_id(table), sheet.ink, sheet.barrier, sheet.height, sheet.bonus)
        if limit is not None and len(found) > limit:
            found = found[:limit]
        return [texts[k] for k in found]

    def sample(self, rng: Rng) -> Action:
        assert EXT is not None
        drop: Drop | None = EXT.sample_drop(self._state, self._player, rng)
        if drop is None:  # never for a player still in the game (eliminated at the reveal), kept as _sample says
            p = self._player
            raise IllegalActionError(f"{player_name(p)} has no legal action", "no_action", {"player": p + 1})
        return drop


if EXT is not None:
    EXT.bind(Drop, _deck_values, Drops, ["_game", "_player", "_state"])


def can_act(state: FoldrisState, player: int | None) -> bool:
    """Whether ``player`` (an int) is one of the players still to choose this round: exactly when the
    protocol's player resolution accepts it (any other case takes that path, which says why not)."""
    assert EXT is not None
    return EXT.can_act(state, player)  # type: ignore[no-any-return]


def compiled_check(state: FoldrisState, action: Drop, player: int) -> bool:
    """True when the kernel finds the drop legal (the same tests as ``FoldrisGame._check``)."""

    if action.name != deck_of(state.config).cards[state.card][0]:
        return False
    s = state.sheets[player]
    tid = table_id(tables_of(state.config)[state.card])
    m, t, r, c = action.mirror, action.trim, action.rot, action.col
    return EXT.check(tid, m, t, r, c, s.ink, s.barrier, s.height, s.bonus)  # type: ignore[no-any-return, union-attr]


def fast_sample(state: FoldrisState, player: int, rng: Rng) -> Drop:
    """``FoldrisGame._sample`` of a player in C: the same draw, the drop object from the card's table."""
    assert EXT is not None
    drop: Drop | None = EXT.sample_drop(state, player, rng)
    if drop is None:
        raise IllegalActionError(f"{player_name(player)} has no legal action", "no_action", {"player": player + 1})
    return drop


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
