"""Foldris's rules kernel, the one seam between the pure-Python rules and the compiled ``_cfoldris``.

The game object picks its kernel once, when it is made (``get_game("foldris", engine=...)``): a
:class:`FoldrisKernel` (the Python rules of :mod:`._rules`, the reference) or a :class:`CompiledFoldris`
(the same interface over the C extension built with the package). The kernel covers legal drops (count,
list, sample with the same draws as ``FoldrisGame._sample``), a round's resolution (drops, folds,
barriers), the protocol's random step on the state itself (a new game, ``legal_actions`` and its sample,
a legal drop's ``apply``, ``apply_chance``) and a random playout to the end (reveals included). A method
that answers None (or False) declines: the game then takes its Python path, which judges and explains.
Explanations of refusals, notation, views and the AIs' evaluation stay in Python.
tests/games/foldris/test_foldris_native.py and ``polytable fuzz foldris`` play both kernels side by side;
docs/engine.md describes the seam.

The compiled kernel reads a state's numbers, and each sheet's, into C structs described once here
(:data:`SHEET`, :data:`STATE`) and makes new values from them. It keeps, once a process, the variant
tables and decks it has been given (by number), the frozen value classes it reads and builds, and each
deck's card names and drop values.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, Any

from polytable.core import Config, IllegalActionError, LegalActions, Rng, StateLayout, player_name
from polytable.geometry import derived

from ._cards import VariantTable
from ._decks import deck_of, table_of, tables_of, trim_cost
from ._rules import any_placement, count_placements, heights, placements
from ._state import Drop, FoldrisState, Sheet
from ._text import format_action

if TYPE_CHECKING:
    from ._state import Action

__all__ = ["SHEET", "STATE", "CompiledFoldris", "Drops", "FoldrisKernel", "deck_rows", "table_rows"]

ROWS = 64
"""Bytes of a sheet's ink and barrier in the compiled kernel (row r is byte r: the height option is at most 40)."""

SHEET = StateLayout(
    (
        ("ink", f"{ROWS}s", 1),
        ("barrier", f"{ROWS}s", 1),
        *((name, "q", 1) for name in ("height", "lines", "bonus", "out")),
    )
)
"""A :class:`Sheet` as the compiled kernel holds it (``_cfoldris_values.h``'s SheetBuf), each member named after
its field; the two ints travel as little-endian bytes."""

STATE = StateLayout(
    (
        ("start_lane", "q", 1),
        ("round", "q", 1),
        ("card", "q", 1),
        ("rng", "Q", 1),
        ("over", "q", 1),
        ("starter", "q", 1),
    )
)
"""A :class:`FoldrisState`'s numbers as the compiled kernel holds them (StateBuf; ``over`` a bool); its config,
sheets, deck and pending choices travel as the state's own objects. This and :data:`SHEET` are the one
description of the kernel's structs: the kernel binds the classes with them (``types``, which checks them
against the structs) and reports its structs (``layout()``, compared by tests/kernel/test_layouts.py)."""


def table_rows(table: VariantTable) -> tuple[list[tuple[Any, ...]], list[tuple[int, int, int, int]]]:
    """What the compiled kernel's ``register`` takes of a variant table: per variant (cost, width, height,
    bits, lowest row per column, mirror, trim, rot), and the ``by_key`` items (mirror, trim, rot, variant)."""
    rows = [
        (v.cost, v.width, v.height, v.bits, [b for _, b in v.profile], v.mirror, v.trim, v.rot) for v in table.variants
    ]
    return rows, [(m, t, r, i) for (m, t, r), i in table.by_key.items()]


def deck_rows(config: Config) -> tuple[list[int], list[int]]:
    """What the compiled kernel's ``deck`` takes besides the tables: per card a key equal for equal (name,
    lane) cards, and its lane."""
    deck = deck_of(config)
    return [deck.names.index(n) * 8 + lane for n, lane in deck.cards], [c[1] for c in deck.cards]


class FoldrisKernel:
    """The pure-Python kernel: the reference every compiled answer must equal."""

    def count(self, table: VariantTable, s: Sheet) -> int:
        """How many drops of the card's ``table`` the sheet ``s`` has room for (and its owner can afford)."""
        return count_placements(table, heights(s.ink | s.barrier), s.height, s.bonus)

    def any(self, table: VariantTable, s: Sheet) -> bool:
        """Whether the sheet has room for the card in any way its owner can afford."""
        return any_placement(table, heights(s.ink | s.barrier), s.height, s.bonus)

    def legal(self, table: VariantTable, s: Sheet) -> Iterable[tuple[int, int]]:
        """(variant index, column) of every legal drop, in the rules' order."""
        return placements(table, heights(s.ink | s.barrier), s.height, s.bonus)

    def new(self, config: Config, seed: int, height: int, cards: int, stream: int) -> FoldrisState | None:
        """A new game's state in one call, or None: the game builds it."""
        return None

    def acting(self, state: FoldrisState) -> tuple[int, ...] | None:
        return None

    def view(self, game: Any, state: FoldrisState, player: int | None) -> LegalActions[Action] | None:
        """The legal-action view of a player choosing now, or None: the protocol's own view."""
        return None

    def sample(self, state: FoldrisState, player: int, rng: Rng) -> Drop | None:
        """A player's uniformly random drop in one call, or None: the game draws it (the same draws)."""
        return None

    def can_act(self, state: FoldrisState, player: int | None) -> bool:
        """True when ``player`` certainly chooses now (False: the protocol's resolution decides and explains)."""
        return False

    def try_drop(self, state: FoldrisState, action: Action, player: int | None) -> FoldrisState | None:
        """A legal drop checked and applied in one call, or None: the game's checked path decides."""
        return None

    def check(self, state: FoldrisState, action: Drop, player: int) -> bool:
        """True when the drop is certainly legal (False: the Python check judges it, and explains)."""
        return False

    def choose(self, state: FoldrisState, player: int, action: Drop) -> FoldrisState | None:
        """A legal drop recorded (and the round resolved after the last choice), or None: the game does it."""
        return None

    def playout(
        self, state: FoldrisState, rngs: Sequence[Rng], max_actions: int | None
    ) -> tuple[FoldrisState, int] | None:
        """The whole random playout in one call, or None: the game plays it step by step."""
        return None

    def reveal(self, state: FoldrisState) -> FoldrisState | None:
        """``apply_chance`` in one call, or None: the game draws and reveals."""
        return None


class CompiledFoldris(FoldrisKernel):
    """The same kernel in C (``_cfoldris``): the same drops, draws and states, faster."""

    # What the extension holds lives as long as the process, so these are shared by every instance.
    _bound: set[int] = set()  # noqa: RUF012 (the extensions told the value classes)
    _ids: dict[int, int] = {}  # noqa: RUF012 (a table's ``number`` -> its number in the kernel)
    _decks: dict[tuple[str | None, int], int] = {}  # noqa: RUF012 ((deck text or None, trim cost) -> deck number)
    _valued: set[int] = set()  # noqa: RUF012 (the decks whose values the kernel holds)
    _texts: dict[tuple[int, str], tuple[str, ...]] = {}  # noqa: RUF012 ((table number, card) -> drops' notation)

    def __init__(self, ext: ModuleType) -> None:
        self.ext = ext
        if id(ext) not in self._bound:  # before any call: a view asks acting_players before any table is known
            ext.types(Sheet, SHEET.codec_spec(Sheet), FoldrisState, STATE.codec_spec(FoldrisState))
            deck_values = derived(maxsize=1000, by_value=True)(self._deck_values)
            ext.bind(Drop, deck_values, Drops, ["_game", "_player", "_state"])
            self._bound.add(id(ext))

    # ---------------------------------------------------------------- what the extension is told once
    def table_id(self, table: VariantTable) -> int:
        """The kernel's number of a variant table, registered on first use (tables are memoised per shape)."""
        hit = self._ids.get(table.number)
        if hit is None:
            hit = self._ids[table.number] = self.ext.register(*table_rows(table))
        return hit

    def _deck_id(self, config: Config, tabs: tuple[VariantTable, ...]) -> int:
        """The kernel's number of the config's deck (``tabs``: its tables by card), registered once per deck
        text and trim cost (what the tables are built from): per card, its table, a key equal for equal
        (name, lane) cards, and its lane."""
        text = config["deck"]
        key = (text if isinstance(text, str) else None, trim_cost(config))
        hit = self._decks.get(key)
        if hit is None:
            keys, lanes = deck_rows(config)
            hit = self._decks[key] = self.ext.deck([self.table_id(t) for t in tabs], keys, lanes)
        return hit

    def _deck_values(self, config: Config) -> int:
        """The kernel's number of the config's deck, with its card names and every drop of each card (actions
        are immutable values: one object each serves every step), given to the kernel once per deck; the
        kernel asks it (memoised per config) to find a state's deck."""
        tabs = tables_of(config)
        deck = self._deck_id(config, tabs)
        if deck not in self._valued:
            names = tuple(name for name, _ in deck_of(config).cards)
            drops = tuple(
                tuple(Drop(name, v.mirror, v.trim, v.rot, col) for v in table.variants for col in range(8))
                for name, table in zip(names, tabs, strict=True)
            )
            self.ext.values(deck, names, drops)
            self._valued.add(deck)
        return deck

    def texts(self, table: VariantTable, name: str) -> tuple[str, ...]:
        """The notation of every drop of a card, by the kernel's number ``8 * variant + column``."""
        key = (table.number, name)
        hit = self._texts.get(key)
        if hit is None:
            hit = self._texts[key] = tuple(
                format_action(Drop(name, v.mirror, v.trim, v.rot, col)) for v in table.variants for col in range(8)
            )
        return hit

    # ---------------------------------------------------------------- the interface
    def count(self, table: VariantTable, s: Sheet) -> int:
        return int(self.ext.count(self.table_id(table), s.ink, s.barrier, s.height, s.bonus))

    def any(self, table: VariantTable, s: Sheet) -> bool:
        return self.count(table, s) > 0

    def legal(self, table: VariantTable, s: Sheet) -> Iterable[tuple[int, int]]:
        for k in self.ext.legal(self.table_id(table), s.ink, s.barrier, s.height, s.bonus):
            yield k >> 3, k & 7

    def new(self, config: Config, seed: int, height: int, cards: int, stream: int) -> FoldrisState:
        """The same value, built directly (a frozen dataclass's ``__init__`` is slow)."""
        return self.ext.new(config, seed, height, cards, stream)  # type: ignore[no-any-return]

    def acting(self, state: FoldrisState) -> tuple[int, ...]:
        return self.ext.acting(state)  # type: ignore[no-any-return]

    def view(self, game: Any, state: FoldrisState, player: int | None) -> LegalActions[Action] | None:
        return self.ext.view(game, state, player)  # type: ignore[no-any-return]

    def sample(self, state: FoldrisState, player: int, rng: Rng) -> Drop:
        drop: Drop | None = self.ext.sample_drop(state, player, rng)
        if drop is None:  # never for a player still in the game (eliminated at the reveal), kept as _sample says
            raise IllegalActionError(f"{player_name(player)} has no legal action", "no_action", {"player": player + 1})
        return drop

    def can_act(self, state: FoldrisState, player: int | None) -> bool:
        return self.ext.can_act(state, player)  # type: ignore[no-any-return]

    def try_drop(self, state: FoldrisState, action: Action, player: int | None) -> FoldrisState | None:
        return self.ext.try_drop(state, action, player)  # type: ignore[no-any-return]

    def check(self, state: FoldrisState, action: Drop, player: int) -> bool:
        if type(action) is not Drop or action.name != deck_of(state.config).cards[state.card][0]:
            return False
        s = state.sheets[player]
        tid = self.table_id(tables_of(state.config)[state.card])
        m, t, r, c = action.mirror, action.trim, action.rot, action.col
        return self.ext.check(tid, m, t, r, c, s.ink, s.barrier, s.height, s.bonus)  # type: ignore[no-any-return]

    def choose(self, state: FoldrisState, player: int, action: Drop) -> FoldrisState:
        out: FoldrisState | None = self.ext.try_drop(state, action, player)  # one call on the state
        if out is not None:
            return out
        lane = deck_of(state.config).cards[state.card][1]
        return self.ext.choose(self.table_id(tables_of(state.config)[state.card]), lane, state, player, action)  # type: ignore[no-any-return]

    def playout(self, state: FoldrisState, rngs: Sequence[Rng], max_actions: int | None) -> tuple[FoldrisState, int]:
        """The same states and draws as the pure loop. The kernel finds the config's deck itself; the
        tables are read only for choices already recorded this round."""
        pending = None
        if state.card >= 0 and state.pending.count(None) != len(state.pending):
            by_key = tables_of(state.config)[state.card].by_key
            pending = [-1 if d is None else by_key[(d.mirror, d.trim, d.rot)] * 8 + d.col for d in state.pending]
        limit = -1 if max_actions is None else max_actions
        return self.ext.playout(-1, state, pending, rngs, len(rngs) == 1, limit)  # type: ignore[no-any-return]

    def reveal(self, state: FoldrisState) -> FoldrisState | None:
        return self.ext.reveal(state)  # type: ignore[no-any-return]


class Drops(LegalActions["Action"]):
    """``legal_actions`` of a player choosing now, built by the compiled kernel (``view``): a sample is one
    C call, with no list of drops made, and the notation is read from a table by the kernel's numbers (no
    drop values made: a server lists the acting seats' drops after every change)."""

    __slots__ = ()

    def _kernel(self) -> CompiledFoldris:
        kernel: CompiledFoldris = self._game.kernel  # type: ignore[attr-defined]
        return kernel

    def notation(self, limit: int | None = None) -> list[str]:
        kernel = self._kernel()
        state: FoldrisState = self._state
        sheet = state.sheets[self._player]
        table = table_of(state)
        texts = kernel.texts(table, deck_of(state.config).cards[state.card][0])
        found = kernel.ext.legal(kernel.table_id(table), sheet.ink, sheet.barrier, sheet.height, sheet.bonus)
        if limit is not None and len(found) > limit:
            found = found[:limit]
        return [texts[k] for k in found]

    def sample(self, rng: Rng) -> Action:
        return self._kernel().sample(self._state, self._player, rng)
