"""The state of a game of Qwirkle Cubes: a frozen value that shares its unchanged parts.

What is hidden: only the bag's order. The model keeps the bag as counts per colour and draws from it at
a chance node with the generator kept in the state, which is the same thing as a bag in an unknown
random order; the counts themselves are public (15 per colour minus what is on the table and in the
open hands). So views leave out the generator state, and ``determinize`` reseeds it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...core import Config, StateFormatError, require, require_int, require_list
from ._board import Board
from ._tiles import COLOURS, CUBES_PER_COLOUR, HAND_SIZE, MAX_COORD, cell, cell_xy, face_ascii, parse_face

__all__ = [
    "DRAW",
    "DRAW_ROLL",
    "END",
    "PASS",
    "PHASES",
    "PLACE",
    "REROLL",
    "ROLL",
    "SETUP_DRAW",
    "SETUP_ROLL",
    "QState",
    "evolve",
]

SETUP_DRAW, SETUP_ROLL, REROLL, ROLL, PLACE, DRAW, DRAW_ROLL, PASS, END = range(9)
"""The phases of a turn (``QState.phase``), named in PHASES; the chance ones are in CHANCE_PHASES."""
PHASES = ("setup-draw", "setup-roll", "reroll", "roll", "place", "draw", "draw-roll", "pass", "end")
CHANCE_PHASES = frozenset((SETUP_DRAW, SETUP_ROLL, ROLL, DRAW, DRAW_ROLL))


@dataclass(frozen=True)
class QState:
    """One position. ``hands[p]`` is sorted except while cubes in ``rolling`` (a slot mask) wait for a
    roll; ``bag`` counts cubes per colour; ``player`` is whose turn it is (or who draws, in setup);
    ``forced`` counts forced rerolls this turn; ``passes`` counts passes in a row; ``last`` is
    (player, points, Qwirkles) of the latest placement, for people; ``finisher`` got the +6 bonus."""

    config: Config
    rng: int
    phase: int
    player: int
    hands: tuple[tuple[int, ...], ...]
    bag: tuple[int, ...]
    points: tuple[int, ...]
    placed: tuple[tuple[int, int], ...]
    rolling: int = 0
    forced: int = 0
    passes: int = 0
    turn: int = 0
    last: tuple[int, int, int] = (-1, 0, 0)
    finisher: int = -1
    board: Board = field(default_factory=Board, compare=False, hash=False, repr=False)

    @property
    def hand(self) -> tuple[int, ...]:
        return self.hands[self.player]

    @property
    def bag_size(self) -> int:
        return sum(self.bag)


def evolve(s: QState, **changes: Any) -> QState:
    """``dataclasses.replace`` without re-running ``__init__``: the hot path of every step (the fields
    are validated where they are computed, and a frozen dataclass never changes after this)."""
    new = object.__new__(QState)
    d = new.__dict__
    d.update(s.__dict__)
    d.update(changes)
    return new


def _cube_text(t: int) -> str:
    return face_ascii(t)


def state_to_dict(s: QState) -> dict[str, Any]:
    return {
        "phase": PHASES[s.phase],
        "player": s.player,
        "hands": [[_cube_text(t) for t in h] for h in s.hands],
        "bag": list(s.bag),
        "points": list(s.points),
        "table": [[*cell_xy(c), _cube_text(t)] for t, c in s.placed],
        "rolling": s.rolling,
        "forced": s.forced,
        "passes": s.passes,
        "turn": s.turn,
        "last": list(s.last),
        "finisher": s.finisher,
        "rng": s.rng,
        "config": s.config.to_dict(),
    }


def _face(text: object, what: str) -> int:
    t = parse_face(text) if isinstance(text, str) else None
    if t is None:
        raise StateFormatError(
            f"{what}: {text!r} is not a cube like 'Bd'", "qwirkle.state_cube", {"what": what, "text": f"{text!r}"}
        )
    return t


def state_from_dict(data: Mapping[str, Any], config: Config) -> QState:
    phase_name = require(data, "phase")
    if phase_name not in PHASES:
        raise StateFormatError(
            f"field 'phase' must be one of {', '.join(PHASES)}, not {phase_name!r}",
            "qwirkle.state_phase",
            {"phases": ", ".join(PHASES), "phase_name": f"{phase_name!r}"},
        )
    n = config.players
    raw_hands = require_list(data, "hands", n)
    hands = []
    for i, h in enumerate(raw_hands):
        if not isinstance(h, list) or len(h) > HAND_SIZE:
            raise StateFormatError(
                f"hand {i + 1} must be a list of at most {HAND_SIZE} cubes",
                "qwirkle.state_hand",
                {"i": i + 1, "hand_size": HAND_SIZE},
            )
        hands.append(tuple(_face(t, f"hand {i + 1}") for t in h))
    bag = require_list(data, "bag", COLOURS)
    if not all(isinstance(b, int) and not isinstance(b, bool) and 0 <= b <= CUBES_PER_COLOUR for b in bag):
        raise StateFormatError("field 'bag' must hold 6 counts from 0 to 15", "qwirkle.state_bag")
    points = require_list(data, "points", n)
    if not all(isinstance(p, int) and not isinstance(p, bool) and p >= 0 for p in points):
        raise StateFormatError("field 'points' must hold whole numbers", "qwirkle.state_points")
    table = require_list(data, "table")
    placed = []
    seen = set()
    for item in table:
        if not (isinstance(item, list) and len(item) == 3 and all(isinstance(v, int) for v in item[:2])):
            raise StateFormatError(
                f"a grid entry must be [x, y, cube], not {item!r}", "qwirkle.state_table_entry", {"item": f"{item!r}"}
            )
        x, y = item[0], item[1]
        if abs(x) > MAX_COORD or abs(y) > MAX_COORD:
            raise StateFormatError(f"grid square {x},{y} is out of reach", "qwirkle.state_cell_reach", {"x": x, "y": y})
        c = cell(x, y)
        if c in seen:
            raise StateFormatError(f"grid square {x},{y} appears twice", "qwirkle.state_cell_twice", {"x": x, "y": y})
        seen.add(c)
        placed.append((_face(item[2], "table"), c))
    for colour in range(COLOURS):
        total = bag[colour] + sum(1 for h in hands for t in h if t // 6 == colour)
        total += sum(1 for t, _ in placed if t // 6 == colour)
        if total != CUBES_PER_COLOUR:
            raise StateFormatError(
                f"colour {colour} has {total} cubes in bag, hands and grid; there are 15",
                "qwirkle.state_colour_count",
                {"colour": colour, "total": total},
            )
    last = require_list(data, "last", 3)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in last):
        raise StateFormatError("field 'last' must hold three whole numbers", "qwirkle.state_last")
    rng = require_int(data, "rng", 0, (1 << 64) - 1)
    order = tuple(placed)
    return QState(
        config=config,
        rng=rng,
        phase=PHASES.index(phase_name),
        player=require_int(data, "player", 0, n - 1),
        hands=tuple(hands),
        bag=tuple(bag),
        points=tuple(points),
        placed=order,
        rolling=require_int(data, "rolling", 0, 63),
        forced=require_int(data, "forced", 0),
        passes=require_int(data, "passes", 0, n),
        turn=require_int(data, "turn", 0),
        last=(last[0], last[1], last[2]),
        finisher=require_int(data, "finisher", -1, n - 1),
        board=Board(order),
    )
