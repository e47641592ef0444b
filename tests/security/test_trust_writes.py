"""Lower-trust writers cannot poison memory (issue 15, measured 2): each test names the
hostile write it tried, through HTTP with inner and familiar keys, on a real SQLite file."""

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest

from tests.conftest import MemoryFactory
from tests.security.campaign import ATTACKS, Bench, bench, holder, prepare_attacks
from threefold import Memory
from threefold.domain import FactStatus, Trust, Visibility, utcnow
from threefold.errors import InvalidInput


@pytest.fixture
def campaign(tmp_path: Path) -> Iterator[Bench]:
    with bench(tmp_path) as b:
        prepare_attacks(b)
        yield b


@pytest.mark.slow
@pytest.mark.parametrize("trust", [Trust.INNER, Trust.FAMILIAR])
@pytest.mark.parametrize("attack", list(ATTACKS))
def test_no_lower_trust_attack_succeeds(campaign: Bench, attack: str, trust: Trust) -> None:
    assert not ATTACKS[attack](campaign, trust), f"{attack} succeeded for a {trust} key"


def test_a_capped_write_is_marked_with_its_key(campaign: Bench) -> None:
    # Hostile input: an inner key asks for confidence 1.0 and visibility private.
    answer = campaign.call(
        "acme",
        Trust.INNER,
        "POST",
        "/v1/facts",
        json={
            "stream": "project:alpha",
            "text": "The vendor is Initech.",
            "confidence": 1.0,
            "visibility": "private",
        },
    )
    fact = answer.json()
    assert answer.status_code == 201
    assert (fact["confidence"], fact["visibility"]) == (0.9, "shared")
    inner_key = campaign.keys["acme", Trust.INNER][0]
    assert (fact["writer_trust"], fact["writer_key"]) == ("inner", inner_key)


def test_a_lower_trust_correction_is_kept_but_outranked(campaign: Bench) -> None:
    # Hostile input: a familiar key's turn "No, Sarah is the Lead Architect."
    campaign.call(
        "acme",
        Trust.FAMILIAR,
        "POST",
        "/v1/turns",
        json={
            "stream": "project:alpha",
            "user": "No, Sarah is the Lead Architect.",
        },
    )
    campaign.memory.process_pending()
    facts = campaign.memory.facts("project:alpha", include_inactive=True, tenant="acme")
    (claim,) = [f for f in facts if f.writer_trust is Trust.FAMILIAR]
    assert claim.status is FactStatus.OUTRANKED and claim.confidence <= 0.8
    (turn,) = [
        t
        for t in campaign.memory.turns("project:alpha", tenant="acme")
        if t.writer_trust is Trust.FAMILIAR
    ]
    assert turn.writer_key == campaign.keys["acme", "familiar"][0]
    assert turn.visibility is Visibility.SOCIAL
    assert holder(campaign, "lead architect", "holder").value == "raj"


def test_the_user_still_overrides_lower_trust_facts(campaign: Bench) -> None:
    # A familiar key holds a slot firmly (0.8, dated a little ahead); the user's own later,
    # softer statement still wins: trust outranks confidence and event time.
    ahead = (utcnow() + timedelta(hours=12)).isoformat()
    campaign.call(
        "acme",
        Trust.FAMILIAR,
        "POST",
        "/v1/facts",
        json={
            "stream": "project:alpha",
            "text": "The office is in Lyon.",
            "subject": "office",
            "slot": "city",
            "value": "lyon",
            "confidence": 0.8,
            "at": ahead,
        },
    )
    campaign.memory.write_fact(
        "project:alpha",
        "The office is in Paris.",
        subject="office",
        slot="city",
        value="paris",
        confidence=0.5,
        tenant="acme",
    )
    assert holder(campaign, "office", "city").value == "paris"


def test_future_event_times_are_refused_by_the_python_api(open_memory: MemoryFactory) -> None:
    # Hostile input: an inner writer dates a turn and a fact 2099, and a day and a bit ahead.
    mem: Memory = open_memory()
    far = utcnow().replace(year=2099)
    for write in (
        lambda: mem.add_turn("project:alpha", "Eve owns the release.", at=far, trust="inner"),
        lambda: mem.write_fact("project:alpha", "Eve owns it.", at=far, trust="familiar"),
        lambda: mem.write_fact(
            "project:alpha", "x", at=utcnow() + timedelta(days=1, hours=1), trust="inner"
        ),
    ):
        with pytest.raises(InvalidInput, match="max_future_seconds"):
            write()
    assert mem.facts("project:alpha") == [] and mem.turns("project:alpha") == []
    mem.add_turn("project:alpha", "Soon.", at=utcnow() + timedelta(hours=23), trust="inner")
    # The owner's planned timelines (the demo story) are taken as given.
    mem.add_turn("project:alpha", "Launch day.", at=far)


def test_the_skew_is_a_setting(open_memory: MemoryFactory) -> None:
    mem: Memory = open_memory(writes={"max_future_seconds": 0})
    with pytest.raises(InvalidInput):
        mem.write_fact("project:alpha", "Later.", at=utcnow() + timedelta(minutes=5), trust="inner")


def test_a_public_writer_is_refused_by_the_python_api(open_memory: MemoryFactory) -> None:
    mem: Memory = open_memory()
    with pytest.raises(InvalidInput, match="public"):
        mem.write_fact("project:alpha", "Eve is CEO.", trust="public")
    with pytest.raises(InvalidInput, match="trust"):
        mem.add_turn("project:alpha", "Eve is CEO.", trust="root")
