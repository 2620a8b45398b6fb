"""The journal that makes ``wordle-lab optimal --rank K`` resumable.

A proven ranking of every opener of today's game costs CPU-hours: one exact search per
opener, each cut off at the current ``K``-th best total. The journal keeps every finished
search, one JSON line each, beside the run's outputs
(``optimal_rank-<lexicon>-<mode>.journal.jsonl``), and the first step's bounds of every
opener; ``--resume`` reads it back and :func:`wordle_core.search.exact.rank_openers`
replays them instead of running them again. The first line names the ranking the journal
belongs to (game, word lists' digest, mode, guess pool, ``K``, guess limit); a journal of
another ranking is refused, and a line cut short by a kill is dropped (that one search
runs again).

>>> import tempfile, pathlib
>>> from wordle_core.search.exact import SearchedOpener
>>> path = pathlib.Path(tempfile.mkdtemp()) / "r.journal.jsonl"
>>> ident = {"lexicon": "toy", "k": 2}
>>> with RankJournal.create(path, ident) as journal:
...     journal.add(SearchedOpener("cot", 13, 12, 0.25))
...     journal.add_bounds([12, 13])
>>> read_rank_journal(path, ident)  # doctest: +NORMALIZE_WHITESPACE
SavedRanking(searched={'cot': SearchedOpener(opener='cot', beta=13, value=12, cpu_seconds=0.25)},
             bounds=[12, 13])
>>> read_rank_journal(path, {"lexicon": "toy", "k": 3})
Traceback (most recent call last):
...
wordle_core.errors.WordleError: ... belongs to another ranking (k 2, not 3); remove it or use another --output
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from types import TracebackType
from typing import IO, Any, NamedTuple

from wordle_core.errors import WordleError
from wordle_core.game.lexicon import Lexicon
from wordle_core.search.exact import SearchedOpener


def ranking_identity(lexicon: Lexicon, mode: str, pool: str, k: int,
                     max_guesses: int | None) -> dict[str, Any]:
    """What a journal must match to be replayed: the game and its word lists (digest),
    the mode, the guess pool, ``K`` and the guess limit."""
    words = hashlib.sha256("\n".join([*lexicon.answers, "", *lexicon.guesses]).encode()).hexdigest()
    return {"lexicon": lexicon.name, "words_sha256": words, "mode": mode, "guess_pool": pool,
            "k": k, "max_guesses": max_guesses}


class SavedRanking(NamedTuple):
    """What a journal holds: the finished searches, by opener, and the openers' two-level
    bounds (None until that first step has finished)."""

    searched: dict[str, SearchedOpener]
    bounds: list[int] | None


def read_rank_journal(path: Path, identity: dict[str, Any]) -> SavedRanking:
    """What a journal holds; an error line if it belongs to another ranking or is not a
    journal."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise WordleError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        head = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        head = None
    if not isinstance(head, dict) or "ranking" not in head:
        raise WordleError(f"{path} is not a ranking journal; remove it or use another --output")
    for key, want in identity.items():
        if head["ranking"].get(key) != want:
            raise WordleError(f"{path} belongs to another ranking ({key} {head['ranking'].get(key)}, "
                              f"not {want}); remove it or use another --output")
    done: dict[str, SearchedOpener] = {}
    bounds = None
    for n, line in enumerate(lines[1:], 2):
        try:
            item = json.loads(line)
            if isinstance(item, dict):
                bounds = [int(b) for b in item["bounds"]]
            else:
                s = SearchedOpener(*item)
                done[s.opener] = s
        except (json.JSONDecodeError, TypeError, KeyError, ValueError):
            if n == len(lines):  # the last line, cut short by a kill: it is done again
                break
            raise WordleError(f"{path} line {n} is damaged; remove the journal to start over") from None
    return SavedRanking(done, bounds)


class RankJournal:
    """Appends each finished search to the journal, on disk before the next starts."""

    def __init__(self, handle: IO[str]) -> None:
        self._handle = handle

    @classmethod
    def create(cls, path: Path, identity: dict[str, Any]) -> RankJournal:
        """A new journal (replacing none: the caller decides about an existing one)."""
        handle = path.open("w", encoding="utf-8")
        handle.write(json.dumps({"ranking": identity}) + "\n")
        handle.flush()
        return cls(handle)

    @classmethod
    def append_to(cls, path: Path) -> RankJournal:
        """An existing journal, to go on with (a line cut short by a kill is cut off)."""
        text = path.read_text(encoding="utf-8")
        if not text.endswith("\n"):
            with path.open("r+", encoding="utf-8") as f:
                f.truncate(len(text[:text.rfind("\n") + 1].encode()))
        return cls(path.open("a", encoding="utf-8"))

    def add(self, searched: SearchedOpener) -> None:
        """Keep one finished search."""
        self._write(json.dumps(list(searched)))

    def add_bounds(self, bounds: list[int]) -> None:
        """Keep the openers' two-level bounds (the ranking's first step)."""
        self._write(json.dumps({"bounds": bounds}))

    def _write(self, line: str) -> None:
        self._handle.write(line + "\n")
        self._handle.flush()
        os.fsync(self._handle.fileno())

    def close(self) -> None:
        self._handle.close()

    def __enter__(self) -> RankJournal:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
