"""Decisions and assignments said in ordinary team wording, read by the heuristic model
from Slack messages; and the look-alikes that settle nothing."""

from datetime import UTC, datetime

import pytest

from threefold.models.base import MessageInput
from threefold.models.heuristic import HeuristicModel

MODEL = HeuristicModel()
AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def read(text: str) -> list[tuple[str, str]]:
    [found] = MODEL.extract_from_messages([MessageInput(author="Mei", text=text, at=AT)])
    return [(f.category.value, f.value) for f in found]


@pytest.mark.parametrize(
    ("text", "choice"),
    [
        ("we'll go with a phased rollout", "phased rollout"),
        ("OK, let's go with Terraform", "terraform"),
        ("final call: we use the vendor SDK", "vendor sdk"),
        ("Verdict: stick with weekly releases", "weekly releases"),
        ("after the review we chose a canary release", "canary release"),
        ("following the retro, we settled on two-week sprints", "two-week sprints"),
        ("We're settling on Redis.", "redis"),
        ("Going forward we'll use pnpm", "pnpm"),
        ("Consensus is to go with the monorepo", "monorepo"),
        ("Decided: Vite over webpack", "vite over webpack"),
    ],
)
def test_a_decision_in_plain_words(text, choice):
    assert ("decision", choice) in read(text)


@pytest.mark.parametrize(
    ("text", "who", "what"),
    [
        ("Anil is taking ALPHA-142", "anil", "alpha-142"),
        ("Priya will own the billing migration", "priya", "billing migration"),
        ("EL-7 assigned to Raj", "raj", "el-7"),
        ("Raj assigned to EL-9", "raj", "el-9"),
        ("Sofia is assigned to the load tests", "sofia", "load tests"),
        ("Mei's got ALPHA-12", "mei", "alpha-12"),
        ("Handing ALPHA-9 over to Tom", "tom", "alpha-9"),
        ("Assigned ALPHA-20 to Lena", "lena", "alpha-20"),
        ("Omar is on point for the release checklist", "omar", "release checklist"),
    ],
)
def test_an_assignment_in_plain_words(text, who, what):
    [found] = MODEL.extract_from_messages([MessageInput(author="Mei", text=text, at=AT)])
    assigned = [(f.value, f.subject) for f in found if f.category.value == "assignment"]
    assert assigned == [(who, what)]


@pytest.mark.parametrize(
    "text",
    [
        "should we go with a phased rollout?",
        "The call is at 3pm",
        "The conclusion: nobody knows",
        "who is taking ALPHA-142?",
        "after lunch we went home",
        "I assigned to the wrong person",
        "maybe we could use Kafka, thoughts?",
        "Tom has a cold",
        "Let's do lunch",
        "Priya is on vacation",
    ],
)
def test_look_alikes_settle_nothing(text):
    assert not [c for c, _ in read(text) if c in ("decision", "assignment")]
