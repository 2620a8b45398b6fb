"""Error types of the engine, and the one-line rule that shows them.

Every error a user can cause derives from :class:`WordleError`, so a command line
(``wordle-lab``, ``python -m pipelines.scores``) can turn any of them into one clear
line on stderr and exit code 2 instead of a traceback: :func:`one_line_errors` and
:class:`OneLineParser` are that rule, shared by the CLI and the pipeline entry points.
"""

from __future__ import annotations

import argparse
import errno
import sys
from collections.abc import Callable

EXIT_USAGE = 2  # a user error: bad input, flags, paths
EXIT_FAILURE = 1  # the machine failed (disk full, I/O error)

#: errors of the machine, not of the user's input: reported as themselves (exit 1), never
#: turned into a usage error (exit 2) by a command that catches ``OSError``
MACHINE_ERRNOS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO, errno.EFBIG})


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


#: the largest whole number any numeric flag takes (a count, a budget, a limit): beyond it a
#: value would overflow the int64 / Avro int fields it ends up in, after work had started
MAX_FLAG_INT = 2**31 - 1

#: metavars of flags that name a path: an empty value is refused, never taken as "no flag"
PATH_METAVARS = {"DIR": "a directory", "FILE": "a file name", "PATH": "a file name",
                 "YAML": "a file name"}


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (``PROG: error: ...``), exit 2.

    A flag whose metavar says it names a path (:data:`PATH_METAVARS`) given an empty value
    (``--ship ""``) is a usage error too, not the same as leaving the flag out, and so is a
    whole number beyond :data:`MAX_FLAG_INT` given to any numeric flag (each command checks
    its own, narrower range before any work as well).
    """

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_USAGE)

    def parse_known_args(self, args=None, namespace=None):
        ns, extra = super().parse_known_args(args, namespace)
        problem = None
        for action in self._actions:
            value = getattr(ns, action.dest, None) if action.option_strings else None
            if isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_FLAG_INT \
                    and value != action.default:
                problem = f"{action.option_strings[0]}: {value} is out of range (at most {MAX_FLAG_INT:,})"
            what = PATH_METAVARS.get(action.metavar) if isinstance(action.metavar, str) else None
            if what and isinstance(value, str) and not value.strip() and value != action.default:
                problem = f"{action.option_strings[0]}: expected {what}, got an empty value"
            if problem:
                break
        if problem and callable(getattr(ns, "func", None)):
            # a command's own flag: refused when the command runs, like its other checks
            # (one line, exit 2, returned by the command line rather than raised)
            def refuse(*_a: object, _msg: str = problem) -> int:
                raise WordleError(_msg)

            ns.func = refuse
        elif problem:
            self.error(problem)
        return ns, extra


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
    except KeyboardInterrupt as exc:  # 130 Ctrl-C, 143 SIGTERM (pipelines.orchestration.runner.Interrupted)
        sys.stderr.write(f"{prog}: interrupted{getattr(exc, 'detail', '')}\n")
        return int(getattr(exc, "exit_code", 130))
    except BrokenPipeError:
        return 0
    except OSError as exc:
        where = f": {exc.filename}" if exc.filename else ""
        sys.stderr.write(f"{prog}: error: {exc.strerror or exc}{where}\n")
        return EXIT_FAILURE
    return int(rc or 0)
