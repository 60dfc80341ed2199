"""FORMFINITY in words: each card and move for the history, and why the game ended (``Game.narrate``/
``outcome``), per goal: the lines target or the most lines, the most squares after the last area, the
connection or (polytable's rule, marked as such) the fewer squares still needed, the most numbers."""

from __future__ import annotations

from polytable.core import both, decided, joined, phrase, player_name

from . import _flow
from ._board import Setup, setup_for
from ._cards import EDGE_NAMES, Card, shape_text
from ._state import Action, ChooseArea, Claim, FormfinityState, Place, cell_name

__all__ = ["describe", "narrate", "outcome"]


def shape_words(shape: int) -> dict[str, object]:
    """An element as people name it: ``single square``, ``3-square bar``, ``2-by-2 square``, ``4-square shape``."""
    rows = shape_text(shape).split("/")
    n = sum(row.count("#") for row in rows)
    if n == 1:
        return phrase("formfinity.said.single", "single square")
    if len(rows) == 1 or all(len(row) == 1 for row in rows):
        return phrase("formfinity.said.bar", f"{n}-square bar", {"n": n})
    if rows == ["##", "##"]:
        return phrase("formfinity.said.block", "2-by-2 square")
    return phrase("formfinity.said.shape", f"{n}-square shape", {"n": n})


def card_words(setup: Setup, card: Card) -> dict[str, object]:
    """``3-square bar ×2, enters from the top, may turn``: what the variant lets the card say."""
    what = shape_words(card.shape)
    if card.count > 1:
        what = phrase("formfinity.said.times", f"{what['message']} ×{card.count}", {"shape": what, "count": card.count})
    turn = (
        phrase("formfinity.said.turns", "may be turned")
        if setup.rules.rotation_allowed(card.rotate)
        else phrase("formfinity.said.fixed", "may not be turned")
    )
    if not setup.rules.arrows:
        return phrase("said.list2", f"{what['message']}, {turn['message']}", {"a": what, "b": turn})
    edges = [EDGE_NAMES[k] for k in range(4) if card.edges >> k & 1]
    if len(edges) == 4:
        where = phrase("formfinity.said.any_side", "enters from any side")
    elif edges:
        where = phrase("formfinity.said.enters", f"enters from the {joined(edges, 'or')['message']}", {
            "edges": joined(edges, "or")
        })  # fmt: skip
    else:
        where = phrase("formfinity.said.anywhere", "goes anywhere")
    text = f"{what['message']}, {where['message']}, {turn['message']}"
    return phrase("said.list3", text, {"a": what, "b": where, "c": turn})


def narrate(action: Action, state: FormfinityState, player: int) -> dict[str, object]:
    """``Player 1 drew: 3-square bar ×2, enters from the top, may be turned``; ``Player 1 placed a
    3-square bar on c5, d5, e5``; a line claimed; an area chosen."""
    setup = setup_for(state.config)
    seat = state.turn
    if isinstance(action, Card):
        card = card_words(setup, action)
        return phrase(
            "formfinity.said.card", f"{player_name(seat)} drew: {card['message']}", {"seat": seat, "card": card}
        )
    if isinstance(action, Place):
        what = shape_words(action.shape)
        cells = ", ".join(cell_name(x, y) for x, y in setup.cells(setup.place_mask(action.shape, action.x, action.y)))
        return phrase(
            "formfinity.said.place",
            f"{player_name(seat)} placed a {what['message']} on {cells}",
            {"seat": seat, "shape": what, "cells": cells},
        )
    if isinstance(action, Claim):
        cell = cell_name(action.x, action.y)
        code, way = (
            ("formfinity.said.claim_h", "across"),
            ("formfinity.said.claim_v", "down"),
            ("formfinity.said.claim_d", "diagonally down to the right"),
            ("formfinity.said.claim_a", "diagonally down to the left"),
        )[action.direction]
        return phrase(code, f"{player_name(seat)} claimed the line from {cell} {way}", {"seat": seat, "cell": cell})
    assert isinstance(action, ChooseArea)
    area = setup.area_names[action.area]
    return phrase("formfinity.said.area", f"{player_name(seat)} chose area {area}", {"seat": seat, "area": area})


def outcome(state: FormfinityState) -> dict[str, object]:
    setup = setup_for(state.config)
    rules, winners = setup.rules, state.winners
    scores = _flow.scores(setup, state)
    stuck = phrase("formfinity.said.stuck", "no card that can be drawn fits anywhere any more")
    if rules.goal == "lines":
        if len(winners) == 1 and scores[winners[0]] >= rules.target:
            return phrase(
                "formfinity.said.target",
                f"{player_name(winners[0])} claimed {rules.target} lines first",
                {"seat": winners[0], "target": rules.target},
            )
        return both(stuck, decided(scores, winners, "lines"))
    if rules.goal == "areas":
        return both(phrase("formfinity.said.areas", "the last area is finished"), decided(scores, winners))
    if rules.goal == "connection":
        if len(winners) == 1 and _flow.connects(setup, state.owners[winners[0]], winners[0]):
            return phrase(
                "formfinity.said.connected",
                f"{player_name(winners[0])} connected the two black squares",
                {"seat": winners[0]},
            )
        need = sorted(_flow.squares_needed(setup, state, p) for p in (0, 1))
        if need[0] == need[1]:
            return phrase(
                "formfinity.said.need_tied",
                f"nobody can connect any more; by polytable's rule the squares still needed decide, and both need "
                f"{need[0]}: a shared win",
                {"need": need[0]},
            )
        return phrase(
            "formfinity.said.need",
            f"nobody can connect any more; by polytable's rule fewer squares still needed wins: {need[0]} against "
            f"{need[1]}",
            {"best": need[0], "runner_up": need[1]},
        )
    if len(state.numbers) == len(setup.numbers):
        end = phrase("formfinity.said.all_numbers", "every number is claimed")
    elif not _flow.number_reachable(setup, state):
        end = phrase("formfinity.said.unreachable", "the next number can no longer be reached")
    else:
        end = stuck
    return both(end, decided(scores, winners, "numbers"))


def describe(action: Action, state: FormfinityState) -> str:
    """The terminal's sentence for an action (``Game.describe_action``): the notation's own words."""
    setup = setup_for(state.config)
    if isinstance(action, Card):
        return f"the card is {action.describe(setup.rules.arrows, setup.rules.rotation_allowed(action.rotate))}"
    if isinstance(action, Place):
        cells = setup.cells(setup.place_mask(action.shape, action.x, action.y))
        names = " ".join(cell_name(x, y) for x, y in cells)
        return f"{player_name(state.turn)} draws {shape_text(action.shape)} on {names}"
    if isinstance(action, Claim):
        d = ("horizontal", "vertical", "diagonal", "anti-diagonal")[action.direction]
        return f"{player_name(state.turn)} claims the {d} line from {cell_name(action.x, action.y)}"
    assert isinstance(action, ChooseArea)
    return f"{player_name(state.turn)} chooses area {setup.area_names[action.area]}"
