"""FORMFINITY variants as data: the four rulebook variants and custom variant files (TOML).

A variant is a :class:`Rules` value: which template, how many players, whether the card's arrows and
rotation symbol apply, and one goal with its parameters:

* ``lines``: runs of ``length`` drawn squares (any colours) in the chosen ``directions`` are claimed by
  the player who completes them; ``target`` lines win; ``difficulty`` easy (lines in different
  directions may share squares) or hard (no square in two lines). Variant 1: length 8, target 4.
* ``areas``: the player about to move chooses an unfinished area; elements go inside it; an area is
  finished when full or when every player in turn placed nothing in it; 1 point per square. Variant 2.
* ``connection``: two players build from their start square (``*``; player 1 the lower one) towards the
  other's; elements touch the own drawing by an edge and never touch the opponent's drawing (not even at
  a corner unless ``corner_touch = true``) nor leave the opponent without a way to their goal; the first
  connection wins. Variant 3.
* ``numbers``: numbers are claimed in order by covering them; an element may cover no other number; new
  elements connect to earlier ones by an edge (``connect = false`` drops that); most numbers win.
  Variant 4.

Variant file format (TOML; every key but ``[goal] type`` is optional)::

    name = "Quick lines"
    template = "blank"          # "1".."4" or "blank" for a shipped template, or the grid itself
    players = [2, 3]            # one count or [min, max], within 2-4
    arrows = true               # do the card's arrows apply?
    rotation = "card"           # "card" (as the card says), "always" or "never"
    [goal]
    type = "lines"              # lines | areas | connection | numbers
    length = 5
    target = 3
    difficulty = "hard"
    directions = ["horizontal", "vertical"]   # also "diagonal" (down-right) and "antidiagonal"
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from polytable.core import ConfigError

from ._template import MAX_SIDE, Template, TemplateError, parse_template
from .templates import TEMPLATES

__all__ = ["DIRECTION_NAMES", "PRESETS", "Rules", "parse_variant_file", "validate_template", "variant_limits"]

DIRECTION_NAMES = ("horizontal", "vertical", "diagonal", "antidiagonal")
GOALS = ("lines", "areas", "connection", "numbers")
ROTATIONS = ("card", "always", "never")
DIFFICULTIES = ("easy", "hard")
PLAYERS = (2, 4)
"""The player counts a variant may name (smallest, largest)."""
LENGTH = (2, 40)
"""The lines goal's line length (shortest, longest): no line is longer than the largest template side."""
TARGET = (1, 100)
"""The lines goal's target, the lines that win (fewest, most)."""


@dataclass(frozen=True)
class Rules:
    """What a variant asks for; the four presets and custom variant files both give one."""

    name: str
    goal: str
    template: str
    min_players: int = 2
    max_players: int = 4
    arrows: bool = True
    rotation: str = "card"
    length: int = 8
    target: int = 4
    difficulty: str = "easy"
    directions: int = 0b1111
    corner_touch: bool = False
    connect: bool = True

    def rotation_allowed(self, card_rotate: bool) -> bool:
        if self.rotation == "always":
            return True
        if self.rotation == "never":
            return False
        return card_rotate


PRESETS: dict[str, Rules] = {
    "1": Rules("Variant 1: squares in a line", "lines", TEMPLATES["1"], 2, 4, arrows=True),
    "2": Rules("Variant 2: fill the area", "areas", TEMPLATES["2"], 2, 4, arrows=False),
    "3": Rules("Variant 3: black squares", "connection", TEMPLATES["3"], 2, 2, arrows=True),
    "4": Rules("Variant 4: connect the numbers", "numbers", TEMPLATES["4"], 2, 2, arrows=False),
}


def _err(msg: str, code: str = "", params: Mapping[str, object] | None = None) -> ConfigError:
    """A variant file's error: ``msg`` (with its own code and params) after ``variant file:``."""
    inner = ConfigError(msg, code, params)
    return ConfigError(f"variant file: {msg}", "formfinity.variant_file", {"msg": inner})


def _int(data: Mapping[str, Any], key: str, default: int, lo: int, hi: int, where: str = "") -> int:
    value = data.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _err(
            f"{where}{key} must be a whole number from {lo} to {hi}, not {value!r}",
            "formfinity.variant_int",
            {"where": where, "key": key, "lo": lo, "hi": hi, "value": f"{value!r}"},
        )
    return value


def _bool(data: Mapping[str, Any], key: str, default: bool, where: str = "") -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise _err(
            f"{where}{key} must be true or false, not {value!r}",
            "formfinity.variant_bool",
            {"where": where, "key": key, "value": f"{value!r}"},
        )
    return value


def parse_variant_file(text: str) -> Rules:
    """Read a variant file (TOML contents); ConfigError names the key that is wrong."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise _err(f"not valid TOML: {e}", "formfinity.variant_toml", {"why": e}) from None
    known = {"name", "template", "players", "arrows", "rotation", "goal"}
    unknown = set(data) - known
    if unknown:
        raise _err(
            f"unknown keys {', '.join(sorted(unknown))} (known: {', '.join(sorted(known))})",
            "formfinity.variant_unknown_keys",
            {"unknown": ", ".join(sorted(unknown)), "known": ", ".join(sorted(known))},
        )
    goal = data.get("goal")
    if not isinstance(goal, Mapping) or "type" not in goal:
        raise _err(
            "it needs a [goal] table with a type: lines, areas, connection or numbers", "formfinity.variant_no_goal"
        )
    kind = goal["type"]
    if kind not in GOALS:
        raise _err(
            f"goal type must be one of {', '.join(GOALS)}, not {kind!r}",
            "formfinity.variant_goal_type",
            {"goals": ", ".join(GOALS), "kind": f"{kind!r}"},
        )
    name = data.get("name", "Custom variant")
    if not isinstance(name, str) or len(name) > 100:
        raise _err("name must be a short text", "formfinity.name_short_text")
    tpl = data.get("template", "blank")
    if not isinstance(tpl, str):
        raise _err(
            "template must be a shipped template name (1, 2, 3, 4, blank) or the template grid as text",
            "formfinity.variant_template",
        )
    template = TEMPLATES.get(tpl.strip(), tpl)
    default_players = (2, 2) if kind in ("connection",) else (2, 4)
    players = data.get("players", list(default_players))
    if isinstance(players, int) and not isinstance(players, bool):
        players = [players, players]
    if (
        not isinstance(players, list)
        or len(players) != 2
        or not all(isinstance(p, int) and not isinstance(p, bool) for p in players)
        or not PLAYERS[0] <= players[0] <= players[1] <= PLAYERS[1]
    ):
        raise _err(
            f"players must be a count from 2 to 4 or a range such as [2, 4], not {players!r}",
            "formfinity.variant_players",
            {"players": f"{players!r}"},
        )
    if kind == "connection" and players != [2, 2]:
        raise _err("a connection goal is played by exactly 2 players", "formfinity.variant_connection_players")
    rotation = data.get("rotation", "card")
    if rotation not in ROTATIONS:
        raise _err(
            f"rotation must be card, always or never, not {rotation!r}",
            "formfinity.variant_rotation",
            {"rotation": f"{rotation!r}"},
        )
    arrows = _bool(data, "arrows", kind in ("lines", "connection"))
    rules = Rules(name, kind, template, players[0], players[1], arrows=arrows, rotation=rotation)
    params = {"type"}
    w = "[goal] "
    if kind == "lines":
        params |= {"length", "target", "difficulty", "directions"}
        difficulty = goal.get("difficulty", "easy")
        if difficulty not in DIFFICULTIES:
            raise _err(
                f"{w}difficulty must be easy or hard, not {difficulty!r}",
                "formfinity.variant_difficulty",
                {"where": w, "difficulty": f"{difficulty!r}"},
            )
        dirs = goal.get("directions", list(DIRECTION_NAMES))
        if not isinstance(dirs, list) or not dirs or any(d not in DIRECTION_NAMES for d in dirs):
            raise _err(
                f"{w}directions must be a list of {', '.join(DIRECTION_NAMES)}",
                "formfinity.variant_directions",
                {"where": w, "direction_names": ", ".join(DIRECTION_NAMES)},
            )
        mask = sum(1 << DIRECTION_NAMES.index(d) for d in set(dirs))
        rules = replace(
            rules,
            length=_int(goal, "length", 8, *LENGTH, w),
            target=_int(goal, "target", 4, *TARGET, w),
            difficulty=difficulty,
            directions=mask,
        )
    elif kind == "connection":
        params |= {"corner_touch"}
        rules = replace(rules, corner_touch=_bool(goal, "corner_touch", False, w))
    elif kind == "numbers":
        params |= {"connect"}
        rules = replace(rules, connect=_bool(goal, "connect", True, w))
    extra = set(goal) - params
    if extra:
        raise _err(
            f"{w}{', '.join(sorted(extra))} is not a parameter of the {kind} goal",
            "formfinity.variant_goal_parameter",
            {"where": w, "extra": ", ".join(sorted(extra)), "kind": kind},
        )
    return rules


def variant_limits() -> dict[str, Any]:
    """What a variant file may ask for, as data (the template designer draws its fields from it): the
    player counts, the largest template side, the goals, rotations, difficulties and line directions, and
    the ranges of the lines goal's length and target."""
    return {
        "players": {"min": PLAYERS[0], "max": PLAYERS[1]},
        "side": {"max": MAX_SIDE},
        "goals": list(GOALS),
        "rotations": list(ROTATIONS),
        "difficulties": list(DIFFICULTIES),
        "directions": list(DIRECTION_NAMES),
        "length": {"min": LENGTH[0], "max": LENGTH[1]},
        "target": {"min": TARGET[0], "max": TARGET[1]},
    }


def validate_template(t: Template, rules: Rules) -> None:
    """Refuse a template that does not suit the goal; the message names the line and column."""
    goal = rules.goal
    if goal != "numbers" and t.numbers:
        n, cell = t.numbers[0]
        raise TemplateError(
            f"{t.at(cell)}: the number {n} is only used when the goal is to connect numbers",
            "formfinity.variant_numbers_unused",
            {"at": t.at_part(cell), "n": n},
        )
    stars = t.cells("star")
    if goal != "connection" and stars:
        raise TemplateError(
            f"{t.at(stars[0])}: start squares (*) are only used in the black squares variant",
            "formfinity.variant_starts_unused",
            {"at": t.at_part(stars[0])},
        )
    if goal == "areas":
        if not t.areas:
            raise TemplateError(
                "line 1, column 1: this variant needs areas; name each area's squares (A, B, ...)",
                "formfinity.variant_needs_areas",
            )
        in_area = {c for _, cells in t.areas for c in cells}
        for cell in t.cells("free"):
            if cell not in in_area:
                raise TemplateError(
                    f"{t.at(cell)}: in this variant every free square belongs to an area (A, B, ...)",
                    "formfinity.variant_area_missing",
                    {"at": t.at_part(cell)},
                )
        for name, cells in t.areas:
            todo, seen = [cells[0]], {cells[0]}
            cellset = set(cells)
            while todo:
                x, y = todo.pop()
                for nb in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
                    if nb in cellset and nb not in seen:
                        seen.add(nb)
                        todo.append(nb)
            stray = [c for c in cells if c not in seen]
            if stray:
                raise TemplateError(
                    f"{t.at(stray[0])}: this square of area {name} does not touch the rest of the area",
                    "formfinity.variant_area_split",
                    {"at": t.at_part(stray[0]), "name": name},
                )
    elif t.areas:
        name, cells = t.areas[0]
        raise TemplateError(
            f"{t.at(cells[0])}: area names such as {name} are only used when the goal is areas",
            "formfinity.variant_areas_unused",
            {"at": t.at_part(cells[0]), "name": name},
        )
    if goal == "connection":
        if len(stars) != 2:
            where = t.at(stars[2]) if len(stars) > 2 else "line 1, column 1"
            raise TemplateError(
                f"{where}: this variant needs exactly two start squares (*), found {len(stars)}",
                "formfinity.variant_two_starts",
                {"where": where, "stars": len(stars)},
            )
        if stars[0][1] == stars[1][1]:
            raise TemplateError(
                f"{t.at(stars[1])}: the two start squares (*) must be on different rows",
                "formfinity.variant_starts_same_row",
                {"at": t.at_part(stars[1])},
            )
    if goal == "numbers":
        if not t.numbers:
            raise TemplateError(
                "line 1, column 1: this variant needs numbered squares 1, 2, 3, ...",
                "formfinity.variant_needs_numbers",
            )
        for i, (n, cell) in enumerate(t.numbers, 1):
            if n != i:
                raise TemplateError(
                    f"{t.at(cell)}: the numbers must run 1, 2, 3, ... without gaps; {i} is missing",
                    "formfinity.variant_number_gap",
                    {"at": t.at_part(cell), "i": i},
                )
    if goal == "lines":
        free = set(t.cells("free"))
        w = rules.length
        steps = ((1, 0), (0, 1), (1, 1), (-1, 1))
        ok = any(
            all((x + dx * i, y + dy * i) in free for i in range(w))
            for k, (dx, dy) in enumerate(steps)
            if rules.directions >> k & 1
            for x, y in free
        )
        if not ok:
            raise TemplateError(
                f"line 1, column 1: no line of {w} free squares fits on this template",
                "formfinity.variant_no_line_fits",
                {"length": w},
            )


def load_template(text: str, rules: Rules) -> Template:
    """Parse and check a template for ``rules``; errors read ``template line 3, column 5: ...``."""
    try:
        t = parse_template(text)
        validate_template(t, rules)
    except TemplateError as e:
        raise TemplateError(f"template {e}", "formfinity.template_error", {"why": e}) from None
    return t
