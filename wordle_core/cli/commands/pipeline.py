"""Pipeline commands: ``pipeline {scores,games,hard,trees}``, ``run``, ``report``, ``rank``.

``pipeline`` and ``run`` hand their whole argument list to the pipeline's own
``run(argv)`` (:mod:`pipelines.scores` ..., :mod:`pipelines.analysis` for ``run``),
because every flag we do not know belongs to Apache Beam; those sub-parsers therefore
treat ``--flags`` as plain words (``prefix_chars='+'``) and ``--help`` is answered by the pipeline's parser.
"""

from __future__ import annotations

import argparse

PIPELINES = ("scores", "games", "hard", "trees")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("pipeline", help="run one Beam pipeline: scores, games, hard or trees "
                       "(`wordle-lab pipeline scores --help`)", prefix_chars="+", add_help=False)
    p.add_argument("name", choices=PIPELINES, metavar="{scores,games,hard,trees}")
    p.add_argument("args", nargs="*")
    p.set_defaults(func=cmd_pipeline)

    p = sub.add_parser("run", help="the main job: pipelines then report (`wordle-lab run --help`)",
                       prefix_chars="+", add_help=False)
    p.add_argument("args", nargs="*")
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("report", help="CSV rankings and PNG plots from the pipelines' Avro tables")
    p.add_argument("--input", required=True, metavar="DIR", help="output directory of the pipelines")
    p.add_argument("--output", metavar="DIR", help="where to write the report (default INPUT/report)")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("rank", help="print the opener ranking from a report's rankings.csv, "
                                     "or the shipped proven ranking / exact table")
    p.add_argument("--report", default="outputs/default/report", metavar="DIR",
                   help="report directory (default outputs/default/report)")
    p.add_argument("--by", default="mean", choices=["mean", "win3", "win6", "max", "failures"])
    p.add_argument("--top", type=int, default=10)
    p.add_argument("--strategy", help="strategy (default: the first in the file)")
    p.add_argument("--mode", choices=["normal", "hard"], help="mode (default normal)")
    p.add_argument("--lexicon", help="lexicon (default: the first in the file; with --proven or --exact: the "
                        "default game, nyt2023)")
    p.add_argument("--proven", action="store_true",
                   help="print the proven ranking shipped with the package (exact totals over "
                        "every allowed guess, from `optimal --rank`) instead of a report's")
    p.add_argument("--exact", action="store_true",
                   help="rank every opener by its exact total, from the exact table shipped with "
                        "the package (ties share a rank, then alphabetical)")
    p.add_argument("--worst", action="store_true", help="with --exact: the --top worst openers instead")
    p.add_argument("--opener", metavar="WORD", help="with --exact: where this opener stands")
    p.add_argument("--json", action="store_true",
                   help="machine-readable: a JSON list of objects with rank, opener, total "
                        "(null where no guaranteed win), mean (and proof with --proven)")
    p.set_defaults(func=cmd_rank)


def _preflight(argv: list[str]) -> None:
    """A ``--dask_client_address`` that does not answer is one line within seconds, checked
    before the pipeline modules (and so Beam) are imported."""
    from pipelines.orchestration.cloud import check_dask_scheduler

    check_dask_scheduler(argv)


def cmd_pipeline(args: argparse.Namespace) -> int:
    _preflight(args.args)
    from pipelines import games, hard, scores, trees

    return {"scores": scores.run, "games": games.run, "hard": hard.run,
            "trees": trees.run}[args.name](args.args)


def cmd_run(args: argparse.Namespace) -> int:
    _preflight(args.args)
    from pipelines import analysis

    return analysis.run(args.args)


def cmd_report(args: argparse.Namespace) -> int:
    from pipelines import report

    return report.run(["--input", args.input, *(["--output", args.output] if args.output else [])])


def cmd_rank(args: argparse.Namespace) -> int:
    from pipelines.report import ReportError, format_top, top_table

    if args.top < 1:
        raise ReportError("--top must be at least 1")
    if (args.worst or args.opener) and not args.exact:
        raise ReportError("--worst and --opener go with --exact")
    if args.exact:
        return _exact(args)
    if args.proven:
        return _proven(args)
    g, key = top_table(args.report, args.by, args.top, args.strategy, args.mode, args.lexicon)
    if args.json:
        from wordle_core.cli.common import print_json

        print_json([_report_row(r, key, args.by) for _, r in g.iterrows()])
        return 0
    print(format_top(g, key, args.by))
    return 0


def _report_row(r, key: tuple[str, str, str], by: str) -> dict[str, object]:
    """One row of a report's ranking as JSON: ``total`` is the strategy's total guesses,
    null when it loses a game (no guaranteed win)."""
    failures = int(r["failures"])
    return {"rank": int(r[f"rank_{by}"]), "opener": r["opener"],
            "total": None if failures else int(r["total_guesses"]),
            "mean": float(r["mean_guesses"]), "win3_pct": float(r["win3_pct"]),
            "win6_pct": float(r["win6_pct"]), "max_guesses": int(r["max_guesses"]),
            "failures": failures, "lexicon": key[0], "strategy": key[1], "mode": key[2]}


def _proven(args: argparse.Namespace) -> int:
    from wordle_core import api
    from wordle_core.errors import WordleError
    from wordle_core.game.lexicon import DEFAULT_LEXICON, load_lexicon

    if args.by != "mean" or args.strategy:
        raise WordleError("--proven ranks by the exact total only (no --by or --strategy)")
    lex = load_lexicon(args.lexicon or DEFAULT_LEXICON)
    mode = args.mode or "normal"
    ranking = api.proven_ranking(lex, hard=mode == "hard")
    top = ranking[:args.top]
    if args.json:
        from wordle_core.cli.common import print_json

        print_json([r.to_dict() for r in top])
        return 0
    proof = api.ranking_proof(lex, hard=mode == "hard")
    print(f"{lex.name} · {mode} mode — the {len(top)} best of {proof.openers:,} openers, proven "
          f"(exact totals over {len(lex.answers):,} answers)")
    print(f"{'rank':>4}  {'opener':<8} {'total':>6} {'mean':>7}")
    for r in top:
        total, mean = (("no win", "-") if r.total is None
                       else (f"{r.total}", f"{r.total / len(lex.answers):.4f}"))
        print(f"{r.rank:>4}  {r.opener:<8} {total:>6} {mean:>7}")
    others = proof.openers - len(ranking)
    k = proof.k
    shown = f"the best {len(top)} of the proven top {k}" if len(top) < len(ranking) else f"the proven top {k}"
    print(f"{shown}; the {k}th total is {proof.kth_total}, and the {others:,} openers "
          f"outside the top {k} are proven worse ({proof.cpu_seconds / 60:.0f} CPU-min, "
          f"{proof.collected_at})")
    return 0


def _exact(args: argparse.Namespace) -> int:
    from wordle_core import api
    from wordle_core.errors import WordleError
    from wordle_core.game.lexicon import DEFAULT_LEXICON, load_lexicon

    if args.proven or args.by != "mean" or args.strategy:
        raise WordleError("--exact ranks by the exact total only (no --proven, --by or --strategy)")
    lex = load_lexicon(args.lexicon or DEFAULT_LEXICON)
    mode = args.mode or "normal"
    word = lex.normalise(args.opener) if args.opener else None  # (one line if not a guess)
    places = api.exact_ranking(lex, hard=mode == "hard")
    tie = ""
    if word:
        rows = [p for p in places if p.opener == word]
    elif args.worst:
        last = [p for p in places if p.total == places[-1].total] if places else []  # tied for last
        rows = places[-args.top:]
        if len(last) > args.top:
            what = "no guaranteed win" if last[0].total is None else f"total {last[0].total:,}"
            tie = f"{len(last):,} openers tie for last place ({what}); the first {args.top} alphabetically:"
            rows = last[:args.top]
    else:
        rows = places[:args.top]
    if args.json:
        from wordle_core.cli.common import print_json

        print_json([r.to_dict() for r in rows])
        return 0
    n_all = len(lex.guesses)
    left = n_all - len(places)
    print(f"{lex.name} · {mode} mode — exact totals of {len(places):,} of {n_all:,} openers"
          + (f" ({left:,} not computed yet)" if left else "")
          + f"; mean = total / {len(lex.answers):,} answers")
    if word and not rows:
        print(f"{word}: not computed yet")
        return 0
    if tie:
        print(tie)
    print(f"{'rank':>6}  {'opener':<8} {'total':>7} {'mean':>7}")
    for r in rows:
        total, mean = (f"{r.total}", f"{r.mean:.4f}") if r.total is not None else ("no win", "-")
        print(f"{r.rank:>6}  {r.opener:<8} {total:>7} {mean:>7}")
    return 0
