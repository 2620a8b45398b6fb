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

from wordle_core.errors import WordleError

EXIT_USAGE = 2
EXIT_FAILURE = 1


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
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        rc = args.func(args)
    except WordleError as exc:
        sys.stderr.write(f"wordle-lab: error: {exc}\n")
        return int(getattr(exc, "exit_code", EXIT_USAGE))
    except KeyboardInterrupt:
        sys.stderr.write("wordle-lab: interrupted\n")
        return 130
    except BrokenPipeError:
        return 0
    except OSError as exc:  # the machine failed us (disk full, I/O error): one line, exit 1
        where = f": {exc.filename}" if exc.filename else ""
        sys.stderr.write(f"wordle-lab: error: {exc.strerror or exc}{where}\n")
        return EXIT_FAILURE
    return int(rc or 0)


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
