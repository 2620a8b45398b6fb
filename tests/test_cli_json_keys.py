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
