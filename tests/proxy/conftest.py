from collections.abc import Callable, Iterator
from dataclasses import dataclass

import httpx
import openai
import pytest

from tests.conftest import MemoryFactory
from tests.proxy.servers import FakeUpstream, ServerThread
from threefold import Memory, Trust
from threefold.faces.proxy import create_proxy_app
from threefold.trust.access import Caller


@dataclass
class Proxy:
    """A proxy served for real on loopback, with clients that close with it."""

    server: ServerThread
    memory: Memory
    clients: list

    @property
    def url(self) -> str:
        return f"{self.server.url}/v1"

    def openai(self, **options) -> openai.OpenAI:
        options = {"api_key": "sk-client-key", "timeout": 10.0, "max_retries": 0, **options}
        client = openai.OpenAI(base_url=self.url, **options)
        self.clients.append(client)
        return client

    def http(self) -> httpx.Client:
        client = httpx.Client(base_url=self.url, timeout=10.0)
        self.clients.append(client)
        return client


ProxyFactory = Callable[..., Proxy]


@pytest.fixture
def upstream() -> Iterator[FakeUpstream]:
    with FakeUpstream() as server:
        yield server


@pytest.fixture
def start_proxy(upstream: FakeUpstream, open_memory: MemoryFactory) -> Iterator[ProxyFactory]:
    """Starts the proxy over a memory (a fresh one unless given) in front of `upstream`."""
    started: list[Proxy] = []

    def factory(
        memory: Memory | None = None, *, worker: bool = False, keys: bool = False, **proxy
    ) -> Proxy:
        """Without `keys`, every request acts as the memory's tenant at full trust."""
        proxy = {"upstream": upstream.url, "timeout_seconds": 2.0, **proxy}
        if memory is None:
            memory = open_memory(worker=worker, proxy=proxy)
        settings = memory.settings.model_copy(
            update={"proxy": memory.settings.proxy.model_copy(update=proxy)}
        )
        open_as = None if keys else Caller(memory.tenant, Trust.FULL)
        server = ServerThread(create_proxy_app(memory, settings, open_as=open_as)).start()
        started.append(Proxy(server=server, memory=memory, clients=[]))
        return started[-1]

    yield factory
    for proxy in started:
        for client in proxy.clients:
            client.close()
        proxy.server.close()
