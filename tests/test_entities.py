"""Entities and speakers: one person under several names, and corrections across keys."""

from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import MemoryFactory
from threefold import Memory, entities
from threefold.domain import FactStatus

T0 = datetime(2026, 10, 5, 9, 0, tzinfo=UTC)


def _turns(mem: Memory, stream: str, *pairs: tuple[str, str], **kwargs: object) -> None:
    for i, (user, assistant) in enumerate(pairs):
        mem.add_turn(stream, user, assistant, at=T0 + timedelta(minutes=i), **kwargs)
    mem.process_pending()


def _current(mem: Memory, stream: str) -> list[str]:
    return [f.text for f in mem.facts(stream)]


def test_a_correction_in_another_phrasing_supersedes_the_role(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory()
    _turns(
        mem,
        "project:alpha",
        ("Raj is a Junior Developer.", ""),
        ("No, Raj is the Lead Architect.", "Noted."),
    )
    assert _current(mem, "project:alpha") == ["Raj is the Lead Architect."]
    old = mem.facts("project:alpha", include_inactive=True)[-1]
    assert old.text == "Raj is a Junior Developer." and not old.active
    history = mem.fact_history(old.id)
    assert [f.text for f in history.chain][-1] == "Raj is the Lead Architect."


def test_a_new_role_phrased_the_other_way_supersedes_the_title(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory()
    _turns(
        mem, "project:alpha", ("Raj is the Lead Architect.", ""), ("Raj is a product manager.", "")
    )
    assert _current(mem, "project:alpha") == ["Raj is a product manager."]


def test_the_user_corrects_the_assistant_about_a_person_named_shorter(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory()
    _turns(
        mem,
        "chat:1",
        ("Who runs data?", "Lena Ortiz is a junior analyst."),
        ("That's wrong. Lena is our Head of Data Engineering.", "Sorry, noted."),
    )
    facts = mem.facts("chat:1", include_inactive=True)
    current = [f for f in facts if f.active]
    assert [f.text for f in current] == ["Lena is the Head of Data Engineering."]
    assert current[0].value == "lena ortiz"  # "Lena" resolved to the one Lena known
    claim = next(f for f in facts if "junior analyst" in f.text)
    assert claim.status in (FactStatus.SUPERSEDED, FactStatus.RETRACTED)


def test_assistant_claims_stay_below_the_pin_threshold(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    _turns(mem, "chat:1", ("Who runs data?", "Lena Ortiz is the Head of Data."))
    claim = mem.facts("chat:1")[0]
    assert claim.confidence < mem.settings.pin_min_confidence
    ctx = mem.context("chat:1", "who runs data?", 2000)
    pinned = [i.text for s in ctx.sections if s.name == "stream_facts" for i in s.items]
    assert not any("Head of Data" in text for text in pinned)


def test_a_correction_retracts_what_the_assistant_claimed_under_another_key(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory()
    _turns(
        mem,
        "chat:1",
        ("Who owns billing?", "Priya Nair is a sales engineer."),
        ("No, Priya is our CFO.", "Thanks."),
    )
    claim = next(
        f for f in mem.facts("chat:1", include_inactive=True) if "sales engineer" in f.text
    )
    assert not claim.active
    assert [f.text for f in mem.facts("chat:1")] == ["Priya is the CFO."]


def test_two_people_with_one_first_name_stay_apart(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    _turns(
        mem,
        "project:alpha",
        ("Lena Ortiz is the Head of Data.", ""),
        ("Lena Park is the Lead Designer.", ""),
        ("Lena is a contractor.", ""),
    )
    texts = _current(mem, "project:alpha")
    # "Lena" could be either: neither person's role changes.
    assert "Lena Ortiz is the Head of Data." in texts
    assert "Lena Park is the Lead Designer." in texts


def test_a_first_name_known_first_is_completed_by_the_full_name(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory()
    _turns(
        mem,
        "project:alpha",
        ("Lena is a data analyst.", ""),
        ("Lena Ortiz is the Head of Data.", ""),
    )
    assert _current(mem, "project:alpha") == ["Lena Ortiz is the Head of Data."]


def test_speakers_are_stored_rendered_and_returned(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    turn = mem.add_turn("chat:group", "We should hike on Sunday.", at=T0, speaker="  Caroline ")
    mem.add_turn("chat:group", "Sounds good to me.", at=T0, speaker="Melanie")
    assert turn.speaker == "Caroline"
    assert [t.speaker for t in mem.turns("chat:group")] == ["Caroline", "Melanie"]
    text = mem.context("chat:group", "", 2000).text
    assert "Caroline: We should hike on Sunday." in text
    assert "Melanie: Sounds good to me." in text


def test_a_turn_without_speaker_is_the_users(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    turn = mem.add_turn("chat:1", "hello", at=T0)
    assert turn.speaker is None
    assert "User: hello" in mem.context("chat:1", "", 2000).text


def test_a_speaker_must_be_a_short_printable_name(open_memory: MemoryFactory) -> None:
    import pytest

    from threefold.errors import InvalidInput

    mem = open_memory()
    for bad in ("x" * 101, "Caro\x00line", 42):
        with pytest.raises(InvalidInput):
            mem.add_turn("chat:1", "hello", speaker=bad)  # type: ignore[arg-type]
    assert mem.turns("chat:1") == []


def test_people_are_per_tenant(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    _turns(mem, "project:alpha", ("Lena Ortiz is the Head of Data.", ""), tenant="acme")
    _turns(mem, "project:alpha", ("Lena is a data analyst.", ""), tenant="globex")
    # Globex's Lena is not Acme's Lena Ortiz.
    assert mem.facts("project:alpha", tenant="globex")[0].subject == "lena"
    assert mem.store.entities_named("globex", "lena ortiz") == []


def test_a_claim_the_user_confirms_is_pinned(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    _turns(
        mem,
        "chat:1",
        ("Who runs data?", "Lena Ortiz is the Head of Data."),
        ("Yes, that's right.", "Great."),
    )
    fact = mem.facts("chat:1")[0]
    assert fact.confidence >= mem.settings.pin_min_confidence
    assert mem.fact_history(fact.id).changes[-1].action == "CONFIRM"


def test_agreeing_with_a_but_confirms_nothing(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    _turns(
        mem,
        "chat:1",
        ("Who runs data?", "Lena Ortiz is the Head of Data."),
        ("Yes, but only until March.", "I see."),
        ("Right?", "Yes."),
    )
    assert mem.facts("chat:1")[0].confidence < mem.settings.pin_min_confidence


@pytest.mark.slow
def test_a_correction_after_500_turns_wins_in_every_context(open_memory: MemoryFactory) -> None:
    mem = open_memory(embed={"kind": "none"})
    mem.add_turn("project:alpha", "Raj is a Junior Developer.", at=T0)
    for i in range(500):
        mem.add_turn(
            "project:alpha",
            f"Checked build {i}; the pipeline ran green.",
            at=T0 + timedelta(minutes=i + 1),
        )
    mem.add_turn("project:alpha", "No, Raj is the Lead Architect.", at=T0 + timedelta(days=1))
    mem.process_pending()
    assert _current(mem, "project:alpha") == ["Raj is the Lead Architect."]
    ctx = mem.context("project:alpha", "What does Raj do?", 3000)
    pinned = [i.text for s in ctx.sections if s.name == "stream_facts" for i in s.items]
    assert any("Lead Architect" in text for text in pinned)
    assert not any("Junior Developer" in text for text in pinned)


def test_a_lower_trust_writer_confirms_nothing(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    _turns(mem, "chat:1", ("Who runs data?", "Lena Ortiz is the Head of Data."))
    mem.add_turn("chat:1", "Yes, that's right.", at=T0 + timedelta(hours=1), trust="familiar")
    mem.process_pending()
    assert mem.facts("chat:1")[0].confidence < mem.settings.pin_min_confidence


def test_people_named_in_personal_facts_become_entities(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    _turns(
        mem,
        "chat:1",
        ("My sister Emma Stone lives in Dublin.", ""),
        ("I have a cat called Miso.", ""),
        ("Emma is a vegetarian.", ""),
    )
    assert mem.store.entities_named("default", "emma") == ["emma stone"]
    assert mem.store.entities_named("default", "miso") == []
    subjects = {f.subject for f in mem.facts("chat:1")}
    assert "emma" not in subjects  # "Emma" is the Emma Stone the tenant knows


def test_an_assistant_turn_that_contradicts_the_user_does_not_win(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory()
    _turns(
        mem,
        "chat:1",
        ("I'm vegetarian.", "Noted."),
        ("What should I cook?", "Since you eat meat, try a steak. You are a carnivore."),
        ("Raj is the Lead Architect.", ""),
        ("Who leads?", "Raj is a junior developer."),
    )
    current = _current(mem, "chat:1")
    assert "The user is vegetarian." in current
    assert "Raj is the Lead Architect." in current
    assert not any("junior developer" in text for text in current)


def test_a_relative_named_with_a_capital_is_known_by_the_lowercase_key(
    open_memory: MemoryFactory,
) -> None:
    mem = open_memory()
    _turns(mem, "chat:1", ("Wife is Liisa. Daughter Aino is 7 years.", ""))
    relatives = {f.value for f in mem.facts("chat:1") if f.category.value == "relationship"}
    assert "Aino" in relatives
    # registered under "Aino", the relative was a person no lookup (always lowercase) found
    assert mem.store.entities_named("default", "aino") == ["aino"]


@pytest.mark.parametrize(
    ("asked", "named"),
    [
        ("What should I get for Sindre's birthday?", "Sindre"),
        ("Is Anne-Marie’s flat ready?", "Anne-Marie"),
        ("How is Charles doing?", "Charles"),
    ],
)
def test_whom_a_turn_names_is_the_name_without_its_possessive(asked: str, named: str) -> None:
    """A reply's "he's Norwegian" is then Sindre's, not a person called "Sindre's"."""
    assert entities.named_in(asked, None) == named
