"""The Python API's examples run: every docstring example, the README's "Python API" and
the API reference page (docs/reference/python-api.md).

One test per docstring of the public API modules (``doctest`` finds them), and one
for the README section, whose ```python blocks run in order in one namespace, as a
reader would type them. The matrix cache is the per-session one of ``conftest``.
Run just these with ``pytest -q tests/test_api_docs.py``.
"""

from __future__ import annotations

import doctest
import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
API_MODULES = ["wordle_core", "wordle_core.api", "wordle_core.api.feedback", "wordle_core.api.position",
               "wordle_core.api.word_position", "wordle_core.api.strategy_catalogue",
               "wordle_core.game.history",
               "wordle_core.api.analysis", "wordle_core.api.ranking", "wordle_core.api.lexicon_info",
               "wordle_core.api.games", "wordle_core.api.multiboard", "wordle_core.api.trees",
               "wordle_core.api.sessions", "wordle_core.engine",
               "wordle_core.search.exact", "wordle_core.search.hard", "wordle_core.tables.exact",
               "wordle_core.tables.verdicts"]
README_SECTION = "## Python API"
API_PAGE = ROOT / "docs" / "reference" / "python-api.md"
MIN_README_EXAMPLES = 20  # the section must not silently lose its examples


def _docstring_tests() -> list[doctest.DocTest]:
    finder = doctest.DocTestFinder(exclude_empty=True)
    tests = []
    for name in API_MODULES:
        tests += [t for t in finder.find(importlib.import_module(name)) if t.examples]
    return sorted(tests, key=lambda t: t.name)


def _run(test: doctest.DocTest) -> tuple[int, str]:
    out: list[str] = []
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    result = runner.run(test, out=out.append)
    return result.failed, "".join(out)


@pytest.mark.parametrize("test", _docstring_tests(), ids=lambda t: t.name)
def test_docstring_examples(test: doctest.DocTest) -> None:
    failed, report = _run(test)
    assert failed == 0, report


def readme_python_blocks(text: str) -> list[str]:
    """The ```python blocks of the README's "Python API" section, in order."""
    start = text.index(README_SECTION)
    nxt = text.find("\n## ", start + len(README_SECTION))
    section = text[start: nxt if nxt >= 0 else len(text)]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_readme_python_api_section() -> None:
    blocks = readme_python_blocks((ROOT / "README.md").read_text())
    assert blocks, "the README has no ```python blocks under '## Python API'"
    assert all(">>> " in b for b in blocks), "every README python block is a doctest session"
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "README.md: Python API",
                                               str(ROOT / "README.md"), 0)
    assert len(test.examples) >= MIN_README_EXAMPLES
    failed, report = _run(test)
    assert failed == 0, report


def test_api_reference_page() -> None:
    """The reference page's ```python blocks run in order in one namespace, like the README's."""
    blocks = re.findall(r"```python\n(.*?)```", API_PAGE.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) >= 4 and all(">>> " in b for b in blocks)
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, "python-api.md", str(API_PAGE), 0)
    assert len(test.examples) >= 15
    failed, report = _run(test)
    assert failed == 0, report


def test_every_public_api_name_is_covered_by_an_example() -> None:
    """Each function (and constructor class) the API exports is called in some example.

    The result classes (``SimulationResult``, ``Optimum``, ...) are what those calls
    return, so their examples are the calls' examples.
    """
    import inspect

    import wordle_core.api as api

    sources = "\n".join(ex.source for t in _docstring_tests() for ex in t.examples)
    sources += "\n".join(readme_python_blocks((ROOT / "README.md").read_text()))
    sources += "\n".join(re.findall(r"```python\n(.*?)```", API_PAGE.read_text(encoding="utf-8"), flags=re.S))
    called = [n for n in api.__all__ if inspect.isfunction(getattr(api, n))] + ["Feedback", "Position"]
    missing = [n for n in called if f"{n}(" not in sources and f"{n}." not in sources]
    assert not missing, f"no example uses {missing}"
