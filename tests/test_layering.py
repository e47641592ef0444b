"""No module reaches up a layer: the folders are tiers, and each imports only its own tier
and those below it (ARCHITECTURE.md's layout). Imports under TYPE_CHECKING are only names
for the type checker and do not count."""

import ast
from collections.abc import Iterator
from pathlib import Path

import threefold

PACKAGE = Path(threefold.__file__).parent
TIERS = [
    {"domain", "errors", "tokens", "rank_table", "dates", "tracing", "extras", "plugins", "checked"}
    | {"openai_client", "settings", "locations", "onnx_session"},
    # The job queue is the store's: layers and sources enqueue their follow-up work.
    {"store", "pipeline.jobs"},
    {"embed", "models"},
    {"entities", "routing", "trust", "recall", "layers"},
    {"pipeline", "sources", "context", "team"},
    {"memory", "aio", "__init__"},
    {"faces"},
]
ENTRY_POINTS = {"threefold.pipeline.workers"}
"""A worker process's entry point opens a Memory of its own, as a face does."""


def _unit(module: str) -> str:
    parts = module.split(".")[1:]
    if parts[:2] == ["pipeline", "jobs"]:
        return "pipeline.jobs"
    return parts[0] if parts else "__init__"


def _tier(unit: str) -> int:
    return next(i for i, members in enumerate(TIERS) if unit in members)


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.Module) -> Iterator[tuple[int, str]]:
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.ImportFrom) and node.module == "threefold":
            for alias in node.names:
                submodule = PACKAGE / alias.name
                is_module = submodule.is_dir() or submodule.with_suffix(".py").is_file()
                yield node.lineno, f"threefold.{alias.name}" if is_module else "threefold"
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("threefold."):
            yield node.lineno, str(node.module)
        elif isinstance(node, ast.Import):
            yield from ((node.lineno, a.name) for a in node.names if a.name.startswith("threefold"))


def test_every_folder_has_a_tier() -> None:
    units = {_unit(_module_name(path)) for path in PACKAGE.rglob("*.py")}
    assert units <= set().union(*TIERS)


def test_no_module_imports_from_a_higher_tier() -> None:
    upward = [
        f"{path.relative_to(PACKAGE)}:{line} imports {target}"
        for path in sorted(PACKAGE.rglob("*.py"))
        if (module := _module_name(path)) not in ENTRY_POINTS
        for line, target in _imports(ast.parse(path.read_text()))
        if _tier(_unit(target)) > _tier(_unit(module))
    ]
    assert upward == []
