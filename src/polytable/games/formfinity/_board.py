"""FORMFINITY board geometry for one configuration, and where an element may go (the hot path).

:func:`setup_for` turns a validated config into a :class:`Setup` (template masks, the card source, the
rules) once and caches it: states carry only their config, and every rules method looks the setup up.

Placement: for each orientation the card allows, the legal top-left anchors are one bitboard.

* *Anywhere* (no arrow, or arrows do not apply): ``AND over the shape's cells of (allowed >> offset)``,
  restricted to anchors where the shape's box fits.
* *Slide-in* from an edge (CLARIFICATIONS): the element enters along a lane and moves straight across
  until the next step would overlap a drawn or black square or leave the template. With the first
  blocked row of each column (from the top, say), the resting row for a lane is one closed formula:
  ``min over the shape's columns of (first_blocked[column] - lowest cell of the shape there) - 1``; the
  lane is illegal when that row is above the template (the element never got wholly onto it). Squares
  outside an irregular template block like black squares (the element cannot cross them).

Either way the anchors are then filtered word-parallel by the variant's constraints: ``allowed`` (which
squares the element may cover) and ``touch`` (squares at least one of its squares must cover: cells
edge-adjacent to the drawing it must connect to).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from polytable.core import Config, ConfigError
from polytable.geometry import bits, derived, lowest

from ._cards import NUM_CARDS, ROTATIONS, SHAPES, Card, CardGenerator, parse_deck
from ._kernel import FormfinityKernel
from ._template import Template
from ._variant import PRESETS, Rules, load_template, parse_variant_file
from .templates import TEMPLATES

__all__ = ["Setup", "anywhere_anchors", "setup_for", "slide_anchors"]


def _profiles() -> tuple[tuple[int, int, tuple[tuple[int, int, int], ...], tuple[tuple[int, int, int], ...]], ...]:
    out = []
    for s in SHAPES:
        w = max(x for x, _ in s) + 1
        h = max(y for _, y in s) + 1
        cols = tuple((dx, min(y for x, y in s if x == dx), max(y for x, y in s if x == dx)) for dx in range(w))
        rows = tuple((dy, min(x for x, y in s if y == dy), max(x for x, y in s if y == dy)) for dy in range(h))
        out.append((w, h, cols, rows))
    return tuple(out)


PROFILES = _profiles()
"""Per shape id: (width, height, per column (dx, top dy, bottom dy), per row (dy, left dx, right dx))."""


@dataclass(frozen=True, eq=False)
class Setup:
    """Everything fixed for one configuration (never part of a state; rebuilt from the config)."""

    rules: Rules
    template: Template
    players: int
    W: int
    H: int
    S: int
    full: int
    playable: int
    wall: int
    stars: tuple[int, ...]
    areas: tuple[int, ...]
    area_names: tuple[str, ...]
    numbers: tuple[int, ...]
    numbers_all: int
    col_masks: tuple[int, ...]
    row_bits: int
    shape_masks: tuple[int, ...]
    shape_offs: tuple[tuple[int, ...], ...]
    shape_fit: tuple[int, ...]
    generator: CardGenerator | None
    deck: tuple[int, ...]
    deck_shuffle: bool
    possible: tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]
    chance_cards: tuple[Card, ...]
    chance_ids: frozenset[int]
    windows: dict[tuple[int, int], int]
    line_offsets: tuple[tuple[int, int], ...]
    kernel: FormfinityKernel = field(default_factory=FormfinityKernel)
    """The rules kernel of the game object this setup was made for (see :mod:`._kernel`)."""

    def bit(self, x: int, y: int) -> int:
        return 1 << (y * self.S + x)

    def xy(self, index: int) -> tuple[int, int]:
        y, x = divmod(index, self.S)
        return x, y

    def cells(self, mask: int) -> list[tuple[int, int]]:
        return [self.xy(i) for i in bits(mask)]

    def place_mask(self, shape: int, x: int, y: int) -> int:
        return self.shape_masks[shape] << (y * self.S + x)

    def on_board(self, shape: int, x: int, y: int) -> bool:
        w, h = PROFILES[shape][0], PROFILES[shape][1]
        return x >= 0 and y >= 0 and x + w <= self.W and y + h <= self.H

    def n4(self, b: int) -> int:
        s = self.S
        return ((b << 1) | (b >> 1) | (b << s) | (b >> s)) & self.full

    def n8(self, b: int) -> int:
        """``b`` and every square touching it by an edge or a corner."""
        s = self.S
        h = b | (b << 1) | (b >> 1)
        return (h | (h << s) | (h >> s)) & self.full

    def flood(self, seed: int, passable: int) -> int:
        return self.kernel.flood(seed, passable & self.full, self.S)

    def rotation(self, card: Card) -> tuple[int, ...]:
        """The orientations (shape ids) an element of ``card`` may take under these rules."""
        return ROTATIONS[card.shape] if self.rules.rotation_allowed(card.rotate) else (card.shape,)

    def edges(self, card: Card) -> int:
        """The card's entry edges as they apply (0: anywhere)."""
        return card.edges if self.rules.arrows else 0


@derived(maxsize=64, by_value=True)
def _setup(config: Config) -> Setup:
    return _build(config)


def setup_for(config: Config, kernel: FormfinityKernel | None = None) -> Setup:
    """The setup of a config, built once per config value (found by identity on every step, by equality
    for a config read back from a saved state); ConfigError (TemplateError names line and column) if
    invalid. ``kernel``: the game object's (its own setup, made once; default: the pure rules')."""
    setup = _setup(config)
    return setup if kernel is None else kernel.setup(setup)


def _rules_of(config: Config) -> Rules:
    variant = config.str("variant")
    vfile = config.str("variant_file")
    if vfile.strip():
        rules = parse_variant_file(vfile)
    elif variant == "custom":
        raise ConfigError("variant custom needs a variant file (option variant_file)", "formfinity.custom_needs_file")
    else:
        rules = PRESETS[variant]
    if rules.goal == "lines" and not vfile.strip():
        from dataclasses import replace

        rules = replace(rules, difficulty=config.str("difficulty"))
    tpl = config.str("template")
    if tpl.strip():
        from dataclasses import replace

        rules = replace(rules, template=TEMPLATES.get(tpl.strip(), tpl))
    return rules


def _build(config: Config) -> Setup:
    rules = _rules_of(config)
    n = config.players
    if not rules.min_players <= n <= rules.max_players:
        span = (
            str(rules.min_players)
            if rules.min_players == rules.max_players
            else (f"{rules.min_players} to {rules.max_players}")
        )
        raise ConfigError(
            f"{rules.name} is played by {span} players, not {n}",
            "formfinity.player_count",
            {"name": rules.name, "span": span, "n": n},
        )
    t = load_template(rules.template, rules)
    W, H = t.width, t.height
    S = W + 1

    def bit(c: tuple[int, int]) -> int:
        return 1 << (c[1] * S + c[0])

    def mask(cells: Iterable[tuple[int, int]]) -> int:
        m = 0
        for c in cells:
            m |= bit(c)
        return m

    full = mask((x, y) for y in range(H) for x in range(W))
    playable = mask(t.cells("free"))
    wall = full & ~playable
    stars_cells = sorted(t.cells("star"), key=lambda c: -c[1])  # lower one first: player 1's
    stars = tuple(bit(c) for c in stars_cells)
    shape_masks = tuple(mask(s) for s in SHAPES)
    shape_offs = tuple(tuple(y * S + x for x, y in s) for s in SHAPES)
    fits = []
    for w, h, _, _ in PROFILES:
        m = 0
        if w <= W and h <= H:
            row = (1 << (W - w + 1)) - 1
            for y in range(H - h + 1):
                m |= row << (y * S)
        fits.append(m)
    deck_text = config.str("deck")
    generator: CardGenerator | None = None
    deck: tuple[int, ...] = ()
    if deck_text.strip():
        deck = tuple(c.id for c in parse_deck(deck_text))
    else:
        generator = CardGenerator.from_options(
            config.str("size_weights"),
            config.str("count_weights"),
            config.str("arrow_weights"),
            config.int("rotation_percent"),
        )
    setup = Setup(
        rules=rules,
        template=t,
        players=n,
        W=W,
        H=H,
        S=S,
        full=full,
        playable=playable,
        wall=wall,
        stars=stars,
        areas=tuple(mask(cells) for _, cells in t.areas),
        area_names=tuple(name for name, _ in t.areas),
        numbers=tuple(bit(c) for _, c in t.numbers),
        numbers_all=mask(c for _, c in t.numbers),
        col_masks=tuple(mask((x, y) for y in range(H)) for x in range(W)),
        row_bits=(1 << W) - 1,
        shape_masks=shape_masks,
        shape_offs=shape_offs,
        shape_fit=tuple(fits),
        generator=generator,
        deck=deck,
        deck_shuffle=config.bool("deck_shuffle"),
        possible=(),
        chance_cards=tuple(c for c in map(Card.from_id, range(NUM_CARDS)) if generator.possible(c))
        if generator is not None
        else (),
        chance_ids=frozenset(),
        windows={},
        line_offsets=tuple((k, off) for k, off in enumerate((1, S, S + 1, S - 1)) if rules.directions >> k & 1),
    )
    object.__setattr__(setup, "possible", _possible(setup))
    object.__setattr__(setup, "chance_ids", frozenset(c.id for c in setup.chance_cards))
    return setup


def _possible(setup: Setup) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every (orientations, single entry edges) a drawable card can offer, smallest shapes first.

    A card with several arrows can place an element exactly when one of its single arrows can, so
    checking single edges (and 0 for "anywhere") covers every card: this is what decides that nobody can
    place anything any more (the end of a blocked game).
    """
    found: dict[tuple[int, ...], set[int]] = {}
    cards: list[Card] = []
    gen = setup.generator
    if gen is not None:
        for s in gen.shapes():
            for rot in (False, True):
                for edges in (0, 1, 2, 4, 8):
                    c = Card(s, 1, edges, rot)
                    if edges and not any(gen.arrows[1:]):
                        continue
                    if not edges and not gen.arrows[0]:
                        continue
                    if (rot and gen.rotation > 0) or (not rot and gen.rotation < 100):
                        cards.append(c)
    else:
        cards = [Card.from_id(i) for i in sorted(set(setup.deck))]
    for c in cards:
        orients = setup.rotation(c)
        edges = setup.edges(c)
        singles = [e for e in (1, 2, 4, 8) if edges & e] or [0]
        found.setdefault(orients, set()).update(singles)
    items = sorted(found.items(), key=lambda kv: (len(SHAPES[kv[0][0]]), kv[0]))
    return tuple((orients, tuple(sorted(edges))) for orients, edges in items)


def anywhere_anchors(setup: Setup, shape: int, allowed: int) -> int:
    ok = setup.shape_fit[shape]
    for off in setup.shape_offs[shape]:
        ok &= allowed >> off
        if not ok:
            break
    return ok


def _profile(setup: Setup, blocked: int, edges: int = 15) -> tuple[list[int], list[int], list[int], list[int]]:
    """First and last blocked row of each column (for T/B slides) and column of each row (for L/R),
    computed only for the directions in ``edges``."""
    W, H, S = setup.W, setup.H, setup.S
    ftop, lbot = [H] * W, [-1] * W
    if edges & 5:
        for x, cm in enumerate(setup.col_masks):
            m = blocked & cm
            if m:
                ftop[x] = lowest(m) // S
                lbot[x] = (m.bit_length() - 1) // S
    fleft, lright = [W] * H, [-1] * H
    if edges & 10:
        rb = setup.row_bits
        for y in range(H):
            r = (blocked >> (y * S)) & rb
            if r:
                fleft[y] = lowest(r)
                lright[y] = r.bit_length() - 1
    return ftop, lbot, fleft, lright


def slide_anchors(setup: Setup, shape: int, edges: int, blocked: int, prof: tuple[list[int], ...] | None) -> int:
    """Anchors where an element of ``shape`` comes to rest when slid in from any edge in ``edges``."""
    W, H, S = setup.W, setup.H, setup.S
    w, h, cols, rows = PROFILES[shape]
    if w > W or h > H:
        return 0
    ftop, lbot, fleft, lright = prof if prof is not None else _profile(setup, blocked, edges)
    ok = 0
    if edges & 1:  # from the top, moving down: rest = min(first blocked row - lowest cell) - 1
        n = W - w + 1
        for x, m in enumerate(_lanes([[f - bot for f in ftop[dx : dx + n]] for dx, _, bot in cols], min)):
            if m >= 1:
                ok |= 1 << ((m - 1) * S + x)
    if edges & 4:  # from the bottom, moving up
        n = W - w + 1
        lim = H - h
        for x, m in enumerate(_lanes([[lb - top for lb in lbot[dx : dx + n]] for dx, top, _ in cols], max)):
            if m < lim:
                ok |= 1 << ((m + 1) * S + x)
    if edges & 8:  # from the left, moving right
        n = H - h + 1
        for y, m in enumerate(_lanes([[f - right for f in fleft[dy : dy + n]] for dy, _, right in rows], min)):
            if m >= 1:
                ok |= 1 << (y * S + m - 1)
    if edges & 2:  # from the right, moving left
        n = H - h + 1
        lim = W - w
        for y, m in enumerate(_lanes([[lr - left for lr in lright[dy : dy + n]] for dy, left, _ in rows], max)):
            if m < lim:
                ok |= 1 << (y * S + m + 1)
    return ok


def _lanes(columns: list[list[int]], pick: Callable[..., int]) -> Iterable[int]:
    """Lane-wise min or max over the shape's columns (or rows)."""
    if len(columns) == 1:
        return columns[0]
    return map(pick, *columns)


def element_anchors(
    setup: Setup,
    orients: Iterable[int],
    edges: int,
    blocked: int,
    allowed: int,
    touch: int | None,
) -> list[tuple[int, int]]:
    """(shape id, anchors bitboard) for every orientation with at least one legal placement.

    ``blocked`` stops slides (drawn squares and walls); ``allowed`` is where squares may go (a subset of
    the free squares); ``touch`` (or None) is where at least one square must go.
    """
    fast = setup.kernel.element_anchors(setup, tuple(orients), edges, blocked, allowed, touch)
    if fast is not None:
        return fast
    out = []
    prof = _profile(setup, blocked, edges) if edges else None
    for s in orients:
        offs = setup.shape_offs[s]
        if edges:
            ok = slide_anchors(setup, s, edges, blocked, prof)
            for off in offs:
                if not ok:
                    break
                ok &= allowed >> off
        else:
            ok = anywhere_anchors(setup, s, allowed)
        if ok and touch is not None:
            t = 0
            for off in offs:
                t |= touch >> off
            ok &= t
        if ok:
            out.append((s, ok))
    return out
