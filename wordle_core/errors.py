"""Error types of the engine, and the one-line rule that shows them.

Every error a user can cause derives from :class:`WordleError`, so a command line
(``wordle-lab``, ``python -m pipelines.scores``) can turn any of them into one clear
line on stderr and exit code 2 instead of a traceback: :func:`one_line_errors` and
:class:`OneLineParser` are that rule, shared by the CLI and the pipeline entry points.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

EXIT_USAGE = 2  # a user error: bad input, flags, paths
EXIT_FAILURE = 1  # the machine failed (disk full, I/O error)


class WordleError(ValueError):
    """Base class for every user-facing error (bad word, bad feedback, ...)."""


class UnknownLexiconError(WordleError):
    """A lexicon name that is neither built in nor given as files."""


class LexiconFileError(WordleError):
    """A custom word list that cannot be used (mixed lengths, empty, unreadable)."""


class UnknownWordError(WordleError):
    """A word that the lexicon does not accept as a guess (``as_answer``: nor as an answer).

    ``word`` is the word as the lexicon spells it (None when not known), so a command
    can say which other game accepts it.
    """

    def __init__(self, message: str, word: str | None = None, *, as_answer: bool = False) -> None:
        super().__init__(message)
        self.word = word
        self.as_answer = as_answer


class WrongLengthError(WordleError):
    """A word or feedback string of the wrong length for the lexicon."""


class FeedbackError(WordleError):
    """Feedback that is not a valid colour string for the game."""


class InconsistentHistoryError(WordleError):
    """A history of guesses and feedback that no answer satisfies."""


class HardModeViolation(WordleError):  # noqa: N818 - reads as the rule it reports
    """A guess that breaks the hard-mode rules given the history so far."""


class UnknownStrategyError(WordleError):
    """A strategy name that is not registered."""


class OutputPathError(WordleError):
    """A file or directory the user asked us to write that cannot be written."""


class MatrixTooLargeError(WordleError):
    """A pattern matrix that would not fit in memory (or codes over 64 bits): refused up front."""


class TooManyPatternsError(WordleError):
    """Words so long that the bucket kernels' per-pattern tables (3^length) cannot be allocated."""


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (``PROG: error: ...``), exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def one_line_errors(command: Callable[[], int | None], prog: str = "wordle-lab") -> int:
    """Run ``command`` and return its exit code, never a traceback for what we expect.

    A :class:`WordleError` is one line on stderr and exit 2 (or the error's
    ``exit_code``); an ``OSError`` (disk full, I/O error: the machine failed us) one line
    and exit 1; Ctrl-C ``PROG: interrupted`` and 130; a closed pipe exit 0.
    """
    try:
        rc = command()
    except WordleError as exc:
        sys.stderr.write(f"{prog}: error: {exc}\n")
        return int(getattr(exc, "exit_code", EXIT_USAGE))
    except KeyboardInterrupt as exc:  # 130 Ctrl-C, 143 SIGTERM (pipelines.runner.Interrupted)
        sys.stderr.write(f"{prog}: interrupted{getattr(exc, 'detail', '')}\n")
        return int(getattr(exc, "exit_code", 130))
    except BrokenPipeError:
        return 0
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename else ""
        sys.stderr.write(f"{prog}: error: {exc.strerror or exc}{where}\n")
        return EXIT_FAILURE
    return int(rc or 0)
