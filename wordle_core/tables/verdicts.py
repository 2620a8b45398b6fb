"""Shipped hard-mode verdicts: can each allowed opener guarantee a hard-mode win?

The ``hard`` pipeline decides every opener exactly (complete AND-OR search,
:mod:`wordle_core.search.hard`); ``wordle-lab pipeline hard --ship DIR`` collects the
verdicts of a finished run into ``DIR/<lexicon>.avro`` (the source of truth, with how
and when it was computed and the lexicon's fingerprint in its metadata) and
``DIR/<lexicon>.csv`` (the same rows for people). The package ships them under
``wordle_core/data/hard/``; :func:`shipped_verdicts` reads them, and only for the exact
word lists they were computed on (a custom lexicon of the same name gets nothing).

Columns: ``opener``, ``verdict`` (``feasible``: some hard-mode strategy wins every
game within the limit; ``infeasible``: proven that none does), ``seconds`` and
``nodes`` (the search's wall time and OR nodes for that opener in the run).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import fastavro

from wordle_core.game.lexicon import Lexicon
from wordle_core.tables.avro import read_with_metadata, shipped_bytes, write_avro_and_csv

VERDICT_SCHEMA: dict[str, Any] = fastavro.parse_schema({  # type: ignore[assignment]
    "type": "record", "name": "ShippedHardVerdict", "namespace": "org.wordlelab.v1",
    "doc": "Exact hard-mode verdict of one allowed opener (wordle-lab pipeline hard --ship).",
    "fields": [
        {"name": "opener", "type": "string", "doc": "the first guess"},
        {"name": "verdict", "type": "string",
         "doc": "'feasible' (a strategy winning every hard-mode game exists) or 'infeasible' "
                "(proven: none does)"},
        {"name": "seconds", "type": "double", "doc": "wall time of the exact search in the run"},
        {"name": "nodes", "type": "long", "doc": "OR nodes the search expanded for this opener"},
    ],
})
FIELDS = ["opener", "verdict", "seconds", "nodes"]
DECIDED = ("feasible", "infeasible")


def write_verdicts(records: list[dict[str, Any]], dest: str | Path, lexicon: Lexicon,
                   metadata: dict[str, str]) -> tuple[Path, Path]:
    """Write ``dest/<lexicon>.avro`` and ``.csv`` (each staged, then renamed); the two paths.

    ``records`` carry :data:`FIELDS`; they are written sorted by opener. Every verdict
    must be decided: a table with ``unknown`` in it would answer a question it did not.
    """
    rows = sorted(({k: r[k] for k in FIELDS} for r in records), key=lambda r: r["opener"])
    bad = [r["opener"] for r in rows if r["verdict"] not in DECIDED]
    if bad:
        raise ValueError(f"{len(bad)} openers are not decided (first: {bad[0]}); "
                         "ship only a complete-search run")
    stem = Path(dest) / lexicon.name
    stem.parent.mkdir(parents=True, exist_ok=True)
    meta = {**metadata, "wordle_lab.lexicon": lexicon.name,
            "wordle_lab.fingerprint": lexicon.fingerprint,
            "wordle_lab.openers": str(len(rows))}
    avro, csv_path = Path(f"{stem}.avro"), Path(f"{stem}.csv")
    write_avro_and_csv(avro, csv_path, VERDICT_SCHEMA, FIELDS, rows, meta)
    return avro, csv_path


def read_verdicts(data: bytes) -> tuple[dict[str, str], dict[str, str]]:
    """(opener -> verdict, metadata) of one shipped Avro file's bytes."""
    records, meta = read_with_metadata(data)
    return {r["opener"]: r["verdict"] for r in records}, meta


@cache
def _shipped(name: str) -> tuple[dict[str, str], dict[str, str]]:
    data = shipped_bytes(f"hard/{name}.avro")
    return ({}, {}) if data is None else read_verdicts(data)


def shipped_verdicts(lexicon: Lexicon) -> dict[str, str]:
    """Shipped exact hard-mode verdicts of ``lexicon``'s openers: opener -> verdict.

    Empty when nothing is shipped for this lexicon or its word lists differ from the
    ones the table was computed on (checked by fingerprint).

    >>> from wordle_core import load_lexicon
    >>> table = shipped_verdicts(load_lexicon("nyt"))
    >>> table["salet"], table["slate"]
    ('feasible', 'infeasible')
    """
    table, meta = _shipped(lexicon.name)
    if meta.get("wordle_lab.fingerprint") != lexicon.fingerprint:
        return {}
    return table


def shipped_about(lexicon: Lexicon) -> dict[str, str]:
    """How and when the shipped table of ``lexicon`` was computed (its Avro metadata)."""
    meta = _shipped(lexicon.name)[1]
    return meta if meta.get("wordle_lab.fingerprint") == lexicon.fingerprint else {}
