"""Models and embedders found through entry points, the built-in ones included.

A package adds a model or an embedder by declaring an entry point in the group
``threefold.models`` or ``threefold.embedders``, whose name is the ``kind`` that settings
use and whose object is a factory::

    [project.entry-points."threefold.embedders"]
    my-embedder = "my_package.embed:build"

An embedder factory takes the :class:`~threefold.settings.EmbedSettings` and returns an
:class:`~threefold.embed.Embedder`; a model factory takes the
:class:`~threefold.settings.ModelSettings` and returns a
:class:`~threefold.models.MemoryModel`. Plugin-specific options go in the settings'
``options`` table. Only the kind that settings name is imported; :func:`load_all` imports
every one, warning about (and skipping) those that fail.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from threefold.errors import MissingExtra, SettingsError

__all__ = ["EMBEDDERS", "MODELS", "PluginWarning", "available", "load", "load_all"]

log = logging.getLogger(__name__)

MODELS = "threefold.models"
EMBEDDERS = "threefold.embedders"

_BUILT_IN: dict[str, dict[str, str]] = {
    MODELS: {
        "heuristic": "threefold.models.heuristic:build",
        "llm": "threefold.models.llm:build",
    },
    EMBEDDERS: {
        "minilm": "threefold.embed.minilm:build",
        "static": "threefold.embed.static:build",
        "openai": "threefold.embed.openai:build",
        "hashing": "threefold.embed.hashing:build",
    },
}
"""The entry points threefold's own pyproject.toml declares. They are read from the
installed metadata like any plugin's; this copy only serves a source tree that was never
installed, and a test keeps the two equal."""

_WHAT = {MODELS: "model", EMBEDDERS: "embedder"}


class PluginWarning(UserWarning):
    """A plugin's entry point could not be loaded; the other plugins still are."""


def available(group: str) -> dict[str, EntryPoint]:
    """The entry points of `group` by name, none of them imported.

    A plugin may not take a built-in name: it is skipped with a warning."""
    found = {name: EntryPoint(name, value, group) for name, value in _BUILT_IN[group].items()}
    for point in entry_points(group=group):
        name = point.name.strip().lower()
        if name in _BUILT_IN[group]:
            if point.value != _BUILT_IN[group][name]:
                what = _WHAT[group]
                _warn(f"{what} plugin {name!r} ({point.value}) takes a built-in name; ignored")
            continue
        found[name] = point
    return found


def load(group: str, kind: str) -> Callable[..., Any]:
    """The factory of `kind` in `group`, imported now.

    An unknown kind is a :class:`SettingsError` listing the known ones; a factory whose
    package lacks an optional part raises :class:`MissingExtra`; any other failure to
    import is a :class:`SettingsError` naming the plugin.
    """
    points = available(group)
    point = points.get(kind.strip().lower())
    if point is None:
        known = ", ".join(points)
        raise SettingsError(f"unknown {_WHAT[group]} kind {kind!r}; choose one of {known}")
    try:
        return point.load()
    except MissingExtra:
        raise
    except Exception as exc:
        raise SettingsError(
            f"the {_WHAT[group]} plugin {point.name!r} ({point.value}) failed to load: "
            f"{type(exc).__name__}: {exc}"
        ) from exc


def load_all(group: str) -> dict[str, Callable[..., Any]]:
    """Every factory of `group` that imports; each that does not is a :class:`PluginWarning`."""
    loaded: dict[str, Callable[..., Any]] = {}
    for name, point in available(group).items():
        try:
            loaded[name] = point.load()
        except Exception as exc:
            what = _WHAT[group]
            _warn(f"{what} plugin {name!r} ({point.value}) is skipped: {type(exc).__name__}: {exc}")
    return loaded


def _warn(message: str) -> None:
    log.warning(message)
    warnings.warn(message, PluginWarning, stacklevel=3)
