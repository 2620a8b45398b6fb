"""`default` strategy: milliseconds per whole tree, old vs new, normal and hard mode, one run.

The targets: <= 60 ms per tree in normal mode, <= 100 ms in hard mode (2-core
machine). Each opener's tree is built with a fresh strategy (empty memo), as a pipeline
worker meets a new opener only after many others, so this is the pessimistic figure;
``--shared`` keeps one strategy for the whole sample, as a worker does; ``--verdicts``
computes each opener's exact hard-mode verdict first (untimed), as a worker of
``configs/full.yaml`` does before it builds the opener's trees, so the feasibility memo
that the verdicts fill is there for the strategy to use (hard mode only). Trees are
built as the pipelines build them (``Tree.build(..., timed=False)``: the strategy's
compiled walk where it has one); ``--timed`` times every decision instead, as the
CLI's ``tree`` command does (a Python call per position). CPU time (process) is
printed next to wall time because the machines are shared.

*new* is this tree; *old* is a checkout given by ``--old`` (omit it to measure this tree
only). Each side runs in its own subprocess with ``PYTHONPATH`` set to its root, the JIT
warmed up before timing; the two sides take turns tree by tree (the first side
alternating), so both meet the same load of the shared machine. Every tree must be the
same on both sides (total and a hash of its shape): the script exits 1 if not.

Run::

    python benchmarks/bench_default_tree.py                    # 20 openers of wordle
    python benchmarks/bench_default_tree.py --old ../ref --openers 6 --modes normal
    python benchmarks/bench_default_tree.py --openers 40 --shared --modes hard
    python benchmarks/bench_default_tree.py --old ../ref --openers 150 --shared --verdicts --modes hard
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from pathlib import Path

from sides import run_interleaved

ROOT = Path(__file__).resolve().parents[1]
TARGET_MS = {"normal": 60, "hard": 100}


def serve(lexicon: str, mode: str, shared: bool, verdicts: bool = False, timed: bool = False) -> None:
    """Child process: an opener per line on stdin, one JSON line per tree (opener, CPU and
    wall ms, total, shape hash); with ``shared`` one strategy serves every opener."""
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.game.state import GameState
    from wordle_core.game.tree import Tree
    from wordle_core.search.hard import hard_verdict
    from wordle_core.strategies import get_strategy

    lex = load_lexicon(lexicon)
    mat = pattern_matrix(lex)
    hard = mode == "hard"
    Tree.build(get_strategy("default"), GameState.new(lex, hard, mat), lex.guess_id(lex.answers[0]),
               timed=timed)
    strat = get_strategy("default")
    for line in sys.stdin:
        if not line.strip():
            continue
        r = lex.guess_id(line.strip())
        if not shared:
            strat = get_strategy("default")
        if verdicts and hard:
            hard_verdict(lex, r, mat)
        c0, t0 = time.process_time(), time.perf_counter()
        tree = Tree.build(strat, GameState.new(lex, hard, mat), r, timed=timed)
        cpu = (time.process_time() - c0) * 1000
        wall = (time.perf_counter() - t0) * 1000
        lengths = tree.lengths()
        shape = hashlib.sha256(repr((tree.guess, tree.parent, tree.pattern_in)).encode()).hexdigest()
        print(json.dumps({"opener": lex.guesses[r], "cpu_ms": round(cpu, 2),
                          "wall_ms": round(wall, 2), "total": int(lengths.sum()),
                          "lost": int((lengths > lex.max_guesses).sum()), "shape": shape[:16]}),
              flush=True)


def sample_openers(lexicon: str, n: int, seed: int) -> list[str]:
    """The first ``n`` openers of a seeded permutation of the lexicon's allowed guesses."""
    import numpy as np

    from wordle_core.game.lexicon import load_lexicon

    lex = load_lexicon(lexicon)
    return [lex.guesses[int(i)] for i in np.random.default_rng(seed).permutation(len(lex.guesses))[:n]]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--serve"]:
        serve(argv[1], argv[2], argv[3] == "1", argv[4:5] == ["1"], argv[5:6] == ["1"])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--openers", type=int, default=20, help="sample size (seeded)")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--modes", default="normal,hard")
    ap.add_argument("--shared", action="store_true", help="one strategy (and memo) for the sample")
    ap.add_argument("--verdicts", action="store_true",
                    help="compute each opener's hard-mode verdict first, untimed (as the pipeline does)")
    ap.add_argument("--timed", action="store_true",
                    help="time every decision (a Python call per position, as the CLI's tree)")
    ap.add_argument("--old", help="root of an older checkout to compare against")
    args = ap.parse_args(argv)
    if args.openers < 1:
        ap.error("--openers must be at least 1")
    sides = ([("old", args.old)] if args.old else []) + [("new", str(ROOT))]
    openers = sample_openers(args.lexicon, args.openers, args.seed)
    print(f"{args.lexicon}: `default` trees from {args.openers} seeded openers "
          f"({'one shared strategy' if args.shared else 'a fresh strategy per opener'}"
          f"{', hard verdicts first' if args.verdicts else ''}"
          f"{', every decision timed' if args.timed else ''}); "
          f"CPU ms per tree", flush=True)
    print(f"{'mode':<7}{'side':<5}{'mean':>9}{'median':>9}{'max':>10}{'wall mean':>11}"
          f"{'target':>8}{'lost':>6}", flush=True)
    ok = True
    for mode in [m for m in args.modes.split(",") if m]:
        res = run_interleaved(sides, __file__, [args.lexicon, mode, "1" if args.shared else "0",
                                                "1" if args.verdicts else "0",
                                                "1" if args.timed else "0"], openers)
        for name, rows in res.items():
            cpu = [r["cpu_ms"] for r in rows]
            print(f"{mode:<7}{name:<5}{statistics.fmean(cpu):>9.1f}{statistics.median(cpu):>9.1f}"
                  f"{max(cpu):>10.1f}{statistics.fmean(r['wall_ms'] for r in rows):>11.1f}"
                  f"{TARGET_MS[mode]:>8}{sum(r['lost'] for r in rows):>6}", flush=True)
        if "old" in res:
            old = statistics.fmean(r["cpu_ms"] for r in res["old"])
            new = statistics.fmean(r["cpu_ms"] for r in res["new"])
            med = statistics.median(a["cpu_ms"] / b["cpu_ms"]
                                    for a, b in zip(res["old"], res["new"], strict=True))
            print(f"{mode:<7}old/new: mean {old / new:.2f}x, median per tree {med:.2f}x", flush=True)
            bad = [a["opener"] for a, b in zip(res["new"], res["old"], strict=True)
                   if (a["total"], a["shape"]) != (b["total"], b["shape"])]
            if bad:
                ok = False
                print(f"{mode}: TREES DIFFER from the old side: {bad}", flush=True)
            else:
                print(f"{mode:<7}{len(res['new'])} trees identical on both sides", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
