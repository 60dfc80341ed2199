"""Actions, their notation and their dense integer ids.

Player actions: :class:`Reroll` (a set of hand slots; the empty set is "keep"), :class:`Place` (cubes in
one row or column), :class:`Pass` (only when no roll could ever let the hand play). Chance outcomes:
:class:`Roll` (the shapes that come up, one per rolled cube in slot order) and :class:`Draw` (the colours
taken from the bag, sorted: the order in which they come out changes nothing).

Notation (``parse`` also reads the ASCII fallback and normalises order and spacing)::

    keep                      reroll none, no reroll
    reroll 1,4                hand slots, 1-based, in the order the hand is shown
    B◆@0,1 B●@0,2             ASCII: Bd@0,1 Bo@0,2   (colour letter, shape, @x,y)
    pass
    rolls ● ◆                 ASCII: rolls o d        (chance)
    draws B B R               (chance)

Colours ``R O Y G B P``; shapes ``● ■ ◆ ♣ ✦ ✸`` = ASCII ``o s d c x *``.

Ids (state-free; a placement of 2+ cubes is fixed by its first cell, direction and faces, because its
cubes take the first empty cells from there): pass, 64 reroll masks, rolls and draws of 1-6 cubes, single
cubes on the 179 x 179 cells a 90-cube table can reach, and lines by (shared colour or shape, order of the
other attribute, direction, first cell). About 1.5e9 ids: action *masks* are not practical for this game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...core import IllegalActionError
from ._tiles import (
    COLOUR_LETTERS,
    MAX_COORD,
    SHAPE_ASCII,
    SHAPE_SYMBOLS,
    STRIDE,
    cell,
    cell_xy,
    face_ascii,
    face_text,
    parse_face,
)

__all__ = [
    "NUM_ACTIONS",
    "Action",
    "Draw",
    "Pass",
    "Place",
    "Reroll",
    "Roll",
    "action_id",
    "decode_id",
    "format_action",
    "parse_text",
]


@dataclass(frozen=True, slots=True)
class Reroll:
    """Reroll the hand slots in ``mask`` (bit i = slot i, 0-based); 0 means keep every cube."""

    mask: int


@dataclass(frozen=True, slots=True)
class Place:
    """Cubes placed this turn: ``((face, cell), ...)`` sorted by cell (one row or one column)."""

    cubes: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class Pass:
    """No face of any cube in the hand could ever be placed: the turn passes."""


@dataclass(frozen=True, slots=True)
class Roll:
    """Chance: the shapes that come up, one per rolled cube, in slot order."""

    shapes: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Draw:
    """Chance: the colours of the cubes drawn from the bag, sorted."""

    colours: tuple[int, ...]


Action = Reroll | Place | Pass | Roll | Draw

# ---------------------------------------------------------------------- notation


def _xy_text(c: int) -> str:
    x, y = cell_xy(c)
    return f"{x},{y}"


def format_action(a: Action, ascii_only: bool = False) -> str:
    """An action in the notation players type (``R●@0,0 R■@1,0``, ``reroll 1,4``, ``keep``); ``ascii_only``
    writes shapes as letters (``Ro@0,0``) for terminals without the symbols. The game parses both."""
    if isinstance(a, Place):
        fmt = face_ascii if ascii_only else face_text
        return " ".join(f"{fmt(t)}@{_xy_text(c)}" for t, c in a.cubes)
    if isinstance(a, Reroll):
        if a.mask == 0:
            return "keep"
        return "reroll " + ",".join(str(i + 1) for i in range(6) if a.mask >> i & 1)
    if isinstance(a, Pass):
        return "pass"
    if isinstance(a, Roll):
        table = SHAPE_ASCII if ascii_only else SHAPE_SYMBOLS
        return "rolls " + " ".join(table[s] for s in a.shapes)
    return "draws " + " ".join(COLOUR_LETTERS[c] for c in a.colours)


_CUBE = re.compile(r"^(\S\S)@\(?(-?\d+),(-?\d+)\)?$")
_KEEP = {"keep", "reroll none", "no reroll", "reroll 0", "none", "reroll nothing"}
_SHAPE_TOKEN = {**{s: i for i, s in enumerate(SHAPE_SYMBOLS)}, **{s: i for i, s in enumerate(SHAPE_ASCII)}}


def parse_text(text: str) -> Action:
    """Read an action; the hand-dependent normalisation of rerolls is done by the game."""
    if not isinstance(text, str):
        raise IllegalActionError(
            f"an action is text, not {type(text).__name__}", "qwirkle.action_type", {"name": type(text).__name__}
        )
    words = " ".join(text.replace(";", " ").split()).strip()
    low = words.lower()
    if not words:
        raise IllegalActionError(
            "empty action: type cubes to place (like B◆@0,1 B●@0,2), reroll 1,4, keep or pass",
            "qwirkle.empty_action",
        )
    if low in _KEEP:
        return Reroll(0)
    if low == "pass":
        return Pass()
    if low.startswith("reroll"):
        rest = low[6:].replace(",", " ").split()
        if rest == ["all"]:
            return Reroll(-1)
        mask = 0
        for w in rest:
            if not w.isdigit() or not 1 <= int(w) <= 6:
                raise IllegalActionError(
                    f"reroll takes hand positions 1 to 6, like 'reroll 1,4'; {w!r} is not one",
                    "qwirkle.reroll_position",
                    {"text": f"{w!r}"},
                )
            bit = 1 << (int(w) - 1)
            if mask & bit:
                raise IllegalActionError(f"cube {w} is named twice in the reroll", "qwirkle.reroll_twice", {"cube": w})
            mask |= bit
        return Reroll(mask)
    if low.startswith("rolls"):
        shapes = []
        for w in words[5:].replace(",", " ").split():
            s = _SHAPE_TOKEN.get(w, _SHAPE_TOKEN.get(w.lower(), -1))
            if s < 0:
                raise IllegalActionError(
                    f"{w!r} is not a shape (use ● ■ ◆ ♣ ✦ ✸ or o s d c x *)", "qwirkle.not_a_shape", {"text": f"{w!r}"}
                )
            shapes.append(s)
        if not 1 <= len(shapes) <= 6:
            raise IllegalActionError("a roll shows the shapes of 1 to 6 cubes", "qwirkle.roll_size")
        return Roll(tuple(shapes))
    if low.startswith("draws"):
        colours = []
        for w in words[5:].replace(",", " ").split():
            c = COLOUR_LETTERS.find(w.upper()) if len(w) == 1 else -1
            if c < 0:
                raise IllegalActionError(
                    f"{w!r} is not a colour (use R O Y G B P)", "qwirkle.not_a_colour", {"text": f"{w!r}"}
                )
            colours.append(c)
        if not 1 <= len(colours) <= 6:
            raise IllegalActionError("a draw takes 1 to 6 cubes", "qwirkle.draw_size")
        return Draw(tuple(sorted(colours)))
    cubes: list[tuple[int, int]] = []
    for w in words.split():
        m = _CUBE.match(w)
        if m is None:
            raise IllegalActionError(
                f"I cannot read {w[:40]!r}: write a cube as colour letter, shape and @x,y, like B◆@0,1 or Bd@0,1",
                "qwirkle.unreadable_cube",
                {"text": f"{w[:40]!r}"},
            )
        t = parse_face(m.group(1))
        if t is None:
            raise IllegalActionError(
                f"{m.group(1)!r} is not a cube: colours are R O Y G B P, shapes ● ■ ◆ ♣ ✦ ✸ (ASCII o s d c x *)",
                "qwirkle.not_a_cube",
                {"text": f"{m.group(1)!r}"},
            )
        x, y = int(m.group(2)), int(m.group(3))
        if abs(x) > MAX_COORD or abs(y) > MAX_COORD:
            raise IllegalActionError(
                f"{x},{y} is too far from the first cube: no cube can ever lie there",
                "qwirkle.too_far",
                {"x": x, "y": y},
            )
        cubes.append((t, cell(x, y)))
    if len(cubes) > 6:
        raise IllegalActionError(
            f"you name {len(cubes)} cubes; a hand holds 6", "qwirkle.too_many_cubes", {"cubes": len(cubes)}
        )
    cubes.sort(key=lambda tc: tc[1])
    return Place(tuple(cubes))


# ---------------------------------------------------------------------- ids

_SPAN = 2 * MAX_COORD + 1
_PERM = {2: 30, 3: 120, 4: 360, 5: 720, 6: 720}
_PERM_OFF = {2: 0, 3: 30, 4: 150, 5: 510, 6: 1230}
_SEQS = 1950
_CHANCE_IDS: int = sum(int(6**n) for n in range(1, 7))
_N_OFF: dict[int, int] = {n: sum(int(6**m) for m in range(1, n)) for n in range(1, 8)}

ROLL_BASE: int = 65
DRAW_BASE = ROLL_BASE + _CHANCE_IDS
SINGLE_BASE = DRAW_BASE + _CHANCE_IDS
MULTI_BASE = SINGLE_BASE + 36 * _SPAN * _SPAN
NUM_ACTIONS = MULTI_BASE + 2 * 6 * _SEQS * 2 * _SPAN * _SPAN


def _perm_count(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def _rank(seq: tuple[int, ...]) -> int:
    """Lexicographic rank of an injective sequence of values 0-5 among those of its length."""
    k = len(seq)
    used: list[int] = []
    r = 0
    for i, v in enumerate(seq):
        smaller = v - sum(1 for u in used if u < v)
        r += smaller * _perm_count(6 - i - 1, k - i - 1)
        used.append(v)
    return r


def _unrank(r: int, k: int) -> tuple[int, ...]:
    free = list(range(6))
    out = []
    for i in range(k):
        block = _perm_count(6 - i - 1, k - i - 1)
        j, r = divmod(r, block)
        out.append(free.pop(j))
    return tuple(out)


def _base6(values: tuple[int, ...]) -> int:
    v = 0
    for x in values:
        v = v * 6 + x
    return _N_OFF[len(values)] + v


def _unbase6(i: int) -> tuple[int, ...]:
    n = 1
    while i >= _N_OFF[n + 1]:
        n += 1
    v = i - _N_OFF[n]
    out = []
    for _ in range(n):
        v, d = divmod(v, 6)
        out.append(d)
    return tuple(reversed(out))


def _xy_index(c: int) -> int:
    x, y = cell_xy(c)
    return (x + MAX_COORD) * _SPAN + (y + MAX_COORD)


def action_id(a: Action) -> int:
    if isinstance(a, Pass):
        return 0
    if isinstance(a, Reroll):
        if not 0 <= a.mask < 64:
            raise IllegalActionError("reroll all has no id of its own: name the cubes", "qwirkle.reroll_all_id")
        return 1 + a.mask
    if isinstance(a, Roll):
        return ROLL_BASE + _base6(a.shapes)
    if isinstance(a, Draw):
        return DRAW_BASE + _base6(a.colours)
    cubes = a.cubes
    if not cubes:
        raise IllegalActionError("a placement needs at least one cube", "qwirkle.placement_empty")
    if len(cubes) == 1:
        t, c = cubes[0]
        return SINGLE_BASE + t * _SPAN * _SPAN + _xy_index(c)
    faces = [t for t, _ in cubes]
    colours = {t // 6 for t in faces}
    shapes = {t % 6 for t in faces}
    if len(colours) == 1 and len(shapes) == len(faces):
        kind, common, seq = 0, faces[0] // 6, tuple(t % 6 for t in faces)
    elif len(shapes) == 1 and len(colours) == len(faces):
        kind, common, seq = 1, faces[0] % 6, tuple(t // 6 for t in faces)
    else:
        raise IllegalActionError(
            "the cubes placed in one turn share a colour or a shape, all different otherwise",
            "qwirkle.line_rule",
        )
    k = len(seq)
    seq_id = (kind * 6 + common) * _SEQS + _PERM_OFF[k] + _rank(seq)
    direction = 0 if cubes[1][1] - cubes[0][1] < STRIDE else 1
    return MULTI_BASE + (seq_id * 2 + direction) * _SPAN * _SPAN + _xy_index(cubes[0][1])


def decode_id(i: int, occupied: set[int] | dict[int, int]) -> Action:
    """The action with id ``i``; a line's cells are the first empty cells of ``occupied`` from its start."""
    if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < NUM_ACTIONS:
        raise IllegalActionError(f"there is no action with id {i!r}", "qwirkle.no_such_action", {"action_id": f"{i!r}"})
    if i == 0:
        return Pass()
    if i < ROLL_BASE:
        return Reroll(i - 1)
    if i < DRAW_BASE:
        return Roll(_unbase6(i - ROLL_BASE))
    if i < SINGLE_BASE:
        return Draw(_unbase6(i - DRAW_BASE))
    if i < MULTI_BASE:
        t, xy = divmod(i - SINGLE_BASE, _SPAN * _SPAN)
        x, y = divmod(xy, _SPAN)
        return Place(((t, cell(x - MAX_COORD, y - MAX_COORD)),))
    rest, xy = divmod(i - MULTI_BASE, _SPAN * _SPAN)
    seq_id, direction = divmod(rest, 2)
    group, idx = divmod(seq_id, _SEQS)
    kind, common = divmod(group, 6)
    k = 2
    while k < 6 and idx >= _PERM_OFF[k + 1]:
        k += 1
    seq = _unrank(idx - _PERM_OFF[k], k)
    faces = [common * 6 + v if kind == 0 else v * 6 + common for v in seq]
    x, y = divmod(xy, _SPAN)
    c = cell(x - MAX_COORD, y - MAX_COORD)
    step = STRIDE if direction else 1
    cubes = []
    for t in faces:
        while c in occupied:
            c += step
        cx, cy = cell_xy(c)
        if abs(cx) > MAX_COORD or abs(cy) > MAX_COORD:
            raise IllegalActionError(
                f"action id {i} runs off the reachable grid", "qwirkle.action_id_reach", {"action_id": i}
            )
        cubes.append((t, c))
        c += step
    return Place(tuple(cubes))
