"""Arguments and output helpers shared by the commands."""

from __future__ import annotations

import argparse
import json
import os
import sys

import numpy as np

from wordle_core.game.lexicon import BUILTINS, DEFAULT_LEXICON, Lexicon, resolve_lexicon
from wordle_core.game.matrix import pattern_matrix

DEFAULT_STRATEGY = "default"


def add_lexicon_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--lexicon", default=DEFAULT_LEXICON,
                   help=f"built-in game ({', '.join(BUILTINS)}); default {DEFAULT_LEXICON}")
    p.add_argument("--answers", metavar="FILE", help="custom answer list (one word per line)")
    p.add_argument("--guesses", metavar="FILE", help="custom guess list (with --answers)")


def add_strategy_arg(p: argparse.ArgumentParser, default: str = DEFAULT_STRATEGY) -> None:
    p.add_argument("--strategy", default=default, help=f"strategy name (default {default}); "
                   "see `wordle-lab strategies`")


def add_hard_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--hard", action="store_true", help="hard mode (revealed hints must be used)")


def add_json_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="machine-readable JSON output")


def lexicon_from(args: argparse.Namespace) -> Lexicon:
    return resolve_lexicon(args.lexicon, getattr(args, "answers", None), getattr(args, "guesses", None))


def matrix_for(lexicon: Lexicon) -> np.ndarray:
    return pattern_matrix(lexicon)


def print_json(obj: object) -> None:
    json.dump(obj, sys.stdout, indent=2, default=_default)
    sys.stdout.write("\n")


def _default(o: object) -> object:
    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"not JSON serialisable: {type(o).__name__}")


def use_colour(stream: object = sys.stdout) -> bool:
    """ANSI colour only on a terminal, and never when NO_COLOR is set."""
    return hasattr(stream, "isatty") and stream.isatty() and "NO_COLOR" not in os.environ


_ANSI = {0: "\x1b[97;100m", 1: "\x1b[30;43m", 2: "\x1b[30;42m"}


def coloured_guess(word: str, pattern_digits: list[int], colour: bool) -> str:
    """A guess as coloured tiles (terminal) or as plain ``WORD`` text."""
    if not colour:
        return word.upper()
    return "".join(f"{_ANSI[d]} {c.upper()} \x1b[0m" for c, d in zip(word, pattern_digits, strict=True))


def print_histogram(dist: dict[str, int], width: int = 40) -> None:
    """Game lengths as a text bar chart: ``  3  1,215 ████...`` (longest bar = ``width``)."""
    top = max(dist.values())
    for k, v in dist.items():
        print(f"  {k:>2} {v:>6,} {'█' * max(1, round(width * v / top))}")
