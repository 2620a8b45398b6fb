"""Interactive games as pure sessions: lines in, ``Out`` items out (no I/O).

:func:`assist_session` helps with a real game played elsewhere (type the guess and the
colours you got); :func:`play_session` hides an answer (or plays the evil host) and you
guess. Each returns the engine's session object (:mod:`wordle_core.interactive.session`):
``start()`` and ``handle(line)`` return a ``Reply`` whose ``out`` items a front end
renders (``wordle-lab assist`` and ``play`` print them).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from wordle_core.api.feedback import LexiconLike, as_lexicon
from wordle_core.api.position import strategy_named
from wordle_core.game.lexicon import DEFAULT_LEXICON
from wordle_core.game.matrix import pattern_matrix

if TYPE_CHECKING:
    from wordle_core.game.tree import Tree
    from wordle_core.interactive.session import AssistSession, PlaySession
    from wordle_core.search.openers import OpenerScores

HINT_STRATEGY = "entropy"  # what `play`'s hint asks: quick, and its numbers are the review's


def assist_session(lexicon: LexiconLike = DEFAULT_LEXICON, strategy: str = "default", hard: bool = False,
                   *, top: int = 3, tree: Tree | None = None, opener: str | None = None,
                   opener_scores: OpenerScores | None = None) -> AssistSession:
    """A live assistant: it proposes ``top`` guesses each turn (``strategy``'s pick first,
    read off ``tree`` where the tree covers the position), starting with ``opener``
    (default: the tree's, else :func:`~wordle_core.api.default_opener`). ``opener_scores``:
    the opener table, which gives the first proposal's numbers without the kernels.

    >>> from wordle_core import Lexicon
    >>> ight = ["fight", "light", "might", "night", "right", "sight", "tight"]
    >>> helper = assist_session(Lexicon.build("ight", ight, [*ight, "flint"]), "entropy", opener="flint")
    >>> [o.text for o in helper.start().out if "FLINT" in o.text][:1]  # doctest: +ELLIPSIS
    ['...FLINT...']
    """
    from wordle_core.api.games import default_opener
    from wordle_core.interactive.session import AssistSession

    lex = as_lexicon(lexicon)
    strat = strategy_named(strategy, opener_scores)
    if opener is not None:
        row = lex.guess_id(opener)
    elif tree is not None:
        row = tree.opener
    else:
        row = lex.guess_id(default_opener(lex, hard))
    return AssistSession(lex, pattern_matrix(lex), strat, hard=hard, tree=tree, opener=row, top=top,
                         first=opener_scores)


def play_session(lexicon: LexiconLike = DEFAULT_LEXICON, hard: bool = False, *, answer: str | None = None,
                 seed: int | None = None, evil: bool = False,
                 opener_scores: OpenerScores | None = None) -> PlaySession:
    """A game to play: against ``answer``, or an answer drawn from ``seed`` (None: a fresh
    random one), or with ``evil`` against the host that keeps the most words each turn.
    ``hint`` asks the ``entropy`` strategy.

    >>> from wordle_core import Lexicon
    >>> ight = ["fight", "light", "might", "night", "right", "sight", "tight"]
    >>> game = play_session(Lexicon.build("ight", ight, [*ight, "morts"]), answer="night")
    >>> [o.text for o in game.handle("night").out if o.kind == "text"][0]
    'You won in 1!'
    """
    from wordle_core.interactive.session import PlaySession

    lex = as_lexicon(lexicon)
    mat = pattern_matrix(lex)
    hints = strategy_named(HINT_STRATEGY, opener_scores)  # cheap: its kernels load on the first hint
    if evil:
        return PlaySession(lex, mat, hard=hard, evil=True, hint_strategy=hints)
    if answer is not None:
        row = lex.answer_id(answer)
    else:
        import numpy as np

        row = int(np.random.default_rng(seed).integers(len(lex.answers)))
    return PlaySession(lex, mat, hard=hard, answer=row, hint_strategy=hints, answer_known=answer is not None)
