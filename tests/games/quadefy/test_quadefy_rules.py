"""Quadefy rules: blocks and orientations, legal placements (support, reachability, stability) against an
independent reference, golden counts, scenarios, loss detection, notation, serialisation, rendering."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from polytable.core import ConfigError, IllegalActionError, Rng, StateFormatError, get_game
from polytable.games.quadefy import (
    ACTIONS,
    BLOCKS,
    GRID,
    ORIENTS,
    PLACEMENTS,
    REACH,
    STABLE,
    Placement,
    QuadefyState,
    clear_cache,
    format_placement,
    legal_sets,
    sample_placement,
)
from polytable.games.quadefy._tables import embed
from polytable.geometry import TETRACUBES, canonical_polycube, orientations3, polycubes

from .quadefy_reference import BLOCKS as REF_BLOCKS
from .quadefy_reference import legal as ref_legal

GAME = get_game("quadefy")
ALL = 255


def play(moves: list[str], options: dict[str, object] | None = None) -> QuadefyState:
    state = GAME.new_game(options or {})
    for text in moves:
        state = GAME.apply_text(state, text)
    return state


def legal_texts(state: QuadefyState, player: int | None = None) -> set[str]:
    return {GAME.format_action(a) for a in GAME.legal_actions(state, player)}


def find(block: str, cells: list[tuple[int, int, int]]) -> str:
    m = GRID.mask(cells)
    for p in PLACEMENTS:
        if BLOCKS[p.block] == block and p.mask == m:
            return format_placement(ACTIONS[p.id])
    raise KeyError((block, cells))


# ---------------------------------------------------------------------------------------------- blocks


def test_the_eight_tetracubes_with_their_usual_names() -> None:
    assert BLOCKS == REF_BLOCKS
    assert sorted(canonical_polycube(TETRACUBES[b]) for b in BLOCKS) == sorted(polycubes(4))
    counts = {b: len(orientations3(TETRACUBES[b])) for b in BLOCKS}
    assert counts == {"I": 3, "O": 3, "T": 12, "L": 24, "S": 12, "B": 8, "SL": 12, "SR": 12}
    assert len(ORIENTS) == 86
    # Planar blocks lie flat; B, SL and SR are the three non-planar ones.
    for b in BLOCKS:
        planar = any(len({c[axis] for c in TETRACUBES[b]}) == 1 for axis in range(3))
        assert planar == (b in "IOTLS")
    # B (the branch) has three arms from one corner cube.
    corner = (0, 0, 0)
    assert all(sum(abs(a - b) for a, b in zip(c, corner, strict=True)) <= 1 for c in TETRACUBES["B"])


def _handedness(shape: tuple[tuple[int, int, int], ...]) -> int:
    """Sign of the triple product of the three unit steps along the screw's path (+1 right-handed)."""
    cells = set(shape)
    ends = [c for c in cells if sum(sum(abs(a - b) for a, b in zip(c, d, strict=True)) == 1 for d in cells) == 1]
    path = [ends[0]]
    while len(path) < 4:
        path.append(
            next(d for d in cells if d not in path and sum(abs(a - b) for a, b in zip(path[-1], d, strict=True)) == 1)
        )
    u, v, w = ([b - a for a, b in zip(path[i], path[i + 1], strict=True)] for i in range(3))
    cross = (v[1] * w[2] - v[2] * w[1], v[2] * w[0] - v[0] * w[2], v[0] * w[1] - v[1] * w[0])
    t = sum(a * b for a, b in zip(u, cross, strict=True))
    assert t != 0
    return 1 if t > 0 else -1


def test_screws_are_mirror_images_and_named_by_their_handedness() -> None:
    sl, sr = TETRACUBES["SL"], TETRACUBES["SR"]
    assert canonical_polycube(sl) != canonical_polycube(sr)  # no rotation turns one into the other
    assert canonical_polycube(sl, mirror=True) == canonical_polycube(sr, mirror=True)
    mirrored = tuple((-x, y, z) for x, y, z in sl)
    assert canonical_polycube(mirrored) == canonical_polycube(sr)
    assert _handedness(sl) == -1 and _handedness(sr) == 1
    for shape in orientations3(sr):  # handedness is invariant under rotation
        assert _handedness(shape) == 1


def test_placement_table_and_padding() -> None:
    assert len(PLACEMENTS) == GAME.num_distinct_actions(GAME.new_game().config) == 2172
    for p in PLACEMENTS:
        assert p.mask.bit_count() == 4 and p.mask < 1 << 64
    occ = GRID.mask([(0, 0, 0), (3, 3, 3), (1, 2, 3)])
    e = embed(occ)
    assert e.bit_count() == 3 and e >> (3 + 8 * 3) & 1 and e >> (6 + 8 * 6 + 64 * 3) & 1


# ---------------------------------------------------------------------------------------------- counts

# Golden counts, cross-checked with the reference below.
EMPTY_COUNTS = {
    (True, False): 761,
    (False, False): 761,
    (True, True): 609,
    (False, True): 609,
}


@pytest.mark.parametrize(("reach", "stability"), list(EMPTY_COUNTS))
def test_empty_cube_counts(reach: bool, stability: bool) -> None:
    state = GAME.new_game({"reachability": reach, "stability": stability})
    assert GAME.legal_actions(state).count() == EMPTY_COUNTS[(reach, stability)]
    assert legal_texts(state) == ref_legal(0, ALL, reach, stability)


OPENINGS: list[tuple[list[str], int]] = [
    (["O r0 @ b2.1"], 757),
    (["O r0 @ b2.1", "O r0 @ b2.2"], 652),
    (["O r0 @ b2.1", "O r0 @ b2.2", "I r1 @ a1.1"], 648),
    (["I r2 @ a1.1", "L r15 @ b1.1", "T r0 @ a3.1"], 443),
]


@pytest.mark.parametrize(("moves", "count"), OPENINGS)
def test_counts_after_fixed_openings(moves: list[str], count: int) -> None:
    state = play(moves)
    assert GAME.legal_actions(state).count() == count
    assert legal_texts(state) == ref_legal(state.occupied, state.remaining[state.to_move])


def _random_positions(options: dict[str, object], n: int, seed: int) -> list[QuadefyState]:
    out = []
    rng = Rng(seed)
    for g in range(n):
        state = GAME.new_game(options, g)
        target = 3 + g % 8
        for _ in range(target):
            if GAME.is_terminal(state):
                break
            state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
        if not GAME.is_terminal(state):
            out.append(state)
    return out


@pytest.mark.parametrize(
    "options",
    [{}, {"reachability": False}, {"stability": True}, {"reachability": False, "stability": True}],
    ids=["default", "no-reach", "stability", "stability-no-reach"],
)
def test_legal_placements_match_the_reference(options: dict[str, Any]) -> None:
    reach = bool(options.get("reachability", True))
    stability = bool(options.get("stability", False))
    for state in _random_positions(options, 8, seed=len(options) * 7 + int(stability)):
        hand = state.remaining[state.to_move]
        expected = ref_legal(state.occupied, hand, reach, stability)
        got = legal_texts(state)
        assert got == expected, GAME.render(state)
        assert GAME.legal_actions(state).count() == len(expected)


# ---------------------------------------------------------------------------------------------- support


def test_support_floor_or_on_a_placed_cube() -> None:
    state = GAME.new_game()
    with pytest.raises(IllegalActionError, match="float"):
        GAME.apply_text(state, "O r0 @ a1.2")
    state = play(["O r0 @ b2.1"])
    # On top of the O: supported.
    state2 = GAME.apply_text(state, "O r0 @ b2.2")
    assert state2.occupied.bit_count() == 8
    # One cube on the O, the rest overhanging in the air: still supported (no stability by default).
    GAME.apply_text(state, find("I", [(0, 1, 1), (1, 1, 1), (2, 1, 1), (3, 1, 1)]))
    # Layer 2 beside the O with nothing underneath: floats.
    with pytest.raises(IllegalActionError, match="float"):
        GAME.apply_text(state, find("I", [(0, 0, 1), (1, 0, 1), (2, 0, 1), (3, 0, 1)]))
    # Overlap.
    with pytest.raises(IllegalActionError, match="overlap"):
        GAME.apply_text(state, "O r0 @ b2.1")


# ---------------------------------------------------------------------------------------------- reachability

OVERHANG = ["L r15 @ a1.1", "O r0 @ c3.1"]
"""Player 1 stands an L on b1 with its foot over a1 at layer 3; Player 2 puts an O in the back corner."""
UNDER = "O r2 @ a1.1"
"""Player 1's O standing upright at a1-a2, layers 1-2: under the overhang, only a sideways insertion."""


UNDER_ONLY_SIDEWAYS = 18


def test_overhang_filled_only_by_a_reachable_insertion() -> None:
    state = play(OVERHANG)
    assert state.occupied >> GRID.index(0, 0, 2) & 1  # the overhang is right above the O's cell a1.2
    placement = GAME.parse_action(UNDER)
    assert placement in GAME.legal_actions(state)
    # A straight drop is impossible: the O would pass through the L's foot.
    p = PLACEMENTS[GAME.action_id(placement)]
    above = 0
    for z in range(1, 4):
        above |= p.mask << (16 * z) & GRID.full
    assert above & state.occupied
    after = GAME.apply_text(state, UNDER)
    assert after.occupied & p.mask == p.mask
    legal = legal_texts(state)
    assert legal == ref_legal(state.occupied, state.remaining[0])
    assert len(legal) == GAME.legal_actions(state).count() == 495
    # Here every free, supported spot can be reached somehow, so the count equals the one without the
    # rule; a drop-only model would lose the placements under the overhang, the upright O among them.
    assert GAME.legal_actions(play(OVERHANG, {"reachability": False})).count() == 495
    dropped = ref_legal(state.occupied, state.remaining[0], drop_only=True)
    assert UNDER in legal - dropped
    assert len(legal - dropped) == UNDER_ONLY_SIDEWAYS


POCKET = ["I r0 @ a1.1", "I r0 @ a4.1", "O r2 @ a2.1", "L r23 @ d2.1", "T r0 @ b1.2"]
"""A floor ring around the 2x2 centre and a T roof over part of it: the centre is an enclosed pocket."""


def test_enclosed_pocket_is_unreachable() -> None:
    state = play(POCKET)
    assert state.to_move == 1
    with pytest.raises(IllegalActionError, match="cannot be moved into that spot"):
        GAME.apply_text(state, "O r0 @ b2.1")
    assert "O r0 @ b2.1" not in legal_texts(state)
    open_state = play(POCKET, {"reachability": False})
    assert "O r0 @ b2.1" in legal_texts(open_state)
    on, off = GAME.legal_actions(state).count(), GAME.legal_actions(open_state).count()
    assert (on, off) == (440, 448)
    assert legal_texts(state) == ref_legal(state.occupied, state.remaining[1])
    assert legal_texts(open_state) == ref_legal(state.occupied, state.remaining[1], reach=False)


def _mask(cells: list[tuple[int, int, int]]) -> int:
    return GRID.mask(cells)


def _legal_ids(occ: int, rem: int, flags: int) -> set[str]:
    clear_cache()
    out = set()
    for o, bits in legal_sets(occ, rem, flags)[0]:
        for i in range(256):
            if bits >> i & 1:
                pid = next(p.id for p in PLACEMENTS if p.orient == o.index and p.pbit == i)
                out.add(format_placement(ACTIONS[pid]))
    return out


def test_tunnel_insertion_follows_straight_unit_moves() -> None:
    """A tunnel along row 2 of the floor under a full roof; a T whose stem points into row 3 fits at
    a2-c2 + b3 only if it can slide in along the tunnel with its stem passing through row 3 cells."""
    tunnel = {(x, 1, 0) for x in range(4)}
    pocket = (1, 2, 0)
    occ_cells = [
        (x, y, z)
        for x in range(4)
        for y in range(4)
        for z in range(4)
        if (x, y, z) not in tunnel and (x, y, z) != pocket
    ]
    occ = _mask(occ_cells)
    t_text = find("T", [(0, 1, 0), (1, 1, 0), (2, 1, 0), (1, 2, 0)])
    i_text = find("I", [(x, 1, 0) for x in range(4)])
    got = _legal_ids(occ, 255, REACH)
    assert i_text in got  # the I slides along the tunnel
    assert t_text not in got  # the T's stem would have to cut through a2.. row 3 on the way in
    assert got == ref_legal(occ, 255, True)
    # Open a slot along row 3 from the left edge up to the pocket: the T can now slide in.
    opened = occ & ~_mask([(0, 2, 0)])
    got2 = _legal_ids(opened, 255, REACH)
    assert t_text in got2
    assert got2 == ref_legal(opened, 255, True)
    # Without the reachability rule the T fits in the closed tunnel too.
    assert t_text in _legal_ids(occ, 255, 0)


# ---------------------------------------------------------------------------------------------- stability


def test_stability_option() -> None:
    base = ["O r0 @ b2.1"]
    plain, steady = play(base), play(base, {"stability": True})
    # An I across the O, resting on two of its cubes (b2, c2) with its centre between them: stable.
    across = find("I", [(0, 1, 1), (1, 1, 1), (2, 1, 1), (3, 1, 1)])
    assert across in legal_texts(steady)
    # An L resting on one cube of the O (c3) with most of its weight out over empty floor: topples.
    overhang = find("L", [(2, 2, 1), (3, 2, 1), (3, 1, 1), (3, 0, 1)])
    assert overhang in legal_texts(plain)
    assert overhang not in legal_texts(steady)
    with pytest.raises(IllegalActionError, match="topple"):
        GAME.apply_text(steady, overhang)
    # Knife edge: an upright O standing on one cube with its centre over that cube's edge topples.
    knife = find("O", [(2, 2, 1), (3, 2, 1), (2, 2, 2), (3, 2, 2)])  # rests on c3 only; centre x = 3
    assert knife in legal_texts(plain) and knife not in legal_texts(steady)


# ---------------------------------------------------------------------------------------------- the end


def test_loss_when_no_block_fits_and_game_over() -> None:
    rng = Rng(11)
    for seed in range(12):
        state = GAME.new_game({}, seed)
        while not GAME.is_terminal(state):
            state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
        loser = state.to_move
        assert GAME.winners(state) == (1 - loser,)
        assert GAME.returns(state) == tuple(1.0 if p != loser else -1.0 for p in range(2))
        assert ref_legal(state.occupied, state.remaining[loser]) == set()
        assert GAME._count(state, loser) == 0 and not GAME._any(state, loser)
        with pytest.raises(IllegalActionError, match="over"):
            GAME.apply_text(state, "I r0 @ a1.1")
        assert "wins" in GAME.render(state)


def test_full_cube_means_player_one_loses() -> None:
    """All 16 blocks placed (reachability off so the packing can be built): Player 1, to move with an
    empty hand, cannot place and loses."""
    from polytable.games.quadefy import PATTERNS, solve_pattern

    result = solve_pattern(PATTERNS["columns"])
    dark, light = result.tilings
    assert dark is not None and light is not None
    order = _build_order(list(dark), list(light))
    state = GAME.new_game({"reachability": False})
    for pid in order:
        state = GAME.apply(state, ACTIONS[pid])
    assert state.occupied == GRID.full
    assert GAME.is_terminal(state) and GAME.winners(state) == (1,)


def _build_order(dark: list[int], light: list[int]) -> list[int]:
    """Alternate dark and light placements so each rests on the floor or on earlier ones (DFS)."""

    def supported(pid: int, occ: int) -> bool:
        m = PLACEMENTS[pid].mask
        return bool(m & (GRID.layer(0) | (occ << 16)))

    def dfs(occ: int, ds: list[int], ls: list[int], turn: int, acc: list[int]) -> list[int] | None:
        if not ds and not ls:
            return acc
        pool = ds if turn == 0 else ls
        for pid in pool:
            if supported(pid, occ):
                rest = [p for p in pool if p != pid]
                res = dfs(
                    occ | PLACEMENTS[pid].mask,
                    rest if turn == 0 else ds,
                    ls if turn == 0 else rest,
                    1 - turn,
                    [*acc, pid],
                )
                if res is not None:
                    return res
        return None

    res = dfs(0, dark, light, 0, [])
    assert res is not None
    return res


def test_blocks_are_used_once() -> None:
    state = play(["O r0 @ a1.1", "O r0 @ c3.1"])
    with pytest.raises(IllegalActionError, match="already placed block O"):
        GAME.apply_text(state, "O r0 @ c1.1")
    assert all(a.block != "O" for a in GAME.legal_actions(state))


# ---------------------------------------------------------------------------------------------- notation


def test_notation_round_trip_and_ids() -> None:
    state = GAME.new_game()
    for i, a in enumerate(ACTIONS):
        text = GAME.format_action(a)
        assert GAME.parse_action(text) == a
        assert GAME.action_id(a) == i and GAME.action_from_id(i, state) == a
    assert GAME.parse_action("  sl R3@B2 . 1 ") == Placement("SL", 3, 1, 1, 0)
    assert GAME.format_action(Placement("L", 17, 1, 1, 0)) == "L r17 @ b2.1"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("junk", "cannot read"),
        ("Q r0 @ a1.1", "no block"),
        ("I r3 @ a1.1", "r0 to r2"),
        ("I r0 @ e1.1", "column"),
        ("I r0 @ a5.1", "row"),
        ("I r0 @ a1.0", "layer"),
    ],
)
def test_parse_errors_are_sentences(text: str, message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        GAME.parse_action(text)


def test_illegal_actions_and_ids() -> None:
    state = GAME.new_game()
    with pytest.raises(IllegalActionError, match="stick out"):
        GAME.apply(state, Placement("I", 0, 1, 0, 0))
    with pytest.raises(IllegalActionError, match="out of range"):
        GAME.action_from_id(len(ACTIONS), state)
    with pytest.raises(IllegalActionError):
        GAME.apply(state, "I r0 @ a1.1")  # type: ignore[arg-type]
    with pytest.raises(IllegalActionError, match="Player 1's turn"):
        GAME.apply(state, ACTIONS[0], 1)
    with pytest.raises(ConfigError):
        GAME.new_game({"gravity": True})
    with pytest.raises(ConfigError):
        GAME.new_game(players=3)


# ---------------------------------------------------------------------------------------------- state, views


def test_serialisation_replays_and_validates() -> None:
    state = play(POCKET, {"stability": False})
    data = json.loads(json.dumps(GAME.state_to_dict(state)))
    assert GAME.state_from_dict(data) == state
    data["moves"][2] = "O r2 @ a2.3"
    with pytest.raises(StateFormatError, match="move 3"):
        GAME.state_from_dict(data)
    with pytest.raises(StateFormatError):
        GAME.state_from_dict({"moves": []})


def test_view_and_render() -> None:
    state = play(OVERHANG)
    view = GAME.view(state, None)
    json.dumps(view)
    assert view["to_move"] == 0 and view["cells"][GRID.index(0, 0, 2)] == {"owner": 0, "block": "L"}
    assert view["in_hand"][1] == ["I", "T", "L", "S", "B", "SL", "SR"]
    text = GAME.render(state)
    assert "layer 1 (floor)" in text and "layer 4 (top)" in text
    assert (
        "1L" in text
        and "2O*" in text
        and max(len(x) for x in text.splitlines()) <= 80
        and "Player 1 (dark) to move" in text
    )
    assert "SL (left screw)" in text
    colour = GAME.render(state, color=True)
    assert "\x1b[" in colour


def test_sampling_is_uniform_enough_and_deterministic() -> None:
    state = play(["O r0 @ b2.1", "O r0 @ b2.2", "I r1 @ a1.1"])
    legal = {GAME.action_id(a) for a in GAME.legal_actions(state)}
    rng = Rng(3)
    seen: dict[int, int] = {}
    for _ in range(4000):
        clear_cache()
        pid = sample_placement(state.occupied, state.remaining[1], state.flags, rng.u64)
        assert pid in legal
        seen[pid] = seen.get(pid, 0) + 1
    assert len(seen) > 0.95 * len(legal)
    a = GAME.legal_actions(state).sample(Rng(9))
    assert GAME.legal_actions(state).sample(Rng(9)) == a
    # The fallback path (few legal placements) is exercised too.
    late = _random_positions({}, 10, 4)
    for s in late:
        ids = {GAME.action_id(x) for x in GAME.legal_actions(s)}
        assert GAME.action_id(GAME.legal_actions(s).sample(Rng(1))) in ids


def test_flags_cover_options() -> None:
    assert GAME.new_game().flags == REACH
    assert GAME.new_game({"stability": True, "reachability": False}).flags == STABLE


@settings(max_examples=150, deadline=None)
@given(st.text(alphabet="IOTLSBRr0123456789abcde@. \t", max_size=16))
def test_notation_fuzz(text: str) -> None:
    """Any text either parses to a placement that prints and parses back to itself, or is refused with
    IllegalActionError (never another exception)."""
    try:
        action = GAME.parse_action(text)
    except IllegalActionError:
        return
    assert GAME.parse_action(GAME.format_action(action)) == action


def test_first_block_anywhere_then_alternate() -> None:
    state = GAME.new_game()
    floor = {format_placement(ACTIONS[p.id]) for p in PLACEMENTS if p.mask & GRID.layer(0)}
    assert legal_texts(state) == floor  # every placement touching the floor, nothing else
    assert GAME.current_player(state) == 0
    state = GAME.apply_text(state, "T r0 @ a1.1")
    assert GAME.current_player(state) == 1 and GAME.scores(state) == (1.0, 0.0)
    state = GAME.apply_text(state, "T r0 @ a3.1")
    assert GAME.current_player(state) == 0 and GAME.scores(state) == (1.0, 1.0)
    assert state.owned[0] & state.owned[1] == 0 and state.owned[0] | state.owned[1] == state.occupied
    with pytest.raises(IllegalActionError, match="Player 1's turn"):
        GAME.apply_text(state, "O r0 @ c1.1", 1)
