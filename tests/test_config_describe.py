"""The console's one-line description of an opener selection stays one short line."""

from __future__ import annotations

import doctest

import pipelines.config as config
from pipelines.config import OpenerSelection


def test_config_docstring_examples_run() -> None:
    result = doctest.testmod(config, optionflags=doctest.ELLIPSIS)
    assert result.attempted >= 3
    assert result.failed == 0


def test_long_list_is_shortened_and_counted() -> None:
    words = tuple(f"w{i:04d}" for i in range(4000))
    line = OpenerSelection("list", words).describe()
    assert len(line) < 80
    assert line.startswith("w0000,") and line.endswith("w3999 (4,000 words)")
    assert "w2000" not in line


def test_short_lists_are_shown_whole() -> None:
    words = ("salet", "crane", "trace", "slate", "crate", "roate")
    assert OpenerSelection("list", words).describe() == ",".join(words)
    assert OpenerSelection("top", (*words, "soare"), 10, "entropy").describe() == \
        "top:10:entropy+salet,crane,trace,slate,crate,...,soare (7 words)"
