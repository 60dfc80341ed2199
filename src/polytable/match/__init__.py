"""Matches: applying actions with versions and undo, game records, replay and simulation."""

from ._match import MAX_STEPS, LogEntry, Match, Seat
from ._simulate import Player, PlayerMaker, default_workers, parallel_map, play_game, simulate
from ._table import Table, game_catalogue, random_record

__all__ = [
    "MAX_STEPS",
    "LogEntry",
    "Match",
    "Player",
    "PlayerMaker",
    "Seat",
    "Table",
    "default_workers",
    "game_catalogue",
    "parallel_map",
    "play_game",
    "random_record",
    "simulate",
]
