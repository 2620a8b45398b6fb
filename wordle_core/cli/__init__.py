"""The ``wordle-lab`` command line: one console script, one module per command group.

Command modules live in :mod:`wordle_core.cli.commands` and are discovered
automatically: each defines ``register(subparsers)``. Every user error becomes one
line on stderr and exit code 2 (see :func:`main`), never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from wordle_core.errors import WordleError

EXIT_USAGE = 2


class OneLineParser(argparse.ArgumentParser):
    """argparse, but a usage error is one line (``wordle-lab: error: ...``), exit 2."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"{self.prog}: error: {message}\n")
        raise SystemExit(EXIT_USAGE)


def build_parser() -> argparse.ArgumentParser:
    from wordle_core.cli import commands

    parser = OneLineParser(
        prog="wordle-lab",
        description="Wordle Lab: measured answers to Wordle questions (openers, strategies, hard mode).",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    sub.required = True
    for mod in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"{commands.__name__}.{mod.name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rc = args.func(args)
    except WordleError as exc:
        sys.stderr.write(f"wordle-lab: error: {exc}\n")
        return int(getattr(exc, "exit_code", EXIT_USAGE))  # 2 usage / bad input, 1 a failure
    except KeyboardInterrupt as exc:  # 130 Ctrl-C, 143 SIGTERM (pipelines.runner.Interrupted)
        sys.stderr.write(f"wordle-lab: interrupted{getattr(exc, 'detail', '')}\n")
        return int(getattr(exc, "exit_code", 130))
    except BrokenPipeError:
        return 0
    return int(rc or 0)


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
