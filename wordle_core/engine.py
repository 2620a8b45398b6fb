"""The engine's own names, for advanced use.

``import wordle_core as wl`` is the public API: it takes and returns words
(``wl.Position``, ``wl.score``, ``wl.optimal``, ...). Below it the engine works on row
indices into a lexicon's lists and on integer pattern codes; this namespace gathers the
names a program needs to work at that level, for instance to drive a strategy or a
search directly. They are stable, but lower level: prefer the words API where it does
what you need. ``Position.state`` is the bridge from a position to a :class:`GameState`.

    >>> from wordle_core import engine
    >>> lex = engine.load_lexicon("wordle")
    >>> state = engine.GameState.new(lex).apply(lex.guess_id("salet"), engine.parse_feedback("bybgb", 5))
    >>> state.n_candidates, engine.pattern_to_str(33, 5), engine.pattern_to_emoji(33, 5)
    (7, 'bybgb', '⬛🟨⬛🟩⬛')
    >>> int(engine.pattern_matrix(lex)[lex.guess_id("salet"), lex.answer_id("amber")])
    33
    >>> lex.guesses[engine.get_strategy("entropy").choose(state)]
    'borna'

* lexicons: :class:`Lexicon`, :func:`load_lexicon`, :func:`resolve_lexicon`,
  :data:`BUILTINS`, :data:`DEFAULT_LEXICON`;
* feedback codes: :func:`parse_feedback`, :func:`pattern_to_str`, :func:`pattern_to_emoji`,
  :func:`pattern_matrix` (every guess against every answer, cached on disk);
* positions and games: :class:`GameState`, :func:`parse_history`, :class:`Tree`;
* strategies: :class:`Strategy`, :func:`get_strategy`.
"""

from wordle_core.game.feedback import parse_feedback, pattern_to_emoji, pattern_to_str
from wordle_core.game.history import parse_history
from wordle_core.game.lexicon import BUILTINS, DEFAULT_LEXICON, Lexicon, load_lexicon, resolve_lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState
from wordle_core.game.tree import Tree
from wordle_core.strategies import get_strategy
from wordle_core.strategies.base import Strategy

__all__ = [
    "BUILTINS",
    "DEFAULT_LEXICON",
    "GameState",
    "Lexicon",
    "Strategy",
    "Tree",
    "get_strategy",
    "load_lexicon",
    "parse_feedback",
    "parse_history",
    "pattern_matrix",
    "pattern_to_emoji",
    "pattern_to_str",
    "resolve_lexicon",
]
