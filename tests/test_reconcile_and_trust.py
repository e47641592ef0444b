"""Reconciliation on write, fact history, and what each trust level may read."""

from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import fact
from tests.scripted_model import ScriptedModel
from threefold import FactStatus, InvalidInput
from threefold.models.base import ReconcileAction, ReconcileDecision

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
ALPHA = "project:alpha"


class Reconciling(ScriptedModel):
    """Answers reconcile() with a scripted decision and records what it was offered."""

    def __init__(self, decide):
        super().__init__()
        self.decide = decide
        self.offered = []

    def reconcile(self, new, similar):
        self.offered.append([f.id for f in similar])
        return self.decide(new, similar)


def test_an_exact_repeat_is_a_mention(open_memory):
    mem = open_memory(ScriptedModel())
    first = mem.write_fact(
        ALPHA, "The staging cluster runs on ARM.", subject="cluster", slot="architecture"
    )
    again = mem.write_fact(
        ALPHA, "The staging cluster runs on ARM.", subject="cluster", slot="architecture"
    )
    assert again.id == first.id and again.mention_count == 2
    actions = [c.action for c in mem.fact_history(first.id).changes]
    assert actions == ["ADD", "NONE"]


def test_a_similar_fact_can_update_the_old_one_in_place(open_memory):
    model = Reconciling(
        lambda new, similar: ReconcileDecision(
            action=ReconcileAction.UPDATE, target_id=similar[0].id, reason="more specific"
        )
    )
    mem = open_memory(model)
    old = mem.write_fact(ALPHA, "The launch party is at the office.", subject="party", slot="place")
    new = mem.write_fact(
        ALPHA, "The launch party is at the office rooftop.", subject="launch party", slot="location"
    )
    assert new.id == old.id and new.text == "The launch party is at the office rooftop."
    (update,) = [c for c in mem.fact_history(old.id).changes if c.action == "UPDATE"]
    assert update.before["text"] == "The launch party is at the office."
    assert update.after["text"] == "The launch party is at the office rooftop."
    assert [h.id for h in mem.search("rooftop", kinds=["fact"])] == [old.id]


def test_a_reconcile_answer_naming_a_stranger_falls_back_to_add(open_memory):
    model = Reconciling(
        lambda new, similar: ReconcileDecision(
            action=ReconcileAction.NONE, target_id=99_999, reason="made up"
        )
    )
    mem = open_memory(model)
    mem.write_fact(ALPHA, "The launch party is at the office.", subject="party", slot="place")
    second = mem.write_fact(
        ALPHA, "The launch party is at the office today.", subject="launch party", slot="location"
    )
    assert model.offered and len(mem.facts(ALPHA)) == 2
    assert second.mention_count == 1


def test_a_supersede_answer_retires_the_fact_it_names(open_memory):
    """The reconcile task's SUPERSEDE is applied across slots: the old fact is kept in the
    chain, inactive, and links to the new one."""
    model = Reconciling(
        lambda new, similar: ReconcileDecision(
            action=ReconcileAction.SUPERSEDE, target_id=similar[0].id, reason="moved"
        )
    )
    mem = open_memory(model)
    old = mem.write_fact(ALPHA, "The launch party is at the office.", subject="party", slot="place")
    new = mem.write_fact(
        ALPHA, "The launch party is at the office today.", subject="launch party",
        slot="location",
    )  # fmt: skip
    assert [f.id for f in mem.facts(ALPHA)] == [new.id]
    retired = mem.fact(old.id)
    assert retired.status is FactStatus.SUPERSEDED and retired.superseded_by == new.id
    assert [f.id for f in mem.fact_history(new.id).chain] == [old.id, new.id]


def test_history_shows_supersession_before_and_after(open_memory):
    mem = open_memory(ScriptedModel())
    old = mem.write_fact(
        ALPHA,
        "Sarah is the Lead Architect.",
        subject="lead architect",
        slot="holder",
        value="sarah",
        at=T0,
    )
    new = mem.write_fact(
        ALPHA,
        "Raj is the Lead Architect.",
        subject="lead architect",
        slot="holder",
        value="raj",
        confidence=1.0,
        at=T0 + timedelta(days=1),
    )
    history = mem.fact_history(old.id)
    (superseded,) = [c for c in history.changes if c.action == "SUPERSEDE"]
    assert superseded.before["status"] == "active" and superseded.after["status"] == "superseded"
    assert superseded.related_fact_id == new.id


def test_write_fact_reads_slots_from_the_text(open_memory):
    mem = open_memory()  # the heuristic model reads subject and slot
    mem.write_fact(ALPHA, "Sarah is the Lead Architect.")
    raj = mem.write_fact(ALPHA, "No, Raj is the Lead Architect.", confidence=1.0)
    assert [f.value for f in mem.facts(ALPHA)] == [raj.value] == ["raj"]


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"text": "  "}, "needs some text"),
        ({"confidence": 1.5}, "confidence"),
        ({"category": "gossip"}, "unknown category"),
        ({"visibility": "secret"}, "visibility"),
    ],
)
def test_bad_facts_are_refused(open_memory, kwargs, match):
    mem = open_memory(ScriptedModel())
    with pytest.raises(InvalidInput, match=match):
        mem.write_fact(ALPHA, **{"text": "A fact.", **kwargs})


# --- trust -----------------------------------------------------------------------------

SECRETS = {"private": "zebra", "shared": "yak", "social": "walrus"}
LEVELS = {
    "full": {"private", "shared", "social"},
    "inner": {"shared", "social"},
    "familiar": {"social"},
    "public": set(),
}


@pytest.fixture
def layered(open_memory):
    model = ScriptedModel(
        lambda t: [fact(t.user.split()[0], "animal", t.user.split()[-1], text=t.user)]
    )
    mem = open_memory(model, session_turns=3, recent_turns=1)
    for level, word in SECRETS.items():
        mem.add_turn(ALPHA, f"{level} note about the {word}", visibility=level, at=T0)
        mem.write_fact(ALPHA, f"The {level} password mentions {word}.", visibility=level)
    for i in range(6):
        mem.add_turn(ALPHA, f"filler {i}", visibility="social", at=T0 + timedelta(hours=i + 1))
    mem.process_pending()
    return mem


@pytest.mark.parametrize("trust", list(LEVELS))
def test_lower_trust_never_sees_higher_items(layered, trust):
    visible = {SECRETS[level] for level in LEVELS[trust]}
    hidden = set(SECRETS.values()) - visible
    query = " ".join(SECRETS.values()) + " note password"
    hits = layered.search(query, limit=50, trust=trust)
    found = " ".join(h.text for h in hits)
    assert not any(word in found for word in hidden)
    built = layered.context(ALPHA, query, budget=3000, trust=trust)
    context = " ".join(i.text for s in built.sections if s.name != "query" for i in s.items)
    assert not any(word in context for word in hidden)
    if trust == "full":
        assert all(word in found for word in visible)
    if trust == "public":
        assert hits == [] and [s.name for s in built.sections] == ["system", "query"]


def test_unknown_trust_is_refused(layered):
    with pytest.raises(InvalidInput, match="trust"):
        layered.search("x", trust="root")
