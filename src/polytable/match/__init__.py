"""Matches: applying actions with versions and undo, game records, replay, simulation, companion dealing
and the offline table."""

from ._companion import GIVEN, Dealer, catalogue_facts, player_counts, supports
from ._match import MAX_STEPS, LogEntry, Match, Seat
from ._simulate import Player, PlayerMaker, default_workers, parallel_map, play_game, simulate
from ._table import Table, engine_reason, game_catalogue, random_record, suggestion, undo_part

__all__ = [
    "GIVEN",
    "MAX_STEPS",
    "Dealer",
    "LogEntry",
    "Match",
    "Player",
    "PlayerMaker",
    "Seat",
    "Table",
    "catalogue_facts",
    "default_workers",
    "engine_reason",
    "game_catalogue",
    "parallel_map",
    "play_game",
    "player_counts",
    "random_record",
    "simulate",
    "suggestion",
    "supports",
    "undo_part",
]
