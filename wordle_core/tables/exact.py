"""Tables of proven optimal totals: the ``optimal_rank`` output and the shipped values.

* ``optimal_rank`` (written by ``wordle-lab optimal --rank K``): one row per allowed
  opener: its rank among the ``K`` best (exact totals), or the exact total / lower bound
  that proves it is worse than the ``K``-th. Avro (schema :data:`RANK_SCHEMA`) + CSV.
* the shipped tables ``wordle_core/data/exact/<lexicon>-<mode>.csv`` (and ``.avro``):
  exact totals of the openers computed by ``pipelines.optimal`` (for ``wordle``, all
  12,972 in both modes; see ``wordle_core/data/exact/README.md`` for how and when).
  :func:`shipped_values` reads them; an opener not there is simply not known yet.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

import fastavro

from wordle_core.game.lexicon import Lexicon
from wordle_core.tables.avro import read_with_metadata, shipped_bytes, write_avro_and_csv

if TYPE_CHECKING:
    from wordle_core.search.exact import OpenerRanking

RANK_SCHEMA: dict[str, Any] = fastavro.parse_schema({  # type: ignore[assignment]
    "type": "record", "name": "OptimalRank", "namespace": "org.wordlelab.v1",
    "doc": "Proven ranking of every opener by its exact total (wordle-lab optimal --rank K).",
    "fields": [
        {"name": "lexicon", "type": "string", "doc": "lexicon name"},
        {"name": "mode", "type": "string", "doc": "'normal' or 'hard'"},
        {"name": "guess_pool", "type": "string", "doc": "guesses the search may play: all / answers"},
        {"name": "k", "type": "int", "doc": "how many best openers were ranked exactly"},
        {"name": "opener", "type": "string", "doc": "the first guess"},
        {"name": "rank", "type": ["null", "int"],
         "doc": "1..k among the k best (ties alphabetical); null for every other opener"},
        {"name": "total", "type": ["null", "long"],
         "doc": "exact minimal total over every answer; null when only a bound was needed or "
                "no strategy wins every game (see proof)"},
        {"name": "lower_bound", "type": ["null", "long"],
         "doc": "proven lower bound of the total (= total when exact; > the k-th total for "
                "openers proven worse by a bound); null: no strategy wins every game"},
        {"name": "proof", "type": "string",
         "doc": "'exact' (total proven), 'bound' (lower_bound > the k-th total), "
                "'no-win' (proven: no strategy wins every game within the limit)"},
        {"name": "cpu_seconds", "type": "double", "doc": "CPU time spent on this opener"},
    ],
})

RANK_FIELDS = ["lexicon", "mode", "guess_pool", "k", "opener", "rank", "total", "lower_bound",
               "proof", "cpu_seconds"]


def rank_records(res: OpenerRanking, lexicon: str, mode: str, pool: str) -> list[dict[str, Any]]:
    """One record per opener (top k first, then by bound, then alphabetical)."""
    from wordle_core.search.exact import INF

    out = []
    for o in res.openers:
        won = o.total is not None and o.total < INF
        out.append({"lexicon": lexicon, "mode": mode, "guess_pool": pool, "k": res.k,
                    "opener": o.opener, "rank": o.rank, "total": o.total if won else None,
                    "lower_bound": o.lower_bound if o.lower_bound < INF else None,
                    "proof": o.proof, "cpu_seconds": round(o.cpu_seconds, 4)})
    return out


def write_rank(records: list[dict[str, Any]], avro_path: str, csv_path: str,
               metadata: dict[str, str] | None = None) -> None:
    """The ranking as Avro and CSV (each written to a temporary name, then renamed);
    ``metadata`` (how, when, on which word lists) goes into the Avro header."""
    write_avro_and_csv(avro_path, csv_path, RANK_SCHEMA, RANK_FIELDS, records, metadata)


def rank_metadata(res: OpenerRanking, lexicon: Lexicon, mode: str, command: str) -> dict[str, str]:
    """The Avro header of a ranking: what it proves, on which word lists, how and when."""
    import datetime

    from wordle_core.search.exact import INF

    return {"wordle_lab.computed_by": f"{command} (wordle_core.search.exact.rank_openers)",
            "wordle_lab.collected_at": datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "wordle_lab.lexicon": lexicon.name, "wordle_lab.fingerprint": lexicon.fingerprint,
            "wordle_lab.mode": mode, "wordle_lab.k": str(res.k),
            "wordle_lab.kth_total": str(res.kth_total if res.kth_total < INF else ""),
            "wordle_lab.seconds": f"{res.seconds:.1f}", "wordle_lab.cpu_seconds": f"{res.cpu_seconds:.1f}",
            "wordle_lab.exact_searches": str(res.exact_searches)}


SHIPPED_RANK = "rank/optimal_rank-{lexicon}-{mode}.avro"


@dataclass(frozen=True)
class ShippedRank:
    """A proven ranking shipped with the package (``wordle_core/data/rank/``)."""

    records: list[dict[str, Any]]  # RANK_FIELDS, top k first (see rank_records)
    about: dict[str, str]  # the Avro metadata: computed_by, collected_at, seconds, ...

    @property
    def top(self) -> list[dict[str, Any]]:
        return [r for r in self.records if r["rank"] is not None]


@cache
def _shipped_rank(lexicon: str, mode: str) -> ShippedRank | None:
    name = SHIPPED_RANK.format(lexicon=lexicon, mode=mode)
    data = shipped_bytes(name)
    return None if data is None else ShippedRank(*read_with_metadata(data, name))


def shipped_rank(lexicon: Lexicon, mode: str) -> ShippedRank | None:
    """The shipped proven ranking of ``lexicon``'s openers in ``mode``, or None (none
    shipped, or computed on other word lists: checked by fingerprint)."""
    got = _shipped_rank(lexicon.name, mode)
    if got is None or got.about.get("wordle_lab.fingerprint") != lexicon.fingerprint:
        return None
    return got


def proven_best_opener(lexicon: Lexicon, mode: str) -> str | None:
    """The first opener of the shipped proven ranking of ``lexicon`` in ``mode`` (ties:
    alphabetical), or None where none ships."""
    got = shipped_rank(lexicon, mode)
    return None if got is None or not got.top else str(got.top[0]["opener"])


def recommended_opener(lexicon: Lexicon, hard: bool = False) -> str:
    """The opener played when none is named: the proven best where a proven ranking ships
    for the game and mode, else the best first guess by entropy (ties: alphabetical).

    >>> from wordle_core.game.lexicon import load_lexicon
    >>> recommended_opener(load_lexicon("wordle")), recommended_opener(load_lexicon("primel"))
    ('salet', '12953')
    """
    from wordle_core.analysis.simulate import default_opener
    from wordle_core.tables.scores import shipped_opener_scores

    proven = proven_best_opener(lexicon, "hard" if hard else "normal")
    return proven or default_opener(lexicon, hard, scores=shipped_opener_scores(lexicon))


@cache
def shipped_values(lexicon: str, mode: str) -> dict[str, int | None]:
    """Exact totals shipped with the package: opener -> total (None: no guaranteed win).

    Empty when nothing is shipped for this lexicon and mode. Openers missing from the
    table are not computed yet (the tables are filled in by resumable runs). Read from
    ``exact/<lexicon>-<mode>.csv``, or from the ``.avro`` beside it when only that ships.
    """
    data = shipped_bytes(f"exact/{lexicon}-{mode}.csv")
    if data is None:
        avro = shipped_bytes(f"exact/{lexicon}-{mode}.avro")
        if avro is None:
            return {}
        return {r["opener"]: None if r["total"] is None else int(r["total"])
                for r in read_with_metadata(avro)[0]}
    out: dict[str, int | None] = {}
    for row in csv.DictReader(io.StringIO(data.decode("utf-8"))):
        out[row["opener"]] = int(row["total"]) if row["total"] else None
    return out


def shipped_exact(lexicon: Lexicon, mode: str) -> dict[str, int | None]:
    """:func:`shipped_values` for ``lexicon`` itself: empty unless its word lists are the
    built-in ones of that name, which the shipped tables were computed on (a lexicon
    built under the same name from other words gets nothing).

    >>> from wordle_core import Lexicon, load_lexicon
    >>> shipped_exact(load_lexicon("wordle"), "normal")["salet"]
    7920
    >>> shipped_exact(Lexicon.build("wordle", ["salet", "crane"]), "normal")
    {}
    """
    from wordle_core.errors import WordleError
    from wordle_core.game.lexicon import load_lexicon

    try:
        builtin = load_lexicon(lexicon.name)
    except WordleError:
        return {}
    return shipped_values(lexicon.name, mode) if builtin.fingerprint == lexicon.fingerprint else {}


@dataclass(frozen=True)
class ExactPlace:
    """One opener's place among the openers of a shipped exact table.

    ``rank``: 1 + the number of openers with a smaller total (tied openers share it);
    ``total``: its exact total, None when no strategy wins every game (those openers come
    after every total).
    """

    rank: int
    opener: str
    total: int | None


def exact_ranking(lexicon: Lexicon, mode: str) -> list[ExactPlace]:
    """Every opener of the shipped exact table of ``lexicon`` in ``mode``, best first.

    Order: by exact total, then alphabetical; the openers with no guaranteed win last
    (alphabetical, sharing the rank after the last total). Empty when no table ships.
    Openers the table does not hold yet are left out: compare ``len()`` with the
    lexicon's guesses to see how complete it is. Like :func:`shipped_exact`, only for the
    built-in word lists the table was computed on.
    """
    values = shipped_exact(lexicon, mode)
    won = sorted((t, w) for w, t in values.items() if t is not None)
    lost = sorted(w for w, t in values.items() if t is None)
    out: list[ExactPlace] = []
    for i, (t, w) in enumerate(won):
        rank = out[-1].rank if out and out[-1].total == t else i + 1
        out.append(ExactPlace(rank, w, t))
    out.extend(ExactPlace(len(won) + 1, w, None) for w in lost)
    return out


def proven_worth(lexicon: Lexicon, mode: str) -> dict[str, int]:
    """What the shipped tables prove each opener is worth: opener -> its exact total, or -1
    when no strategy wins every game (an exact table's empty total, or, in hard mode, an
    opener the shipped verdicts prove infeasible). An exact total takes precedence.
    """
    from wordle_core.tables.verdicts import shipped_verdicts

    out = {w: -1 for w, v in shipped_verdicts(lexicon).items() if v == "infeasible"} \
        if mode == "hard" else {}
    ranked = shipped_rank(lexicon, mode)
    if ranked is not None:  # its exact totals (and proven no-wins); bounds prove no value
        out.update({r["opener"]: -1 if r["proof"] == "no-win" else int(r["total"])
                    for r in ranked.records if r["proof"] != "bound"})
    out.update({w: -1 if t is None else t for w, t in shipped_exact(lexicon, mode).items()})
    return out
