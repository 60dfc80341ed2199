"""What a move would do, and which move would be good, asked before it is made: the dedicated boards'
score preview and the guided game's hint.

Why on the server: the boards hold no rules. A preview applies the candidate action to the room's current
state (states are immutable, so nothing of the room changes) through the engine and answers with the
scores before and after and the asking seat's own view of the result, so a board can show the points a
placement would earn (cells, enclosures, tower, bridges) and the cells it would cover before the player
confirms. Only a seat the connection holds may ask, and only its own view comes back, so a preview
reveals nothing that seat could not see by playing the move; chance after the move is never resolved.

A hint is the move the greedy player would make for the seat (:func:`polytable.match.suggestion`, as the
offline table gives it), thought out on the AI seats' thread pool. It is offered only where no other
person plays: every person's seat of the room is held by the asking connection (a game against AIs, a
hot-seat game, a guided first game), so a hint never helps one person against another.
"""

from __future__ import annotations

import asyncio
from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from ..ai import make_bot
from ..match import suggestion
from ._base import RoomError

if TYPE_CHECKING:
    from ._rooms import Room

__all__ = ["hint", "preview"]


def preview(room: Room, seat: int, text: str) -> dict[str, Any]:
    """The outcome of ``text`` played by ``seat`` now (:meth:`polytable.match.RoomMachine.preview`)."""
    return room.machine.preview(seat, text)


async def hint(room: Room, held: Collection[int], seat: int) -> dict[str, Any]:
    """The moves the greedy player would make for ``seat`` (``moves``, see :func:`polytable.match.suggestion`;
    empty when it is not that seat's turn) and the ``version`` they were found on; refused unless ``held``
    covers every person's seat."""
    if seat not in held:
        raise RoomError("a hint is asked for a seat you hold", "forbidden", "hint_seat")
    if any(s.kind != "ai" and p not in held for p, s in enumerate(room.seats)):
        raise RoomError("hints are offered only when no other person plays at this table", "forbidden", "hint_shared")
    version, state = room.version, room.match.state
    if room.is_over() or seat not in room.match.acting_players():
        return {"moves": [], "version": version}
    loop = asyncio.get_running_loop()
    game, seed = room.game, room.match.seed
    moves = await loop.run_in_executor(room.ai_pool, suggestion, game, state, seat, seed, version, make_bot)
    return {"moves": moves, "version": version}
