"""The strategy interface and the registry every command looks names up in.

A strategy is ``choose(state) -> guess row``. It must only return legal guesses (in
hard mode: rows in ``state.legal_rows``) and be a pure function of the position for
deterministic strategies, which is what lets a strategy + opener be built into a
decision tree once and read many times. Choices are memoised per position, so
openers and games that reach the same position share work.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import numpy as np

from wordle_core.errors import UnknownStrategyError
from wordle_core.game.state import GameState


class Strategy:
    """Base class: short-circuits trivial positions, memoises, delegates to ``_choose``."""

    name: ClassVar[str] = ""
    summary: ClassVar[str] = ""
    source: ClassVar[str] = ""
    deterministic: ClassVar[bool] = True
    depth_sensitive: ClassVar[bool] = False  # does the choice depend on guesses left?

    def __init__(self, **options: object) -> None:
        self.options = options
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
            self._memo[key] = hit
        return hit

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
    _load_all()
    return [REGISTRY[n].describe() for n in sorted(REGISTRY)]


def _load_all() -> None:
    """Import every strategy module so that their ``@register`` decorators ran."""
    import importlib
    import pkgutil

    from wordle_core import strategies

    for mod in pkgutil.iter_modules(strategies.__path__):
        if mod.name != "base":
            importlib.import_module(f"{strategies.__name__}.{mod.name}")


def candidate_mask(state: GameState, rows: np.ndarray) -> np.ndarray:
    """Which of ``rows`` are still possible answers (the tie-break preference)."""
    mark = np.zeros(len(state.lexicon.guesses), dtype=bool)
    mark[state.candidate_rows] = True
    return mark[rows]


ScoreFn = Callable[..., np.ndarray]
