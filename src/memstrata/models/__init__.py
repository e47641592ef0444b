"""The thinking behind memory: the MemoryModel protocol and its implementations.

Models register as ``memstrata.models`` entry points (see :mod:`memstrata.plugins`); the
built-in ``heuristic`` and ``llm`` ones do too.
"""

from memstrata.errors import SettingsError
from memstrata.models.base import MemoryModel
from memstrata.plugins import MODELS, load
from memstrata.settings import ModelSettings


def build_model(settings: ModelSettings) -> MemoryModel:
    """The model `settings.kind` names, through its ``memstrata.models`` entry point."""
    model = load(MODELS, settings.kind)(settings)
    if not isinstance(model, MemoryModel):
        raise SettingsError(
            f"the {settings.kind} model factory returned {model!r}, not a MemoryModel"
        )
    return model


__all__ = ["MemoryModel", "build_model"]
