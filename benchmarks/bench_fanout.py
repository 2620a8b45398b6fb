"""Fan-out throughput: whole greedy trees built by the compiled walk, games/s, old vs new.

The fan-out (every answer from every opener) spends its time choosing guesses: at each
position every allowed guess is scored over the candidates. This script builds whole
trees for an evenly spaced sample of openers (easy and hard ones) as the fan-out
pipeline does (:func:`wordle_core.kernels.greedy.greedy_tree`: the whole tree in one
compiled walk, no Python per position) and prints games/s per mode, the games/s with
``--workers`` trees built at once (threads: the compiled walk releases the GIL), the
bucket updates per CPU-second, this machine's streaming bound for the bytes they read
(a numpy sum over as many bytes of the transposed matrix) and how close the trees come
to it, the extrapolated time of all 12,972 x 2,315 = 30.0 M games per mode, and peak
memory.

*new* is this tree; *old* is a checkout given by ``--old`` (omit it to measure this tree
only). Each side builds the trees in its own worker process, the two taking turns opener
by opener (:func:`sides.run_interleaved`), so both meet the same load of the shared
machine; every tree must be the same on both sides (the script exits 1 if not), and the
ratio is printed as the ratio of the CPU totals.

Usage: python benchmarks/bench_fanout.py [--old DIR] [--openers 20] [--strategy S]
       [--modes normal,hard] [--workers 2]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
from sides import run_interleaved

ROOT = Path(__file__).resolve().parents[1]
STRATEGIES = ["entropy", "expected-size", "minimax", "partitions"]


def _tree(name: str, lex, mat, hard: bool, r: int):
    from wordle_core.game.state import GameState
    from wordle_core.game.tree import Tree
    from wordle_core.strategies import get_strategy

    return Tree.build(get_strategy(name), GameState.new(lex, hard, mat), r, timed=False)


def serve(strategy: str) -> None:
    """Child process of a side: ``MODE ROW`` per line on stdin, a JSON line each."""
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.game.matrix import pattern_matrix

    lex = load_lexicon("wordle")
    mat = pattern_matrix(lex)
    for hard in (False, True):  # compile every path before timing
        _tree(strategy, lex, mat, hard, lex.guess_id("qajaq"))
    for line in sys.stdin:
        if not line.strip():
            continue
        mode, row = line.split()
        c0, t0 = time.process_time(), time.perf_counter()
        tree = _tree(strategy, lex, mat, mode == "hard", int(row))
        cpu, wall = time.process_time() - c0, time.perf_counter() - t0
        shape = hashlib.sha256(repr((tree.guess, tree.parent, tree.pattern_in,
                                     tree.solved_at.tolist())).encode()).hexdigest()
        print(json.dumps({"cpu": cpu, "wall": wall, "shape": shape[:16]}), flush=True)


def streaming_seconds_per_byte(mt: np.ndarray, repeat: int = 7) -> float:
    """Best time per byte of a numpy sum over the transposed matrix's bytes (as uint64 words)."""
    words = mt.reshape(-1)[: mt.size - mt.size % 8].view(np.uint64)
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        words.sum()
        best = min(best, time.perf_counter() - t)
    return best / words.nbytes


def sample_rows(n_guesses: int, k: int) -> list[int]:
    step = n_guesses / k
    return [int(i * step + step / 2) for i in range(k)]


def this_tree_figures(strategy: str, mode: str, rows: list[int], workers: int, cpu: float) -> None:
    """The new side's figures measured in this process: trees at once, bucket updates, the
    streaming bound."""
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.kernels.buckets import transposed
    from wordle_core.strategies import greedy

    lex = load_lexicon("wordle")
    mat = pattern_matrix(lex)
    mt = transposed(mat)
    hard = mode == "hard"
    _tree(strategy, lex, mat, hard, lex.guess_id("qajaq"))
    cells0 = greedy.cells_read()
    t = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(lambda r: _tree(strategy, lex, mat, hard, r), rows))
    t_par = time.perf_counter() - t
    cells1 = greedy.cells_read()
    full, counted = cells1[0] - cells0[0], cells1[1] - cells0[1]
    games = len(rows) * len(lex.answers)
    target = 60_000 if hard else 40_000
    print(f"  new, {workers} trees at a time: {games / t_par:>9,.0f} games/s wall   "
          f"[target >= {target:,} games/s on 2 cores]")
    per_byte = streaming_seconds_per_byte(mt)
    bytes_read = (full + counted) * mt.itemsize  # one pattern read per bucket update
    bound = bytes_read * per_byte
    print(f"  bucket updates: {full:,} full statistics + {counted:,} counts = "
          f"{(full + counted) / cpu / 1e9:.2f} G updates per CPU-s of tree building")
    print(f"  streaming bound for those {bytes_read / 1e9:.2f} GB (numpy sum at "
          f"{1 / per_byte / 1e9:.1f} GB/s): {bound:.3f} s; the trees take {cpu / bound:.1f}x that in "
          "CPU time")
    all_games = len(lex.guesses) * len(lex.answers)
    print(f"  30.0 M games: {all_games / (games / cpu) / 60:.1f} CPU-min one tree at a time, "
          f"{all_games / (games / t_par) / 60:.1f} min with {workers} at a time")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--serve"]:
        serve(argv[1])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", help="root of an older checkout to compare against")
    ap.add_argument("--openers", type=int, default=20)
    ap.add_argument("--strategy", default="entropy", choices=STRATEGIES)
    ap.add_argument("--modes", default="normal,hard")
    ap.add_argument("--workers", type=int, default=2,
                    help="trees built at once in the parallel run of the new side (default 2: the cores)")
    args = ap.parse_args(argv)
    from wordle_core.game.lexicon import load_lexicon

    lex = load_lexicon("wordle")
    rows = sample_rows(len(lex.guesses), args.openers)
    sides = [("new", str(ROOT))] + ([("old", args.old)] if args.old else [])
    print(f"{args.openers} openers (every {len(lex.guesses) // args.openers}th guess), {args.strategy}; "
          "machine shared: CPU time, sides taking turns")
    ok = True
    for mode in args.modes.split(","):
        out = run_interleaved(sides, __file__, [args.strategy], [f"{mode} {r}" for r in rows])
        games = len(rows) * len(lex.answers)
        cpu = {name: sum(a["cpu"] for a in answers) for name, answers in out.items()}
        print(f"\n{mode} mode: {games:,} games")
        for name in out:
            print(f"  {name}: {games / cpu[name]:>9,.0f} games/CPU-s   "
                  f"({cpu[name] / len(rows) * 1000:6.1f} CPU-ms per tree)")
        if args.old:
            same = sum(a["shape"] == b["shape"] for a, b in zip(out["old"], out["new"], strict=True))
            ok = ok and same == len(rows)
            print(f"  identical trees {same}/{len(rows)}; new/old speed: {cpu['old'] / cpu['new']:.2f}x CPU")
        this_tree_figures(args.strategy, mode, rows, args.workers, cpu["new"])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of this process (matrix + transposed copy, {args.workers} trees): {peak:,.0f} MB "
          "[target <= 600 MB per worker]")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
