"""The trained reader's label scheme, shared by training and run time.

Every token of a sentence gets three labels: a BIO tag (which value span it belongs to,
or a relation word ``REL``, or a person's name ``PER``), the span's modality, and whose
the value is. Only tokens inside spans train the last two.
"""

import json
from functools import cache
from importlib import resources
from typing import Any

MODALITIES = ("cur", "former", "neg", "hypo", "ask")
"""current; former ("used to"); negated ("not Leeds"); hypothetical; asked."""
SUBJECTS = ("self", "rel", "per")
"""the writer; the relation word nearby ("my mum"); the person named nearby."""
MARKERS = ("REL", "PER")
ENDED = "not "
"""Before the value of a fact that says a value is over or was wrong ("not vegan"), as the
rules write it: the fact holds the value's slot, so the value gives way to it."""


@cache
def slot_table() -> dict[str, dict[str, Any]]:
    """Value label -> category, slot and wording (models/reader/data/slots.json)."""
    table = json.loads(_data("slots.json"))
    table.pop("_doc", None)
    return table


@cache
def relation_words() -> tuple[dict[str, str], frozenset[str]]:
    """Relation word -> relation ('hubby' -> 'spouse'), and the relations held by one."""
    data = relations()
    return data["words"], frozenset(data["single"])


@cache
def relations() -> dict[str, Any]:
    """models/reader/data/relations.json: relation words and the lists of relations."""
    data: dict[str, Any] = json.loads(_data("relations.json"))
    return data


@cache
def tags() -> tuple[str, ...]:
    """O, then B- and I- of every value label and marker, in a fixed order."""
    names = [*slot_table(), *MARKERS]
    return ("O", *(f"{edge}-{name}" for name in names for edge in "BI"))


def _data(name: str) -> str:
    return (resources.files("threefold.models.reader") / "data" / name).read_text("utf-8")
