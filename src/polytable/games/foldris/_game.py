"""The Foldris rules behind the polytable protocol.

Round structure (CLARIFICATIONS): a chance node reveals a card; then a SIMULTANEOUS node where every
surviving player records a drop (nobody sees another's pending choice); when the last one has chosen the
round resolves at once: blocks fall, completed lines score (one bonus point each) and fold away, last
round's barriers are lifted, new barriers fall, and the next reveal (or the end) follows. A player who
cannot draw the revealed block with any rotation, column and affordable effect is eliminated at once.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any, ClassVar

from polytable.core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    Config,
    Game,
    GameSpec,
    IllegalActionError,
    LegalActions,
    Option,
    Rng,
    below,
    joined,
    player_name,
    seed_state,
)

from . import _serial
from ._cards import MAX_CELLS, WIDTH
from ._companion import FoldrisCompanion
from ._decks import deck_and_tables, deck_of, table_of, tables_of
from ._kernel import CompiledFoldris, FoldrisKernel
from ._rules import affordable, barrier_drop, count_placements, fold, heights, nth_placement, rest_row
from ._said import narrate, outcome
from ._state import Action, Drop, FoldrisState, Reveal, Sheet
from ._text import format_action, parse_action
from ._titles import solo_title

__all__ = ["FoldrisGame"]

STARTER_STREAM = 1
"""The seed's generator stream the starting player is drawn from at set-up (the deck uses stream 0), so the
deck order of a seed does not depend on the draw; solo draws nothing (``below(_, 1)`` is 0)."""

DROP_IDS = 2 * (MAX_CELLS + 1) * 4 * WIDTH
"""Action ids ``0..DROP_IDS-1`` are drops; reveals follow (7 lanes per card name)."""


class FoldrisGame(Game[FoldrisState, Action]):
    companion = FoldrisCompanion()
    spec = GameSpec(
        id="foldris",
        name="Foldris",
        min_players=1,
        max_players=7,
        default_players=3,
        rules_version="2",
        options=(
            Option("height", "int", 12, "rows of the game sheet", min=4, max=40),
            Option("deck", "text", None, "a deck file's contents: one card a line, 'NAME LANE' (default: 24 cards)"),
        ),
        chance=True,
        simultaneous=True,
        hidden_information=True,
        summary="Everyone drops the same block on their own folding sheet; complete lines, last one standing.",
    )

    compiled_kernel: ClassVar[str | None] = "polytable.games.foldris._cfoldris"
    kernel: FoldrisKernel
    """The rules kernel this game object runs (see :mod:`._kernel`)."""

    def _use_kernel(self, ext: Any) -> None:
        self.kernel = FoldrisKernel() if ext is None else CompiledFoldris(ext)

    # ------------------------------------------------------------------ set-up and turn order
    def _new(self, config: Config, seed: int) -> FoldrisState:
        deck = deck_of(config)
        height = config.int("height")
        fast = self.kernel.new(config, seed, height, len(deck.cards), STARTER_STREAM)
        if fast is not None:
            return fast
        sheets = (Sheet(0, 0, height, 0, 2),) * config.players  # one value, shared: sheets are immutable
        return FoldrisState(
            config=config,
            sheets=sheets,
            deck=tuple(range(len(deck.cards))),
            start_lane=0,
            round=0,
            card=-1,
            pending=(None,) * config.players,
            rng=seed_state(seed),
            starter=below(seed_state(seed, STARTER_STREAM), config.players)[0],
        )

    def current_player(self, state: FoldrisState) -> int:
        if state.over:
            return TERMINAL
        return CHANCE if state.card < 0 else SIMULTANEOUS

    def is_terminal(self, state: FoldrisState) -> bool:
        return state.over  # current_player is TERMINAL exactly then; asked every step, so said directly

    def acting_players(self, state: FoldrisState) -> tuple[int, ...]:
        fast = self.kernel.acting(state)
        if fast is not None:
            return fast
        if state.over or state.card < 0:
            return ()
        return tuple(p for p, s in enumerate(state.sheets) if not s.out and state.pending[p] is None)

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self, state: FoldrisState, player: int | None = None) -> LegalActions[Action]:
        view = self.kernel.view(self, state, player)  # a player choosing now: one C call
        return view if view is not None else super().legal_actions(state, player)

    def _legal(self, state: FoldrisState, player: int) -> Iterator[Action]:
        if player == CHANCE:
            cards = deck_of(state.config).cards
            seen: set[tuple[str, int]] = set()
            for i in state.deck:
                if cards[i] not in seen:
                    seen.add(cards[i])
                    yield Reveal(*cards[i])
            return
        sheet = state.sheets[player]
        table = table_of(state)
        name = deck_of(state.config).cards[state.card][0]
        variants = table.variants
        for i, col in self.kernel.legal(table, sheet):
            v = variants[i]
            yield Drop(name, v.mirror, v.trim, v.rot, col)

    def _count(self, state: FoldrisState, player: int) -> int:
        if player == CHANCE:
            cards = deck_of(state.config).cards
            return len({cards[i] for i in state.deck})
        sheet = state.sheets[player]
        return self.kernel.count(table_of(state), sheet)

    def _any(self, state: FoldrisState, player: int) -> bool:
        if player == CHANCE:
            return bool(state.deck)
        return self.kernel.any(table_of(state), state.sheets[player])

    def _sample(self, state: FoldrisState, player: int, rng: Rng) -> Action:
        if player == CHANCE:
            return super()._sample(state, player, rng)
        fast = self.kernel.sample(state, player, rng)  # the same draws as below, in C
        if fast is not None:
            return fast
        sheet = state.sheets[player]
        deck, tables = deck_and_tables(state.config)
        table = tables[state.card]
        name = deck.cards[state.card][0]
        hts = heights(sheet.ink | sheet.barrier)
        if max(hts) + table.max_height <= sheet.height:
            # Every column of every affordable variant fits: draw an index and locate it, no list built.
            k = affordable(table, sheet.bonus)
            pick = rng.below(table.columns_prefix[k])
            i = bisect_right(table.columns_prefix, pick) - 1
            v = table.variants[i]
            return Drop(name, v.mirror, v.trim, v.rot, pick - table.columns_prefix[i])
        total = count_placements(table, hts, sheet.height, sheet.bonus)
        if not total:
            raise IllegalActionError(f"{player_name(player)} has no legal action", "no_action", {"player": player + 1})
        i, col = nth_placement(table, hts, sheet.height, sheet.bonus, rng.below(total))
        v = table.variants[i]
        return Drop(name, v.mirror, v.trim, v.rot, col)

    # ------------------------------------------------------------------ checking
    def _resolve_player(self, state: FoldrisState, player: int | None) -> int:
        ok = self.kernel.can_act(state, player)  # the common case, without building the acting tuple
        return player if ok and player is not None else super()._resolve_player(state, player)

    def apply(self, state: FoldrisState, action: Action, player: int | None = None) -> FoldrisState:
        out = self.kernel.try_drop(state, action, player)  # a legal drop: one C call
        return out if out is not None else super().apply(state, action, player)

    def _check(self, state: FoldrisState, action: Action, player: int) -> None:
        if player == CHANCE:
            if not isinstance(action, Reveal):
                raise IllegalActionError("a card must be revealed now (for example 'reveal T 3')", "foldris.reveal_now")
            cards = deck_of(state.config).cards
            if not any(cards[i] == (action.name, action.lane) for i in state.deck):
                raise IllegalActionError(
                    f"card {action.name} {action.lane} is not in the deck any more",
                    "foldris.card_gone",
                    {"name": action.name, "lane": action.lane},
                )
            return
        if type(action) is Drop and self.kernel.check(state, action, player):
            return  # legal; anything else is judged, and explained, below
        if not isinstance(action, Drop):
            raise IllegalActionError(
                "drop this round's block (for example 'T r1 c3'); cards are revealed by chance", "foldris.drop_now"
            )
        deck = deck_of(state.config)
        name = deck.cards[state.card][0]
        if action.name != name:
            raise IllegalActionError(
                f"the card this round is {name}, not {action.name}",
                "foldris.wrong_card",
                {"name": name, "played": action.name},
            )
        m, t, r, c = action.mirror, action.trim, action.rot, action.col
        if not all(type(x) is int for x in (m, t, r, c)) or m not in (0, 1) or not 0 <= r <= 3 or not 0 <= c < WIDTH:
            raise IllegalActionError(
                "a drop needs a rotation r0-r3, an optional mirror m and a column c1-c8", "foldris.drop_format"
            )
        table = table_of(state)
        size = len(deck.shape(name))
        if not 0 <= t <= size:
            raise IllegalActionError(
                f"block {name} has {size} squares; there is no square {t} to trim",
                "foldris.trim_no_square",
                {"name": name, "size": size, "square": t},
            )
        key = (m, t, r)
        if key not in table.by_key:
            if size == 1:
                raise IllegalActionError(
                    f"block {name} has a single square: trimming it would leave nothing",
                    "foldris.trim_single",
                    {"name": name},
                )
            raise IllegalActionError(
                f"trimming square {t} of block {name} would split it in two, which is not allowed",
                "foldris.trim_splits",
                {"square": t, "name": name},
            )
        v = table.variants[table.by_key[key]]
        if (v.mirror, v.trim, v.rot) != key:
            canon = format_action(Drop(name, v.mirror, v.trim, v.rot, c))
            raise IllegalActionError(
                f"'{format_action(action)}' rests on the same squares as '{canon}', its cheapest form; play that",
                "foldris.not_cheapest",
                {"action": format_action(action), "canon": canon},
            )
        sheet = state.sheets[player]
        if v.cost > sheet.bonus:
            used = [w for w, on in (("mirroring", m), ("trimming", t)) if on]
            what = " and ".join(used)
            if v.cost == 1:
                raise IllegalActionError(
                    f"{what} costs {v.cost} bonus point and you have {sheet.bonus}",
                    "foldris.effect_costs_one",
                    {"what": joined(used, "and"), "cost": v.cost, "bonus": sheet.bonus},
                )
            raise IllegalActionError(
                f"{what} costs {v.cost} bonus points and you have {sheet.bonus}",
                "foldris.effect_costs",
                {"what": joined(used, "and"), "cost": v.cost, "bonus": sheet.bonus},
            )
        if c + v.width > WIDTH:
            raise IllegalActionError(
                f"block {name} in rotation {r} is {v.width} columns wide: at column {c + 1} it would stick out"
                f" on the right (the last column it can start at is {WIDTH - v.width + 1})",
                "foldris.sticks_out_right",
                {"name": name, "rotation": r, "width": v.width, "column": c + 1, "last": WIDTH - v.width + 1},
            )
        y = rest_row(v, heights(sheet.ink | sheet.barrier), c)
        if y + v.height > sheet.height:
            raise IllegalActionError(
                f"block {name} would come to rest above the top of your sheet at column {c + 1}: it does not fit",
                "foldris.above_top",
                {"name": name, "column": c + 1},
            )

    # ------------------------------------------------------------------ applying
    def _apply(self, state: FoldrisState, action: Action, player: int) -> FoldrisState:
        if player == CHANCE:
            assert isinstance(action, Reveal)
            return self._reveal(state, action)
        assert isinstance(action, Drop)
        fast = self.kernel.choose(state, player, action)  # the same record, or the round resolved, in C
        if fast is not None:
            return fast
        pending = (*state.pending[:player], action, *state.pending[player + 1 :])
        for d, s in zip(pending, state.sheets, strict=True):
            if d is None and not s.out:
                # Others still choose: record this choice only (states are built directly: replace() is slow).
                return FoldrisState(
                    state.config,
                    state.sheets,
                    state.deck,
                    state.start_lane,
                    state.round,
                    state.card,
                    pending,
                    state.rng,
                    False,
                    state.starter,
                )
        return self._resolve(state, pending)

    def _reveal(self, state: FoldrisState, action: Reveal, rng: int | None = None) -> FoldrisState:
        config = state.config
        cards = deck_of(config).cards
        rng = below(state.rng, len(state.deck))[1] if rng is None else rng  # given: apply_chance drew it
        card = (action.name, action.lane)
        pos = next(k for k, i in enumerate(state.deck) if cards[i] == card)
        index = state.deck[pos]
        deck = state.deck[:pos] + state.deck[pos + 1 :]
        if not state.start_lane:
            # The start card: the starting player fills a 2x2 square at the bottom of its lane, the player to
            # their left (the next seat) the next lane, and so on, wrapping from 7 to 1.
            n, first = len(state.sheets), state.starter
            sheets = tuple(
                Sheet(0x0303 << ((action.lane - 1 + (p - first) % n) % 7), 0, s.height, s.lines, s.bonus)
                for p, s in enumerate(state.sheets)
            )
            return FoldrisState(config, sheets, deck, action.lane, 0, -1, state.pending, rng, False, first)
        rnd = state.round + 1
        table = tables_of(config)[index]
        out = []
        alive = 0
        for s in state.sheets:
            if s.out:
                out.append(s)
            elif self.kernel.any(table, s):
                out.append(s)
                alive += 1
            else:
                out.append(Sheet(s.ink, s.barrier, s.height, s.lines, s.bonus, rnd))
        sheets = tuple(out)
        over = alive == 0 or (config.players > 1 and alive == 1)
        return FoldrisState(
            config, sheets, deck, state.start_lane, rnd, -1 if over else index, state.pending, rng, over, state.starter
        )

    def _resolve(self, state: FoldrisState, pending: tuple[Drop | None, ...]) -> FoldrisState:
        table = table_of(state)
        lane = deck_of(state.config).cards[state.card][1]
        solo = state.config.players == 1
        variants, by_key = table.variants, table.by_key
        dropped: list[tuple[int, int, int] | None] = []  # (ink after folding, lines made, cost) per sheet
        anyone = False
        for s, d in zip(state.sheets, pending, strict=True):
            if s.out or d is None:
                dropped.append(None)
                continue
            v = variants[by_key[(d.mirror, d.trim, d.rot)]]
            y = rest_row(v, heights(s.ink | s.barrier), d.col)
            ink = s.ink | (v.bits << (WIDTH * y + d.col))
            n = 0
            for r in range(y + v.height - 1, y - 1, -1):  # highest first, so folding keeps the lower indices
                if (ink >> (WIDTH * r)) & 0xFF == 0xFF:
                    ink = fold(ink, r)
                    n += 1
            if n:
                anyone = True
            dropped.append((ink, n, v.cost))
        out: list[Sheet] = []
        for s, res in zip(state.sheets, dropped, strict=True):
            if res is None:
                # Out (unchanged), or a survivor without a choice (never happens: a round resolves once every
                # survivor has chosen); kept as the rules engine always treated it.
                if not s.out and (solo or anyone):
                    s = Sheet(s.ink, barrier_drop(s.ink, lane, s.height), s.height, s.lines, s.bonus)
                out.append(s)
                continue
            ink, n, cost = res
            height = s.height - n
            barrier = barrier_drop(ink, lane, height) if (solo or (anyone and not n)) else 0
            out.append(Sheet(ink, barrier, height, s.lines + n, s.bonus + n - cost))
        return FoldrisState(
            state.config,
            tuple(out),
            state.deck,
            state.start_lane,
            state.round,
            -1,
            (None,) * len(out),
            state.rng,
            not state.deck,
            state.starter,
        )

    def playout(
        self, state: FoldrisState, rngs: Sequence[Rng], max_actions: int | None = None
    ) -> tuple[FoldrisState, int]:
        """The protocol's random playout, in the compiled kernel when it is built (same results)."""
        return self.kernel.playout(state, rngs, max_actions) or super().playout(state, rngs, max_actions)

    # ------------------------------------------------------------------ chance
    def apply_chance(self, state: FoldrisState) -> FoldrisState:
        out = self.kernel.reveal(state)  # the same draw and state, in C (None: not a chance node)
        if out is not None:
            return out
        if state.over or state.card >= 0:  # not a chance node: the protocol's error
            return super().apply_chance(state)
        i, rng = below(state.rng, len(state.deck))  # chance_outcome's draw, a card in the deck: no check needed
        return self._reveal(state, Reveal(*deck_of(state.config).cards[state.deck[i]]), rng)

    def chance_outcome(self, state: FoldrisState) -> Action:
        i, _ = below(state.rng, len(state.deck))
        return Reveal(*deck_of(state.config).cards[state.deck[i]])

    def chance_outcomes(self, state: FoldrisState) -> list[tuple[Action, float]]:
        cards = deck_of(state.config).cards
        counts: dict[tuple[str, int], int] = {}
        for i in state.deck:
            counts[cards[i]] = counts.get(cards[i], 0) + 1
        n = len(state.deck)
        return [(Reveal(*c), k / n) for c, k in counts.items()]

    def determinize(self, state: FoldrisState, player: int, rng: Rng) -> FoldrisState:
        # The deck is kept as a multiset and every revealed card is public, so its contents are known to
        # all; only the order is hidden, and that lives in the generator: reseed it.
        return replace(state, rng=rng.u64())

    # ------------------------------------------------------------------ the game's own units
    def turns_begun(self, state: FoldrisState) -> tuple[int, ...]:
        """Everyone drops once a round, at once: a round begins with its reveal, and a player out since the
        reveal of round ``out`` had rounds ``1 .. out - 1``."""
        return tuple(s.out - 1 if s.out else state.round for s in state.sheets)

    def decision_kind(self, state: FoldrisState, player: int) -> str:
        return "drop"

    def score_unit(self, config: Config) -> str | None:
        return "lines"

    # ------------------------------------------------------------------ results
    def scores(self, state: FoldrisState) -> tuple[float, ...]:
        return tuple(float(s.lines) for s in state.sheets)

    def winners(self, state: FoldrisState) -> tuple[int, ...]:
        if not state.over:
            return ()
        sheets = state.sheets
        if state.config.players == 1:
            return (0,) if solo_title(sheets[0].lines) else ()
        alive = [p for p, s in enumerate(sheets) if not s.out]
        if len(alive) == 1:
            return (alive[0],)
        if not alive:  # the last players were eliminated in the same round
            last = max(s.out for s in sheets)
            alive = [p for p, s in enumerate(sheets) if s.out == last]
        best = max((sheets[p].lines, sheets[p].bonus) for p in alive)
        return tuple(p for p in alive if (sheets[p].lines, sheets[p].bonus) == best)

    def outcome(self, state: FoldrisState) -> dict[str, object]:
        return outcome(state)

    def narrate(self, action: Action, state: FoldrisState, after: FoldrisState, player: int) -> dict[str, object]:
        return narrate(action, state, player)

    def returns(self, state: FoldrisState) -> tuple[float, ...]:
        if state.config.players == 1:
            if not state.over:
                return (0.0,)
            return (state.sheets[0].lines / state.config.int("height"),)
        return super().returns(state)

    # ------------------------------------------------------------------ notation and ids
    def format_action(self, action: Action, state: FoldrisState | None = None) -> str:
        return format_action(action)

    def parse_action(self, text: str, state: FoldrisState | None = None) -> Action:
        """Read an action; with a state, a drop is mapped to the canonical (cheapest) action that rests on
        the same squares, so a player may type any equivalent form ('O r2 c3' is 'O r0 c3')."""
        name = None
        if state is not None and state.card >= 0:
            name = deck_of(state.config).cards[state.card][0]
        action = parse_action(text, name)
        if isinstance(action, Drop) and action.name == name and state is not None:
            table = table_of(state)
            index = table.by_key.get((action.mirror, action.trim, action.rot))
            if index is not None:
                v = table.variants[index]
                return Drop(action.name, v.mirror, v.trim, v.rot, action.col)
        return action

    def num_distinct_actions(self, config: Config) -> int:
        return DROP_IDS + 7 * len(deck_of(config).names)

    def action_id(self, action: Action, state: FoldrisState | None = None) -> int:
        if isinstance(action, Reveal):
            names = deck_of(state.config).names if state is not None else deck_of(self.spec.config()).names
            if action.name not in names:
                raise IllegalActionError(
                    f"there is no card {action.name} in this deck", "foldris.no_such_card", {"name": action.name}
                )
            return DROP_IDS + names.index(action.name) * 7 + action.lane - 1
        return (((action.mirror * (MAX_CELLS + 1) + action.trim) * 4 + action.rot) * WIDTH) + action.col

    def action_from_id(self, action_id: int, state: FoldrisState) -> Action:
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            raise IllegalActionError(
                f"an action id is a whole number, not {action_id!r}",
                "foldris.action_id_type",
                {"action_id": f"{action_id!r}"},
            )
        deck = deck_of(state.config)
        if 0 <= action_id < DROP_IDS:
            if state.card < 0:
                raise IllegalActionError("no block card is face up: there is nothing to drop now", "foldris.no_card_up")
            col = action_id % WIDTH
            rest = action_id // WIDTH
            rot = rest % 4
            rest //= 4
            return Drop(deck.cards[state.card][0], rest // (MAX_CELLS + 1), rest % (MAX_CELLS + 1), rot, col)
        k = action_id - DROP_IDS
        if 0 <= k < 7 * len(deck.names):
            return Reveal(deck.names[k // 7], k % 7 + 1)
        raise IllegalActionError(
            f"action id {action_id} is out of range (0-{self.num_distinct_actions(state.config) - 1})",
            "foldris.action_id_range",
            {"action_id": action_id, "max": self.num_distinct_actions(state.config) - 1},
        )

    # ------------------------------------------------------------------ serialisation, views, rendering
    def state_to_dict(self, state: FoldrisState) -> dict[str, Any]:
        return _serial.state_to_dict(state)

    def state_from_dict(self, data: Mapping[str, Any]) -> FoldrisState:
        return _serial.state_from_dict(self, data)

    def view(self, state: FoldrisState, player: int | None) -> dict[str, Any]:
        return _serial.view(self, state, player)

    def render(self, state: FoldrisState, player: int | None = None, color: bool = False) -> str:
        from ._render import render

        return render(self, state, player, color)

    def describe_action(self, action: Action, state: FoldrisState) -> str:
        if isinstance(action, Reveal):
            return f"card {action.name} (lane {action.lane}) is revealed"
        parts = [f"block {action.name}"]
        if action.mirror:
            parts.append("mirrored")
        if action.trim:
            parts.append(f"with square {action.trim} trimmed")
        parts.append(f"turned {action.rot} quarter turn{'s' if action.rot != 1 else ''} clockwise")
        return " ".join(parts) + f", dropped at column {action.col + 1}"

    def sample_configs(self) -> list[tuple[dict[str, object], int]]:
        from ._titles import SAMPLE_DECK_CUSTOM, SAMPLE_DECK_SHORT

        out: list[tuple[dict[str, object], int]] = [({}, n) for n in range(1, 8)]
        out += [({"height": 6}, 1), ({"height": 5}, 4), ({"deck": SAMPLE_DECK_CUSTOM}, 2)]
        out += [({"deck": SAMPLE_DECK_SHORT}, 3), ({"deck": SAMPLE_DECK_SHORT, "height": 8}, 1)]
        return out
