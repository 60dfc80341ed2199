"""The compiled engine: C extension modules built by setuptools with the package (metadata: pyproject.toml).

Plain C against the CPython API, no Cython or other build dependency: the machine's C compiler and the
Python headers are all ``pip install`` and ``python -m build`` need. Each extension is optional: where it
cannot be compiled the install still succeeds and polytable runs the pure-Python engine (and says so).
"""

import platform
import sys

from setuptools import Extension, setup

FLAGS = ["-O3"]
if sys.platform != "win32":
    FLAGS.append("-Werror=implicit-function-declaration")  # a call to a function no header declares: no module
    if platform.machine().lower() in ("x86_64", "amd64"):
        FLAGS.append("-mpopcnt")  # one instruction per popcount (every x86-64 CPU since about 2008)


def ext(name: str, sources: list[str], depends: list[str]) -> Extension:
    return Extension(name, sources=sources, depends=depends, extra_compile_args=FLAGS, optional=True)


CORE_HEADERS = [f"src/polytable/core/_{h}.h" for h in ("rng", "pylong", "codec", "bits", "batch", "layout")]
"""The C every kernel shares: the generator of core._rng, ints as bytes (the one use of CPython's internals),
frozen value classes read and made through their member tables, bit tricks and the flood fill."""

QUADEFY_MOVES = [f"src/polytable/games/quadefy/quadefy_{f}.h" for f in ("moves", "gen", "cover", "pyinit")]
"""Quadefy's move generator: the game's kernel and the exact solver both compile it."""

FORMFINITY_RULES = [f"src/polytable/games/formfinity/_cformfinity_{f}.h" for f in ("flow", "playout")]
"""FORMFINITY's kernel headers, included by _cformfinity.c: the batch and the AI's greedy include that unit."""

setup(
    ext_modules=[
        ext(
            "polytable.games.forma._cforma",
            [
                "src/polytable/games/forma/_cforma.c",
                "src/polytable/games/forma/_cforma_rules.c",
                "src/polytable/games/forma/_cforma_bridges.c",
            ],
            ["src/polytable/games/forma/_cforma.h", *CORE_HEADERS],
        ),
        # Forma's AI evaluation: its own extension, calling the rules' extension through its capsule.
        ext(
            "polytable.ai.forma._cforma_eval",
            ["src/polytable/ai/forma/_cforma_eval.c"],
            ["src/polytable/games/forma/_cforma.h", *CORE_HEADERS],
        ),
        # The batched environment's Forma games: includes _cforma.c and _cforma_rules.c (their static steps).
        ext(
            "polytable.games.forma._cforma_vec",
            [
                "src/polytable/games/forma/_cforma_vec.c",
                "src/polytable/games/forma/_cforma_bridges.c",
            ],
            [
                "src/polytable/games/forma/_cforma.h",
                "src/polytable/games/forma/_cforma.c",
                "src/polytable/games/forma/_cforma_rules.c",
                *CORE_HEADERS,
            ],
        ),
        ext("polytable.interop._cplanes", ["src/polytable/interop/_cplanes.c"], ["src/polytable/core/_pylong.h"]),
        ext("polytable.interop._csample", ["src/polytable/interop/_csample.c"], []),
        ext(
            "polytable.games.foldris._cfoldris",
            ["src/polytable/games/foldris/_cfoldris.c"],
            [
                "src/polytable/games/foldris/_cfoldris_values.h",
                "src/polytable/games/foldris/_cfoldris_playout.h",
                "src/polytable/games/foldris/_cfoldris_step.h",
                *CORE_HEADERS,
            ],
        ),
        # The batched environment's Foldris games: includes _cfoldris.c (its rules, decks and reveal).
        ext(
            "polytable.games.foldris._cfoldris_vec",
            ["src/polytable/games/foldris/_cfoldris_vec.c"],
            [
                "src/polytable/games/foldris/_cfoldris.c",
                "src/polytable/games/foldris/_cfoldris_values.h",
                "src/polytable/games/foldris/_cfoldris_playout.h",
                "src/polytable/games/foldris/_cfoldris_step.h",
                "src/polytable/core/_seedseq.h",
                *CORE_HEADERS,
            ],
        ),
        # Quadefy's move generator lives with the game (quadefy_moves.h); the solver includes it downward.
        ext(
            "polytable.games.quadefy._cquadefy",
            ["src/polytable/games/quadefy/_cquadefy.c", "src/polytable/games/quadefy/quadefy_moves.c"],
            [
                "src/polytable/games/quadefy/_cquadefy_kernel.h",
                *CORE_HEADERS,
                *QUADEFY_MOVES,
            ],
        ),
        # The batched environment's Quadefy games: includes _cquadefy.c (its tables and init).
        ext(
            "polytable.games.quadefy._cquadefy_vec",
            ["src/polytable/games/quadefy/_cquadefy_vec.c", "src/polytable/games/quadefy/quadefy_moves.c"],
            [
                "src/polytable/games/quadefy/_cquadefy.c",
                "src/polytable/games/quadefy/_cquadefy_kernel.h",
                "src/polytable/games/quadefy/_cquadefy_vec_step.h",
                *CORE_HEADERS,
                *QUADEFY_MOVES,
            ],
        ),
        ext(
            "polytable.ai._native._qsolve",
            ["src/polytable/ai/_native/_qsolve.c", "src/polytable/ai/_native/quadefy_solve.c"],
            ["src/polytable/ai/_native/quadefy_solve.h", "src/polytable/core/_bits.h", *QUADEFY_MOVES],
        ),
        ext("polytable.ai.foldris._cplan", ["src/polytable/ai/foldris/_cplan.c"], []),
        ext(
            "polytable.games.qwirkle_cubes._cqwirkle",
            [f"src/polytable/games/qwirkle_cubes/{f}.c" for f in ("_cqwirkle", "qwirkle_board", "qwirkle_flow")],
            [
                "src/polytable/games/qwirkle_cubes/qwirkle_rules.h",
                "src/polytable/games/qwirkle_cubes/qwirkle_api.h",
                "src/polytable/core/_rng.h",
            ],
        ),
        # The batched environment's Qwirkle Cubes games: includes _cqwirkle.c, qwirkle_board.c and qwirkle_flow.c.
        ext(
            "polytable.games.qwirkle_cubes._cqwirkle_vec",
            ["src/polytable/games/qwirkle_cubes/_cqwirkle_vec.c"],
            [
                *(f"src/polytable/games/qwirkle_cubes/{f}.c" for f in ("_cqwirkle", "qwirkle_board", "qwirkle_flow")),
                "src/polytable/games/qwirkle_cubes/qwirkle_rules.h",
                "src/polytable/games/qwirkle_cubes/qwirkle_api.h",
                *CORE_HEADERS,
            ],
        ),
        # Qwirkle Cubes' greedy evaluation: its own extension, reading the rules' table through their capsule.
        ext(
            "polytable.ai.qwirkle_cubes._cqwirkle_eval",
            ["src/polytable/ai/qwirkle_cubes/_cqwirkle_eval.c"],
            [
                "src/polytable/games/qwirkle_cubes/qwirkle_rules.h",
                "src/polytable/games/qwirkle_cubes/qwirkle_api.h",
                "src/polytable/core/_rng.h",
            ],
        ),
        ext(
            "polytable.games.formfinity._cformfinity",
            ["src/polytable/games/formfinity/_cformfinity.c"],
            [*FORMFINITY_RULES, *CORE_HEADERS],
        ),
        # FORMFINITY's greedy playout: the AI's own extension, including the game's kernel downward.
        ext(
            "polytable.ai.formfinity._cformfinity_greedy",
            ["src/polytable/ai/formfinity/_cformfinity_greedy.c"],
            ["src/polytable/games/formfinity/_cformfinity.c", *FORMFINITY_RULES, *CORE_HEADERS],
        ),
        # The batched environment's FORMFINITY games: includes _cformfinity.c (its games are contexts).
        ext(
            "polytable.games.formfinity._cformfinity_vec",
            ["src/polytable/games/formfinity/_cformfinity_vec.c"],
            [
                "src/polytable/games/formfinity/_cformfinity.c",
                *FORMFINITY_RULES,
                *CORE_HEADERS,
            ],
        ),
    ],
)
