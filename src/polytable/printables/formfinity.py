"""FORMFINITY printables: templates to draw on and sheets of cards.

* ``polytable print formfinity --variant 1|2|3|4|blank|FILE [--paper a4|letter] -o out.pdf``: the template
  of a variant (or any template file, or a custom variant file's template), with column letters and row
  numbers matching the terminal notation, black squares, start squares, numbers, thick borders between
  areas, and the variant's rules in short under it.
* ``polytable print formfinity-cards --count N [--option seed=S] -o cards.pdf``: N cards from the
  generator (or ``--option deck=FILE``), 12 a page, with the shape, arrows on the entry edges, the count
  and the rotation symbol, as the app shows them. With ``--qr`` the deck is printed as QRious cards
  (faces with a QR code and the card's number only; see :mod:`._formfinity_qr`).
* :func:`print_config_template`: the template of a game's own configuration (a companion room's sheet).
"""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from typing import Any

from ..core import Config, ConfigError, get_game
from ..games.formfinity import SHAPES, Card, Setup, deal, parse_template, setup_for
from ._common import new_canvas
from ._formfinity_qr import DEFAULT_BASE_URL, print_qr_deck

__all__ = ["PRINTABLES", "print_cards", "print_config_template", "print_template"]

_RULES = {
    "lines": "Place each element as the card shows. Claim every line of {n} drawn squares (any colours; across, "
    "down or diagonal) that you complete. {mode} First to {t} lines wins.",
    "areas": "Every element goes wholly inside the area being filled (arrows do not apply). The area is finished "
    "when full or when every player in turn could place nothing. 1 point per square of your colour. "
    "*The player about to move chooses the area.",
    "connection": "Player 1 builds from the lower black square, player 2 from the upper one. Each element touches "
    "your own drawing along an edge and never touches the other player's, not even at a corner. First to "
    "connect both black squares wins. *No element may leave the other player without a way to their goal; if "
    "nobody can place any more, whoever needs fewer squares to connect wins.",
    "numbers": "Claim the numbers in order by covering them. Every element touches earlier elements along an "
    "edge and covers no number out of turn (arrows do not apply). Most numbers wins.",
}


def _read(value: str) -> str:
    path = value[1:] if value.startswith("@") else value
    if os.path.isfile(path):
        try:
            with open(path, encoding="utf-8") as fh:
                return fh.read()
        except (OSError, UnicodeDecodeError) as exc:
            raise ConfigError(
                f"cannot read {path!r}: {exc}", "print.cannot_read", {"path": f"{path!r}", "why": exc}
            ) from None
    if value.startswith("@"):
        raise ConfigError(f"there is no file {path!r}", "print.no_file", {"path": f"{path!r}"})
    return value


def _setup_from(options: Mapping[str, str]) -> Setup:
    """A setup from print options: ``variant`` 1-4, blank, or a template / variant file (path or text; never a
    path when ``files`` is ``no``, as in a request to the web server)."""
    game = get_game("formfinity")
    variant = str(options.get("variant", "1")).strip() or "1"
    opts: dict[str, object] = {}
    try:
        players = int(options.get("players", "2") or 2)
    except ValueError:
        raise ConfigError("players takes a whole number", "print.players_type") from None
    if variant in ("1", "2", "3", "4"):
        opts["variant"] = variant
    elif variant == "blank":
        opts["variant_file"] = 'name = "Blank template"\ntemplate = "blank"\n[goal]\ntype = "lines"\n'
    else:
        if options.get("files") == "no":  # a web request never names a file of the server
            raise ConfigError(
                f"there is no variant {variant[:40]!r} here: choose 1, 2, 3, 4 or blank "
                "(your own variant prints from the template designer)",
                "print.no_variant_here",
                {"variant": f"{variant[:40]!r}"},
            )
        if "\n" not in variant and not variant.startswith("@") and not os.path.isfile(variant):
            raise ConfigError(
                f"there is no variant {variant[:40]!r}: choose 1, 2, 3, 4, blank, or a template or variant file",
                "print.no_variant",
                {"variant": f"{variant[:40]!r}"},
            )
        text = _read(variant)
        if "[goal]" in text:
            opts["variant_file"] = text
        else:  # a template file: print it under the goal its features call for
            t = parse_template(text)
            goal = "connection" if t.cells("star") else "numbers" if t.numbers else "areas" if t.areas else "lines"
            count = "2" if goal == "connection" else "[2, 4]"
            vfile = f'name = "Your template"\nplayers = {count}\n[goal]\ntype = "{goal}"\n'
            if goal == "lines":  # any template prints, even one too small for lines of 8
                vfile += "length = 2\n"
            opts["variant_file"] = vfile
            opts["template"] = text
    for key in ("deck", "size_weights", "count_weights", "arrow_weights", "rotation_percent"):
        if key in options:
            opts[key] = _read(str(options[key])) if key == "deck" else options[key]
    state = game.new_game(opts, seed=0, players=players)
    return setup_for(state.config)


def print_template(out_path: str, paper: str = "a4", options: Mapping[str, str] | None = None) -> None:
    """Write the template of a variant (or of a file) as a one-page PDF."""
    _draw_template(out_path, paper, _setup_from(options or {}))


def print_config_template(out_path: str, paper: str, config: Config) -> None:
    """Write the template of a game configuration (variant, template, players as that game plays them)."""
    _draw_template(out_path, paper, setup_for(config))


def _draw_template(out_path: str, paper: str, setup: Setup) -> None:
    t = setup.template
    rules = setup.rules
    c, pw, ph = new_canvas(out_path, paper, f"FORMFINITY - {rules.name}")
    margin = 42.0
    cell = min((pw - 2 * margin - 20) / t.width, (ph - 2 * margin - 170) / t.height, 40.0)
    gw, gh = cell * t.width, cell * t.height
    x0 = (pw - gw) / 2
    y_top = ph - margin - 60
    c.setFont("Helvetica-Bold", 20)
    c.drawCentredString(pw / 2, ph - margin - 10, "FORMFINITY")
    c.setFont("Helvetica", 12)
    sub = rules.name + (f" - {rules.difficulty.upper()}" if rules.goal == "lines" else "")
    c.drawCentredString(pw / 2, ph - margin - 30, sub)

    def box(x: int, y: int) -> tuple[float, float]:
        return x0 + x * cell, y_top - (y + 1) * cell

    c.setFont("Helvetica", max(6.0, cell * 0.3))
    for x in range(t.width):
        c.drawCentredString(x0 + (x + 0.5) * cell, y_top + 4, _col(x))
    for y in range(t.height):
        c.drawRightString(x0 - 4, y_top - (y + 0.65) * cell, str(y + 1))
    area_of: dict[tuple[int, int], str] = {}
    for name, cells in t.areas:
        for cl in cells:
            area_of[cl] = name
    numbers = {cl: n for n, cl in t.numbers}
    stars = sorted(t.cells("star"), key=lambda cl: -cl[1])
    c.setLineWidth(0.6)
    for y in range(t.height):
        for x in range(t.width):
            kind = t.kind(x, y)
            if kind == "outside":
                continue
            bx, by = box(x, y)
            if kind in ("black", "star"):
                c.setFillGray(0.0)
                c.rect(bx, by, cell, cell, stroke=1, fill=1)
                if kind == "star":
                    c.setFillGray(1.0)
                    c.setFont("Helvetica-Bold", cell * 0.35)
                    c.drawCentredString(bx + cell / 2, by + cell * 0.35, f"P{stars.index((x, y)) + 1}")
                c.setFillGray(0.0)
                continue
            c.setStrokeGray(0.55)
            c.rect(bx, by, cell, cell, stroke=1, fill=0)
            c.setStrokeGray(0.0)
            if (x, y) in numbers:
                c.setFont("Helvetica-Bold", cell * 0.45)
                c.drawCentredString(bx + cell / 2, by + cell * 0.3, str(numbers[(x, y)]))
    # Thick borders: the template's outline and the borders between areas.
    c.setLineWidth(2.2)
    for y in range(t.height):
        for x in range(t.width):
            if t.kind(x, y) == "outside":
                continue
            here = area_of.get((x, y))
            bx, by = box(x, y)
            for dx, dy, seg in (
                (-1, 0, (bx, by, bx, by + cell)),
                (1, 0, (bx + cell, by, bx + cell, by + cell)),
                (0, -1, (bx, by + cell, bx + cell, by + cell)),
                (0, 1, (bx, by, bx + cell, by)),
            ):
                nx, ny = x + dx, y + dy
                inside = 0 <= nx < t.width and 0 <= ny < t.height and t.kind(nx, ny) != "outside"
                if not inside or (here is not None and area_of.get((nx, ny), here) != here):
                    c.line(*seg)
    for name, cells in t.areas:
        fx, fy = min(cells, key=lambda cl: (cl[1], cl[0]))
        bx, by = box(fx, fy)
        c.setFont("Helvetica-Oblique", max(5.0, cell * 0.28))
        c.drawString(bx + 2, by + cell - cell * 0.3, name)
    # Rules in short, and score boxes.
    text = _RULES[rules.goal].format(
        n=rules.length,
        t=rules.target,
        mode="EASY: lines may cross and share squares (*two lines in the same direction never do)."
        if rules.difficulty == "easy"
        else "HARD: no square belongs to two lines.",
    )
    if "*" in text:  # polytable's readings are marked as on the How-to-play page
        text += " (* polytable's reading, not the rulebook's words: see docs/rules/formfinity.md.)"
    c.setFont("Helvetica", 9.5)
    ty = y_top - gh - 28
    for line in _wrap(text, 105):
        c.drawString(margin, ty, line)
        ty -= 13
    ty -= 8
    c.setFont("Helvetica", 10)
    for p in range(setup.players if rules.goal != "connection" else 2):
        c.drawString(margin + p * 130, ty, f"Player {p + 1}: ____________")
    c.setFont("Helvetica", 7)
    c.drawRightString(pw - margin, margin - 14, "polytable - FORMFINITY template")
    c.showPage()
    c.save()


def print_cards(out_path: str, paper: str = "a4", options: Mapping[str, str] | None = None) -> None:
    """Write ``count`` cards (default 12; seed ``seed``) on pages of 12."""
    options = dict(options or {})
    try:
        count = int(options.pop("count", "12") or 12)
        seed = int(options.pop("seed", "1") or 1)
    except ValueError:
        raise ConfigError("count and seed take whole numbers", "print.count_seed_type") from None
    if not 1 <= count <= 1000:
        raise ConfigError(f"count must be from 1 to 1000, not {count}", "print.count", {"count": count})
    qr = str(options.pop("qr", "")).lower() in ("1", "true", "yes", "on")
    base_url = str(options.pop("base_url", "") or DEFAULT_BASE_URL)
    setup = _setup_from({k: v for k, v in options.items() if k != "variant"} | {"variant": options.get("variant", "1")})
    cards = list(_take(deal(setup, seed), count))
    if qr:
        print_qr_deck(out_path, paper, cards, base_url, seed, _card)
        return
    c, pw, ph = new_canvas(out_path, paper, "FORMFINITY cards")
    cols, rows = 3, 4
    margin = 30.0
    cw = (pw - 2 * margin) / cols
    ch = (ph - 2 * margin - 20) / rows
    for i, card in enumerate(cards):
        k = i % (cols * rows)
        if i and k == 0:
            c.showPage()
        if k == 0:
            c.setFont("Helvetica", 8)
            c.drawString(margin, ph - margin + 6, f"FORMFINITY cards - seed {seed} - cut along the lines")
        col, row = k % cols, k // cols
        x = margin + col * cw
        y = ph - margin - 16 - (row + 1) * ch
        _card(c, card, x + 6, y + 6, cw - 12, ch - 12, i + 1)
    c.showPage()
    c.save()


def _take(it: Any, n: int) -> list[Card]:
    out = []
    for card in it:
        out.append(card)
        if len(out) >= n:
            break
    return out


def _card(c: Any, card: Card, x: float, y: float, w: float, h: float, number: int | None) -> None:
    """One open card face in the box (x, y, w, h): the drawing, arrows, count, rotation and notation."""
    c.setLineWidth(1.2)
    c.setStrokeGray(0.0)
    c.roundRect(x, y, w, h, 10, stroke=1, fill=0)
    cells = SHAPES[card.shape]
    sw = max(cx for cx, _ in cells) + 1
    sh = max(cy for _, cy in cells) + 1
    unit = min(w * 0.6 / 5, h * 0.55 / 5)
    ox = x + (w - sw * unit) / 2
    oy = y + h * 0.55 + sh * unit / 2
    c.setFillGray(0.15)
    for cx, cy in cells:
        c.rect(ox + cx * unit, oy - (cy + 1) * unit, unit, unit, stroke=1, fill=1)
    c.setFillGray(0.0)
    a = min(w, h) * 0.07
    mids = {
        0: (x + w / 2, y + h - a * 0.6, 0.0, -1.0),
        2: (x + w / 2, y + a * 0.6, 0.0, 1.0),
        3: (x + a * 0.6, y + h * 0.55, 1.0, 0.0),
        1: (x + w - a * 0.6, y + h * 0.55, -1.0, 0.0),
    }
    for k, (mx, my, dx, dy) in mids.items():
        if card.edges >> k & 1:  # a triangle on the edge, pointing inwards
            px, py = -dy, dx
            path = c.beginPath()
            path.moveTo(mx + dx * a, my + dy * a)
            path.lineTo(mx + px * a * 0.7, my + py * a * 0.7)
            path.lineTo(mx - px * a * 0.7, my - py * a * 0.7)
            path.close()
            c.drawPath(path, stroke=0, fill=1)
    c.setFont("Helvetica-Bold", min(w, h) * 0.12)
    c.drawString(x + w * 0.1, y + h * 0.12, f"x{card.count}")
    if card.rotate:  # a circular arrow
        r = min(w, h) * 0.07
        rx, ry = x + w * 0.82, y + h * 0.16
        c.setLineWidth(1.6)
        c.arc(rx - r, ry - r, rx + r, ry + r, 60, 280)
        ang = math.radians(340)
        tx, ty = rx + r * math.cos(ang), ry + r * math.sin(ang)
        path = c.beginPath()
        path.moveTo(tx - r * 0.45, ty + r * 0.1)
        path.lineTo(tx + r * 0.4, ty + r * 0.15)
        path.lineTo(tx, ty - r * 0.5)
        path.close()
        c.drawPath(path, stroke=0, fill=1)
    c.setFont("Helvetica", 6)
    label = card.notation() if number is None else f"#{number}  {card.notation()}"
    c.drawString(x + 8, y + h - 12, label)


def _wrap(text: str, width: int) -> list[str]:
    import textwrap

    return textwrap.wrap(text, width)


def _col(x: int) -> str:
    return chr(97 + x) if x < 26 else "a" + chr(97 + x - 26)


PRINTABLES = {"formfinity": print_template, "formfinity-cards": print_cards}
