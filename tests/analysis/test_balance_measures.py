"""The balance lab's measures on known answers: two tiny games built here (a coin flip, and a duel the
stronger player always wins), the game's own units of the real games, the drama of a hand-made game, and
tests made only between comparable quantities, each hypothesis once."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from typing import Any

import pytest

pytest.importorskip("matplotlib")

from polytable.ai import make_bot, register_bot
from polytable.analysis import GameRecord, Job, Plan, analyse, drama, hypotheses, play_one, skill_gap, summarise
from polytable.core import (
    CHANCE,
    TERMINAL,
    Config,
    Game,
    GameSpec,
    IllegalActionError,
    Rng,
    _registry,
    below,
    get_game,
    seed_state,
    turns_in_rotation,
)


@dataclass(frozen=True)
class PickState:
    config: Config
    rng: int
    picks: tuple[int, ...]
    coin: int  # -1: not flipped yet


class _Picks(Game[PickState, int]):
    """Each player in turn picks 1, 2 or 3, once. Subclasses say who wins."""

    def _new(self, config: Config, seed: int) -> PickState:
        return PickState(config, seed_state(seed), (), -1)

    def current_player(self, state: PickState) -> int:
        if len(state.picks) < state.config.players:
            return len(state.picks)
        return CHANCE if self._chance(state) else TERMINAL

    def _chance(self, state: PickState) -> bool:
        return False

    def _legal(self, state: PickState, player: int) -> Iterable[int]:
        return (0, 1) if player == CHANCE else (1, 2, 3)

    def _check(self, state: PickState, action: int, player: int) -> None:
        if action not in ((0, 1) if player == CHANCE else (1, 2, 3)):
            raise IllegalActionError(f"not a pick: {action!r}")

    def _apply(self, state: PickState, action: int, player: int) -> PickState:
        if player == CHANCE:
            return replace(state, coin=action, rng=below(state.rng, 2)[1])
        return replace(state, picks=(*state.picks, action))

    def chance_outcome(self, state: PickState) -> int:
        return below(state.rng, 2)[0]

    def turns_begun(self, state: PickState) -> tuple[int, ...]:
        n = state.config.players
        return turns_in_rotation(min(len(state.picks) + 1, n), n)

    def scores(self, state: PickState) -> tuple[float, ...]:
        return tuple(float(p) for p in state.picks) + (0.0,) * (state.config.players - len(state.picks))

    def format_action(self, action: int, state: PickState | None = None) -> str:
        return str(action)

    def parse_action(self, text: str, state: PickState | None = None) -> int:
        return int(text)

    def num_distinct_actions(self, config: Config) -> int:
        return 4

    def action_id(self, action: int, state: PickState | None = None) -> int:
        return action

    def action_from_id(self, action_id: int, state: PickState) -> int:
        return action_id

    def state_to_dict(self, state: PickState) -> dict[str, Any]:
        return {"picks": list(state.picks), "coin": state.coin}

    def state_from_dict(self, data: Mapping[str, Any]) -> PickState:
        raise NotImplementedError

    def view(self, state: PickState, player: int | None) -> dict[str, Any]:
        return self.state_to_dict(state)

    def render(self, state: PickState, player: int | None = None, color: bool = False) -> str:
        return str(state.picks)


class CoinFlip(_Picks):
    """The picks mean nothing: a coin decides the winner. Skill cannot matter."""

    spec = GameSpec(
        id="test-coin",
        name="Coin flip",
        min_players=2,
        max_players=2,
        default_players=2,
        rules_version="1",
        options=(),
        summary="A coin decides.",
        listed=False,
        chance=True,
    )

    def _chance(self, state: PickState) -> bool:
        return state.coin < 0

    def winners(self, state: PickState) -> tuple[int, ...]:
        return (state.coin,) if state.coin >= 0 else ()

    def score_unit(self, config: Config) -> str | None:
        return None


class Duel(_Picks):
    """The higher pick wins (equal picks share): whoever always picks 3 never loses to one who picks 1."""

    spec = GameSpec(
        id="test-duel",
        name="Duel",
        min_players=2,
        max_players=3,
        default_players=2,
        rules_version="1",
        options=(),
        summary="Pick higher.",
        listed=False,
    )

    def winners(self, state: PickState) -> tuple[int, ...]:
        if len(state.picks) < state.config.players:
            return ()
        best = max(state.picks)
        return tuple(p for p, v in enumerate(state.picks) if v == best)


class _Fixed:
    def __init__(self, pick: int, name: str) -> None:
        self.pick, self.name = pick, name

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        return self.pick


@pytest.fixture()
def toy_games() -> Iterator[None]:
    for g in (CoinFlip(), Duel()):
        _registry.register(g)
        register_bot("low", lambda: _Fixed(1, "low"), g.spec.id)
        register_bot("high", lambda: _Fixed(3, "high"), g.spec.id)
    yield
    for gid in ("test-coin", "test-duel"):
        _registry._GAMES.pop(gid, None)


def test_a_coin_flip_has_skill_gap_zero(toy_games: None) -> None:
    data = analyse(Plan("test-coin", ladder=["low", "high"], games=400))
    lad = data["ladder"]
    lo, hi = lad["skill_gap_ci95"]
    assert lo < 0 < hi and abs(lad["skill_gap"]) < 0.1
    assert lad["elo_spread_ci95"][0] < 60  # the spread's interval reaches (almost) nothing


def test_a_duel_the_stronger_always_wins_has_skill_gap_one(toy_games: None) -> None:
    for players in (2, 3):
        data = analyse(Plan("test-duel", players=players, ladder=["low", "high"], games=30))
        lad = data["ladder"]
        assert lad["skill_gap"] == 1.0 and lad["pairs"][0]["win_share"] == 1.0
        assert lad["elo_spread"] > 300


def test_skill_gap_scale() -> None:
    assert skill_gap(0.5, 2) == 0 and skill_gap(1.0, 4) == 1 and skill_gap(0.25, 4) == 0
    assert skill_gap(0.0, 2) == -1


def test_drama_of_a_known_game() -> None:
    # Scores at the end of rounds 1-3: seat 1 leads, seat 2 overtakes, seat 1 wins in the last round by 1.
    rec = GameRecord(0, [3.0, 2.0], [0], 6, trace=[[1.0, 0.0], [0.0, 2.0], [3.0, 2.0]])
    d = drama(rec)
    assert d == {"margin": 1.0, "lead_changes": 2, "comeback": True, "last_round": True}
    steady = GameRecord(0, [3.0, 0.0], [0], 6, trace=[[1.0, 0.0], [2.0, 0.0], [3.0, 0.0]])
    assert drama(steady) == {"margin": 3.0, "lead_changes": 0, "comeback": False, "last_round": False}
    assert drama(GameRecord(0, [1.0, 1.0], [0, 1], 2, trace=[[1.0, 1.0]]))["margin"] == 0.0


def _records(n: int, players: int, winners_of: Any) -> list[GameRecord]:
    kinds, rounds = ["move"] * 4, [1, 1, 2, 2]
    return [GameRecord(i, [1.0] * players, winners_of(i), 4, [3] * 4, kinds, rounds, 2, 4) for i in range(n)]


def test_one_fairness_hypothesis_with_two_players_and_one_per_seat_with_more() -> None:
    two = _records(100, 2, lambda i: [0] if i % 3 else [1])
    three = _records(100, 3, lambda i: [i % 3])
    tests = hypotheses([("A", summarise(two, 2), two), ("B", summarise(three, 3), three)])
    fairness = [t for t in tests if "= 1/" in t["what"]]
    assert [t["what"] for t in fairness] == [
        "A: seat 1 win share = 1/2",
        "B: seat 1 win share = 1/3",
        "B: seat 2 win share = 1/3",
        "B: seat 3 win share = 1/3",
    ]
    assert fairness[0]["significant"] and not any(t["significant"] for t in fairness[1:])
    # Different player counts: rounds are compared, win shares and scores are not.
    assert [t["what"] for t in tests if " vs " in t["what"]] == ["B vs A: rounds", "B vs A: legal actions per move"]


def test_scores_in_different_units_are_not_tested() -> None:
    recs = _records(50, 2, lambda i: [i % 2])
    lines, points = summarise(recs, 2, "lines"), summarise(recs, 2, "points")
    whats = [t["what"] for t in hypotheses([("A", lines, recs), ("B", points, recs)])]
    assert not any("score" in w for w in whats) and "B vs A: seat 1 win share" in whats
    whats = [t["what"] for t in hypotheses([("A", lines, recs), ("B", lines, recs)])]
    assert "B vs A: seat 1 mean score (lines)" in whats


def test_foldris_rounds_do_not_grow_with_the_players() -> None:
    game = get_game("foldris")
    for players in (2, 4):
        rec = play_one(Job.make("foldris", players, ["greedy"], {"height": 8}), 5)
        assert rec.actions > rec.rounds and set(rec.kinds) == {"drop"} and rec.first == -2
        assert rec.rounds == max(rec.rounds_at) and rec.rounds <= len(game.spec.name) * 0 + 24


def test_forma_turn_is_a_pick_and_a_placement() -> None:
    rec = play_one(Job.make("forma", 2, ["greedy"], {}), 1)
    kinds = rec.kinds
    places = kinds.count("place")
    assert "pick" in kinds and rec.game_turns == places  # greedy never picks a piece that does not fit
    assert rec.rounds in (places // 2, places // 2 + 1)
    summary = summarise([rec], 2)
    pick, place = summary["branching_by_kind"]["pick"]["value"], summary["branching_by_kind"]["place"]["value"]
    assert pick <= 21 < place


def test_qwirkle_and_formfinity_kinds_and_rounds() -> None:
    rec = play_one(Job.make("qwirkle-cubes", 2, ["greedy"], {}), 2)
    assert {"reroll", "place"} <= set(rec.kinds) and rec.first in (0, 1)
    assert rec.game_turns - 1 <= 2 * rec.rounds <= rec.game_turns + 1
    rec = play_one(Job.make("formfinity", 2, ["greedy"], {"variant": "2"}), 2)
    assert {"area", "element"} <= set(rec.kinds) and rec.first == 0 and rec.trace


def test_the_grid_makes_every_combination(toy_games: None) -> None:
    grid = [("players", ["2", "3"]), ("ai", ["random", "low"])]
    data = analyse(Plan("test-duel", ais=["random"], grid=grid, games=6, ladder=[]))
    labels = [c["label"] for c in data["configurations"]]
    assert labels == ["players=2, ai=random", "players=2, ai=low", "players=3, ai=random", "players=3, ai=low"]
    assert data["configurations"][3]["summary"]["metrics"]["Drawishness"]["value"] == 1.0
    assert data["ladder"] is None and data["rules_version"] == "1"
    pairing = analyse(Plan("test-duel", grid=[("ai", ["high/low"])], games=4, ladder=[]))
    assert pairing["configurations"][0]["summary"]["seats"][0]["win_share"] == 1.0


def test_make_bot_knows_the_test_bots(toy_games: None) -> None:
    assert make_bot("high", "test-duel").choose(Duel(), None, 0, Rng(0)) == 3
