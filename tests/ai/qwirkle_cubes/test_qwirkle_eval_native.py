"""The greedy evaluation of many placements (``ai/qwirkle_cubes/_values.py``) in C (``_cqwirkle_eval``,
beside the compiled kernel) against the pure Python:
over positions of seeded games (2, 3 and 4 players, greedy and random play, the first turn included), the
same placements in the same order with the same values (exact doubles), the same best placement, and the
same table by colour counts, the same sampled rolls of a reroll. Skipped only under ``POLYTABLE_PURE=1``."""

from __future__ import annotations

import pytest

from polytable.ai import make_bot
from polytable.ai.qwirkle_cubes import CompiledValues, values_of
from polytable.core import CHANCE, Rng, get_game, pure_engine_forced
from polytable.games.qwirkle_cubes import (
    LINE_MAX,
    PLACE,
    REROLL,
    QState,
    hand_mask,
    kernel_of,
    largest_line,
    reroll_masks,
)

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")

GAME = get_game("qwirkle-cubes", "compiled")
KERNEL = values_of(kernel_of(GAME))
PURE = values_of(kernel_of(get_game("qwirkle-cubes", "pure")))


def test_the_compiled_kernel_gets_the_compiled_evaluation() -> None:
    assert isinstance(KERNEL, CompiledValues) and not isinstance(PURE, CompiledValues)


def _positions(seed: int, players: int, greedy: bool) -> list[QState]:
    """Every reroll and placement position of one seeded game, played by greedy or at random."""
    bot = make_bot("greedy", "qwirkle-cubes")
    s = GAME.new_game(seed=seed, players=players)
    rng = Rng(seed, stream=5)
    out: list[QState] = []
    while not GAME.is_terminal(s):
        cp = GAME.current_player(s)
        if cp == CHANCE:
            s = GAME.apply_chance(s)
            continue
        if s.phase in (PLACE, REROLL):
            out.append(s)
        s = GAME.apply(s, bot.choose(GAME, s, cp, rng) if greedy else GAME.legal_actions(s).sample(rng))
    return out


def _both(name: str, *args: object) -> tuple[object, object]:
    """The compiled kernel's answer and the pure kernel's to the same question."""
    return getattr(KERNEL, name)(*args), getattr(PURE, name)(*args)


@pytest.mark.parametrize(("seed", "players", "greedy"), [(1, 2, True), (2, 3, True), (3, 4, False), (4, 2, False)])
def test_the_kernel_values_placements_as_the_python_does(seed: int, players: int, greedy: bool) -> None:
    rng = Rng(seed, stream=9)
    fives = 0
    for i, s in enumerate(_positions(seed, players, greedy)):
        cp = GAME.current_player(s)
        hand = s.hands[cp]
        hm = hand_mask(hand)
        need = largest_line(hm) if not s.board.cells else 0
        look = i % 3 != 2
        bonus = float(LINE_MAX) if rng.below(2) else 0.0
        got, want = _both("placement_values", s.board, hm, need, s.hands, cp, look)
        assert got == want
        assert isinstance(got, list)
        fives += sum(1 for p, v in got if v != int(v))
        got, want = _both("best_value", s.board, hm, need, len(hand), bonus, s.hands, cp, look)
        assert got == want
        if s.board.cells and i % 4 == 0:
            counts = [0] * 6
            for t in hand:
                counts[t // 6] += 1
            got, want = _both("colour_values", s.board, counts, len(hand), 0.4, bonus, s.hands, cp, look)
            assert got == want
    assert fives > 0 or not greedy  # the look (lines of 5) is met in greedy games


def test_no_placement_gives_minus_infinity() -> None:
    s = _positions(5, 2, True)[10]
    got, want = _both("best_value", s.board, 0, 0, 6, 0.0, s.hands, 0, True)
    assert got == want == (float("-inf"), ())


def test_the_kernel_refuses_a_hand_or_count_out_of_range() -> None:
    s = _positions(5, 2, True)[10]
    for hand, need in ((1 << 36, 1), (1, -1), (1, 7)):
        with pytest.raises(ValueError, match="36-bit face mask"):
            KERNEL.placement_values(s.board, hand, need, s.hands, 0, True)
        with pytest.raises(ValueError, match="36-bit face mask"):
            KERNEL.best_value(s.board, hand, need, 6, 0.0, s.hands, 0, True)


def test_the_kernel_samples_rolls_as_the_python_does() -> None:
    # Real reroll tables (every placement by colour counts, best per set of faces, best first) and every
    # reroll choice of the hand: the same differences a round and the same generator state after.
    checked = 0
    for seed, players in ((6, 2), (7, 3), (8, 4)):
        for i, s in enumerate(_positions(seed, players, True)):
            if s.phase != REROLL or not s.board.cells or i % 3:
                continue
            cp = GAME.current_player(s)
            hand = s.hands[cp]
            counts = [0] * 6
            for t in hand:
                counts[t // 6] += 1
            best: dict[int, float] = {}
            for v, fm, _ in KERNEL.colour_values(s.board, counts, len(hand), 0.4, 0.0, s.hands, cp, True):
                best[fm] = max(v, best.get(fm, v))
            entries = sorted(best.items(), key=lambda e: -e[1])
            fms, vals = [fm for fm, _ in entries], [v for _, v in entries]
            masks = reroll_masks(hand)
            base = masks[i % len(masks)]
            r1, r2 = Rng(seed, stream=i), Rng(seed, stream=i)
            got = KERNEL.roll_diffs(fms, vals, hand, masks, base, r1, 40)
            want = PURE.roll_diffs(fms, vals, hand, masks, base, r2, 40)
            assert got == want and r1.state == r2.state
            assert len(got) == len(masks) and all(len(d) == 40 for d in got)
            assert all(d == 0.0 for d in got[masks.index(base)])
            checked += 1
    assert checked >= 15


def test_roll_diffs_refuses_a_base_that_is_not_a_choice() -> None:
    with pytest.raises(ValueError):
        KERNEL.roll_diffs([1], [1.0], (1, 3), [0, 1], 2, Rng(1), 3)
