"""The rules' word lists kept as data (models/heuristic/data/*.json)."""

import json
from functools import cache
from importlib import resources
from typing import Any


@cache
def word_lists(name: str) -> dict[str, Any]:
    """The lists of data/`name`, a JSON object; its notes are under keys ending in "_doc"."""
    data: dict[str, Any] = json.loads(
        resources.files(__package__).joinpath("data", name).read_text("utf-8")
    )
    return data
