"""Shared fixtures: a small lexicon for fast tests and the full ones for a few checks.

The pattern-matrix cache goes to a per-session temporary directory so tests never
depend on (or pollute) the user's cache, and every temporary directory the session makes
(Beam's ``TestPipeline`` runs each leave a ``/tmp/beam-temp*`` behind) goes under one
private directory that is removed when the session ends.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from pipelines.tempdirs import private_tempdir
from wordle_core.game.lexicon import Lexicon, load_lexicon


@pytest.fixture(scope="session", autouse=True)
def _private_tmp() -> Iterator[str]:
    with private_tempdir() as d:
        yield d


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(_private_tmp: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    os.environ["WORDLE_LAB_CACHE"] = str(tmp_path_factory.mktemp("wordle-lab-cache"))


@pytest.fixture(scope="session")
def wordle() -> Lexicon:
    return load_lexicon("wordle")


@pytest.fixture(scope="session")
def small_lex() -> Lexicon:
    """300 answers (every 7th of the original list) and 600 guesses (answers + others)."""
    full = load_lexicon("wordle")
    answers = list(full.answers[::7][:300])
    extra = [w for w in full.guesses[::20] if w not in set(answers)][:300]
    return Lexicon.build("small", answers, answers + extra)


def trap_lexicon(name: str = "traps", max_guesses: int = 6) -> Lexicon:
    """Trap-rich lexicon: answers that share four letters with three others (``?ATCH``...),
    so hard-mode positions are often lost (mixed verdicts with 5 guesses)."""
    full = load_lexicon("wordle")
    groups: dict[str, list[str]] = {}
    for w in full.answers:
        for i in range(5):
            groups.setdefault(w[:i] + "*" + w[i + 1:], []).append(w)
    answers = sorted({w for g in groups.values() if len(g) >= 4 for w in g})[:220]
    extra = [w for w in full.guesses[7::97] if w not in set(answers)][:140]
    return Lexicon.build(name, answers, answers + extra, max_guesses=max_guesses)
