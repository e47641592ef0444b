"""What the MCP tests share: the event loop they run on, and a memory on a real SQLite
file."""

import pytest

from tests.conftest import MemoryFactory
from threefold import Memory


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def memory(open_memory: MemoryFactory) -> Memory:
    return open_memory()
