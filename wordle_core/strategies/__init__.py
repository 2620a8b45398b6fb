"""Strategies: one module per family, all registered by name in :mod:`.base`."""

from wordle_core.strategies.base import REGISTRY, Strategy, get_strategy, list_strategies, register

__all__ = ["REGISTRY", "Strategy", "get_strategy", "list_strategies", "register"]
