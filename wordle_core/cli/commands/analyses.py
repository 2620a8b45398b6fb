"""Whole-game commands: ``review`` (a played game judged), ``tree`` (a strategy's decision
tree exported), the multi-board games ``multi-solve``, ``multi-simulate`` and
``multi-assist``, and ``prior-effect`` (a word-frequency prior's effect).

Multi-board versions of solve/simulate/assist live here as their own commands;
``--boards N`` on those commands dispatches to them (:func:`run_boards`).
"""

from __future__ import annotations

import argparse
import sys

from wordle_core import api
from wordle_core.cli.common import (
    BOARDS,
    DEFAULT_STRATEGY,
    GAMES,
    LIMIT,
    SEED,
    add_hard_arg,
    add_json_arg,
    add_lexicon_args,
    check_output_file,
    coloured_guess,
    lexicon_from,
    outputs_dir,
    print_histogram,
    print_json,
    strategy_tables,
    use_colour,
    word_arg,
)
from wordle_core.errors import WordleError
from wordle_core.files import atomic_write_text
from wordle_core.game.lexicon import Lexicon


def _strategy_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strategy", default=None,
                   help=f"strategy that gives the best guess (default: {DEFAULT_STRATEGY!r})")


def _prior_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--prior", choices=("uniform", "frequency"),
                   help="weight answers by a prior (entropy/expected-size become prior-*); default none")


def _opener_table(args: argparse.Namespace, lex: Lexicon):
    """The saved opener table where the strategy reads one (none with ``--prior``)."""
    if getattr(args, "prior", None):
        return None
    return strategy_tables(args.strategy or DEFAULT_STRATEGY, lex).get("opener_scores")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("review", help="review a played game guess by guess: skill and luck")
    p.add_argument("--history", required=True, help="the game, e.g. crane:bybby,pilot:bbbbb,rebus:ggggg")
    add_lexicon_args(p)
    _strategy_arg(p)
    add_hard_arg(p)
    add_json_arg(p)
    _prior_arg(p)
    p.set_defaults(func=cmd_review)

    p = sub.add_parser("tree", help="export a strategy's decision tree (dot, html, csv)")
    p.add_argument("--opener", type=word_arg, help="first guess (default: salet, or the best by entropy)")
    p.add_argument("--format", choices=("dot", "html", "csv"), default="html")
    p.add_argument("--output", "-o", metavar="FILE", help="write here (default: stdout)")
    p.add_argument("--table", metavar="PATH",
                   help="trees Avro table (file, directory or glob); default: outputs/ when present")
    p.add_argument("--no-table", action="store_true", help="always build the tree, ignore Avro tables")
    add_lexicon_args(p)
    _strategy_arg(p)
    add_hard_arg(p)
    _prior_arg(p)
    p.set_defaults(func=cmd_tree)

    p = sub.add_parser("multi-solve", help="play one multi-board game (Dordle, Quordle, Octordle)")
    p.add_argument("words", nargs="*", metavar="ANSWER", help="one answer per board (or --boards and --seed)")
    p.add_argument("--boards", type=BOARDS, help="number of boards when answers are drawn at random")
    p.add_argument("--seed", type=SEED, default=0, help="seed for random answers (default 0)")
    p.add_argument("--opener", type=word_arg, default="salet", help="first guess (default salet)")
    p.add_argument("--limit", type=LIMIT, help="guess limit (default boards + 5)")
    add_lexicon_args(p)
    add_json_arg(p)
    p.set_defaults(func=cmd_multi_solve)

    p = sub.add_parser("multi-simulate", help="seeded multi-board games: mean guesses, failure rate")
    p.add_argument("--boards", type=BOARDS, required=True, help="2 Dordle, 4 Quordle, 8 Octordle")
    p.add_argument("--games", type=GAMES, default=1000, help="number of games (default 1000)")
    p.add_argument("--seed", type=SEED, default=0, help="seed of the answer sets (default 0)")
    p.add_argument("--opener", type=word_arg, default="salet", help="first guess (default salet)")
    p.add_argument("--limit", type=LIMIT, help="guess limit (default boards + 5)")
    add_lexicon_args(p)
    add_json_arg(p)
    p.set_defaults(func=cmd_multi_simulate)

    p = sub.add_parser("multi-assist", help="next guess for a live multi-board game")
    p.add_argument("--boards", type=BOARDS, required=True)
    p.add_argument("--history", default="",
                   help="WORD:FB1/FB2/...,WORD:...; '-' for a board solved earlier")
    p.add_argument("--opener", type=word_arg, default="salet", help="suggested first guess (default salet)")
    p.add_argument("--interactive", "-i", action="store_true",
                   help="play along: after each suggestion, type 'WORD FB1 FB2 ...' (or just the "
                        "feedbacks for the suggested word); blank line or EOF stops")
    add_lexicon_args(p)
    add_json_arg(p)
    p.set_defaults(func=cmd_multi_assist)

    p = sub.add_parser("prior-effect",
                       help="share solved within the limit with and without a word-frequency prior")
    p.add_argument("--opener", type=word_arg,
                   help="first guess for both runs (default: each strategy's own choice)")
    p.add_argument("--strategy", default="entropy", choices=("entropy", "expected-size"),
                   help="partition score to weight (default entropy)")
    add_lexicon_args(p)
    add_hard_arg(p)
    add_json_arg(p)
    p.set_defaults(func=cmd_prior_effect, lexicon="nyt14855-all")


# --- review --------------------------------------------------------------------------------
def cmd_review(args: argparse.Namespace) -> int:
    lex = lexicon_from(args)
    review = api.review(args.history, args.strategy or DEFAULT_STRATEGY, lex, args.hard, prior=args.prior,
                        opener_scores=_opener_table(args, lex))
    print_json(review.to_dict()) if args.json else print(review)
    return 0


# --- tree ----------------------------------------------------------------------------------
def cmd_tree(args: argparse.Namespace) -> int:
    check_output_file(args.output, "--output")
    lex = lexicon_from(args)
    name, prior = args.strategy or DEFAULT_STRATEGY, args.prior
    strategy = api.strategy_info(name, prior=prior).name
    opener = lex.normalise(args.opener) if args.opener else api.default_opener(lex, args.hard)
    tree = None
    if not args.no_table:
        where = args.table if args.table else (outputs_dir() if outputs_dir().is_dir() else None)
        found = api.tree_from_table(where, strategy, opener, lex, args.hard)
        if args.table and not found.files:
            raise WordleError(f"no trees Avro files at {args.table!r}")
        tree = found.tree
        if tree is not None:
            sys.stderr.write(f"tree: read from the trees table ({len(found.files)} file(s))\n")
    if tree is None:
        sys.stderr.write(f"tree: building {strategy} from {opener.upper()} ...\n")
        tree = api.decision_tree(name, opener, lex, args.hard, prior=prior,
                                 opener_scores=_opener_table(args, lex))
    text = api.export_tree(tree, args.format)
    if args.output:
        atomic_write_text(args.output, text)
        sys.stderr.write(f"tree: wrote {args.output} ({len(tree.guess):,} positions)\n")
    else:
        sys.stdout.write(text)
    return 0


# --- multi-board ---------------------------------------------------------------------------
def cmd_multi_solve(args: argparse.Namespace) -> int:
    lex = lexicon_from(args)
    game = api.multi_solve(args.words, boards=args.boards, seed=args.seed, opener=args.opener,
                           limit=args.limit or None, lexicon=lex)
    if args.json:
        print_json(game.to_dict())
        return 0
    colour = use_colour(sys.stdout)
    for t, (w, fbs) in enumerate(zip(game.guesses, game.feedback, strict=True), 1):
        cells = ["·" * lex.length if f is None else f.emoji for f in fbs]
        first = next((f for f in fbs if f is not None), None)
        digits = list(first.digits) if first is not None else [0] * lex.length
        print(f"{t:>2}. {coloured_guess(w, digits, colour)}  {' '.join(cells)}")
    verdict = "won" if game.solved else "lost"
    print(f"{verdict}: {' '.join(a.upper() for a in game.answers)} in {game.length} "
          f"(limit {game.limit}); boards solved at {list(game.solved_at)}")
    return 0


def cmd_multi_simulate(args: argparse.Namespace) -> int:
    lex = lexicon_from(args)
    sim = api.multi_simulate(args.boards, args.games, seed=args.seed, opener=args.opener, limit=args.limit,
                             lexicon=lex, progress=sys.stderr.isatty() or args.games >= 200)
    if args.json:
        print_json(sim.to_dict())
        return 0
    print(f"{sim.lexicon} · {sim.boards} boards · {sim.strategy} · "
          f"opener {sim.opener.upper()} · {sim.games:,} games (seed {sim.seed})")
    print(f"mean {sim.mean_guesses:.4f} guesses  max {sim.max_guesses}  failures {sim.failures} "
          f"({100 * sim.failure_rate:.2f}% over {sim.limit})  {sim.seconds} s "
          f"({sim.ms_per_game} ms/game)")
    print_histogram(sim.guess_distribution)
    return 0


def cmd_multi_assist(args: argparse.Namespace) -> int:
    pos = api.MultiPosition(args.history, boards=args.boards, lexicon=lexicon_from(args))
    if args.interactive:
        return _multi_assist_loop(pos, args)
    return _multi_assist_print(pos.advice(args.opener), args)


def _parse_turn(line: str, suggested: str, pos: api.MultiPosition) -> tuple[str, str]:
    """One typed turn: ``[WORD] FB...`` with a feedback per board, or per unsolved board.

    The word is optional (default: the suggested one); it is there when the line has one
    token more than feedbacks are needed. Solved boards may be left out or given as ``-``.
    """
    parts = line.split()
    open_n = pos.solved.count(False)
    if len(parts) in (pos.boards + 1, open_n + 1):
        word, parts = parts[0], parts[1:]
    else:
        word = suggested
    if len(parts) == open_n != pos.boards:
        fill = iter(parts)
        parts = [next(fill) if not pos.solved[b] else "-" for b in range(pos.boards)]
    return word, "/".join(parts)


def _multi_assist_loop(pos: api.MultiPosition, args: argparse.Namespace) -> int:
    """Play along with a live game: suggestion, then read the colours, until all boards are solved."""
    while True:
        advice = pos.advice(args.opener)
        _multi_assist_print(advice, args)
        if advice.next is None:
            return 0
        sys.stdout.write("> ")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line.strip():
            return 0
        try:
            pos = pos.play(*_parse_turn(line, advice.next, pos))
        except WordleError as exc:  # a typo must not end a live game: say why, ask again
            sys.stderr.write(f"wordle-lab: error: {exc}\n")
            continue


def _multi_assist_print(advice: api.MultiAdvice, args: argparse.Namespace) -> int:
    if args.json:
        print_json(advice.to_dict())
        return 0
    for bd in advice.boards:
        status = "solved" if bd.solved else f"{bd.candidates:,} left: {' '.join(bd.sample)}" + \
            (" ..." if bd.candidates > 8 else "")
        print(f"board {bd.board}: {status}")
    print("all boards solved" if advice.next is None else f"next guess: {advice.next.upper()}")
    return 0


# --- prior ---------------------------------------------------------------------------------
def cmd_prior_effect(args: argparse.Namespace) -> int:
    effect = api.prior_effect(lexicon_from(args), args.strategy, args.opener, args.hard, progress=True)
    if args.json:
        print_json(effect.to_dict())
        return 0
    print(f"{effect.lexicon} · prior-{args.strategy} · {'hard' if args.hard else 'normal'} mode · "
          f"limit {effect.limit} · {effect.answers:,} answers")
    print(f"{'prior used by the solver':<26} {'opener':<8} {'mean':>7} {'solved (unweighted)':>20} "
          f"{'solved (by frequency)':>22} {'seconds':>8}")
    for r in effect.runs:
        print(f"{r.prior:<26} {r.opener.upper():<8} {r.mean_guesses:>7.4f} "
              f"{100 * r.solved_unweighted:>19.2f}% {100 * r.solved_weighted:>21.2f}% "
              f"{r.seconds:>8.1f}")
    return 0


# --- the --boards hook for solve / simulate / assist ------------------------------------------
def add_boards_arg(p: argparse.ArgumentParser) -> None:
    """``--boards N`` (and its companions) for the single-board commands."""
    p.add_argument("--boards", type=BOARDS, default=1,
                   help="play N boards at once (2 Dordle, 4 Quordle, 8 Octordle); default 1")
    if not any(a.dest == "games" for a in p._actions):
        p.add_argument("--games", type=GAMES, default=1000, help="with --boards: games to simulate")
    if not any(a.dest == "seed" for a in p._actions):
        p.add_argument("--seed", type=SEED, default=0, help="with --boards: seed of the answer sets")
    if not any(a.dest == "limit" for a in p._actions):
        p.add_argument("--limit", type=LIMIT, help="with --boards: guess limit (default boards + 5)")


def run_boards(kind: str, args: argparse.Namespace) -> int:
    """Dispatch ``solve``/``simulate``/``assist --boards N`` to the multi-board commands."""
    if getattr(args, "hard", False):
        raise WordleError("--boards has no hard mode (Dordle, Quordle and Octordle have none)")
    ns = argparse.Namespace(**vars(args))
    ns.opener = getattr(args, "opener", None) or "salet"
    for name, default in (("games", 1000), ("seed", 0), ("limit", None), ("json", False), ("history", "")):
        if not hasattr(ns, name):
            setattr(ns, name, default)
    if kind == "simulate":
        return cmd_multi_simulate(ns)
    if kind == "solve":
        answer = getattr(args, "answer", None)
        ns.words = [w for w in answer.split(",") if w] if answer else []
        if len(ns.words) == 1:
            raise WordleError("with --boards give one answer per board, comma-separated, or none (random)")
        return cmd_multi_solve(ns)
    if kind == "assist":
        ns.interactive = True  # assist is the play-along loop
        return cmd_multi_assist(ns)
    raise WordleError(f"--boards is not supported by {kind}")
