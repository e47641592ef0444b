"""The thinking behind memory: the MemoryModel protocol and its implementations."""

from memstrata.models.base import MemoryModel
from memstrata.settings import ModelSettings


def build_model(settings: ModelSettings) -> MemoryModel:
    """The model the settings ask for; the llm model falls back to the heuristic one."""
    from memstrata.models.heuristic import HeuristicModel

    heuristic = HeuristicModel()
    if settings.kind == "heuristic":
        return heuristic
    from memstrata.models.llm import LLMModel

    return LLMModel.from_settings(
        base_url=settings.base_url,
        model=settings.name,
        api_key_env=settings.api_key_env,
        fallback=heuristic,
        timeout=settings.timeout_seconds,
        attempts=settings.attempts,
        backoff=settings.backoff_seconds,
    )


__all__ = ["MemoryModel", "build_model"]
