"""The faces touch only Memory and AsyncMemory.

Imports of the engine's insides from a face are refused by ruff (TID251, configured in
pyproject.toml); this test covers what an import rule cannot see: reaching through a
Memory object to its parts."""

import ast
from pathlib import Path

import threefold

FACES = Path(threefold.__file__).parent / "faces"
ENGINE_PARTS = {"store", "recall", "pipeline", "runner", "team"}
"""Memory's attributes that are the engine itself."""


def _face_files() -> list[Path]:
    return sorted(FACES.rglob("*.py"))


def test_no_face_reaches_into_the_engine_through_memory() -> None:
    reached = [
        f"{path.relative_to(FACES)}:{node.lineno} .{node.attr}"
        for path in _face_files()
        for node in ast.walk(ast.parse(path.read_text()))
        if isinstance(node, ast.Attribute) and node.attr in ENGINE_PARTS
    ]
    assert reached == []


def test_the_faces_are_found() -> None:
    names = {p.relative_to(FACES).as_posix() for p in _face_files()}
    assert {"cli.py", "http/routes.py", "mcp/server.py", "proxy/app.py", "web/routes.py"} <= names
