"""The strategy interface and the registry every command looks names up in.

A strategy is ``choose(state) -> guess row``. It must only return legal guesses (in
hard mode: rows in ``state.legal_rows``) and be a pure function of the position for
deterministic strategies, which is what lets a strategy + opener be built into a
decision tree once and read many times. Choices are memoised per position, so
openers and games that reach the same position share work.

The public contract of a strategy's caches: :meth:`Strategy.memo_size` says how many
entries it holds (its own caches included), :meth:`Strategy.reset` forgets them all,
and no cache grows past :attr:`Strategy.memo_limit` entries (option ``memo_limit``;
a full cache starts afresh). Long-running callers (a pipeline worker playing many
openers) call ``reset()`` between trees when ``memo_size()`` is over their budget.
Forgetting never changes a deterministic strategy's choice, only its cost. A strategy
with caches of its own (the ``default`` strategy's compiled search memos) bounds them by
``memo_limit`` too and extends :meth:`memo_size` and :meth:`reset`.

Offline tables: a strategy that reads a precomputed table names it in
:attr:`Strategy.tables` and takes it as the option of that name (e.g.
``opener_scores=``); callers that hold such a table (the CLI, a pipeline entry point)
pass it in, and without it the strategy computes what it needs. No strategy looks for
files itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from wordle_core.errors import UnknownStrategyError, WordleError
from wordle_core.game.state import GameState


class Strategy:
    """Base class: short-circuits trivial positions, memoises, delegates to ``_choose``."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    source: ClassVar[str] = ""
    deterministic: ClassVar[bool] = True
    depth_sensitive: ClassVar[bool] = False  # does the choice depend on guesses left?
    tables: ClassVar[tuple[str, ...]] = ()  # offline tables read, passed as options of these names
    memo_limit: int = 1_000_000  # entries per cache before it starts afresh (option memo_limit)

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = options
        self.memo_limit = int(self.options.get("memo_limit", type(self).memo_limit))
        if self.memo_limit < 1:
            raise WordleError("memo_limit must be at least 1")
        self._memo: dict[object, int] = {}

    def choose(self, state: GameState) -> int:
        if state.n_candidates == 0:
            raise ValueError("no candidates left")
        if state.n_candidates <= 2:
            return int(state.candidate_rows[0])
        key = (state.key(), state.guesses_left) if self.depth_sensitive else state.key()
        hit = self._memo.get(key)
        if hit is None:
            hit = int(self._choose(state))
            if len(self._memo) >= self.memo_limit:
                self._memo.clear()
            self._memo[key] = hit
        return hit

    def memo_size(self) -> int:
        """Entries held in this strategy's caches (subclasses add their own caches')."""
        return len(self._memo)

    def reset(self) -> None:
        """Forget every cached choice (subclasses also empty their own caches)."""
        self._memo.clear()

    def prepare(self, state: GameState) -> None:
        """Load or compute any offline table the strategy reads (not part of game time)."""

    def _choose(self, state: GameState) -> int:  # pragma: no cover - abstract
        raise NotImplementedError

    @classmethod
    def describe(cls) -> dict[str, object]:
        return {
            "name": cls.name,
            "summary": cls.summary,
            "source": cls.source,
            "deterministic": cls.deterministic,
        }


REGISTRY: dict[str, type[Strategy]] = {}


def register(cls: type[Strategy]) -> type[Strategy]:
    """Class decorator: make a strategy available by its ``name``."""
    REGISTRY[cls.name] = cls
    return cls


def get_strategy(name: str, **options: object) -> Strategy:
    """A fresh strategy instance (own memo) by registered name."""
    _load_all()
    try:
        cls = REGISTRY[name]
    except KeyError:
        raise UnknownStrategyError(
            f"unknown strategy {name!r}; choose one of {', '.join(sorted(REGISTRY))}"
        ) from None
    return cls(**options)


def list_strategies() -> list[dict[str, object]]:
    """``describe()`` of every registered strategy, by name."""
    _load_all()
    return [REGISTRY[n].describe() for n in sorted(REGISTRY)]


def _load_all() -> None:
    """Import every strategy module so that their ``@register`` decorators ran."""
    import importlib
    import pkgutil
    from pathlib import Path

    package = __name__.rpartition(".")[0]
    for mod in pkgutil.iter_modules([str(Path(__file__).parent)]):
        if mod.name != "base":
            importlib.import_module(f"{package}.{mod.name}")


def candidate_mask(state: GameState, rows: np.ndarray) -> np.ndarray:
    """Which of ``rows`` are still possible answers (the tie-break preference)."""
    mark = np.zeros(len(state.lexicon.guesses), dtype=bool)
    mark[state.candidate_rows] = True
    return mark[rows]


ScoreFn = Callable[..., np.ndarray]
