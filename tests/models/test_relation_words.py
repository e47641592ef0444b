"""Relation words as people write them, in dialects and other languages, name the relation."""

import pytest

from tests.models.marks import unmarked
from threefold.models.reader.facts import sentence_facts


def _slots(marked: str) -> set[tuple[str, str, str]]:
    text, spans = unmarked(marked)
    return {(f.subject, f.slot, f.value) for f in sentence_facts(text, spans, "user")}


@pytest.mark.parametrize(
    ("marked", "slot"),
    [
        ("my [[REL|dads]] name is [[relation|Gary]]", "father"),
        ("my [[REL|sisters]] boyfriend is called [[relation|Tom]]", "sister:tom"),
        ("my [[REL|abbu]] [[relation|Tariq]] runs the shop", "father"),
        ("mi [[REL|madda]] [[relation|Pauline]] a cook", "mother"),
        ("the [[REL|wean]] [[relation|Callum]] starts school", "child:callum"),
        ("my [[REL|ouma]] [[relation|Ria]] turned 90", "grandmother:ria"),
    ],
)
def test_a_relation_word_names_its_relation(marked: str, slot: str) -> None:
    assert ("user", slot) in {(subject, s) for subject, s, _ in _slots(marked)}


def test_a_word_that_is_no_relation_stays_as_written() -> None:
    assert ("user", "skipper:ana", "Ana") in _slots("my [[REL|skipper]] [[relation|Ana]] sails")
