"""Foldris's compiled kernel against the pure-Python rules (the reference), side by side.

100,000 random actions over every sample configuration (1-7 players, solo, short sheets, custom and short
decks; reveals included) must give the same legal counts and lists, the same draws, states, scores and
playouts (``polytable._native.fuzz``). Skipped only under ``POLYTABLE_PURE=1``.
"""

from __future__ import annotations

from typing import Any

import pytest

from polytable._native import fuzz
from polytable.core import CHANCE, Game, Rng, get_game, pure_engine_forced

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")

GAME: Game[Any, Any] = get_game("foldris", "compiled")
PURE: Game[Any, Any] = get_game("foldris", "pure")


@pytest.mark.slow  # 100,000 actions against the pure rules: make nightly (conftest.NIGHTLY_TESTS)
def test_100k_random_actions_agree() -> None:
    rep = fuzz("foldris", 100_000, seed=0, list_every=50, check_every=500)
    assert rep.actions == 100_000
    assert rep.games >= 2000  # every sample configuration many times (solo games are short)
    assert rep.playouts >= rep.games // 2
    assert rep.round_trips >= 150 and rep.illegal_refused >= 150


def test_some_random_actions_agree() -> None:
    rep = fuzz("foldris", 3_000, seed=500, list_every=7, check_every=100)
    assert rep.actions == 3_000 and rep.games >= 50


def _mid_round(seed: int, players: int, options: dict[str, object]) -> object:
    """A state after a few rounds, with some players' choices of this round pending."""
    s = GAME.new_game(options, seed, players)
    rng = Rng(seed, 3)
    for _ in range(3 * players + seed % players):
        if GAME.is_terminal(s):
            break
        if GAME.current_player(s) == CHANCE:
            s = GAME.apply_chance(s)
            continue
        p = GAME.acting_players(s)[0]
        s = GAME.apply(s, GAME.legal_actions(s, p).sample(rng), p)
    return s


@pytest.mark.parametrize("options", [{}, {"height": 5}, {"deck": "I 1\nO 2\nT 3\nS 4\nZ 5\n"}])
def test_playout_matches_a_match_of_random_bots(options: dict[str, object]) -> None:
    """Per-seat generators (simulate) and one shared generator (MCTS rollouts), with an action limit."""
    for seed in range(40):
        n = 1 + seed % 7
        s = _mid_round(seed, n, options)
        for rngs_c, rngs_p, limit in (
            ([Rng(seed, 1000 + p) for p in range(n)], [Rng(seed, 1000 + p) for p in range(n)], None),
            ([Rng(seed)], [Rng(seed)], seed % 9),
        ):
            end, k = GAME.playout(s, rngs_c, limit)  # type: ignore[arg-type]
            end_p, k_p = PURE.playout(s, rngs_p, limit)  # type: ignore[arg-type]
            assert end == end_p and k == k_p
            assert [r.state for r in rngs_c] == [r.state for r in rngs_p]
        assert GAME.is_terminal(GAME.playout(s, [Rng(1)])[0])  # type: ignore[arg-type]


def test_no_legal_drop_is_refused_alike() -> None:
    """A full sheet: no drop fits; both engines count 0 and refuse to sample, drawing nothing."""
    s = _mid_round(2, 2, {})
    while GAME.current_player(s) == CHANCE or not GAME.acting_players(s):
        s = GAME.apply_chance(s)
    p = GAME.acting_players(s)[0]
    full = type(s.sheets[p])(
        ink=(1 << 8 * s.sheets[p].height) - 1 - 1, barrier=0, height=s.sheets[p].height, lines=0, bonus=0
    )
    s = type(s)(s.config, (full, *s.sheets[1:]) if p == 0 else (s.sheets[0], full), s.deck, s.start_lane, s.round,
                s.card, s.pending, s.rng, s.over, s.starter)  # fmt: skip
    for game in (GAME, PURE):
        rng = Rng(4)
        assert game.legal_actions(s, p).count() == 0 and not game.legal_actions(s, p)
        with pytest.raises(Exception, match="no legal action"):
            game.legal_actions(s, p).sample(rng)
        assert rng.state == Rng(4).state


def test_the_compiled_check_accepts_exactly_what_the_rules_accept() -> None:
    """Every drop id (and look-alikes with bools or out-of-range numbers) in many positions: the same verdict."""
    from polytable.games.foldris import Drop

    checked = 0
    for seed in range(20):
        s = _mid_round(seed, 1 + seed % 4, {"height": 6} if seed % 3 == 0 else {})
        if GAME.current_player(s) == CHANCE or GAME.is_terminal(s):
            continue
        p = GAME.acting_players(s)[0]
        name = GAME.action_from_id(0, s).name
        odd = [Drop(name, True, 0, 0, 0), Drop(name, 0, 0, 0, 8), Drop(name, 0, 9, 0, 0), Drop("Q", 0, 0, 0, 0)]
        for a in [GAME.action_from_id(i, s) for i in range(576)] + odd:
            compiled = a in GAME.legal_actions(s, p)
            pure = a in PURE.legal_actions(s, p)
            assert compiled == pure, (seed, a)
            checked += compiled
    assert checked > 120


@pytest.mark.parametrize("players", [1, 4, 7])
def test_simulate_gives_the_same_games_on_both_engines(players: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """``simulate --ai random`` runs the compiled playout; the pure engine gives the same per-game results
    (the second run finds the pure game object under Foldris's id)."""
    from polytable.ai import make_bot
    from polytable.core import _registry
    from polytable.match import simulate

    compiled = simulate("foldris", players, 8, ["random"], seed=1, make_player=make_bot)["per_game"]
    monkeypatch.setitem(_registry._GAMES, "foldris", PURE)
    pure = simulate("foldris", players, 8, ["random"], seed=1, make_player=make_bot)["per_game"]
    assert compiled == pure and len(compiled) == 8


def test_mcts_rollouts_and_choices_are_the_same_on_both_engines() -> None:
    """The MCTS players' uniform rollouts call the game's playout: compiled or pure, the same values."""
    from polytable.ai import MCTSBot, MCTSConfig

    s = _mid_round(4, 3, {})
    while GAME.current_player(s) == CHANCE:
        s = GAME.apply_chance(s)
    bot = MCTSBot(MCTSConfig(iterations=30, reuse_tree=False))
    r1, r2 = Rng(9), Rng(9)
    v1 = bot._rollout(GAME, s, r1)
    v2 = bot._rollout(PURE, s, r2)
    assert v1 == v2 and r1.state == r2.state
    p = GAME.acting_players(s)[0]
    compiled = bot.choose(GAME, s, p, Rng(3))
    pure = bot.choose(PURE, s, p, Rng(3))
    assert compiled == pure


def test_a_fresh_process_can_ask_who_acts_before_anything_is_sampled() -> None:
    """The kernel knows the state classes from import on: a view (acting players) may come first."""
    import subprocess
    import sys

    code = (
        "from polytable.core import get_game\n"
        "g = get_game('foldris')\n"
        "s = g.new_game(seed=3, players=3)\n"
        "print(g.acting_players(s), g.view(s, 0)['acting'])\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "() []"


@pytest.mark.parametrize("options", [{}, {"height": 5}, {"deck": "I 1\nO 2\nT 3\nS 4\nZ 5\nP 3 ##/##/#.\nP 4\n"}])
def test_the_legal_notation_read_by_the_kernels_numbers_is_the_pure_one(options: dict[str, object]) -> None:
    """``Drops.notation`` reads each drop's text from a table by the kernel's numbers: the same list, in the
    same order, as formatting the pure engine's legal drops (with and without a limit)."""
    seen = 0
    for seed in range(40):
        n = 1 + seed % 4
        s: Any = _mid_round(seed, n, options)
        if GAME.current_player(s) == CHANCE or GAME.is_terminal(s):
            continue
        for p in GAME.acting_players(s):
            fast = GAME.legal_actions(s, p)
            pure = PURE.legal_actions(s, p)
            texts = [PURE.format_action(a, s) for a in pure]
            assert type(pure).notation is not type(fast).notation
            assert fast.notation() == texts and fast.notation(5) == texts[:5] and fast.notation(0) == []
            seen += 1
    assert seen >= 25
