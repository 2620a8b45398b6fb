"""The longest functions and the largest parameter counts in the project's packages.

    python benchmarks/function_sizes.py                 # wordle_core and pipelines, top 5 each
    python benchmarks/function_sizes.py --top 10 wordle_core/kernels

A function's length is its lines from ``def`` to its last line (docstring included); its
parameters are every name it takes (positional, keyword-only, ``*args``, ``**kwargs``).
Nested functions count on their own. Read from the source (``ast``): nothing is imported.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]


class Function(NamedTuple):
    path: str
    name: str
    line: int
    length: int
    params: int


def functions(folder: Path) -> list[Function]:
    """Every function and method defined under ``folder`` (``*.py``, recursively)."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                a = node.args
                params = (len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs)
                          + (a.vararg is not None) + (a.kwarg is not None))
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                where = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
                found.append(Function(str(where), node.name, node.lineno, length, params))
    return found


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("folders", nargs="*", default=["wordle_core", "pipelines"],
                    help="folders of the repository (default: wordle_core pipelines)")
    ap.add_argument("--top", type=int, default=5, help="rows per table (default 5)")
    args = ap.parse_args(argv)
    for folder in args.folders:
        where = ROOT / folder
        if not where.is_dir():
            print(f"function_sizes: no folder {folder!r} in {ROOT}", file=sys.stderr)
            return 2
        found = functions(where)
        for title, key in (("longest", lambda f: f.length), ("most parameters", lambda f: f.params)):
            print(f"{folder}: {title} ({len(found)} functions)")
            for f in sorted(found, key=lambda f: (-key(f), f.path, f.line))[:args.top]:
                print(f"  {f.length:>5} lines {f.params:>3} params  {f.path}:{f.line} {f.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
