"""The ``wordle-lab`` command line: one console script, one module per command group.

Command modules live in :mod:`wordle_core.cli.commands` and are discovered
automatically: each defines ``register(subparsers)``. Every user error becomes one
line on stderr and exit code 2 (see :func:`main`), never a traceback.

Start-up stays instant: building the parser imports the command modules, and those
import only the light engine (lexicons, feedback, states); numba's kernels, pandas,
fastavro and Beam are imported inside the command functions that use them
(``tests/test_startup.py`` checks it). ``--help`` lists the commands grouped by what
people do with them (:data:`HELP_GROUPS`); a command not named there is listed under
"more".
"""

from __future__ import annotations

import argparse
import importlib
import logging
import pkgutil
import sys

from wordle_core.errors import EXIT_FAILURE, EXIT_USAGE, OneLineParser, one_line_errors

__all__ = ["EXIT_FAILURE", "EXIT_USAGE", "HELP_GROUPS", "OneLineParser", "build_parser", "entry", "main"]

# ``--help``'s sections, in this order: (heading, commands in the order shown).
HELP_GROUPS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("play", ("play", "assist", "suggest", "score", "candidates", "review", "multi-assist")),
    ("analyse", ("simulate", "solve", "strategies", "lexicons", "evil-solve", "multi-solve",
                 "multi-simulate", "prior-effect", "tree")),
    ("pipelines", ("run", "pipeline", "report")),
    ("tables", ("rank", "optimal", "hard-verdict", "cache")),
)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("wordle-lab")
    except PackageNotFoundError:  # run from a source tree that is not installed
        from wordle_core import __version__

        return __version__


class _VersionAction(argparse.Action):
    """``--version``: the installed version, looked up only when asked for."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS,
                         help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        sys.stdout.write(f"wordle-lab {_version()}\n")
        parser.exit()


def _grouped_commands(sub: argparse._SubParsersAction) -> str:
    """The command list of ``--help``, one section per :data:`HELP_GROUPS` heading."""
    helps = {a.dest: a.help or "" for a in sub._choices_actions}
    width = max(map(len, helps)) + 2
    placed = {name for _, names in HELP_GROUPS for name in names}
    groups = [*HELP_GROUPS, ("more", tuple(n for n in helps if n not in placed))]
    lines = []
    for heading, names in groups:
        names = tuple(n for n in names if n in helps)
        if not names:
            continue
        lines.append(f"{heading}:")
        lines += [f"  {n:<{width}}{helps[n]}" for n in names]
        lines.append("")
    return "\n".join(lines) + "Each command's options: `wordle-lab COMMAND --help`."


def build_parser() -> argparse.ArgumentParser:
    from wordle_core.cli import commands

    parser = OneLineParser(
        prog="wordle-lab",
        description="Wordle Lab: measured answers to Wordle questions (openers, strategies, hard mode).",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        usage="wordle-lab [-h] [--version] COMMAND ...",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser,
                                help=argparse.SUPPRESS, prog="wordle-lab")
    sub.required = True
    for mod in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"{commands.__name__}.{mod.name}").register(sub)
    parser.epilog = _grouped_commands(sub)
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
    if (sys.argv[1:] if argv is None else list(argv)) == ["--version"]:  # no parser to build
        sys.stdout.write(f"wordle-lab {_version()}\n")
        return 0
    _show_engine_notes()
    if any("://" in a for a in (sys.argv[1:] if argv is None else argv)):
        import pipelines  # noqa: F401  (serves gs://, s3:// ... locations through Beam's FileSystems)
    parser = build_parser()
    args = parser.parse_args(argv)
    return one_line_errors(lambda: _run_with_hints(args), parser.prog)


def _run_with_hints(args: argparse.Namespace) -> int | None:
    """Run the command; a history or word the chosen game rejects but another built-in
    game accepts gets one line naming that game (:func:`wordle_core.cli.common.elsewhere`)."""
    from wordle_core.errors import InconsistentHistoryError, UnknownWordError

    try:
        return args.func(args)
    except (InconsistentHistoryError, UnknownWordError) as exc:
        from wordle_core.cli.common import elsewhere

        hint = elsewhere(args, exc)
        if hint is None:
            raise
        raise type(exc)(hint) from None


def entry() -> None:
    """Console-script entry point."""
    sys.exit(main())
