"""Companion rooms on the server: dealing committed to the database, the room's print-out, card photos.

The dealing itself (the cards, the dealer state, what every phone shows) is :class:`polytable.match.Dealer`,
shared with the offline table on a phone.
"""

from __future__ import annotations

import logging
from typing import Any

from ..core import CHANCE, PolytableError, all_games
from ..match import Dealer, player_counts, supports
from ..storage import StorageConflict, StorageError

__all__ = ["Dealer", "deal", "player_counts", "read_card_picture", "sheet_pdf", "supports"]

log = logging.getLogger("polytable.web")


async def deal(room: Any, version: int, undo: bool = False, card: str | None = None) -> None:
    """Deal the next card in a companion room (or take the last one back), committed before it shows.

    With ``card`` (a printed card's number, QR code or card URL) the card is given from a physical deck.
    The change is worked out first, written to the database, and only then made to the room and
    broadcast, so no connection (not even one arriving during the write) sees a card that is not on
    disk; a failed or lost write reloads the room from the database, the truth.
    """
    from ._base import RoomError

    room.refuse_if_paused()
    async with room.lock:
        await room.ensure_loaded()
        machine = room.machine
        text = machine.plan_deal(version, undo, card)
        n = len(machine.dealer.dealt)
        write: tuple[Any, ...] = (
            ("truncate_actions", room.code, n - 1, n)
            if text is None
            else ("append_actions", room.code, n, [(CHANCE, text)], False)
        )
        try:
            await room.store.write(*write)
        except StorageConflict:
            await room.reload()
            raise RoomError("someone dealt already; here is the current card", "stale", "stale_deal") from None
        except StorageError as exc:
            log.error("room %s: a deal could not be saved: %s", room.code, exc)
            await room.reload()
            if undo:
                raise RoomError(
                    "the card could not be taken back; nothing changed", "storage", "undeal_unsaved"
                ) from None
            raise RoomError("the card could not be saved; deal again", "storage", "deal_unsaved") from None
        machine.deal(undo, card)  # on disk: now the room changes, then everyone hears of it
        room.broadcast()


MAX_PICTURE = 6 * 1024 * 1024
"""Largest photo of a card the server reads (a phone photo as JPEG is 1-5 MB)."""


def read_card_picture(data: bytes) -> str:
    """The card code in a picture of a printed QR card (a photo or a camera frame); ValueError if none.

    Any game whose companion reads printed cards may claim the code (``Companion.scanned``). Read on the
    server with zxing-cpp (a QR reader that copes with photos at an angle), because most
    phone browsers offer no barcode detection of their own; a companion room is online anyway.
    """
    import io

    import zxingcpp
    from PIL import Image, UnidentifiedImageError

    if len(data) > MAX_PICTURE:
        mb = MAX_PICTURE // 1024 // 1024
        raise PolytableError(f"the picture is too large (at most {mb} MB)", "companion.picture_large", {"mb": mb})
    try:
        image = Image.open(io.BytesIO(data))
        image.load()
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError):
        raise PolytableError(
            "that is not a picture (send a photo of the card as JPEG or PNG)", "companion.not_picture"
        ) from None
    image.thumbnail((1600, 1600))
    readers = [g.companion for g in all_games() if g.companion is not None and g.companion.reads_cards]
    for found in zxingcpp.read_barcodes(image.convert("L")):
        for companion in readers:
            try:
                return companion.scanned(found.text)
            except ValueError:
                continue
    raise PolytableError(
        "no card's QR code was found in the picture; hold the card flat and close, or type its number",
        "companion.no_card_code",
    )


def sheet_pdf(room: Any, paper: str) -> bytes:
    """The sheet of a companion room's own game: its extras' room sheet (a template of the room's own
    variant), else the game's printable for the room's player count."""
    import tempfile
    from pathlib import Path

    from ..printables import printables
    from .extras import extras_for

    config = room.dealer.initial.config if room.dealer is not None else room.match.state.config
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(tmp) / "sheet.pdf")
        extras = extras_for(room.game.spec.id)
        if extras is not None and extras.room_sheet is not None:
            extras.room_sheet(path, paper, config)
        elif room.game.spec.id in printables():
            printables()[room.game.spec.id](path, paper, {"players": str(config.players)})
        else:
            name = room.game.spec.name
            raise PolytableError(f"{name} has no sheet to print", "companion.no_sheet", {"name": name})
        return Path(path).read_bytes()
