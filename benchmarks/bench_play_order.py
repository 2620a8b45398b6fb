"""A play worker's `default` trees over a run of consecutive openers: CPU-ms per tree, old vs new.

A pipeline worker plays the openers of its shards one after the other with one memo
per strategy (cleared when the worker's memos together pass
the mode's ``pipelines.transforms.MEMO_LIMITS`` entries), so what a tree costs depends on which
openers came before it. This benchmark plays what one worker plays: a run of
``--openers`` consecutive openers of the play order over the whole lexicon (a seeded
random start, or ``--start``), through each side's own ``PlayOpenerFn`` and its own
``play_elements`` order, after one untimed warm-up tree and an emptied memo. Both sides
play the same openers; the old side in its own order.

Each side runs in its own subprocess with ``PYTHONPATH`` set to its root, and the two
run at the same time (one per core), so that they share the machine's state. Printed per
mode and side: CPU-ms per tree (the building thread's CPU, as the run's summary line
counts it), the memo limit and the order, the old/new ratio, and whether every record
(the opener summaries) is the same on both sides (exit 1 if not).

Run::

    python benchmarks/bench_play_order.py --old OLD                       # 1,500 openers, normal
    python benchmarks/bench_play_order.py --old OLD --modes normal,hard --openers 800
    python benchmarks/bench_play_order.py --openers 300                    # this tree only
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from sides import run_side

ROOT = Path(__file__).resolve().parents[1]
TABLES = ["opener_summaries"]


def worker(lexicon: str, mode: str, rows: list[int]) -> None:
    """Child process: play ``rows`` in this side's order, one JSON line per tree."""
    from pipelines import transforms
    from wordle_core.game.lexicon import load_lexicon

    lex = load_lexicon(lexicon)
    try:
        elements = transforms.play_elements(rows, [mode], TABLES, lex.guesses)
        order = getattr(transforms, "PLAY_ORDER", "rows")
    except TypeError:  # a side from before the play order: by row
        elements = transforms.play_elements(rows, [mode], TABLES)
        order = "rows"
    fn = transforms.PlayOpenerFn(transforms.LexiconSpec.of(lex), ["default"], [mode], TABLES,
                                 worst_games=3)
    fn.setup()
    warm = next(r for r in range(len(lex.guesses)) if r not in set(rows))
    for _ in fn.process((warm, mode == "hard")):  # compiles the kernels; not timed
        pass
    for s in fn.strats.values():
        s.reset()
    limits = getattr(transforms, "MEMO_LIMITS", None)  # per mode; one bound before
    limit = limits[mode] if limits else transforms.MEMO_LIMIT
    print(json.dumps({"memo_limit": limit, "order": order}), flush=True)
    for element in elements:
        c0 = time.thread_time_ns()
        recs = [rec for _, rec in fn.process(element)]
        cpu = (time.thread_time_ns() - c0) / 1e6
        digest = hashlib.sha256(repr(recs).encode()).hexdigest()[:16]
        print(json.dumps({"opener": lex.guesses[element[0]], "cpu_ms": round(cpu, 2),
                          "records": digest}), flush=True)


def window(lexicon: str, n: int, start: int | None, seed: int) -> tuple[int, list[int]]:
    """``n`` consecutive openers of this tree's play order over every allowed guess."""
    import random

    from pipelines.transforms import play_order
    from wordle_core.game.lexicon import load_lexicon

    lex = load_lexicon(lexicon)
    order = play_order(list(range(len(lex.guesses))), lex.guesses)
    n = min(n, len(order))
    if start is None:
        start = random.Random(seed).randrange(len(order) - n + 1)
    start = max(0, min(start, len(order) - n))
    return start, order[start:start + n]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--worker"]:
        worker(argv[1], argv[2], [int(r) for r in argv[3].split(",")])
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--openers", type=int, default=1500, help="consecutive openers played")
    ap.add_argument("--start", type=int, help="where in the play order (default: seeded random)")
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--modes", default="normal")
    ap.add_argument("--old", help="root of an older checkout to compare against")
    args = ap.parse_args(argv)
    if args.openers < 1:
        ap.error("--openers must be at least 1")
    start, rows = window(args.lexicon, args.openers, args.start, args.seed)
    sides = ([("old", args.old)] if args.old else []) + [("new", str(ROOT))]
    print(f"{args.lexicon}: `default` trees of {len(rows)} consecutive openers of the play order "
          f"(from position {start}), one worker's memo; CPU ms per tree", flush=True)
    print(f"{'mode':<7}{'side':<5}{'mean':>8}{'median':>8}{'max':>9}{'memo limit':>12}  order",
          flush=True)
    ok = True
    arg = ",".join(map(str, rows))
    for mode in [m for m in args.modes.split(",") if m]:
        with ThreadPoolExecutor(len(sides)) as pool:
            futures = {name: pool.submit(run_side, root, __file__, [args.lexicon, mode, arg])
                       for name, root in sides}
            res = {name: f.result() for name, f in futures.items()}
        trees = {}
        for name, lines in res.items():
            info, trees[name] = lines[0], lines[1:]
            cpu = [t["cpu_ms"] for t in trees[name]]
            print(f"{mode:<7}{name:<5}{statistics.fmean(cpu):>8.1f}{statistics.median(cpu):>8.1f}"
                  f"{max(cpu):>9.1f}{info['memo_limit']:>12,}  {info['order']}", flush=True)
        if "old" in trees:
            old = statistics.fmean(t["cpu_ms"] for t in trees["old"])
            new = statistics.fmean(t["cpu_ms"] for t in trees["new"])
            print(f"{mode:<7}old/new: {old / new:.2f}x", flush=True)
            recs = {name: {t["opener"]: t["records"] for t in ts} for name, ts in trees.items()}
            bad = sorted(w for w in recs["new"] if recs["new"][w] != recs["old"].get(w))
            if bad or len(recs["new"]) != len(recs["old"]):
                ok = False
                print(f"{mode}: RECORDS DIFFER from the old side: {bad[:10]}", flush=True)
            else:
                print(f"{mode:<7}{len(recs['new'])} openers' records identical on both sides", flush=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
