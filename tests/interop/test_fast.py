"""The environments' fast observations and masks (read from the state) against the reference encoders
(read from ``Game.view``): identical on random positions of every game and configuration family."""

from __future__ import annotations

import numpy as np
import pytest

from polytable.core import CHANCE, TERMINAL, Rng, all_games
from polytable.interop._table import Table, observe

CONFIGS = [
    pytest.param(g.spec.id, opts, n, id=f"{g.spec.id}-{n}p-{i}")
    for g in all_games()
    for i, (opts, n) in enumerate(g.sample_configs())
]


def _positions(table: Table, seed: int, every: int) -> list[object]:
    """States along a seeded random game: every ``every``-th decision and the end."""
    game = table.game
    s = game.new_game(table.options, seed=seed, players=table.players)
    rng = Rng(seed, stream=7)
    out, k = [], 0
    while (p := game.current_player(s)) != TERMINAL:
        if p == CHANCE:
            s = game.apply_chance(s)
            continue
        if k % every == 0:
            out.append(s)
        k += 1
        who = p if p >= 0 else game.acting_players(s)[0]
        _, s = game.sample_and_apply(s, who, rng)
    out.append(s)
    return out


@pytest.mark.parametrize(("game_id", "options", "players"), CONFIGS)
def test_fast_observations_and_masks_equal_the_reference(
    game_id: str, options: dict[str, object], players: int
) -> None:
    table = Table(game_id, players, options)
    if table.codec is None:
        pytest.skip(f"{game_id} has no fast codec (the reference encoder serves)")
    checked = 0
    every = 9 if game_id in ("forma", "qwirkle-cubes") else 3
    for state in _positions(table, seed=players * 31 + 1, every=every):
        table.state = state
        seat = table.to_act()
        for observer in range(table.players):
            ref = observe(table.game, table.encoder, state, observer, table.players)
            fast = np.full(table.obs_shape, 77, np.uint8)  # every byte must be written
            table.codec.write(state, observer, fast)
            assert np.array_equal(fast, ref), (
                observer,
                [n for i, n in enumerate(table.plane_names) if (fast[..., i] != ref[..., i]).any()],
            )
            checked += 1
        if seat is not None and table.codec.legal_ids is not None and not table.indexed:
            mask = np.zeros(table.num_actions, np.int8)
            table.write_mask(mask, seat)
            ids = sorted(table.game.action_id(a, state) for a in table.game.legal_actions(state, seat))
            assert list(np.flatnonzero(mask)) == ids
    assert checked >= 2


@pytest.mark.parametrize("game_id", ["foldris", "forma", "formfinity", "quadefy"])
def test_compiled_writers_equal_their_numpy_fallbacks(game_id: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import polytable.interop._fast as fast

    if fast._C is None:
        pytest.skip("the compiled writers are not built here")
    table = Table(game_id, None, None)
    assert table.codec is not None
    for state in _positions(table, seed=3, every=7):
        compiled = np.zeros(table.obs_shape, np.uint8)
        table.codec.write(state, 0, compiled)
        monkeypatch.setattr(fast, "_C", None)
        fallback = np.full(table.obs_shape, 77, np.uint8)
        table.codec.write(state, 0, fallback)
        monkeypatch.undo()
        assert np.array_equal(compiled, fallback)
    mask = np.ones(8, np.int8)
    fast.write_mask(mask, [1, 5])
    assert mask.tolist() == [0, 1, 0, 0, 0, 1, 0, 0]
    with pytest.raises(ValueError, match="outside the mask"):
        fast.write_mask(mask, [9])
