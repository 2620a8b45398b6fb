"""Engine commands: lexicons, score, candidates, strategies, simulate, solve."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from wordle_core import api
from wordle_core.cli.commands.analyses import add_boards_arg, run_boards
from wordle_core.cli.common import (
    OPENER_HELP,
    add_hard_arg,
    add_json_arg,
    add_lexicon_args,
    add_strategy_arg,
    check_output_file,
    coloured_guess,
    lexicon_from,
    print_histogram,
    print_json,
    strategy_tables,
    use_colour,
    word_arg,
)


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("lexicons", help="list the built-in games and their sizes")
    add_json_arg(p)
    p.set_defaults(func=cmd_lexicons)

    p = sub.add_parser("score", help="the feedback Wordle shows for GUESS against ANSWER")
    p.add_argument("guess")
    p.add_argument("answer")
    p.add_argument("--emoji", action="store_true", help="print emoji squares")
    add_lexicon_args(p)
    p.set_defaults(func=cmd_score)

    p = sub.add_parser("candidates", help="answers still possible after a history")
    p.add_argument("--history", required=True, help="e.g. salet:bybgb,crane:bbgbb")
    add_lexicon_args(p)
    add_hard_arg(p)
    add_json_arg(p)
    p.set_defaults(func=cmd_candidates)

    p = sub.add_parser("strategies", help="list the registered strategies")
    add_json_arg(p)
    p.set_defaults(func=cmd_strategies)

    p = sub.add_parser("simulate", help="play every answer from an opener; solve-all report")
    add_lexicon_args(p)
    add_strategy_arg(p)
    add_hard_arg(p)
    add_json_arg(p)
    p.add_argument("--opener", type=word_arg, help=OPENER_HELP)
    p.add_argument("--save-tree", metavar="FILE", help="write the decision tree as JSON")
    p.add_argument("--tree", metavar="FILE", help="play from a saved tree (JSON or a trees Avro table)")
    add_boards_arg(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("solve", help="show one game: the strategy's guesses for ANSWER")
    p.add_argument("answer")
    add_lexicon_args(p)
    add_strategy_arg(p)
    add_hard_arg(p)
    add_json_arg(p)
    p.add_argument("--opener", type=word_arg, help=OPENER_HELP)
    add_boards_arg(p)
    p.set_defaults(func=cmd_solve)


def cmd_lexicons(args: argparse.Namespace) -> int:
    games = api.lexicons()
    if args.json:
        print_json([g.to_dict() for g in games])
    else:
        for g in games:
            print(f"{g.name:<14} length {g.length}  "
                  f"answers {g.answers:>6,}  guesses {g.guesses:>6,}"
                  + ("  (the default: today's NYT game)" if g.default else ""))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    fb = api.score(args.guess, args.answer, lexicon=lexicon_from(args))
    print(fb.emoji if args.emoji else fb)
    return 0


def cmd_candidates(args: argparse.Namespace) -> int:
    from wordle_core.api.word_position import WordPosition  # no numpy: the command starts quickly

    pos = WordPosition(args.history, lexicon=lexicon_from(args), hard=args.hard)
    if args.json:
        print_json(pos.to_dict())
    else:
        words = pos.candidates
        print(f"{len(words)} candidate{'s' if len(words) != 1 else ''}")
        print(" ".join(words))
    return 0


def cmd_strategies(args: argparse.Namespace) -> int:
    rows = api.list_strategies()
    if args.json:
        print_json([r.to_dict() for r in rows])
    else:
        width = max(len(r.name) for r in rows)
        for r in rows:
            print(f"{r.name:<{width}}  {r.summary}  [{r.source}]")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    if args.boards > 1:
        return run_boards("simulate", args)
    check_output_file(args.save_tree, "--save-tree")
    lex = lexicon_from(args)
    api.strategy_info(args.strategy)  # fail fast on an unknown name
    tree = api.load_tree(args.tree, lex, strategy=args.strategy, hard=args.hard, opener=args.opener) \
        if args.tree else None
    found = strategy_tables(args.strategy, lex).get("opener_scores")
    result = api.simulate(args.opener, args.strategy, lex, args.hard, tree=tree, opener_scores=found)
    report: dict[str, Any] = result.report
    if args.save_tree:
        result.tree.save_json(args.save_tree)
    if args.json:
        print_json(report)  # the solve-all report keeps the article's keys (totalCount, ...)
        return 0
    print(f"{report['lexicon']} · {report['strategy']} · opener {str(report['opener']).upper()}"
          f" · {'hard' if report['hard'] else 'normal'} mode")
    timing = "played from the saved tree" if args.tree else f"{report['averageTime']:.3f} ms/game"
    print(f"games {report['totalCount']:,}  mean {report['meanGuesses']:.4f}  "
          f"max {report['maxGuesses']}  lost {report['failures']} (not solved in {lex.max_guesses})  "
          f"({timing})")
    print_histogram(report["guessDistribution"])
    print("hardest:", " ".join(report["maxGuessWords"][:8]))
    return 0


def cmd_solve(args: argparse.Namespace) -> int:
    if args.boards > 1:
        return run_boards("solve", args)
    lex = lexicon_from(args)
    found = strategy_tables(args.strategy, lex).get("opener_scores")
    game = api.solve(args.answer, args.strategy, lex, args.hard, opener=args.opener, opener_scores=found)
    if args.json:
        print_json(game.to_dict())
        return 0
    colour = use_colour(sys.stdout)
    for i, (turn, left) in enumerate(zip(game.turns, game.remaining, strict=True), 1):
        print(f"{i}. {coloured_guess(turn.guess, list(turn.feedback.digits), colour)}  "
              f"{turn.feedback.emoji}  {left} left")
    print(f"solved {game.answer.upper()} in {game.length}" if game.solved else "not solved")
    return 0
