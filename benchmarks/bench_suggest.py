"""Suggestion latency: covered by a tree table, uncovered with everything scored, CLI cold start.

Targets: p50 <= 1 ms for a covered position after start-up; <= 150 ms for an
uncovered position with all 2,315 candidates left and all 12,972 guesses scored.
Baseline in the same run: the numpy bincount kernel (``bucket_stats_numpy`` in
tests/reference_buckets.py) on the same uncovered position.

Run: PYTHONPATH=. .venv/bin/python benchmarks/bench_suggest.py [--tree FILE] [--strategy entropy]
(without --tree it builds the strategy's tree from SALET first and says how long that took).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time

import numpy as np
from sides import code_root

from tests.reference_buckets import bucket_stats_numpy
from wordle_core import load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.interactive.suggest import suggest
from wordle_core.strategies import get_strategy
from wordle_core.tables.load import load_tree_file

ROOT = code_root(__file__)  # the checkout measured (harness.py --compare: each side)


def pct(xs: list[float], q: float) -> float:
    return float(np.percentile(np.asarray(xs) * 1000.0, q))


def timed(fn, n: int) -> list[float]:
    out = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


def node_state(tree: Tree, node: int, root: GameState) -> GameState:
    hist = []
    while tree.parent[node] >= 0:
        hist.append((tree.guess[tree.parent[node]], tree.pattern_in[node]))
        node = tree.parent[node]
    st = root
    for g, p in reversed(hist):
        st = st.apply(g, p)
    return st


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", help="a saved tree (JSON or trees table) to answer from")
    ap.add_argument("--strategy", default="entropy")
    ap.add_argument("--positions", type=int, default=300, help="covered positions sampled")
    ap.add_argument("--repeat", type=int, default=15, help="runs of the uncovered case")
    args = ap.parse_args()
    lex = load_lexicon("wordle")
    mat = pattern_matrix(lex)
    strat = get_strategy(args.strategy)
    root = GameState.new(lex, False, mat)
    t = time.perf_counter()
    if args.tree:
        tree = load_tree_file(lex, args.tree, matrix=mat)
        how = f"loaded {args.tree}"
    else:
        tree = Tree.build(strat, root, "salet")
        how = f"built ({args.strategy} from SALET)"
    print(f"tree: {len(tree.guess):,} nodes, {how} in {time.perf_counter() - t:.1f} s")

    suggest(root, strat, top=5)  # warm-up: compile cache, page in the matrix
    rng = np.random.default_rng(0)
    inner = [n for n in range(1, len(tree.guess)) if tree.children[n]]  # 2+ candidates left
    picks = rng.choice(inner, min(args.positions, len(inner)), replace=False)
    states = [node_state(tree, int(n), root) for n in picks]
    sizes = [s.n_candidates for s in states]
    for top in (1, 5):
        lat = []
        for st in states:
            t = time.perf_counter()
            res = suggest(st, strat, top=top, tree=tree)
            lat.append(time.perf_counter() - t)
            assert res.source == "table"
        print(f"covered (table), top {top}: p50 {pct(lat, 50):.3f} ms  p95 {pct(lat, 95):.3f} ms  "
              f"over {len(lat)} positions (candidates: median {int(np.median(sizes))}, max {max(sizes)})"
              + ("  [target p50 <= 1 ms]" if top == 1 else ""))
    lat = timed(lambda: suggest(root, strat, top=5), args.repeat)
    print(f"uncovered, 2,315 candidates x 12,972 guesses scored (compiled kernel): "
          f"p50 {pct(lat, 50):.1f} ms  p95 {pct(lat, 95):.1f} ms  [target <= 150 ms]")
    cands = root.candidates
    base = timed(lambda: bucket_stats_numpy(mat, None, cands, lex.n_patterns), max(3, args.repeat // 3))
    print(f"  baseline numpy bincount kernel, same position: p50 {pct(base, 50):.1f} ms")

    env = dict(os.environ, PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-c", "from wordle_core.cli import entry; entry()",
           "suggest", "--strategy", args.strategy, "--history", "salet:bybgb", "--top", "3"]
    subprocess.run(cmd, env=env, capture_output=True, check=True)  # first run fills caches
    cold = []
    for _ in range(5):
        t = time.perf_counter()
        subprocess.run(cmd, env=env, capture_output=True, check=True)
        cold.append(time.perf_counter() - t)
    print(f"CLI cold start (new process, `suggest --history salet:bybgb`): "
          f"median {statistics.median(cold):.2f} s, best {min(cold):.2f} s of 5")
    print(f"load average during the run: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
