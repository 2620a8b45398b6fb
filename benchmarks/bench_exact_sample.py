"""Exact search on a fixed random sample of openers: CPU-s per opener, old vs new, one run.

The target: normal <= 1.7 CPU-s, hard <= 3.4 CPU-s per opener. A seeded random sample
of allowed openers (default 40, on ``nyt``) is proven in normal and in hard mode, each
opener with a fresh solver (empty memo, as ``wordle-lab optimal --opener W`` does), so
every figure is a whole proof on its own.
Printed per mode and side: CPU-s per opener (mean, median, max) and the extrapolation to
every allowed opener (mean x number of openers, in CPU-hours). CPU time, not wall time:
the figures stay meaningful on a shared machine.

*old* is an older checkout given by ``--old`` (without it, this tree only) and *new* is
this tree; each side runs in its own subprocess with ``PYTHONPATH`` set to its root, and
the JIT is warmed up before timing: in hard mode the feasibility search's kernels too
(the first opener used to pay their compilation, 11 s in a fresh checkout), and the
threaded statistics of every guess, for 8- and 16-bit counts (the first infeasible opener
compiled them: NANUA took 1.3-2.4 CPU-s on a side with a cold cache, 0.03 warm). The two
sides take turns opener by opener (the first side alternating), so both meet the same
load of the shared machine; the ratio is printed as the ratio of the means and as the
geometric mean of the per-opener ratios (the paired figure, steadier against drifting
load).
The sample is a prefix of one seeded permutation, so ``--sample 8`` measures the first 8
openers of the 40. Every opener's total must agree between the sides (the script exits 1
if not).

Run::

    python benchmarks/bench_exact_sample.py --old OLD           # 40 openers, both modes
    python benchmarks/bench_exact_sample.py --old OLD --sample 6 --modes normal
    python benchmarks/bench_exact_sample.py --sample 40 --json new.json   # this tree only
    python benchmarks/bench_exact_sample.py --openers dimes,rohes --modes hard   # spot check
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

from sides import run_interleaved

ROOT = Path(__file__).resolve().parents[1]
SEED = 12


def sample_openers(lexicon: str, n: int, seed: int = SEED) -> list[str]:
    """The first ``n`` openers of a seeded permutation of the lexicon's allowed guesses."""
    import numpy as np

    from wordle_core.game.lexicon import load_lexicon

    lex = load_lexicon(lexicon)
    perm = np.random.default_rng(seed).permutation(len(lex.guesses))
    return [lex.guesses[int(i)] for i in perm[:n]]


def serve(lexicon: str, mode: str) -> None:
    """Child process of a side: an opener per line on stdin, a JSON line each."""
    prove = prover(lexicon, mode)
    for line in sys.stdin:
        if line.strip():
            print(json.dumps(prove(line.strip())), flush=True)


def prover(lexicon: str, mode: str):
    """A function proving one opener with a fresh solver (the JIT warmed up first)."""
    import numpy as np

    try:
        from wordle_core.search.exact import ExactSolver
    except ImportError:  # the pre-refactor layout
        from wordle_core.exact import ExactSolver  # type: ignore[no-redef]
    try:
        from wordle_core.game.lexicon import load_lexicon
    except ImportError:
        from wordle_core.lexicon import load_lexicon  # type: ignore[no-redef]

    lex = load_lexicon(lexicon)
    hard = mode == "hard"
    warm = ExactSolver(lex, hard=hard)
    warm.value(np.arange(8, dtype=np.int32), warm.pool_rows(), 4)
    warm.opener_value(lex.guess_id(lex.answers[0]), beta=2 * len(lex.answers))
    if hard and hasattr(warm, "opener_wins"):  # (the feasibility search's kernels too)
        warm.opener_wins(lex.guess_id(lex.answers[0]))
    try:  # (and the threaded statistics of every guess, which an infeasible opener meets)
        from wordle_core.game.matrix import pattern_matrix
        from wordle_core.kernels.buckets import bucket_stats

        mat = np.ascontiguousarray(pattern_matrix(lex))
        for n in (len(lex.answers), 200):  # (16-bit counts, and 8-bit below 256 answers)
            bucket_stats(mat, None, np.arange(n), lex.n_patterns)
    except ImportError:  # (an older layout: its first such opener pays the compilation)
        pass

    def prove(w: str) -> dict:
        s = ExactSolver(lex, hard=hard)
        c0 = time.process_time()
        v = s.opener_value(lex.guess_id(w))
        cpu = time.process_time() - c0
        return {"opener": w, "total": int(v), "cpu": round(cpu, 4)}

    return prove


def summary(rows: list[dict], n_all: int) -> dict[str, float]:
    cpu = [r["cpu"] for r in rows]
    mean = statistics.fmean(cpu)
    return {"mean": mean, "median": statistics.median(cpu), "max": max(cpu),
            "all_cpu_h": mean * n_all / 3600}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--serve"]:
        serve(argv[1], argv[2])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lexicon", default="nyt")
    ap.add_argument("--sample", type=int, default=40, help="openers per mode (default 40)")
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--modes", default="normal,hard")
    ap.add_argument("--old", help="root of an older checkout to compare against")
    ap.add_argument("--openers", help="spot check: these openers instead of the sample")
    ap.add_argument("--json", help="write every per-opener row here")
    args = ap.parse_args(argv)
    if args.sample < 1:
        ap.error("--sample must be at least 1")
    from wordle_core.game.lexicon import load_lexicon

    n_all = len(load_lexicon(args.lexicon).guesses)
    openers = (args.openers.split(",") if args.openers
               else sample_openers(args.lexicon, args.sample, args.seed))
    sides = [("new", str(ROOT))] + ([("old", args.old)] if args.old else [])
    what = "given openers" if args.openers else f"openers (seed {args.seed})"
    print(f"{args.lexicon}: {len(openers)} {what}, fresh solver each; "
          f"CPU-s per opener; extrapolation = mean x {n_all:,} openers", flush=True)
    print(f"{'mode':<7}{'side':<5}{'mean':>8}{'median':>8}{'max':>9}{'all (CPU-h)':>13}", flush=True)
    out: dict[str, dict] = {}
    ok = True
    for mode in [m for m in args.modes.split(",") if m]:
        res = run_interleaved(sides, __file__, [args.lexicon, mode], openers)
        for name, rows in res.items():
            s = summary(rows, n_all)
            print(f"{mode:<7}{name:<5}{s['mean']:>8.2f}{s['median']:>8.2f}{s['max']:>9.2f}"
                  f"{s['all_cpu_h']:>13.1f}", flush=True)
        if "old" in res:
            new_mean = summary(res["new"], n_all)["mean"]
            old_mean = summary(res["old"], n_all)["mean"]
            paired = statistics.geometric_mean(
                [b["cpu"] / a["cpu"] for a, b in zip(res["new"], res["old"], strict=True)])
            print(f"{mode:<7}old/new mean ratio: {old_mean / new_mean:.2f}x; per opener "
                  f"(geometric mean of the paired ratios): {paired:.2f}x", flush=True)
            bad = [(a["opener"], a["total"], b["total"]) for a, b in zip(res["new"], res["old"], strict=True)
                   if a["total"] != b["total"]]
            if bad:
                ok = False
                print(f"{mode}: TOTALS DIFFER (opener, new, old): {bad}", flush=True)
            else:
                print(f"{mode:<7}totals identical on both sides ({len(openers)} openers)", flush=True)
        out[mode] = res
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
