"""The pub/sub sender groups the changes made close together into one message and skips its own messages."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace
from typing import Any

from polytable.web._pubsub import RedisBroadcaster


class _FakeRedis:
    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    async def publish(self, channel: str, text: str) -> None:
        self.sent.append(json.loads(text))


def test_changes_made_close_together_share_one_message_and_own_messages_are_skipped() -> None:
    async def scenario() -> tuple[list[dict[str, Any]], list[tuple[str, int]], list[tuple[str, int]]]:
        b = RedisBroadcaster("redis://127.0.0.1:1/0")
        fake = _FakeRedis()
        b.redis = fake
        rooms = [SimpleNamespace(code=code, version=v, clients=set()) for code, v in (("AAAAA", 1), ("BBBBB", 4))]
        b.changed(rooms[0])  # type: ignore[arg-type]  # after a quiet spell: sent on its own
        await asyncio.sleep(0)
        while b._sender is not None and not b._sender.done():
            await asyncio.sleep(0.001)
        for v in (2, 3):  # right after a message: these wait for the window and go out together
            rooms[0].version = v
            b.changed(rooms[0])  # type: ignore[arg-type]
            for _ in range(5):  # the sender runs meanwhile (without the window it would send each at once)
                await asyncio.sleep(0)
        b.changed(rooms[1])  # type: ignore[arg-type]
        assert b._sender is not None
        await b._sender
        heard: list[tuple[str, int]] = []
        other = RedisBroadcaster("redis://127.0.0.1:1/0")
        for message in fake.sent:
            data = json.dumps(message, separators=(",", ":")).encode()
            b._deliver({"type": "message", "data": data}, lambda c, v: heard.append((c, v)))
        mine: list[tuple[str, int]] = []
        for message in fake.sent:
            data = json.dumps(message, separators=(",", ":")).encode()
            other._deliver({"type": "message", "data": data}, lambda c, v: mine.append((c, v)))
        return fake.sent, heard, mine

    sent, heard, others = asyncio.run(scenario())
    assert [m["r"] for m in sent] == [[["AAAAA", 1]], [["AAAAA", 3], ["BBBBB", 4]]]  # the latest of each room
    assert heard == []  # a process does not act on its own messages
    assert others == [("AAAAA", 1), ("AAAAA", 3), ("BBBBB", 4)]
