"""Exact hard-mode verdicts: CPU seconds per opener, old vs new, one run.

The target: every verdict of all 12,972 openers in <= 20 min on 2 cores (about 40
CPU-minutes). Two samples of ``wordle`` openers, each side proving them in one process
with one solver (its memo shared by the openers, as a pipeline worker's is):

* ``random``: a seeded random sample (``--openers``): its mean extrapolates to all
  openers;
* ``heavy``: the openers the shipped table (``wordle_core/data/hard/``) records as the
  slowest (``--heavy``; at most ``--heavy-cap`` seconds each, so that a run takes
  minutes), where most of the time goes (a heavy tail: the 200 slowest of 12,972 took
  62 % of the time when the table was made).

*new* is this tree; *old* is a checkout given by ``--old`` (omit it to measure this tree
only). Each side runs in its own subprocess with ``PYTHONPATH`` set to its root, the JIT
warmed up before timing, old then new per sample. Every verdict must be the same on both
sides (the script exits 1 if not); the node counts (OR nodes plus the kernels' work, the
budget's unit) are printed per side, since work saved by a cache changes them, with each
side's peak resident memory (``ru_maxrss``, Linux's VmHWM) and the largest memo it held: a pipeline worker
handles about 6,500 openers, so ``--openers 6500 --heavy 0`` shows its memo's bound.
``--parallel`` runs the two sides at the same time, one process (one core) each, so both
see the same machine load and a large sample takes half the wall time.

Run::

    python benchmarks/bench_hard_verdicts.py --old ../ref          # 200 random + 8 heavy (<= 30 s)
    python benchmarks/bench_hard_verdicts.py --openers 400 --heavy 0
    python benchmarks/bench_hard_verdicts.py --old ../ref --openers 1500 --heavy 0 --parallel
    python benchmarks/bench_hard_verdicts.py --old ../ref --lexicon nyt2023 --openers 0 \
        --heavy 0 --named needs,laser,anted,snare --parallel      # today's slow, infeasible ones
    python benchmarks/bench_hard_verdicts.py --lexicon nyt2023 --openers 12 --heavy 0 \
        --per-opener                                               # each opener's verdict and time
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sides import run_side

ROOT = Path(__file__).resolve().parents[1]
TARGET_CPU_MIN = {"wordle": 40, "nyt2023": 120}  # 20 and 60 min on 2 cores (the 2021 game; today's, #53)


def worker(lexicon: str, openers: list[str]) -> None:
    """Child process: one JSON line per opener (verdict, nodes, CPU seconds)."""
    import numpy as np

    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.game.matrix import pattern_matrix
    from wordle_core.game.rules import HardConstraints
    from wordle_core.search.hard import HardSolver

    lex = load_lexicon(lexicon)
    mat = pattern_matrix(lex)
    cands = np.arange(len(lex.answers), dtype=np.int32)
    rows = np.arange(len(lex.guesses), dtype=np.int32)

    def verdict(solver: HardSolver, w: str):
        return solver.guess_wins(cands, HardConstraints(), lex.max_guesses, lex.guess_id(w), rows, None)

    verdict(HardSolver(lex, mat), "aahed")  # compile; then a cold memo
    solver = HardSolver(lex, mat)
    for w in openers:
        c0 = time.process_time()
        res = verdict(solver, w)
        print(json.dumps({"opener": w, "verdict": res.verdict, "nodes": int(res.nodes),
                          "cpu_s": round(time.process_time() - c0, 4), "memo": len(solver.memo),
                          "hwm_mib": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)}),
              flush=True)


def samples(lexicon: str, n_random: int, n_heavy: int, heavy_cap: float, seed: int,
            named: list[str] | None = None) -> dict[str, list[str]]:
    """The samples (opener words), chosen in this process so both sides get the same:
    ``random`` and ``heavy`` as above (either may be empty), ``named`` as given."""
    import numpy as np

    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.tables.avro import read_with_metadata, shipped_bytes

    lex = load_lexicon(lexicon)
    rows = np.random.default_rng(seed).permutation(len(lex.guesses))[:n_random]
    out = {"random": [lex.guesses[int(r)] for r in rows]} if n_random else {}
    if n_heavy:
        data = shipped_bytes(f"hard/{lexicon}.avro")
        if data is None:
            raise SystemExit(f"bench_hard_verdicts: no shipped verdict table for {lexicon}")
        records, _ = read_with_metadata(data)
        records = [r for r in records if r["seconds"] <= heavy_cap]
        slow = sorted(records, key=lambda r: (-r["seconds"], r["opener"]))[:n_heavy]
        out["heavy"] = [r["opener"] for r in slow]
    if named:
        unknown = [w for w in named if w not in lex.guess_index]
        if unknown:
            raise SystemExit(f"bench_hard_verdicts: not a guess of {lexicon}: {', '.join(unknown)}")
        out["named"] = named
    return out


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        worker(argv[1], argv[2].split(","))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--openers", type=int, default=200, help="random sample size (seeded)")
    ap.add_argument("--heavy", type=int, default=8, help="the slowest openers of the shipped table")
    ap.add_argument("--heavy-cap", type=float, default=30.0,
                    help="... among those it records at most this many seconds for")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--named", default="", help="comma-separated openers: a third sample, as given")
    ap.add_argument("--old", help="root of an older checkout to compare against")
    ap.add_argument("--per-opener", action="store_true",
                    help="also print each opener's verdict and CPU-s per side")
    ap.add_argument("--parallel", action="store_true",
                    help="run the old and the new side at the same time (one core each)")
    args = ap.parse_args(argv)
    named = [w.strip().lower() for w in args.named.split(",") if w.strip()]
    if args.openers < 0 or args.heavy < 0 or not (args.openers or args.heavy or named):
        ap.error("--openers and --heavy must be at least 0, and some sample not empty")
    sides = ([("old", args.old)] if args.old else []) + [("new", str(ROOT))]
    from wordle_core.game.lexicon import load_lexicon

    n_all = len(load_lexicon(args.lexicon).guesses)  # the extrapolation to every opener
    print(f"{args.lexicon}: exact hard-mode verdicts, one solver per side and sample; CPU-s per opener",
          flush=True)
    print(f"{'sample':<8}{'side':<5}{'openers':>8}{'mean':>9}{'median':>9}{'max':>9}{'sum':>9}"
          f"{'all (CPU-min)':>15}{'peak MiB':>10}{'memo max':>10}", flush=True)
    ok = True
    for sample, words in samples(args.lexicon, args.openers, args.heavy, args.heavy_cap, args.seed,
                                   named).items():
        with ThreadPoolExecutor(max_workers=len(sides) if args.parallel else 1) as pool:
            futures = {name: pool.submit(run_side, root, __file__, [args.lexicon, ",".join(words)])
                       for name, root in sides}
            res = {name: f.result() for name, f in futures.items()}
        for name, rows in res.items():
            cpu = [r["cpu_s"] for r in rows]
            extra = f"{statistics.fmean(cpu) * n_all / 60:>15.1f}" if sample == "random" else f"{'-':>15}"
            peak = max(r.get("hwm_mib", 0.0) for r in rows)
            memo = max(r.get("memo", 0) for r in rows)
            print(f"{sample:<8}{name:<5}{len(cpu):>8}{statistics.fmean(cpu):>9.3f}"
                  f"{statistics.median(cpu):>9.3f}{max(cpu):>9.2f}{sum(cpu):>9.1f}{extra}"
                  f"{peak:>10.0f}{memo:>10,}", flush=True)
        if args.per_opener:
            for i, w in enumerate(words):
                cells = "  ".join(f"{name} {rows[i]['cpu_s']:8.2f}" for name, rows in res.items())
                print(f"{sample:<8}  {w:<8}{res['new'][i]['verdict']:<12}{cells}", flush=True)
        if "old" in res:
            old = sum(r["cpu_s"] for r in res["old"])
            new = sum(r["cpu_s"] for r in res["new"])
            print(f"{sample:<8}old/new: {old / new:.2f}x", flush=True)
            bad = [a["opener"] for a, b in zip(res["new"], res["old"], strict=True)
                   if a["verdict"] != b["verdict"]]
            nodes = {name: sum(r["nodes"] for r in rows) for name, rows in res.items()}
            same = sum(a["nodes"] == b["nodes"] for a, b in zip(res["new"], res["old"], strict=True))
            print(f"{sample:<8}nodes old {nodes['old']:,} new {nodes['new']:,}; "
                  f"equal for {same} of {len(words)} openers", flush=True)
            if bad:
                ok = False
                print(f"{sample}: VERDICTS DIFFER from the old side: {bad}", flush=True)
            else:
                print(f"{sample:<8}{len(words)} verdicts identical on both sides", flush=True)
    target = TARGET_CPU_MIN.get(args.lexicon)
    if target:
        print(f"target: all {n_all:,} openers in <= {target} CPU-min ({target // 2} min on 2 cores)",
              flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
