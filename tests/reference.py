"""Independent reference implementations used to check the engine.

Written differently on purpose (answer-side matching with list removal instead of
counters; brute-force loops instead of vectorised kernels), so that a shared bug
in both is unlikely.
"""

from __future__ import annotations

import math
from collections import defaultdict


def reference_score(guess: str, answer: str) -> str:
    """Wordle feedback by explicit removal from a pool of the answer's letters."""
    result = ["b"] * len(guess)
    pool = list(answer)
    for i, ch in enumerate(guess):
        if answer[i] == ch:
            result[i] = "g"
            pool.remove(ch)
    for i, ch in enumerate(guess):
        if result[i] == "b" and ch in pool:
            result[i] = "y"
            pool.remove(ch)
    return "".join(result)


def reference_buckets(guess: str, candidates: list[str]) -> dict[str, int]:
    buckets: dict[str, int] = defaultdict(int)
    for a in candidates:
        buckets[reference_score(guess, a)] += 1
    return dict(buckets)


def reference_entropy(guess: str, candidates: list[str]) -> float:
    n = len(candidates)
    return -sum(c / n * math.log2(c / n) for c in reference_buckets(guess, candidates).values())
