"""Qwirkle Cubes as a :class:`polytable.core.Game`: the turn sequence, chance nodes and the protocol."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from itertools import product
from math import comb
from typing import Any, ClassVar

from ...core import (
    CHANCE,
    TERMINAL,
    Config,
    Game,
    GameSpec,
    IllegalActionError,
    Rng,
    StateFormatError,
    below,
    next_u64,
    player_name,
    require,
    seed_state,
    turns_in_rotation,
)
from ._actions import (
    NUM_ACTIONS,
    Action,
    Draw,
    Pass,
    Place,
    Reroll,
    Roll,
    action_id,
    decode_id,
    format_action,
    parse_text,
)
from ._board import Board
from ._check import largest_line, placement_error
from ._kernel import CompiledQwirkle, QwirkleKernel
from ._render import describe, render, view
from ._said import narrate, outcome
from ._state import (
    CHANCE_PHASES,
    DRAW,
    DRAW_ROLL,
    END,
    PASS,
    PLACE,
    REROLL,
    ROLL,
    SETUP_DRAW,
    SETUP_ROLL,
    QState,
    evolve,
    state_from_dict,
    state_to_dict,
)
from ._tiles import COLOURS, CUBES_PER_COLOUR, HAND_SIZE, LINE_MAX, face_text

__all__ = ["QwirkleCubes", "colour_mask", "hand_mask", "kernel_of"]

QWIRKLE = LINE_MAX


def hand_mask(hand: tuple[int, ...]) -> int:
    """The distinct faces of a hand as a 36-bit mask."""
    m = 0
    for t in hand:
        m |= 1 << t
    return m


def colour_mask(hand: tuple[int, ...]) -> int:
    """Every face of every colour in the hand: what the hand could show after any roll."""
    m = 0
    for t in hand:
        m |= 0x3F << (6 * (t // 6))
    return m


def _groups(hand: tuple[int, ...]) -> list[tuple[int, int]]:
    """(first slot, size) of each run of identical faces in a sorted hand."""
    out: list[tuple[int, int]] = []
    i = 0
    while i < len(hand):
        j = i
        while j + 1 < len(hand) and hand[j + 1] == hand[i]:
            j += 1
        out.append((i, j - i + 1))
        i = j + 1
    return out


def canonical_mask(hand: tuple[int, ...], mask: int) -> int:
    """Rerolling one of two identical cubes is the same choice whichever is named: the canonical mask
    names the leftmost ones of each group of identical faces."""
    out = 0
    for first, size in _groups(hand):
        k = sum(mask >> i & 1 for i in range(first, first + size))
        out |= ((1 << k) - 1) << first
    return out


def _first_need(board: Board, hand: tuple[int, ...]) -> int:
    return largest_line(hand_mask(hand)) if not board.cells else 0


def reroll_masks(hand: tuple[int, ...]) -> list[int]:
    """Every distinct reroll of a sorted hand as a mask of positions, in id order: of identical cubes the
    leftmost are named, so rerolling one of two identical cubes is one choice."""
    masks = [0]
    for first, size in _groups(hand):
        masks = [m | (((1 << k) - 1) << first) for m in masks for k in range(size + 1)]
    return sorted(masks)


class QwirkleCubes(Game[QState, Action]):
    """Qwirkle Cubes: see the package docstring for the rules as implemented."""

    spec = GameSpec(
        id="qwirkle-cubes",
        name="Qwirkle Cubes",
        min_players=2,
        max_players=4,
        default_players=2,
        rules_version="1",
        options=(),
        chance=True,
        hidden_information=True,
        summary="Roll cubes, make lines of one colour or one shape; six in a line is a Qwirkle.",
        rules_page="qwirkle",
    )

    compiled_kernel: ClassVar[str | None] = "polytable.games.qwirkle_cubes._cqwirkle"
    kernel: QwirkleKernel
    """The rules kernel this game object runs (see :mod:`._kernel`)."""

    def _use_kernel(self, ext: Any) -> None:
        self.kernel = QwirkleKernel() if ext is None else CompiledQwirkle(ext)

    # ------------------------------------------------------------------ set-up and flow
    def _new(self, config: Config, seed: int) -> QState:
        n = config.players
        return QState(
            config=config,
            rng=seed_state(seed),
            phase=SETUP_DRAW,
            player=0,
            hands=((),) * n,
            bag=(CUBES_PER_COLOUR,) * COLOURS,
            points=(0,) * n,
            placed=(),
        )

    def current_player(self, state: QState) -> int:
        if state.phase in CHANCE_PHASES:
            return CHANCE
        if state.phase == END:
            return TERMINAL
        return state.player

    def _begin(self, s: QState, p: int, **changes: Any) -> QState:
        """Player ``p``'s turn starts: they choose a reroll, or must pass if no roll could ever help."""
        s = evolve(s, player=p, rolling=0, forced=0, turn=s.turn + 1, **changes)
        hopeless = bool(s.board.cells) and not s.board.placeable() & colour_mask(s.hands[p])
        return evolve(s, phase=PASS if hopeless else REROLL)

    def _to_place(self, s: QState) -> QState:
        """After the rolls: place, or (forced) reroll every cube when nothing fits (on the first turn: when
        no line of two fits)."""
        hand = s.hands[s.player]
        if s.board.cells:
            ok = bool(s.board.placeable() & hand_mask(hand))
        else:
            ok = largest_line(hand_mask(hand)) >= 2
        if ok:
            return evolve(s, phase=PLACE, rolling=0)
        return evolve(s, phase=ROLL, rolling=(1 << len(hand)) - 1, forced=s.forced + 1)

    # ------------------------------------------------------------------ chance
    def _draw_count(self, s: QState) -> int:
        return min(HAND_SIZE - len(s.hands[s.player]), s.bag_size)

    def chance_outcome(self, state: QState) -> Action:
        if state.phase not in CHANCE_PHASES:
            raise IllegalActionError("this is not a chance event", "qwirkle.not_chance")
        sub, _ = next_u64(state.rng)
        if state.phase in (SETUP_DRAW, DRAW):
            bag = list(state.bag)
            total = sum(bag)
            out = []
            for _ in range(self._draw_count(state)):
                r, sub = below(sub, total)
                c = 0
                while r >= bag[c]:
                    r -= bag[c]
                    c += 1
                bag[c] -= 1
                total -= 1
                out.append(c)
            return Draw(tuple(sorted(out)))
        n = state.rolling.bit_count()
        r, _ = below(sub, 6**n)
        shapes = []
        for _ in range(n):
            r, d = divmod(r, 6)
            shapes.append(d)
        return Roll(tuple(shapes))

    def chance_outcomes(self, state: QState) -> list[tuple[Action, float]]:
        if state.phase in (SETUP_DRAW, DRAW):
            n = self._draw_count(state)
            total = comb(state.bag_size, n)
            out: list[tuple[Action, float]] = []
            for colours in self._draws(state.bag, n):
                ways = 1
                for c in range(COLOURS):
                    ways *= comb(state.bag[c], colours.count(c))
                out.append((Draw(colours), ways / total))
            return out
        n = state.rolling.bit_count()
        return [(Roll(shapes), 1.0 / 6**n) for shapes in product(range(6), repeat=n)]

    @staticmethod
    def _draws(bag: tuple[int, ...], n: int, lo: int = 0) -> Iterator[tuple[int, ...]]:
        """Every sorted tuple of ``n`` colours the bag can give."""
        if n == 0:
            yield ()
            return
        for c in range(lo, COLOURS):
            if bag[c]:
                rest = (*bag[:c], bag[c] - 1, *bag[c + 1 :])
                for tail in QwirkleCubes._draws(rest, n - 1, c):
                    yield (c, *tail)

    # ------------------------------------------------------------------ legal actions
    def _legal(self, state: QState, player: int) -> Iterable[Action]:
        phase = state.phase
        if player == CHANCE:
            if phase in (SETUP_DRAW, DRAW):
                return (Draw(c) for c in self._draws(state.bag, self._draw_count(state)))
            return (Roll(sh) for sh in product(range(6), repeat=state.rolling.bit_count()))
        if phase == REROLL:
            return (Reroll(m) for m in reroll_masks(state.hand))
        if phase == PLACE:
            hand, need = hand_mask(state.hand), _first_need(state.board, state.hand)
            return (Place(p) for p in self.kernel.placements(state, hand, need))
        return (Pass(),)

    def _count(self, state: QState, player: int) -> int:
        phase = state.phase
        if player == CHANCE:
            if phase in (SETUP_DRAW, DRAW):
                return sum(1 for _ in self._draws(state.bag, self._draw_count(state)))
            return int(6 ** state.rolling.bit_count())
        if phase == REROLL:
            n = 1
            for _, size in _groups(state.hand):
                n *= size + 1
            return n
        if phase == PLACE:
            hand, need = hand_mask(state.hand), _first_need(state.board, state.hand)
            return self.kernel.count(state, hand, need)
        return 1

    def _any(self, state: QState, player: int) -> bool:
        return self._count(state, player) > 0

    def _sample(self, state: QState, player: int, rng: Rng) -> Action:
        phase = state.phase
        if player == CHANCE:
            if phase in (SETUP_DRAW, DRAW):
                options = list(self._draws(state.bag, self._draw_count(state)))
                return Draw(options[rng.below(len(options))])
            return Roll(tuple(rng.below(6) for _ in range(state.rolling.bit_count())))
        if phase == REROLL:
            mask = 0
            for first, size in _groups(state.hand):
                mask |= ((1 << rng.below(size + 1)) - 1) << first
            return Reroll(mask)
        if phase == PLACE:
            hand = hand_mask(state.hand)
            need = _first_need(state.board, state.hand)
            cubes = self.kernel.sample(state, hand, need, rng)
            if cubes is None:
                raise IllegalActionError(
                    f"{player_name(player)} has no legal action", "no_action", {"player": player + 1}
                )
            return Place(cubes)
        return Pass()

    # ------------------------------------------------------------------ checking
    def _check(self, state: QState, action: Action, player: int) -> None:
        phase = state.phase
        if isinstance(action, (Roll, Draw)):
            if player != CHANCE:
                raise IllegalActionError("rolls and draws are chance events, not moves", "qwirkle.chance_only")
            if isinstance(action, Draw):
                if phase not in (SETUP_DRAW, DRAW):
                    raise IllegalActionError("the chance event now is a roll, not a draw", "qwirkle.roll_not_draw")
                if len(action.colours) != self._draw_count(state):
                    raise IllegalActionError(
                        f"the draw takes {self._draw_count(state)} cubes, not {len(action.colours)}",
                        "qwirkle.draw_count",
                        {"need": self._draw_count(state), "colours": len(action.colours)},
                    )
                if list(action.colours) != sorted(action.colours):
                    raise IllegalActionError("a draw lists its colours in order", "qwirkle.draw_order")
                for c in set(action.colours):
                    if action.colours.count(c) > state.bag[c]:
                        raise IllegalActionError(
                            f"the bag holds only {state.bag[c]} cubes of that colour",
                            "qwirkle.bag_short",
                            {"bag": state.bag[c]},
                        )
                return
            if phase in (SETUP_DRAW, DRAW):
                raise IllegalActionError("the chance event now is a draw, not a roll", "qwirkle.draw_not_roll")
            if len(action.shapes) != state.rolling.bit_count():
                raise IllegalActionError(
                    f"{state.rolling.bit_count()} cubes are rolled, not {len(action.shapes)}",
                    "qwirkle.roll_count",
                    {"rolling": state.rolling.bit_count(), "shapes": len(action.shapes)},
                )
            if not all(0 <= s < 6 for s in action.shapes):
                raise IllegalActionError("a cube has 6 shapes", "qwirkle.shape_range")
            return
        if player == CHANCE:
            raise IllegalActionError("the next step is a chance event, not a player's move", "chance")
        if isinstance(action, Reroll):
            if phase != REROLL:
                raise self._wrong_phase(state)
            hand = state.hand
            if action.mask < 0 or action.mask >> len(hand):
                raise IllegalActionError(
                    f"your hand has {len(hand)} cubes: reroll positions 1 to {len(hand)}",
                    "qwirkle.reroll_range",
                    {"hand": len(hand)},
                )
            if canonical_mask(hand, action.mask) != action.mask:
                raise IllegalActionError(
                    "you name one of two identical cubes: name the first of them (they are the same cube)",
                    "qwirkle.reroll_identical",
                )
            return
        if isinstance(action, Pass):
            if phase != PASS:
                if phase == REROLL:
                    raise IllegalActionError(
                        "you may pass only when no face of any of your cubes could ever be placed; "
                        "reroll or keep first",
                        "qwirkle.pass_reroll",
                    )
                raise IllegalActionError(
                    "you may pass only when no face of any of your cubes could ever be placed; place at least one cube",
                    "qwirkle.pass_place",
                )
            return
        if not isinstance(action, Place):
            raise IllegalActionError(
                f"{action!r} is not an action of Qwirkle Cubes",
                "qwirkle.not_an_action",
                {"action": f"{action!r}"},
            )
        if phase != PLACE:
            raise self._wrong_phase(state)
        need = _first_need(state.board, state.hand)
        if state.board.is_legal(action.cubes, hand_mask(state.hand), need):
            return
        why = placement_error(state.board, action.cubes, state.hand, need)
        raise why or IllegalActionError("That placement is not legal", "qwirkle.not_legal")

    @staticmethod
    def _wrong_phase(state: QState) -> IllegalActionError:
        if state.phase == PASS:
            return IllegalActionError(
                "no face of any of your cubes could ever be placed: you must pass", "qwirkle.must_pass"
            )
        if state.phase == REROLL:
            return IllegalActionError(
                "first choose which cubes to reroll (like 'reroll 1,4'), or 'keep' them all", "qwirkle.reroll_first"
            )
        return IllegalActionError("you have already chosen your reroll this turn: now place cubes", "qwirkle.place_now")

    # ------------------------------------------------------------------ applying
    def _apply(self, state: QState, action: Action, player: int) -> QState:
        if player == CHANCE:
            _, rng = next_u64(state.rng)
            s = evolve(state, rng=rng)
            hand = s.hands[s.player]
            if isinstance(action, Draw):
                bag = list(s.bag)
                for c in action.colours:
                    bag[c] -= 1
                new_hand = hand + tuple(c * 6 for c in action.colours)
                rolling = ((1 << len(action.colours)) - 1) << len(hand)
                phase = SETUP_ROLL if s.phase == SETUP_DRAW else DRAW_ROLL
                return evolve(
                    s, hands=self._set(s.hands, s.player, new_hand), bag=tuple(bag), rolling=rolling, phase=phase
                )
            assert isinstance(action, Roll)
            faces = list(hand)
            shapes = iter(action.shapes)
            for i in range(len(faces)):
                if s.rolling >> i & 1:
                    faces[i] = faces[i] // 6 * 6 + next(shapes)
            s = evolve(s, hands=self._set(s.hands, s.player, tuple(sorted(faces))), rolling=0)
            n = s.config.players
            if s.phase == SETUP_ROLL:
                if s.player + 1 < n:
                    return evolve(s, phase=SETUP_DRAW, player=s.player + 1)
                return self._begin(s, 0)
            if s.phase == DRAW_ROLL:
                return self._begin(s, (s.player + 1) % n)
            return self._to_place(s)
        if isinstance(action, Reroll):
            if action.mask == 0:
                return self._to_place(state)
            return evolve(state, phase=ROLL, rolling=action.mask)
        if isinstance(action, Pass):
            passes = state.passes + 1
            if passes >= state.config.players:
                return evolve(state, phase=END, passes=passes)
            return self._begin(state, (player + 1) % state.config.players, passes=passes)
        assert isinstance(action, Place)
        board = state.board.with_cubes(action.cubes)
        pts, qwirkles = board.score_placed(action.cubes)
        rest = list(state.hand)
        for t, _ in action.cubes:
            rest.remove(t)
        finished = not rest and state.bag_size == 0
        points = list(state.points)
        points[player] += pts + (QWIRKLE if finished else 0)
        s = evolve(
            state,
            board=board,
            placed=board.order,
            hands=self._set(state.hands, player, tuple(rest)),
            points=tuple(points),
            passes=0,
            last=(player, pts, qwirkles),
        )
        if finished:
            return evolve(s, phase=END, finisher=player)
        if state.bag_size:
            return evolve(s, phase=DRAW)
        return self._begin(s, (player + 1) % s.config.players)

    @staticmethod
    def _set(hands: tuple[tuple[int, ...], ...], p: int, hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
        return (*hands[:p], hand, *hands[p + 1 :])

    def playout(self, state: QState, rngs: Sequence[Rng], max_actions: int | None = None) -> tuple[QState, int]:
        """The protocol's random playout, in the compiled kernel when it is built (same draws, same states)."""
        return self.kernel.playout(state, rngs, max_actions) or super().playout(state, rngs, max_actions)

    # ------------------------------------------------------------------ hidden information
    def determinize(self, state: QState, player: int, rng: Rng) -> QState:
        """Hands and the table are open and the bag's contents follow from them; only the order in which
        the bag gives its cubes (and the rolls to come) is unknown: reseed the generator."""
        return evolve(state, rng=rng.u64())

    # ------------------------------------------------------------------ the game's own units
    def turns_begun(self, state: QState) -> tuple[int, ...]:
        """``turn`` counts the turns begun (rolls, placement or pass), going round from the starting player
        the set-up chose; ``player`` is the one of the latest turn."""
        n = state.config.players
        if state.turn == 0:
            return (0,) * n
        return turns_in_rotation(state.turn, n, (state.player - state.turn + 1) % n)

    def decision_kind(self, state: QState, player: int) -> str:
        return {REROLL: "reroll", PASS: "pass"}.get(state.phase, "place")

    # ------------------------------------------------------------------ results
    def scores(self, state: QState) -> tuple[float, ...]:
        return tuple(float(p) for p in state.points)

    def winners(self, state: QState) -> tuple[int, ...]:
        if state.phase != END:
            return ()
        best = max(state.points)
        return tuple(p for p, v in enumerate(state.points) if v == best)

    def outcome(self, state: QState) -> dict[str, object]:
        return outcome(state)

    def narrate(self, action: Action, state: QState, after: QState, player: int) -> dict[str, object]:
        return narrate(action, state, after, player)

    # ------------------------------------------------------------------ notation and ids
    def format_action(self, action: Action, state: QState | None = None) -> str:
        return format_action(action)

    def parse_action(self, text: str, state: QState | None = None) -> Action:
        action = parse_text(text)
        if isinstance(action, Reroll) and state is not None and state.phase in (REROLL, PLACE, PASS, ROLL):
            hand = state.hands[state.player]
            mask = (1 << len(hand)) - 1 if action.mask == -1 else action.mask
            if mask >> len(hand):
                raise IllegalActionError(
                    f"your hand has {len(hand)} cubes: reroll positions 1 to {len(hand)}",
                    "qwirkle.reroll_range",
                    {"hand": len(hand)},
                )
            return Reroll(canonical_mask(hand, mask))
        if isinstance(action, Reroll) and action.mask == -1:
            raise IllegalActionError(
                "'reroll all' needs the position: name the cubes, like 'reroll 1,2,3'", "qwirkle.reroll_all"
            )
        return action

    def num_distinct_actions(self, config: Config) -> int:
        return NUM_ACTIONS

    def action_id(self, action: Action, state: QState | None = None) -> int:
        return action_id(action)

    def action_from_id(self, action_id: int, state: QState) -> Action:
        return decode_id(action_id, state.board.cells)

    # ------------------------------------------------------------------ serialisation and views
    def state_to_dict(self, state: QState) -> dict[str, Any]:
        return state_to_dict(state)

    def state_from_dict(self, data: Mapping[str, Any]) -> QState:
        raw = require(data, "config")
        if not isinstance(raw, Mapping):
            raise StateFormatError("field 'config' must be an object", "state.field_config_object")
        try:
            config = self.spec.config(require(raw, "options"), require(raw, "players"))
        except ValueError as e:
            raise StateFormatError(f"bad config: {e}", "qwirkle.state_config", {"why": e}) from None
        return state_from_dict(data, config)

    def view(self, state: QState, player: int | None) -> dict[str, Any]:
        return view(self, state, player)

    def render(self, state: QState, player: int | None = None, color: bool = False) -> str:
        return render(self, state, player, color)

    def describe_action(self, action: Action, state: QState) -> str:
        return describe(action, state)

    def sample_configs(self) -> list[tuple[dict[str, object], int]]:
        return [({}, 2), ({}, 3), ({}, 4)]

    @staticmethod
    def face_text(t: int) -> str:
        return face_text(t)


def kernel_of(game: Game[Any, Any]) -> QwirkleKernel:
    """The kernel a Qwirkle Cubes game object runs: the players ask it for their placements' values."""
    if not isinstance(game, QwirkleCubes):
        raise TypeError(f"not a Qwirkle Cubes game object: {game!r}")
    return game.kernel
