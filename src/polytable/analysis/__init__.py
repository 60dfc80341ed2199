"""Balance reports for designers: many seeded AI games over N configurations, measures in each game's own
units, luck against skill, every figure with its interval, plots and tests between comparable quantities.

``analyse`` plays a :class:`Plan` (the grid of configurations and the skill ladder; ``read_plan`` reads it
from a command file); ``run_games`` plays one configuration (one process, local worker processes or a
Dask cluster, identical results for the same seed); ``summarise`` computes the metrics; ``write_report``
writes ``report.html``, ``report.json`` and the plots. docs/research.md has the formulas.
"""

from ._grid import Plan, analyse, grid_configs, read_plan
from ._play import GameRecord, Job, play_one, run_games, run_tasks
from ._report import write_report
from ._stats import bootstrap, drama, holm, hypotheses, ladder_summary, skill_gap, summarise, wilson

__all__ = [
    "GameRecord",
    "Job",
    "Plan",
    "analyse",
    "bootstrap",
    "drama",
    "grid_configs",
    "holm",
    "hypotheses",
    "ladder_summary",
    "play_one",
    "read_plan",
    "run_games",
    "run_tasks",
    "skill_gap",
    "summarise",
    "wilson",
    "write_report",
]
