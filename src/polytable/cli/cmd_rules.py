"""``polytable rules GAME``: the How-to-play text of a game in the terminal, in English or Dutch.

Why: people playing in the terminal (or at a table with paper) need the rules as much as web players. The
text is the web app's How-to-play page (``web/static/i18n/<lang>.json``, keys ``rules.<game>.*``), so the
two never disagree; both are written from the rules traces in ``docs/rules/``. Sections come in the order
of the file: a key ``rules.<game>.<section>`` is a heading, ``rules.<game>.<section>.<n>`` its items. A rule
that is polytable's reading rather than the rulebook's words (flagged in ``i18n/readings.json``) is followed
by a line naming its notes in ``docs/rules/``; the page ends with the readings' kinds and the game's words
(``i18n/glossary-<lang>.json``), as on the web page.
"""

from __future__ import annotations

import json
import re
import shutil
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any

import typer

from ..core import all_games

__all__ = ["glossary", "readings", "register", "rules_pages", "rules_text", "terminal_width"]

I18N = Path(__file__).resolve().parent.parent / "web" / "static" / "i18n"
LANGUAGES = ("en", "nl")


def _keys(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def readings() -> dict[str, Any]:
    """``i18n/readings.json``: page -> ``{"notes": file, "items": {"section.n": {note: kind}}}``."""
    data = json.loads((I18N / "readings.json").read_text(encoding="utf-8"))
    return {page: v for page, v in data.items() if not page.startswith("_")}


def glossary(lang: str) -> dict[str, list[dict[str, Any]]]:
    """``i18n/glossary-<lang>.json``: ``all`` and each game id -> its terms (term, means, not)."""
    return json.loads((I18N / f"glossary-{lang}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def rules_pages(keys: Mapping[str, str] | None = None) -> dict[str, str]:
    """Game id -> the key of its How-to-play page, for every listed game whose page the translations
    (``keys``; default: English) hold. Read from what each game declares (``GameSpec.rules_page``), so a new
    game needs no edit here."""
    keys = _keys("en") if keys is None else keys
    out = {}
    for game in all_games():
        page = game.spec.rules_page or game.spec.id
        if game.spec.listed and f"rules.{page}.name" in keys:
            out[game.spec.id] = page
    return out


def rules_text(game: str, lang: str = "en", width: int = 100) -> str:
    """The rules of ``game`` (a game id) as plain text: title, goal, then each section and its items."""
    pages = rules_pages()
    game = game.strip().lower().replace("_", "-")
    if game not in pages:
        raise ValueError(f"no rules for {game!r}; choose one of {', '.join(pages)}")
    if lang not in LANGUAGES:
        raise ValueError(f"no rules in {lang!r}; choose one of {', '.join(LANGUAGES)}")
    keys = _keys(lang)
    page = pages[game]
    g = f"rules.{page}"
    flags = readings().get(page, {"notes": "", "items": {}})

    def wrap(text: str, first: str = "", rest: str = "") -> list[str]:
        return textwrap.wrap(
            text, width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False, break_long_words=False
        )

    out = [f"{keys['rules.title']}: {keys[g + '.name']}", "", *wrap(keys[g + ".goal"])]
    heading = re.compile(re.escape(g) + r"\.(\w+)$")
    kinds: dict[str, None] = {}
    for key, text in keys.items():
        m = heading.match(key)
        if not m or f"{key}.1" not in keys:
            continue
        out += ["", text.upper()]
        n = 1
        while f"{key}.{n}" in keys:
            out += wrap(keys[f"{key}.{n}"], "- ", "  ")
            notes = flags["items"].get(f"{m.group(1)}.{n}", {})
            if notes:
                kinds.update(dict.fromkeys(notes.values()))
                said = keys["rules.reading.note"].format(notes=", ".join(notes), file=flags["notes"])
                out += wrap(f"[{keys['rules.reading']}: {said}]", "  ", "  ")
            n += 1
    if kinds:
        out += ["", keys["rules.readings"].upper(), *wrap(keys["rules.readings.intro"].format(file=flags["notes"]))]
        out += [line for kind in kinds for line in wrap(keys[f"rules.reading.{kind}"], "- ", "  ")]
    words = glossary(lang).get(game, [])
    if words:
        out += ["", keys["rules.words"].upper()]
        out += [line for w in words for line in wrap(f"{w['term']}: {w['means']}", "- ", "  ")]
    return "\n".join(out)


def terminal_width() -> int:
    """The width to wrap at: the terminal's (``COLUMNS`` where set; 80 when unknown), at most 100 so lines
    stay readable. Wrapping wider than the terminal would let it cut words in the middle."""
    return max(40, min(100, shutil.get_terminal_size((80, 24)).columns))


def register(app: typer.Typer) -> None:
    @app.command("rules")
    def rules_cmd(
        game: Annotated[str, typer.Argument(metavar="GAME", help="A game id (polytable games lists them).")],
        lang: Annotated[str, typer.Option("--lang", help="Language: en or nl.")] = "en",
    ) -> None:
        """How to play GAME: the rules in short, as on the web app's How-to-play page."""
        try:
            typer.echo(rules_text(game.lower(), lang.lower(), terminal_width()))
        except ValueError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
