"""docs/results.md, measured again: each block of the results page regenerated on this machine.

    python benchmarks/harness.py results                         # the quick blocks
    python benchmarks/harness.py results -- --blocks today,speed # some blocks
    python benchmarks/harness.py results -- --blocks full-runs   # the full runs (hours)
    python benchmarks/harness.py results -- --check              # exact figures unchanged?

The page is written by hand around blocks marked ``<!-- results:NAME -->`` ...
``<!-- /results:NAME -->``; this script rewrites the inside of each block it is asked for
from fresh measurements, leaves the rest of the page alone, and writes the page to a
temporary name and renames it. Quality figures (totals, rankings, verdicts) are exact and the
same on every machine; ``--check`` recomputes the exact blocks and exits 1 if the page
says otherwise, without writing. Timed blocks name the machine and its load when measured.
The published figures each row is compared with are citations of their sources, not
results of this project.

Blocks (default: all but full-runs; a few CPU-minutes with compiled kernels): quality
(strategies on the original game), proven (proven rankings and hard-mode verdicts, from the
shipped tables), kotlin (the Kotlin solver's measure), today (nyt2023), speed (timed proofs,
matrix, trees, suggestions), full-runs (the main job and the complete runs: hours; only
when named).
"""

from __future__ import annotations

import argparse
import os
import platform
import re
import resource
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from wordle_core.engine import Lexicon

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "results.md"

# What the sources published (citations, to compare with; never used as a result).
PUBLISHED_QUALITY = {
    ("entropy", "soare"): '3.4640 ("Wordle Solver", 2022)',
    ("minimax", "raise"): '3.5215, max 5 ("The Wordle Bot")',
    ("partitions", "trace"): '3.4325 ("Wordle Solver", 2022)',
    ("default", "salet"): "the optimum, 7,920 (Alex Selby)",
}
KOTLIN_FAMILY = (("simple", "Simple"), ("test-all-scored", "TestAllScored"),
                 ("test-all-full", "TestAllFull"), ("balanced", "Balanced"))
PUBLISHED_TOP10 = ("salet", "reast", "crate", "trace", "slate", "crane", "carle", "slane", "carte", "torse")
NAMED_HARD = ("salet", "crane", "crate", "slate", "trace", "raise", "arose", "soare")
PUBLISHED_BEST_TODAY = "TARSE 11,219, the fewest (Alex Selby, 2023)"
PUBLISHED_TODAY = {"tarse-normal": "11,219 (Alex Selby, 2023)", "tarse-hard": "11,627 (Alex Selby, 2023)"}


def machine() -> str:
    """One line: CPU model, cores, memory, load average now."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        kib = int(Path("/proc/meminfo").read_text().split()[1])
        mem = f"{kib / 2**20:.0f} GiB"
    except (OSError, ValueError, IndexError):
        mem = "? GiB"
    load = os.getloadavg()[0]
    return f"{model}, {os.cpu_count()} cores, {mem}; load average {load:.1f} when measured"


def _row(*cells: object) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _table(head: list[str], align: list[str], rows: list[str]) -> list[str]:
    return [_row(*head), _row(*align), *rows]


def block_quality() -> list[str]:
    """Four strategies on the original game, every answer from one opener, normal mode."""
    from wordle_core.api import simulate

    rows = []
    for (strategy, opener), published in PUBLISHED_QUALITY.items():
        r = simulate(opener, strategy, lexicon="wordle")
        total, mean = f"{r.total:,}", f"{r.mean:.4f}"
        if strategy == "default":
            total, mean = f"**{total}**", f"**{mean}**"
        rows.append(_row(f"`{strategy}`, {opener.upper()}", total, mean, r.max_guesses, published,
                         f"`wordle-lab simulate --lexicon wordle --strategy {strategy} --opener {opener}`"))
    return _table(["strategy, opener", "total", "mean", "max", "published", "reprint"],
                  ["---", "---:", "---:", "---:", "---", "---"], rows)


def block_proven() -> list[str]:
    """The shipped proven rankings of the original game and its hard-mode verdicts."""
    from wordle_core.api import exact_ranking, hard_verdict, optimal, proven_ranking, simulate

    verdicts = {w: hard_verdict(w, lexicon="nyt").verdict for w in NAMED_HARD}
    feasible_named = [w.upper() for w, v in verdicts.items() if v == "feasible"]
    infeasible_named = [w.upper() for w, v in verdicts.items() if v == "infeasible"]
    d = simulate("salet", "default", lexicon="wordle", hard=True)
    greedy = simulate("salet", "entropy", lexicon="wordle", hard=True)
    salet_hard = optimal("salet", lexicon="wordle", hard=True).total or 0
    normal = proven_ranking("wordle")[:10]
    hard = proven_ranking("wordle", hard=True)[:5]
    places = exact_ranking("wordle", hard=True)
    feasible = sum(1 for p in places if p.total is not None)
    same = [r.opener for r in normal] == list(PUBLISHED_TOP10)
    top = ", ".join(f"{r.opener.upper()} {r.total:,}" for r in normal)
    rest = ", ".join(f"{r.opener.upper()} {r.total:,}" for r in hard[1:])
    won = "wins all" if not d.failures else f"loses {d.failures} of"
    return [
        _wrap(f"**The proven best openers** (`wordle-lab rank --proven --lexicon wordle --top 10`): {top}"
              + (": Alex Selby's published top ten, in the same order." if same else
                 f" (Alex Selby's published top ten: {', '.join(PUBLISHED_TOP10).upper()}).")
              + f" Hard mode (`--mode hard`): {hard[0].opener.upper()} {hard[0].total:,} "
              f"({hard[0].mean:.4f}), {rest}. Each ranking comes with a proof that every other "
              f"opener of the {len(places):,} is worse."),
        "",
        _wrap("**Hard mode, who can guarantee a win** (`wordle-lab hard-verdict --lexicon nyt --opener "
              f"W`): {', '.join(feasible_named)} feasible; {', '.join(infeasible_named)} infeasible, "
              f"as \"Winning Wordle's Hard Mode\" found. Of all {len(places):,} openers of `wordle`, "
              f"{feasible:,} can guarantee a hard-mode win and {len(places) - feasible:,} cannot, none "
              "undecided (`wordle-lab rank --exact --lexicon wordle --mode hard --worst --top 5` lists "
              f"the last of them). `default --hard` {won} {d.games:,} games from SALET in {d.total:,} "
              f"guesses ({d.mean:.4f}, max {d.max_guesses}) against the proven {salet_hard:,}; greedy "
              f"`entropy` loses {greedy.failures} of them."),
    ]


def _wrap(text: str) -> str:
    return textwrap.fill(text, width=96, break_long_words=False, break_on_hyphens=False)


def block_today() -> list[str]:
    """Today's NYT game: the best first guess by entropy, `default` and the optimum from it."""
    from wordle_core.api import optimal, proven_ranking, simulate
    from wordle_core.engine import load_lexicon
    from wordle_core.search.openers import opener_scores

    lex = load_lexicon("nyt2023")
    bits_of = opener_scores(lex).entropy
    at = min(range(len(lex.guesses)), key=lambda i: (-float(bits_of[i]), lex.guesses[i]))
    best, bits = lex.guesses[at], float(bits_of[at])
    rows = [_row("best first guess by entropy", f"{best.upper()}, {bits:.3f} bits", "",
                 "`wordle-lab suggest --lexicon nyt2023 --strategy entropy`")]
    ranking = proven_ranking(lex)
    top = ", ".join(f"{r.opener.upper()} {r.total:,}" for r in ranking[:3])
    label = f"proven best of all {len(lex.guesses):,} openers, normal (the shipped top {len(ranking)})"
    rows.append(_row(label, top, PUBLISHED_BEST_TODAY, "`wordle-lab rank --proven --top 10`"))
    for hard in (False, True):
        mode = "hard" if hard else "normal"
        flag = " --hard" if hard else ""
        d = simulate(best, "default", lexicon=lex, hard=hard)
        lost = f", {d.failures} lost" if d.failures else ", every game won"
        rows.append(_row(f"`default` from {best.upper()}, {mode}",
                         f"{d.total:,} = {d.mean:.4f}, max {d.max_guesses}{lost}", "",
                         f"`wordle-lab simulate --lexicon nyt2023 --strategy default --opener {best}{flag}`"))
        o = optimal(best, lexicon=lex, hard=hard)
        value = f"{o.total:,} = {o.mean:.4f}" if o.total is not None else "no guaranteed win"
        rows.append(_row(f"proven optimum from {best.upper()}, {mode}", value,
                         PUBLISHED_TODAY.get(f"{best}-{mode}", ""),
                         f"`wordle-lab optimal --lexicon nyt2023 --opener {best}{flag}`"))
    return _table(["figure", "value", "published", "reprint"], ["---", "---", "---", "---"], rows)


def block_kotlin() -> list[str]:
    """The avg-eliminated family of "Wordle Solver KT" on its own setting (every one of the
    14,855 words a possible answer, opener LARES): share solved within 6, and speed."""
    from wordle_core.api import simulate

    shares, ms = [], 0.0
    for name, label in KOTLIN_FAMILY:
        r = simulate("lares", name, lexicon="nyt14855-all")
        shares.append(f"{label} {100 * (r.games - r.failures) / r.games:.2f} %")
        if name == "balanced":
            ms = 1000 * r.seconds / r.games
    return [_wrap(
        '**The Kotlin solver\'s measure** ("Wordle Solver KT", every one of 14,855 words a possible '
        "answer, opener LARES; `python benchmarks/bench_eliminated.py`): "
        f"{shares[-1]} within 6, where the article reports 91.5 % ({', '.join(shares[:-1])}); "
        f"{ms:.2f} ms per game of Balanced against the article's 5.256 ms (Kotlin, its own machine), "
        f"measured on {machine()}.")]


def block_speed() -> list[str]:
    """Timed: proofs of SALET from an empty memo, the pattern matrix, trees, suggestions."""
    import numpy as np

    from wordle_core.api import Position, best_guesses, optimal, simulate
    from wordle_core.engine import load_lexicon
    from wordle_core.game.matrix import compute_patterns

    lex = load_lexicon("wordle")
    t, c = time.perf_counter(), time.process_time()
    compute_patterns(lex.guess_codes, lex.answer_codes)
    matrix = (time.perf_counter() - t, time.process_time() - c)
    proofs = []
    for hard in (False, True):
        optimal("salet", lexicon=_warm_lexicon(lex), hard=hard, search=True)  # compile first
        proof = optimal("salet", lexicon=lex, hard=hard, search=True)
        proofs.append((proof.seconds, proof.cpu_seconds))
    trees = []
    for hard in (False, True):
        c = time.process_time()
        trees.append((simulate("salet", "entropy", lexicon=lex, hard=hard).seconds, time.process_time() - c))
    best_guesses(Position(lexicon=lex), n=1)  # warm
    lat = []
    for _ in range(5):
        t, c = time.perf_counter(), time.process_time()
        best_guesses(Position(lexicon=lex), n=5)
        lat.append((time.perf_counter() - t, time.process_time() - c))
    (wn, cn), (wh, ch) = proofs
    (tn, tcn), (th, tch) = trees
    lat_wall, lat_cpu = (float(np.median([x[i] for x in lat])) for i in (0, 1))
    rows = [
        _row("proof of SALET's optimum from an empty memo, normal / hard",
             f"{wn:.2f} / {wh:.2f} s wall, {cn:.2f} / {ch:.2f} CPU-s",
             "about 1-2 s (a reference C++ solver)", "`python benchmarks/bench_exact.py --openers salet`"),
        _row("pattern matrix, 12,972 x 2,315, built", f"{matrix[0]:.2f} s wall, {matrix[1]:.2f} CPU-s", "",
             "`python benchmarks/bench_matrix.py`"),
        _row("`entropy` decision tree from SALET (every game), normal / hard",
             f"{tn * 1000:.0f} / {th * 1000:.0f} ms wall, {tcn * 1000:.0f} / {tch * 1000:.0f} CPU-ms", "",
             "`python benchmarks/bench_fanout.py`"),
        _row("next-guess suggestion, 2,315 candidates x 12,972 guesses scored",
             f"{lat_wall * 1000:.0f} ms wall, {lat_cpu * 1000:.0f} CPU-ms (median of 5)", "",
             "`python benchmarks/bench_suggest.py`"),
    ]
    return [f"Measured on {machine()}.", "",
            *_table(["what", "here", "the peer", "reprint"], ["---", "---", "---", "---"], rows)]


def _warm_lexicon(lex: Lexicon) -> Lexicon:
    """A tiny slice of ``lex`` (SALET among its guesses), to compile the kernels before timing."""
    from wordle_core.engine import Lexicon

    return Lexicon.build(f"{lex.name}-warm", lex.answers[::97], [*lex.answers[::97], "salet"])


FULL_RUNS = [  # (name, what it computes, the wordle-lab arguments)
    ("the main job (today's game)", "`configs/default.yaml`: top 60 openers by average eliminated + the "
     "articles' openers x 3 strategies x 2 modes, the report", "run --config configs/default.yaml"),
    ("every opener's exact hard-mode verdict, original game", "12,972 verdicts",
     "pipeline hard --lexicon wordle --openers all --exact-only"),
    ("the complete analysis, original game", "every opener x every answer x `default`, `entropy`, "
     "`minimax` x both modes, every verdict, the report", "run --config configs/full.yaml"),
    ("the complete analysis of today's game, `entropy` and `minimax`", "every opener x every answer "
     "x `entropy`, `minimax` x both modes, the report",
     "run --config configs/full-nyt2023.yaml --strategies entropy,minimax"),
    ("the complete analysis of today's game, `default`, normal mode", "every opener x every answer "
     "x `default` in normal mode, the report (in hard mode it would take some 22 CPU-hours)",
     "run --config configs/full-nyt2023.yaml --strategies default --modes normal"),
]


def block_full_runs() -> list[str]:
    """Each full run timed as a child process: wall time, CPU time, largest process."""
    import tempfile

    rows = []
    for name, what, arguments in FULL_RUNS:
        cmd = ["wordle-lab", *arguments.split()]
        with tempfile.TemporaryDirectory(prefix="wordle-lab-results-") as out:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t = time.perf_counter()
            proc = subprocess.run([sys.executable, "-m", "wordle_core", *cmd[1:], "--output", out],
                                  cwd=ROOT, stdout=subprocess.DEVNULL)
            wall = time.perf_counter() - t
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if proc.returncode != 0:
            raise SystemExit(f"results: {' '.join(cmd)} failed (exit {proc.returncode})")
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        rows.append(_row(name, what, f"{wall / 60:.0f} min wall, {cpu / 60:.0f} CPU-min, largest "
                         f"process {after.ru_maxrss / 1024:.0f} MiB", f"`{' '.join(cmd)} --output DIR`"))
    return [f"Measured on {machine()}.", "",
            *_table(["run", "what it computes", "time", "reprint"], ["---", "---", "---", "---"], rows)]


BLOCKS: dict[str, tuple[Callable[[], list[str]], bool]] = {  # name -> (maker, exact figures only)
    "quality": (block_quality, True),
    "proven": (block_proven, True),
    "kotlin": (block_kotlin, False),
    "today": (block_today, True),
    "speed": (block_speed, False),
    "full-runs": (block_full_runs, False),
}
DEFAULT_BLOCKS = ("quality", "proven", "kotlin", "today", "speed")


def replace_block(page: str, name: str, lines: list[str]) -> str:
    """``page`` with the inside of block ``name`` replaced by ``lines``.

    >>> replace_block("a\\n<!-- results:x -->\\nold\\n<!-- /results:x -->\\nb\\n", "x", ["new"])
    'a\\n<!-- results:x -->\\nnew\\n<!-- /results:x -->\\nb\\n'
    """
    pat = re.compile(rf"(<!-- results:{re.escape(name)} -->\n).*?(<!-- /results:{re.escape(name)} -->)",
                     re.DOTALL)
    if not pat.search(page):
        raise SystemExit(f"results: {PAGE.name} has no block {name!r}")
    return pat.sub(lambda m: m.group(1) + "\n".join(lines) + "\n" + m.group(2), page, count=1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--blocks", default=",".join(DEFAULT_BLOCKS),
                    help=f"comma-separated, of {', '.join(BLOCKS)} (default: %(default)s)")
    ap.add_argument("--check", action="store_true",
                    help="recompute the exact blocks named and exit 1 if the page differs; write nothing")
    ap.add_argument("--page", type=Path, default=PAGE, help="the page to rewrite (default docs/results.md)")
    args = ap.parse_args(argv)
    names = [b for b in args.blocks.split(",") if b]
    unknown = [b for b in names if b not in BLOCKS]
    if unknown:
        print(f"results: unknown block {unknown[0]!r}; blocks: {', '.join(BLOCKS)}", file=sys.stderr)
        return 2
    page = args.page.read_text(encoding="utf-8")
    new = page
    for name in names:
        make, exact = BLOCKS[name]
        if args.check and not exact:
            continue
        print(f"results: measuring {name} ...", file=sys.stderr, flush=True)
        new = replace_block(new, name, make())
    if args.check:
        if new != page:
            print(f"results: {args.page} differs from what the engine computes now", file=sys.stderr)
            return 1
        print(f"results: the exact figures of {args.page} hold")
        return 0
    tmp = args.page.with_name(f".{args.page.name}.tmp")
    tmp.write_text(new, encoding="utf-8")
    tmp.replace(args.page)
    print(f"results: rewrote {', '.join(names)} in {args.page}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
