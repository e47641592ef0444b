"""Every data file the package reads ships in its wheel: an editable install reads the
source tree, so a file missing from package-data passes every other test and then fails
on a user's machine."""

import tomllib
from pathlib import Path

import threefold

ROOT = Path(threefold.__file__).parent
PYPROJECT = ROOT.parents[1] / "pyproject.toml"


def test_every_data_file_is_in_package_data() -> None:
    patterns = tomllib.loads(PYPROJECT.read_text())["tool"]["setuptools"]["package-data"]
    shipped = {path for pattern in patterns["threefold"] for path in ROOT.glob(pattern)}
    data = {
        path
        for path in ROOT.rglob("*")
        if path.is_file() and path.suffix not in (".py", ".pyc") and "__pycache__" not in path.parts
    }
    assert sorted(str(p.relative_to(ROOT)) for p in data - shipped) == []
