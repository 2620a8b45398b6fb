"""Whole-tree totals (sum of guesses over all answers) for evenly spaced openers, as JSON lines.

The check that a kernel change changed no tree: run it on two checkouts and compare
the outputs, e.g.::

    PYTHONPATH=/path/to/old python benchmarks/tree_totals.py > old.jsonl
    PYTHONPATH=$PWD          python benchmarks/tree_totals.py > new.jsonl
    cmp old.jsonl new.jsonl

It also runs on checkouts from before the engine was split into packages (the flat
``wordle_core.tree`` layout), so that the oldest code can be the reference.

Usage: python benchmarks/tree_totals.py [--openers 20] [--strategies entropy,minimax,default]
       [--modes normal,hard]
"""

from __future__ import annotations

import argparse
import hashlib
import inspect
import json
import sys
from pathlib import Path

import wordle_core

if (Path(wordle_core.__file__).parent / "game").is_dir():  # the package layout
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.game.state import GameState
    from wordle_core.game.tree import Tree
else:  # pragma: no cover - the flat layout before the split
    from wordle_core.lexicon import load_lexicon  # type: ignore[no-redef]
    from wordle_core.matrix import pattern_matrix  # type: ignore[no-redef]
    from wordle_core.state import GameState  # type: ignore[no-redef]
    from wordle_core.tree import Tree  # type: ignore[no-redef]
from wordle_core.strategies import get_strategy


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openers", type=int, default=20)
    ap.add_argument("--strategies", default="entropy,minimax,default")
    ap.add_argument("--modes", default="normal")
    args = ap.parse_args()
    lex = load_lexicon("wordle")
    mat = pattern_matrix(lex)
    step = len(lex.guesses) / args.openers
    rows = [int(i * step + step / 2) for i in range(args.openers)]
    # the fan-out's way where the checkout has it (the compiled walk, untimed)
    untimed = {"timed": False} if "timed" in inspect.signature(Tree.build).parameters else {}
    for mode in args.modes.split(","):
        for name in args.strategies.split(","):
            strat = get_strategy(name)
            for r in rows:
                tree = Tree.build(strat, GameState.new(lex, mode == "hard", mat), r, **untimed)
                lengths = tree.lengths()
                shape = hashlib.sha256(repr((tree.guess, tree.parent, tree.pattern_in)).encode()).hexdigest()
                print(json.dumps({"mode": mode, "strategy": name, "opener": lex.guesses[r],
                                  "total": int(lengths.sum()), "max": int(lengths.max()),
                                  "nodes": len(tree.guess), "tree_sha256": shape[:16]}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
