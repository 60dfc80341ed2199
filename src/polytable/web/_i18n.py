"""Where the web app's translations of server-made text come from, and the check that none is missing.

Why this exists: the client translates its own strings, but three kinds of text are made by the server.

* **Errors of the server itself** carry a stable ``reason`` (+ ``params``); the client shows
  ``error.<reason>`` from its translation files (:data:`ERROR_REASONS` lists them all).
* **Game specs** (names, summaries, option labels, help and choices) are shown through keys derived from
  the game id and option name (:func:`spec_keys`): ``game.<id>.name``, ``option.<id>.<opt>.help`` ...;
  the AIs a seat can be given through ``ai.<name>`` (:func:`ai_keys`).
* **Engine messages** (``IllegalActionError``, ``ConfigError`` ... raised by the rules). One with a stable
  ``code`` reaches the client with the reason ``engine.<code>`` and its ``params`` and is shown from
  ``error.engine.<code>`` (:func:`engine_codes` lists the codes). One without a code yet is an English
  f-string: :func:`engine_templates` reads them from the source with ``ast`` (an f-string becomes a
  template with ``{placeholders}``), ``static/i18n/engine.<lang>.json`` maps each English template to a
  translated one, and the client matches the message against them (see ``static/i18n.js``).

Anything without a translation is shown in English (the spec's own text, the error's message).
``python -m polytable.web._i18n`` prints what is missing; ``tests/web/test_i18n_server.py`` requires
the shipped games to be complete and only reports what a new game still lacks.
"""

from __future__ import annotations

import ast
import functools
import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from ..ai import bot_names
from ..core import all_games

__all__ = [
    "ENGINE_SOURCES",
    "ERROR_REASONS",
    "I18N",
    "ai_keys",
    "engine_codes",
    "engine_templates",
    "load",
    "missing",
    "spec_keys",
    "translate_engine",
]

PACKAGE = Path(__file__).resolve().parent.parent
I18N = Path(__file__).parent / "static" / "i18n"
LANGUAGES = ("en", "nl")

ERROR_REASONS = (
    # _http.py, _ws.py, _limits.py
    "too_many_rooms",
    "room_unsaved",
    "seat_number",
    "record_not_over",
    "no_printable",
    "paper",
    "print_variant",
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
    "spectators_full",
    "my_rooms",
    "bad_text",
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
    "not_resumable",
    "no_game",
    "unknown_game",
    "bad_mode",
    "no_companion",
    "bad_players",
    "bad_options",
    "bad_seed",
    "seat_count",
    "seat_object",
    "seat_kind",
    "no_ai",
    "no_code",
    "rematch_not_over",
    "rematch_not_seated",
    # _clock.py
    "bad_time_control",
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
    # _designer.py
    "variant_text",
    "variant_long",
    "variant_goal",
    # _balance.py
    "balance_games",
    "balance_busy",
    "balance_unknown",
)
"""Every ``reason`` the server gives its own errors (``engine`` means: translate the message by pattern)."""

ENGINE_SOURCES = ("games", "core/_spec.py", "core/_protocol.py", "core/_registry.py", "match/_match.py", "printables")
"""Where the rules' messages are raised (relative to the package); web/_companion.py relays a few too."""

_ERRORS = frozenset({"IllegalActionError", "ConfigError", "PolytableError", "ValueError", "TemplateError", "_err"})
"""Calls whose first argument is a message for people (``_err`` wraps FORMFINITY's variant file errors)."""
_REASONS = frozenset({"placement_error", "reason", "_wrong_phase"})
"""Functions that return a reason sentence a caller puts into an error message."""


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
    """``ai.<name>`` for every AI a room can seat (the English label: the name, capitalised)."""
    names = {n for g in all_games() if g.spec.listed for n in bot_names(g.spec.id)}
    return {f"ai.{n}": n.capitalize() for n in sorted(names)}


def _placeholder(node: ast.expr) -> str:
    name = re.sub(r"\W+", "_", ast.unparse(node)).strip("_")
    return name[:40] or "x"


def _alternatives(node: ast.expr) -> list[str] | None:
    """The texts an expression can be, as templates; None if it is not text known from the source."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.JoinedStr):
        out = [""]
        for v in node.values:
            if isinstance(v, ast.Constant):
                options = [str(v.value)]
            else:
                assert isinstance(v, ast.FormattedValue)
                inner = v.value
                if isinstance(inner, ast.IfExp):
                    body, orelse = _alternatives(inner.body), _alternatives(inner.orelse)
                    both = body is not None and orelse is not None
                    options = [*(body or []), *(orelse or [])] if both else ["{" + _placeholder(inner) + "}"]
                elif isinstance(inner, ast.Subscript) and isinstance(inner.value, ast.Tuple):
                    items = [e.value for e in inner.value.elts if isinstance(e, ast.Constant)]
                    ok = len(items) == len(inner.value.elts) and all(isinstance(i, str) for i in items)
                    options = [str(i) for i in items] if ok else ["{" + _placeholder(inner) + "}"]
                else:
                    options = ["{" + _placeholder(inner) + "}"]
            out = [a + b for a in out for b in options]
        return out
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _alternatives(node.left), _alternatives(node.right)
        if left is None or right is None:
            return None
        return [a + b for a in left for b in right]
    if isinstance(node, ast.IfExp):
        body, orelse = _alternatives(node.body), _alternatives(node.orelse)
        if body is None or orelse is None:
            return None
        return [*body, *orelse]
    return None


def _sources(root: Path) -> Iterator[Path]:
    for rel in ENGINE_SOURCES:
        path = root / rel
        yield from sorted(path.rglob("*.py")) if path.is_dir() else [path]
    yield root / "web" / "_companion.py"
    yield root / "match" / "_companion.py"


def engine_templates(root: Path = PACKAGE) -> dict[str, str]:
    """Every message template the rules can raise, mapped to where it is (``path:line``).

    Found in the arguments of the error calls of :data:`_ERRORS` and the returns of the reason functions
    of :data:`_REASONS`; a message made at run time from another message (``str(e)``) is not a template:
    the message it relays is one. Templates that are nothing but placeholders are left out (they would
    match anything).
    """
    out: dict[str, str] = {}
    for path in _sources(root):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found: list[tuple[ast.expr, int]] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and node.args:
                f = node.func
                name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
                if name in _ERRORS:
                    found.append((node.args[0], node.lineno))
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name in _REASONS:
                for sub in ast.walk(node):
                    if isinstance(sub, ast.Return) and sub.value is not None:
                        found.append((sub.value, sub.lineno))
        where = path.relative_to(root).as_posix()
        for expr, line in found:
            for text in _alternatives(expr) or []:
                if re.sub(r"\{\w+\}", "", text).strip(" :;,.") and text not in out:
                    out[text] = f"{where}:{line}"
    return out


def engine_codes(root: Path = PACKAGE) -> dict[str, str]:
    """Every stable code the rules give an error (``IllegalActionError(message, "code", params)``), mapped
    to where it is raised (``path:line``)."""
    out: dict[str, str] = {}
    for path in _sources(root):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            if name not in _ERRORS:
                continue
            args = [*node.args[1:2], *(k.value for k in node.keywords if k.arg == "code")]
            for a in args:
                if isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value:
                    out.setdefault(a.value, f"{path.relative_to(root).as_posix()}:{node.lineno}")
    return out


def load(name: str) -> dict[str, object]:
    """A translation file of ``static/i18n`` by name (``en``, ``nl``, ``engine.nl``)."""
    data = json.loads((I18N / f"{name}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@functools.lru_cache(maxsize=4)
def _compile(table: tuple[tuple[str, str], ...]) -> list[tuple[re.Pattern[str], list[str], str]]:
    out = []
    for src, translated in table:
        names: list[str] = []
        parts = []
        for m in re.finditer(r"\{(\w+)\}|[^{]+|\{", src):
            if m.group(1):
                names.append(m.group(1))
                parts.append(r"([\s\S]*?)")
            else:
                parts.append(re.escape(m.group(0)))
        weight = len(re.sub(r"\{\w+\}", "", src))
        out.append((weight, re.compile("^" + "".join(parts) + "$"), names, translated))
    out.sort(key=lambda x: -x[0])
    return [(r, n, t) for _, r, n, t in out]


def translate_engine(message: str, table: dict[str, object]) -> str:
    """``message`` translated with an ``engine.<lang>.json`` table, as ``static/i18n.js`` does it.

    The client is what players use; this twin exists so the tests can check every template against the
    whole table (a pattern that swallows another's messages shows up here).
    """
    patterns = table.get("patterns", {})
    words = table.get("words", {})
    assert isinstance(patterns, dict) and isinstance(words, dict)
    compiled = _compile(tuple((str(k), str(v)) for k, v in patterns.items()))
    word_res = [
        (re.compile(r"(^|[^\w'])" + re.escape(en) + r"(?!\w)"), "\\g<1>" + str(nl).replace("\\", "\\\\"))
        for en, nl in sorted(words.items(), key=lambda kv: -len(kv[0]))
    ]

    def fill_words(text: str) -> str:
        for rx, to in word_res:
            text = rx.sub(to, text)
        return text

    def fill(template: str, params: dict[str, str]) -> str:
        parts = re.split(r"\{(\w+)\}", template)  # odd items are placeholder names
        return "".join(params.get(p, "{" + p + "}") if i % 2 else p for i, p in enumerate(parts))

    def match(text: str, depth: int) -> str | None:
        for rx, names, out in compiled:
            m = rx.match(text)
            upper = False
            if m is None and text[:1].isupper():
                m = rx.match(text[0].lower() + text[1:])
                upper = m is not None
            if m is None:
                continue
            params: dict[str, str] = {}
            for i, name in enumerate(names):
                if name not in params:
                    part = m.group(i + 1)
                    inner = match(part, depth + 1) if depth < 2 and part else None
                    params[name] = inner if inner is not None else fill_words(part)
            done = fill(out, params)
            return done[0].upper() + done[1:] if upper and done else done
        return None

    return match(message, 0) or message


def missing() -> dict[str, list[str]]:
    """What each translation file lacks: spec keys and error reasons per language, engine templates."""
    need = [
        *spec_keys(),
        *ai_keys(),
        *(f"error.{r}" for r in ERROR_REASONS),
        *(f"error.engine.{c}" for c in engine_codes()),
    ]
    out = {lang: [k for k in need if k not in load(lang)] for lang in LANGUAGES}
    patterns = load("engine.nl").get("patterns", {})
    assert isinstance(patterns, dict)
    out["engine.nl"] = [t for t in engine_templates() if t not in patterns]
    return out


def main() -> int:
    """Print the missing keys (the English text of spec keys is the spec's own, ready to paste)."""
    english = {**spec_keys(), **ai_keys()}
    gaps = missing()
    for lang, keys in gaps.items():
        for k in keys:
            print(f"{lang}: {json.dumps(k, ensure_ascii=False)}: {json.dumps(english.get(k, ''), ensure_ascii=False)}")
    return 1 if any(gaps.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
