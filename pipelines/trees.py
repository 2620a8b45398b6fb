"""``wordle-lab pipeline trees``: see :func:`pipelines.cli.run_trees`."""

from __future__ import annotations

from collections.abc import Sequence

from .cli import run_trees


def run(argv: Sequence[str] | None = None) -> int:
    return run_trees(argv)


if __name__ == "__main__":
    from wordle_core.cli import main

    raise SystemExit(main(["pipeline", "trees", *__import__("sys").argv[1:]]))
