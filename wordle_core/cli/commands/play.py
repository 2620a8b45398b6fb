"""Solver commands: ``suggest``, ``assist``, ``play`` (``--evil``) and ``evil-solve``.

The interactive commands are thin loops around the pure sessions of
:mod:`wordle_core.interactive.session`: read a line (terminal or pipe), hand it over, print what
comes back. On a pipe the typed line is echoed after the prompt, so a scripted run
reads like the terminal screen.
"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from wordle_core import api
from wordle_core.cli.commands.analyses import add_boards_arg, run_boards
from wordle_core.cli.common import (
    DEFAULT_STRATEGY,
    SEED,
    add_hard_arg,
    add_json_arg,
    add_lexicon_args,
    found_opener_scores,
    lexicon_from,
    print_json,
    render,
    strategy_tables,
    use_colour,
    word_arg,
)
from wordle_core.errors import WordleError
from wordle_core.game.lexicon import Lexicon

if TYPE_CHECKING:
    from wordle_core.game.tree import Tree
    from wordle_core.search.openers import OpenerScores


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("suggest", help="ranked next guesses for a position, with their numbers")
    p.add_argument("--history", default="", help="guesses so far, e.g. salet:bybgb,crane:bbgbb")
    add_lexicon_args(p)
    _add_strategy(p)
    add_hard_arg(p)
    p.add_argument("--top", type=_positive_int, default=5, help="how many guesses to list (default 5)")
    _add_tree_args(p)
    add_json_arg(p)
    p.set_defaults(func=cmd_suggest)

    p = sub.add_parser("assist", help="interactive helper for a real game: type the colours you got")
    add_lexicon_args(p)
    _add_strategy(p)
    add_hard_arg(p)
    p.add_argument("--top", type=_positive_int, default=3, help="guesses proposed per turn (default 3)")
    _add_tree_args(p)
    add_boards_arg(p)
    p.set_defaults(func=cmd_assist)

    p = sub.add_parser("play", help="play a game in the terminal (--evil: against the evil host)")
    add_lexicon_args(p)
    add_hard_arg(p)
    who = p.add_mutually_exclusive_group()
    who.add_argument("--answer", type=word_arg, metavar="WORD",
                     help="the hidden answer (for practice or tests)")
    who.add_argument("--seed", type=SEED, help="pick the answer reproducibly from this seed")
    who.add_argument("--evil", action="store_true",
                     help="the adversarial host: never commits, keeps the most words each turn")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("evil-solve", help="the proven-shortest guess sequence that beats the evil host")
    add_lexicon_args(p)
    add_hard_arg(p)
    p.add_argument("--max-depth", type=_positive_int, default=12, help="give up beyond this many guesses")
    p.add_argument("--max-positions", type=_positive_int, default=2_000_000,
                   help="search budget: positions scored before giving up (default 2,000,000)")
    add_json_arg(p)
    p.set_defaults(func=cmd_evil_solve)


def _positive_int(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return n


def _add_strategy(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strategy", default=None,
                   help=f"who picks the guess (default: '{DEFAULT_STRATEGY}'); "
                        "see `wordle-lab strategies`")


def _add_tree_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--tree", metavar="FILE",
                   help="precomputed decision tree (pipeline trees table or simulate --save-tree JSON); "
                        "positions it covers are answered from it")
    p.add_argument("--opener", type=word_arg,
                   help="first guess to propose (default: the tree's, else salet or the "
                                    "best by entropy)")


def _tables(args: argparse.Namespace, lex: Lexicon, first: bool) -> OpenerScores | None:
    """The saved opener table (``pipeline scores``), read where the strategy reads it
    (``Strategy.tables``) or, with ``first``, for the first guess's numbers."""
    found = strategy_tables(args.strategy or DEFAULT_STRATEGY, lex).get("opener_scores")
    return found if found is not None or not first else found_opener_scores(lex)


def tree_from(args: argparse.Namespace, lex: Lexicon, opener: str | None) -> Tree | None:
    """The table's tree for ``opener``; a table without that opener is not an error.

    A table holds trees for some openers only. When the game opened with another word,
    the table is checked to be readable (a broken file still fails loudly) and the
    position is computed instead.
    """
    if not getattr(args, "tree", None):
        return None

    def load(op: str | None) -> Tree:
        return api.load_tree(args.tree, lex, strategy=args.strategy, hard=args.hard, opener=op)

    try:
        return load(opener)
    except WordleError as first:
        if opener is None or not _table_has_other_openers(args.tree, lex, args.hard, opener):
            raise first from None
        sys.stderr.write(f"note: the tree table has no tree opening with {opener.upper()}; computing\n")
        return None


def _table_has_other_openers(path: str, lex: Lexicon, hard: bool, opener: str) -> bool:
    """Does a readable tree source hold trees for this game, just not from ``opener``?"""
    from wordle_core.files import location
    from wordle_core.tables.load import read_avro_records, table_files

    p = location(path)
    if p.is_file() and p.suffix != ".avro":  # a JSON tree: one opener, any other is a miss
        return True
    mode = "hard" if hard else "normal"
    recs = read_avro_records(table_files(p, "trees"))  # an unreadable table raises its own clear error
    return any(r.get("lexicon") == lex.name and r.get("mode") == mode and r.get("opener") != opener
               for r in recs)


def _opener(args: argparse.Namespace, lex: Lexicon, tree: Tree | None) -> str:
    if args.opener:
        return lex.normalise(args.opener)
    if tree is not None:
        return lex.guesses[tree.opener]
    return api.default_opener(lex, args.hard)


# --- suggest ---------------------------------------------------------------------------
def cmd_suggest(args: argparse.Namespace) -> int:
    lex = lexicon_from(args)
    api.strategy_info(args.strategy or DEFAULT_STRATEGY)  # fail fast on an unknown name
    pos = api.Position(args.history, lexicon=lex, hard=args.hard)
    first = pos.history[0].guess if pos.history else args.opener
    tree = tree_from(args, lex, first)
    res = api.suggest(pos, args.strategy or DEFAULT_STRATEGY, args.top, tree=tree,
                      opener=_opener(args, lex, tree), opener_scores=_tables(args, lex, pos.turn == 0))
    if args.json:
        print_json(res.to_dict())
        return 0
    mode = "hard" if res.hard else "normal"
    src = {"table": "from the tree table", "opener": "opener", "computed": f"computed by {res.strategy}",
           "solved": "solved"}[res.source]
    print(f"{res.lexicon} · {mode} mode · {len(res.history)} played · "
          f"{res.remaining:,} candidate{'s' if res.remaining != 1 else ''} left · {src}")
    if res.source == "solved":
        print("solved: nothing left to guess")
        return 0
    if res.options:
        exact = any(o.optimal for o in res.options)  # first guess with shipped exact tables
        print(f"  {'#':>2}  {'guess':<{max(5, lex.length)}}  {'bits':>6}  {'exp.left':>8}  "
              f"{'largest':>7}  {'buckets':>7}  answer?" + ("  optimal total" if exact else ""))
        for i, o in enumerate(res.options, 1):
            mark = "*" if o.is_pick else " "
            worth = ""
            if exact:
                worth = {"proven": f"  {o.optimal_total or 0:,} (proven)", "no-win": "  no guaranteed win",
                         "wins": "  guaranteed win (total not computed yet)",
                         "unknown": "  not computed yet"}.get(o.optimal, "")
            answer = "yes" if o.is_candidate else "no"
            if exact:
                answer = f"{answer:<7}"
            print(f"  {i:>2}{mark} {o.word.upper():<{max(5, lex.length)}}  {o.entropy_bits:>6.3f}  "
                  f"{o.expected_size:>8.2f}  {o.largest_bucket:>7}  {o.buckets:>7}  "
                  f"{answer}{worth}")
    if res.candidates:
        print("candidates:", " ".join(res.candidates))
    return 0


# --- interactive loop --------------------------------------------------------------------
def run_loop(session, prompt: str = "> ") -> int:
    """Feed lines from stdin to ``session`` until it is done, input ends, or Ctrl-C."""
    colour = use_colour(sys.stdout)
    tty_in = sys.stdin.isatty()

    def show(reply) -> None:
        for out in reply.out:
            stream = sys.stderr if out.kind == "error" else sys.stdout
            stream.write(render(out, colour and stream is sys.stdout) + "\n")
            stream.flush()

    show(session.start())
    while True:
        try:
            if tty_in:
                line = input(prompt)
            else:
                sys.stdout.write(prompt)
                line = sys.stdin.readline()
                if not line:
                    sys.stdout.write("\n")
                    break
                line = line.rstrip("\n")
                sys.stdout.write(line + "\n")
                sys.stdout.flush()
        except EOFError:
            sys.stdout.write("\n")
            break
        except KeyboardInterrupt:
            sys.stdout.write("\n")
            return 130
        reply = session.handle(line)
        show(reply)
        if reply.done:
            break
    sys.stdout.flush()
    return 0


def cmd_assist(args: argparse.Namespace) -> int:
    if args.boards > 1:
        return run_boards("assist", args)
    lex = lexicon_from(args)
    api.strategy_info(args.strategy or DEFAULT_STRATEGY)  # fail fast on an unknown name
    opener = lex.normalise(args.opener) if args.opener else None
    tree = tree_from(args, lex, opener)
    session = api.assist_session(lex, args.strategy or DEFAULT_STRATEGY, args.hard, top=args.top, tree=tree,
                                 opener=_opener(args, lex, tree), opener_scores=_tables(args, lex, True))
    return run_loop(session)


def cmd_play(args: argparse.Namespace) -> int:
    lex = lexicon_from(args)
    hints = strategy_tables(api.HINT_STRATEGY, lex).get("opener_scores")
    return run_loop(api.play_session(lex, args.hard, answer=args.answer, seed=args.seed, evil=args.evil,
                                     opener_scores=hints))


# --- evil-solve -------------------------------------------------------------------------
def cmd_evil_solve(args: argparse.Namespace) -> int:
    lex = lexicon_from(args)
    res = api.evil_solve(lex, args.hard, max_depth=args.max_depth, max_positions=args.max_positions,
                         progress=sys.stderr.isatty())
    if args.json:
        print_json(res.to_dict())
        return 0
    mode = "hard" if args.hard else "normal"
    print(f"{lex.name} · {mode} mode · evil host (largest group, ties to the lowest pattern)")
    if res.length is None:
        print(f"no win found within the limits; proven: at least {res.proven_lower_bound} guesses needed")
    else:
        for i, (g, r) in enumerate(zip(res.guesses, res.replies, strict=True), 1):
            print(f"  {i}. {g.upper()}  {r}  {api.Feedback.parse(r, lex.length).emoji}")
        print(f"beaten in {res.length} guesses; proven optimal: no sequence of "
              f"{res.length - 1} guesses beats this host (exhaustive search below)")
    for d in res.depths:
        print(f"  depth {d['depth']}: {d['result']} ({d['positions']:,} positions, {d['seconds']} s)")
    return 0 if res.length is not None else 1

