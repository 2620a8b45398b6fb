"""First-guess scores shipped with the package: every allowed opener's statistics over
every answer, so that the first move of ``suggest``, ``assist`` and the default opener
are read instead of computed.

``wordle_core/data/scores/<lexicon>.avro`` (and ``.csv``): one row per allowed guess, in
the lexicon's order, with the numbers :func:`wordle_core.search.openers.compute_opener_scores`
gives (``avg_eliminated``, ``avg_remaining``, ``entropy_bits``, ``largest_bucket``,
``buckets``; doubles stored exactly). The Avro header names the word lists' fingerprint;
:func:`shipped_opener_scores` returns None for any other word lists. Write one with::

    python -m wordle_core.tables.scores --lexicon nyt2023 --output wordle_core/data/scores
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

import fastavro
import numpy as np

from wordle_core.tables.avro import read_with_metadata, shipped_bytes, write_avro_and_csv

if TYPE_CHECKING:
    from wordle_core.game.lexicon import Lexicon
    from wordle_core.search.openers import OpenerScores

SCORES_SCHEMA: dict[str, Any] = fastavro.parse_schema({  # type: ignore[assignment]
    "type": "record", "name": "FirstGuessScores", "namespace": "org.wordlelab.v1",
    "doc": "Every allowed first guess's statistics over every answer (python -m wordle_core.tables.scores).",
    "fields": [
        {"name": "opener", "type": "string", "doc": "the first guess (rows in the lexicon's guess order)"},
        {"name": "avg_eliminated", "type": "double", "doc": "answers it rules out, on average"},
        {"name": "avg_remaining", "type": "double", "doc": "answers left after it, on average"},
        {"name": "entropy_bits", "type": "double", "doc": "information of its feedback, in bits"},
        {"name": "largest_bucket", "type": "long", "doc": "answers left in its worst case"},
        {"name": "buckets", "type": "long", "doc": "distinct feedback patterns it can get"},
    ]})
SCORES_FIELDS = [f["name"] for f in SCORES_SCHEMA["fields"]]
SHIPPED_SCORES = "scores/{lexicon}.avro"


def score_records(lexicon: Lexicon, scores: OpenerScores) -> list[dict[str, Any]]:
    """One record per allowed guess, in the lexicon's order."""
    scores.check(lexicon)
    return [{"opener": w, "avg_eliminated": float(scores.avg_eliminated[i]),
             "avg_remaining": float(scores.avg_remaining[i]), "entropy_bits": float(scores.entropy[i]),
             "largest_bucket": int(scores.largest[i]), "buckets": int(scores.buckets[i])}
            for i, w in enumerate(lexicon.guesses)]


def scores_from_records(records: list[dict[str, Any]]) -> OpenerScores:
    """The :class:`~wordle_core.search.openers.OpenerScores` of rows with these columns (the
    shipped table's, :func:`score_records`, and a run's ``opener_scores`` table's), in order."""
    from wordle_core.search.openers import OpenerScores

    col = lambda k, t: np.array([r[k] for r in records], dtype=t)
    return OpenerScores(avg_eliminated=col("avg_eliminated", np.float64),
                        avg_remaining=col("avg_remaining", np.float64),
                        entropy=col("entropy_bits", np.float64),
                        largest=col("largest_bucket", np.int64), buckets=col("buckets", np.int64))


class _Shipped(NamedTuple):
    fingerprint: str | None  # of the word lists the table was computed on
    openers: tuple[str, ...]  # its rows
    scores: OpenerScores


@cache
def _shipped(lexicon_name: str) -> _Shipped | None:
    """The shipped table of that name, read once per process (None: none ships)."""
    name = SHIPPED_SCORES.format(lexicon=lexicon_name)
    data = shipped_bytes(name)
    if data is None:
        return None
    records, about = read_with_metadata(data, name)
    return _Shipped(about.get("wordle_lab.fingerprint"), tuple(r["opener"] for r in records),
                    scores_from_records(records))


def shipped_opener_scores(lexicon: Lexicon) -> OpenerScores | None:
    """The shipped first-guess scores of ``lexicon``, or None (none shipped, or computed on
    other word lists: checked by fingerprint and by the guesses, row by row)."""
    got = _shipped(lexicon.name)
    if got is None or got.fingerprint != lexicon.fingerprint or got.openers != tuple(lexicon.guesses):
        return None
    return got.scores


def run(argv: Sequence[str] | None = None) -> int:
    """``python -m wordle_core.tables.scores --lexicon NAME --output DIR``: compute every
    first guess's scores and write ``DIR/NAME.avro`` and ``.csv``."""
    import datetime
    import time

    from wordle_core.errors import OneLineParser
    from wordle_core.game.lexicon import load_lexicon
    from wordle_core.search.openers import compute_opener_scores

    p = OneLineParser(prog="python -m wordle_core.tables.scores",
                      description="Every allowed first guess's scores, as the package ships them.")
    p.add_argument("--lexicon", required=True, help="built-in lexicon name")
    p.add_argument("--output", required=True, metavar="DIR", help="where to write LEXICON.avro and .csv")
    ns = p.parse_args(list(sys.argv[1:] if argv is None else argv))
    lex = load_lexicon(ns.lexicon)
    c0 = time.process_time()
    records = score_records(lex, compute_opener_scores(lex))
    meta = {"wordle_lab.computed_by": f"python -m wordle_core.tables.scores --lexicon {lex.name} "
                                      "(wordle_core.search.openers.compute_opener_scores)",
            "wordle_lab.collected_at": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "wordle_lab.lexicon": lex.name, "wordle_lab.fingerprint": lex.fingerprint,
            "wordle_lab.cpu_seconds": f"{time.process_time() - c0:.1f}"}
    out = Path(ns.output)
    out.mkdir(parents=True, exist_ok=True)
    write_avro_and_csv(out / f"{lex.name}.avro", out / f"{lex.name}.csv", SCORES_SCHEMA, SCORES_FIELDS,
                       records, meta)
    print(f"{lex.name}: {len(records):,} first guesses -> {out / lex.name}.avro, .csv")
    return 0


if __name__ == "__main__":
    from wordle_core.errors import one_line_errors

    raise SystemExit(one_line_errors(lambda: run(sys.argv[1:])))
