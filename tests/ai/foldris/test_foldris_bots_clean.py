"""The flawless-survival term of solo ``hard``: the heights-only model against drops on the full sheet."""

from __future__ import annotations

import itertools

import pytest

from games.foldris._helpers import GAME, rules_drop, solo_positions
from polytable.ai import make_bot
from polytable.ai.foldris import CleanSurvival, FoldrisExpectimaxBot, clean_drops, clean_shape, flawless
from polytable.core import ConfigError, Rng
from polytable.games.foldris import (
    WIDTH,
    Drop,
    FoldrisState,
    VariantTable,
    barrier_drop,
    deck_of,
    heights,
    placements,
    tables_of,
)


def _clean_children(table: VariantTable, ink: int, barrier: int, height: int, bonus: int) -> list[tuple[int, int, int]]:
    """Every legal drop by the rules' generator that uses no trim and leaves no hole: (ink folded, lines, cost)."""
    hts = heights(ink | barrier)
    out = []
    for i, col in placements(table, hts, height, bonus):
        v = table.variants[i]
        if v.trim:
            continue
        _, new, n = rules_drop(v, ink, hts, col)
        if sum(heights(new)) == new.bit_count():
            out.append((new, n, v.cost))
    return out


def _survive(
    state: FoldrisState, ink: int, barrier: int, height: int, bonus: int, deck: tuple[int, ...], depth: int
) -> float:
    """The survival probability on full sheets, by brute force over the rules' drops."""
    if depth == 0 or not deck:
        return 1.0
    tables, cards = tables_of(state.config), deck_of(state.config).cards
    total = 0.0
    for k, i in enumerate(deck):
        rest = deck[:k] + deck[k + 1 :]
        best = 0.0
        for new, n, cost in _clean_children(tables[i], ink, barrier, height, bonus):
            h = height - n
            best = max(
                best, _survive(state, new, barrier_drop(new, cards[i][1], h), h, bonus + n - cost, rest, depth - 1)
            )
        total += best
    return total / len(deck)


def _lane(barrier: int) -> int:
    return (barrier.bit_length() - 1) % WIDTH if barrier else 0


def _hole_free(state: FoldrisState) -> bool:
    ink = state.sheets[0].ink
    return state.round >= 2 and sum(heights(ink)) == ink.bit_count()


POSITIONS = solo_positions("medium", itertools.count(900), _hole_free, count=24, last_round=13)
"""Solo positions whose sheet has no hole, from the first rounds of ``medium`` games."""


def test_clean_drops_match_the_rules_drops() -> None:
    """Every card on every position: the heights-only clean drops are the rules' hole-free, untrimmed drops."""
    tables = tables_of(POSITIONS[0].config)
    compared = 0
    for state in POSITIONS:
        s = state.sheets[0]
        for table in {id(t): t for t in tables}.values():
            for bonus in (0, s.bonus):
                want = sorted(
                    (heights(new), n, cost)
                    for new, n, cost in _clean_children(table, s.ink, s.barrier, s.height, bonus)
                )
                got = sorted(
                    d[:3] for d in clean_drops(heights(s.ink), s.height, _lane(s.barrier), bonus, clean_shape(table))
                )
                assert got == want
                compared += len(want)
    assert compared > 500


@pytest.mark.parametrize("depth", [1, 2])
def test_survival_matches_a_brute_force(depth: int) -> None:
    """The memoised expectimax equals a plain one over full sheets, and it is a probability that varies."""
    seen = set()
    for state in POSITIONS[:: 3 if depth == 2 else 1]:
        s = state.sheets[0]
        config = state.config
        deck = (state.card, *state.deck)
        # The revealed card's drop is the bot's choice; here the survival of the whole hand from the sheet.
        want = _survive(state, s.ink, s.barrier, s.height, s.bonus, tuple(sorted(deck)), depth)
        cs = CleanSurvival(tables_of(config), deck_of(config).cards)
        got = cs.survive(heights(s.ink), s.height, _lane(s.barrier), s.bonus, tuple(sorted(deck)), depth)
        assert got == pytest.approx(want)
        assert 0.0 <= got <= 1.0
        seen.add(round(got, 6))
    assert len(seen) > 2


def test_clean_and_perfect_defaults() -> None:
    bot = make_bot("hard", "foldris")
    assert isinstance(bot, FoldrisExpectimaxBot)
    assert bot.solo_search.w["clean"] == 200.0 and bot.multi_search.w["clean"] == 0.0
    assert (bot.config.clean_depth, bot.config.perfect_from) == (2, 6)
    medium = make_bot("medium", "foldris")
    assert isinstance(medium, FoldrisExpectimaxBot)
    assert medium.solo_search.w["clean"] == 0.0 and medium.config.perfect_from == 0
    other = make_bot("hard:clean=50,clean_depth=1", "foldris")
    assert isinstance(other, FoldrisExpectimaxBot)
    assert other.solo_search.w["clean"] == 50.0 and other.config.clean_depth == 1
    with pytest.raises(ConfigError):
        make_bot("hard:cleen=1", "foldris")


def _after(state: FoldrisState, drop: Drop) -> float:
    """The two-card survival of the sheet a drop leaves (0 when it trims or leaves a hole), as the bot scores it."""
    if drop.trim:
        return 0.0
    s = GAME.apply(state, drop, 0).sheets[0]
    if sum(heights(s.ink)) != s.ink.bit_count():
        return 0.0
    cs = CleanSurvival(tables_of(state.config), deck_of(state.config).cards)
    return cs.survive(heights(s.ink), s.height, _lane(s.barrier), s.bonus, tuple(sorted(state.deck)), 2)


def test_hard_trades_shape_for_survival() -> None:
    """Where ``hard`` with the term plays another drop than without it, its drop survives better (the term
    is the only difference, and with the time cap lifted both score the same beam)."""
    on = make_bot("hard:seconds=10", "foldris")
    off = make_bot("hard:seconds=10,clean=0", "foldris")
    differ = 0
    for state in POSITIONS:
        rng = Rng(1, 1)
        a, b = on.choose(GAME, state, 0, rng), off.choose(GAME, state, 0, rng)
        if a != b:
            differ += 1
            assert _after(state, a) > _after(state, b)
    assert differ >= 1


def test_perfect_drop_is_the_best_chance_of_a_perfect_game() -> None:
    """The chance of a perfect game after each clean drop, brute-forced over full sheets and every order of
    the cards left, is never above the one ``perfect_drop`` reports, which its own drop reaches; and
    ``hard:perfect_from=5`` plays that drop whenever the chance is not 0 (unless its node budget runs out:
    then it plays as without the mode)."""
    # Flawless positions with at most 5 cards left, on deals where the survival term keeps the sheet clean.
    late = solo_positions(
        "hard:seconds=10,perfect_from=0",
        (32067, 32073, 32079),
        lambda s: len(s.deck) <= 5 and flawless(s, 0),
    )
    assert len(late) >= 4
    bot = make_bot("hard:perfect_from=5,perfect_nodes=0", "foldris")
    positive = 0
    for state in late:
        s = state.sheets[0]
        tables, cards = tables_of(state.config), deck_of(state.config).cards
        table, lane = tables[state.card], cards[state.card][1]
        rest = tuple(sorted(state.deck))
        cs = CleanSurvival(tables, cards)
        found = cs.perfect_drop(table, lane, heights(s.ink), s.height, _lane(s.barrier), s.bonus, rest)
        assert found is not None
        chance, vi, col = found
        if rest and cs.nodes > 1:
            # A budget smaller than the search gives up, and the move is then played as usual.
            tight = CleanSurvival(tables, cards, limit=1)
            assert tight.perfect_drop(table, lane, heights(s.ink), s.height, _lane(s.barrier), s.bonus, rest) is None
            usual = make_bot("hard:perfect_from=0", "foldris").choose(GAME, state, 0, Rng(1, 1))
            assert make_bot("hard:perfect_from=5,perfect_nodes=1", "foldris").choose(GAME, state, 0, Rng(1, 1)) == usual
        brute = []
        for new, n, cost in _clean_children(table, s.ink, s.barrier, s.height, s.bonus):
            h = s.height - n
            p = _survive(state, new, barrier_drop(new, lane, h), h, s.bonus + n - cost, rest, len(rest))
            brute.append(p if rest else float(h == 0))
        assert chance == pytest.approx(max(brute, default=0.0))
        if chance > 0:
            positive += 1
            v = table.variants[vi]
            drop = Drop(cards[state.card][0], v.mirror, v.trim, v.rot, col)
            assert bot.choose(GAME, state, 0, Rng(1, 1)) == drop
    assert 1 <= positive < len(late)
