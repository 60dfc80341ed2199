"""Bridge awareness of Forma's lookahead (``bridges=True``): the growth frontier of long groups, the
opponent's one-move bridge threat in the reply, and the placements that complete or block a bridge."""

from __future__ import annotations

import pytest

from games.forma.forma_helpers import GAME, bits_of, names_of, new, put, with_stock
from polytable.ai.forma import FormaConfig, FormaLookahead, best_bonus, bridge_threat, frontier
from polytable.core import Rng
from polytable.games import forma as P

COLUMN = " ".join(f"e{r}" for r in range(3, 20))  # e3..e19: two cells short of a north-south bridge


def _empty(state: object) -> int:
    tb = P.tables(state.size)  # type: ignore[attr-defined]
    return int(tb.board & ~state.filled)  # type: ignore[attr-defined]


def test_the_frontier_is_where_a_long_group_still_grows() -> None:
    state = put(new(players=2), 1, COLUMN + " k5 k6 k7")
    tb = P.tables(state.size)
    own = state.pieces[1]
    assert names_of(state, frontier(tb, own, _empty(state), 10)) == {"e2"}  # the short k group is ignored
    assert names_of(state, frontier(tb, own, _empty(state), 3)) == {"e2", "k4", "k8"}
    assert frontier(tb, own, _empty(state), 18) == 0


def test_the_threat_counts_a_bridge_the_bonus_leaves_out() -> None:
    state = with_stock(put(new(players=2), 1, COLUMN, turn=1), 1, {"2": 1})
    assert best_bonus(state, 1, 4000) == 0
    assert bridge_threat(state, 1, 600, 10) == 50
    assert bridge_threat(with_stock(state, 1, {"1": 1}), 1, 600, 10) == 0  # one square cannot reach e1


def test_it_blocks_a_bridge_and_completes_its_own() -> None:
    # Player 2 threatens e2-e1 with a domino; player 1 (to move) must cover e1 or e2.
    state = with_stock(put(new(players=2), 1, COLUMN, turn=0), 1, {"2": 1, "1": 1})
    state = with_stock(state, 0, {"1": 2, "I5": 1})
    action = FormaLookahead(FormaConfig(seconds=60.0, width=24, bridges=True)).choose(GAME, state, 0, Rng(2))
    after = GAME.apply(state, action, 0)
    assert after.pieces[0] & bits_of(state, "e1 e2")
    # With the column its own and a domino in hand, it takes the 50 points.
    state = with_stock(put(new(players=2), 0, COLUMN, turn=0), 0, {"2": 1, "1": 2, "I5": 1})
    action = FormaLookahead(FormaConfig(seconds=60.0, width=24, bridges=True)).choose(GAME, state, 0, Rng(2))
    assert GAME.apply(state, action, 0).bridges[0] == 1


def test_playouts_pick_a_legal_move_and_replay() -> None:
    state = GAME.new_game({"placement": "random", "touch_move": False}, seed=7, players=2)
    rng = Rng(7, 9)
    for _ in range(12):
        state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
    player = GAME.current_player(state)
    bot = FormaLookahead(FormaConfig(seconds=60.0, width=4, bridges=True, rollouts=3, depth=3))
    first = bot.choose(GAME, state, player, Rng(5))
    assert first in GAME.legal_actions(state, player)
    assert (
        FormaLookahead(FormaConfig(seconds=60.0, width=4, bridges=True, rollouts=3, depth=3)).choose(
            GAME, state, player, Rng(5)
        )
        == first
    )


def test_anytime_spends_the_rest_on_wider_replies_and_more_rounds(monkeypatch: pytest.MonkeyPatch) -> None:
    """With time to spare the anytime stage answers ``ANYTIME_WIDTH`` x ``width`` candidates and plays
    ``ANYTIME_ROUNDS`` rounds, then stops early; the choice replays, and is the same on the pure engine
    (the same values, so the same search when the clock does not cut it)."""
    from polytable.ai.forma import _player
    from polytable.core import get_game

    monkeypatch.setattr(_player, "ANYTIME_ROUNDS", 3)
    state = GAME.new_game({"placement": "random", "touch_move": False}, seed=3, players=2)
    rng = Rng(3, 9)
    for _ in range(16):
        state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
    player = GAME.current_player(state)

    def bot() -> FormaLookahead:
        return FormaLookahead(FormaConfig(seconds=600.0, width=3, bridges=True, rollouts=2, depth=2, anytime=True))

    b = bot()
    first = b.choose(GAME, state, player, Rng(5))
    assert b.last_searched == _player.ANYTIME_WIDTH * 3
    assert b.last_rollouts >= 2 * 3  # every finalist in every round (newcomers catch up)
    assert bot().choose(GAME, state, player, Rng(5)) == first
    assert bot().choose(get_game("forma", "pure"), state, player, Rng(5)) == first
