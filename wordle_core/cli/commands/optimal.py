"""``optimal``: prove the fewest total guesses for an opener (normal or hard mode).

Examples::

    wordle-lab optimal --opener salet --json
    wordle-lab optimal --opener salet --hard --save-tree salet-hard.json
    wordle-lab optimal --opener salet,crane,trace --guesses answers
    wordle-lab optimal --top 10 --json          # the 10 best openers by entropy
    wordle-lab optimal --best --guesses answers # prove the best opener
    wordle-lab optimal --rank 100 [--hard] --output outputs/rank   # the 100 best, proven

``--guesses`` takes ``all`` (every allowed guess, the default), ``answers`` (only words
that may be answers) or a FILE (a custom guess list, with ``--answers FILE``).
"""

from __future__ import annotations

import argparse
import sys

from wordle_core import api
from wordle_core.cli.common import (
    add_hard_arg,
    add_json_arg,
    check_output_file,
    matrix_for,
    print_json,
    word_list_arg,
)
from wordle_core.errors import WordleError
from wordle_core.game.lexicon import BUILTINS, DEFAULT_LEXICON, Lexicon, resolve_lexicon

POOLS = ("all", "answers")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("optimal", help="prove the best total guesses for an opener (exact search)")
    p.add_argument("--lexicon", default=DEFAULT_LEXICON,
                   help=f"built-in game ({', '.join(BUILTINS)}); default {DEFAULT_LEXICON}")
    p.add_argument("--answers", metavar="FILE", help="custom answer list (one word per line)")
    p.add_argument("--guesses", default="all", metavar="all|answers|FILE",
                   help="guesses the search may use: all (default), answers only, "
                        "or a custom guess-list FILE (with --answers)")
    p.add_argument("--opener", type=word_list_arg, help="first guess; several separated by commas")
    p.add_argument("--top", type=int, metavar="N",
                   help="instead of --opener: the N best openers by entropy")
    p.add_argument("--rank", type=int, metavar="K",
                   help="instead of --opener: the K best openers with exact totals and a proof "
                        "(exact total or lower bound) that every other opener is worse; writes "
                        "optimal_rank.avro + .csv under --output")
    p.add_argument("--output", metavar="DIR", default=None,
                   help="with --rank: directory for optimal_rank-<lexicon>-<mode>.avro/.csv "
                        "(default outputs/rank)")
    p.add_argument("--resume", action="store_true",
                   help="with --rank: go on from the journal an interrupted run left under "
                        "--output (every finished search is kept)")
    p.add_argument("--best", action="store_true",
                   help="instead of --opener: prove the best opener of all (practical with "
                        "--guesses answers)")
    add_hard_arg(p)
    p.add_argument("--max-guesses", type=int, metavar="N",
                   help="guess limit (default: the lexicon's, 6 for Wordle)")
    p.add_argument("--save-tree", metavar="FILE",
                   help="write the optimal tree as JSON (one opener; `simulate --tree` replays it)")
    add_json_arg(p)
    p.set_defaults(func=cmd_optimal)


def cmd_optimal(args: argparse.Namespace) -> int:
    pool = args.guesses if args.guesses in POOLS else "all"
    custom_guesses = None if args.guesses in POOLS else args.guesses
    check_output_file(args.save_tree, "--save-tree")
    lex = resolve_lexicon(args.lexicon, args.answers, custom_guesses)
    if args.max_guesses is not None and not 1 <= args.max_guesses <= 30:
        raise WordleError("--max-guesses must be between 1 and 30")
    if args.resume and args.rank is None:
        raise WordleError("--resume goes with --rank")
    if args.rank is not None:
        return _rank(args, lex, pool)
    if args.best:
        return _best(args, lex, pool)
    if args.top is not None:
        if args.opener:
            raise WordleError("give --opener or --top, not both")
        if args.top < 1:
            raise WordleError("--top must be at least 1")
        if args.top > len(lex.guesses):
            raise WordleError(f"--top must be at most {len(lex.guesses):,} (the {lex.name} openers)")
        openers = api.top_openers(args.top, lex, by="entropy")
    elif args.opener:
        openers = [lex.normalise(w) for w in args.opener.split(",") if w.strip()]
    else:
        raise WordleError("give --opener WORD[,WORD...] or --top N")
    if pool == "answers":
        bad = next((w for w in openers if not lex.guess_is_answer[lex.guess_index[w]]), None)
        if bad:
            raise WordleError(f"{bad!r} is not a possible answer, but --guesses answers was given")
    if args.save_tree and len(openers) != 1:
        raise WordleError("--save-tree needs exactly one opener")
    results = []
    for found in api.optimal_openers(openers, lex, args.hard, pool=pool, max_guesses=args.max_guesses,
                                     with_tree=bool(args.save_tree), progress=True):
        if found.tree is not None:
            found.tree.save_json(args.save_tree)
        results.append(found.to_dict())
        if not args.json:
            _print_line(found)
    if args.json:
        print_json(results[0] if len(results) == 1 else results)
    return 0


def _print_line(o: api.Optimum) -> None:
    mode = "hard" if o.hard else "normal"
    if o.total is None or o.mean is None:
        print(f"{o.opener.upper()}  {o.lexicon} {mode}: no strategy wins every game within "
              f"{o.guess_limit} (proven, {o.seconds:.2f} s)")
        return
    print(f"{o.opener.upper()}  {o.lexicon} {mode}, guesses {o.pool}: "
          f"total {o.total:,}  mean {o.mean:.4f}  "
          f"{'proven optimal' if o.proven else 'upper bound'}  ({o.seconds:.2f} s)")
    sys.stdout.flush()


def _best(args: argparse.Namespace, lex: Lexicon, pool: str) -> int:
    if args.opener or args.top is not None or args.save_tree:
        raise WordleError("--best takes no --opener, --top or --save-tree")
    res = api.best_opener(lex, args.hard, pool=pool, max_guesses=args.max_guesses, progress=True)
    if args.json:
        print_json(res.to_dict())
        return 0
    if res.total is None:
        print(f"{lex.name}: no opener wins every game within the limit (proven)")
        return 0
    mode = "hard" if args.hard else "normal"
    print(f"{lex.name} {mode}, guesses {pool}: best opener {', '.join(w.upper() for w in res.best)} "
          f"total {res.total:,} mean {res.total / len(lex.answers):.4f} (proven; {res.searched} of "
          f"{res.openers} openers searched, {res.seconds:.1f} s)")
    return 0


def _rank(args: argparse.Namespace, lex: Lexicon, pool: str) -> int:
    from pathlib import Path

    from wordle_core.search.exact import INF, ExactSolver, rank_openers
    from wordle_core.tables.exact import rank_metadata, rank_records, write_rank
    from wordle_core.tables.rank_journal import (
        RankJournal,
        SavedRanking,
        ranking_identity,
        read_rank_journal,
    )
    from wordle_core.tables.verdicts import shipped_verdicts

    if args.opener or args.top is not None or args.best or args.save_tree:
        raise WordleError("--rank takes no --opener, --top, --best or --save-tree")
    if args.rank < 1:
        raise WordleError("--rank must be at least 1")
    if args.rank > len(lex.guesses):
        raise WordleError(f"--rank must be at most {len(lex.guesses):,} (the {lex.name} openers)")
    out = Path(args.output or "outputs/rank")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WordleError(f"cannot create {out}: {exc.strerror or exc}") from None
    mode = "hard" if args.hard else "normal"
    solver = ExactSolver(lex, hard=args.hard, pool=pool, exact=True,
                         max_guesses=args.max_guesses, matrix=matrix_for(lex),
                         memo_limit=2_000_000)
    no_win: frozenset[int] = frozenset()
    if args.hard and pool == "all" and not args.max_guesses:  # the shipped verdicts hold
        infeasible = {w for w, v in shipped_verdicts(lex).items() if v == "infeasible"}
        no_win = frozenset(lex.guess_index[w] for w in infeasible)
    stem = out / f"optimal_rank-{lex.name}-{mode}"
    journal_path = Path(f"{stem}.journal.jsonl")
    identity = ranking_identity(lex, mode, pool, args.rank, args.max_guesses)
    if journal_path.exists() and not args.resume:
        raise WordleError(f"{journal_path} holds an unfinished run: add --resume to go on, "
                          "or remove it to start over")
    saved = (read_rank_journal(journal_path, identity) if journal_path.exists()
             else SavedRanking({}, None))
    if saved.searched or saved.bounds:
        print(f"resuming: {len(saved.searched):,} searches"
              f"{' and the bounds' if saved.bounds else ''} from {journal_path}", file=sys.stderr)
    journal = (RankJournal.append_to(journal_path) if journal_path.exists()
               else RankJournal.create(journal_path, identity))
    with journal:
        res = rank_openers(solver, args.rank, progress=True, no_win=no_win,
                           searched=saved.searched, on_searched=journal.add,
                           bounds=saved.bounds, on_bounds=journal.add_bounds,
                           verdicts_first=args.hard and not no_win)
    recs = rank_records(res, lex.name, mode, pool)
    command = f"wordle-lab optimal --lexicon {lex.name} --rank {args.rank}" + \
        (" --hard" if args.hard else "") + (f" --guesses {pool}" if pool != "all" else "")
    write_rank(recs, f"{stem}.avro", f"{stem}.csv", rank_metadata(res, lex, mode, command))
    journal_path.unlink()  # the tables hold every search now
    n_exact = sum(1 for r in recs if r["proof"] == "exact")
    n_none = sum(1 for r in recs if r["proof"] == "no-win")
    summary = {"lexicon": lex.name, "mode": mode, "guess_pool": pool, "k": res.k,
               "kth_total": res.kth_total if res.kth_total < INF else None,
               "openers": len(recs), "exact": n_exact, "no_win": n_none,
               "by_bound": len(recs) - n_exact - n_none,
               "seconds": round(res.seconds, 1), "cpu_seconds": round(res.cpu_seconds, 1),
               "top": [{"rank": o.rank, "opener": o.opener, "total": o.total} for o in res.top],
               "files": [f"{stem}.avro", f"{stem}.csv"]}
    if args.json:
        print_json(summary)
        return 0
    print(f"{lex.name} {mode}, guesses {pool}: the {res.k} best openers, proven "
          f"({n_exact} exact totals, {len(recs) - n_exact - n_none} openers worse by a lower bound"
          f"{f', {n_none} without a guaranteed win' if n_none else ''}; "
          f"{res.cpu_seconds:.0f} CPU-s)")
    for o in res.top[:10]:
        print(f"  {o.rank:>3}. {o.opener.upper()}  {o.total:,}  mean {o.lower_bound / res.n_answers:.4f}")
    if res.kth_total < INF:
        print(f"  {res.k}th: {res.kth_total:,}; every other opener is proven worse (or tied "
              f"and later alphabetically)")
    print(f"  -> {stem}.avro, {stem}.csv")
    return 0
