"""The built-in games, in words: :func:`lexicons` -> :class:`LexiconInfo` values.

    >>> [(g.name, g.answers) for g in lexicons()][:2]
    [('wordle', 2315), ('nyt', 2309)]
    >>> next(g for g in lexicons() if g.default).name
    'nyt2023'
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from wordle_core.game.lexicon import BUILTIN_SIZES, BUILTINS, DEFAULT_LEXICON


@dataclass(frozen=True)
class LexiconInfo:
    """One built-in game: its ``name`` (what ``lexicon=`` and ``--lexicon`` take), the word
    ``length``, how many ``answers`` and allowed ``guesses`` it has, and whether it is the
    ``default`` game."""

    name: str
    length: int
    answers: int
    guesses: int
    default: bool

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys): what ``wordle-lab lexicons --json`` prints.

        >>> LexiconInfo("wordle", 5, 2315, 12972, False).to_dict()
        {'name': 'wordle', 'length': 5, 'answers': 2315, 'guesses': 12972, 'default': False}
        """
        return asdict(self)


def lexicons() -> list[LexiconInfo]:
    """Every built-in game, in the order ``wordle-lab lexicons`` lists them.

    >>> wordle = lexicons()[0]
    >>> wordle.name, wordle.length, wordle.guesses, wordle.default
    ('wordle', 5, 12972, False)
    """
    # (the sizes are a table, tested against the built games: building Nerdle generates it)
    sizes = [(name, BUILTIN_SIZES[name]) for name in BUILTINS]
    return [LexiconInfo(name, s.length, s.answers, s.guesses, name == DEFAULT_LEXICON) for name, s in sizes]
