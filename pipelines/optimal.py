"""Pipeline ``optimal``: proven optimal totals for many openers, ranked, as Avro.

Fans out over (opener, mode) pairs; each worker proves the exact optimum of its
opener with :mod:`wordle_core.search.exact` and, for comparison, builds the ``default``
(look-ahead) and greedy ``entropy`` trees from the same opener. One Avro file holds
every record; a CSV ranks the openers of each mode by proven total, next to the
greedy totals.

Self-contained on purpose (the shared options / sink modules were not on main when it
was written): options are parsed here, and the sink writes with fastavro to a
temporary name and renames, so a failed run never leaves a half-written table.

Run::

    python -m pipelines.optimal --lexicon wordle --openers salet,trace,crane \
        --modes normal,hard --output outputs/optimal
    python -m pipelines.optimal --top 20 --output outputs/optimal   # 20 best by entropy

Beam options (``--runner``, ``--direct_num_workers`` ...) pass through unchanged.
"""

from __future__ import annotations

import argparse
import csv
import io
import logging
import time
from collections.abc import Iterable
from pathlib import Path

import apache_beam as beam
import fastavro
from apache_beam.metrics import Metrics
from apache_beam.options.pipeline_options import PipelineOptions, SetupOptions

from .options import check_beam_args

SCHEMA = fastavro.parse_schema({
    "type": "record",
    "name": "OptimalValue",
    "namespace": "wordle_lab",
    "doc": "Proven minimal total guesses for one opener (issue 6), with greedy values",
    "fields": [
        {"name": "lexicon", "type": "string"},
        {"name": "mode", "type": "string"},
        {"name": "strategy", "type": "string"},
        {"name": "guessPool", "type": "string"},
        {"name": "opener", "type": "string"},
        {"name": "answers", "type": "int"},
        {"name": "total", "type": ["null", "long"], "doc": "null: no win within the limit"},
        {"name": "mean", "type": ["null", "double"]},
        {"name": "maxGuesses", "type": "int"},
        {"name": "proven", "type": "boolean"},
        {"name": "seconds", "type": "double"},
        {"name": "nodes", "type": "long"},
        {"name": "defaultTotal", "type": ["null", "long"]},
        {"name": "defaultMax", "type": ["null", "int"]},
        {"name": "greedyStrategy", "type": "string"},
        {"name": "greedyTotal", "type": ["null", "long"]},
        {"name": "greedyMax", "type": ["null", "int"]},
    ],
})


def lexicon_from(name: str, answers: str | None, guesses: str | None):
    from wordle_core.game.lexicon import resolve_lexicon

    return resolve_lexicon(name, answers, guesses)


class ProveOpenerFn(beam.DoFn):
    """(opener, mode) -> one OptimalValue record. Loads the lexicon and matrix once."""

    def __init__(self, lexicon: str, answers: str | None, guesses: str | None, pool: str,
                 max_guesses: int | None, greedy: str, compare: bool) -> None:
        self.args = (lexicon, answers, guesses)
        self.pool, self.max_guesses, self.greedy, self.compare = pool, max_guesses, greedy, compare
        self.proved = Metrics.counter("optimal", "openers_proved")
        self.seconds = Metrics.distribution("optimal", "proof_ms")

    def setup(self) -> None:
        from wordle_core.game.matrix import pattern_matrix

        self.lex = lexicon_from(*self.args)
        self.matrix = pattern_matrix(self.lex)
        self.solvers: dict[bool, object] = {}
        self.strategies: dict[str, object] = {}

    def process(self, element: tuple[str, str]) -> Iterable[dict[str, object]]:
        from wordle_core.game.tree import build_tree
        from wordle_core.search.exact import INF, ExactSolver, optimal_for_opener
        from wordle_core.strategies import get_strategy

        opener, mode = element
        hard = mode == "hard"
        solver = self.solvers.get(hard)
        if solver is None:  # one memo per mode: openers on a worker share positions
            solver = ExactSolver(self.lex, hard=hard, pool=self.pool, exact=True,
                                 max_guesses=self.max_guesses, matrix=self.matrix)
            self.solvers[hard] = solver
        res, _ = optimal_for_opener(self.lex, opener, hard=hard, pool=self.pool, solver=solver)
        rec: dict[str, object] = {
            "lexicon": self.lex.name, "mode": mode, "strategy": "optimal",
            "guessPool": self.pool, "opener": res.opener, "answers": res.n_answers,
            "total": res.total if res.total < INF else None,
            "mean": res.mean if res.total < INF else None,
            "maxGuesses": res.max_guesses, "proven": res.proven, "seconds": res.seconds,
            "nodes": res.stats["nodes"], "defaultTotal": None, "defaultMax": None,
            "greedyStrategy": self.greedy, "greedyTotal": None, "greedyMax": None,
        }
        if self.compare:
            for name, prefix in (("default", "default"), (self.greedy, "greedy")):
                key = f"{name}:{mode}"
                strat = self.strategies.get(key)
                if strat is None:
                    strat = get_strategy(name)
                    self.strategies[key] = strat
                tree = build_tree(strat, self.lex, opener, hard, self.matrix)
                lengths = tree.lengths()
                rec[f"{prefix}Total"] = int(lengths.sum())
                rec[f"{prefix}Max"] = int(lengths.max())
        self.proved.inc()
        self.seconds.update(int(res.seconds * 1000))
        logging.info("optimal %s %s: %s (%.2f s)", opener, mode, rec["total"], res.seconds)
        yield rec


class ProveOpeners(beam.PTransform):
    """PCollection of (opener, mode) -> PCollection of OptimalValue records."""

    def __init__(self, lexicon: str, answers: str | None = None, guesses: str | None = None,
                 pool: str = "all", max_guesses: int | None = None, greedy: str = "entropy",
                 compare: bool = True) -> None:
        super().__init__()
        self.fn = ProveOpenerFn(lexicon, answers, guesses, pool, max_guesses, greedy, compare)

    def expand(self, pairs):
        return pairs | "Spread" >> beam.Reshuffle() | "Prove" >> beam.ParDo(self.fn)


def ranking_rows(records: list[dict[str, object]]) -> list[dict[str, object]]:
    """Rank openers within each mode by proven total (impossible last; ties alphabetical)."""
    out = []
    for mode in sorted({str(r["mode"]) for r in records}):
        rs = [r for r in records if r["mode"] == mode]
        rs.sort(key=lambda r: (r["total"] is None, r["total"] or 0, r["opener"]))
        for i, r in enumerate(rs, 1):
            out.append({"mode": mode, "rank": i, "opener": r["opener"], "total": r["total"],
                        "mean": round(r["mean"], 4) if r["mean"] is not None else None,
                        "proven": r["proven"], "defaultTotal": r["defaultTotal"],
                        "defaultMax": r["defaultMax"], "greedyStrategy": r["greedyStrategy"],
                        "greedyTotal": r["greedyTotal"], "greedyMax": r["greedyMax"],
                        "seconds": round(float(r["seconds"]), 3)})
    return out


class WriteTables(beam.DoFn):
    """All records -> ``optimal.avro`` + ``optimal_ranking.csv``, each temp-then-rename."""

    def __init__(self, output: str) -> None:
        self.output = output

    def process(self, records: list[dict[str, object]]) -> Iterable[str]:
        from wordle_core.files import atomic_write_bytes, atomic_write_text

        recs = sorted(records, key=lambda r: (r["mode"], r["opener"]))
        buf = io.BytesIO()
        fastavro.writer(buf, SCHEMA, recs)
        out = Path(self.output)
        atomic_write_bytes(out / "optimal.avro", buf.getvalue())
        rows = ranking_rows(recs)
        text = io.StringIO()
        if rows:
            w = csv.DictWriter(text, fieldnames=list(rows[0]))
            w.writeheader()
            w.writerows(rows)
        atomic_write_text(out / "optimal_ranking.csv", text.getvalue())
        yield str(out / "optimal.avro")


def parse_args(argv: list[str] | None) -> tuple[argparse.Namespace, list[str]]:
    ap = argparse.ArgumentParser(prog="pipelines.optimal", description=__doc__.split("\n")[0])
    ap.add_argument("--lexicon", default="wordle")
    ap.add_argument("--answers", help="custom answer list FILE")
    ap.add_argument("--guesses", help="custom guess list FILE")
    ap.add_argument("--openers", help="comma-separated openers")
    ap.add_argument("--top", type=int, default=10, help="N best openers by entropy (without --openers)")
    ap.add_argument("--modes", default="normal,hard")
    ap.add_argument("--guess-pool", default="all", choices=["all", "answers"])
    ap.add_argument("--max-guesses", type=int)
    ap.add_argument("--greedy", default="entropy", help="greedy strategy to compare with")
    ap.add_argument("--no-compare", action="store_true", help="skip the default/greedy trees")
    ap.add_argument("--output", default="outputs/optimal")
    return ap.parse_known_args(argv)


def openers_for(args: argparse.Namespace) -> list[str]:
    """The openers to prove (validated here, so a typo fails before the pipeline starts)."""
    from wordle_core.errors import WordleError
    from wordle_core.search.openers import top_openers

    lex = lexicon_from(args.lexicon, args.answers, args.guesses)
    if args.openers:
        words = [lex.normalise(w) for w in args.openers.split(",") if w.strip()]
    else:
        words = top_openers(lex, args.top, by="entropy")
    if args.guess_pool == "answers":
        words = [w for w in words if lex.guess_is_answer[lex.guess_index[w]]]
    if not words:
        raise WordleError("no openers to prove")
    return words


def build(p: beam.Pipeline, args: argparse.Namespace, openers: list[str]):
    modes = [m for m in args.modes.split(",") if m]
    bad = [m for m in modes if m not in ("normal", "hard")]
    if bad or not modes:
        from wordle_core.errors import WordleError

        raise WordleError(f"--modes takes normal and/or hard, not {','.join(bad) or 'nothing'}")
    pairs = [(o, m) for m in modes for o in openers]
    return (
        p
        | "Openers" >> beam.Create(pairs)
        | "ProveOpeners" >> ProveOpeners(args.lexicon, args.answers, args.guesses, args.guess_pool,
                                         args.max_guesses, args.greedy, not args.no_compare)
        | "Gather" >> beam.combiners.ToList()
        | "Write" >> beam.ParDo(WriteTables(args.output))
    )


def run(argv: list[str] | None = None, save_main_session: bool = True) -> int:
    import sys

    from wordle_core.errors import WordleError

    args, beam_args = parse_args(argv)
    try:
        openers = openers_for(args)
        options = PipelineOptions(check_beam_args(beam_args))
        options.view_as(SetupOptions).save_main_session = save_main_session
        t0 = time.perf_counter()
        with beam.Pipeline(options=options) as p:
            build(p, args, openers)
    except WordleError as exc:
        sys.stderr.write(f"pipelines.optimal: error: {exc}\n")
        return 2
    logging.info("optimal: %d openers in %.1f s -> %s", len(openers), time.perf_counter() - t0,
                 args.output)
    return 0


if __name__ == "__main__":
    import sys

    logging.getLogger().setLevel(logging.INFO)
    sys.exit(run())
