"""Job configuration: what to compute, from a YAML file and/or command-line flags.

A config says *what* (lexicon, openers, strategies, modes, tables, where to write);
*how* (runner, workers, cluster address) stays in Beam's own options, so one config
runs on the laptop, on Dask or on Dataflow unchanged. Flags override the file and
are enough on their own. Every mistake (missing file, bad YAML, unknown key, bad
value) raises :class:`ConfigError`: one line, exit code 2.

Opener selections (YAML ``openers:`` or ``--openers``):

* ``all`` — every allowed guess;
* a list (``[salet, crane]`` or ``salet,crane``);
* the top N by a first-guess score, plus named extras:
  ``{top: 100, by: avg_eliminated, include: [salet]}`` or ``top:100:avg_eliminated+salet,crane``.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from wordle_core.errors import WordleError
from wordle_core.files import read_text

from .schemas import TABLES


class ConfigError(WordleError):
    """A config file or flag that cannot be used."""


SCORE_MEASURES = ("avg_eliminated", "entropy", "avg_remaining", "largest", "buckets")
MODES = ("normal", "hard")
OUTPUTS = (*TABLES, "report")


@dataclass(frozen=True)
class OpenerSelection:
    """Which openers to play: all, a list, or top-N by a score plus extras."""

    kind: str = "all"  # all | list | top
    words: tuple[str, ...] = ()  # the list, or the extras of a top-N selection
    top: int = 0
    by: str = "avg_eliminated"

    def describe(self) -> str:
        if self.kind == "all":
            return "all"
        if self.kind == "list":
            return ",".join(self.words)
        extra = f"+{','.join(self.words)}" if self.words else ""
        return f"top:{self.top}:{self.by}{extra}"


@dataclass(frozen=True)
class JobConfig:
    """Everything a job computes. Defaults are a small, quick job."""

    lexicon: str = "wordle"
    output: str = "outputs/run"
    openers: OpenerSelection = field(default_factory=OpenerSelection)
    score_openers: OpenerSelection = field(default_factory=OpenerSelection)
    strategies: tuple[str, ...] = ("entropy",)
    modes: tuple[str, ...] = ("normal",)
    outputs: tuple[str, ...] = ("opener_scores", "opener_summaries", "report")
    worst_games: int = 5
    shards: int = 1
    exact_node_budget: int | None = None
    top_report: int = 10
    source: str = "<flags>"


_KEYS = {
    "lexicon", "output", "openers", "score_openers", "strategies", "modes", "outputs",
    "worst_games", "shards", "exact_hard", "top_report", "description",
}


def parse_openers(value: Any, where: str) -> OpenerSelection:
    """An opener selection from YAML (str / list / mapping) or a flag string."""
    if value is None or value == "all":
        return OpenerSelection()
    if isinstance(value, list):
        words = tuple(_word(w, where) for w in value)
        if not words:
            raise ConfigError(f"{where}: the opener list is empty")
        return OpenerSelection("list", words)
    if isinstance(value, dict):
        unknown = set(value) - {"top", "by", "include"}
        if unknown:
            raise ConfigError(f"{where}: unknown key(s) {', '.join(sorted(unknown))} "
                              "(allowed: top, by, include)")
        top = value.get("top", 0)
        if not isinstance(top, int) or isinstance(top, bool) or top < 0:
            raise ConfigError(f"{where}: 'top' must be a whole number >= 0, got {top!r}")
        by = value.get("by", "avg_eliminated")
        if by not in SCORE_MEASURES:
            raise ConfigError(f"{where}: 'by' must be one of {', '.join(SCORE_MEASURES)}, got {by!r}")
        include = value.get("include") or []
        if not isinstance(include, list):
            raise ConfigError(f"{where}: 'include' must be a list of words")
        words = tuple(_word(w, where) for w in include)
        if top == 0 and not words:
            raise ConfigError(f"{where}: select at least one opener (top > 0 or include)")
        return OpenerSelection("top", words, top, by)
    if isinstance(value, str):
        text = value.strip()
        if text.startswith("top:"):
            head, _, extra = text.partition("+")
            parts = head.split(":")
            if len(parts) not in (2, 3) or not parts[1].isdigit():
                raise ConfigError(f"{where}: expected top:N[:MEASURE][+w1,w2], got {value!r}")
            sel: dict[str, Any] = {"top": int(parts[1])}
            if len(parts) == 3:
                sel["by"] = parts[2]
            sel["include"] = [w for w in extra.split(",") if w.strip()]
            return parse_openers(sel, where)
        return parse_openers([w for w in text.split(",") if w.strip()], where)
    raise ConfigError(f"{where}: openers must be 'all', a list or a mapping, got {type(value).__name__}")


def _word(w: Any, where: str) -> str:
    if not isinstance(w, str) or not w.strip():
        raise ConfigError(f"{where}: opener {w!r} is not a word")
    return w.strip().lower()


def _names(value: Any, where: str, allowed: tuple[str, ...] | None = None) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [v for v in value.split(",") if v.strip()]
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: expected a non-empty list of names, got {value!r}")
    names = tuple(dict.fromkeys(v.strip() for v in value))
    if allowed is not None:
        bad = [n for n in names if n not in allowed]
        if bad:
            raise ConfigError(f"{where}: unknown {', '.join(bad)} (allowed: {', '.join(allowed)})")
    return names


def _int(value: Any, where: str, lo: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < lo:
        raise ConfigError(f"{where}: expected a whole number >= {lo}, got {value!r}")
    return value


def load_config(path: str | Path | None) -> dict[str, Any]:
    """The raw mapping of a YAML config (empty without a file); checks keys."""
    if path is None:
        return {}
    p = Path(path)
    text = read_text(p, "config", ConfigError)
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"config {str(p)!r} is not valid YAML{at}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"config {str(p)!r} must be a mapping of keys to values")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise ConfigError(f"config {str(p)!r}: unknown key(s) {', '.join(map(str, unknown))} "
                          f"(allowed: {', '.join(sorted(_KEYS))})")
    return data


def build_config(path: str | Path | None = None, **flags: Any) -> JobConfig:
    """A validated :class:`JobConfig` from a file (optional) and flag overrides (not None)."""
    data = load_config(path)
    src = str(path) if path else "<flags>"
    cfg = JobConfig(source=src)
    changes: dict[str, Any] = {}
    merged = {**data, **{k: v for k, v in flags.items() if v is not None}}
    for key, value in merged.items():
        where = f"{src}: {key}" if key in data and key not in flags else f"--{key.replace('_', '-')}"
        if key == "description":
            continue
        if key == "lexicon":
            if not isinstance(value, str) or not value:
                raise ConfigError(f"{where}: expected a lexicon name")
            changes["lexicon"] = value
        elif key == "output":
            if not isinstance(value, str) or not value:
                raise ConfigError(f"{where}: expected a directory")
            changes["output"] = value
        elif key in ("openers", "score_openers"):
            changes[key] = parse_openers(value, where)
        elif key == "strategies":
            changes["strategies"] = _names(value, where)
        elif key == "modes":
            changes["modes"] = _names(value, where, MODES)
        elif key == "outputs":
            changes["outputs"] = _names(value, where, OUTPUTS)
        elif key == "worst_games":
            changes["worst_games"] = _int(value, where, 0)
        elif key == "shards":
            changes["shards"] = _int(value, where, 1)
        elif key == "top_report":
            changes["top_report"] = _int(value, where, 1)
        elif key == "exact_hard":
            # true / {}: the complete search (0 = no node budget); {node_budget: N}: a quick
            # partial answer (unknown where N OR nodes do not decide); false: not asked for
            if value in (None, False):
                changes["exact_node_budget"] = None
            elif value is True:
                changes["exact_node_budget"] = 0
            elif isinstance(value, dict) and set(value) <= {"node_budget"}:
                changes["exact_node_budget"] = _int(value.get("node_budget", 0), where, 0)
            else:
                raise ConfigError(f"{where}: expected true, false or {{node_budget: N}}")
        else:
            raise ConfigError(f"{where}: unknown setting")
    return dataclasses.replace(cfg, **changes)
