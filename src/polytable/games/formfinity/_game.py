"""The FORMFINITY game object: the protocol over the state, flow and board modules."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from polytable.core import (
    CHANCE,
    TERMINAL,
    Config,
    Game,
    GameSpec,
    IllegalActionError,
    Option,
    Rng,
    StateFormatError,
    joined,
    player_name,
    require,
    require_int,
    require_list,
    seed_state,
    turns_in_rotation,
)
from polytable.geometry import select_bit

from . import _flow, _render, _said
from ._board import Setup, setup_for
from ._cards import NUM_CARDS, SHAPES, Card
from ._companion import FormfinityCompanion
from ._kernel import CompiledFormfinity, FormfinityKernel
from ._notation import format_action, parse_action
from ._state import CHOOSE, CLAIM, DRAW, OVER, PLACE, Action, ChooseArea, Claim, FormfinityState, Place, cell_name

__all__ = ["FormfinityGame", "setup_of"]

State = FormfinityState
SIDE = 40  # ids use a fixed 40 x 40 layout so they do not depend on the template
_PLACE0 = NUM_CARDS
_CLAIM0 = _PLACE0 + len(SHAPES) * SIDE * SIDE
_AREA0 = _CLAIM0 + 4 * SIDE * SIDE
_TOTAL = _AREA0 + SIDE * SIDE

OPTIONS = (
    Option("variant", "choice", "1", "1 lines, 2 areas, 3 black squares, 4 numbers, custom (needs variant_file)",
           choices=("1", "2", "3", "4", "custom")),
    Option("difficulty", "choice", "easy", "variant 1: easy (lines may cross) or hard (no shared squares)",
           choices=("easy", "hard")),
    Option("template", "text", "", "a template file (or 1-4/blank); empty: the variant's own template"),
    Option("variant_file", "text", "", "a custom variant file (TOML); replaces the variant option"),
    Option("deck", "text", "", "a deck file (JSON or TOML) that replaces the card generator"),
    Option("deck_shuffle", "bool", True, "draw deck cards at random (false: in file order)"),
    Option("size_weights", "str", "3,4,4,4,1", "generator weights of element sizes 1,2,3,4,5"),
    Option("count_weights", "str", "6,3,1", "generator weights of x1, x2, x3"),
    Option("arrow_weights", "str", "1,1,1,1,1", "generator weights of 0,1,2,3,4 arrows"),
    Option("rotation_percent", "int", 50, "chance (%) that a generated card allows rotation", min=0, max=100),
)  # fmt: skip


SCORE_UNITS: dict[str, str | None] = {"lines": "lines", "areas": "points", "connection": None, "numbers": "numbers"}
"""What the scores count under each goal (a connection is won or lost, no running tally)."""


class FormfinityGame(Game[FormfinityState, Action]):
    """FORMFINITY: draw polyomino cards and place them on a shared template (four variants + custom)."""

    companion = FormfinityCompanion()
    spec = GameSpec(
        id="formfinity",
        name="FORMFINITY",
        min_players=2,
        max_players=4,
        default_players=2,
        rules_version="2",
        options=OPTIONS,
        chance=True,
        summary="Roll-and-write with polyomino cards: lines, areas, connections and numbers on a template.",
    )

    compiled_kernel: ClassVar[str | None] = "polytable.games.formfinity._cformfinity"
    kernel: FormfinityKernel
    """The rules kernel this game object runs (see :mod:`._kernel`); every setup it makes carries it."""

    def _use_kernel(self, ext: Any) -> None:
        self.kernel = FormfinityKernel() if ext is None else CompiledFormfinity(ext)

    # ------------------------------------------------------------------ set-up
    def setup(self, state_or_config: State | Config) -> Setup:
        """The setup of a state's (or a config's) rules, with this game object's kernel in it."""
        config = state_or_config if isinstance(state_or_config, Config) else state_or_config.config
        return setup_for(config, self.kernel)

    def _new(self, config: Config, seed: int) -> State:
        setup = self.setup(config)
        n = config.players
        st = State(
            config=config,
            rng=seed_state(seed),
            deck=setup.deck,
            owners=(0,) * n,
            points=(0,) * n,
        )
        return _flow.start_state(setup, st)

    # ------------------------------------------------------------------ turn
    def current_player(self, state: State) -> int:
        ph = state.phase
        if ph == OVER:
            return TERMINAL
        if ph == DRAW:
            return CHANCE
        return state.turn

    def _legal(self, state: State, player: int) -> Iterator[Action]:
        setup = self.setup(state)
        ph = state.phase
        if ph == DRAW:
            yield from self._chance_cards(setup, state)
        elif ph == PLACE:
            S = setup.S
            for shape, anchors in _flow.placements(setup, state, player):
                # one step per legal action: an inline loop (geometry.bits, a nested generator, is slower here)
                while anchors:
                    low = anchors & -anchors
                    y, x = divmod(low.bit_length() - 1, S)
                    yield Place(shape, x, y)
                    anchors ^= low
        elif ph == CLAIM:
            S = setup.S
            for d, b, _ in sorted(_flow.claimable(setup, state)):
                y, x = divmod(b, S)
                yield Claim(d, x, y)
        elif ph == CHOOSE:
            for i in range(len(setup.areas)):
                if not state.done_areas >> i & 1:
                    yield ChooseArea(i)

    def _chance_cards(self, setup: Setup, state: State) -> Iterator[Card]:
        gen = setup.generator
        if gen is None:
            if not setup.deck_shuffle:
                yield Card.from_id(state.deck[0])
                return
            for i in sorted(set(state.deck)):
                yield Card.from_id(i)
            return
        yield from setup.chance_cards

    def _count(self, state: State, player: int) -> int:
        if state.phase == PLACE:
            return sum(a.bit_count() for _, a in _flow.placements(self.setup(state), state, player))
        if state.phase == DRAW:
            setup = self.setup(state)
            if setup.generator is not None:
                return len(setup.chance_cards)
        return super()._count(state, player)

    def _any(self, state: State, player: int) -> bool:
        if state.phase == PLACE:
            return bool(_flow.placements(self.setup(state), state, player))
        return state.phase != OVER

    def _sample(self, state: State, player: int, rng: Rng) -> Action:
        if state.phase == DRAW and self.setup(state).generator is not None:
            cards = self.setup(state).chance_cards
            return cards[rng.below(len(cards))]
        if state.phase != PLACE:
            return super()._sample(state, player, rng)
        setup = self.setup(state)
        options = _flow.placements(setup, state, player)
        total = sum(a.bit_count() for _, a in options)
        if total == 0:
            raise IllegalActionError(f"{player_name(player)} has no legal action", "no_action", {"player": player + 1})
        k = rng.below(total)
        for shape, anchors in options:
            c = anchors.bit_count()
            if k >= c:
                k -= c
                continue
            y, x = divmod(select_bit(anchors, k), setup.S)
            return Place(shape, x, y)
        raise AssertionError("placement count and walk disagree")

    # ------------------------------------------------------------------ checking and applying
    def _check(self, state: State, action: Action, player: int) -> None:
        setup = self.setup(state)
        ph = state.phase
        if ph == DRAW:
            if not isinstance(action, Card):
                raise IllegalActionError("the next step is drawing a card", "formfinity.draw_next")
            if setup.generator is not None:
                if action.id not in setup.chance_ids:
                    raise IllegalActionError(
                        f"the card generator never deals {action.notation()}",
                        "formfinity.never_dealt",
                        {"action": action.notation()},
                    )
            elif action.id not in (state.deck[:1] if not setup.deck_shuffle else state.deck):
                raise IllegalActionError(
                    f"{action.notation()} is not the next card of the deck",
                    "formfinity.not_next_card",
                    {"action": action.notation()},
                )
            return
        if ph == CHOOSE:
            if not isinstance(action, ChooseArea):
                raise IllegalActionError(
                    f"{player_name(player)} must first choose the next area to fill",
                    "formfinity.choose_area_first",
                    {"player": player + 1},
                )
            if not 0 <= action.area < len(setup.areas):
                raise IllegalActionError(
                    f"there is no area number {action.area + 1} on this template",
                    "formfinity.no_area_number",
                    {"area": action.area + 1},
                )
            if state.done_areas >> action.area & 1:
                raise IllegalActionError(
                    f"area {setup.area_names[action.area]} is already finished",
                    "formfinity.area_finished",
                    {"area_names": setup.area_names[action.area]},
                )
            return
        if ph == CLAIM:
            if not isinstance(action, Claim):
                raise IllegalActionError(
                    f"{player_name(player)} must first choose which line to claim",
                    "formfinity.choose_line_first",
                    {"player": player + 1},
                )
            if not (0 <= action.x < setup.W and 0 <= action.y < setup.H) or action.direction not in range(4):
                raise IllegalActionError("that line is not on the template", "formfinity.line_off_template")
            b = action.y * setup.S + action.x
            if not any(d == action.direction and s == b for d, s, _ in _flow.claimable(setup, state)):
                raise IllegalActionError(
                    f"there is no line to claim starting at {cell_name(action.x, action.y)} in that direction",
                    "formfinity.no_line_to_claim",
                    {"cell_name": cell_name(action.x, action.y)},
                )
            return
        if not isinstance(action, Place):
            raise IllegalActionError(
                f"{player_name(player)} must place an element of the card now",
                "formfinity.place_now",
                {"player": player + 1},
            )
        if 0 <= action.shape < len(SHAPES) and setup.on_board(action.shape, action.x, action.y):
            bit = action.y * setup.S + action.x
            for shape, anchors in _flow.placements(setup, state, player):
                if shape == action.shape and anchors >> bit & 1:
                    return
        _explain(setup, state, action, player)
        raise IllegalActionError("the element cannot go there", "formfinity.cannot_go")

    def _apply(self, state: State, action: Action, player: int) -> State:
        setup = self.setup(state)
        if isinstance(action, Card):
            return _flow.apply_card(setup, state, action)
        if isinstance(action, Place):
            return _flow.apply_place(setup, state, setup.place_mask(action.shape, action.x, action.y))
        if isinstance(action, Claim):
            return _flow.apply_claim(setup, state, action.direction, action.y * setup.S + action.x)
        return _flow.apply_choose(setup, state, action.area)

    def playout(self, state: State, rngs: Sequence[Rng], max_actions: int | None = None) -> tuple[State, int]:
        """The protocol's random playout, in the compiled kernel when it is built (same draws, same states)."""
        out = self.kernel.playout(self.setup(state), state, rngs, max_actions)
        if out is not None:
            return out
        return super().playout(state, rngs, max_actions)

    # ------------------------------------------------------------------ chance
    def chance_outcome(self, state: State) -> Action:
        if state.phase != DRAW:
            raise IllegalActionError("this is not a chance node", "action.not_chance")
        return _flow.draw_card(self.setup(state), state)

    def chance_outcomes(self, state: State) -> list[tuple[Action, float]]:
        setup = self.setup(state)
        gen = setup.generator
        if gen is not None:
            return [(c, gen.probability(c)) for c in self._chance_cards(setup, state)]
        if not setup.deck_shuffle:
            return [(Card.from_id(state.deck[0]), 1.0)]
        n = len(state.deck)
        return [(Card.from_id(i), state.deck.count(i) / n) for i in sorted(set(state.deck))]

    def determinize(self, state: State, player: int, rng: Rng) -> State:
        """Future cards are unknown to everyone: reseed the generator (the deck's contents are public)."""
        from dataclasses import replace

        return replace(state, rng=rng.u64())

    # ------------------------------------------------------------------ results
    def scores(self, state: State) -> tuple[float, ...]:
        return tuple(float(s) for s in _flow.scores(self.setup(state), state))

    def winners(self, state: State) -> tuple[int, ...]:
        return state.winners if state.phase == OVER else ()

    # ------------------------------------------------------------------ notation and ids
    def format_action(self, action: Action, state: State | None = None) -> str:
        return format_action(action, self.setup(state) if state is not None else None)

    def parse_action(self, text: str, state: State | None = None) -> Action:
        if not isinstance(text, str):
            raise IllegalActionError("an action is written as text", "formfinity.action_type")
        if state is None:
            return parse_action(text, None, None, 0)
        setup = self.setup(state)
        card = Card.from_id(state.card) if state.phase == PLACE and state.card >= 0 else None
        return parse_action(text, setup, card, setup.wall | state.drawn)

    def num_distinct_actions(self, config: Config) -> int:
        return _TOTAL

    def action_id(self, action: Action, state: State | None = None) -> int:
        if isinstance(action, Card):
            return action.id
        if isinstance(action, Place):
            return _PLACE0 + (action.shape * SIDE + action.y) * SIDE + action.x
        if isinstance(action, Claim):
            return _CLAIM0 + (action.direction * SIDE + action.y) * SIDE + action.x
        if isinstance(action, ChooseArea):
            return _AREA0 + action.area
        raise IllegalActionError(
            f"{action!r} is not a FORMFINITY action", "formfinity.not_an_action", {"action": f"{action!r}"}
        )

    def action_from_id(self, action_id: int, state: State) -> Action:
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not 0 <= action_id < _TOTAL:
            raise IllegalActionError(
                f"there is no action number {action_id!r}",
                "formfinity.no_such_action",
                {"action_id": f"{action_id!r}"},
            )
        if action_id < _PLACE0:
            return Card.from_id(action_id)
        if action_id < _CLAIM0:
            rest, x = divmod(action_id - _PLACE0, SIDE)
            shape, y = divmod(rest, SIDE)
            return Place(shape, x, y)
        if action_id < _AREA0:
            rest, x = divmod(action_id - _CLAIM0, SIDE)
            d, y = divmod(rest, SIDE)
            return Claim(d, x, y)
        return ChooseArea(action_id - _AREA0)

    # ------------------------------------------------------------------ serialisation and views
    def state_to_dict(self, state: State) -> dict[str, Any]:
        return {
            "config": state.config.to_dict(),
            "rng": state.rng,
            "deck": list(state.deck),
            "owners": [hex(m) for m in state.owners],
            "turn": state.turn,
            "phase": state.phase,
            "card": state.card,
            "left": state.left,
            "placed": state.placed,
            "lines": [list(t) for t in state.lines],
            "area": state.area,
            "done_areas": state.done_areas,
            "fails": state.fails,
            "points": list(state.points),
            "numbers": list(state.numbers),
            "winners": list(state.winners),
            "cards_drawn": state.cards_drawn,
            "last": hex(state.last),
            "unused": state.unused,
        }

    def state_from_dict(self, data: Mapping[str, Any]) -> State:
        cfg = require(data, "config")
        if not isinstance(cfg, Mapping):
            raise StateFormatError("field 'config' must be an object", "state.field_config_object")
        try:
            config = self.spec.config(require(cfg, "options"), require_int(cfg, "players", 2, 4))
            setup = self.setup(config)
        except StateFormatError:
            raise
        except ValueError as e:
            raise StateFormatError(
                f"the saved configuration is invalid: {e}", "formfinity.state_config", {"why": e}
            ) from None
        n = config.players

        def mask(value: object, what: str) -> int:
            if not isinstance(value, str):
                raise StateFormatError(f"{what} must be a hex string", "formfinity.state_hex", {"what": what})
            try:
                m = int(value, 16)
            except ValueError:
                raise StateFormatError(
                    f"{what} is not a hex number: {value!r}",
                    "formfinity.state_hex_number",
                    {"what": what, "value": f"{value!r}"},
                ) from None
            if m < 0 or m & ~setup.playable:
                raise StateFormatError(
                    f"{what} covers squares that are not free squares of the template",
                    "formfinity.state_not_free",
                    {"what": what},
                )
            return m

        owners = tuple(mask(v, "owners") for v in require_list(data, "owners", n))
        total = 0
        for m in owners:
            if total & m:
                raise StateFormatError("two players drew on the same square", "formfinity.state_drawn_twice")
            total |= m
        deck = require_list(data, "deck")
        if any(isinstance(c, bool) or not isinstance(c, int) or not 0 <= c < NUM_CARDS for c in deck):
            raise StateFormatError("field 'deck' must list card numbers", "formfinity.state_deck")
        lines = require_list(data, "lines")
        for t in lines:
            if not (isinstance(t, list) and len(t) == 3 and all(isinstance(v, int) for v in t)):
                raise StateFormatError("each line is [owner, direction, start]", "formfinity.state_line")
            if not (0 <= t[0] < n and 0 <= t[1] < 4 and 0 <= t[2] < setup.S * setup.H):
                raise StateFormatError(f"line {t} is out of range", "formfinity.state_line_range", {"line": t})
        points = require_list(data, "points", n)
        numbers = require_list(data, "numbers")
        winners = require_list(data, "winners")
        for what, values, hi in (("points", points, 10**6), ("numbers", numbers, n - 1), ("winners", winners, n - 1)):
            if any(isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= hi for v in values):
                raise StateFormatError(
                    f"field {what!r} has a value out of range", "formfinity.state_range", {"what": f"{what!r}"}
                )
        if len(numbers) > len(setup.numbers):
            raise StateFormatError("more numbers claimed than the template has", "formfinity.state_numbers")
        rng = require_int(data, "rng", 0, (1 << 64) - 1)
        st = State(
            config=config,
            rng=rng,
            deck=tuple(deck),
            owners=owners,
            turn=require_int(data, "turn", 0, n - 1),
            phase=require_int(data, "phase", 0, 4),
            card=require_int(data, "card", -1, NUM_CARDS - 1),
            left=require_int(data, "left", 0, 3),
            placed=require_int(data, "placed", 0, 3),
            lines=tuple((t[0], t[1], t[2]) for t in lines),
            area=require_int(data, "area", -1, max(len(setup.areas) - 1, -1)),
            done_areas=require_int(data, "done_areas", 0, (1 << len(setup.areas)) - 1),
            fails=require_int(data, "fails", 0, n),
            points=tuple(points),
            numbers=tuple(numbers),
            winners=tuple(winners),
            cards_drawn=require_int(data, "cards_drawn", 0),
            last=mask(require(data, "last"), "last"),
            unused=require_int(data, "unused", 0, 3),
        )
        if st.phase == PLACE and st.card < 0:
            raise StateFormatError("a card is being placed but none is drawn", "formfinity.state_no_card")
        if setup.generator is None and not st.deck:
            raise StateFormatError("the deck is empty", "formfinity.state_deck_empty")
        return st

    def view(self, state: State, player: int | None) -> dict[str, Any]:
        return _render.view(self.setup(state), state, self.scores(state))

    def render(self, state: State, player: int | None = None, color: bool = False) -> str:
        return _render.render(self.setup(state), state, color)

    def describe_action(self, action: Action, state: State) -> str:
        return _said.describe(action, state)

    def narrate(self, action: Action, state: State, after: State, player: int) -> dict[str, object]:
        return _said.narrate(action, state, player)

    def outcome(self, state: State) -> dict[str, object]:
        return _said.outcome(state)

    # ------------------------------------------------------------------ the game's own units
    def turns_begun(self, state: State) -> tuple[int, ...]:
        """A turn is one card with its elements (and, in the areas goal, the choice of an area first); turns
        go round from seat 1, so a turn waiting for its card (or its area) has begun."""
        begun = state.cards_drawn + (1 if state.phase in (CHOOSE, DRAW) else 0)
        return turns_in_rotation(begun, state.config.players)

    def decision_kind(self, state: State, player: int) -> str:
        return {CHOOSE: "area", CLAIM: "claim"}.get(state.phase, "element")

    def score_unit(self, config: Config) -> str | None:
        return SCORE_UNITS[setup_for(config).rules.goal]

    # ------------------------------------------------------------------ testing
    def sample_configs(self) -> list[tuple[dict[str, object], int]]:
        """Every variant and player count, a custom variant and a deck file; the larger player counts
        use smaller templates so the conformance suite stays quick."""
        return [
            ({"variant": "1"}, 2),
            ({"variant": "1", "difficulty": "hard", "template": SMALL_LINES}, 3),
            ({"variant": "1", "template": SMALL_LINES}, 4),
            ({"variant": "2"}, 2),
            ({"variant": "2", "template": SMALL_AREAS, "deck": DECK_SAMPLE}, 3),
            ({"variant": "2", "template": SMALL_AREAS}, 4),
            ({"variant": "3"}, 2),
            ({"variant": "4"}, 2),
            ({"variant": "custom", "variant_file": CUSTOM_SAMPLE}, 2),
        ]


SMALL_LINES = "\n".join(" ".join("#" if (x, y) in ((2, 2), (7, 6)) else "." for x in range(9)) for y in range(9))
SMALL_AREAS = """\
A A A B B B
A A # B B B
C C C D D D
C C C D # D
"""

CUSTOM_SAMPLE = """\
name = "Short lines, hard"
template = "blank"
players = [2, 3]
[goal]
type = "lines"
length = 5
target = 3
difficulty = "hard"
"""

DECK_SAMPLE = """\
{"cards": ["#x1:-:f", "##x2:TB:r", {"shape": "##/#.", "count": 1, "arrows": "LR", "rotate": true, "copies": 2}]}
"""


def _explain(setup: Setup, state: State, action: Place, player: int) -> None:
    """Raise IllegalActionError with the reason a placement is refused, or return if it is legal."""
    card = Card.from_id(state.card)
    orients = setup.rotation(card)
    if action.shape not in orients:
        if 0 <= action.shape < len(SHAPES) and setup.rules.rotation_allowed(card.rotate):
            raise IllegalActionError("the element must have the card's shape, turned or not", "formfinity.wrong_shape")
        raise IllegalActionError(
            "the element must be drawn as on the card: this card does not allow rotation", "formfinity.drawn_as_card"
        )
    if not setup.on_board(action.shape, action.x, action.y):
        raise IllegalActionError("the element would leave the template", "formfinity.leaves_template")
    mask = setup.place_mask(action.shape, action.x, action.y)
    blocked, allowed, touch = _flow.constraints(setup, state, player)
    if mask & setup.wall:
        raise IllegalActionError(
            "the element would cover a black square or leave the template", "formfinity.covers_black"
        )
    if mask & state.drawn:
        raise IllegalActionError("the element would cover squares that are already drawn", "formfinity.covers_drawn")
    goal = setup.rules.goal
    if mask & ~allowed:
        if goal == "areas":
            raise IllegalActionError(
                f"the element must lie wholly inside area {setup.area_names[state.area]}",
                "formfinity.outside_area",
                {"area_names": setup.area_names[state.area]},
            )
        if goal == "numbers":
            k = len(state.numbers)
            raise IllegalActionError(
                f"the element would cover a number out of turn: number {k + 1} is next",
                "formfinity.number_out_of_turn",
                {"number": k + 1},
            )
        if goal == "connection":
            if setup.rules.corner_touch:
                raise IllegalActionError(
                    f"the element would touch {player_name(1 - player)}'s drawing",
                    "formfinity.touch_drawing",
                    {"player": 2 - player},
                )
            raise IllegalActionError(
                f"the element would touch {player_name(1 - player)}'s drawing, even if only at a corner",
                "formfinity.touch_drawing_corner",
                {"player": 2 - player},
            )
        raise IllegalActionError("the element cannot go there", "formfinity.cannot_go")
    if touch is not None and not mask & touch:
        if goal == "connection":
            raise IllegalActionError(
                "the element must touch your own drawing along the edge of a square", "formfinity.touch_own"
            )
        raise IllegalActionError(
            "the element must touch a drawn element along the edge of a square", "formfinity.touch_drawn"
        )
    edges = setup.edges(card)
    if edges:
        from ._board import slide_anchors

        bit = 1 << (action.y * setup.S + action.x)
        if not slide_anchors(setup, action.shape, edges, blocked, None) & bit:
            sides = [("top", "right", "bottom", "left")[k] for k in range(4) if edges >> k & 1]
            where = " or ".join(sides)
            raise IllegalActionError(
                f"with this card the element enters from the {where} and slides until it stops; "
                f"it cannot come to rest at {cell_name(action.x, action.y)}",
                "formfinity.slides_elsewhere",
                {"where": joined(sides, "or"), "cell_name": cell_name(action.x, action.y)},
            )
    if goal == "connection":
        raise IllegalActionError(
            f"the element would leave {player_name(1 - player)} no way to their goal: one must always stay open",
            "formfinity.blocks_goal",
            {"player": 1 - player + 1},
        )


def setup_of(game: Game[Any, Any], state_or_config: State | Config) -> Setup:
    """The setup a FORMFINITY game object plays a state on (with its kernel): what the players search with."""
    if not isinstance(game, FormfinityGame):
        raise TypeError(f"not a FORMFINITY game object: {game!r}")
    return game.setup(state_or_config)
