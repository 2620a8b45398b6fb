"""Whole-game questions in words: simulate an opener, prove its optimum, decide hard mode.

Each function here is a thin call into the engine (:mod:`wordle_core.analysis.simulate`,
:mod:`wordle_core.search.exact`, :mod:`wordle_core.search.hard`) that returns a frozen
dataclass with ``to_dict()`` (snake_case keys). The engine modules are imported when a
function is first called, so ``import wordle_core`` stays fast.

The examples use a 101-answer slice of Wordle (every 23rd answer, which are also
its only guesses) so that they run in milliseconds; the default lexicon, ``nyt2023``,
plays today's NYT game (``lexicon="wordle"`` the original one)::

    >>> from wordle_core import Lexicon, load_lexicon
    >>> small = Lexicon.build("wordle-101", load_lexicon("wordle").answers[::23])
    >>> len(small.answers), small.answers[:4]
    (101, ('aback', 'adobe', 'alarm', 'amaze'))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from wordle_core.api.feedback import Feedback, LexiconLike, as_lexicon
from wordle_core.api.position import Turn
from wordle_core.errors import WordleError
from wordle_core.game.lexicon import DEFAULT_LEXICON
from wordle_core.game.matrix import pattern_matrix

if TYPE_CHECKING:
    from wordle_core.game.tree import Tree

@dataclass(frozen=True)
class GameRecord:
    """One simulated game: the answer and every turn, ending all green."""

    answer: str
    turns: tuple[Turn, ...]

    @property
    def length(self) -> int:
        """Guesses used (the all-green one included)."""
        return len(self.turns)

    def to_dict(self) -> dict[str, object]:
        """``{"answer", "length", "guesses", "feedback"}`` (lists in play order)."""
        return {"answer": self.answer, "length": self.length,
                "guesses": [t.guess for t in self.turns],
                "feedback": [str(t.feedback) for t in self.turns]}


@dataclass(frozen=True)
class SimulationResult:
    """Every answer played from one opener by one strategy (see :func:`simulate`).

    ``total`` is the guesses of all games together (what :func:`optimal` minimises),
    ``histogram`` maps game length to games; ``failures`` counts games over the
    guess limit; ``worst_games`` are the longest games (longest first, then by answer).
    ``report`` is the solve-all report of the "ultimate Wordle solver" article's
    format (its camelCase keys: ``totalCount``, ``guessDistribution``, ...), exactly as
    ``wordle-lab simulate --json`` prints it; ``tree`` is the engine's decision tree.
    """

    lexicon: str
    strategy: str
    opener: str
    hard: bool
    games: int
    total: int
    mean: float
    max_guesses: int
    failures: int
    histogram: dict[int, int]
    worst_games: tuple[GameRecord, ...]
    seconds: float
    report: dict[str, object] = field(repr=False, compare=False)
    tree: Tree = field(repr=False, compare=False)

    def game(self, answer: str) -> GameRecord:
        """The game this strategy plays when the answer is ``answer``.

        >>> from wordle_core import Lexicon, load_lexicon
        >>> small = Lexicon.build("wordle-101", load_lexicon("wordle").answers[::23])
        >>> game = simulate("trace", lexicon=small).game("slump")
        >>> game.to_dict()  # doctest: +ELLIPSIS +NORMALIZE_WHITESPACE
        {'answer': 'slump', 'length': 4, 'guesses': ['trace', ..., 'slump'],
         'feedback': ['bbbbb', ..., 'ggggg']}
        """
        return _game(self.tree, self.tree.lexicon.answer_id(answer))

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form with snake_case keys (``report`` and ``tree`` left out)."""
        return {
            "lexicon": self.lexicon, "strategy": self.strategy, "opener": self.opener,
            "hard": self.hard, "games": self.games, "total": self.total,
            "mean": self.mean, "max_guesses": self.max_guesses, "failures": self.failures,
            "histogram": {str(k): v for k, v in self.histogram.items()},
            "worst_games": [g.to_dict() for g in self.worst_games], "seconds": self.seconds,
        }


def simulate(opener: str | None = None, strategy: str = "entropy", lexicon: LexiconLike = DEFAULT_LEXICON,
             hard: bool = False, *, worst: int = 5) -> SimulationResult:
    """Play every answer from ``opener`` with ``strategy``; summarise the games.

    ``opener`` defaults to SALET where the lexicon has it, else the best first guess
    by entropy (the CLI's rule). ``worst``: how many of the longest games to keep in
    full. The full Wordle (2,315 games) takes about a second with ``entropy``.

    >>> from wordle_core import Lexicon, load_lexicon
    >>> small = Lexicon.build("wordle-101", load_lexicon("wordle").answers[::23])
    >>> r = simulate("trace", strategy="entropy", lexicon=small)
    >>> r.games, r.total, round(r.mean, 4), r.max_guesses, r.failures
    (101, 256, 2.5347, 4, 0)
    >>> r.histogram
    {1: 1, 2: 46, 3: 53, 4: 1}
    >>> [(g.answer, g.length) for g in r.worst_games[:3]]
    [('slump', 4), ('amaze', 3), ('aside', 3)]
    """
    from wordle_core.analysis.simulate import simulate as run

    if worst < 0:
        raise WordleError(f"worst must be 0 or more, not {worst}")
    lex = as_lexicon(lexicon)
    first = lex.normalise(opener) if opener is not None else None
    report, tree = run(lex, strategy, first, hard, pattern_matrix(lex), max_guess_words=max(worst, 14))
    words: list[str] = list(report["maxGuessWords"])
    lengths = tree.lengths()
    hist: dict[int, int] = {}
    for n in sorted(int(x) for x in lengths):
        hist[n] = hist.get(n, 0) + 1
    return SimulationResult(
        lexicon=lex.name, strategy=str(report["strategy"]), opener=str(report["opener"]), hard=hard,
        games=int(report["totalCount"]),
        total=int(report["totalGuesses"]),
        mean=float(report["meanGuesses"]),
        max_guesses=int(report["maxGuesses"]),
        failures=int(report["failures"]),
        histogram=hist,
        worst_games=tuple(_game(tree, lex.answer_index[w]) for w in words[:worst]),
        seconds=float(report["buildSeconds"]),
        report=report, tree=tree,
    )


def _game(tree: Tree, answer: int) -> GameRecord:
    lex = tree.lexicon
    turns = tuple(Turn(lex.guesses[g], Feedback.from_code(p, lex.length)) for g, p in tree.path(answer))
    return GameRecord(lex.answers[answer], turns)


@dataclass(frozen=True)
class Optimum:
    """The proven fewest total guesses that solve every answer from one opener.

    ``total`` / ``mean`` are None when no strategy wins every game within
    ``guess_limit`` (then ``wins_all`` is False). ``pool``: the guesses the search
    could use (``all`` allowed guesses, or only possible ``answers``). ``source`` is
    ``search`` (proved by this call: ``seconds`` and ``cpu_seconds`` are its cost) or
    ``shipped table`` (read from the package's table of exact totals, proved by the same
    search when the table was made).
    """

    lexicon: str
    opener: str
    hard: bool
    pool: str
    games: int
    total: int | None
    mean: float | None
    guess_limit: int
    proven: bool
    seconds: float
    cpu_seconds: float
    source: str = "search"

    @property
    def wins_all(self) -> bool:
        """Some strategy solves every answer within the guess limit."""
        return self.total is not None

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys, plus ``wins_all``)."""
        return {"lexicon": self.lexicon, "opener": self.opener, "hard": self.hard, "pool": self.pool,
                "games": self.games, "total": self.total, "mean": self.mean, "wins_all": self.wins_all,
                "guess_limit": self.guess_limit, "proven": self.proven, "seconds": self.seconds,
                "cpu_seconds": self.cpu_seconds, "source": self.source}


def optimal(opener: str, lexicon: LexiconLike = DEFAULT_LEXICON, hard: bool = False, *, pool: str = "all",
            max_guesses: int | None = None, search: bool = False) -> Optimum:
    """Prove the optimum for ``opener``: the exact search over every strategy.

    ``pool="answers"`` restricts every guess to possible answers; ``max_guesses``
    overrides the lexicon's guess limit. SALET on the full Wordle proves 7,920 in
    normal mode (a few seconds) and 8,122 in hard mode. For a built-in game whose
    table of exact totals ships with the package (``wordle`` today), with every guess
    allowed and the usual limit, the answer comes from that table when it has the
    opener (``source == "shipped table"``), unless ``search`` asks for the search itself.

    >>> o = optimal("salet", lexicon="wordle")
    >>> o.total, o.source
    (7920, 'shipped table')

    >>> from wordle_core import Lexicon, load_lexicon
    >>> small = Lexicon.build("wordle-101", load_lexicon("wordle").answers[::23])
    >>> o = optimal("aside", lexicon=small)
    >>> o.total, round(o.mean, 4), o.proven, o.wins_all
    (270, 2.6733, True, True)
    >>> optimal("aside", lexicon=small, hard=True).total
    270
    >>> optimal("aside", lexicon=small, max_guesses=2).wins_all
    False
    """
    from wordle_core.search.exact import INF, optimal_for_opener
    from wordle_core.tables.exact import shipped_exact

    lex = as_lexicon(lexicon)
    word = lex.normalise(opener)
    limit = int(max_guesses or lex.max_guesses)
    table = shipped_exact(lex, "hard" if hard else "normal") \
        if not search and pool == "all" and limit == lex.max_guesses else {}
    if word in table:
        t = table[word]
        return Optimum(lexicon=lex.name, opener=word, hard=hard, pool=pool, games=len(lex.answers),
                       total=t, mean=None if t is None else t / len(lex.answers), guess_limit=limit,
                       proven=True, seconds=0.0, cpu_seconds=0.0, source="shipped table")
    res, _ = optimal_for_opener(lex, word, hard=hard, max_guesses=max_guesses, pool=pool)
    won = res.total < INF
    return Optimum(
        lexicon=lex.name, opener=res.opener, hard=res.hard, pool=res.pool, games=res.n_answers,
        total=int(res.total) if won else None, mean=float(res.mean) if won else None,
        guess_limit=limit, proven=res.proven,
        seconds=round(res.seconds, 3), cpu_seconds=round(res.cpu_seconds, 3),
    )


@dataclass(frozen=True)
class HardVerdict:
    """Can ``opener`` guarantee a hard-mode win within the guess limit?

    ``verdict`` is ``feasible``, ``infeasible`` or ``unknown`` (the node budget ran
    out); ``feasible`` is the same as a bool, None when unknown. ``source`` is
    ``search`` (proved by this call: ``seconds`` and ``nodes`` are its cost) or
    ``shipped table`` (read from the package's table of every opener's verdict, proved
    by the same search when the table was made).
    """

    lexicon: str
    opener: str
    verdict: str
    seconds: float
    nodes: int
    source: str = "search"

    @property
    def feasible(self) -> bool | None:
        """True / False when decided, None when the search gave up."""
        return {"feasible": True, "infeasible": False}.get(self.verdict)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys)."""
        return {"lexicon": self.lexicon, "opener": self.opener, "verdict": self.verdict,
                "seconds": self.seconds, "nodes": self.nodes, "source": self.source}


def hard_verdict(opener: str, lexicon: LexiconLike = DEFAULT_LEXICON, *, budget: int | None = None,
                 search: bool = False) -> HardVerdict:
    """Decide whether ``opener`` can guarantee a win in hard mode (exact AND-OR search).

    ``budget``: OR nodes to expand before answering ``unknown`` (default: no limit,
    the search always decides). For the built-in ``wordle`` and ``nyt`` lists the
    answer comes from the shipped table of every opener's verdict when it has the
    opener (``source == "shipped table"``), unless ``search`` or a ``budget`` asks
    for the search itself. On the NYT list SALET, CRANE and CRATE are feasible;
    SLATE, TRACE, RAISE, AROSE and SOARE are not.

    >>> from wordle_core import Lexicon, load_lexicon
    >>> small = Lexicon.build("wordle-101", load_lexicon("wordle").answers[::23])
    >>> v = hard_verdict("trace", lexicon=small)
    >>> v.verdict, v.feasible
    ('feasible', True)
    """
    from wordle_core.search.hard import hard_verdict as decide
    from wordle_core.tables.verdicts import shipped_verdicts

    lex = as_lexicon(lexicon)
    row = lex.guess_id(opener)
    if budget is None and not search:
        known = shipped_verdicts(lex).get(lex.guesses[row])
        if known is not None:
            return HardVerdict(lexicon=lex.name, opener=lex.guesses[row], verdict=known,
                               seconds=0.0, nodes=0, source="shipped table")
    if budget is None:
        res = decide(lex, row, pattern_matrix(lex))
    elif budget < 1:
        raise WordleError(f"budget must be a positive number of nodes, not {budget}")
    else:
        res = decide(lex, row, pattern_matrix(lex), node_budget=budget)
    return HardVerdict(lexicon=lex.name, opener=str(res["opener"]), verdict=str(res["verdict"]),
                       seconds=float(res["seconds"]), nodes=int(res["nodes"]))
