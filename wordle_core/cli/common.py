"""Arguments and output helpers shared by the commands."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wordle_core.game.feedback import int_to_digits, pattern_to_emoji, pattern_to_str
from wordle_core.game.lexicon import BUILTINS, DEFAULT_LEXICON, Lexicon, resolve_lexicon

if TYPE_CHECKING:  # numpy and the matrix are imported where used: the quick commands never load them
    import numpy as np

    from wordle_core.interactive.session import Out
    from wordle_core.search.openers import OpenerScores
    from wordle_core.strategies.base import Strategy

DEFAULT_STRATEGY = "default"
MAX_BOARDS = 64
MAX_SEED = 2**63 - 1


def int_in(lo: int, hi: int | None = None):
    """An argparse ``type``: a whole number from ``lo`` (to ``hi``), else a one-line usage error."""

    def parse(text: str) -> int:
        value = int(text)  # a ValueError is argparse's "invalid int value: 'x'"
        if value < lo or (hi is not None and value > hi):
            span = f"at least {lo:,}" if hi is None else f"from {lo:,} to {hi:,}"
            raise argparse.ArgumentTypeError(f"must be {span}, got {value:,}")
        return value

    parse.__name__ = "int"
    return parse


BOARDS = int_in(1, MAX_BOARDS)
SEED = int_in(0, MAX_SEED)
GAMES = int_in(1, 10**8)
LIMIT = int_in(1, 1000)


def word_arg(text: str) -> str:
    """An argparse ``type``: a non-empty word (``--opener ''`` is an error, not 'the default')."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a word, got an empty string")
    return text


def word_list_arg(text: str) -> str:
    """An argparse ``type``: ``w1,w2,...`` naming at least one word (``,,,`` is an error)."""
    if not any(w.strip() for w in text.split(",")):
        raise argparse.ArgumentTypeError(f"expected one or more words separated by commas, got {text!r}")
    return text


def check_output_file(path: str | None, flag: str) -> None:
    """Fail now, with one line, if ``path`` (a file a command will write) cannot be written.

    Checked before any work: the path must not be a directory and its nearest existing
    parent must be a writable directory (probed with a temporary file, removed at once;
    missing parents are not created here).
    """
    if path is None:
        return
    from pathlib import Path

    from wordle_core.errors import OutputPathError

    p = Path(path).expanduser()
    if not str(path).strip():
        raise OutputPathError(f"{flag}: expected a file name")
    if p.is_dir():
        raise OutputPathError(f"{flag} {path!r} is a directory")
    parent = p.parent
    while not parent.exists() and parent != parent.parent:
        parent = parent.parent
    if not parent.is_dir():
        raise OutputPathError(f"cannot write {flag} {path!r}: {str(parent)!r} is not a directory")
    import tempfile

    try:
        fd, probe = tempfile.mkstemp(prefix=".wordle-lab-probe-", dir=parent)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise OutputPathError(f"cannot write {flag} {path!r}: {exc.strerror or exc}") from None


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


def elsewhere(args: argparse.Namespace, exc: Exception) -> str | None:
    """The line that names another built-in game where the command's history (or the word
    ``exc`` is about) fits, when the chosen game rejected it; None when none fits.

    Only for a game chosen by ``--lexicon`` (not ``--answers`` files).
    """
    from wordle_core.errors import UnknownWordError, WordleError
    from wordle_core.game.history import answers_fitting, history_hint, parse_history, word_hint
    from wordle_core.game.lexicon import load_lexicon

    if getattr(args, "answers", None) or not getattr(args, "lexicon", None):
        return None
    try:
        lex = load_lexicon(args.lexicon)
        history = parse_history(args.history) if getattr(args, "history", None) else []
    except WordleError:
        return None
    hint = history_hint(lex, history) if history and not answers_fitting(lex, history) else None
    if hint is None and isinstance(exc, UnknownWordError) and exc.word:
        hint = word_hint(lex, exc.word, as_answer=exc.as_answer)
    return hint


def matrix_for(lexicon: Lexicon) -> np.ndarray:
    from wordle_core.game.matrix import pattern_matrix

    return pattern_matrix(lexicon)


def print_json(obj: object) -> None:
    json.dump(obj, sys.stdout, indent=2, default=_default)
    sys.stdout.write("\n")


def _default(o: object) -> object:
    import numpy as np  # only reached for values json cannot write, which numpy made

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


def render(out: Out, colour: bool) -> str:
    """A session's :class:`~wordle_core.interactive.session.Out` item as a line of text.

    Tiles are ANSI-coloured on a colour terminal, plain ``WORD gybbb`` otherwise.
    """
    if out.kind == "tiles":
        length = len(out.word)
        shown = coloured_guess(out.word, int_to_digits(out.pattern, length), colour)
        plain = "" if colour else f" {pattern_to_str(out.pattern, length)}"
        return f"  {shown}{plain}  {pattern_to_emoji(out.pattern, length)}  {out.text}".rstrip()
    if out.kind == "keyboard":
        return render_keyboard(out.word, out.text, colour)
    if out.kind == "error":
        return f"error: {out.text}"
    return out.text


_KEY_ANSI = {"g": "\x1b[30;42m", "y": "\x1b[30;43m", "b": "\x1b[97;100m", ".": "\x1b[30;47m"}


def render_keyboard(keys: str, states: str, colour: bool) -> str:
    """A session's keyboard (:func:`wordle_core.interactive.session.keyboard`), indented
    under the tiles, rows staggered as on a keyboard.

    Colour: each key on its colour (white = not tried). Plain: ``[A]`` green, ``(a)``
    yellow, `` · `` gray (not in the word), `` a `` not tried.
    """
    plain = {"g": "[{}]", "y": "({})", "b": " · ", ".": " {} "}
    lines = []
    for i, (row, st) in enumerate(zip(keys.split("|"), states.split("|"), strict=True)):
        pairs = list(zip(row, st, strict=True))
        if colour:
            cells = "".join(f"{_KEY_ANSI[s]} {c.upper()} \x1b[0m" for c, s in pairs)
        else:
            cells = "".join(plain[s].format(c.upper() if s == "g" else c) for c, s in pairs)
        lines.append(("    " + " " * i + cells).rstrip())
    return "\n".join(lines)


# --- tables the CLI finds and hands to the engine (which never looks for files) ----------
def outputs_dir() -> Path:
    """Where the pipelines write by default: ``$WORDLE_LAB_OUTPUTS`` or ``./outputs``."""
    return Path(os.environ.get("WORDLE_LAB_OUTPUTS", "outputs"))


def found_opener_scores(lex: Lexicon) -> OpenerScores | None:
    """A finished ``opener_scores`` table for ``lex`` under :func:`outputs_dir`, else the
    first-guess scores the package ships for it, else None (the same numbers either way)."""
    from wordle_core.tables.load import find_opener_scores
    from wordle_core.tables.scores import shipped_opener_scores

    found = find_opener_scores(lex, outputs_dir())
    return found if found is not None else shipped_opener_scores(lex)


def strategy_tables(name: str, lex: Lexicon) -> dict[str, Any]:
    """Options carrying the offline tables strategy ``name`` reads (``Strategy.tables``) that were found."""
    from wordle_core.strategies import get_strategy

    finders = {"opener_scores": found_opener_scores}
    found = {t: finders[t](lex) for t in type(get_strategy(name)).tables if t in finders}
    return {t: v for t, v in found.items() if v is not None}


def strategy_for(name: str, lex: Lexicon, **options: object) -> Strategy:
    """``get_strategy(name, **options)`` plus the tables found for it (:func:`strategy_tables`)."""
    from wordle_core.strategies import get_strategy

    return get_strategy(name, **{**strategy_tables(name, lex), **options})


OPENER_HELP = "first guess (default: the proven best where a proven ranking ships, else the best by entropy)"
