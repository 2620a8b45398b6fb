"""Every ``--json`` output of the CLI uses snake_case keys.

The one exception is ``simulate``'s solve-all report, which keeps the keys of the
"ultimate Wordle solver" article's format (``totalCount``, ``guessDistribution``, ...)
so that its numbers can be compared with the article's field by field. The test
finds every command that has ``--json`` from the parser itself, so a new command
without a case here fails.
"""

from __future__ import annotations

import argparse
import json

import pytest

from tests.test_api import snake_keys
from wordle_core.cli import build_parser, main
from wordle_core.game.feedback import score

ARTICLE_KEYS = {"totalCount", "guessDistribution", "averageTime", "minTime", "maxTime",
                "timeDistribution", "maxGuessWords"}


@pytest.fixture(scope="module")
def lists(wordle, tmp_path_factory) -> tuple[list[str], list[str], list[str]]:
    """A 39-answer game written as files, and the --answers/--guesses arguments for it."""
    answers = list(wordle.answers[::60])
    guesses = sorted(set(answers) | set(wordle.guesses[::400]))
    d = tmp_path_factory.mktemp("json-keys")
    (d / "a.txt").write_text("\n".join(answers) + "\n")
    (d / "g.txt").write_text("\n".join(guesses) + "\n")
    return ["--answers", str(d / "a.txt"), "--guesses", str(d / "g.txt")], answers, guesses


def commands(lists) -> dict[str, list[list[str]]]:
    args, answers, _ = lists
    op, target = answers[3], answers[20]
    history = f"{op}:{score(op, target)}"
    game = f"{history},{target}:{'g' * 5}"
    return {
        "lexicons": [[]],
        "strategies": [[]],
        "candidates": [["--history", history, *args]],
        "suggest": [["--history", history, "--strategy", "entropy", *args]],
        "solve": [[target, "--strategy", "entropy", "--opener", op, *args]],
        "simulate": [["--boards", "2", "--games", "3", "--opener", op, *args]],  # the plain one: below
        "review": [["--history", game, "--strategy", "entropy", *args]],
        "hard-verdict": [["--opener", op, *args]],
        "optimal": [["--opener", op, *args], ["--best", *args[:2], "--guesses", "answers"]],
        "evil-solve": [[*args]],
        "multi-solve": [[answers[1], answers[2], "--opener", op, *args]],
        "multi-simulate": [["--boards", "2", "--games", "3", "--opener", op, *args]],
        "multi-assist": [["--boards", "2", "--opener", op, *args]],
        "prior-effect": [["--opener", op, *args]],
        "rank": [["--proven", "--lexicon", "wordle", "--top", "2"],
                 ["--exact", "--lexicon", "wordle", "--mode", "hard", "--worst", "--top", "2"]],
    }


def json_commands() -> set[str]:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return {name for name, p in sub.choices.items()
            if any("--json" in a.option_strings for a in p._actions)}


def test_every_json_command_is_checked(lists) -> None:
    assert json_commands() == set(commands(lists))


def test_json_keys_are_snake_case(lists, capsys) -> None:
    for name, runs in commands(lists).items():
        for argv in runs:
            assert main([name, *argv, "--json"]) == 0, (name, argv, capsys.readouterr().err)
            out = json.loads(capsys.readouterr().out)
            assert out, name
            assert not snake_keys(out), (name, argv, snake_keys(out))


def test_simulate_report_keeps_the_article_keys(lists, capsys) -> None:
    args, answers, _ = lists
    assert main(["simulate", "--strategy", "entropy", "--opener", answers[3], *args, "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert set(rep) >= ARTICLE_KEYS
    assert rep["totalCount"] == len(answers) == sum(rep["guessDistribution"].values())


def test_json_is_the_api_results_to_dict(lists, capsys) -> None:
    """Each command's ``--json`` is the ``to_dict()`` of the API call it makes, so a program
    and a script see the same fields (timings aside: ``seconds`` differs run to run)."""
    import wordle_core.api as api
    from wordle_core.game.lexicon import resolve_lexicon

    args, answers, _ = lists
    lex = resolve_lexicon(None, args[1], args[3])  # the game the CLI reads from the same files
    op, target = answers[3], answers[20]
    history = f"{op}:{score(op, target)}"
    cases = [
        (["lexicons"], [g.to_dict() for g in api.lexicons()]),
        (["strategies"], [s.to_dict() for s in api.list_strategies()]),
        (["candidates", "--history", history, *args], api.Position(history, lexicon=lex).to_dict()),
        (["suggest", "--history", history, "--strategy", "entropy", *args],
         api.suggest(history, "entropy", lexicon=lex).to_dict()),
        (["solve", target, "--strategy", "entropy", "--opener", op, *args],
         api.solve(target, "entropy", lex, opener=op).to_dict()),
        (["review", "--history", f"{history},{target}:ggggg", "--strategy", "entropy", *args],
         api.review(f"{history},{target}:ggggg", "entropy", lex).to_dict()),
        (["multi-solve", answers[1], answers[2], "--opener", op, *args],
         api.multi_solve([answers[1], answers[2]], opener=op, lexicon=lex).to_dict()),
        (["multi-assist", "--boards", "2", "--opener", op, *args],
         api.MultiPosition(boards=2, lexicon=lex).advice(op).to_dict()),
        (["rank", "--proven", "--lexicon", "wordle", "--top", "2"],
         [r.to_dict() for r in api.proven_ranking("wordle")[:2]]),
    ]
    for argv, expected in cases:
        assert main([*argv, "--json"]) == 0, (argv, capsys.readouterr().err)
        assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(expected)), argv


def test_json_of_timed_results_is_the_api_results_to_dict(lists, capsys) -> None:
    """The same for results that carry their own timing: equal but for ``seconds``."""
    import wordle_core.api as api
    from wordle_core.game.lexicon import resolve_lexicon

    args, answers, _ = lists
    lex = resolve_lexicon(None, args[1], args[3])  # the game the CLI reads from the same files

    def untimed(d: object) -> object:
        if isinstance(d, dict):
            return {k: untimed(v) for k, v in d.items() if "seconds" not in k and k != "ms_per_game"}
        return [untimed(v) for v in d] if isinstance(d, list) else d

    cases = [
        (["evil-solve", *args], api.evil_solve(lex).to_dict()),
        (["multi-simulate", "--boards", "2", "--games", "3", "--opener", answers[3], *args],
         api.multi_simulate(2, 3, opener=answers[3], lexicon=lex).to_dict()),
        (["optimal", "--opener", answers[3], *args], api.optimal(answers[3], lex, search=True).to_dict()),
    ]
    for argv, expected in cases:
        assert main([*argv, "--json"]) == 0, (argv, capsys.readouterr().err)
        assert untimed(json.loads(capsys.readouterr().out)) == untimed(json.loads(json.dumps(expected))), argv
