"""Loading precomputed tables (pipeline outputs) for the solver.

For now: decision trees saved as JSON by ``simulate --save-tree``. The pipeline
issue adds the Avro tables (``opener_scores``, ``trees``) here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .errors import WordleError
from .lexicon import Lexicon
from .tree import Tree


def load_tree_file(
    lexicon: Lexicon, path: str | Path, *, strategy: str | None = None, hard: bool = False,
    opener: str | None = None, matrix: np.ndarray | None = None,
) -> Tree:
    """A tree from a JSON file (``simulate --save-tree``)."""
    p = Path(path)
    if not p.exists():
        raise WordleError(f"tree file {str(p)!r} does not exist")
    return Tree.load_json(lexicon, p, matrix)
