"""The pipelines' Avro tables as pandas DataFrames: :func:`read_table`.

``read_table(output_dir, name)`` is the public way to analyse a run from Python::

    from wordle_core.tables.frames import read_table
    games = read_table("outputs/default", "opener_summaries")
    games[games.unsolved == 0].sort_values("mean_guesses").head()

One row per Avro record, one column per schema field (``pipelines/schemas.py``
documents each), plus flat columns for what the Avro nests:

* ``opener_summaries``: ``solved_in_1`` ... ``solved_in_<limit>`` (games solved in
  exactly that many guesses; ``limit`` is the game's guess limit, 6) and ``unsolved``
  (games needing more than the limit); together they sum to ``games``. The nested
  ``histogram`` and ``worst_games`` columns stay as they are.
* ``hard_verdicts``: ``worst_answer`` and ``worst_path`` (``guess:feedback`` pairs of
  the longest game, space-separated).
* ``games``: ``path`` (same form).

Rows come in the table's sort order (``pipelines.schemas.SORT_KEYS``), so frames
are deterministic. No Beam import; the files are read with fastavro.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from wordle_core.files import AnyPath
from wordle_core.tables.load import TableError, read_avro_records, table_files

if TYPE_CHECKING:
    import pandas as pd

#: The tables a run can write, with the fields its rows are ordered by.
TABLES: dict[str, tuple[str, ...]] = {
    "opener_scores": ("lexicon", "mode", "strategy", "opener"),
    "opener_summaries": ("lexicon", "strategy", "mode", "opener"),
    "games": ("lexicon", "strategy", "mode", "opener", "answer"),
    "hard_verdicts": ("lexicon", "strategy", "mode", "opener"),
    "hard_exact": ("lexicon", "strategy", "mode", "opener"),
    "trees": ("lexicon", "strategy", "mode", "opener"),
    "optimal": ("lexicon", "strategy", "mode", "guess_pool", "opener"),
}

#: Every built-in game allows six guesses (``Lexicon.max_guesses``).
GUESS_LIMIT = 6


def game_path(game: dict[str, Any]) -> str:
    """A game's guesses with their feedback: ``'salet:bybgb crony:ggggg'``."""
    return " ".join(f"{g}:{f}" for g, f in zip(game["guesses"], game["feedback"], strict=True))


def histogram_columns(limit: int = GUESS_LIMIT) -> list[str]:
    """``['solved_in_1', ..., f'solved_in_{limit}', 'unsolved']``."""
    return [f"solved_in_{i}" for i in range(1, limit + 1)] + ["unsolved"]


def tables_in(output_dir: AnyPath) -> list[str]:
    """The names of the tables present under ``output_dir`` (in :data:`TABLES` order)."""
    return [name for name in TABLES if table_files(output_dir, name)]


def read_table(output_dir: AnyPath, name: str, *, guess_limit: int = GUESS_LIMIT) -> pd.DataFrame:
    """Table ``name`` of the run in ``output_dir`` as a DataFrame (see the module doc).

    ``output_dir`` is a run's output directory (holding ``<name>/``), a table
    directory or one ``.avro`` file. Raises :class:`~wordle_core.tables.load.TableError`
    for an unknown name, a missing or unreadable table, or an ``opener_summaries``
    histogram that disagrees with its ``games`` or ``failures`` count.
    """
    import pandas as pd

    if name not in TABLES:
        raise TableError(f"unknown table {name!r}; tables are {', '.join(TABLES)}")
    files = table_files(output_dir, name)
    if not files:
        raise TableError(f"no {name} Avro table under {str(output_dir)!r}")
    records = read_avro_records(files)
    if name == "opener_summaries":
        for rec in records:
            _add_histogram(rec, guess_limit)
    elif name == "hard_verdicts":
        for rec in records:
            rec["worst_answer"] = rec["worst_game"]["answer"]
            rec["worst_path"] = game_path(rec["worst_game"])
    elif name == "games":
        for rec in records:
            rec["path"] = game_path(rec)
    frame = pd.DataFrame(records)
    if len(frame):
        keys = list(TABLES[name])
        frame = frame.sort_values(keys, kind="stable").reset_index(drop=True)
    return frame


def _add_histogram(rec: dict[str, Any], limit: int) -> None:
    hist = list(rec["histogram"])
    solved = hist[:limit] + [0] * max(0, limit - len(hist))
    unsolved = sum(hist[limit:])
    where = f"{rec['lexicon']} {rec['strategy']} {rec['mode']} {rec['opener']}"
    if sum(solved) + unsolved != rec["games"]:
        raise TableError(f"opener_summaries row {where}: histogram sums to {sum(hist)}, "
                         f"not games={rec['games']}")
    if unsolved != rec["failures"]:
        raise TableError(f"opener_summaries row {where}: {unsolved} games over {limit} guesses, "
                         f"but failures={rec['failures']} (another guess limit?)")
    for i, n in enumerate(solved, 1):
        rec[f"solved_in_{i}"] = int(n)
    rec["unsolved"] = int(unsolved)
