"""Every result explained and every move told in words (``Game.outcome``, ``Game.narrate``): in every
game and variant the end names what decided it (a target, the most of something, a tie-break, a shared
win), each history entry is a phrase both languages translate with its seats given as seat numbers, and
the terminal prints the reason under the scores."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from typer.testing import CliRunner

from polytable.ai import make_bot
from polytable.cli import app
from polytable.core import Rng, decided, get_game, phrase
from polytable.match import Match
from polytable.web._i18n import load

EN, NL = load("en"), load("nl")
NOTATION = re.compile(r"@|[#.]{2}|/[#.]|x\d:")
"""What would give notation away in a sentence: a placement's @, a shape ##/#., a card's x2:."""

CONFIGS = [
    ("formfinity", {"variant": "1"}, 2),
    ("formfinity", {"variant": "2"}, 3),
    ("formfinity", {"variant": "3"}, 2),
    ("formfinity", {"variant": "4"}, 2),
    ("foldris", {}, 1),
    ("foldris", {}, 3),
    ("forma", {}, 2),
    ("forma", {"touch_move": False, "placement": "random"}, 4),
    ("qwirkle-cubes", {}, 2),
    ("quadefy", {}, 2),
]


def _parts(part: dict[str, object]) -> list[dict[str, object]]:
    """A phrase and every phrase nested in its params."""
    out = [part]
    for value in dict(part["params"]).values():  # type: ignore[call-overload]
        if isinstance(value, dict) and "code" in value:
            out += _parts(value)
    return out


def _check(part: dict[str, object], players: int) -> None:
    for p in _parts(part):
        key = f"error.engine.{p['code']}"
        assert key in EN and key in NL, key
        names = set(re.findall(r"\{(\w+)\}", str(EN[key])))
        assert names == set(dict(p["params"])), key  # type: ignore[call-overload]
        for name, value in dict(p["params"]).items():  # type: ignore[call-overload]
            if name.startswith("seat"):
                assert isinstance(value, int) and -1 <= value < players, (key, value)
    assert not NOTATION.search(str(part["message"])), part["message"]


@pytest.mark.parametrize(("gid", "options", "players"), CONFIGS)
def test_every_move_in_words_and_every_end_with_its_reason(gid: str, options: dict[str, object], players: int) -> None:
    game = get_game(gid)
    m = Match(game, options, players, seed=4)
    bots = {p: make_bot("greedy" if p == 0 else "random", gid) for p in range(players)}
    rngs = {p: Rng(4, stream=p) for p in range(players)}
    while not m.is_over():
        m.step_ai(bots, rngs)
    for i in range(len(m.log)):
        _check(m.narration(i), players)
    why = m.outcome()
    assert why is not None
    _check(why, players)
    if players > 1 and len(game.winners(m.state)) == 1 and gid != "quadefy":
        deciding = ("said.most", "formfinity.said.target", "formfinity.said.connected", "foldris.said.last")
        assert any(p["code"] in deciding for p in _parts(why))


def test_quadefy_says_who_could_not_place_not_blocks_placed() -> None:
    game = get_game("quadefy")
    m = Match(game, {}, 2, seed=4)
    bots = {p: make_bot("random", "quadefy") for p in range(2)}
    rngs = {p: Rng(9, stream=p) for p in range(2)}
    while not m.is_over():
        m.step_ai(bots, rngs)
    loser = 1 - game.winners(m.state)[0]
    why = m.outcome()
    assert why is not None and why["code"] in ("quadefy.said.stuck", "quadefy.said.empty")
    assert dict(why["params"])["seat"] == loser  # type: ignore[call-overload]
    assert "whoever cannot place a block loses" in str(why["message"])


def test_the_shared_decisions_name_the_measure_and_a_shared_win() -> None:
    assert decided([6.0, 6.0], [0, 1])["message"] == "6 points each, and the rules give no tie-break: a shared win"
    assert decided([4.0, 7.0, 2.0], [1], "lines")["message"] == "the most lines wins: 7 against 4"
    assert decided([5.0], [0], "lines")["message"] == "lines: 5"


def test_foldris_tie_break_for_players_out_together() -> None:
    game = get_game("foldris")
    start = game.new_game(players=2, seed=1)

    def _tie_break(lines: list[int], bonus: list[int]) -> dict[str, object]:
        """What decided a game whose two players went out in the same round with these lines and bonus
        points: the second part of the game's own outcome (the first says they went out together)."""
        sheets = tuple(replace(s, lines=n, bonus=b, out=5) for s, n, b in zip(start.sheets, lines, bonus, strict=True))
        why = game.outcome(replace(start, sheets=sheets, over=True))
        assert why["code"] == "said.both"
        parts = why["params"]
        assert isinstance(parts, dict)
        first, then = parts["first"], parts["then"]
        assert isinstance(first, dict) and first["code"] == "foldris.said.together"
        assert isinstance(then, dict)
        return then

    assert _tie_break([3, 5], [0, 0])["message"] == "the most lines wins: 5 against 3"
    assert _tie_break([4, 4], [1, 3])["message"] == "4 lines each; the most unused bonus points wins: 3 against 1"
    assert _tie_break([4, 4], [2, 2])["message"] == "4 lines and 2 bonus points each: a shared win"


def test_formfinity_variant_3_names_polytables_own_rule_when_nobody_connects() -> None:
    from polytable.games.formfinity import OVER, setup_for, squares_needed

    m = Match("formfinity", {"variant": "3"}, 2, seed=1)
    m.resolve_chance()
    setup = setup_for(m.state.config)
    # the end when nobody can place any more: the fewer squares still needed wins, equal counts share
    need = [squares_needed(setup, m.state, p) for p in (0, 1)]
    assert need[0] == need[1]
    stopped = replace(m.state, phase=OVER, winners=(0, 1), left=0, card=-1)
    why = get_game("formfinity").outcome(stopped)
    assert why["code"] == "formfinity.said.need_tied"  # nothing drawn yet: both need as many squares
    assert "by polytable's rule" in str(why["message"])


def test_formfinity_card_in_words_as_the_issue_asks() -> None:
    game = get_game("formfinity")
    m = Match(game, {"variant": "1"}, 2, seed=1)
    card = game.parse_action("###x2:T:f", m.state)
    said = game.narrate(card, m.state, game.apply(m.state, card, -1), -1)
    assert said["message"] == "Player 1 drew: 3-square bar ×2, enters from the top, may not be turned"
    assert EN["error.engine.formfinity.said.card"] == "{seat} drew: {card}"


def test_a_move_that_scores_says_what_it_gained() -> None:
    m = Match("forma", {"placement": "random", "touch_move": False}, 2, seed=2)
    m.play(next(iter(m.game.legal_actions(m.state, 0))), 0)
    said = m.narration(0)
    assert said["code"] == "said.gain" and str(said["message"]).endswith(")")
    assert phrase("x", "y")["params"] == {}


def test_the_terminal_prints_why_the_game_ended() -> None:
    runner = CliRunner()
    r = runner.invoke(app, ["play", "quadefy", "--ai", "1=greedy", "--ai", "2=random", "--seed", "3", "--no-color"])
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "Game over." in text and "Why: Player 2: none of the" in text
    assert "whoever cannot place a block loses." in text
