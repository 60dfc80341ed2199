"""Helpers for FORMFINITY tests: build positions from square names and cards in notation."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from polytable.core import CHANCE, Rng
from polytable.games.formfinity import DRAW, GAME, PLACE, Card, FormfinityState, parse_card, parse_cell, setup_for

__all__ = ["GAME", "cells_mask", "draw", "mask_cells", "play_random", "position", "setup_of"]


def setup_of(state: FormfinityState):  # type: ignore[no-untyped-def]
    return setup_for(state.config)


def cells_mask(state: FormfinityState, names: str | Sequence[str]) -> int:
    setup = setup_of(state)
    items = names.split() if isinstance(names, str) else list(names)
    m = 0
    for name in items:
        x, y = parse_cell(name)
        m |= setup.bit(x, y)
    return m


def mask_cells(state: FormfinityState, mask: int) -> list[str]:
    setup = setup_of(state)
    return sorted(f"{chr(97 + x)}{y + 1}" for x, y in setup.cells(mask))


def position(
    options: Mapping[str, object] | None = None,
    players: int = 2,
    drawn: Mapping[int, str] | None = None,
    card: str | None = None,
    turn: int = 0,
    **changes: object,
) -> FormfinityState:
    """A position: options, squares drawn by each player (``{0: "a1 b1"}``), and the card being placed
    by ``turn`` (the state is then at its first element), or a draw (chance) node if ``card`` is None."""
    state = GAME.new_game(options or {}, seed=1, players=players)
    owners = list(state.owners)
    for p, names in (drawn or {}).items():
        owners[p] = cells_mask(state, names)
    state = dataclasses.replace(state, owners=tuple(owners), turn=turn, phase=DRAW, **changes)  # type: ignore[arg-type]
    if card is not None:
        c = parse_card(card)
        state = dataclasses.replace(state, phase=PLACE, card=c.id, left=c.count, placed=0)
    return state


def draw(state: FormfinityState, card: str) -> FormfinityState:
    """Apply a chance node with a forced card."""
    assert GAME.current_player(state) == CHANCE
    return GAME.apply(state, parse_card(card), CHANCE)


def play_random(options: Mapping[str, object], players: int, seed: int) -> tuple[FormfinityState, list[str]]:
    """A seeded random game; the final state and its log in notation."""
    state = GAME.new_game(options, seed=seed, players=players)
    rng = Rng(seed, 3)
    log: list[str] = []
    while not GAME.is_terminal(state):
        if GAME.current_player(state) == CHANCE:
            action = GAME.chance_outcome(state)
        else:
            action = GAME.legal_actions(state).sample(rng)
        log.append(GAME.format_action(action, state))
        state = GAME.apply(state, action)
    return state, log


_ = Card


def random_position(
    options: dict[str, object], players: int, seed: int, moves: int, stream: int = 9
) -> FormfinityState:
    """A game of ``players`` after ``moves`` random decisions (seeded by ``seed`` and ``stream``); a
    pending draw is left pending."""
    state: FormfinityState = GAME.new_game(options, seed=seed, players=players)
    rng = Rng(seed, stream)
    done = 0
    while done < moves and not GAME.is_terminal(state):
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply(state, GAME.chance_outcome(state), CHANCE)
            continue
        state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
        done += 1
    return state


def random_midgame(options: dict[str, object], seed: int, moves: int) -> FormfinityState:
    """A 2-player game after ``moves`` random (seeded) decisions, with any pending draw made: a position
    for the bot tests that is neither the empty template nor hand-built."""
    state = random_position(options, 2, seed, moves)
    while GAME.current_player(state) == CHANCE:
        state = GAME.apply(state, GAME.chance_outcome(state), CHANCE)
    return state
