"""An OpenAI-compatible proxy that adds memory to any chat client.

    threefold proxy --upstream http://127.0.0.1:11434/v1

Point a client's base URL at the proxy, give it a threefold API key as its key, and name
the stream with the `X-Threefold-Stream` header (or the request's `user`, mapped to
`user:<value>`). See `create_proxy_app`.
"""

from pydantic import ValidationError

from threefold.domain import DEFAULT_TENANT, Trust
from threefold.errors import SettingsError
from threefold.extras import extra_needed
from threefold.settings import ProxySettings, Settings
from threefold.trust.access import Caller, check_no_auth

with extra_needed("server", "the proxy"):
    import uvicorn

    from threefold.faces.proxy.app import create_proxy_app

__all__ = ["create_proxy_app", "proxy_settings", "run_proxy"]


def proxy_settings(
    settings: Settings,
    upstream: str | None = None,
    host: str | None = None,
    port: int | None = None,
) -> Settings:
    """`settings` with the given proxy options replaced, validated."""
    given = {"upstream": upstream, "host": host, "port": port}
    updates = {key: value for key, value in given.items() if value is not None}
    if not updates:
        return settings
    try:
        proxy = ProxySettings.model_validate({**settings.proxy.model_dump(), **updates})
    except ValidationError as exc:
        problems = "; ".join(f"proxy.{e['loc'][0]}: {e['msg']}" for e in exc.errors())
        raise SettingsError(f"invalid proxy options: {problems}") from None
    return settings.model_copy(update={"proxy": proxy})


def run_proxy(
    settings: Settings,
    upstream: str | None = None,
    host: str | None = None,
    port: int | None = None,
    *,
    no_auth: bool = False,
    tenant: str = DEFAULT_TENANT,
) -> None:
    """Serve the proxy under uvicorn until interrupted, over a Memory built from settings.

    Each request needs an API key (`threefold keys create`); with `no_auth`, none is asked
    for and every request acts as `tenant` at full trust, on loopback only.
    """
    from threefold.memory import Memory

    settings = proxy_settings(settings, upstream, host, port)
    if not settings.proxy.upstream.startswith(("http://", "https://")):
        upstream = settings.proxy.upstream
        raise SettingsError(f"proxy.upstream must be an http(s) URL, got {upstream!r}")
    open_as = Caller(tenant, Trust.FULL) if no_auth else None
    if open_as is not None:
        check_no_auth("threefold proxy", settings.proxy.host, open_as)
    with Memory.open(settings=settings) as memory:
        app = create_proxy_app(memory, settings, open_as=open_as)
        loop = memory.maintenance_loop(settings.maintenance_interval_seconds)
        loop.start()
        try:
            uvicorn.run(app, host=settings.proxy.host, port=settings.proxy.port)
        finally:
            loop.stop()
