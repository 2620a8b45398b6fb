"""Throughput of the full fan-out (every answer from each opener) on this machine.

Runs the ``games`` pipeline (opener_summaries only) for an evenly spaced sample of
openers over the whole guess list (so easy and hard openers are both in it), on
the local DirectRunner with one worker process per core, and prints:

* games per second (wall clock) and per CPU-second, for the pipeline;
* the same work in one plain process (the baseline: no Beam);
* the extrapolated time of ``configs/full.yaml`` (12,972 openers x 2,315 answers =
  30.0 M games per mode) at the measured pipeline rate;
* peak resident memory of the largest worker process.

Usage: python benchmarks/bench_pipeline.py [--openers 48] [--strategy entropy] [--mode normal]
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time

from pipelines.config import build_config
from wordle_core.game.lexicon import load_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.strategies import get_strategy


def sample_rows(n_guesses: int, k: int) -> list[int]:
    step = n_guesses / k
    return [int(i * step + step / 2) for i in range(k)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openers", type=int, default=48)
    ap.add_argument("--strategy", default="entropy")
    ap.add_argument("--mode", default="normal", choices=["normal", "hard"])
    ap.add_argument("--baseline", type=int, default=8, help="openers for the single-process baseline")
    args = ap.parse_args()
    lex = load_lexicon("wordle")
    mat = pattern_matrix(lex)
    rows = sample_rows(len(lex.guesses), args.openers)
    hard = args.mode == "hard"
    cores = os.cpu_count() or 1
    print(f"machine: {cores} cores; load average now {os.getloadavg()[0]:.1f}")
    print(f"sample: {len(rows)} openers evenly spaced over {len(lex.guesses):,} guesses "
          f"({', '.join(lex.guesses[r] for r in rows[:6])}, ...), {args.strategy}, {args.mode} mode")

    # Baseline: one plain process, no Beam.
    strat = get_strategy(args.strategy)
    c0, t0 = time.process_time(), time.perf_counter()
    games = 0
    for r in rows[: args.baseline]:
        games += len(Tree.build(strat, GameState.new(lex, hard, mat), r, timed=False).lengths())
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"baseline (1 process, {args.baseline} openers): {games:,} games in {wall:.1f} s wall, "
          f"{cpu:.1f} s CPU -> {games / cpu:,.0f} games per CPU-second")

    # Pipeline: DirectRunner, multi_processing, one worker per core.
    with tempfile.TemporaryDirectory() as out:
        cfg = build_config(None, output=out, openers=",".join(lex.guesses[r] for r in rows),
                           strategies=args.strategy, modes=args.mode)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        res = games.play(cfg, [], None, rows=rows)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
    child_cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    n = res.counters.get("games_played", len(rows) * len(lex.answers))
    rate = n / wall
    print(f"pipeline ({res.runner}, multi_processing, {cores} workers): {n:,} games in {wall:.1f} s "
          f"-> {rate:,.0f} games/s wall; worker CPU {child_cpu:.1f} s "
          f"({n / max(child_cpu, 1e-9):,.0f} games per CPU-second)")
    total = len(lex.guesses) * len(lex.answers)
    print(f"extrapolated: {total / 1e6:.1f} M games ({len(lex.guesses):,} x {len(lex.answers):,}) "
          f"-> {total / rate / 60:,.1f} min per mode at {rate:,.0f} games/s "
          f"(target: 40,000 games/s normal, 60,000 hard)")
    ideal = n / max(child_cpu, 1e-9) * cores
    print(f"idle-machine estimate ({cores} workers x {n / max(child_cpu, 1e-9):,.0f} games per CPU-second): "
          f"{ideal:,.0f} games/s -> {total / ideal / 60:,.1f} min per mode")
    print(f"peak memory of the largest worker: {after.ru_maxrss / 1024:,.0f} MiB "
          f"(driver: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
