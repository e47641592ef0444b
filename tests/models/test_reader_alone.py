"""Kinds of fact the trained reader reads alone (its manifest's ``reader_alone``): the
rules' facts of those kinds are left out of the blend, the rest blend as before; and the
bad input: a manifest naming no kind of fact, or not a list."""

import json
import logging
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from threefold.domain import FactCategory
from threefold.extras import has_extra
from threefold.models.base import ExtractedFact, TurnInput
from threefold.models.heuristic import HeuristicModel
from threefold.models.heuristic.blend import blend
from threefold.models.reader import DATA, TUNED, ReaderModelError, TrainedReader

AT = datetime(2026, 11, 2, 9, tzinfo=UTC)
needs_local = pytest.mark.skipif(not has_extra("local"), reason="needs the local extra")


def _fact(category: FactCategory, slot: str, value: str) -> ExtractedFact:
    text = f"The user's {slot} is {value}."
    return ExtractedFact(
        text=text, category=category, subject="user", slot=slot, value=value, confidence=0.9
    )


RULES_HEALTH = _fact(FactCategory.HEALTH, "condition", "asthma")
READER_HEALTH = _fact(FactCategory.HEALTH, "condition", "migraines")
RULES_HOME = _fact(FactCategory.LOCATION, "home", "Leeds")
READER_HOME = _fact(FactCategory.LOCATION, "home", "York")


def test_the_rules_facts_of_a_kind_the_reader_reads_alone_are_left_out() -> None:
    rules, read = [RULES_HEALTH, RULES_HOME], [READER_HEALTH, READER_HOME]
    assert blend(rules, read, "union", frozenset({"health"})) == [RULES_HOME, READER_HEALTH]


def test_with_no_kind_read_alone_the_rules_slot_stands_as_before() -> None:
    rules, read = [RULES_HEALTH, RULES_HOME], [READER_HEALTH, READER_HOME]
    assert blend(rules, read) == blend(rules, read, "union", frozenset()) == rules


def test_a_kind_read_alone_that_the_reader_missed_stores_nothing_of_it() -> None:
    assert blend([RULES_HEALTH], [], "union", frozenset({"health"})) == []


@needs_local
def test_the_shipped_manifest_names_kinds_of_fact() -> None:
    alone = TrainedReader(manifest=TUNED).load().reads_alone()
    assert alone and alone <= {kind.value for kind in FactCategory}


def _reader_with(tmp_path: Path, named: object) -> TrainedReader:
    for name in os.listdir(DATA):
        if name != TUNED:
            (tmp_path / name).symlink_to(DATA / name)
    manifest = json.loads((DATA / TUNED).read_text("utf-8"))
    (tmp_path / TUNED).write_text(json.dumps({**manifest, "reader_alone": named}), "utf-8")
    return TrainedReader(folder=tmp_path, manifest=TUNED)


@needs_local
@pytest.mark.parametrize("named", [["helth"], "health", [3], {"health": 1}])
def test_a_manifest_naming_no_kind_of_fact_is_refused_and_the_rules_read(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, named: object
) -> None:
    reader = _reader_with(tmp_path, named)
    with pytest.raises(ReaderModelError, match="reader_alone"):
        reader.load().reads_alone()
    model = HeuristicModel(reader)
    turn = TurnInput(stream="chat:t", user="I have asthma and I live in Bergen.", at=AT)
    with caplog.at_level(logging.WARNING):
        facts = model.extract_facts(turn)
    assert facts == HeuristicModel().extract_facts(turn) and facts
    assert model.reader is None and "reader_alone" in caplog.text
