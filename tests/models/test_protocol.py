"""The built-in models and embedders satisfy their protocols, parameter names included,
so a plugin written against the protocol can call them (and be called) by keyword."""

import inspect

import pytest

from threefold.embed import Embedder, HashingEmbedder, MiniLMEmbedder, OpenAIEmbedder
from threefold.models.base import MemoryModel
from threefold.models.heuristic import HeuristicModel
from threefold.models.llm import LLMModel


def _methods(protocol: type) -> list[str]:
    return [n for n, v in vars(protocol).items() if inspect.isfunction(v) and not n.startswith("_")]


@pytest.mark.parametrize("model", [HeuristicModel, LLMModel])
def test_models_take_the_protocols_parameter_names(model: type) -> None:
    for name in _methods(MemoryModel):
        declared = list(inspect.signature(getattr(MemoryModel, name)).parameters)
        assert list(inspect.signature(getattr(model, name)).parameters) == declared, name


@pytest.mark.parametrize("embedder", [HashingEmbedder, MiniLMEmbedder, OpenAIEmbedder])
def test_embedders_take_the_protocols_parameter_names(embedder: type) -> None:
    declared = list(inspect.signature(Embedder.embed).parameters)
    assert list(inspect.signature(embedder.embed).parameters) == declared
