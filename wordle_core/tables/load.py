"""Loading precomputed tables (pipeline outputs) for the solver.

* ``opener_scores`` Avro (``wordle-lab pipeline scores``): an
  :class:`~wordle_core.search.openers.OpenerScores` that callers pass to whatever
  ranks first guesses (top-N opener selection, the avg-eliminated strategies' option
  ``opener_scores``) instead of recomputing it.
* ``trees`` Avro (``wordle-lab pipeline trees``) or a JSON tree (``simulate
  --save-tree``): a decision tree the solver plays from without any search.

A table path may be an output directory (holding ``<table>/``), a table directory
or one ``.avro`` file. Every table is read through :mod:`wordle_core.tables.avro`
(the one reader: manifest-listed files only, sha256-verified, schema-checked). No
Beam import: plain fastavro, so the solver starts fast. Every function here reads
only the paths it is given: finding a default place (``./outputs``) is the CLI's business.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from wordle_core.errors import WordleError
from wordle_core.files import AnyPath, Location, location
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.tree import Tree
from wordle_core.search.openers import OpenerScores
from wordle_core.tables.avro import TableError, has_table, read_file_records, read_records, table_files

__all__ = ["TableError", "read_avro_records", "read_records", "table_files"]


def read_avro_records(files: list[Location]) -> list[dict[str, Any]]:
    """All records of some table files (each verified; see :func:`~wordle_core.tables.avro.read_records`).

    The table is the file name's prefix (``trees-00000-of-00001.avro`` -> ``trees``).
    """
    out: list[dict[str, Any]] = []
    for f in files:
        p = location(f)
        if not p.exists():
            raise TableError(f"table file {str(p)!r} does not exist")
        table = p.name.split("-", 1)[0] if "-of-" in p.name else p.stem
        out.extend(read_file_records(p, table))
    return out


def load_opener_scores(lexicon: Lexicon, path: AnyPath) -> OpenerScores:
    """An :class:`~wordle_core.search.openers.OpenerScores` aligned with ``lexicon.guesses``."""
    if not has_table(path, "opener_scores"):
        raise TableError(f"no opener_scores Avro table under {str(path)!r}")
    recs = [r for r in read_records(path, "opener_scores") if r["lexicon"] == lexicon.name]
    by_word = {r["opener"]: r for r in recs}
    missing = [w for w in lexicon.guesses if w not in by_word]
    if missing:
        raise TableError(f"opener_scores under {str(path)!r} lacks {len(missing)} of the "
                         f"{len(lexicon.guesses)} {lexicon.name} guesses (e.g. {missing[0]!r})")
    from wordle_core.tables.scores import scores_from_records

    return scores_from_records([by_word[w] for w in lexicon.guesses])


def load_tree_avro(
    lexicon: Lexicon, path: AnyPath, *, strategy: str | None = None, hard: bool = False,
    opener: str | None = None, matrix: np.ndarray | None = None,
) -> Tree:
    """The tree for (strategy, mode, opener) from a ``trees`` Avro table.

    ``strategy``/``opener`` may be None when the table holds only one choice; the
    tree is checked to cover every answer (see :meth:`Tree.from_rows`).
    """
    if not has_table(path, "trees"):
        raise TableError(f"no trees Avro table under {str(path)!r}")
    mode = "hard" if hard else "normal"
    recs = [r for r in read_records(path, "trees") if r["lexicon"] == lexicon.name and r["mode"] == mode]
    if strategy is not None:
        recs = [r for r in recs if r["strategy"] == strategy]
    if opener is not None:
        word = lexicon.normalise(opener)
        recs = [r for r in recs if r["opener"] == word]
    elif len({r["opener"] for r in recs}) > 1:
        from wordle_core.tables.exact import recommended_opener

        word = recommended_opener(lexicon, hard)
        recs = [r for r in recs if r["opener"] == word] or recs
    if len(recs) != 1:
        what = f"strategy {strategy or 'any'}, {mode} mode, opener {opener or 'any'}"
        raise TableError(f"{len(recs)} trees in {str(path)!r} match {lexicon.name}, {what}; "
                         "name --strategy and --opener to pick one")
    rec = recs[0]
    rows = [(n["path"], n["guess"]) for n in rec["nodes"]]
    return Tree.from_rows(lexicon, rows, rec["strategy"], hard, matrix)


def load_tree_file(
    lexicon: Lexicon, path: AnyPath, *, strategy: str | None = None, hard: bool = False,
    opener: str | None = None, matrix: np.ndarray | None = None,
) -> Tree:
    """A tree from a JSON file (``simulate --save-tree``) or a ``trees`` Avro table."""
    p = location(path)
    if not p.exists():
        raise WordleError(f"tree file {str(p)!r} does not exist")
    if p.is_dir() or p.suffix == ".avro":
        return load_tree_avro(lexicon, p, strategy=strategy, hard=hard, opener=opener, matrix=matrix)
    return Tree.load_json(lexicon, p, matrix)


def find_opener_scores(lexicon: Lexicon, root: AnyPath) -> OpenerScores | None:
    """The first complete ``opener_scores`` table for ``lexicon`` under ``root``, or None.

    Looks in ``root`` and its immediate subdirectories (``outputs/default``,
    ``outputs/full``, ...), in sorted order; incomplete tables (or ones for another
    lexicon) are skipped. Meant for the CLI and the pipeline entry points, which pass
    the table on to whatever ranks first guesses, so a finished ``run`` is reused.
    """
    base = location(root)
    if not base.is_dir():
        return None
    for d in [base, *sorted(p for p in base.iterdir() if p.is_dir())]:
        if has_table(d / "opener_scores", "opener_scores"):
            try:
                return load_opener_scores(lexicon, d)
            except TableError:
                continue
    return None
