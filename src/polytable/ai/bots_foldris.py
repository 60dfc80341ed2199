"""Foldris bots: ``expectimax`` (registered as ``hard`` too) and a lighter ``medium``.

Why expectimax and not MCTS: a Foldris sheet is a single-player problem between barriers; the only
uncertainty is the order of the cards left, whose make-up is public (every revealed card is face up). So
the bot takes the expectation over the next card, drawn from the remaining multiset with its public counts
(never the order: the bot reads ``state.deck`` only as a multiset, and ``state.rng`` is never touched),
and maximises over its own drops. Its own two plies are searched on raw int sheets, not through states.

The search, per move:

1. Every legal drop of the revealed card is resolved (lines, fold, the barrier in this card's lane: certain
   in solo, assumed when no line is made otherwise, as the one-ply evaluation does) and scored with the
   one-ply evaluation of :mod:`polytable.games.foldris._eval`.
2. The best ``beam`` of them (ordered by that score) are expanded: for every distinct remaining card
   (shape, lane) the best second drop is found, its barrier falling in that card's lane; the chance node
   weighs each card by its count. Cards with the same shape share the drop search; only the barrier term
   differs by lane.
3. The drop with the best one-ply terms of the first drop plus the expected best second drop is played.

Endgame: the final score is only the number of lines, so with ``endgame`` cards or fewer left after the
revealed one the search runs to the end of the deck (three own plies, ``beam2`` drops at the middle one)
and values a line 1000, sheet shape nothing. An elimination before the end is a large loss; at the end it
is worth no more lines in solo, and a lost game with opponents (being out on the last card loses to a
survivor with fewer lines), where a bonus point left is also worth 1 (the tie-break after lines).
With opponents a line there counts fully only up to ``cap`` lines (:func:`.line_cap`): once the player is
past the most lines any opponent can still reach (level with it, if its points already beat theirs), a
further line cannot change the result, so it is worth ``_SPARE`` (100) and no longer pays for a risk of
elimination. With the default two-card window an elimination comes in halves (one order of two cards), which
a line never paid for; the cap matters when the window is wider (``mp_deep``) and for points spent on lines.

Solo endgame (issue 10, fifth pass): lines decide the result, and the sheets are short by then, so the
search to the end of the deck starts with 3 cards left after the revealed one (``exact``), with 4 drops a
ply (``xbeam``), every drop with two cards left (:func:`~.bots_foldris_exact.pair_lines`) and a bound
on the lines the squares still to come can make; with 4 cards left the two best drops of the usual search
are searched to the end too (``xtop``) and the one with more lines expected is played. Measured in
docs/ai-foldris.md: about a fifth of a line on average (10.424 to 10.613 lines on seeds 0-999).

Perfect games (solo): 23 blocks and the start square are exactly 12 rows, so one hole or one trimmed
square rules out the 12th line. While the sheet is still flawless (no hole, no trim; :func:`_flawless`)
every leaf or drop that makes the first flaw costs ``perfect`` (default -80, about two lines) on top of the
shape terms, so the search stops spending its first flaw casually; once a flaw exists the term is off and
the player plays for 11 with one spare row. A hole made by the move itself is charged again at every leaf
below it (its sheet still holds it), which makes the search defer a flaw. ``misfit`` (off by default)
adds, while flawless, the share of the cards left whose shape has no hole-free resting place beside the
next barrier (:func:`_patterns`).

Perfect games, the sixth pass (:mod:`.bots_foldris_clean`): while flawless, a flawless first drop is
credited ``clean`` (200) times the chance that the next two cards can be drawn flawlessly too (an
expectimax over the cards left, without the order; no room guard, ``clean_gap=0``), which keeps five times
as many sheets flawless into the last cards; and with ``perfect_from`` (6) cards left or fewer after the
revealed one, the same expectimax to the end of the deck gives the exact chance of a perfect game, and the
drop with the best chance is played whenever it is not 0 (``perfect_nodes``: a budget of positions per
move, past which the move is played as usual). Measured in docs/ai-foldris.md: 5, 4 and 5 perfect games
on three sets of 1,000 deals where the fifth-pass player made none, at the same mean of lines or higher.

The flaw cost is also off while the highest column leaves fewer than ``flaw_gap`` (5) free rows: a
flawless sheet is no use if the next block cannot be drawn, and chasing one with a jagged, high stack was
what ended the few games that collapsed (3 to 7 lines).

Multiplayer gets a different budget and a few different weights. Solo must answer in under 50 ms, so it
searches two own plies (``beam`` first drops); with opponents the issue allows 2 s a move, so the search
goes one own ply deeper in mid-game (``mp_deep`` 2: drop, next card, drop, the card after, drop) over
fewer first drops (``mp_beam`` 4), capped at ``mp_seconds`` of CPU. ``mp_NAME=x`` sets weight ``NAME`` for
multiplayer games only (:data:`MULTI` holds the defaults that differ): with opponents a game tied on lines
is decided by the bonus points left, so a point spent on a mirror or a trim costs more there.

A CPU-time budget (``seconds``, ``time.thread_time``, so a loaded machine does not change the play) stops
widening the first-ply beam. Figures (mean lines, CPU per move) are in docs/ai-foldris.md.
"""

from __future__ import annotations

import time
from typing import Any

from ..core import ConfigError, Game, Rng
from ..games.foldris import (
    WEIGHTS,
    WIDTH,
    Drop,
    FoldrisState,
    VariantTable,
    deck_of,
    evaluate_sheet,
    fold,
    heights,
    tables_of,
)
from ._bots import register_bot
from .bots_foldris_cap import NO_CAP, line_cap
from .bots_foldris_clean import CleanSurvival
from .bots_foldris_exact import last_lines, pair_lines

__all__ = ["FoldrisExpectimaxBot"]

_END = 1000.0
"""Value of one line when the leaf ends the game (dominates every shape term)."""
_DEAD = -5000.0
"""Value of an elimination (before the lines already made)."""
_SPARE = 100.0
"""Value of a line past ``cap`` (it cannot change the result): small, so a risk of elimination of more than
2% outweighs it, yet lines still break ties between drops the search cannot tell apart (when every drop
looks lost, for instance, since the search assumes the barrier falls)."""
Group = tuple[VariantTable, dict[int, int]]


def _groups(deck: tuple[int, ...], tables: tuple[VariantTable, ...], cards: tuple[tuple[str, int], ...]) -> list[Group]:
    """The remaining cards as a multiset: per shape table, the count of each lane (the order is never used)."""
    groups: dict[int, Group] = {}
    for idx in deck:
        t = tables[idx]
        g = groups.get(id(t))
        if g is None:
            g = groups[id(t)] = (t, {})
        ln = cards[idx][1]
        g[1][ln] = g[1].get(ln, 0) + 1
    return list(groups.values())


EXTRA: dict[str, float] = {"misfit": 0.0, "perfect": -80.0, "clean": 200.0}
"""Search-only terms (on top of the one-ply ``WEIGHTS``): ``misfit`` weighs the share of the cards left whose
shape has no hole-free resting place beside the next barrier; ``clean`` (solo, while flawless) weighs the
chance that a flawless first drop stays flawless for ``clean_depth`` more cards (:mod:`.bots_foldris_clean`)."""


MULTI: dict[str, float] = {"perfect": 0.0, "bonus": 25.0, "clean": 0.0}
"""Defaults that differ with opponents (``mp_NAME=x`` sets weight NAME for multiplayer games only): no
first-flaw cost, and a bonus point worth about twice the solo value, since a game tied on lines (most of
them end at 10 or 11 each) goes to the player with more points left."""


def _patterns(table: VariantTable) -> tuple[tuple[int, str], ...]:
    """Per untrimmed variant: (cost, the steps of its bottom profile as a string); "" for one column wide.

    A variant rests without leaving a hole exactly where the surface's steps between neighbouring columns
    equal its own, so a substring test finds every hole-free resting place at once.
    """
    out = []
    for v in table.variants:
        if v.trim:
            continue
        bs = [b for _, b in v.profile]
        out.append((v.cost, "".join(chr(80 + bs[j + 1] - bs[j]) for j in range(len(bs) - 1))))
    return tuple(out)


class _Search:
    """The evaluation used by the search: the one-ply weights (optionally overridden) and a sheet cache."""

    def __init__(self, weights: dict[str, float]) -> None:
        self.w = weights
        self.misfit = weights["misfit"]
        self.flaw = 0.0
        """``perfect`` while a perfect game is still possible (no hole, no trim yet), else 0: the cost of a
        first flaw on top of the shape terms, since any hole or trim rules out the last line."""
        self.tie = 0.0
        """Value of a bonus point gained or spent when the search reaches the end (a tie-break in multiplayer)."""
        self.end_dead = 0.0
        """Value of an elimination in an exact search: no more lines in solo, a lost game otherwise."""
        self.root_height = 0
        """The sheet height at the root of this move's search (its drop in height counts the lines made since)."""
        self.cap = NO_CAP
        """In an exact multiplayer search: the lines still worth making (more cannot change the result)."""
        self.fit_cache: dict[tuple[tuple[int, ...], int, int], float] = {}
        self.shapes: list[tuple[float, tuple[tuple[int, str], ...]]] = []
        self.land = weights["landing"]
        self.line4 = weights["lines"] * 4
        self.bonus = weights["bonus"]
        self.trim = weights["trimmed"]
        self.gap = weights["barrier_gap"]
        self.cache: dict[tuple[int, int], tuple[float, tuple[int, ...]]] = {}

    def line_gain(self, height: int, n: int) -> float:
        """Exact-search value of ``n`` lines made on a sheet of ``height`` rows: ``_END`` each, but only up to
        ``cap`` lines since the root (a line past what beats every opponent is worth nothing, so no risk is
        taken for it)."""
        made = self.root_height - height
        cap = self.cap
        counted = (made + n if made + n < cap else cap) - (made if made < cap else cap)
        return _END * counted + _SPARE * (n - counted)

    def sheet_value(self, ink: int, height: int) -> tuple[float, tuple[int, ...]]:
        """The barrier-free sheet evaluation and the column heights, memoised (sheets recur across branches)."""
        key = (ink, height)
        hit = self.cache.get(key)
        if hit is None:
            if len(self.cache) > 200_000:
                self.cache.clear()
            hit = self.cache[key] = (evaluate_sheet(ink, height, 0, self.w), heights(ink))
        return hit

    def set_deck(self, groups: list[Group]) -> None:
        """The cards left, as (share of the deck, patterns) per shape, for the misfit term of this move."""
        total = sum(sum(lanes.values()) for _, lanes in groups) or 1
        self.shapes = [(sum(lanes.values()) / total, _patterns(t)) for t, lanes in groups]
        self.fit_cache.clear()

    def misfit_term(self, hts: tuple[int, ...], lane: int, bonus: int) -> float:
        """``misfit`` times the share of the cards left with no hole-free resting place beside the barrier
        in ``lane`` (0: no barrier); memoised per surface."""
        key = (hts, lane, bonus if bonus < 1 else 1)
        hit = self.fit_cache.get(key)
        if hit is None:
            lo, hi = lane - 1, lane
            steps = "".join(
                "|" if lane and lo - 1 <= c <= hi else chr(80 + hts[c + 1] - hts[c]) for c in range(WIDTH - 1)
            )
            miss = 0.0
            for share, pats in self.shapes:
                for cost, pat in pats:
                    if cost <= bonus and (pat in steps if pat else True):
                        break
                else:
                    miss += share
            hit = self.fit_cache[key] = self.misfit * miss
        return hit

    def gap_term(self, hts: tuple[int, ...], lane: int, height: int) -> float:
        """The barrier term of the one-ply evaluation for a barrier falling in ``lane`` on this surface."""
        c = lane - 1
        a, b = hts[c], hts[c + 1]
        y = a if a > b else b
        if y >= height:
            return 0.0
        return self.gap * (2 * y - a - b)

    def leaf(
        self,
        table: VariantTable,
        ink: int,
        barrier: int,
        height: int,
        budget: int,
        lanes: tuple[int, ...],
        last: bool,
    ) -> list[float]:
        """For each lane of ``lanes``: the best one-ply value of dropping a card of this shape with that lane.

        Cards of one shape share the drop search; only the barrier term depends on the lane. ``last``: the
        deck ends with this card, so a drop is worth its lines only.
        """
        hts = heights(ink | barrier)
        best = [float("-inf")] * len(lanes)
        gains = [self.line_gain(height, n) for n in range(5)] if last else []
        w_land, w_line4, w_bonus = self.land, self.line4, self.bonus
        for v in table.variants:
            if v.cost > budget:
                break
            top = height - v.height
            extra = w_bonus * -v.cost + (self.trim if v.trim else 0.0)
            for col, prof in enumerate(v.columns):
                y = 0
                for c, b in prof:
                    d = hts[c] - b
                    if d > y:
                        y = d
                if y > top:
                    continue
                new = ink | (v.bits << (WIDTH * y + col))
                n = 0
                for r in range(y + v.height - 1, y - 1, -1):
                    if (new >> (WIDTH * r)) & 0xFF == 0xFF:
                        new = fold(new, r)
                        n += 1
                if last:
                    value = gains[n] + self.tie * (n - v.cost)
                    for k in range(len(lanes)):
                        if value > best[k]:
                            best[k] = value
                    continue
                h2 = height - n
                base, hts2 = self.sheet_value(new, h2)
                value = base + extra + w_land * (y + (v.height - 1) / 2 - n) + (w_line4 + w_bonus) * n
                if self.flaw and (v.trim or sum(hts2) != new.bit_count()):
                    value += self.flaw
                bon = budget + n - v.cost
                for k, lane in enumerate(lanes):
                    val = value + self.gap_term(hts2, lane, h2)
                    if self.misfit:
                        val += self.misfit_term(hts2, lane, bon)
                    if val > best[k]:
                        best[k] = val
        return best

    def children(
        self, table: VariantTable, ink: int, barrier: int, height: int, budget: int, lane: int, falls: bool, exact: bool
    ) -> list[tuple[float, float, int, int, int, int, int, int]]:
        """Every drop of a card on a sheet, best first: (one-ply value, own terms, variant, column, ink,
        barrier, height, bonus).

        ``falls``: the barrier falls in ``lane`` whatever happens (solo); otherwise only when no line is
        made. In ``exact`` mode the own terms are the lines alone (the search reaches the end of the deck).
        The drop, the fold, the memoised sheet value and the barrier are inlined (this is the search's
        inner loop); the barrier rests on the higher of its two columns, as ``barrier_drop`` puts it.
        """
        hts = heights(ink | barrier)
        out = []
        cache = self.cache
        land, line4, w_bonus, w_trim, flaw, gap = self.land, self.line4, self.bonus, self.trim, self.flaw, self.gap
        c0 = lane - 1
        for i, v in enumerate(table.variants):
            if v.cost > budget:
                break
            top = height - v.height
            half = (v.height - 1) / 2
            cost = v.cost
            trim = w_trim if v.trim else 0.0
            for col, prof in enumerate(v.columns):
                y = 0
                for c, b in prof:
                    d = hts[c] - b
                    if d > y:
                        y = d
                if y > top:
                    continue
                new = ink | (v.bits << (WIDTH * y + col))
                n = 0
                for r in range(y + v.height - 1, y - 1, -1):
                    if (new >> (WIDTH * r)) & 0xFF == 0xFF:
                        new = fold(new, r)
                        n += 1
                h = height - n
                terms = land * (y + half - n) + line4 * n + w_bonus * (n - cost) + trim
                hit = cache.get((new, h))
                if hit is None:
                    hit = self.sheet_value(new, h)
                base, hts2 = hit
                if flaw and (v.trim or sum(hts2) != new.bit_count()):
                    terms += flaw
                value = terms + base
                bar = 0
                if falls or n == 0:
                    a, b2 = hts2[c0], hts2[lane]
                    yb = a if a > b2 else b2
                    if yb < h:
                        bar = 0b11 << (WIDTH * yb + c0)
                        value += gap * (2 * yb - a - b2)
                if self.misfit:
                    value += self.misfit_term(hts2, lane if bar else 0, budget + n - cost)
                own = self.line_gain(height, n) + self.tie * (n - cost) if exact else terms
                out.append((value, own, i, col, new, bar, h, budget + n - cost))
        out.sort(key=lambda t: -t[0])
        return out


def _flawless(state: FoldrisState, player: int) -> bool:
    """No hole and no trimmed square on the player's sheet so far (a perfect game is still possible).

    Trims are seen by counting: with one block size, every square drawn is either inked or folded away.
    """
    deck = deck_of(state.config)
    sizes = {len(shape) for _, shape in deck.shapes}
    sheet = state.sheets[player]
    ink = sheet.ink.bit_count()
    if len(sizes) != 1 or sum(heights(sheet.ink)) != ink:
        return False
    return ink + WIDTH * sheet.lines == 4 + sizes.pop() * (state.round - 1)


class FoldrisExpectimaxBot:
    """Expectimax over the remaining deck (see the module docstring).

    ``beam``: first drops expanded; ``beam2``: drops expanded at the second own ply when the search is
    three plies deep; ``endgame``: with at most this many cards left after the revealed one, search three
    plies (to the end of the deck when it is that short); ``seconds``: CPU cap on widening the first ply.
    ``flaw_gap``: the first-flaw cost applies only with at least this many free rows over the stack.
    With opponents ``mp_deep`` own plies after the first (mid-game), ``mp_beam``, ``mp_endgame`` (default:
    ``endgame``) and ``mp_seconds`` replace the solo values; ``mp_NAME=x`` overrides weight ``NAME`` there.
    ``cap_lines``: value lines in the multiplayer endgame only up to what can change the result
    (:func:`.line_cap`); false gives the earlier search. ``mp_exact``: with opponents, search to the end
    of the deck (exactly) from this many cards left after the revealed one.
    Solo endgame (:meth:`_solo_exact`): ``exact`` cards left or fewer after the revealed one, search to the
    end of the deck with ``xbeam`` drops a ply (every drop with two cards left when ``pair``); with one
    card more, the best ``xtop`` drops of the usual search are searched to the end (``vbeam`` drops a ply)
    while the CPU cap allows. ``fast=false`` runs the solo endgame through the general search instead.
    ``flaw_late``: the free rows the flaw cost needs shrink with the sheet (at most half its height).
    ``twelve``: extra lines a perfect game (every row completed) is worth to the solo exact search.
    ``xclean``: while the sheet is flawless, the solo exact search also tries every clean drop past its beam.
    ``clean_depth``, ``clean_to``: the cards the survival term (weight ``clean``) looks ahead, and the last
    round it is used in (solo, mid-game; :mod:`.bots_foldris_clean`); ``clean_gap``: the free rows over the
    stack it needs (default 0: none; -1: as the first-flaw cost, ``flaw_gap``). ``perfect_from``: solo, with at most
    this many cards left after the revealed one and the sheet flawless, play the drop with the best chance of
    a perfect game (exact, over every order of the cards left) whenever that chance is not 0 (0: never);
    ``perfect_nodes``: the positions that search may expand in one move (0: no limit), past which the move
    is played as usual.
    """

    def __init__(
        self,
        beam: int = 10,
        beam2: int = 3,
        endgame: int = 2,
        seconds: float = 0.045,
        name: str = "expectimax",
        flaw_gap: int = 5,
        mp_deep: int = 2,
        mp_beam: int = 4,
        mp_endgame: int = -1,
        mp_seconds: float = 1.0,
        cap_lines: bool = True,
        mp_exact: int = 2,
        exact: int = 3,
        xbeam: int = 4,
        fast: bool = True,
        pair: bool = True,
        flaw_late: bool = False,
        twelve: float = 0.0,
        xclean: bool = False,
        xtop: int = 2,
        vbeam: int = 3,
        clean_depth: int = 2,
        clean_to: int = 16,
        clean_gap: int = 0,
        perfect_from: int = 6,
        perfect_nodes: int = 2000,
        **weights: float,
    ) -> None:
        if beam < 1 or beam2 < 1:
            raise ConfigError("beam and beam2 must be at least 1")
        self.beam = beam
        self.beam2 = beam2
        self.endgame = endgame
        self.seconds = seconds
        self.name = name
        self.flaw_gap = flaw_gap
        self.mp_deep = mp_deep
        self.mp_beam = mp_beam
        self.mp_endgame = endgame if mp_endgame < 0 else mp_endgame
        self.mp_seconds = mp_seconds
        self.cap_lines = cap_lines
        self.mp_exact = mp_exact
        self.exact = exact
        self.xbeam = xbeam
        self.memo: dict[tuple[Any, ...], float] = {}
        self.fast = fast
        self.pair = pair
        self.flaw_late = flaw_late
        self.twelve = twelve
        self.xclean = xclean
        self.perfect_open = False
        """In the solo exact search: ``xclean`` is on and the sheet is still flawless at the root."""
        self.last_memo: dict[tuple[int, int, int, int, int], int] = {}
        self.xtop = xtop
        self.vbeam = vbeam
        self.size = 4
        self.clean_depth = clean_depth
        self.clean_to = clean_to
        self.clean_gap = clean_gap
        self.perfect_from = perfect_from
        self.perfect_nodes = perfect_nodes
        self.perfect_search: CleanSurvival | None = None
        self.perfect_left = 0
        names = set(WEIGHTS) | set(EXTRA)
        unknown = {k for k in weights if k.removeprefix("mp_") not in names}
        if unknown:
            raise ConfigError(f"unknown parameter(s) {', '.join(sorted(unknown))}; weights are {', '.join(WEIGHTS)}")
        solo_w = {**WEIGHTS, **EXTRA, **{k: float(x) for k, x in weights.items() if not k.startswith("mp_")}}
        multi_w = {**solo_w, **MULTI, **{k[3:]: float(x) for k, x in weights.items() if k.startswith("mp_")}}
        self.solo_search = _Search(solo_w)
        self.multi_search = _Search(multi_w)
        self.search = self.solo_search

    def _expect(
        self,
        deck: tuple[int, ...],
        ink: int,
        barrier: int,
        height: int,
        bonus: int,
        depth: int,
        exact: bool,
        ctx: tuple[tuple[VariantTable, ...], tuple[tuple[str, int], ...], bool],
    ) -> float:
        """Expected value of the best play of the next ``depth`` cards drawn from ``deck`` (a multiset)."""
        tables, cards, solo = ctx
        if exact and depth > 1:
            key = (deck, ink, barrier, height, bonus, depth)
            hit = self.memo.get(key)
            if hit is not None:
                return hit
        total = 0.0
        groups = _groups(deck, tables, cards)
        if depth == 1:
            for t, lanes in groups:
                lane_list = tuple(lanes)
                best = self.search.leaf(t, ink, barrier, height, bonus, lane_list, exact)
                for k, ln in enumerate(lane_list):
                    b = best[k]
                    if b == float("-inf"):
                        b = self.search.end_dead if exact else _DEAD
                    total += lanes[ln] * b
            return total / len(deck)
        for t, lanes in groups:
            for ln, count in lanes.items():
                kids = self.search.children(t, ink, barrier, height, bonus, ln, solo, exact)
                if not kids:
                    total += count * (self.search.end_dead if exact else _DEAD)
                    continue
                pos = next(k for k, i in enumerate(deck) if tables[i] is t and cards[i][1] == ln)
                rest = deck[:pos] + deck[pos + 1 :]
                top = float("-inf")
                for _, terms, _, _, new, bar, h, bon in kids[: self.beam2]:
                    val = terms + (self._expect(rest, new, bar, h, bon, depth - 1, exact, ctx) if rest else 0.0)
                    if val > top:
                        top = val
                total += count * top
        if exact:
            self.memo[key] = total / len(deck)
        return total / len(deck)

    def _solo_exact(
        self,
        deck: tuple[int, ...],
        ink: int,
        barrier: int,
        height: int,
        bonus: int,
        ctx: tuple[tuple[VariantTable, ...], tuple[tuple[str, int], ...], bool],
    ) -> float:
        """Solo, to the end of the deck: the expected lines still to come (``_END`` each) with the best play of
        the ``xbeam`` best drops (by the one-ply value) at every own ply, the next card drawn from ``deck``.

        Lines are all that counts here, so a sheet's value is bounded by the squares still to come (a line
        takes 8 of them, and at most one line per row left): a branch that cannot make a line is worth 0 without
        a search, and a drop whose value reaches the bound ends the search of its card. Memoised per move
        (transpositions: the same sheet after two cards in either order).
        """
        k = len(deck)
        bound = (ink.bit_count() + self.size * k) // WIDTH
        if bound > height:
            bound = height
        if bound == 0:
            return 0.0
        key = (deck, ink, barrier, height, bonus)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        tables, cards, _ = ctx
        search = self.search
        total = 0.0
        if k == 1:
            n = last_lines(tables[deck[0]], ink, barrier, height, bonus, self.size)
            total = _END * (n + (self.twelve if n == height else 0.0))
            self.memo[key] = total
            return total
        if k == 2 and self.pair:
            # Two cards left: every drop of the first (not a beam), then the last card's best lines.
            a, b = deck
            ta, tb = tables[a], tables[b]
            memo = self.last_memo
            ab = pair_lines(ta, cards[a][1], tb, ink, barrier, height, bonus, self.size, memo)
            ba = pair_lines(tb, cards[b][1], ta, ink, barrier, height, bonus, self.size, memo)
            total = _END * (ab + ba + self.twelve * ((ab == height) + (ba == height))) / 2
            self.memo[key] = total
            return total
        top_value = _END * bound
        beam = self.xbeam
        for t, lanes in _groups(deck, tables, cards):
            for ln, count in lanes.items():
                kids = search.children(t, ink, barrier, height, bonus, ln, True, True)
                pos = next(j for j, i in enumerate(deck) if tables[i] is t and cards[i][1] == ln)
                rest = deck[:pos] + deck[pos + 1 :]
                top = 0.0
                pick = kids[:beam]
                if self.perfect_open and len(kids) > beam and sum(heights(ink)) == ink.bit_count():
                    # While a perfect game is open: every clean drop too (few; the one-ply order misses them).
                    pick += [
                        d for d in kids[beam:] if not t.variants[d[2]].trim and sum(heights(d[4])) == d[4].bit_count()
                    ]
                for _, terms, _, _, new, bar, h, bon in pick:
                    val = terms + self._solo_exact(rest, new, bar, h, bon, ctx)
                    if val > top:
                        top = val
                        if top >= top_value:
                            break
                total += count * top
        total /= k
        self.memo[key] = total
        return total

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Drop:
        assert isinstance(state, FoldrisState)
        start = time.thread_time()
        config = state.config
        deck = deck_of(config)
        tables = tables_of(config)
        card_name, lane = deck.cards[state.card]
        table = tables[state.card]
        sheet = state.sheets[player]
        solo = config.players == 1
        self.search = self.solo_search if solo else self.multi_search
        self.search.tie = 0.0 if solo else 1.0
        self.search.end_dead = 0.0 if solo else _DEAD
        gap = min(self.flaw_gap, sheet.height // 2) if self.flaw_late else self.flaw_gap
        flawless = _flawless(state, player)
        room = sheet.height - max(heights(sheet.ink))
        clean = flawless and room >= gap
        self.search.flaw = self.search.w["perfect"] if clean else 0.0
        self.perfect_open = self.xclean and solo and flawless
        self.search.misfit = self.search.w["misfit"] if clean and solo else 0.0
        remaining = len(state.deck)
        if solo and flawless and remaining <= self.perfect_from:
            if self.perfect_search is None or remaining >= self.perfect_left:
                self.perfect_search = CleanSurvival(tables, deck.cards, self.perfect_nodes)  # a new game
            self.perfect_left = remaining
            now = (sheet.barrier.bit_length() - 1) % WIDTH if sheet.barrier else 0
            hts = heights(sheet.ink)
            found = self.perfect_search.perfect_drop(
                table, lane, hts, sheet.height, now, sheet.bonus, tuple(sorted(state.deck))
            )
            if found is not None and found[0] > 0.0:
                v = table.variants[found[1]]
                return Drop(card_name, v.mirror, v.trim, v.rot, found[2])
        beam, seconds, endgame, deep = (
            (self.beam, self.seconds, self.endgame, 1)
            if solo
            else (self.mp_beam, self.mp_seconds, self.mp_endgame, self.mp_deep)
        )
        depth = 2 if remaining <= endgame else deep
        if remaining <= (self.exact if solo else self.mp_exact):
            depth = max(depth, remaining)
        self.memo.clear()
        self.last_memo.clear()
        self.size = max(len(shape) for _, shape in deck.shapes)
        exact = remaining <= depth
        self.search.root_height = sheet.height
        self.search.cap = line_cap(state, player) if exact and not solo and self.cap_lines else NO_CAP
        if self.search.misfit:
            self.search.set_deck(_groups(state.deck, tables, deck.cards))
        first = self.search.children(table, sheet.ink, sheet.barrier, sheet.height, sheet.bonus, lane, solo, exact)
        if not first:
            raise ConfigError(f"Foldris: player {player + 1} has no legal drop")
        if remaining == 0 or beam == 1:
            # The last card (exact): most lines, then the one-ply value; else the one-ply best.
            pick = max(first, key=lambda t: (t[1], t[0])) if exact else first[0]
            v = table.variants[pick[2]]
            return Drop(card_name, v.mirror, v.trim, v.rot, pick[3])
        ctx = (tables, deck.cards, solo)
        scored: list[tuple[float, float, int, int]] = []
        w_clean = self.search.w["clean"]
        survival = None
        clean_gap = gap if self.clean_gap < 0 else self.clean_gap
        if w_clean and flawless and room >= clean_gap and not exact and state.round <= self.clean_to:
            survival = CleanSurvival(tables, deck.cards)
            rest = tuple(sorted(state.deck))
        for k, (value1, terms, vi, col, ink, barrier, h1, bonus1) in enumerate(first[:beam]):
            if solo and exact and self.fast:
                score = terms + (self._solo_exact(state.deck, ink, barrier, h1, bonus1, ctx) if state.deck else 0.0)
            else:
                score = terms + self._expect(state.deck, ink, barrier, h1, bonus1, depth, exact, ctx)
            if survival is not None and not table.variants[vi].trim:
                hts = heights(ink)
                if sum(hts) == ink.bit_count():
                    score += w_clean * survival.survive(hts, h1, lane if barrier else 0, bonus1, rest, self.clean_depth)
            scored.append((score, value1, k, col))
            if time.thread_time() - start > seconds:
                break
        best = max(scored)
        if solo and remaining == self.exact + 1 and self.xtop and self.fast:
            # One card past the exact window: the best ``xtop`` drops by the usual search are searched to the
            # end of the deck (``vbeam`` drops a ply) and the most lines expected wins.
            beam_was, self.xbeam = self.xbeam, self.vbeam
            checked = []
            for sc in sorted(scored, reverse=True)[: self.xtop]:
                if time.thread_time() - start > seconds:
                    break
                _, _, _, _, ink, barrier, h1, bonus1 = first[sc[2]]
                lines = _END * (sheet.height - h1)
                checked.append((lines + self._solo_exact(state.deck, ink, barrier, h1, bonus1, ctx), sc))
            self.xbeam = beam_was
            if len(checked) > 1:
                best = max(checked)[1]
        v = table.variants[first[best[2]][2]]
        return Drop(card_name, v.mirror, v.trim, v.rot, best[3])


def _expectimax(**kw: Any) -> FoldrisExpectimaxBot:
    return FoldrisExpectimaxBot(**kw)


def _hard(**kw: Any) -> FoldrisExpectimaxBot:
    kw.setdefault("name", "hard")
    return FoldrisExpectimaxBot(**kw)


def _medium(**kw: Any) -> FoldrisExpectimaxBot:
    params: dict[str, Any] = {
        "beam": 3,
        "seconds": 0.02,
        "mp_deep": 1,
        "mp_beam": 3,
        "mp_seconds": 0.02,
        "exact": 2,
        "xbeam": 3,
        "xtop": 0,
        "pair": False,
        "clean": 0.0,
        "perfect_from": 0,
        "name": "medium",
    }
    params.update(kw)
    return FoldrisExpectimaxBot(**params)


register_bot("expectimax", _expectimax, "foldris")
register_bot("hard", _hard, "foldris")
register_bot("medium", _medium, "foldris")
