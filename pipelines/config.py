"""Job configuration: what to compute, from a YAML file and/or command-line flags.

A config says *what* (lexicon, openers, strategies, modes, tables, where to write);
*how* (runner, workers, cluster address) stays in Beam's own options, so one config
runs on the laptop, on Dask or on Dataflow unchanged. Flags override the file and
are enough on their own. Every mistake (missing file, bad YAML, a duplicated or
unknown key, a value of the wrong type or out of range, an empty file, a file that does
not say which openers to play, an unknown lexicon, strategy or opener word) raises
:class:`ConfigError` naming the file and key (or the flag): one line, exit code 2,
before anything is computed or written.

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
from wordle_core.game.lexicon import DEFAULT_LEXICON

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
        """One short line for the console: a long word list shows its first and last words.

        >>> OpenerSelection("list", ("salet", "crane")).describe()
        'salet,crane'
        >>> OpenerSelection("list", tuple(f"w{i:04d}" for i in range(4000))).describe()
        'w0000,w0001,w0002,w0003,w0004,...,w3999 (4,000 words)'
        >>> OpenerSelection("top", ("salet",), 100).describe()
        'top:100:avg_eliminated+salet'
        """
        if self.kind == "all":
            return "all"
        if self.kind == "list":
            return _short_list(self.words)
        extra = f"+{_short_list(self.words)}" if self.words else ""
        return f"top:{self.top}:{self.by}{extra}"


DESCRIBE_WORDS = 6  # a longer list is shown as its first words, "...", its last word


def _short_list(words: tuple[str, ...]) -> str:
    if len(words) <= DESCRIBE_WORDS:
        return ",".join(words)
    return f"{','.join(words[:DESCRIBE_WORDS - 1])},...,{words[-1]} ({len(words):,} words)"


@dataclass(frozen=True)
class JobConfig:
    """Everything a job computes. Defaults are a small, quick job."""

    lexicon: str = DEFAULT_LEXICON
    output: str = "outputs/run"
    openers: OpenerSelection = field(default_factory=OpenerSelection)
    score_openers: OpenerSelection = field(default_factory=OpenerSelection)
    strategies: tuple[str, ...] = ("entropy",)
    modes: tuple[str, ...] = ("normal",)
    outputs: tuple[str, ...] = ("opener_scores", "opener_summaries", "report")
    worst_games: int = 5
    shards: int = 1
    exact_node_budget: int | None = None
    exact_implied_by: str | None = None  # lexicon whose shipped feasible verdicts carry over
    top_report: int = 10
    source: str = "<flags>"


MAX_SHARDS = 1024
"""Most Avro files per table: more only multiplies small files (and the driver's work)."""
MAX_WORST_GAMES = 10_000
MAX_WORKERS = 512

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


def _int(value: Any, where: str, lo: int, hi: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < lo or (hi is not None and value > hi):
        span = f">= {lo}" if hi is None else f"from {lo} to {hi:,}"
        raise ConfigError(f"{where}: expected a whole number {span}, got {value!r}")
    return value


def check_int(value: int | None, flag: str, lo: int, hi: int | None = None) -> int | None:
    """A numeric flag's value in range (None = not given), else :class:`ConfigError`."""
    return None if value is None else _int(value, flag, lo, hi)


class _UniqueKeyLoader(yaml.SafeLoader):
    """PyYAML's safe loader, but a key given twice in one mapping is an error, not 'last wins'."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: dict[Any, Any] = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            try:
                first = seen.setdefault(key, key_node)
            except TypeError:
                continue  # unhashable key: the base class reports it
            if first is not key_node:
                raise yaml.constructor.ConstructorError(
                    None, None, f"duplicate key {key!r} (first at line {first.start_mark.line + 1})",
                    key_node.start_mark)
        return super().construct_mapping(node, deep=deep)


_UniqueKeyLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG,
                                 _UniqueKeyLoader.construct_mapping)


def load_config(path: str | Path | None) -> dict[str, Any]:
    """The raw mapping of a YAML config (empty without a file); checks keys."""
    if path is None:
        return {}
    p = Path(path)
    text = read_text(p, "config", ConfigError).removeprefix("\ufeff")
    try:
        data = yaml.load(text, Loader=_UniqueKeyLoader)
    except yaml.constructor.ConstructorError as exc:
        mark = exc.problem_mark
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"config {str(p)!r}{at}: {exc.problem}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}" if mark is not None else ""
        raise ConfigError(f"config {str(p)!r} is not valid YAML{at}") from None
    if data is None:
        raise ConfigError(f"config {str(p)!r} is empty: say at least which openers to play "
                          "(e.g. openers: [salet] or openers: all)")
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
    given = {k: v for k, v in flags.items() if v is not None}
    merged = {**data, **given}
    where_of = lambda key: (f"config {src!r}: {key}" if key in data and key not in given
                            else f"--{key.replace('_', '-')}")
    for key, value in merged.items():
        where = where_of(key)
        if key == "description":
            if key in data and value is not None and not isinstance(value, str):
                raise ConfigError(f"{where}: expected text")
            continue
        if key == "lexicon":
            from wordle_core.game.lexicon import BUILTINS

            if not isinstance(value, str) or not value:
                raise ConfigError(f"{where}: expected a lexicon name")
            if value not in BUILTINS:
                raise ConfigError(f"{where}: unknown lexicon {value!r}; choose one of {', '.join(BUILTINS)}")
            changes["lexicon"] = value
        elif key == "output":
            if not isinstance(value, str) or not value:
                raise ConfigError(f"{where}: expected a directory")
            changes["output"] = value
        elif key in ("openers", "score_openers"):
            changes[key] = parse_openers(value, where)
        elif key == "strategies":
            from wordle_core.strategies import list_strategies

            known = [str(r["name"]) for r in list_strategies()]
            changes["strategies"] = _names(value, where)
            for n in changes["strategies"]:
                if n not in known:
                    raise ConfigError(f"{where}: unknown strategy {n!r}; choose one of {', '.join(known)}")
        elif key == "modes":
            changes["modes"] = _names(value, where, MODES)
        elif key == "outputs":
            changes["outputs"] = _names(value, where, OUTPUTS)
        elif key == "worst_games":
            changes["worst_games"] = _int(value, where, 0, MAX_WORST_GAMES)
        elif key == "shards":
            changes["shards"] = _int(value, where, 1, MAX_SHARDS)
        elif key == "top_report":
            changes["top_report"] = _int(value, where, 1, 10_000)
        elif key == "exact_hard":
            # true / {}: the complete search (0 = no node budget); {node_budget: N}: a quick
            # partial answer (unknown where N OR nodes do not decide); false: not asked for;
            # {implied_by: LEXICON}: openers the shipped table of LEXICON (same guesses, a
            # superset of the answers) proves feasible are feasible here without a search
            if value in (None, False):
                changes["exact_node_budget"] = None
            elif value is True:
                changes["exact_node_budget"] = 0
            elif isinstance(value, dict) and set(value) <= {"node_budget", "implied_by"}:
                changes["exact_node_budget"] = _int(value.get("node_budget", 0), where, 0)
                if value.get("implied_by") is not None:
                    changes["exact_implied_by"] = str(value["implied_by"])
            else:
                raise ConfigError(f"{where}: expected true, false or "
                                  "{node_budget: N, implied_by: LEXICON}")
        else:
            raise ConfigError(f"{where}: unknown setting")
    if path is not None and "openers" not in merged and "score_openers" not in merged:
        raise ConfigError(f"config {src!r} does not say which openers to play: add openers: "
                          "(a list, {top: N}, or 'all' for every guess) or give --openers")
    cfg = dataclasses.replace(cfg, **changes)
    _check_words(cfg, where_of)
    return cfg


def _check_words(cfg: JobConfig, where_of: Any) -> None:
    """Every opener word named is an allowed guess of the config's lexicon."""
    if not (cfg.openers.words or cfg.score_openers.words):
        return
    from wordle_core.game.lexicon import load_lexicon

    lex = load_lexicon(cfg.lexicon)
    for key in ("openers", "score_openers"):
        for w in getattr(cfg, key).words:
            try:
                lex.normalise(w)
            except WordleError as exc:
                raise ConfigError(f"{where_of(key)}: {exc}") from None


def check_flags(ns: Any, cfg: JobConfig | None = None) -> None:
    """The pipeline flags that are not config keys, checked before anything starts.

    ``--dask-workers`` from 1 to :data:`MAX_WORKERS`, ``--exact-budget`` >= 1, and a local
    ``--matrix-path`` that exists and holds ``cfg``'s lexicon's matrix (verified as the
    workers will; a remote ``gs://`` path is verified by the workers when they read it).
    """
    check_int(getattr(ns, "dask_workers", None), "--dask-workers", 1, MAX_WORKERS)
    check_int(getattr(ns, "exact_budget", None), "--exact-budget", 1)
    mpath = getattr(ns, "matrix_path", None)
    if mpath is not None:
        if not mpath.strip():
            raise ConfigError("--matrix-path: expected a file path")
        if "://" not in mpath and not Path(mpath).is_file():
            what = "is a directory" if Path(mpath).is_dir() else "does not exist"
            raise ConfigError(f"--matrix-path {mpath!r} {what}")
        if "://" not in mpath and cfg is not None:
            from wordle_core.game.lexicon import load_lexicon
            from wordle_core.game.matrix import read_matrix

            try:
                read_matrix(mpath, load_lexicon(cfg.lexicon), where=f"--matrix-path {mpath!r}")
            except OSError as exc:
                raise ConfigError(f"--matrix-path {mpath!r}: {exc.strerror or exc}") from None
