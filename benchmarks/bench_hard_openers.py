"""Full-opener (or sampled) exact hard-mode verdicts, fanned out over worker processes.

A process-pool companion to the ``hard`` Beam pipeline (:mod:`pipelines.hard`): every worker
keeps one :class:`wordle_core.search.hard.HardSolver` (and its memo) for all the openers it
is given. Writes one JSON line per opener as it finishes (``OUT.partial``; renamed to
``OUT`` when the run completes, and a rerun resumes from the partial file), then prints
the counts, the wall time and the per-opener time distribution.

    PYTHONPATH=. python benchmarks/bench_hard_openers.py --lexicon nyt --sample 600 \
        --seed 0 --workers 2 --budget 20000 --out outputs/hard_nyt_sample.jsonl

``--sample 0`` runs every allowed opener. With a sample, the counts are scaled to the
whole guess list with a 95% binomial (Wilson) interval.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing as mp
import os
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
from tqdm import tqdm

_LEX = None


def _init(name: str) -> None:
    global _LEX
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.game.matrix import pattern_matrix

    _LEX = load_lexicon(name)
    pattern_matrix(_LEX)


def _one(args: tuple[int, int]) -> dict:
    from wordle_core.search.hard import hard_verdict

    row, budget = args
    c0 = time.process_time()
    rec = hard_verdict(_LEX, row, node_budget=budget or None)
    rec["cpu_seconds"] = round(time.process_time() - c0, 3)  # load-independent cost
    return rec


def _implied(lex, args: argparse.Namespace, done: dict[str, dict]) -> None:
    """Feasible with more answers => feasible with fewer (restrict the winning strategy)."""
    from wordle_core.game.lexicon import load_lexicon

    sup = load_lexicon(args.implied_lexicon)
    if sup.guesses != lex.guesses or not set(lex.answers) <= set(sup.answers):
        raise SystemExit(f"--implied-by: {sup.name} must have the same guesses and a superset of answers")
    with open(args.implied_by) as fh:
        for line in fh:
            rec = json.loads(line)
            mine = done.get(rec["opener"], {}).get("verdict", "unknown")
            if rec["verdict"] == "feasible" and mine == "unknown":
                done[rec["opener"]] = {"opener": rec["opener"], "verdict": "feasible", "seconds": 0.0,
                                       "nodes": 0, "lexicon": lex.name, "via": f"feasible on {sup.name}"}


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    den = 1 + z * z / n
    c = (p + z * z / (2 * n)) / den
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, c - h), min(1.0, c + h))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--sample", type=int, default=0, help="random openers (0: all)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--budget", type=int, default=0,
                    help="OR nodes per opener (default 0: the complete search, never unknown)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--report-only", action="store_true", help="summarise what is done, run nothing")
    ap.add_argument("--openers-from", metavar="FILE", help="only the openers named in these JSON lines")
    ap.add_argument("--retry-unknown", action="store_true",
                    help="rerun openers whose verdict is unknown under a smaller budget")
    ap.add_argument("--implied-by", metavar="FILE", help="results of a lexicon with the same guesses "
                    "and a superset of the answers: its feasible openers are feasible here")
    ap.add_argument("--implied-lexicon", help="that lexicon's name (checked: same guesses, answers superset)")
    args = ap.parse_args(argv)

    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.game.matrix import pattern_matrix

    lex = load_lexicon(args.lexicon)
    pattern_matrix(lex)  # build/cache once before forking
    n_all = len(lex.guesses)
    # Openers run in a seeded random order, so the lines written so far are always a
    # uniform random sample: an interrupted full run still measures the whole list.
    rows = np.random.default_rng(args.seed).permutation(n_all)
    if args.sample:
        rows = rows[: args.sample]
    if args.openers_from:
        # the same openers as another run (e.g. the part of an interrupted run that finished)
        with open(args.openers_from) as fh:
            keep = {json.loads(line)["opener"] for line in fh}
        rows = np.array([r for r in rows if lex.guesses[int(r)] in keep], dtype=np.int64)
    out = Path(args.out)
    part = out.with_name(out.name + ".partial")
    done: dict[str, dict] = {}
    # finished output first, then the partial file's newer lines (a resumed or retried run)
    for src in (out, part):
        if src.exists():
            for line in src.read_text().splitlines():
                rec = json.loads(line)
                done[rec["opener"]] = rec
    if args.implied_by:
        _implied(lex, args, done)
    if args.retry_unknown:
        # second pass: openers left unknown under a smaller budget get this budget
        stale = [o for o, r in done.items() if r["verdict"] == "unknown" and r.get("budget", 0) < args.budget]
        for o in stale:
            del done[o]
        print(f"retrying {len(stale)} unknown openers with budget {args.budget}", file=sys.stderr)
    todo = [int(r) for r in rows if lex.guesses[int(r)] not in done]
    out.parent.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    if todo and not args.report_only:
        with open(part, "a") as fh, mp.get_context("fork").Pool(
            args.workers, initializer=_init, initargs=(args.lexicon,)
        ) as pool:
            it = pool.imap_unordered(_one, [(r, args.budget) for r in todo], chunksize=4)
            for rec in tqdm(it, total=len(todo), desc=f"hard {args.lexicon}", file=sys.stderr):
                rec["lexicon"] = args.lexicon
                rec["budget"] = args.budget
                done[rec["opener"]] = rec
                fh.write(json.dumps(rec, sort_keys=True) + "\n")
                fh.flush()
    wall = time.perf_counter() - t0
    recs = sorted((done[lex.guesses[int(r)]] for r in rows if lex.guesses[int(r)] in done),
                  key=lambda r: r["opener"])
    if len(recs) == len(rows):
        from wordle_core.files import atomic_write_text

        atomic_write_text(out, "".join(json.dumps(r, sort_keys=True) + "\n" for r in recs))
        part.unlink(missing_ok=True)
    else:
        print(f"partial: {len(recs)} of {len(rows)} openers done (a uniform random sample)")
    c = Counter(r["verdict"] for r in recs)
    secs = np.array([r["seconds"] for r in recs])
    n = len(recs)
    print(f"{args.lexicon}: {n} openers ({'random sample' if len(recs) < n_all else 'all'}), "
          f"budget {args.budget} nodes, {args.workers} workers, wall {wall:.0f} s this run")
    for v in ("feasible", "infeasible", "unknown"):
        lo, hi = wilson(c[v], n)
        print(f"  {v:<10} {c[v]:>6}  ({100 * c[v] / n:.1f}%; scaled to {n_all}: "
              f"{c[v] / n * n_all:.0f}, 95% CI {lo * n_all:.0f}-{hi * n_all:.0f})")
    print(f"  sum of per-opener seconds {secs.sum():.0f}")
    cpu = np.array([r["cpu_seconds"] for r in recs if "cpu_seconds" in r])
    if len(cpu):
        print(f"  CPU-s per opener: mean {cpu.mean():.3f}  median {np.median(cpu):.3f}  "
              f"max {cpu.max():.1f}; all {n_all} openers: {cpu.mean() * n_all / 3600:.2f} CPU-hours")
    print(f"  seconds per opener: mean {secs.mean():.2f}  median {np.median(secs):.2f}  "
          f"p95 {np.percentile(secs, 95):.2f}  max {secs.max():.1f}  sum {secs.sum():.0f}")
    proj = secs.mean() * n_all / args.workers / 60
    print(f"  projected full run: {proj:.0f} min on {args.workers} workers")
    inf = sorted(r["opener"] for r in recs if r["verdict"] == "infeasible")
    print("  infeasible:", " ".join(inf[:60]) + (" ..." if len(inf) > 60 else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
