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

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from wordle_core.api.feedback import Feedback, LexiconLike, as_lexicon
from wordle_core.api.position import strategy_named
from wordle_core.api.word_position import Turn
from wordle_core.errors import WordleError
from wordle_core.game.lexicon import DEFAULT_LEXICON
from wordle_core.game.matrix import pattern_matrix

if TYPE_CHECKING:
    from wordle_core.game.tree import Tree
    from wordle_core.search.exact import BestOpener as BestOpenerResult
    from wordle_core.search.exact import OptimalResult
    from wordle_core.search.openers import OpenerScores


@dataclass(frozen=True)
class GameRecord:
    """One game: the answer and every turn, ending all green when solved.

    ``remaining``: the answers still possible after each guess, where the game was played
    position by position (:func:`~wordle_core.api.solve`); empty for a game read off a
    decision tree (:func:`simulate`).
    """

    answer: str
    turns: tuple[Turn, ...]
    remaining: tuple[int, ...] = ()

    @property
    def length(self) -> int:
        """Guesses used (the all-green one included)."""
        return len(self.turns)

    @property
    def solved(self) -> bool:
        """The last guess was all green."""
        return bool(self.turns) and self.turns[-1].feedback.is_win

    def to_dict(self) -> dict[str, object]:
        """``{"answer", "length", "guesses", "feedback"}`` (lists in play order), with
        ``remaining`` and ``solved`` where the remaining answers were recorded: what
        ``wordle-lab solve --json`` prints."""
        out: dict[str, object] = {"answer": self.answer, "length": self.length,
                                  "guesses": [t.guess for t in self.turns],
                                  "feedback": [str(t.feedback) for t in self.turns]}
        if self.remaining:
            out.update(remaining=list(self.remaining), solved=self.solved)
        return out


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
             hard: bool = False, *, worst: int = 5, tree: Tree | None = None,
             opener_scores: OpenerScores | None = None) -> SimulationResult:
    """Play every answer from ``opener`` with ``strategy``; summarise the games.

    ``opener`` defaults to :func:`~wordle_core.api.default_opener` (the proven best
    where a proven ranking ships, else the best by entropy), or the tree's. ``worst``:
    how many of the longest games to keep in full. The full Wordle (2,315 games) takes
    about a second with ``entropy``.
    ``tree``: play from this decision tree (:func:`~wordle_core.api.load_tree`) instead of
    building one; ``opener_scores``: the game's opener table, for a strategy that reads it.

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
    if first is None and tree is None:
        from wordle_core.tables.exact import recommended_opener  # api.games.default_opener

        first = recommended_opener(lex, hard)
    strategy_named(strategy)  # fail fast on an unknown name
    tables = {"opener_scores": opener_scores} if opener_scores is not None and \
        "opener_scores" in type(strategy_named(strategy)).tables else {}
    report, tree = run(lex, strategy, first, hard, pattern_matrix(lex), tree=tree,
                       max_guess_words=max(worst, 14), **tables)
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
    search when the table was made). ``longest_game``: the longest game of the optimal
    tree when it was built (``wordle-lab optimal --save-tree``), else None; ``search``:
    the search's counters (nodes, memo hits, ...), None for a shipped value.
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
    longest_game: int | None = None
    search: dict[str, int] | None = field(default=None, compare=False)
    tree: Tree | None = field(default=None, repr=False, compare=False)

    @property
    def wins_all(self) -> bool:
        """Some strategy solves every answer within the guess limit."""
        return self.total is not None

    @classmethod
    def from_result(cls, res: OptimalResult, lexicon: str, guess_limit: int, *,
                    tree: Tree | None = None) -> Optimum:
        """The engine's proof (:func:`wordle_core.search.exact.optimal_for_opener`) as an
        :class:`Optimum`; ``tree``: the optimal tree it built (``with_tree``), whose
        longest game it reports."""
        from wordle_core.search.exact import INF

        won = res.total < INF
        return cls(lexicon=lexicon, opener=res.opener, hard=res.hard, pool=res.pool,
                   games=res.n_answers, total=int(res.total) if won else None,
                   mean=round(res.total / res.n_answers, 6) if won else None,
                   guess_limit=guess_limit, proven=res.proven, seconds=round(res.seconds, 3),
                   cpu_seconds=round(res.cpu_seconds, 3),
                   longest_game=res.max_guesses if won and tree is not None else None,
                   search=dict(res.stats), tree=tree)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys, plus ``wins_all``): what
        ``wordle-lab optimal --json`` prints."""
        return {"lexicon": self.lexicon, "opener": self.opener, "hard": self.hard, "pool": self.pool,
                "games": self.games, "total": self.total, "mean": self.mean, "wins_all": self.wins_all,
                "guess_limit": self.guess_limit, "longest_game": self.longest_game,
                "proven": self.proven, "seconds": self.seconds, "cpu_seconds": self.cpu_seconds,
                "source": self.source, "search": self.search}


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
    from wordle_core.search.exact import optimal_for_opener
    from wordle_core.tables.exact import shipped_exact

    lex = as_lexicon(lexicon)
    word = lex.normalise(opener)
    limit = int(max_guesses or lex.max_guesses)
    table = shipped_exact(lex, "hard" if hard else "normal") \
        if not search and pool == "all" and limit == lex.max_guesses else {}
    if word in table:
        t = table[word]
        return Optimum(lexicon=lex.name, opener=word, hard=hard, pool=pool, games=len(lex.answers),
                       total=t, mean=None if t is None else round(t / len(lex.answers), 6),
                       guess_limit=limit,
                       proven=True, seconds=0.0, cpu_seconds=0.0, source="shipped table")
    res, _ = optimal_for_opener(lex, word, hard=hard, max_guesses=max_guesses, pool=pool)
    return Optimum.from_result(res, lex.name, limit)


def optimal_openers(openers: Sequence[str], lexicon: LexiconLike = DEFAULT_LEXICON, hard: bool = False, *,
                    pool: str = "all", max_guesses: int | None = None, with_tree: bool = False,
                    progress: bool = False) -> Iterator[Optimum]:
    """Prove the optimum of each opener in turn, always by the search, with one search
    whose memo serves them all (what ``wordle-lab optimal --opener A,B,C`` runs); each
    :class:`Optimum` comes as soon as it is proved. ``with_tree``: also build each optimal
    tree (``Optimum.tree``, its longest game in ``longest_game``).

    >>> from wordle_core import Lexicon, load_lexicon
    >>> small = Lexicon.build("wordle-101", load_lexicon("wordle").answers[::23])
    >>> [(o.opener, o.total) for o in optimal_openers(["aside", "trace"], small)]
    [('aside', 270), ('trace', 256)]
    """
    from wordle_core.search.exact import ExactSolver, optimal_for_opener

    lex = as_lexicon(lexicon)
    words = [lex.normalise(w) for w in openers]
    limit = int(max_guesses or lex.max_guesses)
    solver = ExactSolver(lex, hard=hard, pool=pool, exact=True, max_guesses=max_guesses,
                         matrix=pattern_matrix(lex))
    for w in words:
        res, tree = optimal_for_opener(lex, w, hard=hard, max_guesses=max_guesses, pool=pool,
                                       progress=progress, solver=solver, with_tree=with_tree)
        yield Optimum.from_result(res, lex.name, limit, tree=tree)


def top_openers(n: int, lexicon: LexiconLike = DEFAULT_LEXICON, *, by: str = "entropy") -> list[str]:
    """The ``n`` best first guesses by a one-guess measure (``entropy``, ...), best first.

    >>> top_openers(3, "wordle")
    ['soare', 'roate', 'raise']
    """
    from wordle_core.search.openers import top_openers as best

    return list(best(as_lexicon(lexicon), n, by=by))


@dataclass(frozen=True)
class ProvenBest:
    """The best opener of a game, proven by the exact search (see :func:`best_opener`).

    ``best``: every opener reaching the optimum, alphabetical (empty when no opener wins
    every game: then ``total`` and ``mean`` are None); ``openers``: the openers considered;
    ``searched``: those whose value was searched (the others fell to a lower bound);
    ``values``: the exact totals met on the way (None: no guaranteed win).
    """

    best: tuple[str, ...]
    total: int | None
    mean: float | None
    openers: int
    searched: int
    seconds: float
    cpu_seconds: float
    values: dict[str, int | None] = field(compare=False)

    @classmethod
    def from_result(cls, res: BestOpenerResult) -> ProvenBest:
        """The engine's proof (:func:`wordle_core.search.exact.prove_best_opener`) as a value."""
        from wordle_core.search.exact import INF

        won = res.total < INF
        return cls(best=tuple(res.best) if won else (), total=int(res.total) if won else None,
                   mean=round(res.total / res.n_answers, 6) if won else None, openers=res.openers,
                   searched=res.evaluated, seconds=round(res.seconds, 2),
                   cpu_seconds=round(res.cpu_seconds, 2),
                   values={w: (int(v) if v < INF else None) for w, v in res.values.items()})

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys): what ``wordle-lab optimal --best --json`` prints."""
        return {"best": list(self.best), "total": self.total, "mean": self.mean, "openers": self.openers,
                "searched": self.searched, "seconds": self.seconds, "cpu_seconds": self.cpu_seconds,
                "values": self.values}


def best_opener(lexicon: LexiconLike = DEFAULT_LEXICON, hard: bool = False, *, pool: str = "all",
                max_guesses: int | None = None, progress: bool = False) -> ProvenBest:
    """Prove the best opener of all: every first guess gets a lower bound, then openers are
    searched best bound first until the next bound is above the best total (practical for
    the full games with ``pool="answers"``).

    >>> ight = ["fight", "light", "might", "night", "right", "sight", "tight"]
    >>> from wordle_core import Lexicon
    >>> best = best_opener(Lexicon.build("ight", ight, [*ight, "morts", "flint"]))
    >>> best.best, best.total
    (('flint', 'morts'), 18)
    """
    from wordle_core.search.exact import ExactSolver, prove_best_opener

    lex = as_lexicon(lexicon)
    solver = ExactSolver(lex, hard=hard, pool=pool, exact=True, max_guesses=max_guesses,
                         matrix=pattern_matrix(lex))
    return ProvenBest.from_result(prove_best_opener(solver, progress=progress))


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
    witness: dict[str, object] | None = field(default=None, repr=False, compare=False)

    @property
    def feasible(self) -> bool | None:
        """True / False when decided, None when the search gave up."""
        return {"feasible": True, "infeasible": False}.get(self.verdict)

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys)."""
        return {"lexicon": self.lexicon, "opener": self.opener, "verdict": self.verdict,
                "seconds": self.seconds, "nodes": self.nodes, "source": self.source}


def hard_verdict(opener: str, lexicon: LexiconLike = DEFAULT_LEXICON, *, budget: int | None = None,
                 search: bool = False, witness: bool = False, progress: bool = False) -> HardVerdict:
    """Decide whether ``opener`` can guarantee a win in hard mode (exact AND-OR search).

    ``budget``: OR nodes to expand before answering ``unknown`` (default: no limit,
    the search always decides). For the built-in ``wordle`` and ``nyt`` lists the
    answer comes from the shipped table of every opener's verdict when it has the
    opener (``source == "shipped table"``), unless ``search`` or a ``budget`` asks
    for the search itself. On the NYT list SALET, CRANE and CRATE are feasible;
    SLATE, TRACE, RAISE, AROSE and SOARE are not. ``witness`` (a search): keep the
    winning hard-mode tree of a feasible opener as ``witness``, a JSON-ready document
    that ``wordle-lab simulate --hard --tree FILE`` replays. ``progress``: progress bars
    on stderr while a search runs (answers reached, guesses tried; shown after 2 s).

    >>> from wordle_core import Lexicon, load_lexicon
    >>> small = Lexicon.build("wordle-101", load_lexicon("wordle").answers[::23])
    >>> v = hard_verdict("trace", lexicon=small)
    >>> v.verdict, v.feasible
    ('feasible', True)
    >>> hard_verdict("trace", lexicon=small, witness=True).witness["opener"]
    'trace'
    """
    from wordle_core.search.hard import hard_verdict as decide
    from wordle_core.tables.verdicts import shipped_verdicts

    lex = as_lexicon(lexicon)
    row = lex.guess_id(opener)
    if budget is None and not search and not witness:
        known = shipped_verdicts(lex).get(lex.guesses[row])
        if known is not None:
            return HardVerdict(lexicon=lex.name, opener=lex.guesses[row], verdict=known,
                               seconds=0.0, nodes=0, source="shipped table")
    if budget is not None and budget < 1:
        raise WordleError(f"budget must be a positive number of nodes, not {budget}")
    res = decide(lex, row, pattern_matrix(lex), node_budget=budget, witness=witness, progress=progress)
    tree = res.pop("tree", None)
    doc = None if tree is None else {"lexicon": lex.name, "strategy": "hard-witness", "hard": True,
                                     "opener": res["opener"], "root": tree}
    return HardVerdict(lexicon=lex.name, opener=str(res["opener"]), verdict=str(res["verdict"]),
                       seconds=float(res["seconds"]), nodes=int(res["nodes"]), witness=doc)
