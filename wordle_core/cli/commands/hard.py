"""``hard-verdict``: can an opener guarantee a hard-mode win? (exact AND-OR search)."""

from __future__ import annotations

import argparse
import json

from wordle_core import api
from wordle_core.cli.common import (
    add_json_arg,
    add_lexicon_args,
    check_output_file,
    lexicon_from,
    print_json,
    word_arg,
)
from wordle_core.errors import WordleError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "hard-verdict",
        help="prove whether an opener can guarantee a hard-mode win (feasible/infeasible/unknown)",
    )
    add_lexicon_args(p)
    p.add_argument("--opener", required=True, action="append", type=word_arg,
                   help="first guess (repeat for several openers)")
    p.add_argument("--budget", type=int, default=None,
                   help="OR nodes per opener before the verdict is 'unknown', for a quick partial "
                        "answer (default: no budget, the search always decides)")
    p.add_argument("--witness", metavar="FILE",
                   help="write the winning hard-mode tree as JSON (one opener, feasible only); "
                        "replay it with `simulate --hard --tree FILE`")
    p.add_argument("--search", action="store_true",
                   help="always run the exact search, even for an opener the shipped table of "
                        "every opener's verdict answers (wordle_core/data/hard)")
    add_json_arg(p)
    p.set_defaults(func=cmd_hard_verdict)


def cmd_hard_verdict(args: argparse.Namespace) -> int:
    check_output_file(args.witness, "--witness")
    lex = lexicon_from(args)
    budget = args.budget
    if budget is not None and budget < 1:
        raise WordleError("--budget must be a positive number of nodes")
    if args.witness and len(args.opener) != 1:
        raise WordleError("--witness takes exactly one --opener")
    words = [lex.guesses[lex.guess_id(w)] for w in args.opener]  # validates every word first
    results: list[api.HardVerdict] = []
    for word in words:
        res = api.hard_verdict(word, lex, budget=budget, search=args.search, witness=bool(args.witness),
                               progress=True)
        if args.witness:
            if res.witness is None:
                raise WordleError(f"no witness: {res.opener} is {res.verdict} in hard mode")
            from pathlib import Path

            from wordle_core.files import atomic_write_text

            atomic_write_text(Path(args.witness), json.dumps(res.witness, indent=1))
        results.append(res)
    if args.json:
        dicts = [r.to_dict() for r in results]
        print_json(dicts[0] if len(dicts) == 1 else dicts)
        return 0
    for r in results:
        how = ("shipped table (--search to prove it again)" if r.source != "search"
               else f"{r.seconds:>8.3f} s  {r.nodes:>9,} nodes")
        print(f"{r.opener.upper():<8} {r.verdict:<10} {how}")
    return 0
