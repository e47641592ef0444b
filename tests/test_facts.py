"""Layer 1: supersession by slot, confidence ranking, retraction and history."""

from datetime import UTC, datetime, timedelta

from tests.conftest import fact
from tests.scripted_model import ScriptedModel
from threefold import FactStatus
from threefold.models.base import SlotRef

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def by_text(texts: dict[str, list]):
    """A scripted model that extracts the facts listed for each exact user text."""
    return ScriptedModel(lambda turn: texts.get(turn.user, []))


def statuses(mem, stream="project:alpha"):
    return {f.value: f.status for f in mem.facts(stream, include_inactive=True)}


def test_newer_fact_in_slot_supersedes_and_keeps_chain(open_memory):
    mem = open_memory(
        by_text(
            {
                "a": [fact("lead architect", "holder", "sarah", 0.95)],
                "b": [fact("lead architect", "holder", "raj", 1.0, is_correction=True)],
            }
        )
    )
    mem.add_turn("project:alpha", "a", at=T0)
    mem.add_turn("project:alpha", "b", at=T0 + timedelta(minutes=1))
    mem.process_pending()

    active = mem.facts("project:alpha")
    assert [f.value for f in active] == ["raj"]
    history = mem.fact_history(active[0].id)
    assert [f.value for f in history.chain] == ["sarah", "raj"]
    old, new = history.chain
    assert old.status is FactStatus.SUPERSEDED and old.superseded_by == new.id
    assert new.supersedes == old.id
    assert [c.action for c in history.changes if c.fact_id == old.id] == ["ADD", "SUPERSEDE"]


def test_an_assistants_claim_never_supersedes_the_users_word_but_is_kept(open_memory):
    mem = open_memory(
        by_text(
            {
                "a": [fact("priya", "team", "backend", 1.0)],
                "b": [fact("priya", "team", "frontend", 0.6)],
            }
        )
    )
    mem.add_turn("project:alpha", "a", at=T0)
    mem.add_turn("project:alpha", "b", at=T0 + timedelta(days=1))
    mem.process_pending()

    assert statuses(mem) == {"backend": FactStatus.ACTIVE, "frontend": FactStatus.OUTRANKED}


def test_a_hedged_newer_statement_of_the_same_person_becomes_current(open_memory):
    """ "gave up veganism, I think I'm pescatarian now" (hedged, 0.8) after "I'm vegan"
    (0.95): the older value does not come back, and no diet is left without a holder."""
    mem = open_memory(
        by_text(
            {
                "I'm vegan.": [fact("user", "diet", "vegan", 0.95)],
                "gave up veganism, I think I'm pescatarian now": [
                    fact("user", "diet", "pescatarian", 0.8)
                ],
            }
        )
    )
    mem.add_turn("chat:diet", "I'm vegan.", at=T0)
    later = T0 + timedelta(days=30)
    mem.add_turn("chat:diet", "gave up veganism, I think I'm pescatarian now", at=later)
    mem.process_pending()
    assert statuses(mem, "chat:diet") == {
        "vegan": FactStatus.SUPERSEDED,
        "pescatarian": FactStatus.ACTIVE,
    }


def test_someone_elses_hedge_does_not_displace_a_firmer_statement(open_memory):
    """A group chat: Omar's guess does not replace what Lena said of her own diet."""
    mem = open_memory(
        by_text(
            {
                "I'm vegan.": [fact("lena", "diet", "vegan", 0.95)],
                "I think Lena is pescatarian now?": [fact("lena", "diet", "pescatarian", 0.7)],
            }
        )
    )
    mem.add_turn("chat:team", "I'm vegan.", at=T0, speaker="Lena")
    later = T0 + timedelta(days=1)
    mem.add_turn("chat:team", "I think Lena is pescatarian now?", at=later, speaker="Omar")
    mem.process_pending()
    assert statuses(mem, "chat:team") == {
        "vegan": FactStatus.ACTIVE,
        "pescatarian": FactStatus.OUTRANKED,
    }


def test_what_a_person_handles_is_many_valued(open_memory):
    """ "Raj owns a bike" leaves "Raj leads the platform team" current."""
    mem = open_memory(
        by_text(
            {
                "a": [fact("raj", "handles", "platform team", 0.95)],
                "b": [fact("raj", "handles", "bike", 0.95)],
            }
        )
    )
    mem.add_turn("project:alpha", "a", at=T0)
    mem.add_turn("project:alpha", "b", at=T0 + timedelta(days=1))
    mem.process_pending()
    assert statuses(mem) == {"platform team": FactStatus.ACTIVE, "bike": FactStatus.ACTIVE}


def test_equal_confidence_later_statement_wins(open_memory):
    mem = open_memory(
        by_text(
            {
                "a": [fact("alpha", "deadline", "2027-03-20")],
                "b": [fact("alpha", "deadline", "2027-03-27")],
            }
        )
    )
    mem.add_turn("project:alpha", "a", at=T0)
    mem.add_turn("project:alpha", "b", at=T0 + timedelta(days=1))
    mem.process_pending()
    assert statuses(mem) == {"2027-03-20": FactStatus.SUPERSEDED, "2027-03-27": FactStatus.ACTIVE}


def test_a_fact_about_an_earlier_event_does_not_replace_a_later_one(open_memory):
    mem = open_memory(
        by_text(
            {
                "late news": [fact("alpha", "deadline", "2027-03-27")],
                "old news": [fact("alpha", "deadline", "2027-02-01")],
            }
        )
    )
    mem.add_turn("project:alpha", "late news", at=T0 + timedelta(days=30))
    mem.add_turn("project:alpha", "old news", at=T0)  # an import of older history
    mem.process_pending()
    assert statuses(mem) == {"2027-03-27": FactStatus.ACTIVE, "2027-02-01": FactStatus.SUPERSEDED}


def test_repeating_a_fact_counts_a_mention(open_memory):
    mem = open_memory(by_text({"a": [fact("raj", "tenure", "4 years")]}))
    for minute in range(3):
        mem.add_turn("project:alpha", "a", at=T0 + timedelta(minutes=minute))
    mem.process_pending()
    (only,) = mem.facts("project:alpha", include_inactive=True)
    assert only.mention_count == 3


def test_correction_retracts_the_denied_value(open_memory):
    mem = open_memory(
        by_text(
            {
                "a": [fact("pm", "holder", "raj")],
                "b": [
                    fact(
                        "raj",
                        "role",
                        "lead architect",
                        1.0,
                        retracts=(SlotRef(subject="pm", slot="holder", value="raj"),),
                    )
                ],
            }
        )
    )
    mem.add_turn("project:alpha", "a", at=T0)
    mem.add_turn("project:alpha", "b", at=T0 + timedelta(minutes=1))
    mem.process_pending()
    assert statuses(mem) == {"raj": FactStatus.RETRACTED, "lead architect": FactStatus.ACTIVE}


def test_streams_and_tenants_keep_their_own_slots(open_memory):
    mem = open_memory(
        by_text({"a": [fact("lead", "holder", "raj")], "b": [fact("lead", "holder", "sam")]})
    )
    mem.add_turn("project:alpha", "a", at=T0)
    mem.add_turn("project:beta", "b", at=T0)
    mem.add_turn("project:alpha", "b", at=T0, tenant="acme")
    mem.process_pending()
    assert [f.value for f in mem.facts("project:alpha")] == ["raj"]
    assert [f.value for f in mem.facts("project:beta")] == ["sam"]
    assert [f.value for f in mem.facts("project:alpha", tenant="acme")] == ["sam"]
