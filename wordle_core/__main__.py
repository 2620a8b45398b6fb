"""``python -m wordle_core`` runs the ``wordle-lab`` CLI."""

from wordle_core.cli import entry

entry()
