"""The Forma game object: the protocol hooks over the bitboard rules of :mod:`._rules`."""

from __future__ import annotations

import functools
import re
from bisect import bisect_left
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, ClassVar

from polytable.core import (
    TERMINAL,
    Config,
    ConfigError,
    Game,
    GameSpec,
    IllegalActionError,
    Option,
    Rng,
    StateFormatError,
    player_name,
    require,
    require_int,
    require_list,
    seed_state,
)

from . import _pieces as P
from ._ai import action_value, evaluate
from ._bridges import bridge_paths
from ._native import EXT, native_playout
from ._render import render
from ._rules import (
    avail_orients,
    can_place,
    count_moves,
    neighbours,
    piece_fits,
    place_effect,
    sample_move,
)
from ._state import (
    FormaState,
    Pick,
    Place,
    cell_name,
    format_setup,
    parse_cell,
    parse_setup,
    random_setup,
)

__all__ = ["Forma", "FormaAction"]

FormaAction = Place | Pick
_PLACE_IDS = P.NUM_ORIENTS * 400
_NUM_IDS = _PLACE_IDS + P.NUM_PIECES
_ACTION = re.compile(
    r"^\s*(?:(?P<pick>pick)\s+(?P<pname>\S+)|(?P<name>[^\s@]+)(?:\s+r(?P<rot>[0-3])(?P<flip>f?))?\s*@\s*(?P<cell>\S+))\s*$",
    re.IGNORECASE,
)


class Forma(Game[FormaState, FormaAction]):
    """Forma (Ravensburger 1973): place polyominoes on free cells; enclose cells, obstacles and the tower;
    build bridges from side to side. See the package docstring for every rule and choice."""

    spec: ClassVar[GameSpec] = GameSpec(
        id="forma",
        name="Forma",
        min_players=2,
        max_players=4,
        default_players=4,
        rules_version="1",
        options=(
            Option("size", "int", 19, "board size: 19 (the rulebook) or 20 (other editions)", min=19, max=20),
            Option("obstacles", "int", 10, "grey obstacles placed at random from the seed (0-25)", min=0, max=25),
            Option(
                "setup",
                "text",
                "",
                "explicit obstacles and tower, e.g. 'tower j10; obstacles c3 e5' (replaces the random set-up)",
            ),
            Option(
                "touch_move",
                "bool",
                False,
                "touch-move: pick a piece first; if it cannot be placed it leaves the game and you pick once more",
            ),
        ),
        summary="Place polyominoes on a 19x19 board; enclose cells, obstacles and the tower; build bridges.",
    )

    # ------------------------------------------------------------------ set-up
    def _new(self, config: Config, seed: int) -> FormaState:
        size = config.int("size")
        setup = config.str("setup")
        if setup.strip():
            tower_xy, obstacle_xy = parse_setup(setup, size)
        else:
            tower_xy, obstacle_xy = random_setup(size, config.int("obstacles"), seed_state(seed))
        tb = P.tables(size)
        st = tb.stride
        tower = 1 << (tower_xy[1] * st + tower_xy[0])
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
            watch=neighbours(tb, obstacles | tower),
            turn=0,
            picked=-1,
            misses=0,
            moves=0,
            last=0,
            exact=True,
            orients=(tuple(range(P.NUM_ORIENTS)),) * n,
        )

    # ------------------------------------------------------------------ whose move
    def current_player(self, state: FormaState) -> int:
        return state.turn

    def _pick_phase(self, state: FormaState) -> bool:
        return state.picked < 0 and state.config.bool("touch_move")

    # ------------------------------------------------------------------ legal actions
    def _legal(self, state: FormaState, player: int) -> Iterator[FormaAction]:
        if player != state.turn:
            return
        stock = state.stock[player]
        if self._pick_phase(state):
            for p in range(P.NUM_PIECES):
                if stock[p]:
                    yield Pick(p)
            return
        tb = P.tables(state.size)
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
                    low = b & -b
                    y, x = divmod(low.bit_length() - 1, st)
                    yield Place(p, k, x + ref, top - y)
                    b ^= low

    def _count(self, state: FormaState, player: int) -> int:
        if player != state.turn:
            return 0
        stock = state.stock[player]
        if self._pick_phase(state):
            return sum(1 for c in stock if c)
        tb = P.tables(state.size)
        return count_moves(tb, stock, tb.board & ~state.filled, state.picked)

    def _any(self, state: FormaState, player: int) -> bool:
        if player != state.turn:
            return False
        if self._pick_phase(state):
            return any(state.stock[player])
        tb = P.tables(state.size)
        free = tb.board & ~state.filled
        if state.picked >= 0:
            return piece_fits(tb, state.picked, free)
        return can_place(tb, state.stock[player], state.orients[player], free)

    def _sample(self, state: FormaState, player: int, rng: Rng) -> FormaAction:
        if player != state.turn:
            raise IllegalActionError(f"it is not {player_name(player)}'s turn")
        stock = state.stock[player]
        if state.picked < 0 and state.config["touch_move"]:
            avail = [p for p in range(P.NUM_PIECES) if stock[p]]
            return Pick(avail[rng.below(len(avail))])
        tb = P.tables(state.size)
        try:
            g, mask = sample_move(tb, stock, state.orients[player], tb.board & ~state.filled, rng, state.picked)
        except ValueError:
            raise IllegalActionError(f"{player_name(player)} has no legal action") from None
        # The lowest bit of a placement is its reference cell (first cell of the top row).
        y, x = divmod((mask & -mask).bit_length() - 1, tb.stride)
        action = Place(P.ORIENT_PIECE[g], P.ORIENT_K[g], x, state.size - 1 - y)
        # Remember the draw: if this very action object is applied to this very state next (a playout's
        # sample-then-apply), it is legal by construction and its mask is known. One tuple assignment,
        # so a reader never sees a half-updated hint; identity tests make it transparent otherwise.
        self._hint = (state, action, mask)
        return action

    # ------------------------------------------------------------------ checking and applying
    _hint: tuple[FormaState | None, object, int] = (None, None, 0)

    def _check(self, state: FormaState, action: FormaAction, player: int) -> None:
        hint = self._hint
        if hint[0] is state and hint[1] is action:
            return
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
            ):
                g = P.ORIENT_GK[p * 8 + k]
                x, y = col - P.ORIENT_REF[g], n - 1 - row
                if x >= 0 and x + P.ORIENT_W[g] <= n and y >= 0 and y + P.ORIENT_H[g] <= n:
                    tb = P.tables(n)
                    if not (tb.masks[g] << (y * tb.stride + x)) & state.filled:
                        return
        self._explain(state, action, player)

    def _explain(self, state: FormaState, action: FormaAction, player: int) -> None:
        """The slow path of ``_check``: say exactly what is wrong."""
        touch = state.config.bool("touch_move")
        stock = state.stock[player]
        if isinstance(action, Pick):
            p = action.piece
            if not touch:
                raise IllegalActionError("picking a piece first is part of the touch-move option only; place a piece")
            if state.picked >= 0:
                raise IllegalActionError(f"you already hold {P.PIECE_NAMES[state.picked]}: place it")
            if not _is_int(p) or not 0 <= p < P.NUM_PIECES:
                raise IllegalActionError(f"there is no piece number {p!r}")
            if not stock[p]:
                raise IllegalActionError(f"you have no {P.PIECE_NAMES[p]} left")
            return
        if not isinstance(action, Place) or not all(_is_int(v) for v in action):
            raise IllegalActionError(f"{action!r} is not a Forma move")
        p, k, col, row = action
        n = state.size
        if not 0 <= p < P.NUM_PIECES:
            raise IllegalActionError(f"there is no piece number {p}")
        name = P.PIECE_NAMES[p]
        if not 0 <= k < 8:
            raise IllegalActionError("an orientation is r0-r3, optionally followed by f (flipped)")
        if not (0 <= col < n and 0 <= row < n):
            raise IllegalActionError(f"the reference cell is off the {n}x{n} board")
        if not stock[p]:
            raise IllegalActionError(f"you have no {name} left")
        if touch:
            if state.picked < 0:
                raise IllegalActionError("with touch-move, first pick the piece you will place (e.g. 'pick F5')")
            if state.picked != p:
                raise IllegalActionError(f"you picked {P.PIECE_NAMES[state.picked]}: that is the piece to place")
        g = P.ORIENT_GK[p * 8 + k]
        x, y = col - P.ORIENT_REF[g], n - 1 - row
        w, h = P.ORIENT_W[g], P.ORIENT_H[g]
        at = f"{name} {_orient_text(k)} @ {cell_name(col, row)}"
        if x < 0 or x + w > n or y < 0 or y + h > n:
            raise IllegalActionError(f"{at} would stick out over the edge of the board")
        tb = P.tables(n)
        mask = tb.masks[g] << (y * tb.stride + x)
        clash = mask & state.filled
        if clash:
            what = _names(tb, clash, n)
            verb = "is" if len(what) == 1 else "are"
            raise IllegalActionError(f"{at} would cover {', '.join(what)}, which {verb} not free")

    def _apply(self, state: FormaState, action: FormaAction, player: int) -> FormaState:
        if isinstance(action, Pick):
            return self._apply_pick(state, action.piece, player)
        p, k, col, row = action
        n = state.size
        tb = P.tables(n)
        hint = self._hint
        if hint[0] is state and hint[1] is action:
            mask = hint[2]
        else:
            g = P.ORIENT_GK[p * 8 + k]
            mask = tb.masks[g] << ((n - 1 - row) * tb.stride + col - P.ORIENT_REF[g])
        eff = place_effect(tb, state, player, mask, P.PIECE_SIZES[p])
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
            _next_turn(tb, stocks, orients, tb.board & ~eff.filled, player),
            -1,
            0,
            state.moves + 1,
            mask,
            state.exact and eff.exact,
            orients,
        )

    def _apply_pick(self, state: FormaState, piece: int, player: int) -> FormaState:
        tb = P.tables(state.size)
        free = tb.board & ~state.filled
        orients = state.orients
        if piece_fits(tb, piece, free):
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
            if state.misses == 0 and can_place(tb, stocks[player], orients[player], free):
                turn, misses = player, 1
            else:
                turn, misses = _next_turn(tb, stocks, orients, free, player), 0
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
        """The protocol's random playout: placements run in the compiled kernel when it is built (same
        draws, same states), anything else (touch-move picks, the pure engine) step by step."""
        if EXT is not None and state.picked < 0 and not state.config["touch_move"] and state.turn >= 0:
            return native_playout(state, rngs, max_actions)
        return super().playout(state, rngs, max_actions)

    # ------------------------------------------------------------------ results
    def scores(self, state: FormaState) -> tuple[float, ...]:
        return tuple(float(s) for s in state.scores)

    def winners(self, state: FormaState) -> tuple[int, ...]:
        if state.turn != TERMINAL:
            return ()
        best = max(state.scores)
        return tuple(i for i, s in enumerate(state.scores) if s == best)

    # ------------------------------------------------------------------ notation and ids
    def format_action(self, action: FormaAction, state: FormaState | None = None) -> str:
        if isinstance(action, Pick):
            return f"pick {P.PIECE_NAMES[action.piece]}"
        p, k, col, row = action
        return f"{P.PIECE_NAMES[p]} {_orient_text(P.canonical_k(p, k))} @ {cell_name(col, row)}"

    def parse_action(self, text: str, state: FormaState | None = None) -> FormaAction:
        if not isinstance(text, str):
            raise IllegalActionError("a move is text like 'F5 r3f @ k7' or, with touch-move, 'pick F5'")
        m = _ACTION.match(text)
        if not m:
            raise IllegalActionError(
                f"cannot read {text.strip()!r}: write a piece, an orientation and a cell, like 'F5 r3f @ k7'"
            )
        if m.group("pick"):
            p = P.piece_index(m.group("pname"))
            if p < 0:
                raise IllegalActionError(f"there is no piece called {m.group('pname')!r} ({', '.join(P.PIECE_NAMES)})")
            return Pick(p)
        p = P.piece_index(m.group("name"))
        if p < 0:
            raise IllegalActionError(f"there is no piece called {m.group('name')!r} ({', '.join(P.PIECE_NAMES)})")
        k = int(m.group("rot") or 0) + (4 if m.group("flip") else 0)
        size = state.size if state is not None else 20
        try:
            col, row = parse_cell(m.group("cell"), size)
        except ValueError as e:
            raise IllegalActionError(str(e)) from None
        return Place(p, P.canonical_k(p, k), col, row)

    def num_distinct_actions(self, config: Config) -> int:
        return _NUM_IDS

    def action_id(self, action: FormaAction, state: FormaState | None = None) -> int:
        if isinstance(action, Pick):
            return _PLACE_IDS + action.piece
        p, k, col, row = action
        return P.ORIENT_GK[p * 8 + k] * 400 + row * 20 + col

    def action_from_id(self, action_id: int, state: FormaState) -> FormaAction:
        if not _is_int(action_id) or not 0 <= action_id < _NUM_IDS:
            raise IllegalActionError(f"action id {action_id!r} is out of range (0 to {_NUM_IDS - 1})")
        if action_id >= _PLACE_IDS:
            return Pick(action_id - _PLACE_IDS)
        g, rest = divmod(action_id, 400)
        row, col = divmod(rest, 20)
        return Place(P.ORIENT_PIECE[g], P.ORIENT_K[g], col, row)

    # ------------------------------------------------------------------ serialisation and views
    def state_to_dict(self, state: FormaState) -> dict[str, Any]:
        tb = P.tables(state.size)
        n = state.size
        return {
            "game": "forma",
            "config": state.config.to_dict(),
            "setup": format_setup(state),
            "players": [
                {
                    "pieces": _names(tb, state.pieces[i], n),
                    "markers": _names(tb, state.markers[i], n),
                    "stock": {P.PIECE_NAMES[p]: c for p, c in enumerate(state.stock[i]) if c},
                    "score": state.scores[i],
                    "bridges": state.bridges[i],
                }
                for i in range(state.config.players)
            ],
            "closed": _names(tb, state.closed, n),
            "turn": state.turn,
            "picked": P.PIECE_NAMES[state.picked] if state.picked >= 0 else None,
            "misses": state.misses,
            "moves": state.moves,
            "last": _names(tb, state.last, n),
            "exact": state.exact,
        }

    def state_from_dict(self, data: Mapping[str, Any]) -> FormaState:
        if require(data, "game") != "forma":
            raise StateFormatError("this is not a Forma state")
        cfg = require(data, "config")
        try:
            config = self.spec.config(require(cfg, "options"), require_int(cfg, "players", 2, 4))
            n = config.int("size")
            tower_xy, obstacle_xy = parse_setup(str(require(data, "setup")), n)
        except ConfigError as e:
            raise StateFormatError(str(e)) from None
        tb = P.tables(n)
        st = tb.stride
        tower = 1 << (tower_xy[1] * st + tower_xy[0])
        obstacles = sum(1 << (y * st + x) for x, y in obstacle_xy)
        players = require_list(data, "players", config.players)
        filled = obstacles | tower
        pieces, markers, stocks, scores, bridges = [], [], [], [], []
        mult = 2 if config.players == 2 else 1
        for i, pd in enumerate(players):
            pc = _mask(tb, require_list(pd, "pieces"), n)
            mk = _mask(tb, require_list(pd, "markers"), n)
            for part in (pc, mk):
                if part & filled:
                    raise StateFormatError(f"player {i + 1}'s cells overlap other pieces, markers or obstacles")
                filled |= part
            stock_d = require(pd, "stock")
            if not isinstance(stock_d, Mapping):
                raise StateFormatError("field 'stock' must map piece names to counts")
            counts = [0] * P.NUM_PIECES
            for name, c in stock_d.items():
                p = P.piece_index(str(name))
                if p < 0 or isinstance(c, bool) or not isinstance(c, int) or not 0 <= c <= P.START_COUNTS[p] * mult:
                    raise StateFormatError(f"bad stock entry {name!r}: {c!r}")
                counts[p] = c
            pieces.append(pc)
            markers.append(mk)
            stocks.append(tuple(counts))
            scores.append(require_int(pd, "score", 0))
            bridges.append(require_int(pd, "bridges", 0))
        closed = _mask(tb, require_list(data, "closed"), n)
        if closed & ~(obstacles | tower):
            raise StateFormatError("field 'closed' may list only obstacles and the tower")
        turn = require_int(data, "turn")
        if turn != TERMINAL and not 0 <= turn < config.players:
            raise StateFormatError(f"field 'turn' is out of range: {turn}")
        picked_name = require(data, "picked")
        picked = -1 if picked_name is None else P.piece_index(str(picked_name))
        if picked_name is not None and (picked < 0 or turn < 0 or not stocks[turn][picked]):
            raise StateFormatError(f"field 'picked' names no piece the player holds: {picked_name!r}")
        exact = require(data, "exact")
        if not isinstance(exact, bool):
            raise StateFormatError("field 'exact' must be true or false")
        return FormaState(
            config,
            n,
            obstacles,
            tower,
            tuple(pieces),
            tuple(markers),
            filled,
            tuple(stocks),
            tuple(scores),
            tuple(bridges),
            closed,
            neighbours(tb, (obstacles | tower) & ~closed),
            turn,
            picked,
            require_int(data, "misses", 0, 1),
            require_int(data, "moves", 0),
            _mask(tb, require_list(data, "last"), n),
            exact,
            tuple(avail_orients(st_) for st_ in stocks),
        )

    def view(self, state: FormaState, player: int | None) -> dict[str, Any]:
        """Forma has no hidden information: everyone sees the whole state (there is no generator in it).

        Each player also gets ``bridge_paths``: the cells of each bridge counted, in order from border to
        border, so a board can draw them (the state keeps only the count)."""
        out = self.state_to_dict(state)
        out["current_player"] = state.turn
        n = state.size
        for i, pd in enumerate(out["players"]):
            own = state.pieces[i] | state.markers[i]
            pd["bridge_paths"] = [list(path) for path in _bridge_lines(own, n)] if state.bridges[i] else []
        return out

    def render(self, state: FormaState, player: int | None = None, color: bool = False) -> str:
        return render(state, color)

    def describe_action(self, action: FormaAction, state: FormaState) -> str:
        if isinstance(action, Pick):
            return f"picks up {P.PIECE_NAMES[action.piece]}"
        p, k, col, row = action
        return (
            f"places {P.PIECE_NAMES[p]} ({P.PIECE_SIZES[p]} cells) turned {k % 4} quarter turns clockwise"
            f"{' and flipped' if k >= 4 else ''}, top-left cell at {cell_name(col, row)}"
        )

    # ------------------------------------------------------------------ AI hooks
    def evaluate(self, state: FormaState, player: int) -> float:
        if state.turn == TERMINAL:
            return 1000.0 * self.returns(state)[player]
        return evaluate(state, player)

    def action_value(self, state: FormaState, action: FormaAction, player: int) -> float:
        return action_value(state, action, player)

    # ------------------------------------------------------------------ testing
    def sample_configs(self) -> list[tuple[dict[str, object], int]]:
        return [
            ({}, 2),
            ({}, 3),
            ({}, 4),
            ({"touch_move": True}, 4),
            ({"touch_move": True}, 2),
            ({"size": 20, "obstacles": 25}, 3),
            ({"obstacles": 0}, 4),
            ({"setup": "tower j10; obstacles c3 e5 g7 p16 q3"}, 2),
        ]


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


@functools.lru_cache(maxsize=64)
def _bridge_lines(own: int, n: int) -> tuple[tuple[str, ...], ...]:
    """The cells of each bridge of one colour (north-south ones first), by name; cached because every
    seat's view of one position asks for the same thing."""
    st = P.tables(n).stride
    cells = []
    b = own
    while b:
        low = b & -b
        y, x = divmod(low.bit_length() - 1, st)
        cells.append((x, y))
        b ^= low
    ns, ew = bridge_paths(cells, n)
    return tuple(tuple(cell_name(x, n - 1 - y) for x, y in path) for path in (*ns, *ew))


def _orient_text(k: int) -> str:
    return f"r{k % 4}{'f' if k >= 4 else ''}"


def _names(tb: P.Tables, b: int, n: int) -> list[str]:
    out = []
    st = tb.stride
    while b:
        low = b & -b
        y, x = divmod(low.bit_length() - 1, st)
        out.append(cell_name(x, n - 1 - y))
        b ^= low
    return out


def _mask(tb: P.Tables, names: list[Any], n: int) -> int:
    out = 0
    for name in names:
        try:
            col, row = parse_cell(str(name), n)
        except ValueError as e:
            raise StateFormatError(str(e)) from None
        bit = 1 << ((n - 1 - row) * tb.stride + col)
        if out & bit:
            raise StateFormatError(f"cell {name} is listed twice")
        out |= bit
    return out


def _next_turn(
    tb: P.Tables, stocks: tuple[tuple[int, ...], ...], orients: tuple[tuple[int, ...], ...], free: int, player: int
) -> int:
    """The next player (clockwise) who can place a piece; TERMINAL when nobody can.

    A player who cannot place now never can again (the board only fills), so skipping them is the pass
    the rules prescribe; the mover is asked last."""
    if EXT is not None:
        return int(EXT.next_turn(tb.size, stocks, free, player))
    n = len(stocks)
    for i in range(1, n + 1):
        q = (player + i) % n
        if can_place(tb, stocks[q], orients[q], free):
            return q
    return TERMINAL
