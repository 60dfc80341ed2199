"""Foldris solo: a beam search over a known card order, the planner built on it and the clairvoyant bound.

What: :func:`beam_lines` drops the cards of one order in turn on a sheet, keeping the ``width`` best sheets
by the one-ply evaluation (width 1 is the greedy player), and answers the most lines a kept branch reaches.
Two users: the solo planner (:class:`FoldrisPlanner`, level ``expert``) runs it on orders *sampled* from the
cards it has not seen (the public multiset, never the deck's order) to score its candidate drops; the
clairvoyant bound (:func:`clairvoyant_lines`) runs it, wide, on the deal's true order, which the rulebook
hides from a player: it is for measurement only.

Why one search for both: the gap between the planner and the best possible is then measured with the same
model of play, and the C kernel (``_cplan.c``, built by setup.py) has one job. This Python is the
reference it is tested against and what runs where the kernel is not built.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, fields
from typing import Any

from ...core import ConfigError, Game, Rng, below, native_module
from ...games.foldris import WIDTH, Drop, FoldrisState, VariantTable, deck_of, drops, heights, tables_of
from .._bots import Bot
from ._eval import WEIGHTS, evaluate_sheet
from ._player import FoldrisConfig, FoldrisExpectimaxBot, flawless
from ._search import Search

__all__ = [
    "WEIGHT_ORDER",
    "FoldrisPlanner",
    "PlanConfig",
    "Root",
    "beam_lines",
    "clairvoyant_lines",
    "deal_order",
    "sample_orders",
]

EXT = native_module("polytable.ai.foldris._cplan")
"""The compiled beam search, or None (pure engine asked for, or not built)."""

WEIGHT_ORDER = (
    "landing",
    "lines",
    "row_transitions",
    "col_transitions",
    "holes",
    "wells",
    "bonus",
    "barrier_gap",
    "danger",
    "trimmed",
    "bump",
)
"""The one-ply weights in the order the kernel reads them (``hole_rows`` must be 0: the kernel has no term)."""

MAX_ROWS = 15
"""The kernel's sheets are 128-bit ints: taller sheets run the Python search."""

PURE_SHARE = 8
"""Without the kernel the planner plays out this many times fewer orders (the Python search is about 30
times slower), so a move stays within seconds where the kernel is not built (the offline app)."""

Root = tuple[int, int, int, int]
"""A sheet the search starts from: (ink, barrier, height, bonus)."""


@dataclass(frozen=True)
class _Packed:
    """A config's deck as the kernel reads it: distinct tables, and per card index (table, lane)."""

    tables: tuple[tuple[tuple[int, int, int, int, tuple[int, ...], int], ...], ...]
    cards: tuple[tuple[int, int], ...]
    by_card: tuple[VariantTable, ...]
    lanes: tuple[int, ...]


_PACKED: dict[tuple[int, ...], _Packed] = {}


def _packed(tables: tuple[VariantTable, ...], lanes: tuple[int, ...]) -> _Packed:
    key = tuple(t.number for t in tables) + lanes
    hit = _PACKED.get(key)
    if hit is None:
        index: dict[int, int] = {}
        rows: list[tuple[tuple[int, int, int, int, tuple[int, ...], int], ...]] = []
        cards: list[tuple[int, int]] = []
        for t, lane in zip(tables, lanes, strict=True):
            if t.number not in index:
                index[t.number] = len(rows)
                rows.append(
                    tuple(
                        (v.cost, v.width, v.height, v.bits, tuple(b for _, b in v.profile), 1 if v.trim else 0)
                        for v in t.variants
                    )
                )
            cards.append((index[t.number], lane))
        hit = _PACKED[key] = _Packed(tuple(rows), tuple(cards), tables, lanes)
    return hit


def _weights(w: dict[str, float]) -> tuple[float, ...]:
    if w.get("hole_rows", 0.0):
        raise ConfigError("the planner's beam search has no hole_rows term: leave it at 0")
    return tuple(float(w[k]) for k in WEIGHT_ORDER)


class _WD(dict[str, float]):
    """The weights as ``evaluate_sheet`` reads them, from the kernel's order."""

    def __init__(self, w: Sequence[float]) -> None:
        super().__init__(zip(WEIGHT_ORDER, w, strict=True))
        self["hole_rows"] = 0.0


def _beam_py(root: Root, order: Sequence[int], width: int, w: Sequence[float], packed: _Packed) -> int:
    """The reference search (see :func:`beam_lines`), step for step as the kernel does it."""
    wd = _WD(w[: len(WEIGHT_ORDER)])
    flaw = w[len(WEIGHT_ORDER)]
    # (key, generation index, ink, barrier, height, bonus, trims, lines)
    beam: list[tuple[float, int, int, int, int, int, int, int]] = [(0.0, 0, root[0], root[1], root[2], root[3], 0, 0)]
    dead = 0
    for card in order:
        table, lane = packed.by_card[card], packed.lanes[card]
        kids: list[tuple[float, int, int, int, int, int, int, int]] = []
        for _, _, ink, bar, height, bonus, trims, lines in beam:
            before = len(kids)
            for _, v, _, y, new, n in drops(table, ink, heights(ink | bar), height, bonus):
                h = height - n
                c = lane - 1
                hts = heights(new)
                yb = max(hts[c], hts[c + 1])
                nbar = 0b11 << (WIDTH * yb + c) if yb < h else 0
                tr = trims + (1 if v.trim else 0)
                ln = lines + n
                bo = bonus + n - v.cost
                land = w[0] * (y + (v.height - 1) / 2.0 - n)
                if flaw and (tr or sum(hts) != new.bit_count()):
                    land += flaw
                key = evaluate_sheet(new, h, nbar, wd) + land + w[1] * 4 * ln + w[6] * bo + w[9] * tr
                kids.append((key, len(kids), new, nbar, h, bo, tr, ln))
            if len(kids) == before and lines > dead:
                dead = lines
        kids.sort(key=lambda k: (-k[0], k[1]))
        seen: set[tuple[int, int, int, int]] = set()
        beam = []
        for kid in kids:
            if len(beam) >= width:
                break
            sk = (kid[2], kid[3], kid[4], kid[5])
            if sk in seen:
                continue
            seen.add(sk)
            beam.append(kid)
        if not beam:
            break
    return max([dead] + [b[7] for b in beam])


def beam_lines(
    roots: Sequence[Root],
    orders: Sequence[Sequence[int]],
    width: int,
    tables: tuple[VariantTable, ...],
    lanes: tuple[int, ...],
    weights: dict[str, float] = WEIGHTS,
    pure: bool = False,
    flaw: float = 0.0,
) -> list[list[int]]:
    """Per root sheet, per order of card indices: the most lines a beam of ``width`` sheets reaches from it.

    Each step drops the next card on every kept sheet (every legal drop the sheet's bonus pays for), lets
    the solo barrier fall in that card's lane, and keeps the ``width`` best distinct sheets by the one-ply
    evaluation (the lines, bonus and trims counted from the root), plus ``flaw`` (a cost: 0 or less) on a
    sheet with a hole or a trim since the root; a sheet that cannot take the card ends its branch there with
    its lines, as an elimination does. ``tables``/``lanes``: per card index, its table
    and lane. The kernel runs it unless ``pure`` or a sheet is taller than :data:`MAX_ROWS`.
    """
    packed = _packed(tables, lanes)
    w = (*_weights(weights), float(flaw))
    if EXT is not None and not pure and all(r[2] <= MAX_ROWS for r in roots):
        m = (1 << 64) - 1
        sheets = [(ink & m, ink >> 64, bar & m, bar >> 64, h, b) for ink, bar, h, b in roots]
        out: list[list[int]] = EXT.lines(packed.tables, packed.cards, sheets, [tuple(o) for o in orders], width, w)
        return out
    return [[_beam_py(r, o, width, w, packed) for o in orders] for r in roots]


def deal_order(state: FoldrisState) -> tuple[int, ...]:
    """The order the deck's cards will be revealed in (card indices), read from the game's generator.

    Hidden information: the rulebook's players never know it. For the clairvoyant bound and the tests only.
    Each reveal draws a position in the sorted multiset and removes the first card equal to the one drawn,
    exactly as ``FoldrisGame`` does (equal cards are interchangeable).
    """
    cards = deck_of(state.config).cards
    deck = list(state.deck)
    rng = state.rng
    out = []
    while deck:
        i, rng = below(rng, len(deck))
        card = cards[deck[i]]
        pos = next(k for k, j in enumerate(deck) if cards[j] == card)
        out.append(deck.pop(pos))
    return tuple(out)


BOUND_FLAW = -80.0
"""The clairvoyant beam's cost of a sheet's first hole or trim: a perfect game needs neither, and a beam
ranked by shape alone drops the flawless sheets (at width 5,000 it found 12 on 61% of seeds 0-399; with
this cost, on more: docs/ai-foldris.md)."""


def clairvoyant_lines(state: FoldrisState, width: int, player: int = 0, flaw: float = BOUND_FLAW) -> int:
    """The lines a solo game reaches from ``state`` (between rounds, the next card not yet revealed) when
    the whole order is known, by a beam of ``width`` sheets ranked with the ``flaw`` cost: a lower bound on
    the clairvoyant optimum (exact whenever it reaches the sheet's every row)."""
    if state.card >= 0:
        raise ValueError("clairvoyant_lines starts between rounds (before the next reveal)")
    s = state.sheets[player]
    cards = deck_of(state.config).cards
    tables = tables_of(state.config)
    lanes = tuple(lane for _, lane in cards)
    got = beam_lines([(s.ink, s.barrier, s.height, s.bonus)], [deal_order(state)], width, tables, lanes, flaw=flaw)
    return s.lines + got[0][0]


def sample_orders(deck: Sequence[int], count: int, rng: Rng) -> list[tuple[int, ...]]:
    """``count`` orders of the unseen cards, each a uniform shuffle of their multiset (sorted first, so the
    deck's stored order cannot leak in)."""
    base = tuple(sorted(deck))
    return [rng.shuffle(base) for _ in range(count)]


LATE = 4
"""With at most this many cards left after the revealed one, ``hard``'s exact endgame decides: greedy
playouts are weakest where only the last few cards' fit counts."""


KEEP = 0.25
"""Lines added to the playouts' mean for a drop that leaves a flawless sheet flawless (no hole, no trim):
greedy playouts never make 12, so without it a perfect game still open is worth nothing to the planner.
+0.060 ± 0.037 lines a deal on seeds 400-849 (docs/ai-foldris.md)."""


def _clean(table: VariantTable, kid: tuple[Any, ...]) -> bool:
    """The drop ``kid`` (a :meth:`Search.children` entry) trims nothing and leaves no hole."""
    ink: int = kid[4]
    return not table.variants[kid[2]].trim and sum(heights(ink)) == ink.bit_count()


@dataclass(frozen=True)
class PlanConfig:
    """The planner's knobs (``expert``'s values are the defaults): ``candidates``, the drops of the revealed
    card scored, the best by the one-ply value; ``samples``, the orders of the unseen cards each is played
    out on (more orders: steadier choices, proportionally more CPU)."""

    candidates: int = 12
    samples: int = 128

    def __post_init__(self) -> None:
        if min(self.candidates, self.samples) < 1:
            raise ConfigError("candidates and samples must be at least 1")


class FoldrisPlanner:
    """Solo Foldris by sampled playouts over the unseen cards (see the module docstring).

    Per move in mid-game: the revealed card's drops are ranked by the one-ply value (``hard``'s search
    terms), the best ``candidates`` are each played out on the same ``samples`` orders drawn from the cards
    not yet seen (public: the deck's make-up minus the cards revealed) by the greedy player (a beam of
    width 1: each playout decision sees only the card it places), and the drop with the most lines
    expected (its own lines plus the playouts' mean, plus :data:`KEEP` if it keeps a flawless sheet
    flawless) is played; ties keep the one-ply order. Near the end
    (:data:`LATE`) and with opponents it plays as ``hard``. Reads ``state.deck`` as a multiset only and never
    ``state.rng``; its own draws come from the ``rng`` it is given, so a seed fixes its play.
    """

    def __init__(
        self, config: PlanConfig | None = None, hard: FoldrisConfig | None = None, name: str = "expert"
    ) -> None:
        self.config = config or PlanConfig()
        self.name = name
        self.hard = FoldrisExpectimaxBot(hard, name="hard")
        self.last_scores: list[tuple[float, int]] = []
        """The last planned move's (expected lines, candidate rank), for diagnostics and tests."""

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Drop:
        assert isinstance(state, FoldrisState)
        cfg = self.config
        config = state.config
        if config.players != 1 or len(state.deck) <= LATE:
            return self.hard.choose(game, state, player, rng)
        deck = deck_of(config)
        tables = tables_of(config)
        name, lane = deck.cards[state.card]
        table = tables[state.card]
        sheet = state.sheets[player]
        search: Search = self.hard.solo_search
        search.flaw = 0.0
        search.tie = 0.0
        first = search.children(table, sheet.ink, sheet.barrier, sheet.height, sheet.bonus, lane, True, False)
        if not first:
            raise ConfigError(f"Foldris: player {player + 1} has no legal drop")
        top = first[: cfg.candidates]
        samples = cfg.samples
        if EXT is None or sheet.height > MAX_ROWS:
            samples = min(samples, max(8, samples // PURE_SHARE))  # the same budget buys fewer playouts
        orders = sample_orders(state.deck, samples, rng)
        lanes = tuple(ln for _, ln in deck.cards)
        roots = [(ink, bar, h, bon) for _, _, _, _, ink, bar, h, bon in top]
        got = beam_lines(roots, orders, 1, tables, lanes, search.w)
        clean = flawless(state, player)
        scores = [
            (sheet.height - kid[6] + sum(lines) / len(lines) + (KEEP if clean and _clean(table, kid) else 0.0), -k)
            for k, (kid, lines) in enumerate(zip(top, got, strict=True))
        ]
        self.last_scores = [(sc, -k) for sc, k in scores]
        best = top[-max(scores)[1]]
        v = table.variants[best[2]]
        return Drop(name, v.mirror, v.trim, v.rot, best[3])


_NAMES = {f.name for f in fields(PlanConfig)}


def _expert(**kw: Any) -> Bot:
    plan: dict[str, Any] = {}
    for k, v in kw.items():
        if k in _NAMES:
            try:
                plan[k] = int(v)
            except ValueError:
                raise ConfigError(f"expert's {k} must be a number, not {v!r}") from None
    rest = {k: v for k, v in kw.items() if k not in _NAMES}
    return FoldrisPlanner(PlanConfig(**plan), FoldrisConfig.of({}, **rest), name="expert")


PLAYERS: dict[str, Callable[..., Bot]] = {"expert": _expert}
"""The planner by level name (merged into the package's table)."""
