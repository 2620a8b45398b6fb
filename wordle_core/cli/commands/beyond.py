"""Beyond one board: ``review``, ``tree``, ``multi-solve``, ``multi-simulate``,
``multi-assist`` and ``prior-effect``.

Multi-board versions of solve/simulate/assist live here as their own commands so
that they need no edits to the single-board command modules; ``--boards N`` on those
commands only has to dispatch to :mod:`wordle_core.analysis.multiboard`.
"""

from __future__ import annotations

import argparse
import sys

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
    matrix_for,
    outputs_dir,
    print_histogram,
    print_json,
    strategy_for,
    use_colour,
    word_arg,
)
from wordle_core.errors import WordleError
from wordle_core.files import atomic_write_text
from wordle_core.game.feedback import int_to_digits, pattern_to_emoji, pattern_to_str
from wordle_core.game.lexicon import Lexicon
from wordle_core.game.state import parse_history


def _strategy_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--strategy", default=None,
                   help=f"strategy that gives the best guess (default: {DEFAULT_STRATEGY!r})")


def _prior_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--prior", choices=("uniform", "frequency"),
                   help="weight answers by a prior (entropy/expected-size become prior-*); default none")


def _strategy_from(args: argparse.Namespace, lex: Lexicon):
    from wordle_core.strategies.prior import strategy_with_prior

    name, prior = args.strategy or DEFAULT_STRATEGY, getattr(args, "prior", None)
    return strategy_with_prior(name, prior) if prior else strategy_for(name, lex)


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
    from wordle_core.analysis.review import format_review, review_game

    lex = lexicon_from(args)
    strat = _strategy_from(args, lex)
    history = parse_history(args.history)
    if len(history) > lex.max_guesses:
        raise WordleError(f"a {lex.name} game has at most {lex.max_guesses} guesses; "
                          f"the history has {len(history)}")
    review = review_game(lex, history, strat, args.hard, matrix_for(lex))
    if args.json:
        print_json(review)
    else:
        print(format_review(review))
    return 0


# --- tree ----------------------------------------------------------------------------------
def cmd_tree(args: argparse.Namespace) -> int:
    from wordle_core.analysis.simulate import default_opener
    from wordle_core.game.state import GameState
    from wordle_core.game.tree import Tree
    from wordle_core.tables.export import find_tree_tables, render, tree_from_tables

    check_output_file(args.output, "--output")
    lex = lexicon_from(args)
    strat = _strategy_from(args, lex)
    strategy = strat.name
    opener = lex.normalise(args.opener) if args.opener else default_opener(lex, args.hard)
    mat = matrix_for(lex)
    tree = None
    if not args.no_table:
        where = args.table if args.table else (outputs_dir() if outputs_dir().is_dir() else None)
        files = find_tree_tables(where)
        if args.table and not files:
            raise WordleError(f"no trees Avro files at {args.table!r}")
        tree = tree_from_tables(lex, files, strategy, args.hard, opener, mat)
        if tree is not None:
            sys.stderr.write(f"tree: read from the trees table ({len(files)} file(s))\n")
    if tree is None:
        sys.stderr.write(f"tree: building {strategy} from {opener.upper()} ...\n")
        tree = Tree.build(strat, GameState.new(lex, args.hard, mat), opener)
    text = render(tree, args.format)
    if args.output:
        atomic_write_text(args.output, text)
        sys.stderr.write(f"tree: wrote {args.output} ({len(tree.guess):,} positions)\n")
    else:
        sys.stdout.write(text)
    return 0


# --- multi-board ---------------------------------------------------------------------------
def cmd_multi_solve(args: argparse.Namespace) -> int:
    from wordle_core.analysis.multiboard import MultiEntropy, default_limit, play_game, seeded_answer_sets

    lex = lexicon_from(args)
    if args.words:
        if args.boards and args.boards != len(args.words):
            raise WordleError(f"--boards {args.boards} but {len(args.words)} answers given")
        ids = [lex.answer_id(a) for a in args.words]
    elif args.boards:
        ids = [int(a) for a in seeded_answer_sets(lex, args.boards, 1, args.seed)[0]]
    else:
        raise WordleError("give the answers (one per board) or --boards N")
    opener = lex.normalise(args.opener) if args.opener else None
    mat = matrix_for(lex)
    game = play_game(MultiEntropy(), lex, ids, opener, mat)
    limit = args.limit or default_limit(len(ids))
    rows = []
    for t, g in enumerate(game.guesses, 1):
        pats = [None if game.solved_turn[b] and game.solved_turn[b] < t else int(mat[g, a])
                for b, a in enumerate(ids)]
        rows.append((lex.guesses[g], pats))
    if args.json:
        print_json({
            "answers": [lex.answers[a] for a in ids], "guesses": game.length, "limit": limit,
            "solved": game.length <= limit, "solved_at": game.solved_turn,
            "steps": [{"guess": w, "feedback": [None if p is None else pattern_to_str(p, lex.length)
                                                for p in pats]} for w, pats in rows],
        })
        return 0
    colour = use_colour(sys.stdout)
    for t, (w, pats) in enumerate(rows, 1):
        cells = ["·" * lex.length if p is None else pattern_to_emoji(p, lex.length) for p in pats]
        first = next((p for p in pats if p is not None), 0)
        print(f"{t:>2}. {coloured_guess(w, int_to_digits(first, lex.length), colour)}  {' '.join(cells)}")
    verdict = "won" if game.length <= limit else "lost"
    print(f"{verdict}: {' '.join(lex.answers[a].upper() for a in ids)} in {game.length} "
          f"(limit {limit}); boards solved at {game.solved_turn}")
    return 0


def cmd_multi_simulate(args: argparse.Namespace) -> int:
    from wordle_core.analysis.multiboard import simulate_multi

    lex = lexicon_from(args)
    if args.games < 1:
        raise WordleError("--games must be at least 1")
    rep = simulate_multi(lex, args.boards, args.games, args.seed, args.opener, args.limit,
                         matrix=matrix_for(lex), progress=sys.stderr.isatty() or args.games >= 200)
    if args.json:
        print_json(rep)
        return 0
    print(f"{rep['lexicon']} · {rep['boards']} boards · {rep['strategy']} · "
          f"opener {str(rep['opener']).upper()} · {rep['games']:,} games (seed {rep['seed']})")
    print(f"mean {rep['mean_guesses']:.4f} guesses  max {rep['max_guesses']}  failures {rep['failures']} "
          f"({100 * rep['failure_rate']:.2f}% over {rep['limit']})  {rep['seconds']} s "
          f"({rep['ms_per_game']} ms/game)")
    print_histogram(rep["guess_distribution"])
    return 0


def cmd_multi_assist(args: argparse.Namespace) -> int:
    from wordle_core.analysis.multiboard import parse_multi_history, replay

    lex = lexicon_from(args)
    hist = parse_multi_history(args.history, lex, args.boards)
    state = replay(lex, args.boards, hist, matrix_for(lex))
    if args.interactive:
        return _multi_assist_loop(lex, state, args)
    return _multi_assist_once(lex, state, args, first=not hist)


def _multi_next(lex, state, args, first: bool, strategy) -> str | None:
    """The suggestion: the opener on an empty board, else the multi-board strategy's guess."""
    if state.done:
        return None
    if first and args.opener:
        return lex.normalise(args.opener)
    return lex.guesses[strategy.choose(state)]


def _parse_turn(line: str, suggested: str, state) -> tuple[str, str]:
    """One typed turn: ``[WORD] FB...`` with a feedback per board, or per unsolved board.

    The word is optional (default: the suggested one); it is there when the line has one
    token more than feedbacks are needed. Solved boards may be left out or given as ``-``.
    """
    parts = line.split()
    open_n = len(state.unsolved())
    if len(parts) in (state.boards + 1, open_n + 1):
        word, parts = parts[0], parts[1:]
    else:
        word = suggested
    if len(parts) == open_n != state.boards:
        fill = iter(parts)
        parts = [next(fill) if not state.solved[b] else "-" for b in range(state.boards)]
    return word, "/".join(parts)


def _multi_assist_loop(lex, state, args) -> int:
    """Play along with a live game: suggestion, then read the colours, until all boards are solved."""
    from wordle_core.analysis.multiboard import MultiEntropy, parse_multi_history

    strategy = MultiEntropy()
    first = state.turn == 0
    while True:
        nxt = _multi_next(lex, state, args, first, strategy)
        _multi_assist_print(lex, state, args, nxt)
        if nxt is None:
            return 0
        sys.stdout.write("> ")
        sys.stdout.flush()
        line = sys.stdin.readline()
        if not line.strip():
            return 0
        try:
            word, fbs = _parse_turn(line, nxt, state)
            ((w, pats),) = parse_multi_history(f"{word}:{fbs}", lex, state.boards)
            state = state.apply(lex.guess_id(w), [None if state.solved[b] else p for b, p in enumerate(pats)])
        except WordleError as exc:  # a typo must not end a live game: say why, ask again
            sys.stderr.write(f"wordle-lab: error: {exc}\n")
            continue
        first = False


def _multi_assist_once(lex, state, args, first: bool) -> int:
    from wordle_core.analysis.multiboard import MultiEntropy

    return _multi_assist_print(lex, state, args, _multi_next(lex, state, args, first, MultiEntropy()))


def _multi_assist_print(lex, state, args, nxt: str | None) -> int:
    boards = [{"board": b + 1, "solved": state.solved[b], "candidates": int(c.shape[0]),
               "sample": [lex.answers[i] for i in c[:8]]} for b, c in enumerate(state.candidates)]
    if args.json:
        print_json({"next": nxt, "turn": state.turn + 1, "boards": boards})
        return 0
    for bd in boards:
        status = "solved" if bd["solved"] else f"{bd['candidates']:,} left: {' '.join(bd['sample'])}" + \
            (" ..." if bd["candidates"] > 8 else "")
        print(f"board {bd['board']}: {status}")
    print("all boards solved" if nxt is None else f"next guess: {nxt.upper()}")
    return 0


# --- prior ---------------------------------------------------------------------------------
def cmd_prior_effect(args: argparse.Namespace) -> int:
    from wordle_core.strategies.prior import prior_effect

    lex = lexicon_from(args)
    rep = prior_effect(lex, args.strategy, args.opener, args.hard, matrix_for(lex), progress=True)
    if args.json:
        print_json(rep)
        return 0
    print(f"{rep['lexicon']} · prior-{args.strategy} · {'hard' if args.hard else 'normal'} mode · "
          f"limit {rep['limit']} · {rep['answers']:,} answers")
    print(f"{'prior used by the solver':<26} {'opener':<8} {'mean':>7} {'solved (unweighted)':>20} "
          f"{'solved (by frequency)':>22} {'seconds':>8}")
    for r in rep["runs"]:
        print(f"{r['prior']:<26} {r['opener'].upper():<8} {r['mean_guesses']:>7.4f} "
              f"{100 * r['solved_unweighted']:>19.2f}% {100 * r['solved_weighted']:>21.2f}% "
              f"{r['seconds']:>8.1f}")
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
