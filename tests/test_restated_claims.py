"""What the assistant says back is no fact of its own: when the user's statement gives
way, the assistant's restatement of it in the same turn gives way with it (issue 36: the
demo showed "Sarah leads architecture" active beside "Raj is the Lead Architect").

Through Memory on real SQLite (or PostgreSQL with THREEFOLD_TEST_BACKEND=postgres)."""

from datetime import UTC, datetime, timedelta

from tests.conftest import fact
from tests.scripted_model import ScriptedModel
from threefold import FactStatus
from threefold.faces import demo

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


def test_the_demos_paraphrase_leaves_with_the_corrected_role(open_memory):
    mem = open_memory()
    for turn in demo.story(filler_after=0):
        if turn.number > 12:
            break
        mem.add_turn(demo.STREAM, turn.user, turn.assistant, at=turn.at)
    mem.process_pending()
    active = [f.text for f in mem.facts(demo.STREAM)]
    assert not [t for t in active if "Sarah" in t], active
    assert "Raj is the Lead Architect." in active
    context = mem.context(demo.STREAM, demo.QUESTION, 6000)
    facts = next(s for s in context.sections if s.name == "stream_facts")
    assert not [i.text for i in facts.items if "Sarah" in i.text]


def _restating(user_text: str, claim_text: str):
    """A model that reads the user's words as a title's holder, and the assistant's reply
    as a claim in another slot: what a model does with "Got it: Dana runs product"."""
    return ScriptedModel(
        lambda turn: {
            "Dana is our Head of Product.": [
                fact("head of product", "holder", "dana", category="role", text=user_text),
                fact("dana", "handles", "product", 0.55, category="role", text=claim_text),
            ],
            "No, Theo is our Head of Product.": [
                fact(
                    "head of product",
                    "holder",
                    "theo",
                    1.0,
                    category="role",
                    is_correction=True,
                    text="Theo is the Head of Product.",
                ),
            ],
        }.get(turn.user, [])
    )


def test_a_correction_takes_the_assistants_restatement_along(open_memory):
    mem = open_memory(_restating("Dana is the Head of Product.", "Dana heads product."))
    mem.add_turn("chat:r", "Dana is our Head of Product.", "Got it: Dana heads product.", at=T0)
    mem.add_turn("chat:r", "What's new?", "Not much.", at=T0 + timedelta(hours=1))
    mem.add_turn("chat:r", "No, Theo is our Head of Product.", "Sorry!", at=T0 + timedelta(hours=2))
    mem.process_pending()
    assert [f.text for f in mem.facts("chat:r")] == ["Theo is the Head of Product."]
    echo = next(f for f in mem.facts("chat:r", include_inactive=True) if f.slot == "handles")
    assert echo.status is FactStatus.SUPERSEDED
    assert mem.fact_history(echo.id).changes[-1].note == "restated what gave way"


def test_a_claim_that_says_something_else_stays(open_memory):
    """The assistant's claim in the same turn that does not restate the old value (it
    names no Dana) is no restatement: it stays."""
    mem = open_memory(_restating("Dana is the Head of Product.", "Product owns the roadmap."))
    mem.add_turn("chat:r", "Dana is our Head of Product.", "Product owns the roadmap.", at=T0)
    mem.add_turn("chat:r", "No, Theo is our Head of Product.", "Sorry!", at=T0 + timedelta(hours=1))
    mem.process_pending()
    assert {f.text for f in mem.facts("chat:r")} == {
        "Theo is the Head of Product.",
        "Product owns the roadmap.",
    }
