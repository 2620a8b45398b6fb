"""The ``games`` pipeline on a local Dask cluster of 1 and 2 workers: games/s, CPU-s per
opener, what that implies for N workers, and the complete analysis in vCPU-hours.

Runs ``wordle-lab pipeline games`` on a fixed slice of openers (evenly spaced over the
lexicon's guesses, so easy and hard openers are both in it; normal mode, every strategy of
the default config: under 5 CPU-minutes) once per worker count, each run a fresh process
tree after one untimed warm-up (one opener: the kernels compiled and the matrix cached, so
no run pays for them), and prints one row per run:

* wall seconds of the run and of its play stage (the pipeline's own line), and games per
  second of the stage (every tree plays every answer: openers x strategies x answers),
* CPU seconds of the whole run (driver, scheduler and workers: every child process,
  from the operating system's accounting) and CPU-s per opener.

From the 1- and 2-worker walls it fits the serial share of the stage (Amdahl's law) and
prints the speed-up it implies for N workers. Then one more run over both modes
(``--estimate-openers``, evenly spaced too; the DirectRunner in one process, because Beam's
Dask runner reports no metrics) gives the CPU per tree of each strategy in each mode,
from which it estimates the vCPU-hours of the complete analysis (every guess of the
lexicon as the opener x each strategy x each mode): the work a Dataflow job of that size
bills, worker start-up not included.

On a machine with fewer free cores than workers the 2-worker row measures contention,
not scaling: run it on an idle machine (``nproc`` cores free).

``--old-partitions``: one more 2-worker run with Beam's own partitioning (``--dask_partition_size
=128``, what every run got before ``--dask-workers`` asked for two partitions per worker), in
the same session, so the two can be compared.

Usage: python benchmarks/bench_dask_scaling.py [--lexicon nyt2023] [--openers 100]
       [--strategies default,entropy,minimax] [--modes normal] [--workers 1,2]
       [--old-partitions] [--estimate-openers 20] (0: no estimate)
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def sample(guesses: list[str], k: int) -> list[str]:
    """``k`` openers evenly spaced over ``guesses`` (the same list on every run)."""
    step = len(guesses) / k
    return [guesses[int(i * step + step / 2)] for i in range(k)]


def children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def run_games(args: list[str], out: str) -> tuple[float, float, str]:
    """(wall s, CPU s of the process tree, stderr + stdout) of one ``pipeline games`` run."""
    cmd = [sys.executable, "-m", "wordle_core", "pipeline", "games", *args, "--output", out,
           "--no-progress"]
    env = dict(os.environ, PYTHONPATH=os.environ.get("PYTHONPATH", str(ROOT)))
    c0, t0 = children_cpu(), time.perf_counter()
    res = subprocess.run(cmd, capture_output=True, text=True, env=env)
    wall, cpu = time.perf_counter() - t0, children_cpu() - c0
    if res.returncode != 0:
        sys.exit(f"bench_dask_scaling: {' '.join(cmd)} failed:\n{res.stderr[-2000:]}")
    return wall, cpu, res.stdout + res.stderr


def parse(text: str) -> tuple[float, dict[str, float]]:
    """(stage seconds, {"strategy mode": CPU-ms per tree}) from the run's line (Beam's Dask
    runner reports no metrics: the CPU per tree comes from DirectRunner runs only)."""
    m = re.search(r"in ([\d.]+) s on \w+", text)
    if not m:
        sys.exit(f"bench_dask_scaling: no result line in:\n{text[-1500:]}")
    per_tree = {f"{s} {md}": float(ms.replace(",", ""))
                for s, md, ms in re.findall(r"(\S+) (normal|hard) ([\d,.]+) ms", text)}
    return float(m.group(1)), per_tree


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lexicon", default="nyt2023")
    ap.add_argument("--openers", type=int, default=100, help="openers in the slice (default 100)")
    ap.add_argument("--strategies", default="default,entropy,minimax")
    ap.add_argument("--modes", default="normal")
    ap.add_argument("--workers", default="1,2", help="local Dask worker counts (default 1,2)")
    ap.add_argument("--old-partitions", action="store_true",
                    help="also 2 workers with Beam's own partitioning (the behaviour before)")
    ap.add_argument("--estimate-openers", type=int, default=20, dest="estimate",
                    help="openers of the both-modes run for the vCPU-hour estimate (default 20)")
    a = ap.parse_args()

    from wordle_core.game.lexicon import load_lexicon

    lex = load_lexicon(a.lexicon)
    words = sample(list(lex.guesses), a.openers)
    strategies = a.strategies.split(",")
    common = ["--lexicon", a.lexicon, "--strategies", a.strategies, "--modes", a.modes]
    print(f"slice: {len(words)} {lex.name} openers evenly spaced over {len(lex.guesses):,} guesses "
          f"({words[0]}, {words[1]}, ... {words[-1]}) x {a.strategies} x {a.modes}; "
          f"{len(lex.answers):,} answers; {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}")
    with tempfile.TemporaryDirectory(prefix="wordle-lab-bench-dask-") as tmp:
        run_games([*common, "--openers", words[0], "--dask-workers", "1"], f"{tmp}/warm")  # untimed
        rows = []
        runs = [(int(x), "") for x in a.workers.split(",")]
        if a.old_partitions:
            runs.append((2, "--dask_partition_size=128"))
        for n, extra in runs:
            wall, cpu, text = run_games([*common, "--openers", ",".join(words), "--dask-workers", str(n),
                                         *([extra] if extra else [])], f"{tmp}/w{n}{extra[-3:]}")
            stage, _ = parse(text)
            games = len(words) * len(strategies) * len(a.modes.split(",")) * len(lex.answers)
            rows.append((n, wall, stage, games, cpu, "one partition (before)" if extra else ""))
        if a.estimate:
            some = sample(list(lex.guesses), a.estimate)
            both = ["--lexicon", a.lexicon, "--strategies", a.strategies, "--modes", "normal,hard",
                    "--openers", ",".join(some), "--runner=DirectRunner",
                    "--direct_running_mode=in_memory"]
            e_wall, e_cpu, text = run_games(both, f"{tmp}/estimate")
            e_stage, e_tree = parse(text)
    print(f"\n{'workers':>7} {'run s':>7} {'stage s':>8} {'games/s':>9} {'CPU s':>7} {'CPU-s/opener':>13}"
          f" {'speed-up':>9}")
    base = rows[0][2]
    for n, wall, stage, games, cpu, note in rows:
        print(f"{n:>7} {wall:>7.1f} {stage:>8.1f} {games / stage:>9,.0f} {cpu:>7.1f} "
              f"{cpu / len(words):>13.3f} {base / stage:>8.2f}x {note}")
    if len(rows) >= 2 and rows[0][0] == 1 and rows[1][0] == 2:
        t1, t2 = rows[0][2], rows[1][2]
        serial = min(max(2 * t2 / t1 - 1, 0.0), 1.0)  # Amdahl: t2 = t1 (s + (1 - s) / 2)
        print(f"Amdahl fit of the stage: serial share {serial:.2f}; implied speed-up: " + ", ".join(
            f"{n} workers {1 / (serial + (1 - serial) / n):.1f}x" for n in (4, 8, 16, 32, 64)))
    if not a.estimate:
        return 0
    trees = sum(e_tree.values())  # CPU-ms per opener: every strategy, both modes
    overhead = e_cpu / (a.estimate * trees / 1000)
    full = len(lex.guesses) * trees / 1000 / 3600
    print(f"\nboth modes, {a.estimate} openers, DirectRunner in one process: {e_wall:.1f} s run, "
          f"{e_stage:.1f} s stage, {e_cpu:.1f} CPU-s ({e_cpu / a.estimate:.2f} CPU-s per opener)")
    print("CPU per tree: " + ", ".join(f"{k} {v:,.1f} ms" for k, v in e_tree.items()))
    print(f"CPU-s per opener x strategy x mode: {e_cpu / a.estimate / len(strategies) / 2:.3f}")
    print(f"complete analysis ({len(lex.guesses):,} openers x {len(strategies)} strategies x "
          f"2 modes): {full:.1f} vCPU-hours in trees, {full * overhead:.1f} with this run's "
          f"overhead (x{overhead:.2f}: driver, Beam, Dask)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
