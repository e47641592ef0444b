"""`make test` on a fresh machine: its chromium step finds Debian's Chromium, installs it
as root, or stops with a message that says what to run, never skipping the browser tests.

The step runs as make runs it (`make chromium`), with THREEFOLD_CHROMIUM naming a binary
that is not there and, for the root case, a PATH without apt-get.
"""

import os
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MAKE = shutil.which("make")
pytestmark = pytest.mark.skipif(MAKE is None, reason="make is not installed")


@pytest.fixture
def checkout() -> Iterator[Path]:
    """The Makefile and its chromium script in a folder anyone may read: pytest's own
    folders are private to their owner, and the step also runs as another user."""
    folder = Path(tempfile.mkdtemp(prefix="threefold-make-"))
    folder.chmod(0o755)
    (folder / ".ci").mkdir(mode=0o755)
    shutil.copy(ROOT / "Makefile", folder / "Makefile")
    shutil.copy(ROOT / ".ci" / "ensure-chromium", folder / ".ci" / "ensure-chromium")
    yield folder
    shutil.rmtree(folder)


def _make_chromium(checkout: Path, chromium: Path, *, path: str, user: str | None = None):
    env = {"PATH": path, "THREEFOLD_CHROMIUM": str(chromium), "HOME": "/tmp"}
    return subprocess.run(
        [str(MAKE), "--no-print-directory", "-C", str(checkout), "chromium"],
        env=env,
        capture_output=True,
        text=True,
        user=user,
        timeout=60,
    )


def _as_someone_else() -> str | None:
    """Root runs the step as `nobody`; anyone else as themselves."""
    return "nobody" if os.geteuid() == 0 else None


def test_found_chromium_is_named(checkout: Path, tmp_path: Path) -> None:
    chromium = tmp_path / "chromium"
    chromium.symlink_to(shutil.which("true") or "/bin/true")
    done = _make_chromium(checkout, chromium, path=os.environ["PATH"])
    assert done.returncode == 0, done.stderr
    assert f"chromium: found at {chromium}" in done.stdout


def test_without_root_a_missing_chromium_stops_make_with_what_to_run(
    checkout: Path, tmp_path: Path
) -> None:
    missing = tmp_path / "no-such" / "chromium"
    done = _make_chromium(checkout, missing, path=os.environ["PATH"], user=_as_someone_else())
    assert done.returncode != 0
    assert f"chromium is missing at {missing}, and installing it needs root" in done.stderr
    assert "sudo apt-get install --no-install-recommends chromium" in done.stderr
    assert "THREEFOLD_CHROMIUM" in done.stderr


@pytest.mark.skipif(os.geteuid() != 0, reason="the root case runs as root")
def test_as_root_without_apt_get_a_missing_chromium_stops_make(
    checkout: Path, tmp_path: Path
) -> None:
    """A PATH with bash, make's shell and id, but no apt-get: a system of another kind."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("bash", "sh", "id"):
        (tools / name).symlink_to(shutil.which(name) or f"/bin/{name}")
    missing = tmp_path / "no-such" / "chromium"
    done = _make_chromium(checkout, missing, path=str(tools))
    assert done.returncode != 0
    assert "this system has no apt-get" in done.stderr
