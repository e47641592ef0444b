"""Tool results and the tool listing as an agent reads them: one compact copy, and only what
it uses.

Every byte of a result or of the listing is read by the model at every call, so a result
is sent once, as JSON text without indentation (no second, structured copy), and it leaves
out the bookkeeping an agent has no use for: the tenant (the session's own), token counts,
when a row was written, who wrote it, ranking signals, and any field that is empty or at
its default (`visibility` shows only when it is not private); the keys the face itself
puts in a result all stay (a null `next_offset` says there is no next page). A source is its label
("turn:12"), with its time when the item has none of its own. Times drop their
microseconds, scores keep three decimals.
"""

import json
from collections.abc import Callable
from datetime import datetime
from enum import Enum
from typing import Any

from pydantic import BaseModel
from pydantic_core import to_jsonable_python

BOOKKEEPING = frozenset(
    {
        "tenant",
        "tokens",
        "recorded_at",
        "writer_trust",
        "writer_key",
        "signals",
        "mention_count",
        "generation",
        "parents",
    }
)
"""Fields of the engine's records that no agent acts on; the Python and HTTP APIs keep them."""
DEFAULTS = {"visibility": "private", "source": "conversation"}
"""Fields left out at their default value."""


def dumps(result: Any) -> str:
    """`result` as one line of JSON, lean (see the module's docstring)."""
    return json.dumps(lean(result), ensure_ascii=False, separators=(",", ":"))


def lean(value: Any) -> Any:
    """`value` as plain JSON values, without what an agent does not use."""
    if isinstance(value, BaseModel):
        return _lean_fields(_fields(value), BOOKKEEPING, _empty)
    if isinstance(value, dict):  # the face's own: every key is meant, null too
        return _lean_fields(value, frozenset(), _never)
    if isinstance(value, list | tuple):
        return [lean(item) for item in value]
    if isinstance(value, datetime):
        return _time(value)
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, float):
        return round(value, 3)
    return to_jsonable_python(value)  # a date, a path...


def _fields(model: BaseModel) -> dict[str, Any]:
    """A model's fields as they are, one level deep: nested models stay models here, so that
    each is made lean in turn (a source becomes its label)."""
    return {name: getattr(model, name) for name in type(model).model_fields}


def _lean_fields(
    fields: dict[str, Any], left_out: frozenset[str], unsaid: Callable[[Any], bool]
) -> dict[str, Any]:
    kept: dict[str, Any] = {}
    for key, value in fields.items():
        if key in left_out or unsaid(value) or DEFAULTS.get(key, ...) == _plain(value):
            continue
        if key == "source" and _is_source(value):
            kept["source"] = _label(value)
            at = value.get("at") if isinstance(value, dict) else value.at
            if at is not None and fields.get("at") is None:
                kept["at"] = lean(at)
            continue
        kept[key] = lean(value)
    return kept


def _is_source(value: Any) -> bool:
    if isinstance(value, dict):
        return {"kind", "id"} <= set(value)
    return hasattr(value, "label") and hasattr(value, "kind") and hasattr(value, "id")


def _label(source: Any) -> str:
    if isinstance(source, dict):
        return f"{source['kind']}:{source['id']}"
    return str(source.label())


def _never(value: Any) -> bool:
    return False


def _empty(value: Any) -> bool:
    return value is None or value == "" or (isinstance(value, list | tuple | dict) and not value)


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, Enum) else value


def _time(moment: datetime) -> str:
    text = moment.replace(microsecond=0).isoformat()
    return text.removesuffix("+00:00") + "Z" if text.endswith("+00:00") else text
