"""The flawless-survival term of solo ``hard``: the heights-only model against drops on the full sheet."""

from __future__ import annotations

import pytest

from polytable.ai import make_bot
from polytable.ai.bots_foldris import FoldrisExpectimaxBot
from polytable.ai.bots_foldris_clean import CleanSurvival, clean_drops, clean_shape
from polytable.core import CHANCE, ConfigError, Rng
from polytable.games.foldris import FoldrisState
from polytable.games.foldris._cards import WIDTH, VariantTable
from polytable.games.foldris._game import deck_of, tables_of
from polytable.games.foldris._rules import barrier_drop, fold, heights, placements, rest_row
from polytable.games.foldris._state import Drop

from ._helpers import GAME


def _clean_children(table: VariantTable, ink: int, barrier: int, height: int, bonus: int) -> list[tuple[int, int, int]]:
    """Every legal drop by the rules' generator that uses no trim and leaves no hole: (ink folded, lines, cost)."""
    hts = heights(ink | barrier)
    out = []
    for i, col in placements(table, hts, height, bonus):
        v = table.variants[i]
        if v.trim:
            continue
        y = rest_row(v, hts, col)
        new = ink | (v.bits << (WIDTH * y + col))
        n = 0
        for r in range(y + v.height - 1, y - 1, -1):
            if (new >> (WIDTH * r)) & 0xFF == 0xFF:
                new = fold(new, r)
                n += 1
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


def _flawless_positions(count: int) -> list[FoldrisState]:
    """Solo positions (a card revealed) whose sheet has no hole, from the first rounds of ``medium`` games."""
    bot = make_bot("medium", "foldris")
    out: list[FoldrisState] = []
    seed = 900
    while len(out) < count:
        rng = Rng(seed, 1)
        state = GAME.new_game(seed=seed, players=1)
        while not GAME.is_terminal(state) and state.round < 14:
            if GAME.current_player(state) == CHANCE:
                state = GAME.apply_chance(state)
                continue
            ink = state.sheets[0].ink
            if state.round >= 2 and sum(heights(ink)) == ink.bit_count():
                out.append(state)
            state = GAME.apply(state, bot.choose(GAME, state, 0, rng), 0)
        seed += 1
    return out[:count]


POSITIONS = _flawless_positions(24)


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
                got = sorted(clean_drops(heights(s.ink), s.height, _lane(s.barrier), bonus, clean_shape(table)))
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


def test_clean_weight_is_a_solo_option() -> None:
    bot = make_bot("hard", "foldris")
    assert isinstance(bot, FoldrisExpectimaxBot)
    assert bot.solo_search.w["clean"] == 0.0  # off by default: not shown to help (docs/ai-foldris.md)
    on = make_bot("hard:clean=200,clean_depth=1", "foldris")
    assert isinstance(on, FoldrisExpectimaxBot)
    assert on.solo_search.w["clean"] == 200.0 and on.multi_search.w["clean"] == 0.0 and on.clean_depth == 1
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
    on = make_bot("hard:seconds=10,clean=200", "foldris")
    off = make_bot("hard:seconds=10", "foldris")
    differ = 0
    for state in POSITIONS:
        rng = Rng(1, 1)
        a, b = on.choose(GAME, state, 0, rng), off.choose(GAME, state, 0, rng)
        if a != b:
            differ += 1
            assert _after(state, a) > _after(state, b)
    assert differ >= 1
