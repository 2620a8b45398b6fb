"""The benchmarks by name: one entry point, a list of cases, one way to compare checkouts.

    python benchmarks/harness.py --list                      # every case, one line each
    python benchmarks/harness.py matrix simulate             # run cases on this tree
    python benchmarks/harness.py exact-sample -- --sample 8  # arguments after -- go to the case
    python benchmarks/harness.py exact-sample --compare main # old (REV) vs new (this tree)

Each case is a script of this folder run with its default arguments (``--`` passes more);
its docstring says what it prints and its targets. ``--compare REV`` checks ``REV`` out
into a temporary git worktree and measures it against this tree in the same run: a case
that pairs the two sides item by item itself gets ``--old WORKTREE``; any other case runs
once per side (``PYTHONPATH`` set to each side's root, the old side first) and both
outputs are printed; ``tree-totals`` must print the same bytes on both sides (the
harness exits 1 if not). The worktree is removed afterwards.

Kinds: ``speed`` (timings; quote ratios, the machine is shared), ``check`` (a fact that
must hold: identical trees, detected damage), ``published`` (a figure a published source
reports, reproduced: the source is in the case's summary), ``tool`` (a helper, no figure
of its own).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sides import SIDE_ROOT

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent


@dataclass(frozen=True)
class Case:
    script: str  # a file of benchmarks/
    summary: str
    kind: str = "speed"  # speed, check, published or tool
    pairs_old: bool = False  # takes --old ROOT and pairs the sides item by item itself
    args: tuple[str, ...] = ()  # default arguments
    same_output: bool = False  # with --compare, both sides must print the same bytes


CASES: dict[str, Case] = {
    # --- the engine ---------------------------------------------------------------------
    "matrix": Case("bench_matrix.py", "pattern-matrix build and cached-load times (build <= 3 s, "
                   "load <= 0.2 s)"),
    "matrix-flips": Case("bench_matrix_flips.py", "byte flips in a matrix cache file: the verified load "
                         "detects every one", kind="check"),
    "simulate": Case("bench_simulate.py", "wall time of `wordle-lab simulate` from SALET (<= 5 s with "
                     "start-up)"),
    "strategies": Case("bench_strategies.py", "every registered strategy from one opener, both modes: "
                       "mean, max, failures, time"),
    "suggest": Case("bench_suggest.py", "suggestion latency: covered by a tree, uncovered, CLI cold start"),
    "start-up": Case("bench_startup.py", "whole-process CPU-s of the quick commands (strategies, "
                     "candidates, score, lexicons, --help, --version; each <= 0.2), best of 5; --compare "
                     "pairs the sides command by command", pairs_old=True),
    "cold-compile": Case("bench_cold_compile.py", "CPU seconds of a job's kernels compiled from a cold "
                         "numba cache (a throwaway cache directory: yours is untouched)"),
    "fanout": Case("bench_fanout.py", "games/s of whole greedy trees (the fan-out's compiled walk), "
                   "both modes; --compare pairs the sides opener by opener", pairs_old=True),
    "rule-out": Case("bench_rule_out.py", "greedy strategies with and without ruling guesses out by "
                     "bucket count (both in this tree, paired)"),
    "small-counts": Case("bench_small_counts.py", "bucket counts of small sets (the exact search's hot "
                         "loop in normal mode)"),
    "default-tree": Case("bench_default_tree.py", "`default` strategy: ms per whole tree, both modes "
                         "(<= 60 ms normal, <= 100 ms hard)", pairs_old=True),
    "play-order": Case("bench_play_order.py", "a play worker's `default` trees over consecutive openers: "
                       "CPU-ms per tree", pairs_old=True),
    # --- exact search and hard mode -----------------------------------------------------
    "exact-sample": Case("bench_exact_sample.py", "exact proofs of a seeded 40-opener sample, both modes: "
                         "CPU-s per opener (normal <= 1.7, hard <= 3.4)", pairs_old=True),
    "exact": Case("bench_exact.py", "exact optimum per named opener, both modes, with each proof's time"),
    "exact-answers": Case("bench_exact_answers.py", "the restricted case: the best opener, proven, when "
                          "only answers may be guessed"),
    "exact-default": Case("bench_exact_default.py", "the `default` strategy's trees per second and totals "
                          "against greedy entropy"),
    "rank-cut": Case("bench_rank_cut.py", "cut-off proofs of `optimal --rank`: two-level bucket bounds "
                     "vs 2m - 1"),
    "hard-verdicts": Case("bench_hard_verdicts.py", "exact hard-mode verdicts: CPU-s per opener "
                          "(all 12,972 in <= 20 min on 2 cores)", pairs_old=True),
    "hard-named": Case("bench_hard_named.py", "exact hard-mode verdicts of the named openers, each on a "
                       "cold memo"),
    "hard-openers": Case("bench_hard_openers.py", "every (or a sample of) opener's hard-mode verdict over "
                         "worker processes", args=("--sample", "60")),
    "hard-spotcheck": Case("bench_hard_spotcheck.py", "hard-mode verdicts checked by an independent, "
                           "slower method", kind="check"),
    "hard-collision": Case("bench_hard_collision.py", "the hard-mode runs of \"Winning Wordle's Hard "
                           "Mode\", replayed with the collision breaker", kind="published"),
    "kt-eliminated": Case("bench_eliminated.py", "the avg-eliminated family on nyt14855-all (published: "
                          "\"Wordle Solver KT\", 91.5% within 6 from LARES)", kind="published"),
    "prior": Case("bench_prior.py", "the frequency prior's effect on nyt14855-all, counted unweighted "
                  "and by frequency (the setting of \"Wordle Solver KT\")", kind="published"),
    "multiboard": Case("bench_multiboard.py", "Dordle, Quordle, Octordle: mean guesses and failure rate "
                       "over 1,000 seeded games"),
    "variant-openers": Case("bench_variant_openers.py", "the best openers of Primel and Nerdle, found "
                            "with the engine"),
    "tree-totals": Case("tree_totals.py", "whole-tree totals of 120 trees (20 openers x entropy, minimax, "
                        "default x both modes): with --compare, every tree must be the same",
                        kind="check", same_output=True, args=("--modes", "normal,hard")),
    # --- pipelines, outputs and the solver -----------------------------------------------
    "pipeline": Case("bench_pipeline.py", "throughput of the `games` pipeline (the full fan-out) on a "
                     "sample of openers"),
    "dask-scaling": Case("bench_dask_scaling.py", "the `games` pipeline on a local Dask cluster of 1 and "
                         "2 workers (100 nyt2023 openers): games/s, CPU-s per opener, implied N-worker "
                         "speed-up, the complete analysis in vCPU-hours"),
    "full": Case("bench_full.py", "configs/full.yaml on a random slice of openers, extrapolated to all "
                 "12,972", args=("--openers", "40")),
    "resume": Case("bench_resume.py", "kill -9 a run at half its play shards, resume, compare bytes",
                   kind="check"),
    "sink-memory": Case("bench_sink_memory.py", "the table-writing stage's worker memory on a finished "
                        "run's records (needs --from DIR)", pairs_old=True),
    "report-html": Case("bench_report_html.py", "the HTML report at full size: every opener x several "
                        "strategies x both modes"),
    "assist-transcripts": Case("assist_transcripts.py", "scripted `assist` games through a pipe: every "
                               "prompt answered, every game won", kind="check"),
    "results": Case("results.py", "docs/results.md measured again: rewrites its blocks (`-- --check`: "
                    "the exact figures only, nothing written)", kind="tool"),
    "function-sizes": Case("function_sizes.py", "the longest functions and the largest parameter "
                           "counts of wordle_core and pipelines (read from the source)", kind="tool"),
    "compare-runs": Case("compare_runs.py", "two finished runs of one config side by side (needs OLD "
                         "and NEW output folders)", kind="tool"),
}


def case_lines() -> list[str]:
    """One line per case: name, kind, whether --compare pairs it, summary."""
    width = max(map(len, CASES))
    return [f"{name:<{width}}  {c.kind:<9}  {'paired' if c.pairs_old else '      '}  {c.summary}"
            for name, c in CASES.items()]


def _run(root: Path, case: Case, extra: list[str], capture: bool) -> subprocess.CompletedProcess[str]:
    """The case's script run under ``root`` (its own wordle_core on PYTHONPATH)."""
    env = dict(os.environ, PYTHONPATH=str(root), **{SIDE_ROOT: str(root)})
    cmd = [sys.executable, str(HERE / case.script), *case.args, *extra]
    return subprocess.run(cmd, env=env, cwd=str(root), text=True,
                          stdout=subprocess.PIPE if capture else None)


def run_case(name: str, extra: list[str], old: Path | None) -> int:
    case = CASES[name]
    print(f"== {name}: {case.summary}", flush=True)
    if old is None:
        return _run(ROOT, case, extra, capture=False).returncode
    if case.pairs_old:
        return _run(ROOT, case, ["--old", str(old), *extra], capture=False).returncode
    rc, outs = 0, []
    for side, root in (("old", old), ("new", ROOT)):
        print(f"-- {side} ({root})", flush=True)
        proc = _run(root, case, extra, capture=True)
        sys.stdout.write(proc.stdout)
        outs.append(proc.stdout)
        rc = rc or proc.returncode
    if case.same_output and outs[0] != outs[1]:
        print(f"{name}: the two sides printed different output", file=sys.stderr)
        return 1
    return rc


def _worktree(rev: str, where: str) -> Path:
    path = Path(where) / "old"
    proc = subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(path), rev],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"harness: cannot check out {rev!r}: {proc.stderr.strip().splitlines()[-1]}")
    return path


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    extra: list[str] = []
    if "--" in argv:
        at = argv.index("--")
        argv, extra = argv[:at], argv[at + 1:]
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("cases", nargs="*", metavar="CASE", help="case names (see --list)")
    ap.add_argument("--list", action="store_true", help="print the cases and exit")
    ap.add_argument("--compare", metavar="REV", help="measure git revision REV (old) against this tree (new)")
    args = ap.parse_args(argv)
    if args.list or not args.cases:
        print("\n".join(case_lines()))
        return 0
    unknown = [c for c in args.cases if c not in CASES]
    if unknown:
        print(f"harness: unknown case {unknown[0]!r}; --list shows the cases", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="wordle-lab-bench-") as tmp:
        old = _worktree(args.compare, tmp) if args.compare else None
        try:
            rc = 0
            for name in args.cases:
                rc = run_case(name, extra, old) or rc
            return rc
        finally:
            if old is not None:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(old)],
                               capture_output=True)


if __name__ == "__main__":
    sys.exit(main())
