"""The cue words in front of the costly fact rules skip clauses, never facts."""

from datetime import UTC, datetime

import pytest

from tests.models.test_heuristic_extract import CORRECTIONS, NEGATIVES, POSITIVES
from threefold.models.base import TurnInput
from threefold.models.heuristic import extract, rules
from threefold.models.heuristic.rules import Clause

AT = datetime(2026, 11, 5, 15, 0, tzinfo=UTC)

# Each alternative of the gated rules' regexes, in a clause the rule reads.
CUED = [
    (rules.deadline, "The Alpha deadline moved to March 27"),
    (rules.deadline, "The due date for the report is Friday"),
    (rules.deadline, "The cut-off is tomorrow"),
    (rules.deadline, "The report is due Friday"),
    (rules.deadline, "The docs need to be done by Friday"),
    (rules.deadline, "The beta has to be shipped by March 3"),
    (rules.event_date, "The launch is on March 3"),
    (rules.event_date, "GA is on May 1"),
    (rules.event_date, "The code freeze is set for Friday"),
    (rules.event_date, "We go live on Monday"),
    (rules.event_date, "We will ship on Friday"),
    (rules.blocker, "We are blocked on the vendor contract"),
    (rules.blocker, "The team is held up by legal review"),
    (rules.blocker, "Still waiting for the API keys"),
    (rules.blocker, "The flaky CI, that's a big blocker for the release"),
    (rules.blocker, "The SSO bug is blocking the launch"),
    (rules.amount, "The budget is €40k"),
    (rules.amount, "Our spend came to 3 million"),
]
CORPUS = [
    *(case[0] for case in POSITIVES),
    *NEGATIVES,
    *(case[0] for case in CORRECTIONS),
    *(text for _, text in CUED),
    "ſtill waiting for the \u212aeys",
    "We ship on Friday, ok?",
]


def clause(text: str) -> Clause:
    return Clause(text, AT, "alpha", "Alpha", "user")


@pytest.mark.parametrize(("rule", "text"), CUED)
def test_every_form_of_a_gated_rule_still_reads(rule, text):
    found = rule(clause(text))
    assert found is not None
    assert rules.parse(clause(text), (rule,)) == found


@pytest.mark.parametrize("text", CORPUS)
def test_the_cues_change_no_result(text, monkeypatch):
    turn = TurnInput(stream="project:alpha", user=text, at=AT)
    gated = extract.extract_facts(turn), rules.parse(clause(text))
    monkeypatch.setattr(rules, "_CUE_WORDS", {})
    assert (extract.extract_facts(turn), rules.parse(clause(text))) == gated
