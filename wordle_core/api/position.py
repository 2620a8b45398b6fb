"""Positions: what is known after some guesses, in words.

A :class:`Position` is built from a history of ``(guess, feedback)`` pairs, in normal
or hard mode, and answers in words: the candidates still possible, the guesses that
are legal, whether it is solved. :meth:`Position.play` returns a new position (the
old one is unchanged), like ``board.push`` in python-chess but without mutation.

Underneath is the engine's :class:`~wordle_core.game.state.GameState` (``.state``),
which every strategy, search and analysis reads; nothing here re-implements a rule.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from wordle_core.api.feedback import Feedback, LexiconLike, as_lexicon
from wordle_core.api.strategy_catalogue import StrategyInfo
from wordle_core.api.word_position import History, Turn, history_pairs, position_dict
from wordle_core.errors import WordleError
from wordle_core.game.feedback import parse_feedback
from wordle_core.game.lexicon import DEFAULT_LEXICON, Lexicon
from wordle_core.game.matrix import pattern_matrix
from wordle_core.game.state import GameState

if TYPE_CHECKING:
    from wordle_core.game.tree import Tree
    from wordle_core.search.openers import OpenerScores
    from wordle_core.strategies.base import Strategy


class Position:
    """A game position: lexicon, mode and history, checked on construction.

    Words are case-insensitive; an unknown word, bad feedback, a hard-mode violation
    or a history no answer fits raises a :class:`~wordle_core.errors.WordleError`
    subclass with one clear line.

    The game is today's NYT game (``nyt2023``) unless ``lexicon`` names another:

    >>> pos = Position([("salet", "bybgb")])
    >>> pos
    Position('salet:bybgb', lexicon='nyt2023', hard=False)
    >>> pos.remaining, pos.candidates[:4]
    (19, ('abbey', 'ached', 'added', 'adder'))
    >>> pos.play("borna", "ybyby").candidates
    ('amber',)
    >>> Position([("salet", "bybgb")], lexicon="wordle").remaining
    7
    >>> Position("salet:bybgb,crony:bbbbb", lexicon="wordle").remaining
    Traceback (most recent call last):
    ...
    wordle_core.errors.InconsistentHistoryError: no wordle answer fits crony:bbbbb after the earlier feedback
    """

    def __init__(self, history: History = (), *, lexicon: LexiconLike = DEFAULT_LEXICON,
                 hard: bool = False) -> None:
        lex = as_lexicon(lexicon)
        self._state = GameState.from_history(lex, [(w, str(f)) for w, f in history_pairs(history)], hard,
                                             pattern_matrix(lex))

    @classmethod
    def from_state(cls, state: GameState) -> Position:
        """Wrap an engine :class:`GameState` (no checks: the state is valid by construction)."""
        pos = cls.__new__(cls)
        pos._state = state
        return pos

    # --- what the position is ------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The engine's state, for the lower-level API (strategies, trees, search)."""
        return self._state

    @property
    def lexicon(self) -> Lexicon:
        """The game's word lists."""
        return self._state.lexicon

    @property
    def hard(self) -> bool:
        """Hard mode: revealed hints must be used in every later guess."""
        return self._state.hard

    @cached_property
    def history(self) -> tuple[Turn, ...]:
        """The guesses played so far with their feedback."""
        length = self.lexicon.length
        return tuple(Turn(self.lexicon.guesses[g], Feedback.from_code(p, length))
                     for g, p in self._state.history)

    @property
    def turn(self) -> int:
        """Number of guesses played."""
        return self._state.turn

    @property
    def guesses_left(self) -> int:
        """Guesses still allowed by the game's limit (6 for Wordle)."""
        return self._state.guesses_left

    @property
    def is_solved(self) -> bool:
        """The last guess was all green."""
        return self._state.solved

    @property
    def is_over(self) -> bool:
        """Solved, or out of guesses.

        >>> Position("crane:ggggg").is_over
        True
        """
        return self.is_solved or self.guesses_left <= 0

    @property
    def remaining(self) -> int:
        """How many answers are still possible."""
        return self._state.n_candidates

    @cached_property
    def candidates(self) -> tuple[str, ...]:
        """The answers still possible, alphabetical."""
        return tuple(self._state.candidate_words())

    @cached_property
    def legal_guesses(self) -> tuple[str, ...]:
        """Every word that may be guessed now (in hard mode: those using every hint).

        >>> hard = Position([("salet", "bybgb")], hard=True)
        >>> len(hard.legal_guesses) < len(Position().legal_guesses)
        True
        """
        words = self.lexicon.guesses
        return tuple(words[int(r)] for r in self._state.legal_rows)

    def is_legal(self, guess: str) -> bool:
        """May ``guess`` be played now? (Unknown words are not legal.)

        >>> hard = Position([("salet", "bybgb")], hard=True)
        >>> hard.is_legal("amber"), hard.is_legal("crane"), hard.is_legal("zzzzz")
        (True, False, False)
        """
        word = guess.strip().lower()
        row = self.lexicon.guess_index.get(word)
        if row is None:
            return False
        return not self.hard or self._state.constraints.violation(self.lexicon, row) is None

    # --- moves ---------------------------------------------------------------------------
    def play(self, guess: str, feedback: str) -> Position:
        """The position after ``guess`` got ``feedback`` (this one is unchanged).

        >>> Position(hard=True).play("salet", "bybgb").play("crane", "bbbbb")
        Traceback (most recent call last):
        ...
        wordle_core.errors.HardModeViolation: hard mode: 'crane' is not allowed: 4th letter must be E
        """
        lex = self.lexicon
        return Position.from_state(self._state.apply(lex.guess_id(guess), _code(feedback, lex)))

    def play_against(self, guess: str, answer: str) -> Position:
        """The position after ``guess`` when the hidden answer is ``answer``.

        >>> Position().play_against("salet", "amber").history[-1].feedback
        Feedback('bybgb')
        """
        lex = self.lexicon
        return Position.from_state(self._state.play(lex.guess_id(guess), lex.answer_id(answer)))

    def best_guesses(self, strategy: str = "entropy", n: int = 5) -> list[GuessScore]:
        """Shortcut for :func:`wordle_core.best_guesses` on this position.

        >>> [g.word for g in Position("salet:bybgb").best_guesses(n=3)]
        ['mudir', 'murid', 'bider']
        """
        return best_guesses(self, strategy=strategy, n=n)

    # --- value semantics -------------------------------------------------------------------
    def to_dict(self) -> dict[str, object]:
        """JSON-ready summary (snake_case keys).

        >>> Position("salet:bybgb,borna:ybyby").to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'lexicon': 'nyt2023', 'hard': False,
         'history': [{'guess': 'salet', 'feedback': 'bybgb'}, {'guess': 'borna', 'feedback': 'ybyby'}],
         'remaining': 1, 'candidates': ['amber'], 'solved': False}
        """
        return position_dict(self.lexicon, self.hard, self.history, self.candidates, self.is_solved)

    def _key(self) -> tuple[str, bool, tuple[tuple[int, int], ...]]:
        return (self.lexicon.fingerprint, self.hard, self._state.history)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        return self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        hist = ",".join(f"{t.guess}:{t.feedback}" for t in self.history)
        return f"Position({hist!r}, lexicon={self.lexicon.name!r}, hard={self.hard})"


def candidates(history: History | Position = (), *, lexicon: LexiconLike = DEFAULT_LEXICON,
               hard: bool = False) -> list[str]:
    """The answers still possible after ``history`` (or in a :class:`Position`).

    >>> candidates([("salet", "bybgb"), ("borna", "ybyby")])
    ['amber']
    >>> len(candidates()), len(candidates(lexicon="wordle"))
    (3158, 2315)
    """
    pos = history if isinstance(history, Position) else Position(history, lexicon=lexicon, hard=hard)
    return list(pos.candidates)


@dataclass(frozen=True)
class GuessScore:
    """One candidate next guess with the numbers that judge it in its position.

    ``entropy_bits``: expected information of the feedback; ``expected_size``: expected
    number of answers left (a winning guess's own bucket counts as one);
    ``largest_bucket``: answers left in the worst case; ``buckets``: distinct feedbacks;
    ``is_candidate``: it may be the answer; ``is_pick``: the strategy's own choice.
    For a first guess of a game whose exact tables ship with the package, ``optimal``
    says what they hold: ``proven`` (``optimal_total`` is the proven fewest total
    guesses over every answer), ``no-win``, ``wins`` (hard mode: a guaranteed win, total
    not computed yet) or ``unknown``; elsewhere it is empty.
    """

    word: str
    entropy_bits: float
    expected_size: float
    largest_bucket: int
    buckets: int
    is_candidate: bool
    is_pick: bool
    optimal: str = ""
    optimal_total: int | None = None

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys; ``optimal`` and ``optimal_total`` only
        where the exact tables say something).

        >>> best_guesses(Position("salet:bybgb"), n=1)[0].to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'word': 'mudir', 'entropy_bits': 3.9977, 'expected_size': 1.316, 'largest_bucket': 3,
         'buckets': 17, 'is_candidate': False, 'is_pick': True}
        """
        out = asdict(self)
        if not self.optimal:
            del out["optimal"], out["optimal_total"]
        return out


@dataclass(frozen=True)
class Suggestion:
    """What :func:`suggest` answers: the ranked next guesses of a position (``options``, the
    strategy's pick first) and the candidates when few are left (at most 40; else empty).

    ``source`` says where the pick came from: ``table`` (read off a decision tree that
    covers the position), ``opener`` (the first guess), ``computed`` (the strategy chose
    now) or ``solved`` (nothing left to guess).
    """

    lexicon: str
    hard: bool
    strategy: str
    source: str
    history: tuple[Turn, ...]
    remaining: int
    candidates: tuple[str, ...]
    options: tuple[GuessScore, ...]

    @property
    def best(self) -> str | None:
        """The pick (None when solved)."""
        return self.options[0].word if self.options else None

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys): what ``wordle-lab suggest --json`` prints.

        >>> found = suggest("salet:bybgb,borna:ybyby", lexicon="wordle", top=1)
        >>> found.to_dict()  # doctest: +NORMALIZE_WHITESPACE
        {'lexicon': 'wordle', 'hard': False, 'strategy': 'entropy', 'source': 'computed',
         'history': [{'guess': 'salet', 'feedback': 'bybgb'}, {'guess': 'borna', 'feedback': 'ybyby'}],
         'remaining': 1, 'candidates': ['amber'],
         'options': [{'word': 'amber', 'entropy_bits': 0.0, 'expected_size': 1.0, 'largest_bucket': 1,
                      'buckets': 1, 'is_candidate': True, 'is_pick': True}]}
        """
        return {"lexicon": self.lexicon, "hard": self.hard, "strategy": self.strategy,
                "source": self.source, "history": [t.to_dict() for t in self.history],
                "remaining": self.remaining, "candidates": list(self.candidates),
                "options": [o.to_dict() for o in self.options]}


def suggest(position: Position | History = (), strategy: str = "entropy", top: int = 5, *,
            lexicon: LexiconLike = DEFAULT_LEXICON, hard: bool = False, tree: Tree | None = None,
            opener: str | None = None, opener_scores: OpenerScores | None = None) -> Suggestion:
    """The ``top`` best next guesses of a position, with their numbers: the strategy's pick
    first, then the runners-up (ranked as :func:`best_guesses` says); what ``wordle-lab
    suggest`` prints. ``position``: a :class:`Position`, or a history played in
    ``lexicon`` and mode ``hard``. ``tree``: a decision tree (:func:`~wordle_core.api.load_tree`)
    whose pick is read off where it covers the position; ``opener``: the first guess to
    propose (default: the strategy's own choice, which for ``default`` takes seconds);
    ``opener_scores``: the game's opener table, which gives the first guess's numbers
    without the kernels.

    >>> s = suggest("salet:bybgb", lexicon="wordle", top=3)
    >>> s.source, s.remaining, s.best, [o.word for o in s.options]
    ('computed', 7, 'borna', ['borna', 'dorba', 'ender'])
    >>> suggest(lexicon="wordle", opener="salet", top=1).options[0].optimal_total
    7920
    """
    from wordle_core.interactive.suggest import suggest as rank

    if top < 1:
        raise WordleError(f"top must be at least 1, not {top}")
    pos = position if isinstance(position, Position) else Position(position, lexicon=lexicon, hard=hard)
    lex = pos.lexicon
    strat = strategy_named(strategy, opener_scores)
    first = lex.guess_id(opener) if opener is not None else None
    got = rank(pos.state, strat, top=top, tree=tree, opener=first, first=opener_scores)
    length = lex.length
    return Suggestion(
        lexicon=got.lexicon, hard=got.hard, strategy=got.strategy, source=got.source,
        history=tuple(Turn(g, Feedback.parse(f, length)) for g, f in got.history),
        remaining=got.remaining, candidates=tuple(got.candidates),
        options=tuple(GuessScore(o.word, o.entropy_bits, o.expected_remaining, o.largest_bucket, o.buckets,
                                 o.can_be_answer, o.pick, o.optimal, o.optimal_total) for o in got.options))


def strategy_named(name: str, opener_scores: OpenerScores | None = None, *,
                   prior: str | None = None) -> Strategy:
    """The registered strategy ``name`` (an unknown name raises ``UnknownStrategyError``),
    given the opener table when it reads one (``Strategy.tables``); with ``prior``
    (``uniform`` / ``frequency``), ``entropy`` and ``expected-size`` weighted by it.

    >>> strategy_named("entropy").name, strategy_named("entropy", prior="frequency").name
    ('entropy', 'prior-entropy')
    """
    from wordle_core.strategies import get_strategy

    if prior:
        from wordle_core.strategies.prior import strategy_with_prior

        return strategy_with_prior(name, prior)
    reads = type(get_strategy(name)).tables
    return get_strategy(name, **({"opener_scores": opener_scores}
                                 if opener_scores is not None and "opener_scores" in reads else {}))


def best_guesses(position: Position | History, strategy: str = "entropy", n: int = 5, *,
                 opener: str | None = None) -> list[GuessScore]:
    """The ``n`` best next guesses: the strategy's pick first, then the runners-up.

    Runners-up are ranked by expected information plus the chance of winning now,
    ties to a possible answer, then alphabetical: the ranking of ``wordle-lab
    suggest`` (this calls the same engine function, so both always agree). A solved
    position has no next guess (empty list). ``strategy`` is any name that
    ``wordle-lab strategies`` lists. In the empty position the strategy's own choice
    is searched for, which for ``default`` (a look-ahead over every opener) takes
    seconds; ``opener`` names the first guess to propose instead.

    >>> for g in best_guesses([("salet", "bybgb")], n=3):
    ...     print(g.word, g.entropy_bits, g.expected_size, g.largest_bucket, g.is_candidate)
    mudir 3.9977 1.316 3 False
    murid 3.8924 1.421 3 False
    bider 3.8269 1.421 2 False
    >>> [g.word for g in best_guesses(Position("salet:bybgb", lexicon="wordle"), n=3)]
    ['borna', 'dorba', 'ender']
    >>> best_guesses("crane:ggggg")
    []
    """
    if n < 1:
        raise WordleError(f"n must be at least 1, not {n}")
    return list(suggest(position, strategy, n, opener=opener).options)


def strategy_info(name: str, *, prior: str | None = None) -> StrategyInfo:
    """The registered strategy ``name`` (with ``prior``: its weighted version), or one line
    naming the strategies there are (``UnknownStrategyError``).

    >>> strategy_info("entropy", prior="frequency").name
    'prior-entropy'
    >>> strategy_info("oracle")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    wordle_core.errors.UnknownStrategyError: unknown strategy 'oracle'...
    """
    d = strategy_named(name, prior=prior).describe()
    return StrategyInfo(str(d["name"]), str(d["summary"]), str(d["source"]), bool(d["deterministic"]))


def _code(feedback: str, lexicon: Lexicon) -> int:
    return parse_feedback(str(feedback), lexicon.length)
