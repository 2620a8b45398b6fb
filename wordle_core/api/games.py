"""One game at a time, in words: play it (:func:`solve`), judge it (:func:`review`), beat the
evil host (:func:`evil_solve`), and the effect of a word-frequency prior (:func:`prior_effect`).

Each function is a thin call into the engine (:mod:`wordle_core.analysis`,
:mod:`wordle_core.strategies.prior`) that returns a frozen value with ``to_dict()``: what
the matching ``wordle-lab`` command prints with ``--json``. The engine modules are
imported when a function is first called, so ``import wordle_core`` stays fast.

The examples use a 101-answer slice of Wordle, which runs in milliseconds::

    >>> from wordle_core import Lexicon, load_lexicon
    >>> small = Lexicon.build("wordle-101", load_lexicon("wordle").answers[::23])
    >>> game = solve("slump", strategy="entropy", lexicon=small, opener="trace")
    >>> [str(t.feedback) for t in game.turns], game.remaining
    (['bbbbb', 'bbgbb', 'gbgbb', 'ggggg'], (10, 2, 1, 1))
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING

from wordle_core.api.analysis import GameRecord
from wordle_core.api.feedback import Feedback, LexiconLike, as_lexicon
from wordle_core.api.position import strategy_named
from wordle_core.api.word_position import History, Turn, history_pairs
from wordle_core.errors import WordleError
from wordle_core.game.lexicon import DEFAULT_LEXICON
from wordle_core.game.matrix import pattern_matrix

if TYPE_CHECKING:
    from wordle_core.analysis.evil import EvilSolution
    from wordle_core.analysis.review import ReviewStep
    from wordle_core.search.openers import OpenerScores

MAX_SOLVE_GUESSES = 30  # a strategy that makes no progress stops here (the game is then unsolved)


def default_opener(lexicon: LexiconLike = DEFAULT_LEXICON, hard: bool = False) -> str:
    """The first guess commands play when none is named: the proven best opener where the
    package ships a proven ranking for the game and mode, else the best first guess by
    entropy (ties alphabetical).

    >>> default_opener("wordle"), default_opener("wordle", hard=True)
    ('salet', 'salet')
    >>> default_opener("nyt2023")  # the proven best (Selby: 11,219 guesses over 3,158 answers)
    'tarse'
    """
    from wordle_core.tables.exact import recommended_opener

    return recommended_opener(as_lexicon(lexicon), hard)


def solve(answer: str, strategy: str = "entropy", lexicon: LexiconLike = DEFAULT_LEXICON,
          hard: bool = False, *, opener: str | None = None,
          opener_scores: OpenerScores | None = None) -> GameRecord:
    """The game ``strategy`` plays when the answer is ``answer``, from ``opener`` (default:
    :func:`default_opener`). The record's ``remaining`` holds the answers still possible
    after each guess; a game the strategy does not finish within 30 guesses is not ``solved``.
    ``opener_scores``: the game's opener table, for a strategy that reads it.

    >>> game = solve("skier", lexicon="wordle", opener="salet")
    >>> game.to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'answer': 'skier', 'length': 4, 'guesses': ['salet', 'hewer', 'abrim', 'skier'],
     'feedback': ['gbbgb', 'bbbgg', 'bbyyb', 'ggggg'], 'remaining': [23, 4, 1, 1], 'solved': True}
    """
    lex = as_lexicon(lexicon)
    target = lex.answer_id(answer)
    strat = strategy_named(strategy, opener_scores)
    from wordle_core.game.state import GameState

    state = GameState.new(lex, hard, pattern_matrix(lex))
    guess = lex.guess_id(opener if opener is not None else default_opener(lex, hard))
    left: list[int] = []
    for _ in range(MAX_SOLVE_GUESSES):
        state = state.play(guess, target)
        left.append(state.n_candidates)
        if state.solved:
            break
        guess = strat.choose(state)
    turns = tuple(Turn(lex.guesses[g], Feedback.from_code(p, lex.length)) for g, p in state.history)
    return GameRecord(lex.answers[target], turns, tuple(left))


@dataclass(frozen=True)
class Review:
    """A played game judged guess by guess against ``strategy`` (see :func:`review`).

    ``skill`` and ``luck`` are 0-99 averages of the steps' scores; ``answer`` is None when
    the game was not solved. ``str(review)`` is the text ``wordle-lab review`` prints.
    """

    lexicon: str
    strategy: str
    hard: bool
    solved: bool
    answer: str | None
    guesses: int
    skill: int
    luck: int
    steps: tuple[ReviewStep, ...]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys; each step's fields as its keys)."""
        return {"lexicon": self.lexicon, "strategy": self.strategy, "hard": self.hard,
                "solved": self.solved, "answer": self.answer, "guesses": self.guesses,
                "skill": self.skill, "luck": self.luck, "steps": [asdict(s) for s in self.steps]}

    def __str__(self) -> str:
        from wordle_core.analysis.review import format_review

        return format_review(self.to_dict())


def review(history: History, strategy: str = "entropy", lexicon: LexiconLike = DEFAULT_LEXICON,
           hard: bool = False, *, prior: str | None = None,
           opener_scores: OpenerScores | None = None) -> Review:
    """Review a played game: each guess's skill (how close its value came to the strategy's
    best guess) and luck (how small its bucket was among the possible ones).

    ``prior`` (``uniform`` or ``frequency``) weights the answers: ``entropy`` and
    ``expected-size`` become ``prior-entropy`` / ``prior-expected-size``.

    >>> r = review("crane:bbgbg,slate:gbgbg,shade:gggbg,shake:ggggg", lexicon="wordle")
    >>> r.answer, r.guesses, r.skill, r.luck
    ('shake', 4, 76, 53)
    >>> [(s.guess, s.best_guess, s.candidates_after) for s in r.steps][:2]
    [('crane', 'soare', 44), ('slate', 'stulm', 7)]
    """
    from wordle_core.analysis.review import ReviewStep, review_game

    lex = as_lexicon(lexicon)
    pairs = history_pairs(history)
    if len(pairs) > lex.max_guesses:
        raise WordleError(f"a {lex.name} game has at most {lex.max_guesses} guesses; "
                          f"the history has {len(pairs)}")
    strat = strategy_named(strategy, opener_scores, prior=prior)
    got = review_game(lex, [(w, str(f)) for w, f in pairs], strat, hard, pattern_matrix(lex))
    steps = got["steps"]
    assert isinstance(steps, list)
    return Review(lexicon=str(got["lexicon"]), strategy=str(got["strategy"]), hard=bool(got["hard"]),
                  solved=bool(got["solved"]), answer=None if got["answer"] is None else str(got["answer"]),
                  guesses=len(pairs), skill=int(str(got["skill"])), luck=int(str(got["luck"])),
                  steps=tuple(ReviewStep(**s) for s in steps))


def evil_solve(lexicon: LexiconLike = DEFAULT_LEXICON, hard: bool = False, *, max_depth: int = 12,
               max_positions: int = 2_000_000, progress: bool = False) -> EvilSolution:
    """The proven-shortest guess sequence that beats the evil host (who keeps the largest
    group of answers each turn, ties to the lowest pattern), with the proof: every shorter
    depth searched and refuted. ``length`` is None when the limits ran out first.

    >>> small = ["fight", "light", "might", "night", "right", "sight", "tight"]
    >>> from wordle_core import Lexicon
    >>> win = evil_solve(Lexicon.build("ight", small, small + ["flint", "morts"]))
    >>> win.length, win.guesses[0], win.to_dict()["proven_lower_bound"]
    (3, 'flint', 3)
    """
    from wordle_core.analysis.evil import evil_solve as search

    if max_depth < 1 or max_positions < 1:
        raise WordleError("max_depth and max_positions must be at least 1")
    lex = as_lexicon(lexicon)
    return search(lex, hard, pattern_matrix(lex), max_depth=max_depth, max_positions=max_positions,
                  progress=progress)


@dataclass(frozen=True)
class PriorRun:
    """Every answer solved by ``strategy`` weighted by one ``prior`` (see :func:`prior_effect`):
    the share solved within the limit counted unweighted and weighted by word frequency."""

    prior: str
    strategy: str
    opener: str
    mean_guesses: float
    mean_guesses_weighted: float
    solved_unweighted: float
    solved_weighted: float
    max_guesses: int
    guess_distribution: dict[str, int]
    seconds: float

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys)."""
        return asdict(self)


@dataclass(frozen=True)
class PriorEffect:
    """Solving with the uniform and the frequency prior, side by side (see :func:`prior_effect`)."""

    lexicon: str
    hard: bool
    limit: int
    answers: int
    runs: tuple[PriorRun, ...]

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form: what ``wordle-lab prior-effect --json`` prints."""
        return {"lexicon": self.lexicon, "hard": self.hard, "limit": self.limit, "answers": self.answers,
                "runs": [r.to_dict() for r in self.runs]}


def prior_effect(lexicon: LexiconLike = "nyt14855-all", strategy: str = "entropy",
                 opener: str | None = None, hard: bool = False, *, progress: bool = False) -> PriorEffect:
    """Solve every answer with the uniform and with the frequency prior; count the games won
    both ways (every answer once, and weighted by how common the words are). ``strategy``
    is ``entropy`` or ``expected-size``; ``opener`` (default: each run's own choice).

    >>> small = ["fight", "light", "might", "night", "right", "sight", "tight"]
    >>> from wordle_core import Lexicon
    >>> effect = prior_effect(Lexicon.build("ight", small, small + ["flint", "morts"]), opener="morts")
    >>> [(r.prior, r.max_guesses, r.solved_unweighted) for r in effect.runs]
    [('uniform', 3, 1.0), ('frequency', 3, 1.0)]
    """
    from wordle_core.strategies.prior import prior_effect as measure

    lex = as_lexicon(lexicon)
    got = measure(lex, strategy, opener, hard, pattern_matrix(lex), progress=progress)
    return PriorEffect(lexicon=got["lexicon"], hard=got["hard"], limit=got["limit"], answers=got["answers"],
                       runs=tuple(PriorRun(**r) for r in got["runs"]))
