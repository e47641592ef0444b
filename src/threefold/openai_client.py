"""One way to build an openai client from settings, for the llm model and the embedder."""

import os
import re
from collections.abc import Callable
from typing import Self

import openai

from threefold.errors import SettingsError

KEYLESS_API_KEY = "EMPTY"
"""Sent to local servers that need no key: the openai client refuses an empty one."""


def client_from_settings(
    base_url: str,
    model: str,
    api_key_env: str | None,
    timeout: float,
    *,
    max_retries: int,
    purpose: str,
) -> openai.OpenAI:
    """A client for `purpose` ("llm", "embedding"), with its key read from `api_key_env`.

    An unset variable is a SettingsError naming it; a variable set to "" (or no variable)
    means a local server that needs no key. Keys never come from settings files.
    """
    if not isinstance(base_url, str) or not re.match(r"^https?://\S+$", base_url):
        raise SettingsError(f"{purpose} base_url must be an http(s) URL, got {base_url!r}")
    if not isinstance(model, str) or not model.strip():
        raise SettingsError(f"{purpose} model must name the model to use")
    if timeout is None or timeout <= 0:
        raise SettingsError(f"{purpose} timeout must be a positive number, got {timeout!r}")
    api_key = "" if api_key_env is None else os.environ.get(api_key_env)
    if api_key is None:
        raise SettingsError(
            f"environment variable {api_key_env} (the {purpose} API key) is not set; set it, "
            "or set it to an empty string for a local server that needs no key"
        )
    return openai.OpenAI(
        base_url=base_url,
        api_key=api_key.strip() or KEYLESS_API_KEY,
        timeout=timeout,
        max_retries=max_retries,
    )


class OwnsClient:
    """For classes built on an openai client: close() closes the client only when the
    instance made it itself (through `adopt`); a client passed in stays the caller's."""

    client: openai.OpenAI
    _owns_client: bool = False

    @classmethod
    def adopt(cls, client: openai.OpenAI, build: Callable[[openai.OpenAI], Self]) -> Self:
        """`build(client)`, owning the client; closed at once if building fails."""
        try:
            instance = build(client)
        except BaseException:
            client.close()
            raise
        instance._owns_client = True
        return instance

    def close(self) -> None:
        if self._owns_client:
            self.client.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
