"""configs/full.yaml on a random slice of openers, extrapolated to all 12,972.

    nice -n 19 python benchmarks/bench_full.py --openers 40 [--seed 0] [--workers 2]

Runs the play stage of ``configs/full.yaml`` (``default``, ``entropy``, ``minimax`` x
normal and hard, plus the exact hard-mode verdict at the config's node budget) for
``--openers`` openers drawn at random (seeded) from the lexicon's guesses, on the
local DirectRunner with ``--workers`` processes, and prints: wall time, CPU seconds
of the whole process tree (driver + workers), peak resident memory of the largest
process, CPU per opener, and the extrapolation to every opener: CPU-hours, and the
wall time on an idle machine with ``--workers`` cores (CPU / workers; an upper bound
on the speed, since it assumes perfect parallelism). The opener scores and the report
are not in the slice (seconds, not minutes, at full size).
"""

from __future__ import annotations

import argparse
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--openers", type=int, default=40)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--config", default="configs/full.yaml")
    args = ap.parse_args()
    sys.path.insert(0, str(ROOT))
    from wordle_core.game.lexicon import load_lexicon

    cfg = yaml.safe_load((ROOT / args.config).read_text())
    lex = load_lexicon(cfg.get("lexicon", "wordle"))
    words = sorted(random.Random(args.seed).sample(list(lex.guesses), args.openers))
    cfg.update(openers=words, outputs=["opener_summaries", "hard_verdicts"], shards=1)
    cfg.pop("score_openers", None)
    work = Path(tempfile.mkdtemp(prefix="bench-full-"))
    (work / "slice.yaml").write_text(yaml.safe_dump(cfg))
    cmd = [sys.executable, "-m", "wordle_core", "run", "--config", str(work / "slice.yaml"),
           "--output", str(work / "out"), "--no-progress", "--runner=DirectRunner",
           "--direct_running_mode=multi_processing", f"--direct_num_workers={args.workers}"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    res = subprocess.run(cmd, cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)), capture_output=True,
                         text=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode:
        print(res.stderr[-2000:])
        return 1
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    per = cpu / len(words)
    n = len(lex.guesses)
    games = len(words) * len(lex.answers) * len(cfg["strategies"]) * len(cfg["modes"])
    print(f"slice: {len(words)} random openers (seed {args.seed}) x {', '.join(cfg['strategies'])} x "
          f"{', '.join(cfg['modes'])} + exact hard verdicts (budget {cfg['exact_hard']['node_budget']})")
    for line in res.stderr.splitlines():
        if "time per stage" in line or "trees" in line:
            print("  " + line.strip())
    print(f"wall {wall:.1f} s; CPU {cpu:.1f} s (driver + workers); {games:,} games; "
          f"peak RSS of the largest process {after.ru_maxrss / 1024:.0f} MiB")
    print(f"per opener: {per:.2f} CPU-s -> all {n:,} openers: {per * n / 3600:.2f} CPU-hours, "
          f"~{per * n / args.workers / 60:.0f} min wall on {args.workers} idle cores "
          f"({games / cpu:,.0f} games per CPU-second)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
