"""Quadefy AI: the mobility greedy bot and the exact endgame solver (checked against plain minimax)."""

from __future__ import annotations

from functools import cache

from polytable.ai import GreedyBot, evaluator, make_bot
from polytable.ai.quadefy import QuadefyGreedyBot, QuadefySolverBot, solve_position
from polytable.core import Rng, get_game
from polytable.games.quadefy import PLACEMENTS, REACH, QuadefyState, legal_count, moves_of

GAME = get_game("quadefy")


def _game_states(seed: int, options: dict[str, object] | None = None) -> list[QuadefyState]:
    rng = Rng(seed)
    state = GAME.new_game(options or {}, seed)
    out = [state]
    while not GAME.is_terminal(state):
        state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
        out.append(state)
    return out


@cache
def _minimax(occ: int, me: int, opp: int, flags: int) -> bool:
    """Plain minimax (no ordering, no budget): does the player to move win?"""
    return any(
        not _minimax(occ | PLACEMENTS[pid].mask, opp, me & ~(1 << PLACEMENTS[pid].block), flags)
        for pid in moves_of(occ, me, flags)
    )


def test_bots_are_registered() -> None:
    assert isinstance(make_bot("greedy", "quadefy"), QuadefyGreedyBot)
    assert isinstance(make_bot("solver", "quadefy"), QuadefySolverBot)


def test_evaluation_is_mobility() -> None:
    state = GAME.apply_text(GAME.new_game(), "O r0 @ b2.1")
    mine = legal_count(state.occupied, state.remaining[0], REACH)
    theirs = legal_count(state.occupied, state.remaining[1], REACH)
    assert evaluator(GAME).evaluate(GAME, state, 0) == mine - theirs
    assert evaluator(GAME).evaluate(GAME, state, 1) == theirs - mine
    end = _game_states(4)[-1]
    loser = end.to_move
    assert (
        evaluator(GAME).evaluate(GAME, end, loser) == -1000 and evaluator(GAME).evaluate(GAME, end, 1 - loser) == 1000
    )


def test_fast_greedy_chooses_like_the_generic_greedy() -> None:
    fast, generic = QuadefyGreedyBot(), GreedyBot()
    for state in _game_states(5)[2:7:2]:
        if GAME.is_terminal(state):
            continue
        p = state.to_move
        assert fast.choose(GAME, state, p, Rng(8)) == generic.choose(GAME, state, p, Rng(8))


def test_greedy_takes_an_immediate_win() -> None:
    bot = QuadefyGreedyBot()
    for seed in range(6):
        states = _game_states(seed)
        before = states[-2]  # the winner's last move ended the game: a winning move exists
        after = GAME.apply(before, bot.choose(GAME, before, before.to_move, Rng(seed)))
        assert GAME.is_terminal(after) and GAME.winners(after) == (before.to_move,)


def test_solver_agrees_with_minimax_on_endgames() -> None:
    checked = 0
    for seed in range(8):
        for options in ({}, {"stability": True}):
            states = _game_states(seed, options)
            for state in states[-5:-1]:
                me, opp = state.remaining[state.to_move], state.remaining[1 - state.to_move]
                result = solve_position(state.occupied, me, opp, state.flags)
                assert result.solved
                assert result.win == _minimax(state.occupied, me, opp, state.flags)
                if result.win:
                    assert result.best is not None
                    p = PLACEMENTS[result.best]
                    assert not _minimax(state.occupied | p.mask, opp, me & ~(1 << p.block), state.flags)
                checked += 1
    assert checked >= 60


def test_solver_bot_plays_perfectly_when_small_and_falls_back_otherwise() -> None:
    bot = QuadefySolverBot(max_nodes=2000)
    wins = 0
    for seed in range(8):
        state = _game_states(seed)[-4]
        me, opp = state.remaining[state.to_move], state.remaining[1 - state.to_move]
        action = bot.choose(GAME, state, state.to_move, Rng(1))
        assert bot.last is not None and bot.last[0]  # solved
        if _minimax(state.occupied, me, opp, state.flags):
            wins += 1
            p = PLACEMENTS[GAME.action_id(action)]
            assert not _minimax(state.occupied | p.mask, opp, me & ~(1 << p.block), state.flags)
    assert wins > 0
    tiny = QuadefySolverBot(max_nodes=5)
    start = GAME.new_game()
    action = tiny.choose(GAME, start, 0, Rng(2))
    assert tiny.last is not None and not tiny.last[0]  # out of budget: greedy fallback
    assert action in GAME.legal_actions(start)


def test_greedy_beats_random() -> None:
    greedy = QuadefyGreedyBot()
    rng = Rng(77)
    wins = 0
    for g in range(4):
        state = GAME.new_game({}, g)
        for _ in range(2):  # a random opening keeps the test short (greedy's first move scans ~760)
            state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
        seat = g % 2
        while not GAME.is_terminal(state):
            p = state.to_move
            action = greedy.choose(GAME, state, p, rng) if p == seat else GAME.legal_actions(state).sample(rng)
            state = GAME.apply(state, action)
        wins += GAME.winners(state) == (seat,)
    assert wins >= 3


def test_the_prior_counted_on_the_kernel_is_the_evaluation_after_the_move() -> None:
    """``hard``'s prior (``action_value``) counts on the kernel without a checked step; it must give every
    legal placement exactly the value ``evaluate`` gives the position after it, wins included, under every
    option, on the compiled and the pure kernel."""
    judge = evaluator(GAME)
    checked = wins = 0
    for kernel in ("default", "pure"):
        game = get_game("quadefy", kernel) if kernel == "pure" else GAME
        for seed, options in enumerate(
            ({}, {"reachability": False}, {"stability": True}, {"reachability": False, "stability": True})
        ):
            for state in _game_states(40 + seed, options)[:-1]:
                p = state.to_move
                for action in list(game.legal_actions(state))[:60]:
                    want = judge.evaluate(game, game.apply(state, action, p), p)
                    assert judge.action_value(game, state, action, p) == want
                    checked += 1
                    wins += want == 1000.0
    assert checked > 500 and wins > 0
