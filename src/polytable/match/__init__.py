"""Matches: applying actions with versions and undo, game records, replay, simulation, companion dealing,
the rules of a room (the server's and the offline table's) and the offline table."""

from ._companion import GIVEN, Dealer, catalogue_facts, player_counts, supports
from ._match import MAX_STEPS, LogEntry, Match, Seat
from ._room import (
    HISTORY_LIMIT,
    LEGAL_LIMIT,
    RoomError,
    RoomMachine,
    action_text,
    ask_of,
    default_seat_name,
    engine_error,
    engine_reason,
    error_reply,
    seat_entry,
    seat_number,
    version_of,
)
from ._simulate import Player, PlayerMaker, default_workers, parallel_map, play_game, simulate
from ._table import Table, game_catalogue, random_record, suggestion

__all__ = [
    "GIVEN",
    "HISTORY_LIMIT",
    "LEGAL_LIMIT",
    "MAX_STEPS",
    "Dealer",
    "LogEntry",
    "Match",
    "Player",
    "PlayerMaker",
    "RoomError",
    "RoomMachine",
    "Seat",
    "Table",
    "action_text",
    "ask_of",
    "catalogue_facts",
    "default_seat_name",
    "default_workers",
    "engine_error",
    "engine_reason",
    "error_reply",
    "game_catalogue",
    "parallel_map",
    "play_game",
    "player_counts",
    "random_record",
    "seat_entry",
    "seat_number",
    "simulate",
    "suggestion",
    "supports",
    "version_of",
]
