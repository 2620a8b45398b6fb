"""The table-writing stage's worker memory, old checkout vs this one, on a finished run's records.

    python benchmarks/bench_sink_memory.py --from outputs/full [--old DIR] [--workers 2]

Reads the ``opener_summaries`` and ``hard_verdicts`` Avro files of a finished run
(``--from``: its output directory, e.g. ``configs/full.yaml``'s, 116,748 records) and
writes them again through ``pipelines.orchestration.sink.WriteTables`` alone, on the local
DirectRunner with ``--workers`` processes: the workers read the files lazily, so what
the figures show is the grouping and the writing. For this checkout, and first for
``--old`` (another checkout, e.g. ``git worktree add /tmp/old REV``) when given, it
prints each worker's peak resident memory (VmHWM, sampled from /proc), the largest's
ratio new / old, and whether every written file is byte-identical to the run's own
(the sink sorts and writes deterministically, so it must be).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_full import watch_peaks  # noqa: E402  (a sibling script)

TABLES = ("opener_summaries", "hard_verdicts")

PIPELINE = """
import glob, sys
import apache_beam as beam
import fastavro
from apache_beam.options.pipeline_options import PipelineOptions
from pipelines.orchestration.sink import WriteTables

src, out, workers = sys.argv[1], sys.argv[2], sys.argv[3]
tables = ["opener_summaries", "hard_verdicts"]
files = sorted(f for t in tables for f in glob.glob(f"{src}/{t}/*.avro"))
shards = max(sum(1 for f in files if f.split("/")[-2] == t) for t in tables)


def read(path):
    table = path.split("/")[-2]
    with open(path, "rb") as fh:
        for record in fastavro.reader(fh):
            yield table, record


opts = PipelineOptions(["--runner=DirectRunner", "--direct_running_mode=multi_processing",
                        f"--direct_num_workers={workers}"])
with beam.Pipeline(options=opts) as p:
    p | beam.Create(files) | beam.Reshuffle() | beam.FlatMap(read) | WriteTables(out, tables, shards)
"""


def digests(directory: Path) -> dict[str, str]:
    return {f"{p.parent.name}/{p.name}": hashlib.sha256(p.read_bytes()).hexdigest()
            for t in TABLES for p in sorted((directory / t).glob("*.avro"))}


def measure(root: Path, src: Path, workers: int) -> tuple[list[int], float, dict[str, str]]:
    """(worker peaks in KiB, largest first; wall seconds; sha256 of each written file)."""
    out = Path(tempfile.mkdtemp(prefix="bench-sink-"))
    cmd = [sys.executable, "-c", PIPELINE, str(src), str(out), str(workers)]
    t0 = time.perf_counter()
    with tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, cwd=root, env=dict(os.environ, PYTHONPATH=str(root)),
                                stdout=subprocess.DEVNULL, stderr=err, text=True)
        peaks, _ = watch_peaks(proc)
        err.seek(0)
        if proc.returncode:
            sys.exit(f"bench_sink_memory: the pipeline failed in {root}:\n{err.read()[-2000:]}")
    wall = time.perf_counter() - t0
    peaks.pop(proc.pid, None)
    workers_kib = sorted((k for k in peaks.values() if k > 50 * 1024), reverse=True)  # not the shells
    return workers_kib, wall, digests(out)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--from", dest="src", default="outputs/full")
    ap.add_argument("--old", help="another checkout to measure first (its own pipelines package)")
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    src = (ROOT / args.src).resolve()
    own = digests(src)
    if not own:
        sys.exit(f"bench_sink_memory: no {' or '.join(TABLES)} Avro files under {src}")
    print(f"records of {src}: {len(own)} files; {args.workers} workers")
    sides = ([("old", Path(args.old).resolve())] if args.old else []) + [("new", ROOT)]
    largest = {}
    for name, root in sides:
        peaks, wall, written = measure(root, src, args.workers)
        largest[name] = peaks[0] if peaks else 0
        same = "byte-identical to the run's own" if written == own else "DIFFERENT from the run's own"
        print(f"{name}: worker peaks {', '.join(f'{k / 1024:.0f}' for k in peaks)} MiB; "
              f"{wall:.1f} s; {len(written)} files {same}")
    if largest.get("old"):
        print(f"largest worker peak new / old: {largest['new'] / largest['old']:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
