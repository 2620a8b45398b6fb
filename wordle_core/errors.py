"""Error types of the engine.

Every error a user can cause derives from :class:`WordleError`, so the CLI can turn
any of them into one clear line on stderr and exit code 2 instead of a traceback.
"""

from __future__ import annotations


class WordleError(ValueError):
    """Base class for every user-facing error (bad word, bad feedback, ...)."""


class UnknownLexiconError(WordleError):
    """A lexicon name that is neither built in nor given as files."""


class LexiconFileError(WordleError):
    """A custom word list that cannot be used (mixed lengths, empty, unreadable)."""


class UnknownWordError(WordleError):
    """A word that the lexicon does not accept as a guess."""


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
