"""The Forma game object: the protocol hooks over the bitboard rules of :mod:`._rules`."""

from __future__ import annotations

from bisect import bisect_left
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
    player_name,
    seed_state,
)
from polytable.geometry import lowest

from . import _pieces as P
from ._kernel import CompiledForma, FormaKernel
from ._notation import NUM_IDS, FormaAction, action_from_id, action_id, format_action, orient_text, parse_action
from ._render import render
from ._rules import avail_orients, neighbours
from ._said import narrate, outcome
from ._serial import cell_names, state_from_dict, state_to_dict, view
from ._setup import chance_outcomes, setup_apply, setup_check, setup_count, setup_legal
from ._state import Fill, FormaState, Obstacle, Pick, Place, Tower, cell_name, parse_setup, random_setup

__all__ = ["Forma", "FormaAction", "kernel_of"]


class Forma(Game[FormaState, FormaAction]):
    """Forma (Ravensburger 1973): place polyominoes on free cells; enclose cells, obstacles and the tower;
    build bridges from side to side. See the package docstring for every rule and choice."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="forma",
        name="Forma",
        min_players=2,
        max_players=4,
        default_players=4,
        rules_version="2",
        options=(
            Option("size", "int", 19, "board size: 19 (the rulebook) or 20 (other editions)", min=19, max=20),
            Option("obstacles", "int", 10, "how many grey obstacles are placed (0-25)", min=0, max=25),
            Option(
                "placement",
                "choice",
                "players",
                "who places the obstacles and the tower: the starting player before the first move (players),"
                " or chance from the seed (random)",
                choices=("players", "random"),
            ),
            Option(
                "setup",
                "text",
                "",
                "explicit obstacles and tower, e.g. 'tower j10; obstacles c3 e5' (replaces the placement)",
            ),
            Option(
                "touch_move",
                "bool",
                True,
                "touch-move (the rulebook): pick a piece first; if it cannot be placed it leaves the game and you"
                " pick once more; off: a house rule where a move just places a piece",
            ),
        ),
        chance=True,  # only the set-up's random fill (placement=players, after 'fill'); play has none
        summary="Place pieces on a 19x19 board; enclose cells, obstacles and the tower; build bridges.",
    )

    compiled_kernel: ClassVar[str | None] = "polytable.games.forma._cforma"
    kernel: FormaKernel
    """The rules kernel this game object runs (see :mod:`._kernel`)."""

    def _use_kernel(self, ext: Any) -> None:
        self.kernel = FormaKernel() if ext is None else CompiledForma(ext)

    # ------------------------------------------------------------------ set-up
    def _new(self, config: Config, seed: int) -> FormaState:
        size = config.int("size")
        setup = config.str("setup")
        placing, rng = 0, 0
        if setup.strip():
            tower_xy, obstacle_xy = parse_setup(setup, size)
        elif config.str("placement") == "random":
            tower_xy, obstacle_xy = random_setup(size, config.int("obstacles"), seed_state(seed))
        else:  # the starting player places them (see ._setup); a random fill draws from stream 1
            tower_xy, obstacle_xy = None, []
            placing, rng = config.int("obstacles") + 1, seed_state(seed, 1)
        tb = self.kernel.tables(size)
        st = tb.stride
        tower = 1 << (tower_xy[1] * st + tower_xy[0]) if tower_xy else 0
        obstacles = 0
        for x, y in obstacle_xy:
            obstacles |= 1 << (y * st + x)
        n = config.players
        counts = tuple(c * (2 if n == 2 else 1) for c in P.START_COUNTS)
        return FormaState(
            config=config,
            size=size,
            obstacles=obstacles,
            tower=tower,
            pieces=(0,) * n,
            markers=(0,) * n,
            filled=obstacles | tower,
            stock=(counts,) * n,
            scores=(0,) * n,
            bridges=(0,) * n,
            closed=0,
            watch=neighbours(tb, obstacles | tower) if not placing else 0,
            turn=0,
            picked=-1,
            misses=0,
            moves=0,
            last=0,
            exact=True,
            orients=(tuple(range(P.NUM_ORIENTS)),) * n,
            placing=placing,
            rng=rng,
        )

    # ------------------------------------------------------------------ whose move
    def current_player(self, state: FormaState) -> int:
        return state.turn

    def _pick_phase(self, state: FormaState) -> bool:
        return state.picked < 0 and state.config.bool("touch_move")

    # ------------------------------------------------------------------ chance (the set-up's random fill)
    def chance_outcome(self, state: FormaState) -> FormaAction:
        if state.turn != CHANCE:
            raise IllegalActionError("this is not a chance node", "action.not_chance")
        return self.kernel.chance_outcome(state)

    def chance_outcomes(self, state: FormaState) -> list[tuple[FormaAction, float]]:
        return list(chance_outcomes(state))

    def determinize(self, state: FormaState, player: int, rng: Rng) -> FormaState:
        # Nothing is hidden; only a random fill still to come is unknown: reseed its generator.
        return state._replace(rng=rng.u64()) if state.placing else state

    # ------------------------------------------------------------------ legal actions
    def _legal(self, state: FormaState, player: int) -> Iterator[FormaAction]:
        if player != state.turn:
            return
        if state.placing:
            yield from setup_legal(state, player)
            return
        stock = state.stock[player]
        if self._pick_phase(state):
            for p in range(P.NUM_PIECES):
                if stock[p]:
                    yield Pick(p)
            return
        tb = self.kernel.tables(state.size)
        st, top = tb.stride, state.size - 1
        table = tb.table(tb.board & ~state.filled)
        pieces = range(P.NUM_PIECES) if state.picked < 0 else (state.picked,)
        for p in pieces:
            if not stock[p]:
                continue
            for g in P.PIECE_ORIENTS[p]:
                k, ref = P.ORIENT_K[g], P.ORIENT_REF[g]
                b = table[g]
                while b:
                    # one step per legal action: an inline loop (geometry.bits, a nested generator, is slower here)
                    low = b & -b
                    y, x = divmod(low.bit_length() - 1, st)
                    yield Place(p, k, x + ref, top - y)
                    b ^= low

    def _count(self, state: FormaState, player: int) -> int:
        if player != state.turn:
            return 0
        if state.placing:
            return setup_count(state, player)
        stock = state.stock[player]
        if self._pick_phase(state):
            return sum(1 for c in stock if c)
        tb = self.kernel.tables(state.size)
        return self.kernel.count_moves(tb, stock, tb.board & ~state.filled, state.picked)

    def _any(self, state: FormaState, player: int) -> bool:
        if player != state.turn:
            return False
        if state.placing:
            return True
        if self._pick_phase(state):
            return any(state.stock[player])
        tb = self.kernel.tables(state.size)
        free = tb.board & ~state.filled
        if state.picked >= 0:
            return self.kernel.piece_fits(tb, state.picked, free)
        return self.kernel.can_place(tb, state.stock[player], state.orients[player], free)

    def _sample(self, state: FormaState, player: int, rng: Rng) -> FormaAction:
        return self._draw(state, player, rng)[0]

    def sample_and_apply(self, state: FormaState, player: int, rng: Rng) -> tuple[FormaAction, FormaState]:
        """``sample`` then ``apply`` without the check: the drawn action is legal by construction and a
        placement's cells are known. Holds no state on the (shared) game object."""
        action, mask = self._draw(state, player, rng)
        if state.placing:
            assert isinstance(action, (Obstacle, Tower, Fill))
            return action, setup_apply(state, action, player)
        if isinstance(action, Pick):
            return action, self._apply_pick(state, action.piece, player)
        assert isinstance(action, Place)
        return action, self._place(state, action, player, mask)

    def _draw(self, state: FormaState, player: int, rng: Rng) -> tuple[FormaAction, int]:
        """A uniformly random legal action and the cells it covers (0 for anything but a placement)."""
        if player != state.turn:
            raise IllegalActionError(
                f"it is not {player_name(player)}'s turn", "forma.not_your_turn", {"player": player + 1}
            )
        if state.placing:
            return self.kernel.setup_sample(state, player, rng), 0
        stock = state.stock[player]
        if state.picked < 0 and state.config["touch_move"]:
            avail = [p for p in range(P.NUM_PIECES) if stock[p]]
            return Pick(avail[rng.below(len(avail))]), 0
        tb = self.kernel.tables(state.size)
        try:
            g, mask = self.kernel.sample_move(
                tb, stock, state.orients[player], tb.board & ~state.filled, rng, state.picked
            )
        except ValueError:
            raise IllegalActionError(
                f"{player_name(player)} has no legal action", "no_action", {"player": player + 1}
            ) from None
        # The lowest bit of a placement is its reference cell (first cell of the top row).
        y, x = divmod(lowest(mask), tb.stride)
        return Place(P.ORIENT_PIECE[g], P.ORIENT_K[g], x, state.size - 1 - y), mask

    # ------------------------------------------------------------------ checking and applying
    def _check(self, state: FormaState, action: FormaAction, player: int) -> None:
        if type(action) is Place:  # fast path for the common, legal case; errors are explained below
            p, k, col, row = action
            n = state.size
            if (
                type(p) is int
                and type(k) is int
                and type(col) is int
                and type(row) is int
                and 0 <= p < P.NUM_PIECES
                and 0 <= k < 8
                and state.stock[player][p]
                and state.picked == (p if state.config["touch_move"] else -1)
                and not state.placing
            ):
                g = P.ORIENT_GK[p * 8 + k]
                x, y = col - P.ORIENT_REF[g], n - 1 - row
                if x >= 0 and x + P.ORIENT_W[g] <= n and y >= 0 and y + P.ORIENT_H[g] <= n:
                    tb = self.kernel.tables(n)
                    if not (tb.masks[g] << (y * tb.stride + x)) & state.filled:
                        return
        self._explain(state, action, player)

    def _explain(self, state: FormaState, action: FormaAction, player: int) -> None:
        """The slow path of ``_check``: say exactly what is wrong."""
        if state.placing:
            setup_check(state, action, player)
            return
        if isinstance(action, (Obstacle, Tower, Fill)):
            raise IllegalActionError(
                "the set-up is over: the obstacles and the tower are placed before the first move", "forma.setup_over"
            )
        touch = state.config.bool("touch_move")
        stock = state.stock[player]
        if isinstance(action, Pick):
            p = action.piece
            if not touch:
                raise IllegalActionError(
                    "picking a piece first is part of the touch-move option only; place a piece",
                    "forma.pick_without_touch_move",
                )
            if state.picked >= 0:
                raise IllegalActionError(
                    f"you already hold {P.PIECE_NAMES[state.picked]}: place it",
                    "forma.already_holding",
                    {"piece_names": P.PIECE_NAMES[state.picked]},
                )
            if not _is_int(p) or not 0 <= p < P.NUM_PIECES:
                raise IllegalActionError(
                    f"there is no piece number {p!r}", "forma.no_piece_number", {"number": f"{p!r}"}
                )
            if not stock[p]:
                raise IllegalActionError(
                    f"you have no {P.PIECE_NAMES[p]} left", "forma.piece_none_left", {"piece_names": P.PIECE_NAMES[p]}
                )
            return
        if not isinstance(action, Place) or not all(_is_int(v) for v in action):
            raise IllegalActionError(f"{action!r} is not a Forma move", "forma.not_a_move", {"action": f"{action!r}"})
        p, k, col, row = action
        n = state.size
        if not 0 <= p < P.NUM_PIECES:
            raise IllegalActionError(f"there is no piece number {p}", "forma.no_piece_number", {"number": p})
        name = P.PIECE_NAMES[p]
        if not 0 <= k < 8:
            raise IllegalActionError(
                "an orientation is r0-r3, optionally followed by f (flipped)", "forma.orientation_format"
            )
        if not (0 <= col < n and 0 <= row < n):
            raise IllegalActionError(
                f"the reference cell is off the {n}x{n} board", "forma.reference_off_board", {"size": n}
            )
        if not stock[p]:
            raise IllegalActionError(f"you have no {name} left", "forma.none_left", {"name": name})
        if touch:
            if state.picked < 0:
                raise IllegalActionError(
                    "with touch-move, first pick the piece you will place (e.g. 'pick F5')", "forma.pick_first"
                )
            if state.picked != p:
                raise IllegalActionError(
                    f"you picked {P.PIECE_NAMES[state.picked]}: that is the piece to place",
                    "forma.place_picked",
                    {"piece_names": P.PIECE_NAMES[state.picked]},
                )
        g = P.ORIENT_GK[p * 8 + k]
        x, y = col - P.ORIENT_REF[g], n - 1 - row
        w, h = P.ORIENT_W[g], P.ORIENT_H[g]
        at = f"{name} {orient_text(k)} @ {cell_name(col, row)}"
        if x < 0 or x + w > n or y < 0 or y + h > n:
            raise IllegalActionError(
                f"{at} would stick out over the edge of the board", "forma.would_stick_out", {"at": at}
            )
        tb = self.kernel.tables(n)
        mask = tb.masks[g] << (y * tb.stride + x)
        clash = mask & state.filled
        if clash:
            what = cell_names(tb, clash, n)
            if len(what) == 1:
                raise IllegalActionError(
                    f"{at} would cover {what[0]}, which is not free", "forma.would_cover", {"at": at, "what": what[0]}
                )
            raise IllegalActionError(
                f"{at} would cover {', '.join(what)}, which are not free",
                "forma.would_cover_cells",
                {"at": at, "what": ", ".join(what)},
            )

    def _apply(self, state: FormaState, action: FormaAction, player: int) -> FormaState:
        if state.placing:
            assert isinstance(action, (Obstacle, Tower, Fill))
            return setup_apply(state, action, player)
        if isinstance(action, Pick):
            return self._apply_pick(state, action.piece, player)
        assert isinstance(action, Place)
        p, k, col, row = action
        n = state.size
        tb = self.kernel.tables(n)
        g = P.ORIENT_GK[p * 8 + k]
        return self._place(state, action, player, tb.masks[g] << ((n - 1 - row) * tb.stride + col - P.ORIENT_REF[g]))

    def _place(self, state: FormaState, action: Place, player: int, mask: int) -> FormaState:
        """The state after ``player`` places ``action``, which covers the cells ``mask`` (legal)."""
        p = action.piece
        n = state.size
        tb = self.kernel.tables(n)
        eff = self.kernel.place_effect(tb, state, player, mask, P.PIECE_SIZES[p])
        nxt = player + 1
        pieces = state.pieces
        pieces = (*pieces[:player], pieces[player] | mask, *pieces[nxt:])
        markers = state.markers
        if eff.enc:
            markers = (*markers[:player], markers[player] | eff.enc, *markers[nxt:])
        stocks = state.stock
        mine = stocks[player]
        stocks = (*stocks[:player], (*mine[:p], mine[p] - 1, *mine[p + 1 :]), *stocks[nxt:])
        orients = state.orients
        if mine[p] == 1:  # the last one of this piece: drop its orientations (a contiguous run, found by bisection)
            mo = orients[player]
            lo = bisect_left(mo, P.PIECE_ORIENTS[p][0])
            mo = mo[:lo] + mo[lo + len(P.PIECE_ORIENTS[p]) :]
            orients = (*orients[:player], mo, *orients[nxt:])
        scores = state.scores
        scores = (*scores[:player], scores[player] + eff.points, *scores[nxt:])
        bridges = state.bridges
        if eff.bridges != bridges[player]:
            bridges = (*bridges[:player], eff.bridges, *bridges[nxt:])
        closed, watch = state.closed, state.watch
        if eff.closed:
            closed |= eff.closed
            watch = neighbours(tb, (state.obstacles | state.tower) & ~closed)
        return FormaState(
            state.config,
            n,
            state.obstacles,
            state.tower,
            pieces,
            markers,
            eff.filled,
            stocks,
            scores,
            bridges,
            closed,
            watch,
            self.kernel.next_turn(tb, stocks, orients, tb.board & ~eff.filled, player),
            -1,
            0,
            state.moves + 1,
            mask,
            state.exact and eff.exact,
            orients,
        )

    def _apply_pick(self, state: FormaState, piece: int, player: int) -> FormaState:
        tb = self.kernel.tables(state.size)
        free = tb.board & ~state.filled
        orients = state.orients
        # the kernel's can_place of a one-piece stock: the compiled one stops at the first fit
        if self.kernel.piece_fits(tb, piece, free):
            turn, picked, misses, stocks = player, piece, 0, state.stock
        else:
            stocks_l = list(state.stock)
            mine = list(stocks_l[player])
            mine[piece] -= 1
            stocks_l[player] = tuple(mine)
            stocks = tuple(stocks_l)
            if not mine[piece]:
                ol = list(orients)
                ol[player] = avail_orients(stocks[player])
                orients = tuple(ol)
            picked = -1
            if state.misses == 0 and self.kernel.can_place(tb, stocks[player], orients[player], free):
                turn, misses = player, 1
            else:
                turn, misses = self.kernel.next_turn(tb, stocks, orients, free, player), 0
        return FormaState(
            state.config,
            state.size,
            state.obstacles,
            state.tower,
            state.pieces,
            state.markers,
            state.filled,
            stocks,
            state.scores,
            state.bridges,
            state.closed,
            state.watch,
            turn,
            picked,
            misses,
            state.moves + 1,
            state.last,
            state.exact,
            orients,
        )

    # ------------------------------------------------------------------ random playouts
    def playout(self, state: FormaState, rngs: Sequence[Rng], max_actions: int | None = None) -> tuple[FormaState, int]:
        """The protocol's random playout: in the compiled kernel when it is built (same draws, same states:
        the set-up, touch-move picks and placements), else step by step."""
        return self.kernel.playout(state, rngs, max_actions) or super().playout(state, rngs, max_actions)

    # ------------------------------------------------------------------ the game's own units
    def turns_begun(self, state: FormaState) -> tuple[int, ...]:
        """A turn uses one piece (placed, or lost when it did not fit; a turn whose first pick did not fit
        uses two and counts twice): the pieces gone from a hand, and the turn in progress of the player to
        act. Placing the obstacles and the tower is the set-up, before the first turn."""
        n = state.config.players
        full = sum(P.START_COUNTS) * (2 if n == 2 else 1)
        used = [full - sum(stock) for stock in state.stock]
        if state.placing == 0 and 0 <= state.turn < n and state.misses == 0:
            used[state.turn] += 1
        return tuple(used)

    def decision_kind(self, state: FormaState, player: int) -> str:
        if state.placing:
            return "set-up"
        return "pick" if self._pick_phase(state) else "place"

    # ------------------------------------------------------------------ results
    def scores(self, state: FormaState) -> tuple[float, ...]:
        return tuple(float(s) for s in state.scores)

    def winners(self, state: FormaState) -> tuple[int, ...]:
        if state.turn != TERMINAL:
            return ()
        best = max(state.scores)
        return tuple(i for i, s in enumerate(state.scores) if s == best)

    def outcome(self, state: FormaState) -> dict[str, object]:
        return outcome(state)

    def narrate(self, action: FormaAction, state: FormaState, after: FormaState, player: int) -> dict[str, object]:
        return narrate(action, state, after, player)

    # ------------------------------------------------------------------ notation and ids (see _notation)
    def format_action(self, action: FormaAction, state: FormaState | None = None) -> str:
        return format_action(action)

    def parse_action(self, text: str, state: FormaState | None = None) -> FormaAction:
        return parse_action(text, state.size if state is not None else 20)

    def num_distinct_actions(self, config: Config) -> int:
        return NUM_IDS

    def action_id(self, action: FormaAction, state: FormaState | None = None) -> int:
        return action_id(action)

    def action_from_id(self, action_id: int, state: FormaState) -> FormaAction:
        return action_from_id(action_id)

    # ------------------------------------------------------------------ serialisation and views
    def state_to_dict(self, state: FormaState) -> dict[str, Any]:
        return state_to_dict(state)

    def state_from_dict(self, data: Mapping[str, Any]) -> FormaState:
        return state_from_dict(self.spec.config, data)

    def view(self, state: FormaState, player: int | None) -> dict[str, Any]:
        return view(state, player)

    def render(self, state: FormaState, player: int | None = None, color: bool = False) -> str:
        return render(state, color)

    def check_undo(self, state: FormaState, action: FormaAction, player: int) -> None:
        """Touch-move binds: a piece once picked up must be placed, so the pick is never taken back (taking
        back the placement after it leaves the piece in the player's hand). The house rule has no picks."""
        if isinstance(action, Pick):
            raise IllegalActionError(
                "touch-move: a piece once picked up must be placed, so the pick cannot be taken back",
                "forma.pick_binding",
            )

    def describe_action(self, action: FormaAction, state: FormaState) -> str:
        if isinstance(action, Pick):
            name = P.PIECE_NAMES[action.piece]
            if self.kernel.piece_fits(
                self.kernel.tables(state.size), action.piece, self.kernel.tables(state.size).board & ~state.filled
            ):
                return f"picks up {name}"
            again = " and picks once more" if state.misses == 0 and self._fits_other(state, action.piece) else ""
            return f"picks up {name}, which fits nowhere: it leaves the game{again or ' and the turn passes'}"
        if isinstance(action, Obstacle):
            return f"places a grey obstacle on {cell_name(action.col, action.row)}"
        if isinstance(action, Tower):
            return f"places the white tower on {cell_name(action.col, action.row)}"
        if isinstance(action, Fill):
            return "leaves the rest of the set-up to chance"
        p, k, col, row = action
        return (
            f"places {P.PIECE_NAMES[p]} ({P.PIECE_SIZES[p]} cells) turned {k % 4} quarter turns clockwise"
            f"{' and flipped' if k >= 4 else ''}, top-left cell at {cell_name(col, row)}"
        )

    def _fits_other(self, state: FormaState, piece: int) -> bool:
        """Whether the player to move could place some piece other than one copy of ``piece``."""
        tb = self.kernel.tables(state.size)
        mine = list(state.stock[state.turn])
        mine[piece] -= 1
        return self.kernel.can_place(tb, tuple(mine), avail_orients(tuple(mine)), tb.board & ~state.filled)

    # ------------------------------------------------------------------ testing
    def sample_configs(self) -> list[tuple[dict[str, object], int]]:
        return [
            ({}, 2),
            ({}, 3),
            ({}, 4),
            ({"placement": "random"}, 4),
            ({"touch_move": False, "placement": "random"}, 4),
            ({"touch_move": False}, 2),
            ({"size": 20, "obstacles": 25}, 3),
            ({"size": 20, "obstacles": 25, "placement": "random"}, 2),
            ({"obstacles": 0}, 4),
            ({"setup": "tower j10; obstacles c3 e5 g7 p16 q3"}, 2),
        ]


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def kernel_of(game: Game[Any, Any]) -> FormaKernel:
    """The kernel a Forma game object runs: the AI asks it for the values of its inner loop."""
    if not isinstance(game, Forma):
        raise TypeError(f"not a Forma game object: {game!r}")
    return game.kernel
