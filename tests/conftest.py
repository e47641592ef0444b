from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from memstrata import Memory, load_settings
from memstrata.models.base import ExtractedFact
from tests.scripted_model import ScriptedModel

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
        if key.startswith("MEMSTRATA_"):
            monkeypatch.delenv(key)
    monkeypatch.setenv("MEMSTRATA_DB", str(tmp_path / "default.db"))
    # The local MiniLM model is exercised by the tests that are about embeddings.
    monkeypatch.setenv("MEMSTRATA_EMBED__KIND", "hashing")
    # A sync per commit triples the suite's time on slow disks; test_durability checks the
    # default is still `full`, and a process crash loses nothing at `normal` either.
    monkeypatch.setenv("MEMSTRATA_DURABILITY", "normal")


@pytest.fixture
def scripted() -> ScriptedModel:
    return ScriptedModel()


@pytest.fixture
def open_memory(tmp_path: Path) -> Iterator[MemoryFactory]:
    """Opens memories on real SQLite files in tmp_path; closes them after the test."""
    opened: list[Memory] = []

    def factory(model=None, *, name: str = "memory.db", worker: bool = False, **settings):
        mem = Memory.open(
            tmp_path / name,
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
