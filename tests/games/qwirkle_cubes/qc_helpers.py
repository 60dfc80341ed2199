"""Builders for hand-made Qwirkle Cubes positions (tests only)."""

from __future__ import annotations

from polytable.core import get_game
from polytable.games.qwirkle_cubes import PLACE, Board, Place, QState, QwirkleCubes, parse_face

GAME = get_game("qwirkle-cubes")
assert isinstance(GAME, QwirkleCubes)


def cubes(text: str) -> tuple[tuple[int, int], ...]:
    """``R●@0,0 R■@1,0`` as sorted (face, cell) pairs."""
    if not text.strip():
        return ()
    out = []
    for word in text.split():
        a = GAME.parse_action(word)
        assert isinstance(a, Place)
        out += a.cubes
    return tuple(sorted(out, key=lambda tc: tc[1]))


def hand(text: str) -> tuple[int, ...]:
    out = []
    for w in text.split():
        t = parse_face(w)
        assert t is not None, w
        out.append(t)
    return tuple(sorted(out))


def build(
    table: str = "",
    hands: tuple[str, ...] = ("", ""),
    player: int = 0,
    phase: int = PLACE,
    bag_empty: bool = False,
    points: tuple[int, ...] | None = None,
) -> QState:
    """A consistent state: the bag holds every cube not on the table or in a hand (or none at all)."""
    placed = cubes(table)
    hs = tuple(hand(h) for h in hands)
    used = [t for t, _ in placed] + [t for h in hs for t in h]
    bag = tuple(0 if bag_empty else 15 - sum(1 for t in used if t // 6 == c) for c in range(6))
    config = GAME.spec.config({}, len(hands))
    return QState(
        config=config,
        rng=12345,
        phase=phase,
        player=player,
        hands=hs,
        bag=bag,
        points=points or (0,) * len(hands),
        placed=placed,
        board=Board(placed),
    )
