"""Registers the answer-prior strategies (``prior-entropy``, ``prior-expected-size``).

They live in :mod:`wordle_core.prior` beside the prior itself; importing them here
puts them in the registry like every other family.
"""

from ..prior import PriorEntropy, PriorExpectedSize

__all__ = ["PriorEntropy", "PriorExpectedSize"]
