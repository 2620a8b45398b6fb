"""Griffe extension for the API reference: docstring examples become code blocks.

The project's docstrings hold doctest sessions (``>>>`` lines and their output) that
``tests/test_api_docs.py`` runs. Rendered as Markdown, their output would be read as text
(``['a', 'b']`` as a link reference); this wraps each session in a ``pycon`` fence.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """Each run of lines from a ``>>>`` line to the next blank line, fenced as ``pycon``.

    >>> print(fence_doctests("Intro.\\n\\n>>> 1 + 1\\n2\\n\\nMore."))
    Intro.
    <BLANKLINE>
    ```pycon
    >>> 1 + 1
    2
    ```
    <BLANKLINE>
    More.
    """
    out: list[str] = []
    inside = False
    indent = ""
    for line in text.splitlines():
        stripped = line.lstrip()
        if not inside and stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            out.append(f"{indent}```pycon")
            inside = True
        elif inside and not stripped:
            out.append(f"{indent}```")
            inside = False
        out.append(line)
    if inside:
        out.append(f"{indent}```")
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    def on_instance(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
