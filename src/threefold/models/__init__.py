"""The thinking behind memory: the MemoryModel protocol and its implementations.

Models register as ``threefold.models`` entry points (see :mod:`threefold.plugins`); the
built-in ``heuristic`` and ``llm`` ones do too.
"""

from threefold.errors import SettingsError
from threefold.models.base import MemoryModel
from threefold.plugins import MODELS, load
from threefold.settings import ModelSettings


def build_model(settings: ModelSettings) -> MemoryModel:
    """The model `settings.kind` names, through its ``threefold.models`` entry point."""
    model = load(MODELS, settings.kind)(settings)
    if not isinstance(model, MemoryModel):
        raise SettingsError(
            f"the {settings.kind} model factory returned {model!r}, not a MemoryModel"
        )
    return model


__all__ = ["MemoryModel", "build_model"]
