"""``wordle-lab pipeline scores``: see :func:`pipelines.cli.run_scores`."""

from __future__ import annotations

from collections.abc import Sequence

from .cli import run_scores


def run(argv: Sequence[str] | None = None) -> int:
    return run_scores(argv)


if __name__ == "__main__":
    from wordle_core.cli import main

    raise SystemExit(main(["pipeline", "scores", *__import__("sys").argv[1:]]))
