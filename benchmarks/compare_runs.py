"""Two finished runs of the same config, side by side: are the tables the same, and where did the time go?

    python benchmarks/compare_runs.py OLD_OUTPUT NEW_OUTPUT

For every table both output directories hold it prints whether each file is
byte-identical (sha256 from the tables' manifests). For ``hard_verdicts`` it also
compares the records with the search's own ``exact_seconds`` and ``exact_nodes`` left
out (they are measurements, not results), and prints each run's total search time,
nodes and time per node, one record per opener (every strategy's record carries the
same verdict).

Time per node is a speedometer for the machine a run had: the verdict search does the
same work per node in both runs unless its code changed, so when a second run is slower
per node by the same factor as it is slower overall, the machine (shared, noisy) rather
than the code explains the difference; extra nodes are work the code added (smaller
caches, for instance).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import fastavro

MEASURED = ("exact_seconds", "exact_nodes")


def manifest_files(table_dir: Path) -> dict[str, str]:
    """``{file name: sha256}`` from a table's ``_manifest.json`` (empty when there is none)."""
    path = table_dir / "_manifest.json"
    if not path.is_file():
        return {}
    return {f["name"]: f["sha256"] for f in json.loads(path.read_text())["files"]}


def verdict_records(table_dir: Path) -> list[dict]:
    """Every ``hard_verdicts`` record of a run, in a fixed order."""
    out: list[dict] = []
    for path in sorted(table_dir.glob("*.avro")):
        with open(path, "rb") as f:
            out.extend(fastavro.reader(f))
    out.sort(key=lambda r: (r["lexicon"], r["opener"], r["mode"], r["strategy"]))
    return out


def search_totals(records: list[dict]) -> tuple[int, float, int]:
    """(openers, total exact_seconds, total exact_nodes), one record per opener."""
    seen: dict[tuple[str, str], dict] = {}
    for r in records:
        seen.setdefault((r["lexicon"], r["opener"]), r)
    return (len(seen), sum(r["exact_seconds"] or 0.0 for r in seen.values()),
            sum(r["exact_nodes"] or 0 for r in seen.values()))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    args = ap.parse_args(argv)
    for d in (args.old, args.new):
        if not d.is_dir():
            print(f"compare_runs: {d} is not a directory", file=sys.stderr)
            return 2
    tables = sorted(p.name for p in args.old.iterdir()
                    if p.is_dir() and (args.new / p.name).is_dir() and manifest_files(p))
    for name in tables:
        old, new = manifest_files(args.old / name), manifest_files(args.new / name)
        same = sum(1 for k, v in old.items() if new.get(k) == v)
        verdict = "byte-identical" if old == new else f"{same} of {len(old)} files identical"
        print(f"{name}: {verdict}")
    if "hard_verdicts" in tables:
        a = verdict_records(args.old / "hard_verdicts")
        b = verdict_records(args.new / "hard_verdicts")
        strip = [{k: v for k, v in r.items() if k not in MEASURED} for r in a]
        same = strip == [{k: v for k, v in r.items() if k not in MEASURED} for r in b]
        print(f"hard_verdicts without {', '.join(MEASURED)}: "
              f"{'identical' if same else 'DIFFERENT'} ({len(a):,} / {len(b):,} records)")
        (n0, s0, k0), (n1, s1, k1) = search_totals(a), search_totals(b)
        if not (s0 and s1 and k0 and k1):  # a run without the exact verdict search
            print(f"verdict search: no exact search timed ({n0:,} / {n1:,} openers)")
            return 0
        print(f"verdict search, {n0:,} / {n1:,} openers: {s0:,.1f} -> {s1:,.1f} s "
              f"({s1 / s0:.2f}x), nodes {k0:,} -> {k1:,} ({k1 / k0:.3f}x), "
              f"time per node {1e3 * s0 / k0:.3f} -> {1e3 * s1 / k1:.3f} ms "
              f"({(s1 / k1) / (s0 / k0):.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
