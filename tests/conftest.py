import os
import shutil
import tempfile
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.scripted_model import ScriptedModel
from threefold import Memory, load_settings
from threefold.models.base import ExtractedFact
from threefold.store import Store, open_store

if TYPE_CHECKING:  # the server comes from the postgres test extra, imported on first use
    from tests.postgres.server import EmbeddedPostgres

MemoryFactory = Callable[..., Memory]


@pytest.fixture(scope="session", autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Caches, such as the quantized MiniLM model, go to a folder of this run's own."""
    import os

    before = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    yield
    if before is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = before


@pytest.fixture(autouse=True)
def _isolated_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No test reads the developer's own config or memory."""
    import os

    for key in list(os.environ):
        if key.startswith(("THREEFOLD_", "MEMSTRATA_")):
            monkeypatch.delenv(key)
    monkeypatch.setenv("THREEFOLD_DB", str(tmp_path / "default.db"))
    # The local MiniLM model is exercised by the tests that are about embeddings.
    monkeypatch.setenv("THREEFOLD_EMBED__KIND", "hashing")
    # A sync per commit triples the suite's time on slow disks; test_durability checks the
    # default is still `full`, and a process crash loses nothing at `normal` either.
    monkeypatch.setenv("THREEFOLD_DURABILITY", "normal")


@pytest.fixture
def scripted() -> ScriptedModel:
    return ScriptedModel()


POSTGRES_TEMPLATE = "threefold_template"
TEST_BACKEND = os.environ.get("THREEFOLD_TEST_BACKEND", "sqlite")
"""The backend `open_memory` opens: sqlite (real files), or postgres (a database of its own
per test and name, on the session's embedded server) to run a module against PostgreSQL."""


@pytest.fixture(scope="session")
def postgres_server() -> Iterator["EmbeddedPostgres"]:
    """One real PostgreSQL with pgvector for the whole run, started on first use. Its
    folder is not under pytest's: as root the server runs as another user, and pytest
    keeps its own folders private to root."""
    from tests.postgres.server import EmbeddedPostgres

    folder = Path(tempfile.mkdtemp(prefix="threefold-postgres-"))
    server = EmbeddedPostgres(folder)
    yield server
    server.stop()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_template(postgres_server: "EmbeddedPostgres") -> str:
    """A database with the schema made once, which each test's database copies."""
    from threefold.store import open_store

    open_store(postgres_server.create_database(POSTGRES_TEMPLATE)).close()
    return POSTGRES_TEMPLATE


@pytest.fixture
def fresh_postgres(
    postgres_server: "EmbeddedPostgres", postgres_template: str
) -> Iterator[Callable[[], str]]:
    """Makes empty threefold databases on the session's server, each call a new one's URL;
    they are dropped after the test, so that the run's disk use stays small."""
    made: list[str] = []

    def make() -> str:
        made.append(f"t{uuid.uuid4().hex[:16]}")
        postgres_server.psql(
            f'CREATE DATABASE "{made[-1]}" TEMPLATE {postgres_template} STRATEGY FILE_COPY'
        )
        return postgres_server.url(made[-1])

    yield make
    for name in made:
        postgres_server.psql(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(params=["sqlite", "postgres"])
def backend_db(request: pytest.FixtureRequest, tmp_path: Path) -> Callable[[], str | Path]:
    """For tests run on both backends: makes a fresh database of the backend, as a SQLite
    file's path or a postgresql:// URL."""
    if request.param == "sqlite":
        paths = iter(range(1_000_000))
        return lambda: tmp_path / f"backend-{next(paths)}.db"
    return request.getfixturevalue("fresh_postgres")


@pytest.fixture
def stores(backend_db: Callable[[], str | Path]) -> Iterator[Callable[[], Store]]:
    """Opens stores on one fresh database of the backend: two of them are two processes'
    views of it."""
    location = backend_db()
    opened: list[Store] = []

    def open_one() -> Store:
        opened.append(open_store(location, durability="normal"))
        return opened[-1]

    yield open_one
    for store in opened:
        store.close()


@pytest.fixture
def store(stores: Callable[[], Store]) -> Store:
    return stores()


@pytest.fixture
def open_memory(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[MemoryFactory]:
    """Opens memories on real SQLite files in tmp_path (or, with THREEFOLD_TEST_BACKEND
    =postgres, on a database per name); closes them after the test."""
    opened: list[Memory] = []
    databases: dict[str, str | Path] = {}

    def location(name: str) -> str | Path:
        if TEST_BACKEND != "postgres":
            return tmp_path / name
        if name not in databases:
            databases[name] = request.getfixturevalue("fresh_postgres")()
        return databases[name]

    def factory(model=None, *, name: str = "memory.db", worker: bool = False, **settings):
        mem = Memory.open(
            location(name),
            settings=load_settings(**settings),
            model=model,
            background_worker=worker,
        )
        opened.append(mem)
        return mem

    yield factory
    for mem in opened:
        mem.close()


def fact(subject: str, slot: str, value: str, confidence: float = 0.95, **extra) -> ExtractedFact:
    text = extra.pop("text", f"{subject} {slot} {value}")
    return ExtractedFact(
        text=text,
        category=extra.pop("category", "note"),
        subject=subject,
        slot=slot,
        value=value,
        confidence=confidence,
        **extra,
    )
