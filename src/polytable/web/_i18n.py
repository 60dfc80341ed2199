"""Where the web app's translations of server-made text come from, and the check that none is missing.

Why this exists: the client translates its own strings, but three kinds of text are made by the server.

* **Errors of the server itself** carry a stable ``reason`` (+ ``params``); the client shows
  ``error.<reason>`` from its translation files (:data:`ERROR_REASONS` lists them all).
* **Game specs** (names, summaries, option labels, help and choices) are shown through keys derived from
  the game id and option name (:func:`spec_keys`): ``game.<id>.name``, ``option.<id>.<opt>.help`` ...;
  the AIs a seat can be given through ``ai.<name>`` (:func:`ai_keys`).
* **Engine messages** (``IllegalActionError``, ``ConfigError`` ... raised by the rules). Each has a stable
  ``code`` and ``params``; it reaches the client with the reason ``engine.<code>`` and is shown from
  ``error.engine.<code>`` with the params filled in. A param may itself be a coded part (a word such as
  ``top``, a relayed reason: ``{"code", "params", "message"}``), translated the same way. The English
  file holds every code's English template; :func:`engine_messages` reads them from the source with
  ``ast`` (the f-string's parts become the ``{param}`` names), so a test keeps the two equal.

Anything without a translation is shown in English (the spec's own text, the error's message).
``python -m polytable.web._i18n`` prints what is missing; ``tests/web/test_i18n_server.py`` requires
the shipped games to be complete and only reports what a new game still lacks.
"""

from __future__ import annotations

import ast
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from ..ai import bot_names
from ..core import all_games

__all__ = [
    "CODE",
    "ENGINE_SOURCES",
    "ENGINE_WORDS",
    "ERROR_REASONS",
    "I18N",
    "ai_keys",
    "engine_codes",
    "engine_messages",
    "engine_raises",
    "load",
    "missing",
    "spec_keys",
    "translate_error",
]

PACKAGE = Path(__file__).resolve().parent.parent
I18N = Path(__file__).parent / "static" / "i18n"
LANGUAGES = ("en", "nl")

ERROR_REASONS = (
    # _http.py, _ws.py, _limits.py, extras/quadefy.py
    "too_many_rooms",
    "room_unsaved",
    "seat_number",
    "record_not_over",
    "companion_record",
    "no_printable",
    "no_table_ca",
    "paper",
    "no_tables",
    "no_pattern",
    "database",
    "no_room",
    "throttled",
    "too_large",
    "not_json",
    "not_object",
    "no_type",
    "hello_twice",
    "bad_tokens",
    "full",
    "bad_token",
    "no_hello",
    "no_version",
    "not_your_seat",
    "preview_seat",
    "unknown_type",
    "internal",
    "too_big",
    "too_deep",
    "not_unicode",
    "player_count",
    "too_many_options",
    "hello_timeout",
    "binary",
    "spectators_full",
    "my_rooms",
    "bad_text",
    "no_api",
    "bad_method",
    # extras/quadefy.py
    "no_pattern_name",
    "puzzle_blocks",
    "puzzle_block",
    # _base.py
    "name_text",
    "name_long",
    # _rooms.py
    "stale",
    "stale_undo",
    "undo_unsaved",
    "companion_only",
    "no_seat",
    "game_over",
    "move_unsaved",
    "storage_paused",
    "move_conflict",
    "undo_conflict",
    "vanished",
    "ai_failed",
    "ai_illegal",
    "seat_closed",
    "seat_taken",
    "seat_unsaved",
    "not_over",
    "no_position",
    # _hub.py
    "damaged",
    "no_game",
    "unknown_game",
    "bad_mode",
    "no_companion",
    "bad_players",
    "bad_options",
    "bad_seed",
    "seat_count",
    "seats_list",
    "companion_clock",
    "seat_object",
    "seat_kind",
    "no_ai",
    "no_code",
    "rematch_not_over",
    "rematch_not_seated",
    # _clock.py
    "bad_time_control",
    "bad_time_kind",
    "bad_on_timeout",
    "bad_time_amount",
    "bad_time_range",
    # _companion.py
    "not_companion",
    "stale_deal",
    "undeal_unsaved",
    "deal_unsaved",
    "bad_card",
    "bad_card_text",
    # _preview.py
    "not_your_turn",
    "hint_seat",
    "hint_shared",
    # extras/formfinity.py (the designer and its balance check)
    "variant_text",
    "variant_long",
    "variant_goal",
    "balance_games",
    "balance_busy",
    "balance_unknown",
)
"""Every ``reason`` the server gives its own errors (``engine.<code>`` is an engine message, ``engine`` one
without a code, shown in English)."""

ENGINE_SOURCES = (
    "games",
    "core/_spec.py",
    "core/_protocol.py",
    "core/_said.py",
    "core/_registry.py",
    "core/_util.py",
    "match/_match.py",
    "match/_table.py",
    "match/_companion.py",
    "printables",
    "web/_companion.py",
)
"""Where the rules' messages are raised (relative to the package)."""

_ERRORS = frozenset(
    {"IllegalActionError", "ConfigError", "StateFormatError", "PolytableError", "TemplateError", "_err", "_no"}
)
"""Calls ``(message, code, params)`` whose message is for people (``_err`` wraps FORMFINITY's variant file
errors, ``_no`` Qwirkle Cubes' placement reasons, which it capitalises)."""

ENGINE_WORDS = (
    *("top", "right", "bottom", "left", "row", "column", "mirroring", "trimming"),
    *("points", "lines", "numbers"),  # the measures a result is decided by (core._said.decided)
)
"""The words a message names as parts (``core.word``): ``word.<word>``; ``core.joined`` adds ``word.and``
and ``word.or`` (``{a} and {b}``)."""

CODE = re.compile(r"[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)*")
"""What a code looks like: lower-case words joined by dots, the game's package name first (``forma.``);
codes shared by every game have no game prefix."""


def spec_keys() -> dict[str, str]:
    """The translation keys of every offered game's spec with their English text (from the spec itself)."""
    out: dict[str, str] = {}
    for game in all_games():
        spec = game.spec
        if not spec.listed:
            continue
        out[f"game.{spec.id}.name"] = spec.name
        out[f"game.{spec.id}.summary"] = spec.summary
        for opt in spec.options:
            base = f"option.{spec.id}.{opt.name}"
            out[f"{base}.label"] = opt.name.replace("_", " ")
            out[f"{base}.help"] = opt.help
            for choice in opt.choices:
                out[f"{base}.choice.{choice}"] = choice
    return out


def ai_keys() -> dict[str, str]:
    """``ai.<name>`` for every AI a room can seat (the English label: the name, capitalised) and
    ``ai.<name>.named``, the AI as a player is called ("Greedy AI"; in Dutch the adjective is inflected,
    "Gretige AI", so the name is a sentence part of its own)."""
    names = {n for g in all_games() if g.spec.listed for n in bot_names(g.spec.id)}
    out = {f"ai.{n}": n.capitalize() for n in sorted(names)}
    out.update({f"ai.{n}.named": f"{n.capitalize()} AI" for n in sorted(names)})
    return out


def _name(node: ast.expr | None) -> str:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return ""


def _param_for(node: ast.FormattedValue, params: dict[str, ast.expr], used: set[str]) -> tuple[str, str] | None:
    """The param an f-string part shows, and the text around it (``Player {player}``), or None."""
    inner = ast.unparse(node.value)
    for key, value in params.items():
        src = ast.unparse(value)
        if src == inner and node.conversion == -1 and node.format_spec is None:
            return key, "{" + key + "}"
        if isinstance(value, ast.JoinedStr) and len(value.values) == 1:  # f"{x!r}" shows as {x!r} does
            part = value.values[0]
            if (
                isinstance(part, ast.FormattedValue)
                and ast.unparse(part.value) == inner
                and part.conversion == node.conversion
                and ast.dump(part.format_spec or ast.Constant("")) == ast.dump(node.format_spec or ast.Constant(""))
            ):
                return key, "{" + key + "}"
        is_repr = isinstance(value, ast.Call) and _name(value.func) == "repr" and value.args
        if is_repr and node.conversion == ord("r") and ast.unparse(value.args[0]) == inner:  # type: ignore[attr-defined]
            return key, "{" + key + "}"
        if src == inner and node.conversion == ord("r") and node.format_spec is None:
            return key, "'{" + key + "}'"  # a word shown with repr(): in quotes
        is_part = isinstance(value, ast.Call) and _name(value.func) in ("word", "phrase") and value.args
        if is_part and ast.unparse(value.args[0]) == inner:  # type: ignore[attr-defined]
            return key, "{" + key + "}"
        if src == inner.replace(".at(", ".at_part(") and ".at(" in inner:
            return key, "{" + key + "}"
    if isinstance(node.value, ast.Call) and _name(node.value.func) == "player_name":
        shown = node.value.args[0]
        for key, value in params.items():  # a seat (0-based) the interfaces show by name (core._said)
            if key.startswith("seat") and ast.unparse(value) == ast.unparse(shown):
                return key, "{" + key + "}"
        one_up = ast.unparse(ast.BinOp(shown, ast.Add(), ast.Constant(1)))
        for key, value in params.items():
            if ast.unparse(value) == one_up:
                return key, "Player {" + key + "}"
        for key in params:
            if key.startswith("player") and key not in used:
                return key, "Player {" + key + "}"
    if isinstance(node.value, ast.Name) and (node.value.id in params or "**" in params):
        return node.value.id, "{" + node.value.id + "}"  # a param of the same name (perhaps from **spread)
    return None


def _template(message: ast.expr, params: dict[str, ast.expr]) -> str | None:
    """The English template of a message expression (``{param}`` for each part), or None if it is not
    text known from the source."""
    if isinstance(message, ast.Constant) and isinstance(message.value, str):
        return message.value
    if isinstance(message, ast.BinOp) and isinstance(message.op, ast.Add):
        left, right = _template(message.left, params), _template(message.right, params)
        return None if left is None or right is None else left + right
    if not isinstance(message, ast.JoinedStr):
        return None
    out, used = "", set[str]()
    for part in message.values:
        if isinstance(part, ast.Constant):
            out += str(part.value)
            continue
        assert isinstance(part, ast.FormattedValue)
        found = _param_for(part, params, used)
        if found is None:
            return None
        used.add(found[0])
        out += found[1]
    return out


def _sources(root: Path) -> Iterator[Path]:
    for rel in ENGINE_SOURCES:
        path = root / rel
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]


def engine_raises(root: Path = PACKAGE) -> Iterator[tuple[str, str | None, str]]:
    """Every coded engine message in the source: ``(code, English template or None, "path:line")``.

    Found in the calls of :data:`_ERRORS` (message, code, params) and :func:`~polytable.core.phrase`
    (code, message, params); the template is None when the message is not text the source spells out.
    """
    for path in _sources(root):
        where = path.relative_to(root).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            name = _name(node.func)
            if name in _ERRORS and len(node.args) >= 2:
                message, code, params = node.args[0], node.args[1], node.args[2:3]
            elif name == "phrase" and len(node.args) >= 2:
                code, message, params = node.args[0], node.args[1], node.args[2:3]
            else:
                continue
            if not (isinstance(code, ast.Constant) and isinstance(code.value, str)):
                continue
            given: dict[str, ast.expr] = {}
            if params and isinstance(params[0], ast.Dict):
                pairs = zip(params[0].keys, params[0].values, strict=True)
                given = {
                    str(k.value) if k is not None else "**": v
                    for k, v in pairs
                    if not isinstance(k, ast.expr) or isinstance(k, ast.Constant)
                }
            text = _template(message, given)
            if text is not None and name == "_no":
                text = text[:1].upper() + text[1:]
            yield code.value, text, f"{where}:{node.lineno}"


def engine_messages(root: Path = PACKAGE) -> dict[str, str]:
    """Every engine code with its English template (the words :data:`ENGINE_WORDS` included)."""
    out = {f"word.{w}": w for w in ENGINE_WORDS}
    out.update({"word.and": "{a} and {b}", "word.or": "{a} or {b}"})
    for code, text, _ in engine_raises(root):
        if text is not None:
            out.setdefault(code, text)
    return out


def engine_codes(root: Path = PACKAGE) -> dict[str, str]:
    """Every stable code the rules give an error, mapped to where it is first raised (``path:line``)."""
    out: dict[str, str] = {}
    for code, _, where in engine_raises(root):
        out.setdefault(code, where)
    return out


def load(name: str) -> dict[str, object]:
    """A translation file of ``static/i18n`` by name (``en``, ``nl``)."""
    data = json.loads((I18N / f"{name}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def translate_error(reason: str, params: dict[str, object], message: str, table: dict[str, object]) -> str:
    """An engine error as the client shows it (``static/i18n.js`` ``tError``): ``error.<reason>`` of
    ``table`` with ``params`` filled in (a coded part shown the same way), else the English ``message``
    as it is (never an English template with translated parts)."""
    text = table.get(f"error.{reason}")
    if not isinstance(text, str):
        return message

    def show(value: object) -> str:
        if isinstance(value, dict) and "code" in value:
            inner = value.get("params")
            return translate_error(
                f"engine.{value['code']}", inner if isinstance(inner, dict) else {}, str(value.get("message")), table
            )
        return str(value)

    return re.sub(r"\{(\w+)\}", lambda m: show(params[m.group(1)]) if m.group(1) in params else m.group(0), text)


def missing() -> dict[str, list[str]]:
    """What each translation file lacks: spec keys, error reasons and engine codes per language."""
    need = [
        *spec_keys(),
        *ai_keys(),
        *(f"error.{r}" for r in ERROR_REASONS),
        *(f"error.engine.{c}" for c in {**engine_messages(), **engine_codes()}),
    ]
    return {lang: [k for k in need if k not in load(lang)] for lang in LANGUAGES}


def main() -> int:
    """Print the missing keys (the English text of spec keys is the spec's own, ready to paste)."""
    english = {**spec_keys(), **ai_keys(), **{f"error.engine.{c}": t for c, t in engine_messages().items()}}
    gaps = missing()
    for lang, keys in gaps.items():
        for k in keys:
            print(f"{lang}: {json.dumps(k, ensure_ascii=False)}: {json.dumps(english.get(k, ''), ensure_ascii=False)}")
    return 1 if any(gaps.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
