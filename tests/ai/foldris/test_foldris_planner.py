"""The Foldris solo planner (``expert``), its beam search (compiled and Python) and the clairvoyant bound."""

from __future__ import annotations

from dataclasses import replace

import pytest

from polytable.ai import make_bot
from polytable.ai.foldris import FoldrisPlanner, beam_lines, clairvoyant_lines, deal_order, sample_orders
from polytable.ai.foldris._plan import EXT
from polytable.core import CHANCE, ConfigError, Rng, get_game
from polytable.games.foldris import FoldrisState, deck_of, tables_of

GAME = get_game("foldris")


def _after(seed: int, drops: int, players: int = 1) -> FoldrisState:
    """A solo state with the next card revealed after ``drops`` rounds of ``greedy``."""
    bot = make_bot("greedy", "foldris")
    rng = Rng(seed, 1)
    state = GAME.apply_chance(GAME.apply_chance(GAME.new_game(seed=seed, players=players)))
    for _ in range(drops):
        for p in GAME.acting_players(state):
            state = GAME.apply(state, bot.choose(GAME, state, p, rng), p)
        state = GAME.apply_chance(state)
    assert isinstance(state, FoldrisState)
    return state


def _deck(state: FoldrisState) -> tuple[tuple[object, ...], tuple[int, ...]]:
    cards = deck_of(state.config).cards
    return tables_of(state.config), tuple(lane for _, lane in cards)


def test_the_deal_order_is_the_order_of_the_reveals() -> None:
    state = GAME.apply_chance(GAME.new_game(seed=11, players=1))
    order = deal_order(state)
    cards = deck_of(state.config).cards
    bot = make_bot("greedy", "foldris")
    seen = []
    while not GAME.is_terminal(state):
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply_chance(state)
            seen.append(cards[state.card] if state.card >= 0 else None)
        else:
            state = GAME.apply(state, bot.choose(GAME, state, 0, Rng(1)), 0)
    assert [cards[i] for i in order[: len(seen)]] == seen
    assert sorted(order) == sorted(GAME.apply_chance(GAME.new_game(seed=11, players=1)).deck)


@pytest.mark.skipif(EXT is None, reason="the compiled planner is not built here")
@pytest.mark.parametrize(("seed", "drops"), [(3, 0), (4, 6), (5, 12), (6, 17)])
def test_the_kernel_finds_what_the_python_search_finds(seed: int, drops: int) -> None:
    """The compiled beam search against the Python reference: every width, several sheets, several orders
    (including the true one), the same lines."""
    state = _after(seed, drops)
    s = state.sheets[0]
    tables, lanes = _deck(state)
    rest = state.deck
    orders = [deal_order(replace(state, card=-1)), *sample_orders(rest, 3, Rng(seed))]
    roots = [(s.ink, s.barrier, s.height, s.bonus), (s.ink, 0, s.height, 0)]
    for width in (1, 2, 7):
        for flaw in (0.0, -80.0):
            compiled = beam_lines(roots, orders, width, tables, lanes, flaw=flaw)  # type: ignore[arg-type]
            pure = beam_lines(roots, orders, width, tables, lanes, pure=True, flaw=flaw)  # type: ignore[arg-type]
            assert compiled == pure
            assert all(0 <= x <= s.height for row in compiled for x in row)


def test_a_wider_beam_finds_a_perfect_game_greedy_misses() -> None:
    """Seed 0's order allows 12 lines; a greedy pass over the same order makes fewer."""
    state = GAME.apply_chance(GAME.new_game(seed=0, players=1))
    assert clairvoyant_lines(state, 1, flaw=0.0) < 12
    assert clairvoyant_lines(state, 2000, flaw=0.0) == 12  # a beam of 1000 still makes 11
    with pytest.raises(ValueError, match="between rounds"):
        clairvoyant_lines(GAME.apply_chance(state), 10)


def test_a_flaw_cost_keeps_a_perfect_game_in_a_narrow_beam() -> None:
    """Seed 2's order allows 12 lines: a beam of 64 that ranks sheets by shape alone loses the flawless
    sheets and makes 11; the same beam with a cost on the first hole or trim keeps them and makes 12."""
    state = GAME.apply_chance(GAME.new_game(seed=2, players=1))
    assert clairvoyant_lines(state, 64, flaw=0.0) < 12
    assert clairvoyant_lines(state, 64) == 12  # the bound's default cost


def test_the_planner_never_reads_the_hidden_order() -> None:
    """Only the cards seen and the deck's make-up: reseeding the order and storing the unseen cards in
    another order changes no decision, given the same seed for the planner's own sampling."""
    bot = make_bot("expert:samples=8", "foldris")
    for seed, drops in ((21, 2), (22, 9), (23, 14)):
        state = _after(seed, drops)
        chosen = bot.choose(GAME, state, 0, Rng(7))
        for other in (1, 2, 3):
            shuffled = Rng(other).shuffle(state.deck)
            assert bot.choose(GAME, replace(state, rng=other * 977, deck=shuffled), 0, Rng(7)) == chosen


def test_the_planner_plays_legal_moves_and_is_seeded() -> None:
    """A whole solo game of legal drops; the same seed plays the same game; with opponents it plays as hard."""

    def game(seed: int) -> list[object]:
        bot = make_bot("expert:samples=4,candidates=4", "foldris")
        assert isinstance(bot, FoldrisPlanner)
        rng = Rng(seed, 1)
        state = GAME.new_game(seed=seed, players=1)
        played = []
        while not GAME.is_terminal(state):
            if GAME.current_player(state) == CHANCE:
                state = GAME.apply_chance(state)
                continue
            action = bot.choose(GAME, state, 0, rng)
            assert action in set(GAME.legal_actions(state, 0))
            played.append(action)
            state = GAME.apply(state, action, 0)
        return played

    first = game(31)
    assert len(first) >= 20
    assert game(31) == first
    two = _after(32, 3, players=2)
    bot = make_bot("expert", "foldris")
    for p in GAME.acting_players(two):
        assert bot.choose(GAME, two, p, Rng(0)) in set(GAME.legal_actions(two, p))


def test_the_planner_samples_differ_by_seed_and_are_orders_of_the_unseen_cards() -> None:
    state = _after(41, 5)
    a = sample_orders(state.deck, 5, Rng(1))
    b = sample_orders(tuple(reversed(state.deck)), 5, Rng(1))
    assert a == b
    assert all(sorted(o) == sorted(state.deck) for o in a)
    assert a != sample_orders(state.deck, 5, Rng(2))


def test_bad_parameters_are_refused() -> None:
    with pytest.raises(ConfigError):
        make_bot("expert:samples=0", "foldris")
    with pytest.raises(ConfigError):
        make_bot("expert:nonsense_option=1", "foldris")
    with pytest.raises(ConfigError):
        make_bot("expert:samples=many", "foldris")


def test_without_the_kernel_the_planner_plays_fewer_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python search serves where the kernel is not built: legal drops, from fewer sampled orders."""
    from polytable.ai.foldris import _plan

    monkeypatch.setattr(_plan, "EXT", None)
    bot = make_bot("expert:samples=16,candidates=3", "foldris")
    state = _after(51, 4)
    action = bot.choose(GAME, state, 0, Rng(3))
    assert action in set(GAME.legal_actions(state, 0))
    assert isinstance(bot, FoldrisPlanner) and len(bot.last_scores) == 3


def test_the_planner_adds_keep_to_drops_that_stay_flawless(monkeypatch: pytest.MonkeyPatch) -> None:
    """On a flawless sheet the drops that stay flawless score ``KEEP`` more than without it, any other
    the same (the same seed, so the same playouts)."""
    from polytable.ai.foldris import _plan

    state = GAME.apply_chance(GAME.apply_chance(GAME.new_game(seed=61, players=1)))
    assert isinstance(state, FoldrisState)
    bot = make_bot("expert:samples=8,candidates=12", "foldris")
    assert isinstance(bot, FoldrisPlanner)
    bot.choose(GAME, state, 0, Rng(5))
    with_keep, keep = bot.last_scores, _plan.KEEP
    monkeypatch.setattr(_plan, "KEEP", 0.0)
    bot.choose(GAME, state, 0, Rng(5))
    diffs = {round(a[0] - b[0], 9) for a, b in zip(with_keep, bot.last_scores, strict=True)}
    assert keep > 0 and keep in diffs and diffs <= {0.0, keep}
