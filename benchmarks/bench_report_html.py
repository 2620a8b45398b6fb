"""The HTML report at full size: every opener of a game x several strategies x both modes.

Builds synthetic pipeline tables (``tests/_report_data.py``: random histograms, real
feedback on the worst games) for all 12,972 ``wordle`` guesses, writes the report,
and prints the size of ``index.html``, the time the report took, and how long
headless Chromium takes to open and render it (process wall time, next to the same
for a blank page) plus the page's own time to first render::

    PYTHONPATH=. python benchmarks/bench_report_html.py [--openers 12972] [--strategies 3]
        [--keep DIR]   # keep the tables and report there (e.g. for screenshots)
"""

from __future__ import annotations

import argparse
import html
import json
import re
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from _report_data import browse, chromium, synthetic_tables, write_tables

from pipelines.report import build_report
from wordle_core.game.lexicon import load_lexicon


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--openers", type=int, default=12972)
    ap.add_argument("--strategies", type=int, default=3)
    ap.add_argument("--keep", metavar="DIR")
    args = ap.parse_args(argv)
    openers = list(load_lexicon("wordle").guesses)[: args.openers]
    strategies = ["default", "entropy", "minimax", "partitions", "expected-size"][: args.strategies]
    out = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="bench-report-"))
    t0 = time.perf_counter()
    write_tables(out, synthetic_tables(openers, strategies, ["normal", "hard"]))
    t1 = time.perf_counter()
    build_report(out, out / "report")
    t2 = time.perf_counter()
    page = out / "report" / "index.html"
    rows = len(openers) * len(strategies) * 2
    print(f"{len(openers):,} openers x {len(strategies)} strategies x 2 modes = {rows:,} rows, "
          f"5 worst games each")
    print(f"tables {t1 - t0:.1f} s; report (CSVs, plots, index.html) {t2 - t1:.1f} s")
    print(f"index.html: {page.stat().st_size / 1e6:.2f} MB")
    if chromium() is None:
        print("chromium not installed (.ci/install-browser): no load time")
        return 0
    blank = out / "blank.html"
    blank.write_text("<!doctype html><title>blank</title><p>blank</p>", encoding="utf-8")
    _, _, blank_s = browse(blank.resolve().as_uri(), "--virtual-time-budget=60000", "--dump-dom")
    dom, console, wall = browse(page.resolve().as_uri(), "--virtual-time-budget=60000", "--dump-dom")
    state = json.loads(html.unescape(re.search(r'data-state="([^"]*)"', dom).group(1)))
    print(f"headless chromium, open + render + dump: {wall:.1f} s wall (blank page {blank_s:.1f} s); "
          f"page's first render at {state['ready'] / 1000:.2f} s; {state['count']}; "
          f"console messages: {len(console)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
