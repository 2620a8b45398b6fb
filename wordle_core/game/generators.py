"""Word lists that are generated rather than shipped: Primel and Nerdle.

Both are computed exactly and vectorised (numpy over every operand combination), so
the lists are reproducible facts, not files that could drift.
"""

from __future__ import annotations

import itertools

import numpy as np

OPERATORS = "+-*/"


def primes_with_digits(digits: int = 5) -> list[str]:
    """All primes with exactly ``digits`` decimal digits (Primel: 8,363 for five)."""
    hi = 10**digits
    sieve = np.ones(hi, dtype=bool)
    sieve[:2] = False
    for p in range(2, int(hi**0.5) + 1):
        if sieve[p]:
            sieve[p * p :: p] = False
    lo = 10 ** (digits - 1)
    return [str(n) for n in np.flatnonzero(sieve[lo:]) + lo]


def _operand_values(length: int) -> np.ndarray:
    """Operands of ``length`` digits: no leading zero and never a lone 0."""
    lo = 1 if length == 1 else 10 ** (length - 1)
    return np.arange(lo, 10**length, dtype=np.int64)


def _evaluate(
    operands: list[np.ndarray], ops: tuple[str, ...]
) -> tuple[np.ndarray, np.ndarray]:
    """Exact value num/den of ``o0 op0 o1 op1 ...`` with normal precedence, elementwise."""
    # Products/quotients first: build the list of additive terms as fractions.
    terms: list[tuple[np.ndarray, np.ndarray]] = []
    signs: list[int] = [1]
    num, den = operands[0], np.ones_like(operands[0])
    for op, rhs in zip(ops, operands[1:], strict=True):
        if op == "*":
            num = num * rhs
        elif op == "/":
            den = den * rhs
        else:
            terms.append((num, den))
            signs.append(1 if op == "+" else -1)
            num, den = rhs, np.ones_like(rhs)
    terms.append((num, den))
    total_n, total_d = terms[0]
    total_n = total_n * signs[0]
    for sign, (n, d) in zip(signs[1:], terms[1:], strict=True):
        total_n = total_n * d + sign * n * total_d
        total_d = total_d * d
    return total_n, total_d


def nerdle_equations(length: int = 8) -> list[str]:
    """Every valid Nerdle equation of ``length`` characters (17,723 for 8, 206 for 6).

    Rules: the left side is numbers and the operators ``+ - * /`` with at least one
    operator, no unary minus and no adjacent operators; operands have no leading zeros
    and are never a lone 0; normal precedence; the value is a non-negative integer
    written on the right without leading zeros.
    """
    found: list[str] = []
    for lhs_len in range(3, length - 1):
        rhs_len = length - 1 - lhs_len
        for n_ops in range(1, (lhs_len - 1) // 2 + 1):
            digits_total = lhs_len - n_ops
            for lens in _compositions(digits_total, n_ops + 1):
                for ops in itertools.product(OPERATORS, repeat=n_ops):
                    grids = np.meshgrid(
                        *[_operand_values(n) for n in lens], indexing="ij"
                    )
                    operands = [g.ravel() for g in grids]
                    num, den = _evaluate(operands, ops)
                    ok = (num >= 0) & (num % den == 0)
                    value = np.where(ok, num // np.where(den == 0, 1, den), -1)
                    lo = 0 if rhs_len == 1 else 10 ** (rhs_len - 1)
                    ok &= (value >= lo) & (value < 10**rhs_len)
                    for idx in np.flatnonzero(ok):
                        parts = [str(operands[0][idx])]
                        for op, o in zip(ops, operands[1:], strict=True):
                            parts += [op, str(o[idx])]
                        found.append("".join(parts) + "=" + str(value[idx]))
    return sorted(found)


def _compositions(total: int, parts: int) -> list[tuple[int, ...]]:
    """Ordered ways to write ``total`` as ``parts`` positive integers."""
    if parts == 1:
        return [(total,)] if total >= 1 else []
    out = []
    for first in range(1, total - parts + 2):
        out += [(first, *rest) for rest in _compositions(total - first, parts - 1)]
    return out
