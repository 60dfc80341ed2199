"""Differential fuzzing: the compiled engine against the pure-Python rules, action by action.

For seeded random games over every sample configuration of a game (all player counts and variants), at
each step both engines must agree on the number of legal actions (and, every ``list_every`` steps, on the
whole list in order), draw the same action from equal generators (leaving them equal), and reach equal
states; at the end, equal scores and winners, and compiled playouts equal to the pure ones: from step 12
with a generator per seat, and from a later step (varying with the game) with one shared generator and
an action limit. The invariants of the protocol are checked on the way: a state survives a JSON round trip,
every seat's view serialises, and an illegal action is refused with the state unchanged.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core import CHANCE, Game, IllegalActionError, Rng, get_game

__all__ = ["COMPILED", "FuzzReport", "engines", "fuzz"]

COMPILED: dict[str, tuple[str, str]] = {
    "foldris": ("polytable.games.foldris", "polytable.games.foldris._cfoldris"),
    "forma": ("polytable.games.forma", "polytable.games.forma._cforma"),
    "quadefy": ("polytable.games.quadefy", "polytable.games.quadefy._cquadefy"),
    "qwirkle-cubes": ("polytable.games.qwirkle_cubes", "polytable.games.qwirkle_cubes._cqwirkle"),
    "formfinity": ("polytable.games.formfinity", "polytable.games.formfinity._cformfinity"),
}
"""Game id -> (its public package, its compiled kernel's extension module)."""


class Mismatch(AssertionError):
    """The engines disagree (or an invariant failed): the message says where."""


@dataclass
class FuzzReport:
    game: str
    actions: int = 0
    games: int = 0
    playouts: int = 0
    illegal_refused: int = 0
    round_trips: int = 0
    seconds: float = 0.0
    configs: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "actions": self.actions,
            "games": self.games,
            "playouts": self.playouts,
            "illegal_refused": self.illegal_refused,
            "round_trips": self.round_trips,
            "seconds": round(self.seconds, 2),
            "configs": self.configs,
        }


def engines(game_id: str) -> tuple[Game[Any, Any], Game[Any, Any]]:
    """(the game on its compiled kernel, the same game on the pure rules): two objects, side by side."""
    if game_id not in COMPILED:
        raise ValueError(f"{game_id} has no compiled kernel (compiled: {', '.join(sorted(COMPILED))})")
    return get_game(game_id, "compiled"), get_game(game_id, "pure")


def fuzz(
    game_id: str,
    actions: int,
    seed: int = 0,
    list_every: int = 25,
    check_every: int = 10,
    on_game: Callable[[FuzzReport], None] | None = None,
    playout_every: int = 1,
) -> FuzzReport:
    """Play until ``actions`` player actions were compared; raises :class:`Mismatch` at the first difference.

    ``playout_every``: compare the playouts of every that many games (a pure playout of a slow game is long).
    """
    game, gp = engines(game_id)
    configs = game.sample_configs()
    rep = FuzzReport(game_id, configs=[json.dumps(o, sort_keys=True) + f" x{n}" for o, n in configs])
    t0 = time.process_time()
    g = seed
    while rep.actions < actions:
        options, players = configs[g % len(configs)]
        where = f"{game_id} {options} players={players} seed={g}"
        s = game.new_game(options, g, players)
        sp = gp.new_game(options, g, players)
        _same(s, sp, f"{where}: new game")
        rn, rp, ri = Rng(g), Rng(g), Rng(g, stream=7)
        mid = None
        step = 0
        late_step = 13 + g % 29  # a second playout from a later step: one shared generator, an action limit
        late = None
        while not game.is_terminal(s) and rep.actions < actions:
            cp = game.current_player(s)
            if cp == CHANCE:
                s = game.apply(s, game.chance_outcome(s), CHANCE)
                sp = gp.apply(sp, gp.chance_outcome(sp), CHANCE)
                _same(s, sp, f"{where}: chance at step {step}")
                continue
            p = game.acting_players(s)[0]
            at = f"{where}, step {step}, player {p}"
            legal = game.legal_actions(s, p)
            legal_p = gp.legal_actions(sp, p)
            count_p = legal_p.count()
            if legal.count() != count_p:
                raise Mismatch(f"{at}: {legal.count()} legal actions compiled, {count_p} pure")
            if rep.actions % list_every == list_every // 2:
                all_p = list(legal_p)
                if list(legal) != all_p:
                    raise Mismatch(f"{at}: the legal action lists differ")
            if rep.actions % check_every == check_every // 3:
                _invariants(game, s, p, ri, at, rep)
            a = legal.sample(rn)
            ap = legal_p.sample(rp)
            if a != ap or rn.state != rp.state:
                raise Mismatch(f"{at}: sampled {a!r} compiled, {ap!r} pure (or the generators diverged)")
            s = game.apply(s, a, p)
            sp = gp.apply(sp, ap, p)
            _same(s, sp, f"{at}: after {game.format_action(a)}")
            rep.actions += 1
            step += 1
            if step == 12:
                mid = s
            if step == late_step:
                late = s
        if game.is_terminal(s):
            if game.scores(s) != game.scores(sp) or game.winners(s) != game.winners(sp):
                raise Mismatch(f"{where}: final scores or winners differ")
            rep.games += 1
        if g % playout_every:
            mid = late = None
        if mid is not None:
            r1 = [Rng(g, stream=100 + i) for i in range(players)]
            r2 = [Rng(g, stream=100 + i) for i in range(players)]
            end, n1 = game.playout(mid, r1)
            end_p, n2 = gp.playout(mid, r2)
            _same(end, end_p, f"{where}: playout from step 12")
            if n1 != n2 or [r.state for r in r1] != [r.state for r in r2]:
                raise Mismatch(f"{where}: playout action counts or generators differ")
            rep.playouts += 1
        if late is not None:
            one, one_p = Rng(g, stream=99), Rng(g, stream=99)
            limit = 5 + g % 40
            end, n1 = game.playout(late, [one], limit)
            end_p, n2 = gp.playout(late, [one_p], limit)
            _same(end, end_p, f"{where}: playout from step {late_step} (shared generator, {limit} actions)")
            if n1 != n2 or one.state != one_p.state:
                raise Mismatch(f"{where}: limited playout action counts or generators differ")
            rep.playouts += 1
        g += 1
        if on_game is not None:
            on_game(rep)
    rep.seconds = time.process_time() - t0
    return rep


def _same(a: Any, b: Any, where: str) -> None:
    if a != b:
        raise Mismatch(f"{where}: the states differ")


def _invariants(game: Any, s: Any, p: int, rng: Rng, at: str, rep: FuzzReport) -> None:
    data = json.loads(json.dumps(game.state_to_dict(s)))
    if game.state_from_dict(data) != s:
        raise Mismatch(f"{at}: the state does not survive a JSON round trip")
    rep.round_trips += 1
    for seat in (None, *range(s.config.players)):
        json.dumps(game.view(s, seat))
    legal_ids = set(game.legal_actions(s, p).ids())
    n_ids = game.num_distinct_actions(s.config)
    for _ in range(20):
        aid = rng.below(n_ids)
        if aid in legal_ids:
            continue
        before = game.state_to_dict(s)
        try:
            game.apply(s, game.action_from_id(aid, s), p)
        except IllegalActionError:
            if game.state_to_dict(s) != before:
                raise Mismatch(f"{at}: a refused action changed the state") from None
            rep.illegal_refused += 1
            return
        raise Mismatch(f"{at}: action id {aid} is not legal but was accepted")
