"""Which facts are pinned: the texts compaction reads agree with the facts contexts pin."""

from datetime import UTC, datetime

import pytest

from tests.conftest import fact
from threefold.context.material import pinned, pinned_texts
from threefold.domain import SourceRef, Trust, Visibility
from threefold.layers.facts import record_fact

AT = datetime(2026, 3, 2, 9, tzinfo=UTC)
STREAM = "project:alpha"


@pytest.fixture
def mixed(open_memory):
    """Facts on every side of each pin rule: confidence, category, source, visibility, and
    slots whose first holder was superseded."""
    mem = open_memory()
    cases = [
        ("plain", 0.95, "note", "turn", Visibility.PRIVATE),
        ("shared", 0.9, "decision", "slack.message", Visibility.SHARED),
        ("social", 0.7, "role", "turn", Visibility.SOCIAL),
        ("unsure", 0.69, "note", "turn", Visibility.SHARED),
        ("mood", 0.95, "mood_signal", "slack.message", Visibility.SHARED),
        ("jira", 0.95, "status", "jira.issue", Visibility.SHARED),
    ]
    with mem.store.transaction():
        mem.store.ensure_stream(mem.tenant, STREAM)
        for n, (name, confidence, category, source, seen) in enumerate(cases):
            for version in ("old", "new"):
                item = fact(
                    name,
                    "slot",
                    f"{version} {n}",
                    confidence,
                    category=category,
                    text=f"The {name} fact, {version} version {n}.",
                )
                record_fact(
                    mem.store,
                    mem.tenant,
                    STREAM,
                    item,
                    SourceRef(kind=source, id=str(n), at=AT),
                    visibility=seen,
                )
    return mem


@pytest.mark.parametrize("trust", list(Trust))
def test_pinned_texts_are_the_texts_of_the_pinned_facts(mixed, trust):
    tenant = mixed.tenant
    expected = [f.text for f in pinned(mixed.store, mixed.settings, tenant, STREAM, trust)]
    assert pinned_texts(mixed.store, mixed.settings, tenant, STREAM, trust) == expected


def test_pinned_texts_leave_out_what_is_not_pinned(mixed):
    texts = pinned_texts(mixed.store, mixed.settings, mixed.tenant, STREAM, Trust.FULL)
    assert texts == [
        "The social fact, new version 2.",
        "The shared fact, new version 1.",
        "The plain fact, new version 0.",
    ]
