"""`default` strategy: milliseconds per whole tree, normal and hard mode, on a seeded sample.

The targets: <= 60 ms per tree in normal mode, <= 100 ms in hard mode (2-core
machine). Each opener's tree is built with a fresh strategy (empty memo), as a pipeline
worker meets a new opener only after many others, so this is the pessimistic figure;
``--shared`` keeps one strategy for the whole sample, as a worker does. CPU time
(process) is printed next to wall time because the machines are shared.

Run::

    python benchmarks/bench_default_tree.py                    # 20 openers of wordle
    python benchmarks/bench_default_tree.py --openers 40 --shared --modes hard
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from wordle_core.game.lexicon import load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.strategies import get_strategy

TARGET_MS = {"normal": 60, "hard": 100}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--openers", type=int, default=20, help="sample size (seeded)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--modes", default="normal,hard")
    ap.add_argument("--shared", action="store_true", help="one strategy (and memo) for the sample")
    args = ap.parse_args()
    lex = load_lexicon(args.lexicon)
    mat = pattern_matrix(lex)
    rows = np.random.default_rng(args.seed).permutation(len(lex.guesses))[:args.openers]
    warm = get_strategy("default")
    for hard in (False, True):  # compile every kernel before timing
        Tree.build(warm, GameState.new(lex, hard, mat), lex.guess_id("salet"))
    print(f"{lex.name}: `default` trees from {len(rows)} seeded openers "
          f"({'one shared strategy' if args.shared else 'a fresh strategy per opener'})")
    for mode in args.modes.split(","):
        hard = mode == "hard"
        strat = get_strategy("default")
        cpu, wall, lost = [], [], 0
        for r in rows:
            if not args.shared:
                strat = get_strategy("default")
            c0, t0 = time.process_time(), time.perf_counter()
            tree = Tree.build(strat, GameState.new(lex, hard, mat), int(r))
            cpu.append((time.process_time() - c0) * 1000)
            wall.append((time.perf_counter() - t0) * 1000)
            lost += int((tree.lengths() > lex.max_guesses).sum())
        print(f"  {mode:<6} CPU ms/tree mean {statistics.mean(cpu):8.1f}  median "
              f"{statistics.median(cpu):8.1f}  max {max(cpu):8.1f}   wall mean "
              f"{statistics.mean(wall):8.1f}   target <= {TARGET_MS[mode]} ms   "
              f"games over the limit {lost}")


if __name__ == "__main__":
    main()
