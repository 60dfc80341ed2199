"""One conformance suite over every registered game (after PettingZoo's api_test and pgx's api_test).

For every (options, players) pair a game lists in ``sample_configs()``, seeded random games are played to
the end and, at every step, the protocol's promises are checked. A new game gets all of this for free.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from polytable.core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    ConfigError,
    Game,
    IllegalActionError,
    Rng,
    StateFormatError,
    all_games,
)
from polytable.match import Match

GAMES_PER_CONFIG = 2
MAX_STEPS = 5000
FULL_CHECK_ACTIONS = 400  # per state: round-trip at most this many legal actions (all of them in smaller games)


def _cases() -> list[Any]:
    out = []
    for game in all_games():
        for i, (options, players) in enumerate(game.sample_configs()):
            out.append(pytest.param(game, options, players, id=f"{game.spec.id}-{i}-{players}p"))
    return out


CASES = _cases()


def _snapshot(game: Game[Any, Any], state: Any) -> str:
    return json.dumps(game.state_to_dict(state), sort_keys=True)


def _check_state(game: Game[Any, Any], state: Any, rng: Rng) -> None:
    """Checks that need only a state."""
    n = state.config.players
    cp = game.current_player(state)
    assert cp in (CHANCE, SIMULTANEOUS, TERMINAL) or 0 <= cp < n
    # JSON round trip of the whole state.
    data = game.state_to_dict(state)
    text = json.dumps(data, sort_keys=True)
    again = game.state_from_dict(json.loads(text))
    assert again == state, "state_from_dict(state_to_dict(s)) != s"
    assert json.dumps(game.state_to_dict(again), sort_keys=True) == text
    # Views are JSON and never contain the generator state.
    for p in [None, *range(n)]:
        view = game.view(state, p)
        vtext = json.dumps(view)
        assert '"rng"' not in vtext, "a view leaks the generator state"
        assert isinstance(game.render(state, p), str)
        assert isinstance(game.render(state, p, color=True), str)
    assert len(game.scores(state)) == n
    assert len(game.returns(state)) == n


def _check_actions(game: Game[Any, Any], state: Any, player: int, rng: Rng) -> None:
    """Checks over the legal actions of one player in one state."""
    legal = game.legal_actions(state, player)
    actions = list(legal)
    assert actions, f"player {player} has no legal action in a non-terminal state"
    assert len(actions) == len(set(actions)), "legal actions are not distinct"
    assert legal.count() == len(actions) == len(legal)
    assert bool(legal)
    # The notation a client is shown: the iteration's actions formatted, in order (a game's own answer too).
    texts = [game.format_action(a, state) for a in actions]
    assert legal.notation() == texts
    assert legal.notation(3) == texts[:3]
    size = game.num_distinct_actions(state.config)
    before = _snapshot(game, state)
    step = max(1, len(actions) // FULL_CHECK_ACTIONS)
    ids = set()
    for a in actions[::step]:
        text = game.format_action(a, state)
        assert game.parse_action(text, state) == a, f"notation does not round-trip: {text!r}"
        i = game.action_id(a, state)
        assert 0 <= i < size, f"action id {i} out of range({size})"
        assert i not in ids, "two legal actions share an id"
        ids.add(i)
        assert game.action_from_id(i, state) == a
        assert a in legal
    # Every sampled action applies; an id that is not legal is refused and changes nothing.
    for _ in range(3):
        a = legal.sample(rng)
        assert a in legal
    if player != CHANCE:
        all_ids = {game.action_id(a, state) for a in actions}
        for _ in range(5):
            i = rng.below(size)
            if i in all_ids:
                continue
            try:
                bad = game.action_from_id(i, state)
            except IllegalActionError:
                continue
            with pytest.raises(IllegalActionError):
                game.apply(state, bad, player)
            break
    assert _snapshot(game, state) == before, "checking actions mutated the state"


def _check_pending_hidden(game: Game[Any, Any], before: Any, p: int, action: Any, after: Any, rng: Rng) -> None:
    """In a simultaneous round, nobody else can tell which choice ``p`` made: another legal choice gives
    every other player (and spectators) the same view."""
    other = game.legal_actions(before, p).sample(rng)
    if other == action:
        return
    alt = game.apply(before, other, p)
    if game.current_player(alt) != SIMULTANEOUS:
        return
    for q in [None, *range(before.config.players)]:
        if q != p:
            assert game.view(alt, q) == game.view(after, q), f"player {p}'s pending choice shows in a view"


@pytest.mark.parametrize(("game", "options", "players"), CASES)
def test_random_playouts(game: Game[Any, Any], options: dict[str, object], players: int) -> None:
    for g in range(GAMES_PER_CONFIG):
        _random_playout(game, options, players, g)


@pytest.mark.parametrize(("game", "options", "players"), CASES)
def test_a_random_playout_checked_every_seventh_step(
    game: Game[Any, Any], options: dict[str, object], players: int
) -> None:
    """The short version in make check: the second game of ``test_random_playouts`` (slow), whose every
    seventh step is checked, the end and the replay in full."""
    _random_playout(game, options, players, 1)


def _random_playout(game: Game[Any, Any], options: dict[str, object], players: int, g: int) -> None:
    """Seeded game ``g`` to the end; game 0 checks every step in full, the others every seventh step."""
    seed = 1000 * g + 7
    rng = Rng(seed, stream=99)
    match = Match(game, options, players, seed)
    state = match.state
    steps = 0
    full = g == 0
    turns = game.turns_begun(state)
    while not game.is_terminal(state):
        steps += 1
        assert steps < MAX_STEPS, "the game did not end"
        if full or steps % 7 == 0:
            _check_state(game, state, rng)
        cp = game.current_player(state)
        before = _snapshot(game, state) if full else None
        if cp == CHANCE:
            outcome = game.chance_outcome(state)
            assert outcome == game.chance_outcome(state), "chance_outcome is not deterministic"
            if full:
                _check_actions(game, state, CHANCE, rng)
            match.play(outcome, CHANCE)
        else:
            acting = game.acting_players(state)
            assert acting, "nobody can act in a non-terminal, non-chance state"
            if cp >= 0:
                assert acting == (cp,)
            p = acting[rng.below(len(acting))]
            kind = game.decision_kind(state, p)
            assert isinstance(kind, str) and kind, "a decision has no kind"
            assert kind == "set-up" or game.turns_begun(state)[p] >= 1, "a decision outside a turn begun"
            if full or steps % 7 == 0:
                _check_actions(game, state, p, rng)
            action = game.legal_actions(state, p).sample(rng)
            match.play(action, p)
            if cp == SIMULTANEOUS and game.current_player(match.state) == SIMULTANEOUS:
                _check_pending_hidden(game, state, p, action, match.state, rng)
        if before is not None:
            assert _snapshot(game, state) == before, "apply mutated its input"
        state = match.state
        now = game.turns_begun(state)
        assert len(now) == players and all(b >= a >= 0 for a, b in zip(turns, now, strict=True)), (
            "turns begun went back"
        )
        turns = now
    assert max(turns) >= 1, "a whole game without a turn"
    _check_state(game, state, rng)
    with pytest.raises(IllegalActionError):
        game.legal_actions(state)
    winners = game.winners(state)
    assert all(0 <= w < players for w in winners)
    returns = game.returns(state)
    if players > 1:
        assert abs(sum(returns)) < 1e-6, "returns are not zero-sum"
        assert winners, "a finished multiplayer game has no winner"
    # Replay is exact.
    record = json.loads(json.dumps(match.record()))
    again = Match.replay(record)
    assert _snapshot(game, again.state) == _snapshot(game, state)


@pytest.mark.parametrize(("game", "options", "players"), CASES)
def test_bad_input_is_refused(game: Game[Any, Any], options: dict[str, object], players: int) -> None:
    state = game.new_game(options, seed=3, players=players)
    for text in ["", "???", "zz top 99", "\x00", "1" * 500]:
        with pytest.raises(IllegalActionError):
            p = game.acting_players(state)[0] if game.acting_players(state) else None
            game.apply(state, game.parse_action(text, state), p)
    with pytest.raises(StateFormatError):
        game.state_from_dict({})
    with pytest.raises(ConfigError):
        game.new_game(options, seed=0, players=game.spec.max_players + 1)
    with pytest.raises(ConfigError):
        game.new_game({**options, "no-such-option": 1}, seed=0, players=players)


@pytest.mark.parametrize(("game", "options", "players"), CASES)
def test_same_seed_same_game(game: Game[Any, Any], options: dict[str, object], players: int) -> None:
    a = game.new_game(options, seed=42, players=players)
    b = game.new_game(options, seed=42, players=players)
    assert a == b
    assert _snapshot(game, a) == _snapshot(game, b)
