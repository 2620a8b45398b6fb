"""``python -m wordle_core`` runs the ``wordle-lab`` CLI."""

from .cli import entry

entry()
