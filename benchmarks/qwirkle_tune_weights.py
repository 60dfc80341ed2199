"""Qwirkle Cubes: `hard` under other decision numbers, played against `hard` by self-play (issue 36;
the figures: docs/benchmarks/2026-12-05-qwirkle-cubes-expert-tuning.md).

`hard` (`QwirkleSearch`) decides with a handful of module constants. A weight set overrides some of them
by name:

* ``qwirkle`` and ``hit``: the threat's value of a Qwirkle handed on (`_eval.QWIRKLE_VALUE`) and the
  chance that a reroll of a cube of the right colour shows the missing shape (`REROLL_HIT`);
* ``reply`` and ``future``: the weights of the opponent's sampled reply and of our own sampled next turn
  (`REPLY_WEIGHT`, `FUTURE_WEIGHT`);
* ``per_cube``: a cube's worth when judging rerolls (`PER_CUBE`);
* ``confidence``: the confidence rule's standard errors (`CONFIDENCE`);
* ``rolls``: the anytime reroll search's first-stage ceiling, after which the rest of the time goes to
  its second stage (`ROLLS`);
* ``top``: the placements re-ranked (`TOP_K`).

Each seat sets its own numbers around each of its decisions (a game runs one decision at a time), so
the player's code is used unchanged.

Two budgets:

* by default, a small fixed one, so a match depends on the seeds only and costs about 0.6-0.75 s of CPU
  a game: ``--samples`` scenarios a placement and ``--rolls`` shared rolls a reroll (at 0.02 s of CPU a
  move the anytime `hard` takes about 55 and 15,000);
* with ``--seconds S``, both seats anytime on the CPU clock, as ``hard:seconds=S,clock=cpu`` plays in
  the arena (about 2.6 s of CPU a game at 0.02 s).

A match is ``--games`` games, two a deal (``seed + g // 2``), A first in the even one, 2 players. It
reports A's win share (Wilson 95%) and A's mean final lead with its standard error.

    nice python benchmarks/qwirkle_tune_weights.py --check '{"confidence": 0}' '{}' --games 100 --seed 20000
    nice python benchmarks/qwirkle_tune_weights.py --check '{"rolls": 2048}' '{}' --seconds 0.02 --games 24 --seed 41000
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from polytable.ai._arena import paired_match
from polytable.ai.qwirkle_cubes import _eval, _player, _values
from polytable.ai.qwirkle_cubes._player import QwirkleConfig, QwirkleSearch
from polytable.core import Game, Rng, get_game
from polytable.games.qwirkle_cubes import QState, Reroll
from polytable.match._simulate import play_game

SAMPLES = 32
ROLLS = 1024
HARD = {
    "qwirkle": _eval.QWIRKLE_VALUE,
    "hit": _eval.REROLL_HIT,
    "reply": _player.REPLY_WEIGHT,
    "future": _player.FUTURE_WEIGHT,
    "per_cube": _player.PER_CUBE,
    "confidence": _player.CONFIDENCE,
    "rolls": _player.ROLLS,
    "top": _player.TOP_K,
}
"""`hard`'s numbers, by the names a weight set uses (see the module docstring)."""


def _set(w: dict[str, float]) -> None:
    """Make ``w`` the numbers the player code reads (module constants, looked up at each use)."""
    for module in (_eval, _values):
        module.QWIRKLE_VALUE = w["qwirkle"]  # type: ignore[attr-defined]
        module.REROLL_HIT = w["hit"]  # type: ignore[attr-defined]
    _player.PER_CUBE = w["per_cube"]
    _player.CONFIDENCE = w["confidence"]


class Tuned(QwirkleSearch):
    """`hard` under the numbers ``w``: anytime with ``seconds`` of CPU a move, or at fixed counts
    (``samples`` scenarios a placement, ``rolls`` shared rolls a reroll)."""

    def __init__(self, w: dict[str, float], seconds: float | None, samples: int, rolls: int) -> None:
        top = int(w["top"])
        if seconds is None:
            super().__init__(QwirkleConfig(rounds=samples, top=top))
        else:
            super().__init__(QwirkleConfig(seconds=seconds, clock="cpu", top=top))
        self.w = w
        self.rolls = int(w["rolls"])
        self.reply, self.future = w["reply"], w["future"]
        self.roll_count = rolls

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        _set(self.w)
        try:
            return super().choose(game, state, player, rng)
        finally:
            _set(HARD)

    def _reroll(self, state: QState, player: int, rng: Rng) -> Reroll:
        if self.rounds is None:
            return super()._reroll(state, player, rng)
        keep, self.rounds = self.rounds, self.roll_count
        try:
            return super()._reroll(state, player, rng)
        finally:
            self.rounds = keep


def match(a: dict[str, float], b: dict[str, float], seed: int, games: int, seconds: float | None,
          samples: int = SAMPLES, rolls: int = ROLLS) -> dict[str, Any]:  # fmt: skip
    """A's results against B (see the module docstring)."""
    game: Game[Any, Any] = get_game("qwirkle-cubes")

    def play(g: int, a_first: bool) -> QState:
        pa, pb = Tuned(a, seconds, samples, rolls), Tuned(b, seconds, samples, rolls)
        st: QState = play_game(game, [pa, pb] if a_first else [pb, pa], {}, seed + g // 2).state
        return st

    def lead(st: QState, me: int) -> float:
        return float(st.points[me] - st.points[1 - me])

    return {"seed": seed, **paired_match("qwirkle-cubes", games, play, lead)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", nargs=2, metavar=("A", "B"), required=True, help="two weight sets, JSON overrides")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--seed", type=int, default=20000)
    ap.add_argument("--seconds", type=float, default=None, help="anytime, CPU seconds a move")
    ap.add_argument("--samples", type=int, default=SAMPLES)
    ap.add_argument("--rolls", type=int, default=ROLLS)
    args = ap.parse_args()
    a, b = ({**HARD, **{k: float(v) for k, v in json.loads(x).items()}} for x in args.check)
    for w, text in ((a, args.check[0]), (b, args.check[1])):
        if set(w) != set(HARD):
            raise SystemExit(f"unknown numbers in {text}: the names are {sorted(HARD)}")
    r = match(a, b, args.seed, args.games, args.seconds, args.samples, args.rolls)
    print(json.dumps({"a": args.check[0], "b": args.check[1], **r}), flush=True)


if __name__ == "__main__":
    main()
