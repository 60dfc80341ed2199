"""Balance reports for designers: many seeded AI games, Ludii-style metrics, plots and comparisons.

``run_games`` plays the games (one process, local worker processes or a Dask cluster, identical results
for the same seed); ``summarise`` computes the metrics; ``compare`` tests two summaries against each other;
``write_report`` writes ``report.html``, ``report.json`` and the plots. docs/research.md has the formulas.
"""

from ._play import GameRecord, Job, play_one, run_games
from ._report import write_report
from ._stats import compare, summarise, wilson

__all__ = ["GameRecord", "Job", "compare", "play_one", "run_games", "summarise", "wilson", "write_report"]
