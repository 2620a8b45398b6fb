"""``wordle-lab pipeline games``: see :func:`pipelines.cli.run_games`."""

from __future__ import annotations

from collections.abc import Sequence

from .cli import run_games


def run(argv: Sequence[str] | None = None) -> int:
    return run_games(argv)


if __name__ == "__main__":
    from wordle_core.cli import main

    raise SystemExit(main(["pipeline", "games", *__import__("sys").argv[1:]]))
