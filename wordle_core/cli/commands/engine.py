"""Engine commands: lexicons, score, candidates, strategies, simulate, solve."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from wordle_core.cli.commands.beyond import add_boards_arg, run_boards
from wordle_core.cli.common import (
    add_hard_arg,
    add_json_arg,
    add_lexicon_args,
    add_strategy_arg,
    check_output_file,
    coloured_guess,
    lexicon_from,
    matrix_for,
    print_histogram,
    print_json,
    strategy_for,
    strategy_tables,
    use_colour,
    word_arg,
)
from wordle_core.game.feedback import int_to_digits, pattern_to_emoji, score, score_digits
from wordle_core.game.lexicon import BUILTINS, DEFAULT_LEXICON, builtin_info
from wordle_core.game.state import GameState, parse_history


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
    p.add_argument("--opener", type=word_arg, help="first guess (default: salet, or the best by entropy)")
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
    p.add_argument("--opener", type=word_arg, help="first guess (default: salet, or the best by entropy)")
    add_boards_arg(p)
    p.set_defaults(func=cmd_solve)


def cmd_lexicons(args: argparse.Namespace) -> int:
    rows = [{**builtin_info(n), "default": n == DEFAULT_LEXICON} for n in BUILTINS]
    if args.json:
        print_json(rows)
    else:
        for r in rows:
            print(f"{r['name']:<14} length {r['length']}  "
                  f"answers {r['answers']:>6,}  guesses {r['guesses']:>6,}"
                  + ("  (the default: today's NYT game)" if r["default"] else ""))
    return 0


def cmd_score(args: argparse.Namespace) -> int:
    lex = lexicon_from(args)
    guess, answer = lex.normalise(args.guess), lex.normalise(args.answer)
    if args.emoji:
        from wordle_core.game.feedback import digits_to_int

        print(pattern_to_emoji(digits_to_int(score_digits(guess, answer)), lex.length))
    else:
        print(score(guess, answer))
    return 0


def cmd_candidates(args: argparse.Namespace) -> int:
    lex = lexicon_from(args)
    state = GameState.from_history(lex, parse_history(args.history), args.hard, matrix_for(lex))
    words = state.candidate_words()
    if args.json:
        print_json({"count": len(words), "candidates": words})
    else:
        print(f"{len(words)} candidate{'s' if len(words) != 1 else ''}")
        print(" ".join(words))
    return 0


def cmd_strategies(args: argparse.Namespace) -> int:
    from wordle_core.strategies import list_strategies

    rows = list_strategies()
    if args.json:
        print_json(rows)
    else:
        width = max(len(str(r["name"])) for r in rows)
        for r in rows:
            print(f"{r['name']:<{width}}  {r['summary']}  [{r['source']}]")
    return 0


def _load_tree(args: argparse.Namespace, lex):
    from wordle_core.tables.load import load_tree_file

    return load_tree_file(lex, args.tree, strategy=args.strategy, hard=args.hard,
                          opener=args.opener, matrix=matrix_for(lex))


def cmd_simulate(args: argparse.Namespace) -> int:
    from wordle_core.analysis.simulate import simulate
    from wordle_core.strategies import get_strategy

    if args.boards > 1:
        return run_boards("simulate", args)
    check_output_file(args.save_tree, "--save-tree")
    lex = lexicon_from(args)
    get_strategy(args.strategy)  # fail fast on an unknown name
    tree = _load_tree(args, lex) if args.tree else None
    if args.opener:
        lex.normalise(args.opener)
    report, tree = simulate(lex, args.strategy, args.opener, args.hard, matrix_for(lex), tree=tree,
                            **strategy_tables(args.strategy, lex))
    if args.save_tree:
        tree.save_json(args.save_tree)
    if args.json:
        print_json(report)
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
    from wordle_core.analysis.simulate import default_opener

    if args.boards > 1:
        return run_boards("solve", args)
    lex = lexicon_from(args)
    answer = lex.answer_id(args.answer)
    strat = strategy_for(args.strategy, lex)
    state = GameState.new(lex, args.hard, matrix_for(lex))
    guess = lex.guess_id(args.opener) if args.opener else lex.guess_id(default_opener(lex, args.hard))
    steps: list[dict[str, Any]] = []
    for _ in range(30):
        state = state.play(guess, answer)
        g, pat = state.history[-1]
        steps.append({"guess": lex.guesses[g], "feedback": int_to_digits(pat, lex.length),
                      "remaining": state.n_candidates})
        if state.solved:
            break
        guess = strat.choose(state)
    if args.json:
        print_json({"answer": lex.answers[answer], "guesses": len(steps), "solved": state.solved,
                    "steps": [{**s, "feedback": "".join("byg"[d] for d in s["feedback"])} for s in steps]})
        return 0
    colour = use_colour(sys.stdout)
    for i, s in enumerate(steps, 1):
        emoji = pattern_to_emoji(state.history[i - 1][1], lex.length)
        print(f"{i}. {coloured_guess(s['guess'], s['feedback'], colour)}  {emoji}  "
              f"{s['remaining']} left")
    print(f"solved {lex.answers[answer].upper()} in {len(steps)}" if state.solved else "not solved")
    return 0
