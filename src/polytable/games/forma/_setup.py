"""The set-up phase before the first move (option ``placement=players``, the default).

The rulebook: "a chosen number of grey obstacles is placed on the board: not along the edges and not
adjacent to each other. The white tower is also placed on a cell." CLARIFICATIONS: "placed by the starting
player or at random". So the starting player (player 1) places the ``obstacles`` grey obstacles and the
tower one by one, in any order (``obstacle k7``, ``tower j10``), or at any point hands the rest to chance
(``fill``): the chance player then places the tower (if still missing) and the remaining obstacles one by
one, each uniform over the allowed cells (:func:`._state.allowed_cells`, the same rule the all-random
set-up uses), drawing from the state's generator, so a game replays exactly from its seed and actions.
When the last one is down, player 1 makes the first move.
"""

from __future__ import annotations

from collections.abc import Iterator

from polytable.core import CHANCE, IllegalActionError, Rng, below, player_name
from polytable.geometry import bits

from . import _pieces as P
from ._rules import neighbours
from ._state import Fill, FormaState, Obstacle, Tower, allowed_cells, cell_name

__all__ = [
    "SetupAction",
    "chance_outcome",
    "chance_outcomes",
    "drawn",
    "setup_apply",
    "setup_check",
    "setup_count",
    "setup_legal",
    "setup_sample",
]

SetupAction = Obstacle | Tower | Fill


def _bit(state: FormaState, col: int, row: int) -> int:
    return 1 << ((state.size - 1 - row) * P.tables(state.size).stride + col)


def _cells(state: FormaState, mask: int) -> Iterator[tuple[int, int]]:
    """(col, row) in human coordinates of every cell of ``mask``, in board order."""
    st, top = P.tables(state.size).stride, state.size - 1
    for i in bits(mask):
        yield i % st, top - i // st


def _obstacles_left(state: FormaState) -> int:
    return state.placing - (0 if state.tower else 1)


def _allowed(state: FormaState) -> int:
    return allowed_cells(state.size, state.obstacles | state.tower)


def _chance_kind(state: FormaState) -> type[Obstacle] | type[Tower]:
    """What chance places next: the tower first (as the all-random set-up does), then the obstacles."""
    return Obstacle if state.tower else Tower


def setup_legal(state: FormaState, player: int) -> Iterator[SetupAction]:
    allowed = _allowed(state)
    if player == CHANCE:
        kind = _chance_kind(state)
        for col, row in _cells(state, allowed):
            yield kind(col, row)
        return
    if _obstacles_left(state):
        for col, row in _cells(state, allowed):
            yield Obstacle(col, row)
    if not state.tower:
        for col, row in _cells(state, allowed):
            yield Tower(col, row)
    yield Fill()


def setup_count(state: FormaState, player: int) -> int:
    n = _allowed(state).bit_count()
    if player == CHANCE:
        return n
    return n * ((1 if _obstacles_left(state) else 0) + (0 if state.tower else 1)) + 1


def setup_sample(state: FormaState, player: int, rng: Rng) -> SetupAction:
    """Uniform over :func:`setup_legal` without building the list (the same draws in the compiled kernel)."""
    allowed = _allowed(state)
    k = rng.below(setup_count(state, player))
    if player == CHANCE:
        return _chance_kind(state)(*_nth(state, allowed, k))
    n = allowed.bit_count()
    kinds: list[type[Obstacle] | type[Tower]] = [Obstacle] if _obstacles_left(state) else []
    if not state.tower:
        kinds.append(Tower)
    if k == n * len(kinds):
        return Fill()
    return kinds[k // n](*_nth(state, allowed, k % n))


def drawn(state: FormaState, kind: int, bit: int) -> SetupAction:
    """The kernel's draw as an action: 0 an obstacle or 1 the tower on cell ``bit``, 2 a fill."""
    if kind == 2:
        return Fill()
    y, x = divmod(bit, P.tables(state.size).stride)
    return (Tower if kind else Obstacle)(x, state.size - 1 - y)


def _nth(state: FormaState, allowed: int, k: int) -> tuple[int, int]:
    bit = P.select_bit(allowed, k)
    y, x = divmod(bit, P.tables(state.size).stride)
    return x, state.size - 1 - y


def _set_up_first(state: FormaState, player: int) -> IllegalActionError:
    """The error for a move made before the set-up is finished, saying what is still to be placed."""
    n = _obstacles_left(state)
    if n and not state.tower:
        return IllegalActionError(
            f"first the board is set up: {player_name(player)} places the obstacles ({n} to go) and the tower "
            f"('obstacle k7', 'tower j10'), or 'fill' to place the rest at random",
            "forma.setup_first",
            {"player": player + 1, "left": n},
        )
    if n:
        return IllegalActionError(
            f"first the board is set up: {player_name(player)} places the obstacles ({n} to go, 'obstacle k7'), "
            f"or 'fill' to place the rest at random",
            "forma.setup_first_obstacles",
            {"player": player + 1, "left": n},
        )
    return IllegalActionError(
        f"first the board is set up: {player_name(player)} places the tower ('tower j10'), "
        "or 'fill' to place it at random",
        "forma.setup_first_tower",
        {"player": player + 1},
    )


def setup_check(state: FormaState, action: object, player: int) -> None:
    """Raise IllegalActionError with a sentence unless ``action`` is a legal set-up action now."""
    if player == CHANCE:
        kind = _chance_kind(state)
        if not isinstance(action, kind):
            if kind is Tower:
                raise IllegalActionError("chance places the tower now", "forma.chance_tower")
            raise IllegalActionError("chance places the next obstacle now", "forma.chance_obstacle")
    elif isinstance(action, Fill):
        return
    elif not isinstance(action, (Obstacle, Tower)):
        raise _set_up_first(state, player)
    col, row = action.col, action.row
    if not (type(col) is int and type(row) is int and 0 <= col < state.size and 0 <= row < state.size):
        raise IllegalActionError(
            f"the cell is off the {state.size}x{state.size} board", "forma.setup_cell_off_board", {"size": state.size}
        )
    if isinstance(action, Tower) and state.tower:
        at = next(_cells(state, state.tower))
        raise IllegalActionError(
            f"the tower is already on {cell_name(*at)}; place the obstacles",
            "forma.tower_placed",
            {"cell_name": cell_name(*at)},
        )
    if isinstance(action, Obstacle) and not _obstacles_left(state):
        raise IllegalActionError("every grey obstacle is on the board; place the tower", "forma.obstacles_done")
    name = cell_name(col, row)
    bit = _bit(state, col, row)
    taken = state.obstacles | state.tower
    if not 0 < col < state.size - 1 or not 0 < row < state.size - 1:
        raise IllegalActionError(
            f"{name} is on the border: obstacles and the tower stay off the edge",
            "forma.on_border",
            {"name": name},
        )
    if bit & taken:
        if bit & state.tower:
            raise IllegalActionError(f"{name} already holds the tower", "forma.holds_tower", {"name": name})
        raise IllegalActionError(f"{name} already holds an obstacle", "forma.holds_obstacle", {"name": name})
    tb = P.tables(state.size)
    near = neighbours(tb, bit) & taken
    if near:
        other = cell_name(*next(_cells(state, near)))
        if near & state.tower:
            raise IllegalActionError(
                f"{name} is next to the tower on {other}: obstacles and the tower may not touch",
                "forma.next_to_tower",
                {"name": name, "other": other},
            )
        raise IllegalActionError(
            f"{name} is next to the obstacle on {other}: obstacles and the tower may not touch",
            "forma.next_to_obstacle",
            {"name": name, "other": other},
        )
    if not bit & _allowed(state):
        shut = cell_name(*next(_cells(state, neighbours(tb, bit) & _walled(state, taken | bit))))
        if isinstance(action, Tower):
            raise IllegalActionError(
                f"the tower on {name} would wall in the empty cell {shut} with obstacles alone: no move could ever "
                f"enclose it",
                "forma.tower_walls_in",
                {"name": name, "cell": shut},
            )
        raise IllegalActionError(
            f"an obstacle on {name} would wall in the empty cell {shut} with obstacles alone: no move could ever "
            f"enclose it",
            "forma.obstacle_walls_in",
            {"name": name, "cell": shut},
        )


def _walled(state: FormaState, taken: int) -> int:
    """Empty cells whose four neighbours are all taken (off-board sides do not count: no border cell is
    ever walled in, since nothing stands on the border)."""
    tb = P.tables(state.size)
    st = tb.stride
    return tb.board & ~taken & (taken << 1) & (taken >> 1) & (taken << st) & (taken >> st)


def setup_apply(state: FormaState, action: SetupAction, player: int) -> FormaState:
    """The state after a checked set-up action; when the last item is down, player 1 moves first."""
    if isinstance(action, Fill):
        return state._replace(turn=CHANCE)
    rng = state.rng
    if player == CHANCE:  # any outcome, drawn or forced, advances the generator the same way
        _, rng = below(rng, _allowed(state).bit_count())
    bit = _bit(state, action.col, action.row)
    obstacles, tower = state.obstacles, state.tower
    if isinstance(action, Tower):
        tower = bit
    else:
        obstacles |= bit
    placing = state.placing - 1
    filled = obstacles | tower
    if placing:
        return state._replace(obstacles=obstacles, tower=tower, filled=filled, placing=placing, rng=rng)
    tb = P.tables(state.size)
    return state._replace(
        obstacles=obstacles, tower=tower, filled=filled, placing=0, rng=0, turn=0, watch=neighbours(tb, filled)
    )


def chance_outcome(state: FormaState) -> Obstacle | Tower:
    """The next random-fill placement the state's own generator draws (uniform over the allowed cells)."""
    allowed = _allowed(state)
    k, _ = below(state.rng, allowed.bit_count())
    return _chance_kind(state)(*_nth(state, allowed, k))


def chance_outcomes(state: FormaState) -> list[tuple[Obstacle | Tower, float]]:
    outcomes = list(setup_legal(state, CHANCE))
    return [(a, 1 / len(outcomes)) for a in outcomes]  # type: ignore[misc]
