"""What a state built in Python costs against a compiled step (CPU time per call, best of 5; one JSON object).

Why: Foldris's and Quadefy's compiled steps take and answer the rules' own frozen state objects, read into
C structs and made from them in C (core/_codec.h's codec), where Forma's playout takes a buffer that Python
packs and unpacks. This prints what the other way would add to a step: a state made by its dataclass's
``__init__``, beside one compiled ``apply`` and one random step through the protocol. It asserts nothing.

    python benchmarks/state_construction.py
"""

from __future__ import annotations

import json
import time
import timeit
from collections.abc import Callable

from polytable.core import CHANCE, Rng, get_game


def best(f: Callable[[], object], number: int = 100_000) -> float:
    """Nanoseconds of CPU time per call, the best of 5 runs."""
    return min(timeit.repeat(f, number=number, repeat=5, timer=time.process_time)) / number * 1e9


def main() -> dict[str, float]:
    rng = Rng(1)
    q = get_game("quadefy", "compiled")
    s = q.new_game(seed=0)
    action = q.legal_actions(s).sample(Rng(0))
    state_class = type(s)
    fields = (s.config, s.occupied, s.owned, s.remaining, s.moves, 0, -1, s.flags)
    out = {
        "quadefy apply, compiled": best(lambda: q.apply(s, action)),
        "quadefy state made in Python": best(lambda: state_class(*fields)),
        "quadefy protocol step (legal_actions.sample, apply)": best(lambda: q.apply(s, q.legal_actions(s).sample(rng))),
    }
    f = get_game("foldris", "compiled")
    t = f.new_game(seed=1, players=4)
    while f.current_player(t) == CHANCE:
        t = f.apply_chance(t)
    sheet = t.sheets[0]
    sheet_class, foldris_class = type(sheet), type(t)
    sheet_fields = (sheet.ink, sheet.barrier, sheet.height, sheet.lines, sheet.bonus, sheet.out)
    state_fields = (t.config, t.sheets, t.deck, t.start_lane, t.round, t.card, t.pending, t.rng, t.over, t.starter)
    p = f.acting_players(t)[0]
    out["foldris sheet made in Python"] = best(lambda: sheet_class(*sheet_fields))
    out["foldris state made in Python"] = best(lambda: foldris_class(*state_fields))
    out["foldris protocol drop (acting_players, legal_actions.sample, apply), no resolution"] = best(
        lambda: f.apply(t, f.legal_actions(t, f.acting_players(t)[0]).sample(rng), p)
    )
    return out


if __name__ == "__main__":
    print(json.dumps({k: round(v) for k, v in main().items()}))
