"""How guesses split a candidate set: the one place every caller counts buckets.

A guess splits the candidate answers into *buckets* by the feedback pattern each
candidate would show. Every partition score of the project (entropy, expected size,
minimax, partition count, the average eliminated of "Wordle Solver KT", the evil host's
reply, the review's luck, the prior strategies' weighted scores) is a function of those
bucket sizes, so all of them are computed here and nowhere else. By concern:

* :mod:`.stats` - the full statistics (:func:`bucket_stats`, :func:`weighted_stats`,
  :class:`BucketStats`), the first perfect split, one guess's buckets
  (:func:`bucket_counts`, :func:`split_by_pattern`), and the compiled blocks other
  kernels reuse;
* :mod:`.counts` - only the number of buckets of every guess (:func:`count_buckets`,
  :func:`count_columns`, :func:`distinct_pairs`): what the greedy choice rules guesses
  out with and the exact search orders and bounds them with;
* :mod:`.pairs` - the exact search's counts of small sets from the answers' pair rows
  (:func:`pair_cache`, :func:`pair_counts`, :func:`pair_count_extremes`);
* :mod:`.vector` - the two kernels written as LLVM IR (:func:`equal64`,
  :func:`count_set_block`), each with a plain-numba twin that
  ``WORDLE_LAB_PLAIN_KERNELS=1`` selects.

Every name below is importable from ``wordle_core.kernels.buckets``. The vectorised
numpy version of the statistics lives in ``tests/reference_buckets.py`` only, as the
reference the tests compare these kernels with.
"""

from __future__ import annotations

from wordle_core.kernels.buckets.counts import (
    COUNT_FLAG_BYTES,
    FLAGS_FROM,
    PAIRS_MAX,
    PRUNED_PAIRS_MAX,
    count_buckets,
    count_columns,
    distinct_pairs,
    is_dense,
)
from wordle_core.kernels.buckets.pairs import (
    PAIR_ANSWERS_MAX,
    PAIR_SLOTS,
    PAIR_SLOTS_MAX,
    pair_cache,
    pair_count_extremes,
    pair_counts,
    pair_index,
    pair_repeats,
    pair_row,
)
from wordle_core.kernels.buckets.stats import (
    BLOCK,
    COUNT_PATTERNS_MAX,
    MAX_PATTERNS,
    PERFECT_ROW_SCAN,
    ROW_KERNEL_ROWS,
    SPARSE_ROWS,
    BucketStats,
    WeightedStats,
    block_for,
    blocked_serial,
    bucket_counts,
    bucket_stats,
    can_transpose,
    check_patterns,
    count_block,
    counts_table,
    first_perfect_block,
    first_perfect_split,
    gather_bucket,
    row_is_perfect,
    rows_kernel,
    set_threads,
    split_by_pattern,
    split_codes,
    stats_block,
    threads,
    transposed,
    weighted_stats,
    xlogx_table,
)
from wordle_core.kernels.buckets.vector import (
    CACHE,
    PLAIN_KERNELS,
    SET_BLOCK,
    SET_GROUPS,
    SET_LANES,
    SET_WORDS,
    count_set_block,
    count_set_block_ir,
    count_set_block_plain,
    equal64,
    equal64_ir,
    equal64_plain,
    popcount64,
)

__all__ = [
    "BLOCK",
    "CACHE",
    "COUNT_FLAG_BYTES",
    "COUNT_PATTERNS_MAX",
    "FLAGS_FROM",
    "MAX_PATTERNS",
    "PAIRS_MAX",
    "PAIR_ANSWERS_MAX",
    "PAIR_SLOTS",
    "PAIR_SLOTS_MAX",
    "PERFECT_ROW_SCAN",
    "PLAIN_KERNELS",
    "PRUNED_PAIRS_MAX",
    "ROW_KERNEL_ROWS",
    "SET_BLOCK",
    "SET_GROUPS",
    "SET_LANES",
    "SET_WORDS",
    "SPARSE_ROWS",
    "BucketStats",
    "WeightedStats",
    "block_for",
    "blocked_serial",
    "bucket_counts",
    "bucket_stats",
    "can_transpose",
    "check_patterns",
    "count_block",
    "count_buckets",
    "count_columns",
    "count_set_block",
    "count_set_block_ir",
    "count_set_block_plain",
    "counts_table",
    "distinct_pairs",
    "equal64",
    "equal64_ir",
    "equal64_plain",
    "first_perfect_block",
    "first_perfect_split",
    "gather_bucket",
    "is_dense",
    "pair_cache",
    "pair_count_extremes",
    "pair_counts",
    "pair_index",
    "pair_repeats",
    "pair_row",
    "popcount64",
    "row_is_perfect",
    "rows_kernel",
    "set_threads",
    "split_by_pattern",
    "split_codes",
    "stats_block",
    "threads",
    "transposed",
    "weighted_stats",
    "xlogx_table",
]
