"""The ``wordle-lab`` command line: one console script, one module per command group.

Command modules live in :mod:`wordle_core.cli.commands` and are discovered
automatically: each defines ``register(subparsers)``. Every user error becomes one
line on stderr and exit code 2 (see :func:`main`), never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys

from wordle_core.errors import EXIT_FAILURE, EXIT_USAGE, OneLineParser, one_line_errors

__all__ = ["EXIT_FAILURE", "EXIT_USAGE", "OneLineParser", "build_parser", "entry", "main"]


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


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is at the time of the record (tests swap it)."""

    def emit(self, record: logging.LogRecord) -> None:
        self.stream = sys.stderr
        super().emit(record)


def _show_engine_notes() -> None:
    """The engine reports notes (e.g. a corrupt cache file rebuilt) through ``logging``."""
    log = logging.getLogger("wordle_core")
    if not log.handlers:
        handler = _StderrHandler()
        handler.setFormatter(logging.Formatter("wordle-lab: note: %(message)s"))
        log.addHandler(handler)
        log.setLevel(logging.WARNING)
        log.propagate = False


def main(argv: list[str] | None = None) -> int:
    _show_engine_notes()
    if any("://" in a for a in (sys.argv[1:] if argv is None else argv)):
        import pipelines  # noqa: F401  (serves gs://, s3:// ... locations through Beam's FileSystems)
    parser = build_parser()
    args = parser.parse_args(argv)
    return one_line_errors(lambda: args.func(args), parser.prog)


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
