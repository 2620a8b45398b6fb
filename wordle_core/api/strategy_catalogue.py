"""The registered strategies as a list of names and descriptions, without importing them.

``wordle-lab strategies`` and :func:`list_strategies` only describe the strategies, and
importing the strategy modules (numpy, the engine's arrays) would cost more than the
command itself. :data:`STRATEGIES` holds what each registered strategy's ``describe()``
says, written out; ``tests/test_strategies.py`` checks it against the registry
(:func:`wordle_core.strategies.list_strategies`) entry by entry, so a strategy added,
renamed or re-described there fails the tests until it is listed here as well.

    >>> [s.name for s in list_strategies()][:3]
    ['balanced', 'collision-breaker', 'collision-breaker-3']
"""

from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class StrategyInfo:
    """A registered strategy: the ``name`` that :func:`best_guesses` and :func:`simulate` take."""

    name: str
    summary: str
    source: str
    deterministic: bool

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys)."""
        return asdict(self)


STRATEGIES: tuple[StrategyInfo, ...] = (
    StrategyInfo('balanced',
                 'Simple above 269 available, TestAllScored above 16, else TestAllFull',
                 'Wordle Solver KT (Kotlin)', deterministic=True),
    StrategyInfo('collision-breaker',
                 'hard mode: break shard collision sets first (size >= left-1), then partitions',
                 '"Winning Wordle\'s Hard Mode", attempt 4', deterministic=True),
    StrategyInfo('collision-breaker-3',
                 'hard mode: break collision sets of size >= guesses left first, then partitions',
                 '"Winning Wordle\'s Hard Mode", attempt 3', deterministic=True),
    StrategyInfo('collision-filter',
                 'hard mode: partitions, avoiding words in collision sets larger than the guesses left',
                 '"Winning Wordle\'s Hard Mode", attempt 1', deterministic=True),
    StrategyInfo('default',
                 'look-ahead search for the fewest total guesses (top guesses by partition heuristic)',
                 'this project: width-limited exact search with Selby-style bounds', deterministic=True),
    StrategyInfo('entropy',
                 'maximise expected information (bits) plus the chance to win now',
                 '3Blue1Brown\'s information measure; "Wordle Solver" (2022)', deterministic=True),
    StrategyInfo('expected-size',
                 'minimise the expected number of candidates left',
                 '"Wordle Solver" (2022)', deterministic=True),
    StrategyInfo('hard-safe',
                 'hard mode: best-entropy guess among those proved to still win every game',
                 'this project (exact hard-mode feasibility search)', deterministic=True),
    StrategyInfo('letter-split',
                 'candidate whose letters best halve the candidates (repeats score lowest)',
                 "davidly/wordle's letter-splitting post", deterministic=True),
    StrategyInfo('minimax',
                 'minimise the largest bucket (worst case); ties by expected size',
                 '"The Wordle Bot"', deterministic=True),
    StrategyInfo('partitions',
                 'maximise the number of distinct feedback patterns; ties by expected size',
                 '"Wordle Solver" (2022)', deterministic=True),
    StrategyInfo('prior-entropy',
                 'entropy over the answer prior (option prior=frequency|uniform) plus P(win now)',
                 'WordleBot / weekendwordle idea; wordfreq frequencies', deterministic=True),
    StrategyInfo('prior-expected-size',
                 'minimise the expected remaining prior mass (option prior=frequency|uniform)',
                 "WordleBot's 'expected remaining' with likely answers weighted up", deterministic=True),
    StrategyInfo('random',
                 'uniformly random candidate, seeded per position (baseline)',
                 "davidly/wordle's letter-splitting post", deterministic=True),
    StrategyInfo('simple',
                 'available word with the best opener average-eliminated (table lookup)',
                 'Wordle Solver KT (Kotlin)', deterministic=True),
    StrategyInfo('test-all-full',
                 'available word eliminating the most available words on average',
                 'Wordle Solver KT (Kotlin)', deterministic=True),
    StrategyInfo('test-all-scored',
                 'available word with the best mean tile score (green 2, yellow 1) vs available',
                 'Wordle Solver KT (Kotlin)', deterministic=True),
    StrategyInfo('worst',
                 'candidate with the worst letter-split score (baseline)',
                 "davidly/wordle's letter-splitting post", deterministic=True),
)
"""Every registered strategy's ``describe()``, alphabetical by name."""


def list_strategies() -> list[StrategyInfo]:
    """Every registered strategy, alphabetical (what ``wordle-lab strategies`` lists).

    >>> names = [s.name for s in list_strategies()]
    >>> {"default", "entropy", "expected-size", "minimax"} <= set(names), names == sorted(names)
    (True, True)
    """
    return list(STRATEGIES)
