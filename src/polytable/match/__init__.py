"""Matches: applying actions with versions and undo, game records, replay and simulation."""

from ._match import MAX_STEPS, LogEntry, Match, Seat
from ._simulate import play_game, simulate
from ._table import Table, game_catalogue, random_record

__all__ = [
    "MAX_STEPS",
    "LogEntry",
    "Match",
    "Seat",
    "Table",
    "game_catalogue",
    "play_game",
    "random_record",
    "simulate",
]
