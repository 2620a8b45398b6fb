"""Every Avro schema the pipelines write, in one place.

Each table is a named, namespaced record whose fields are documented in the schema
itself (``doc``), so ``fastavro``/``avro-tools`` users can read what a column means
without this code. Every record carries ``lexicon``, ``mode`` and ``strategy`` so
tables from different runs can be concatenated and still be told apart.

Tables: ``opener_scores``, ``opener_summaries``, ``games``, ``hard_verdicts``,
``hard_exact``, ``trees``, ``optimal``. :data:`SCHEMAS` maps a table name to its parsed
schema; :data:`SORT_KEYS` gives the fields each table is sorted by, which is what makes outputs
byte-identical across runs and runners.
"""

from __future__ import annotations

from typing import Any, cast

import fastavro

from wordle_core.tables.frames import TABLES as TABLE_ORDER

NAMESPACE = "org.wordlelab.v1"

_COMMON = [
    {"name": "lexicon", "type": "string", "doc": "lexicon name (e.g. wordle), see `wordle-lab lexicons`"},
    {"name": "mode", "type": "string", "doc": "'normal' or 'hard' (NYT hard-mode rules)"},
    {"name": "strategy", "type": "string",
     "doc": "registered strategy name that chose every guess after the opener ('-' for opener_scores)"},
    {"name": "opener", "type": "string", "doc": "the first guess"},
]

_GAME = {
    "type": "record", "name": "Game", "namespace": NAMESPACE,
    "doc": "One game: the answer and every guess with the feedback it showed.",
    "fields": [
        {"name": "answer", "type": "string", "doc": "the hidden word"},
        {"name": "n_guesses", "type": "int", "doc": "guesses used, the all-green guess included"},
        {"name": "guesses", "type": {"type": "array", "items": "string"}, "doc": "guesses in order"},
        {"name": "feedback", "type": {"type": "array", "items": "string"},
         "doc": "feedback per guess: g green, y yellow, b gray, one letter per position"},
        {"name": "solved", "type": "boolean", "doc": "solved within the game's guess limit (6 for Wordle)"},
    ],
}

OPENER_SCORES = {
    "type": "record", "name": "OpenerScore", "namespace": NAMESPACE,
    "doc": "First-guess statistics of one allowed guess over every possible answer "
           "(the table of the Kotlin solver 'Wordle Solver KT').",
    "fields": [
        *_COMMON,
        {"name": "avg_eliminated", "type": "double",
         "doc": "candidates ruled out by this first guess, averaged over all answers "
                "(the measure of 'Wordle Solver KT')"},
        {"name": "avg_remaining", "type": "double",
         "doc": "candidates left after this first guess, averaged over all answers"},
        {"name": "entropy_bits", "type": "double", "doc": "expected information of the feedback, bits"},
        {"name": "largest_bucket", "type": "int", "doc": "answers left in the worst case"},
        {"name": "buckets", "type": "int", "doc": "number of distinct feedback patterns it can show"},
        {"name": "is_answer", "type": "boolean", "doc": "may this guess itself be the answer"},
    ],
}

OPENER_SUMMARIES = {
    "type": "record", "name": "OpenerSummary", "namespace": NAMESPACE,
    "doc": "Every game from one opener under one strategy and mode, summarised.",
    "fields": [
        *_COMMON,
        {"name": "games", "type": "int", "doc": "games played (one per possible answer)"},
        {"name": "total_guesses", "type": "long", "doc": "sum of guesses over all games"},
        {"name": "mean_guesses", "type": "double", "doc": "total_guesses / games"},
        {"name": "histogram", "type": {"type": "array", "items": "int"},
         "doc": "histogram[i] = games solved in exactly i+1 guesses; sums to games"},
        {"name": "max_guesses", "type": "int", "doc": "longest game"},
        {"name": "failures", "type": "int", "doc": "games needing more than the guess limit"},
        {"name": "win_in_3_rate", "type": "double", "doc": "fraction of games solved in 3 guesses or fewer"},
        {"name": "win_in_6_rate", "type": "double", "doc": "fraction of games solved in 6 guesses or fewer"},
        {"name": "tree_nodes", "type": "int", "doc": "positions in the strategy's decision tree"},
        {"name": "worst_games", "type": {"type": "array", "items": _GAME},
         "doc": "the longest games (ties: answer alphabetical) with full paths"},
    ],
}

GAMES = {
    "type": "record", "name": "GameRecord", "namespace": NAMESPACE,
    "doc": "One game of the fan-out (optional output: 30 M rows at full scale).",
    "fields": [*_COMMON, *_GAME["fields"]],
}

_EXACT_FIELDS = [
    {"name": "exact_verdict", "type": "string",
     "doc": "exact feasibility of the opener in hard mode, any strategy: 'feasible' (a strategy "
            "winning every game exists), 'infeasible' (proven none does), or 'unknown' "
            "(node budget spent, or the search was not run)"},
    {"name": "exact_note", "type": "string",
     "doc": "how the exact verdict was obtained or why it is unknown"},
    {"name": "exact_seconds", "type": "double", "doc": "time the exact search took (0 if not run)"},
    {"name": "exact_nodes", "type": "long", "doc": "nodes the exact search visited (0 if not run)"},
]

HARD_VERDICTS = {
    "type": "record", "name": "HardVerdict", "namespace": NAMESPACE,
    "doc": "Does this opener win every hard-mode game within the limit under this strategy?",
    "fields": [
        *_COMMON,
        {"name": "wins_all", "type": "boolean", "doc": "the strategy solves every answer within the limit"},
        {"name": "losses", "type": "int", "doc": "games over the limit under this strategy"},
        {"name": "max_guesses", "type": "int", "doc": "longest game under this strategy"},
        {"name": "worst_game", "type": _GAME, "doc": "the longest game (ties: answer alphabetical)"},
        *_EXACT_FIELDS,
    ],
}

HARD_EXACT = {
    "type": "record", "name": "HardExact", "namespace": NAMESPACE,
    "doc": "Can any strategy win every hard-mode game from this opener? The exact verdict alone "
           "(no strategy played: strategy is '-'); `wordle-lab pipeline hard --exact-only`.",
    "fields": [*_COMMON, *_EXACT_FIELDS],
}

TREES = {
    "type": "record", "name": "DecisionTree", "namespace": NAMESPACE,
    "doc": "A strategy's whole decision tree from one opener: feedback path -> next guess.",
    "fields": [
        *_COMMON,
        {"name": "nodes", "type": {"type": "array", "items": {
            "type": "record", "name": "TreeNode", "namespace": NAMESPACE,
            "doc": "One position of the tree.",
            "fields": [
                {"name": "path", "type": "string",
                 "doc": "feedback seen so far, comma-separated (e.g. 'bybgb,bbgbb'); '' for the root"},
                {"name": "guess", "type": "string", "doc": "the guess to play at that position"},
            ],
        }}, "doc": "every position, sorted by (depth, path)"},
    ],
}

OPTIMAL = {
    "type": "record", "name": "OptimalValue", "namespace": NAMESPACE,
    "doc": "The proven fewest total guesses from one opener over every answer (exact search), "
           "optionally next to the default and a greedy strategy's totals from the same opener.",
    "fields": [
        *_COMMON,
        {"name": "guess_pool", "type": "string",
         "doc": "guesses the search may play after the opener: 'all' allowed guesses or 'answers'"},
        {"name": "answers", "type": "int", "doc": "answers played (one game each)"},
        {"name": "guess_limit", "type": "int", "doc": "guesses allowed per game (6 for Wordle)"},
        {"name": "total", "type": ["null", "long"],
         "doc": "minimal sum of guesses over every answer, proven; null: no strategy wins every "
                "game within the limit (proven)"},
        {"name": "mean", "type": ["null", "double"], "doc": "total / answers (null with total)"},
        {"name": "seconds", "type": "double", "doc": "wall time of the proof"},
        {"name": "cpu_seconds", "type": "double", "doc": "CPU time of the proof"},
        {"name": "nodes", "type": "long", "doc": "positions the search expanded"},
        {"name": "default_total", "type": ["null", "long"],
         "doc": "total of the `default` strategy's tree from the opener (null: not compared)"},
        {"name": "default_max", "type": ["null", "int"], "doc": "its longest game"},
        {"name": "greedy_strategy", "type": "string", "doc": "the greedy strategy compared ('' if none)"},
        {"name": "greedy_total", "type": ["null", "long"], "doc": "its total (null: not compared)"},
        {"name": "greedy_max", "type": ["null", "int"], "doc": "its longest game"},
    ],
}

_RAW: dict[str, dict[str, Any]] = {
    "opener_scores": OPENER_SCORES,
    "opener_summaries": OPENER_SUMMARIES,
    "games": GAMES,
    "hard_verdicts": HARD_VERDICTS,
    "hard_exact": HARD_EXACT,
    "trees": TREES,
    "optimal": OPTIMAL,
}

# Fields each table is sorted by inside a shard (unique per record within one run): the
# engine's reader (wordle_core.tables.frames.TABLES) and this writer share one definition.
SORT_KEYS: dict[str, tuple[str, ...]] = dict(TABLE_ORDER)

TABLES = tuple(_RAW)


def _parse(raw: dict[str, Any]) -> dict[str, Any]:
    # A fresh named-type registry per table: GAME is defined inside two tables.
    return cast("dict[str, Any]", fastavro.parse_schema(raw, named_schemas={}))


SCHEMAS: dict[str, dict[str, Any]] = {name: _parse(raw) for name, raw in _RAW.items()}


def sort_key(table: str, record: dict[str, Any]) -> tuple:
    """The key a table's records are ordered by in every output file."""
    return tuple(record[f] for f in SORT_KEYS[table])
