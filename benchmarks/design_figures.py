"""The figures behind design choices that the source explains (docs/benchmarks/design-figures.md): each
docstring says why, this script measures how much, on this machine, now. Prints figures, asserts nothing.

    python benchmarks/design_figures.py
"""

from __future__ import annotations

import dataclasses
import time
import timeit
from collections.abc import Callable
from dataclasses import replace
from typing import Any, NamedTuple

from polytable.core import Rng, get_game


def _per_call(fn: Callable[[], object], number: int) -> float:
    """Microseconds a call, the best of five runs."""
    return min(timeit.repeat(fn, number=number, repeat=5)) / number * 1e6


def state_values() -> dict[str, str]:
    """Forma: an 18-field frozen dataclass's construction against a NamedTuple's (why FormaState is a
    NamedTuple); FORMFINITY: ``dataclasses.replace`` against ``_state.evolve``."""
    fields = [f"f{i}" for i in range(18)]
    frozen = dataclasses.make_dataclass("Frozen", fields, frozen=True)
    tup = NamedTuple("Tup", [(f, int) for f in fields])  # type: ignore[misc]
    args = list(range(18))
    from polytable.games.formfinity import GAME as FF

    st = FF.new_game({}, 1, 2)
    from polytable.games.formfinity._state import evolve

    return {
        "18-field frozen dataclass, us a construction": f"{_per_call(lambda: frozen(*args), 200_000):.2f}",
        "18-field NamedTuple, us a construction": f"{_per_call(lambda: tup(*args), 200_000):.2f}",
        "FORMFINITY dataclasses.replace, us a call": f"{_per_call(lambda: replace(st, turn=1), 50_000):.2f}",
        "FORMFINITY evolve, us a call": f"{_per_call(lambda: evolve(st, turn=1), 50_000):.2f}",
    }


def qwirkle_playout() -> dict[str, str]:
    """Qwirkle Cubes: a random 2-player playout from the set-up, pure and compiled (why ``hard`` is not
    the generic MCTS)."""
    out = {}
    for engine in ("pure", "compiled"):
        game = get_game("qwirkle-cubes", engine)
        starts = [game.new_game(seed=s, players=2) for s in range(20)]
        t0 = time.process_time()
        for s, start in enumerate(starts):
            game.playout(start, [Rng(s, 1000), Rng(s, 1001)])
        out[f"qwirkle-cubes random 2p playout, ms of CPU ({engine})"] = f"{(time.process_time() - t0) / 20 * 1e3:.1f}"
    return out


def quadefy_python_solver() -> dict[str, str]:
    """Quadefy: positions a CPU second of the Python exact search (why the solver is compiled)."""
    from polytable.ai.quadefy import solve_position
    from polytable.games.quadefy import ALL_BLOCKS, kernel_of

    out: dict[str, Any] = {}
    for engine in ("pure", "compiled"):
        kernel = kernel_of(get_game("quadefy", engine))
        t0 = time.process_time()
        r = solve_position(0, ALL_BLOCKS, ALL_BLOCKS, 1, 20_000, {}, kernel)
        cpu = max(time.process_time() - t0, 1e-9)
        out[f"quadefy Python search, positions per CPU second (move ordering on the {engine} kernel)"] = (
            f"{r.nodes / cpu:,.0f}"
        )
    return out


def main() -> None:
    print(time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    for part in (state_values, qwirkle_playout, quadefy_python_solver):
        for k, v in part().items():
            print(f"{k}: {v}")


if __name__ == "__main__":
    main()
