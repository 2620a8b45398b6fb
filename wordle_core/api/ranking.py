"""Openers ranked by their proven totals, from the tables shipped with the package.

Two rankings ship for a built-in game once they are computed:

* :func:`proven_ranking`: the ``k`` best openers with their exact totals and a proof
  that every other opener is worse (``wordle-lab rank --proven``);
* :func:`exact_ranking`: every opener of the complete table of exact totals, best first
  (``wordle-lab rank --exact``).

Both return :class:`RankedOpener` values and raise a one-line
:class:`~wordle_core.errors.TableError` naming the command that computes the table when
none ships for the game and mode (today's ``nyt2023`` tables are being computed; the
original ``wordle`` has both)::

    >>> top = proven_ranking("wordle")
    >>> [(r.rank, r.opener, r.total) for r in top[:3]]
    [(1, 'salet', 7920), (2, 'reast', 7923), (3, 'crate', 7926)]
    >>> top[0].to_dict()
    {'rank': 1, 'opener': 'salet', 'total': 7920, 'mean': 3.4212, 'proof': 'exact'}
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from wordle_core.api.feedback import LexiconLike, as_lexicon
from wordle_core.game.lexicon import DEFAULT_LEXICON
from wordle_core.tables.avro import TableError


@dataclass(frozen=True)
class RankedOpener:
    """One opener's place in a ranking by proven total guesses over every answer.

    ``total`` and ``mean`` are None when no strategy wins every game from the opener
    (those come last and share a rank); tied openers share a rank. ``proof`` (proven
    ranking only): ``exact`` (its total was proved by the exact search).
    """

    rank: int
    opener: str
    total: int | None
    mean: float | None
    proof: str | None = None

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys; ``proof`` only where there is one).

        >>> RankedOpener(4, "zowee", None, None).to_dict()
        {'rank': 4, 'opener': 'zowee', 'total': None, 'mean': None}
        """
        out = asdict(self)
        if self.proof is None:
            del out["proof"]
        return out


def _mean(total: int | None, games: int) -> float | None:
    return None if total is None else round(total / games, 4)


@dataclass(frozen=True)
class RankingProof:
    """How a shipped proven ranking was proved (see :func:`ranking_proof`): the ``k`` best
    openers have exact totals, the ``k``-th total is ``kth_total``, and every one of the
    other ``openers - k`` was proved worse; ``cpu_seconds`` the proof's cost, ``collected_at``
    when it was made.

    >>> p = ranking_proof("wordle")
    >>> p.k, p.kth_total, p.openers
    (100, 8014, 12972)
    """

    lexicon: str
    hard: bool
    k: int
    kth_total: int | None
    openers: int
    cpu_seconds: float
    collected_at: str

    def to_dict(self) -> dict[str, object]:
        """JSON-ready form (the field names as keys)."""
        return asdict(self)


def ranking_proof(lexicon: LexiconLike = DEFAULT_LEXICON, hard: bool = False) -> RankingProof:
    """What proves the shipped proven ranking (:func:`proven_ranking`) of ``lexicon``.

    >>> ranking_proof("wordle", hard=True).to_dict()["k"]
    100
    """
    from wordle_core.tables.exact import shipped_rank

    lex = as_lexicon(lexicon)
    mode = "hard" if hard else "normal"
    got = shipped_rank(lex, mode)
    if got is None:
        raise TableError(f"no proven ranking ships for {lex.name} {mode} mode (compute one: "
                         f"wordle-lab optimal --lexicon {lex.name} --rank K{' --hard' if hard else ''})")
    a = got.about
    kth = a["wordle_lab.kth_total"]
    return RankingProof(lexicon=lex.name, hard=hard, k=int(a["wordle_lab.k"]),
                        kth_total=int(kth) if kth.isdigit() else None,
                        openers=len(got.records), cpu_seconds=float(a["wordle_lab.cpu_seconds"]),
                        collected_at=a.get("wordle_lab.collected_at", "?"))


def proven_ranking(lexicon: LexiconLike = DEFAULT_LEXICON, hard: bool = False) -> list[RankedOpener]:
    """The shipped proven ranking: the ``k`` best openers, best first, each with its exact
    total (the search proved every other opener worse, by its exact total or a lower bound).

    >>> [r.opener for r in proven_ranking("wordle", hard=True)[:3]]
    ['salet', 'least', 'reast']
    """
    from wordle_core.tables.exact import shipped_rank

    lex = as_lexicon(lexicon)
    mode = "hard" if hard else "normal"
    got = shipped_rank(lex, mode)
    if got is None:
        raise TableError(f"no proven ranking ships for {lex.name} {mode} mode (compute one: "
                         f"wordle-lab optimal --lexicon {lex.name} --rank K{' --hard' if hard else ''})")
    games = len(lex.answers)
    return [RankedOpener(int(r["rank"]), r["opener"], None if r["total"] is None else int(r["total"]),
                         _mean(r["total"], games), r["proof"]) for r in got.top]


def exact_ranking(lexicon: LexiconLike = DEFAULT_LEXICON, hard: bool = False) -> list[RankedOpener]:
    """Every opener of the shipped table of exact totals, best first (ties share a rank,
    then alphabetical; openers with no guaranteed win last). Openers the table does not
    hold yet are left out: compare ``len()`` with the game's guesses.

    >>> places = exact_ranking("wordle", hard=True)
    >>> len(places), places[0].to_dict(), places[-1].to_dict()  # doctest: +NORMALIZE_WHITESPACE
    (12972, {'rank': 1, 'opener': 'salet', 'total': 8122, 'mean': 3.5084},
     {'rank': 10951, 'opener': 'zowee', 'total': None, 'mean': None})
    """
    from wordle_core.tables.exact import exact_ranking as places

    lex = as_lexicon(lexicon)
    mode = "hard" if hard else "normal"
    got = places(lex, mode)
    if not got:
        raise TableError(f"no exact table ships for {lex.name} {mode} mode (compute one: python -m "
                         f"pipelines.optimal --config configs/exact.yaml --lexicon {lex.name} "
                         f"--modes {mode})")
    games = len(lex.answers)
    return [RankedOpener(p.rank, p.opener, p.total, _mean(p.total, games)) for p in got]
