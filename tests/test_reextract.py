"""refresh reads the raw material again for facts: what a better model finds is added,
nothing is stored twice, and superseded history stays as it was."""

from datetime import UTC, datetime, timedelta

from threefold.domain import FactStatus
from threefold.models.heuristic import HeuristicModel

STREAM = "project:alpha"
AT = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)


class _Blind(HeuristicModel):
    """A model that reads no facts at first, like an older model that missed them."""

    def __init__(self) -> None:
        super().__init__()
        self.reading = False

    def extract_facts(self, turn):
        return super().extract_facts(turn) if self.reading else []

    def extract_from_messages(self, messages):
        if self.reading:
            return super().extract_from_messages(messages)
        return [[] for _ in messages]


def test_refresh_finds_facts_the_first_reading_missed(open_memory):
    model = _Blind()
    mem = open_memory(model)
    mem.add_turn(STREAM, "We decided to ship on Friday.", "Noted.", at=AT)
    mem.process_pending()
    assert mem.facts(STREAM) == []
    model.reading = True
    mem.refresh(STREAM)
    assert [f.text for f in mem.facts(STREAM)] == ["We decided to ship on Friday."]
    assert mem.reextract(STREAM) == 0  # read again: nothing new
    assert len(mem.facts(STREAM, include_inactive=True)) == 1


def test_refresh_keeps_superseded_history_and_adds_no_duplicates(open_memory):
    mem = open_memory(projects=[{"stream": STREAM, "channels": ["proj-alpha"]}])
    mem.add_turn(STREAM, "Raj is a junior developer.", "Noted.", at=AT)
    mem.add_turn(STREAM, "No, Raj is the Lead Architect.", "Thanks.", at=AT + timedelta(hours=1))
    mem.ingest_message(
        channel="proj-alpha",
        user="Ann",
        ts="1772445600.000100",
        text="We decided to use Postgres for the event store.",
    )
    mem.store.schedule(mem.tenant, STREAM, "digest", 0)  # not after the quiet half hour
    mem.process_pending()
    before = {(f.id, f.status, f.text) for f in mem.facts(STREAM, include_inactive=True)}
    assert any(s is FactStatus.SUPERSEDED for _, s, _ in before)
    assert any("Postgres" in text for _, _, text in before)
    assert mem.reextract(STREAM) == 0
    mem.refresh(STREAM)
    after = {(f.id, f.status, f.text) for f in mem.facts(STREAM, include_inactive=True)}
    assert after == before


def test_refresh_records_what_a_first_reading_would(open_memory):
    """A refresh tidies one turn's facts as a first reading does (layers/one_turn.py): a
    second value read into one slot without a change word does not supersede the first."""
    model = _Blind()
    mem = open_memory(model)
    mem.add_turn("chat:intro", "g'day. Shane, 41, electrician, Ipswich", "Welcome!", at=AT)
    mem.process_pending()
    model.reading = True
    mem.refresh("chat:intro")
    names = [(f.value.lower(), f.status) for f in mem.facts("chat:intro", include_inactive=True)]
    assert [n for n in names if n[0] in {"shane", "ipswich"}] == [("shane", FactStatus.ACTIVE)]
