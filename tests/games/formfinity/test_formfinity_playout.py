"""FORMFINITY's compiled playout (``_cformfinity_playout.h``) against the pure rules' playout.

Whole games over every sample configuration, from the start and from positions in every phase (an area
to choose, a card to draw, an element to place with more to come, a line to choose), with a generator
per seat or one shared, with and without an action limit: the same final state, action count and
generators. Skipped only under ``POLYTABLE_PURE=1``.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import replace

import pytest

from polytable.core import CHANCE, Rng, get_game, pure_engine_forced
from polytable.games.formfinity import CHOOSE, CLAIM, DRAW, OVER, PLACE, CompiledFormfinity, FormfinityState, setup_of

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")

GAME = get_game("formfinity", "compiled")
PURE = get_game("formfinity", "pure")


def _both(state: FormfinityState, seed: int, seats: int, limit: int | None) -> tuple[FormfinityState, int]:
    r1 = [Rng(seed, stream=300 + p) for p in range(seats)]
    r2 = [Rng(seed, stream=300 + p) for p in range(seats)]
    setup = setup_of(GAME, state)
    assert setup.kernel.playout(setup, state, [Rng(seed)], limit) is not None  # not declined
    end, n = GAME.playout(state, r1, limit)
    end_p, n_p = PURE.playout(state, r2, limit)
    assert end == end_p, (state.config.to_dict(), seed)
    assert n == n_p and [r.state for r in r1] == [r.state for r in r2]
    return end, n


def test_whole_games_agree_on_every_configuration() -> None:
    ended = 0
    for options, players in GAME.sample_configs():
        for seed in range(12):
            s = GAME.new_game(options, seed, players)
            limit = None if seed % 4 else 1 + seed * 3
            end, n = _both(s, seed, 1 if seed % 3 == 0 else players, limit)
            ended += end.phase == OVER
            assert limit is None or n <= limit
    assert ended >= 50


def _playouts_from_every_phase(seeds: int) -> None:
    """Positions met along random games (the protocol's own steps), each played out by both engines."""
    seen = {CHOOSE: 0, DRAW: 0, PLACE: 0, CLAIM: 0}
    for options, players in GAME.sample_configs():
        for seed in range(seeds):
            s = GAME.new_game(options, 100 + seed, players)
            rng = Rng(seed, stream=9)
            step = 0
            while s.phase != OVER:
                if step % 7 == 3 or s.phase in (CLAIM, CHOOSE) or (s.phase == PLACE and s.placed):
                    seen[s.phase] += 1
                    _both(s, seed * 1000 + step, players if step % 2 else 1, None if step % 5 else 4)
                cp = GAME.current_player(s)
                if cp == CHANCE:
                    s = GAME.apply_chance(s)
                else:
                    s = GAME.apply(s, GAME.legal_actions(s, cp).sample(rng), cp)
                step += 1
    assert all(n >= 5 for n in seen.values()), seen


def test_playouts_agree_from_every_phase() -> None:
    """One game per configuration: every phase is met at least five times."""
    _playouts_from_every_phase(1)


def test_playouts_agree_from_every_phase_over_many_games() -> None:
    """Six games per configuration (slow: a few positions of variant 3 take the pure playout a second)."""
    _playouts_from_every_phase(6)


def test_bad_input_is_refused_and_odd_states_decline() -> None:
    s = GAME.new_game({}, 1, 2)
    setup = setup_of(GAME, s)
    kernel = setup.kernel
    assert isinstance(kernel, CompiledFormfinity)
    ext, pack = kernel.ext, kernel.prepared(setup)  # the set-up as the kernel holds it (prepared once)
    buf = kernel._buffer(setup, s, [1], (1, -1, 0, 0, 0, 0, 0, 0))
    assert buf is not None and pack is not None and kernel.prepared(setup) is pack
    with pytest.raises(ValueError, match="set-up"):
        ext.playout(bytes(len(pack) - 8), s.deck, s.lines, s.numbers, buf)  # not a prepared set-up
    with pytest.raises(TypeError):
        ext.playout(pack, s.deck, s.lines, s.numbers, bytes(buf))  # the buffer is written back: read-only refused
    with pytest.raises(ValueError, match="bytes"):
        ext.playout(pack, s.deck, s.lines, s.numbers, buf + b"\0")
    assert kernel.playout(setup, replace(s, turn=5), [Rng(1)], None) is None  # turn 5 of 2 players: declined
    before = bytes(buf)
    assert ext.playout(pack, s.deck, ((7, 0, 0),), s.numbers, buf) is None  # a line owned by no player: declined
    assert buf == before  # and nothing written
    assert ext.playout(pack, s.deck, s.lines, s.numbers, buf) is not None
    assert buf != before
    with pytest.raises(IndexError):  # two generators for three seats: the pure rules' error
        GAME.playout(GAME.new_game({"variant": "1"}, 1, 3), [Rng(1), Rng(2)])


def test_pure_and_compiled_simulate_print_the_same_games() -> None:
    cli = "import sys; from polytable.cli import main; sys.argv[0] = 'polytable'; main()"
    for variant, players in (("1", 3), ("2", 4), ("3", 2), ("4", 2)):
        cmd = [sys.executable, "-c", cli, "simulate", "formfinity", "-p", str(players), f"--option=variant={variant}"]
        runs = []
        for pure in ("1", "0"):  # the pure engine, then the compiled one
            env = {**os.environ, "POLYTABLE_PURE": pure}
            args = [*cmd, "--games", "6", "--seed", "1", "--json", "--workers", "1"]
            out = subprocess.run(args, env=env, capture_output=True, text=True, check=True)
            runs.append(json.loads(out.stdout)["per_game"])
        assert runs[0] == runs[1] and len(runs[0]) == 6, variant
