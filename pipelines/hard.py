"""``wordle-lab pipeline hard``: see :func:`pipelines.cli.run_hard`."""

from __future__ import annotations

from collections.abc import Sequence

from .cli import run_hard


def run(argv: Sequence[str] | None = None) -> int:
    return run_hard(argv)


if __name__ == "__main__":
    from wordle_core.cli import main

    raise SystemExit(main(["pipeline", "hard", *__import__("sys").argv[1:]]))
