"""Foldris' own players: ``hard`` (also ``expectimax``) and ``medium``, one expectimax with two configs.

What: an expectation over the next card, drawn from the public multiset of the cards left (never their
order: ``state.deck`` is read as a multiset and ``state.rng`` never), maximised over the player's own
drops; the first ply is a beam of drops ordered by the one-ply evaluation, searched on raw int sheets
(:mod:`._search`). Near the end only lines count, so the search runs to the end of the deck (solo:
:mod:`._exact`; with opponents lines are worth making only while they can change the result, :mod:`._cap`).
Solo, while a perfect game (12 lines) is possible, a first flaw costs ``perfect`` and a flawless drop earns
``clean`` times its chance to stay flawless; from ``perfect_from`` cards left the drop with the best exact
chance of a perfect game is played (:mod:`._clean`).

Why expectimax and not MCTS: a sheet is a single-player problem between barriers whose only uncertainty is
the order of cards whose make-up is public. The design notes and every measurement: docs/ai-foldris.md.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any

from ...core import ConfigError, Game, Rng
from ...games.foldris import WIDTH, Drop, FoldrisState, VariantTable, deck_of, heights, tables_of
from .._bots import Bot
from ._cap import NO_CAP, line_cap
from ._clean import CleanSurvival
from ._eval import WEIGHTS
from ._exact import last_lines, pair_lines
from ._search import DEAD, END, Search, groups

__all__ = ["EXTRA", "MEDIUM", "MULTI", "FoldrisConfig", "FoldrisExpectimaxBot", "flawless"]

EXTRA: dict[str, float] = {"perfect": -80.0, "clean": 200.0}
"""Search-only weights on top of the one-ply ``WEIGHTS``: ``perfect``, the cost of a first flaw (hole or
trim) while a perfect solo game is possible; ``clean``, the credit per unit of chance that a flawless
first drop stays flawless for ``clean_depth`` more cards (solo)."""

MULTI: dict[str, float] = {"perfect": 0.0, "bonus": 25.0, "clean": 0.0}
"""Weights that differ with opponents: no perfect-game terms, and a bonus point worth about twice the solo
value, since a game tied on lines goes to the player with more points left."""


@dataclass(frozen=True)
class FoldrisConfig:
    """The search of one level; the defaults are ``hard``'s (:data:`MEDIUM` is ``medium``'s).

    Solo: ``beam`` first drops expanded, ``seconds`` of CPU (this thread's) to widen them; ``endgame``: with
    at most this many cards left after the revealed one, three own plies (``beam2`` drops at the middle one);
    ``exact``: from this many cards left, to the end of the deck with ``xbeam`` drops a ply (every drop with
    two left when ``pair``); with one card more, the best ``xtop`` drops are searched to the end too
    (``vbeam`` drops a ply). ``flaw_gap``: the first-flaw cost needs this many free rows over the stack.
    ``clean_depth``/``clean_to``: the cards the flawless-survival credit looks ahead and its last round;
    ``perfect_from``/``perfect_nodes``: the exact perfect-game search's window and its positions a move.
    With opponents ``mp_deep`` own plies after the first over ``mp_beam`` drops, ``mp_seconds`` of CPU,
    to the end of the deck from ``mp_exact`` cards left. ``weights``: overrides of the evaluation's
    weights (``WEIGHTS`` and :data:`EXTRA`), ``mp_NAME`` for games with opponents only.
    """

    beam: int = 10
    beam2: int = 3
    endgame: int = 2
    seconds: float = 0.045
    flaw_gap: int = 5
    exact: int = 3
    xbeam: int = 4
    pair: bool = True
    xtop: int = 2
    vbeam: int = 3
    clean_depth: int = 2
    clean_to: int = 16
    perfect_from: int = 6
    perfect_nodes: int = 2000
    mp_deep: int = 2
    mp_beam: int = 4
    mp_seconds: float = 1.0
    mp_exact: int = 2
    weights: dict[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.beam < 1 or self.beam2 < 1:
            raise ConfigError("beam and beam2 must be at least 1")
        names = set(WEIGHTS) | set(EXTRA)
        unknown = {k for k in self.weights if k.removeprefix("mp_") not in names}
        if unknown:
            raise ConfigError(f"unknown parameter(s) {', '.join(sorted(unknown))}; weights are {', '.join(WEIGHTS)}")

    @classmethod
    def of(cls, base: dict[str, Any], **kw: Any) -> FoldrisConfig:
        """A config from a level's values ``base`` and ``NAME=value`` parameters: a field, else a weight."""
        names = {f.name for f in fields(cls)} - {"weights"}
        params = {**base, **kw}
        weights = {k: float(v) for k, v in params.items() if k not in names}
        return cls(**{k: v for k, v in params.items() if k in names}, weights=weights)


MEDIUM: dict[str, Any] = {
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
}
"""``medium``: a narrow beam, 20 ms, the short exact window without the pair scan, no perfect-game search."""


def flawless(state: FoldrisState, player: int) -> bool:
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
    """Expectimax over the remaining deck (see the module docstring and :class:`FoldrisConfig`)."""

    def __init__(self, config: FoldrisConfig | None = None, name: str = "expectimax") -> None:
        self.config = config = config or FoldrisConfig()
        self.name = name
        self.memo: dict[tuple[Any, ...], float] = {}
        self.last_memo: dict[tuple[int, int, int, int, int], int] = {}
        self.xbeam = config.xbeam
        """Drops a ply in :meth:`_solo_exact` (``vbeam`` while the ``xtop`` drops are re-searched)."""
        self.size = 4
        self.perfect_search: CleanSurvival | None = None
        self.perfect_left = 0
        w = config.weights
        solo_w = {**WEIGHTS, **EXTRA, **{k: x for k, x in w.items() if not k.startswith("mp_")}}
        multi_w = {**solo_w, **MULTI, **{k[3:]: x for k, x in w.items() if k.startswith("mp_")}}
        self.solo_search = Search(solo_w)
        self.multi_search = Search(multi_w)
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
        grouped = groups(deck, tables, cards)
        if depth == 1:
            for t, lanes in grouped:
                lane_list = tuple(lanes)
                best = self.search.leaf(t, ink, barrier, height, bonus, lane_list, exact)
                for k, ln in enumerate(lane_list):
                    b = best[k]
                    if b == float("-inf"):
                        b = self.search.end_dead if exact else DEAD
                    total += lanes[ln] * b
            return total / len(deck)
        for t, lanes in grouped:
            for ln, count in lanes.items():
                kids = self.search.children(t, ink, barrier, height, bonus, ln, solo, exact)
                if not kids:
                    total += count * (self.search.end_dead if exact else DEAD)
                    continue
                pos = next(k for k, i in enumerate(deck) if tables[i] is t and cards[i][1] == ln)
                rest = deck[:pos] + deck[pos + 1 :]
                top = float("-inf")
                for _, terms, _, _, new, bar, h, bon in kids[: self.config.beam2]:
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
        """Solo, to the end of the deck: the expected lines still to come (``END`` each) with the best play of
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
            total = END * n
            self.memo[key] = total
            return total
        if k == 2 and self.config.pair:
            # Two cards left: every drop of the first (not a beam), then the last card's best lines.
            a, b = deck
            ta, tb = tables[a], tables[b]
            memo = self.last_memo
            ab = pair_lines(ta, cards[a][1], tb, ink, barrier, height, bonus, self.size, memo)
            ba = pair_lines(tb, cards[b][1], ta, ink, barrier, height, bonus, self.size, memo)
            total = END * (ab + ba) / 2
            self.memo[key] = total
            return total
        top_value = END * bound
        beam = self.xbeam
        for t, lanes in groups(deck, tables, cards):
            for ln, count in lanes.items():
                kids = search.children(t, ink, barrier, height, bonus, ln, True, True)
                pos = next(j for j, i in enumerate(deck) if tables[i] is t and cards[i][1] == ln)
                rest = deck[:pos] + deck[pos + 1 :]
                top = 0.0
                for _, terms, _, _, new, bar, h, bon in kids[:beam]:
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
        cfg = self.config
        config = state.config
        deck = deck_of(config)
        tables = tables_of(config)
        card_name, lane = deck.cards[state.card]
        table = tables[state.card]
        sheet = state.sheets[player]
        solo = config.players == 1
        search = self.search = self.solo_search if solo else self.multi_search
        search.tie = 0.0 if solo else 1.0
        search.end_dead = 0.0 if solo else DEAD
        clean = flawless(state, player)
        room = sheet.height - max(heights(sheet.ink))
        search.flaw = search.w["perfect"] if clean and room >= cfg.flaw_gap else 0.0
        remaining = len(state.deck)
        if solo and clean and remaining <= cfg.perfect_from:
            if self.perfect_search is None or remaining >= self.perfect_left:
                self.perfect_search = CleanSurvival(tables, deck.cards, cfg.perfect_nodes)  # a new game
            self.perfect_left = remaining
            now = (sheet.barrier.bit_length() - 1) % WIDTH if sheet.barrier else 0
            hts = heights(sheet.ink)
            found = self.perfect_search.perfect_drop(
                table, lane, hts, sheet.height, now, sheet.bonus, tuple(sorted(state.deck))
            )
            if found is not None and found[0] > 0.0:
                v = table.variants[found[1]]
                return Drop(card_name, v.mirror, v.trim, v.rot, found[2])
        beam, seconds, deep = (cfg.beam, cfg.seconds, 1) if solo else (cfg.mp_beam, cfg.mp_seconds, cfg.mp_deep)
        depth = 2 if remaining <= cfg.endgame else deep
        if remaining <= (cfg.exact if solo else cfg.mp_exact):
            depth = max(depth, remaining)
        self.memo.clear()
        self.last_memo.clear()
        self.size = max(len(shape) for _, shape in deck.shapes)
        exact = remaining <= depth
        search.root_height = sheet.height
        search.cap = line_cap(state, player) if exact and not solo else NO_CAP
        first = search.children(table, sheet.ink, sheet.barrier, sheet.height, sheet.bonus, lane, solo, exact)
        if not first:
            raise ConfigError(f"Foldris: player {player + 1} has no legal drop")
        if remaining == 0 or beam == 1:
            # The last card (exact): most lines, then the one-ply value; else the one-ply best.
            pick = max(first, key=lambda t: (t[1], t[0])) if exact else first[0]
            v = table.variants[pick[2]]
            return Drop(card_name, v.mirror, v.trim, v.rot, pick[3])
        ctx = (tables, deck.cards, solo)
        scored: list[tuple[float, float, int, int]] = []
        w_clean = search.w["clean"]
        survival = None
        if w_clean and clean and not exact and state.round <= cfg.clean_to:
            survival = CleanSurvival(tables, deck.cards)
            rest = tuple(sorted(state.deck))
        for k, (value1, terms, vi, col, ink, barrier, h1, bonus1) in enumerate(first[:beam]):
            if solo and exact:
                score = terms + (self._solo_exact(state.deck, ink, barrier, h1, bonus1, ctx) if state.deck else 0.0)
            else:
                score = terms + self._expect(state.deck, ink, barrier, h1, bonus1, depth, exact, ctx)
            if survival is not None and not table.variants[vi].trim:
                hts = heights(ink)
                if sum(hts) == ink.bit_count():
                    score += w_clean * survival.survive(hts, h1, lane if barrier else 0, bonus1, rest, cfg.clean_depth)
            scored.append((score, value1, k, col))
            if time.thread_time() - start > seconds:
                break
        best = max(scored)
        if solo and remaining == cfg.exact + 1 and cfg.xtop:
            # One card past the exact window: the best ``xtop`` drops by the usual search are searched to the
            # end of the deck (``vbeam`` drops a ply) and the most lines expected wins.
            self.xbeam = cfg.vbeam
            checked = []
            for sc in sorted(scored, reverse=True)[: cfg.xtop]:
                if time.thread_time() - start > seconds:
                    break
                _, _, _, _, ink, barrier, h1, bonus1 = first[sc[2]]
                lines = END * (sheet.height - h1)
                checked.append((lines + self._solo_exact(state.deck, ink, barrier, h1, bonus1, ctx), sc))
            self.xbeam = cfg.xbeam
            if len(checked) > 1:
                best = max(checked)[1]
        v = table.variants[first[best[2]][2]]
        return Drop(card_name, v.mirror, v.trim, v.rot, best[3])


def _expectimax(**kw: Any) -> FoldrisExpectimaxBot:
    return FoldrisExpectimaxBot(FoldrisConfig.of({}, **kw), name="expectimax")


def _hard(**kw: Any) -> FoldrisExpectimaxBot:
    return FoldrisExpectimaxBot(FoldrisConfig.of({}, **kw), name="hard")


def _medium(**kw: Any) -> FoldrisExpectimaxBot:
    return FoldrisExpectimaxBot(FoldrisConfig.of(MEDIUM, **kw), name="medium")


PLAYERS: dict[str, Callable[..., Bot]] = {"expectimax": _expectimax, "hard": _hard, "medium": _medium}
"""Foldris' own players by name (the registry's table points here)."""
