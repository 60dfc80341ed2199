"""``polytable rules GAME``: the How-to-play text of a game in the terminal, in English or Dutch.

Why: people playing in the terminal (or at a table with paper) need the rules as much as web players. The
text is the web app's How-to-play page (``web/static/i18n/<lang>.json``, keys ``rules.<game>.*``), so the
two never disagree; both are written from the rules traces in ``docs/rules/``. Sections come in the order
of the file: a key ``rules.<game>.<section>`` is a heading, ``rules.<game>.<section>.<n>`` its items.
"""

from __future__ import annotations

import json
import re
import textwrap
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated

import typer

from ..core import all_games

__all__ = ["register", "rules_pages", "rules_text"]

I18N = Path(__file__).resolve().parent.parent / "web" / "static" / "i18n"
LANGUAGES = ("en", "nl")


def _keys(lang: str) -> dict[str, str]:
    return json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


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
    g = f"rules.{pages[game]}"
    out = [
        f"{keys['rules.title']}: {keys[g + '.name']}",
        "",
        *textwrap.wrap(keys[g + ".goal"], width, break_on_hyphens=False),
    ]
    heading = re.compile(re.escape(g) + r"\.(\w+)$")
    for key, text in keys.items():
        m = heading.match(key)
        if not m or f"{key}.1" not in keys:
            continue
        out += ["", text.upper()]
        n = 1
        while f"{key}.{n}" in keys:
            out += textwrap.wrap(
                keys[f"{key}.{n}"], width, initial_indent="- ", subsequent_indent="  ", break_on_hyphens=False
            )
            n += 1
    return "\n".join(out)


def register(app: typer.Typer) -> None:
    @app.command("rules")
    def rules_cmd(
        game: Annotated[str, typer.Argument(metavar="GAME", help="A game id (polytable games lists them).")],
        lang: Annotated[str, typer.Option("--lang", help="Language: en or nl.")] = "en",
    ) -> None:
        """How to play GAME: the rules in short, as on the web app's How-to-play page."""
        try:
            typer.echo(rules_text(game.lower(), lang.lower()))
        except ValueError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
