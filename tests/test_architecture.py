"""The shape of the code: the import graph, the layering table, public contracts.

Static checks over every ``.py`` file of ``wordle_core`` and ``pipelines`` (parsed
with :mod:`ast`, nothing imported): every ``import`` counts, at module level, inside
functions and under ``TYPE_CHECKING`` alike, because a function-level import is a
dependency that merely runs later. ``docs/architecture.md`` explains the table.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("wordle_core", "pipelines")

# The layering table, lowest first: a module may import modules of its own layer and
# of any layer below it, never above. docs/architecture.md shows the same table.
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("foundation", ("wordle_core.errors", "wordle_core.files", "wordle_core.shipped")),
    ("kernels", ("wordle_core.kernels",)),
    ("game", ("wordle_core.game",)),
    ("search", ("wordle_core.search",)),
    ("strategies", ("wordle_core.strategies",)),
    ("analysis", ("wordle_core.analysis",)),
    ("tables", ("wordle_core.tables",)),
    ("interactive", ("wordle_core.interactive",)),
    ("api", ("wordle_core", "wordle_core.api")),
    ("pipelines", ("pipelines",)),
    ("cli", ("wordle_core.cli", "wordle_core.__main__")),
]
ENGINE = {name for name, _ in LAYERS[: [n for n, _ in LAYERS].index("api") + 1]}
FOREIGN_TO_ENGINE = ("apache_beam", "pipelines", "wordle_core.cli", "wordle_core.__main__")


def _module_name(root: Path, path: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the two packages under ``root`` (default: this checkout), by dotted name."""
    return {_module_name(root, f): f for pkg in PACKAGES for f in sorted((root / pkg).rglob("*.py"))}


@cache
def tree_of(name: str, root: Path = ROOT) -> ast.Module:
    path = modules(root)[name]
    return ast.parse(path.read_text(encoding="utf-8"), str(path))


def _imported(name: str, root: Path = ROOT) -> set[str]:
    """Dotted names a module imports (``from a import b`` gives ``a.b`` when that is a module)."""
    path, mods, out = modules(root)[name], modules(root), set()
    for node in ast.walk(tree_of(name, root)):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                pkg = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
                pkg = pkg[: len(pkg) - node.level + 1]
                base = ".".join(pkg + ([node.module] if node.module else []))
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in mods]
            out.update(subs if len(subs) == len(node.names) else [base, *subs])
    return out


def _resolve(target: str, root: Path = ROOT) -> str | None:
    """The project module ``target`` names (its longest known prefix), or None if foreign."""
    parts = target.split(".")
    while parts and ".".join(parts) not in modules(root):
        parts.pop()
    return ".".join(parts) if parts else None


@cache
def graph(root: Path = ROOT) -> dict[str, frozenset[str]]:
    """Module -> project modules it imports (itself excluded), for the checkout at ``root``.

    Also a measuring tool: ``python -c "from pathlib import Path; from tests.test_architecture
    import cycles, graph; print(cycles(graph(Path('/some/checkout'))))"``.
    """
    g = {}
    for m in modules(root):
        targets = (_resolve(t, root) for t in _imported(m, root))
        g[m] = frozenset(t for t in targets if t is not None and t != m)
    return g


def cycles(g: dict[str, frozenset[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(g):
        if root in index:
            continue
        work = [(root, iter(sorted(g[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(g.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    comp.append(x)
                    if x == v:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def layer_of(module: str) -> int:
    """Index in :data:`LAYERS` of the longest matching prefix."""
    best, best_len = -1, -1
    for i, (_, prefixes) in enumerate(LAYERS):
        for p in prefixes:
            if (module == p or module.startswith(p + ".")) and len(p) > best_len:
                best, best_len = i, len(p)
    return best


# --- the graph ----------------------------------------------------------------------------
def test_cycle_finder_finds_cycles() -> None:
    """The checker itself: a planted 3-cycle and a self-contained chain."""
    g = {"a": frozenset({"b"}), "b": frozenset({"c"}), "c": frozenset({"a"}), "d": frozenset({"a"}),
         "e": frozenset()}
    assert cycles(g) == [["a", "b", "c"]]
    assert cycles({"a": frozenset({"b"}), "b": frozenset()}) == []


def test_graph_sees_function_level_and_relative_imports() -> None:
    g = graph()
    assert "wordle_core.game.state" in g["wordle_core.game.tree"]  # module level
    assert "wordle_core.files" in g["wordle_core.game.tree"]  # inside Tree.save_json
    assert "pipelines.orchestration.stages" in g["pipelines.scores"]  # ``from .orchestration import stages``
    assert len(g) > 60


def test_no_import_cycles() -> None:
    assert cycles(graph()) == []


def test_every_module_has_a_layer() -> None:
    missing = [m for m in modules() if layer_of(m) < 0]
    assert not missing, f"place these in LAYERS (and docs/architecture.md): {missing}"


def test_imports_follow_the_layering_table() -> None:
    bad = [f"{m} ({LAYERS[layer_of(m)][0]}) imports {t} ({LAYERS[layer_of(t)][0]})"
           for m, targets in graph().items() for t in sorted(targets) if layer_of(t) > layer_of(m)]
    assert not bad, "\n".join(bad)


def test_engine_imports_no_cli_beam_or_pipelines() -> None:
    bad = [f"{m} imports {t}" for m in modules() if LAYERS[layer_of(m)][0] in ENGINE
           for t in sorted(_imported(m))
           if any(t == f or t.startswith(f + ".") for f in FOREIGN_TO_ENGINE)]
    assert not bad, "\n".join(bad)


# --- purity: the engine finds no files by itself -------------------------------------------
# The pattern-matrix cache is one place the engine touches a location it was not
# given: a cache (a miss recomputes the same matrix), located by $WORDLE_LAB_CACHE.
# The other is the switch to the vector kernels' plain twins, $WORDLE_LAB_PLAIN_KERNELS
# (the same results by another route; read once, at import).
ENV_ALLOWED = {"wordle_core.game.matrix", "wordle_core.kernels.buckets.vector"}


def _reads_environment(name: str) -> list[str]:
    hits = []
    for node in ast.walk(tree_of(name)):
        if isinstance(node, ast.Attribute) and node.attr in ("environ", "getenv", "cwd", "home"):
            hits.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Constant) and node.value in ("outputs", "./outputs"):
            hits.append(f"{name}:{node.lineno}: the literal {node.value!r}")
    return hits


def test_engine_reads_no_environment_or_working_directory() -> None:
    hits = [h for m in modules() if LAYERS[layer_of(m)][0] in ENGINE and m not in ENV_ALLOWED
            for h in _reads_environment(m)]
    assert not hits, "\n".join(hits)


def test_environment_check_sees_a_read() -> None:
    assert _reads_environment("wordle_core.game.matrix")  # the allowed one is still seen
    assert _reads_environment("wordle_core.cli.common")  # $WORDLE_LAB_OUTPUTS, NO_COLOR


# --- public contracts instead of reach-ins -------------------------------------------------
def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_defined(tree: ast.Module) -> frozenset[str]:
    """The ``_private`` names a module defines (functions, classes, variables, attributes)."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            names.add(node.attr)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return frozenset(n for n in names if _private(n))


@cache
def private_names_defined() -> dict[str, frozenset[str]]:
    return {m: _private_defined(tree_of(m)) for m in modules()}


def private_reach_ins(name: str, tree: ast.Module, defined: dict[str, frozenset[str]]) -> list[str]:
    """Uses in module ``name`` (parsed: ``tree``) of another project module's ``_private`` names.

    ``from m import _x`` and ``m._x`` for a project module ``m``; ``obj._x`` when ``_x`` is
    defined in some other project module and not in this one (``self._x`` and ``cls._x``
    are a class's own business, subclasses included). Private names of third-party code
    (``argparse._SubParsersAction``) are not ours to rename.
    """
    here = defined.get(name, frozenset())
    elsewhere = frozenset().union(*(v for k, v in defined.items() if k != name))
    aliases: dict[str, str] = {}
    hits = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            if node.level:
                mod = ".".join(name.split(".")[: -node.level] + ([mod] if mod else []))
            src = _resolve(mod)
            for a in node.names:
                if src and _resolve(f"{src}.{a.name}") == f"{src}.{a.name}":
                    aliases[a.asname or a.name] = f"{src}.{a.name}"
                if src and src != name and _private(a.name):
                    hits.append(f"{name}:{node.lineno}: from {src} import {a.name}")
        elif isinstance(node, ast.Import):
            for a in node.names:
                if _resolve(a.name) == a.name:
                    aliases[a.asname or a.name] = a.name
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Attribute) and _private(node.attr)):
            continue
        base = node.value
        if isinstance(base, ast.Name) and base.id in ("self", "cls"):
            continue
        if isinstance(base, ast.Name) and base.id in aliases:
            if aliases[base.id] != name:
                hits.append(f"{name}:{node.lineno}: {ast.unparse(node)} ({aliases[base.id]})")
        elif node.attr in elsewhere and node.attr not in here:
            hits.append(f"{name}:{node.lineno}: {ast.unparse(node)}")
    return hits


def test_private_check_sees_reach_ins() -> None:
    """The checker itself, on planted code."""
    planted = ast.parse(
        "from wordle_core.kernels import exact as kn\n"
        "from wordle_core.strategies.base import _load_all\n"
        "import argparse\n"
        "def f(strat, sub: argparse._SubParsersAction):\n"
        "    return kn._split, strat._memo, strat._mine\n"
        "class C:\n"
        "    def g(self):\n"
        "        self._mine = 1\n"
        "        return self._memo\n")
    defined = {**private_names_defined(), "planted": _private_defined(planted),
               "wordle_core.kernels.exact": frozenset({"_split"}),
               "wordle_core.strategies.base": frozenset({"_load_all", "_memo"})}
    hits = private_reach_ins("planted", planted, defined)
    assert any("import _load_all" in h for h in hits)
    assert any("kn._split" in h for h in hits)
    assert any("strat._memo" in h for h in hits)
    assert not any("_mine" in h or "self._memo" in h or "argparse" in h for h in hits)


def test_no_private_reach_ins() -> None:
    defined = private_names_defined()
    hits = [h for m in modules() for h in private_reach_ins(m, tree_of(m), defined)]
    assert hits == [], "\n".join(hits)


# --- pipelines in one style ------------------------------------------------------------------
# jobs with a run(argv) that are not Beam pipelines, and why
NOT_BEAM = {"pipelines.report": "pandas in one process: the tables it reads are small"}


def pipeline_modules() -> list[str]:
    """Modules of ``pipelines`` that define a top-level ``run`` (one per pipeline)."""
    return [m for m in modules() if m.startswith("pipelines.") and m not in NOT_BEAM and any(
        isinstance(n, ast.FunctionDef) and n.name == "run" for n in tree_of(m).body)]


@pytest.mark.parametrize("module", sorted(NOT_BEAM))
def test_a_job_without_beam_still_has_its_story_and_run(module: str) -> None:
    doc = ast.get_docstring(tree_of(module)) or ""
    assert len(doc.split("\n\n")[0]) > 20 and f"python -m {module}" in doc
    run = next(n for n in tree_of(module).body if isinstance(n, ast.FunctionDef) and n.name == "run")
    assert [a.arg for a in run.args.args][:1] == ["argv"]


def test_pipeline_modules_found() -> None:
    assert {"pipelines.scores", "pipelines.games", "pipelines.hard", "pipelines.trees",
            "pipelines.optimal", "pipelines.analysis"} <= set(pipeline_modules())


COMPOSITES = {"pipelines.scores": {"ScoreOpeners"}, "pipelines.games": {"OpenerSummaries"},
              "pipelines.hard": {"HardVerdicts", "ExactHardVerdicts"},
              "pipelines.trees": {"DecisionTrees"}, "pipelines.optimal": {"ProveOpeners"}}


@pytest.mark.parametrize("module", sorted(COMPOSITES))
def test_pipeline_module_holds_its_composites(module: str) -> None:
    """Each pipeline's named composites live in its own module (subclasses of Beam's
    ``PTransform`` or of the shared ``PlayOpeners``), beside the ``run(argv)`` that runs them."""
    classes = {n.name: {getattr(b, "attr", getattr(b, "id", "")) for b in n.bases}
               for n in tree_of(module).body if isinstance(n, ast.ClassDef)}
    composites = {c for c, bases in classes.items() if bases & {"PTransform", "PlayOpeners"}}
    assert COMPOSITES[module] <= composites, composites


@pytest.mark.parametrize("module", pipeline_modules())
def test_pipeline_module_tells_its_story_and_how_to_run_it(module: str) -> None:
    """Story docstring with the DirectRunner, Dask and Dataflow commands, and run(argv)."""
    doc = ast.get_docstring(tree_of(module)) or ""
    name = module.rsplit(".", 1)[1]
    assert len(doc.split("\n\n")[0]) > 20, "a one-paragraph story first"
    for needle in ("DirectRunner", "--dask", "DataflowRunner", f"python -m pipelines.{name}"):
        assert needle in doc, needle
    run = next(n for n in tree_of(module).body if isinstance(n, ast.FunctionDef) and n.name == "run")
    assert [a.arg for a in run.args.args][:1] == ["argv"]
