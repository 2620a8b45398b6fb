"""Decision trees, in words: build one (:func:`decision_tree`), read one saved by a pipeline
or ``simulate --save-tree`` (:func:`load_tree`, :func:`tree_from_table`), and export one as
Graphviz dot, a self-contained HTML page or CSV (:func:`export_tree`).

A deterministic strategy from an opener is a decision tree: every game against every
answer, built once. The tree is the engine's :class:`~wordle_core.game.tree.Tree`
(also in :mod:`wordle_core.engine`).

    >>> from wordle_core import Lexicon
    >>> ight = ["fight", "light", "might", "night", "right", "sight", "tight"]
    >>> tree = decision_tree("entropy", "morts", Lexicon.build("ight", ight, [*ight, "morts", "flint"]))
    >>> export_tree(tree, "csv").splitlines()[:2]  # doctest: +ELLIPSIS
    ['...', '...morts...']
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from wordle_core.api.feedback import LexiconLike, as_lexicon
from wordle_core.game.lexicon import DEFAULT_LEXICON
from wordle_core.game.matrix import pattern_matrix

if TYPE_CHECKING:
    from wordle_core.files import AnyPath
    from wordle_core.game.tree import Tree
    from wordle_core.search.openers import OpenerScores

FORMATS = ("dot", "html", "csv")


def decision_tree(strategy: str = "entropy", opener: str | None = None,
                  lexicon: LexiconLike = DEFAULT_LEXICON, hard: bool = False, *, prior: str | None = None,
                  opener_scores: OpenerScores | None = None) -> Tree:
    """Build ``strategy``'s decision tree from ``opener`` (default: SALET where the game has
    it, else the best by entropy). ``prior`` as in :func:`wordle_core.api.review`.

    >>> from wordle_core import Lexicon
    >>> ight = ["fight", "light", "might", "night", "right", "sight", "tight"]
    >>> tree = decision_tree("entropy", "morts", Lexicon.build("ight", ight, [*ight, "morts", "flint"]))
    >>> sorted(int(n) for n in tree.lengths())
    [2, 2, 2, 3, 3, 3, 3]
    """
    from wordle_core.api.games import default_opener
    from wordle_core.api.position import strategy_named
    from wordle_core.game.state import GameState
    from wordle_core.game.tree import Tree

    lex = as_lexicon(lexicon)
    strat = strategy_named(strategy, opener_scores, prior=prior)
    first = lex.normalise(opener) if opener else default_opener(lex, hard)
    return Tree.build(strat, GameState.new(lex, hard, pattern_matrix(lex)), first)


def load_tree(path: AnyPath, lexicon: LexiconLike = DEFAULT_LEXICON, *, strategy: str | None = None,
              hard: bool = False, opener: str | None = None) -> Tree:
    """A tree from a JSON file (``simulate --save-tree``, ``optimal --save-tree``) or from a
    pipeline's ``trees`` Avro table (a file or a directory: the tree of ``strategy``, mode
    and ``opener``). A missing or unreadable source raises one clear line.

    >>> import tempfile, pathlib
    >>> from wordle_core import Lexicon
    >>> ight = ["fight", "light", "might", "night", "right", "sight", "tight"]
    >>> game = Lexicon.build("ight", ight, [*ight, "morts", "flint"])
    >>> path = pathlib.Path(tempfile.mkdtemp()) / "tree.json"
    >>> decision_tree("entropy", "morts", game).save_json(path)
    >>> int(load_tree(path, game).lengths().sum())
    18
    >>> load_tree(path.with_name("none.json"), game)
    Traceback (most recent call last):
    ...
    wordle_core.errors.WordleError: tree file '...none.json' does not exist
    """
    from wordle_core.tables.load import load_tree_file

    lex = as_lexicon(lexicon)
    return load_tree_file(lex, path, strategy=strategy, hard=hard, opener=opener, matrix=pattern_matrix(lex))


class TableTree(NamedTuple):
    """What :func:`tree_from_table` found: the tree (None when no table has it) and the
    ``trees`` table files it looked in."""

    tree: Tree | None
    files: tuple[Path, ...]


def tree_from_table(where: str | Path | None, strategy: str, opener: str,
                    lexicon: LexiconLike = DEFAULT_LEXICON, hard: bool = False) -> TableTree:
    """The tree of (``strategy``, ``opener``, mode) from the ``trees`` Avro tables under
    ``where`` (a file, a directory or a glob; None: none), if one holds it.

    >>> tree_from_table(None, "entropy", "salet", "wordle")
    TableTree(tree=None, files=())
    """
    from wordle_core.tables.export import find_tree_tables, tree_from_tables

    lex = as_lexicon(lexicon)
    files = find_tree_tables(where)
    tree = tree_from_tables(lex, files, strategy, hard, lex.normalise(opener), pattern_matrix(lex)) \
        if files else None
    return TableTree(tree, tuple(files))


def export_tree(tree: Tree, fmt: str = "html") -> str:
    """The tree as text: ``dot`` (Graphviz), ``html`` (a self-contained page with every
    game) or ``csv`` (one row per node: its path of feedback and the guess there).

    >>> from wordle_core import Lexicon
    >>> ight = ["fight", "light", "might", "night", "right", "sight", "tight"]
    >>> tree = decision_tree("entropy", "morts", Lexicon.build("ight", ight, [*ight, "morts", "flint"]))
    >>> export_tree(tree, "dot").startswith("digraph")
    True
    """
    from wordle_core.tables.export import render

    return render(tree, fmt)
