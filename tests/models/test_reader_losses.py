"""training/losses.py, the loss table: each missed fact charged to the stage that lost it,
each false fact given a reason, the fair judge beside the literal one. Its bad input: an
empty expected value, a manifest that is missing."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from threefold.domain import FactCategory
from threefold.models.base import ExtractedFact, Standing
from threefold.models.reader import ReaderModelError
from threefold.models.reader.checks import BELOW, Reading
from threefold.models.reader.heads import Span

SCRIPT = Path(__file__).parents[2] / "training" / "losses.py"


@pytest.fixture(scope="module")
def losses() -> ModuleType:
    spec = importlib.util.spec_from_file_location("losses", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def span_on(piece: str, words: str, label: str, **given: object) -> Span:
    start = piece.index(words)
    fields: dict = {"modality": "cur", "subject": "self", "confidence": 0.9} | given
    return Span(start, start + len(words), label, **fields)


def record(losses: ModuleType, piece: str, found: list[Span], readings=(), blended=()):
    return losses.TurnRecord([piece], [(piece, found)], list(readings), [], list(blended))


def fact(value: str, category: str = "location", subject: str = "user") -> ExtractedFact:
    return ExtractedFact(
        text=f"The user lives in {value}.",
        category=FactCategory(category),
        subject=subject,
        slot="home",
        value=value,
        confidence=0.95,
    )


def test_the_fair_judge_takes_a_date_in_other_words_and_a_name_cut_at_its_head(losses):
    assert losses.fair("March 13", "13 march")
    assert losses.fair("roskill", "mt roskill")
    assert not losses.fair("mt albert", "mt roskill")
    assert not losses.fair("the", "blood pressure")
    assert not losses.fair("", "leeds") and not losses.fair("leeds", "")


def test_a_value_never_said_and_an_empty_value_are_charged_first(losses):
    line = {"user": "yes", "asked": "Do you live in Leeds?"}
    got = losses.stage_of({"category": "location", "value": "Leeds"}, line, None, [])
    assert got == (losses.STAGES[0], "in the question")
    empty = losses.stage_of({"category": "location", "value": "  "}, line, None, [])
    assert empty == (losses.STAGES[0], "empty")


def test_a_repair_turn_is_read_stage_by_stage_then_left_to_the_repair_layer(losses):
    """The reader reads repair turns too; a reading it kept there goes to the repair
    layer's judgement (layers/repairs.beside_edits), and is charged to it."""
    piece = "Leeds, not York"
    home = span_on(piece, "Leeds", "home")
    kept = Reading(fact("Leeds"), home, piece, "", Standing.FACT)
    expect, line = {"category": "location", "value": "leeds"}, {"user": piece}
    repair = losses.TurnRecord([piece], [(piece, [home])], [(kept, 0.9)], [], [], repair=True)
    assert losses.stage_of(expect, line, repair, []) == (
        "a repair turn: kept, then left to the repair layer's edits",
        "kept, the rules' fact stands (blend)",
    )
    silent = losses.TurnRecord([piece], [(piece, [])], [], [], [], repair=True)
    assert losses.stage_of(expect, line, silent, [])[0] == "no span on the value's words"


def test_the_furthest_stage_of_any_span_over_the_value_is_charged(losses):
    piece = "we moved to Leeds in May"
    line, expect = {"user": piece}, {"category": "location", "value": "leeds"}
    other = span_on(piece, "Leeds", "plan")
    got = losses.stage_of(expect, line, record(losses, piece, [other]), [])
    assert got == ("a span of another label", "location as plan")
    unsure = span_on(piece, "Leeds", "home", confidence=0.3)
    got = losses.stage_of(expect, line, record(losses, piece, [other, unsure]), [])
    assert got == ("right label, under the graph's floor", "0.30")
    nothing = losses.stage_of(expect, line, record(losses, piece, []), [])
    assert nothing == ("no span on the value's words", "no value span in the piece")


def test_a_cut_value_says_whether_the_fair_judge_would_take_it(losses):
    piece = "I live in mt roskill"
    cut = span_on(piece, "roskill", "home")
    got = losses.stage_of(
        {"category": "location", "value": "mt roskill"},
        {"user": piece},
        record(losses, piece, [cut]),
        [],
    )
    assert got == ("right label, value cut or extended", "fair")


def test_a_reading_under_the_verifier_bar_is_charged_with_its_chance(losses):
    piece = "I live in Leeds"
    home = span_on(piece, "Leeds", "home")
    below = Reading(fact("Leeds"), home, piece, BELOW, None)
    got = losses.stage_of(
        {"category": "location", "value": "leeds"},
        {"user": piece},
        record(losses, piece, [home], [(below, 0.55)]),
        [],
    )
    assert got == ("verifier under its bar", "0.50-0.60")
    kept = Reading(fact("Leeds"), home, piece, "", Standing.FACT)
    dropped = losses.stage_of(
        {"category": "location", "value": "leeds"},
        {"user": piece},
        record(losses, piece, [home], [(kept, 0.9)]),
        [],
    )
    assert dropped[0] == "kept, the rules' fact stands (blend)"


def test_a_false_fact_gets_who_wrote_it_and_why(losses):
    piece = "my neighbour lives in Leeds"
    read = record(losses, piece, [], blended=[fact("Leeds")])
    nothing = {"user": piece, "nothing": True}
    assert losses.why_wrong(fact("Leeds"), nothing, read) == (
        "reader",
        "from a line that states nothing",
    )
    said = {"user": piece, "expects": [{"category": "location", "value": "leeds", "subject": "x"}]}
    assert losses.why_wrong(fact("Leeds"), said, read)[1] == (
        "an expected value about another subject"
    )
    named = {"user": piece, "expects": [{"category": "work", "value": "nurse"}]}
    assert losses.why_wrong(fact("Leeds"), named, read)[1] == (
        "a value the line names but does not state"
    )


def test_a_missing_manifest_is_an_error_that_names_it(losses, tmp_path, monkeypatch):
    missing = tmp_path / "reader_tuned.json"
    monkeypatch.setattr(sys, "argv", ["losses.py", "--manifest", str(missing)])
    with pytest.raises(ReaderModelError, match="reader_tuned.json"):
        losses.main()


@pytest.mark.parametrize(
    ("count", "taken"), [(0, []), (-1, []), (2, ["a", "c"]), (9, list("abcd"))]
)
def test_examples_are_taken_evenly_and_none_asked_gives_none(losses, count, taken):
    """`--examples 0` once divided by zero after the whole run."""
    assert losses.spread(list("abcd"), count) == taken
