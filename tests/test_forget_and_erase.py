"""Forgetting a fact and erasing content for privacy, through the Python API."""

import sqlite3
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.conftest import MemoryFactory
from tests.scripted_model import ScriptedModel
from threefold import Memory
from threefold.domain import FactStatus
from threefold.errors import InvalidInput, NotFound
from threefold.models.base import SessionDigest, TurnInput

T0 = datetime(2026, 10, 5, 9, 0, tzinfo=UTC)


def _say(mem: Memory, stream: str, *lines: tuple[str | None, str], **kwargs: object) -> None:
    for i, (speaker, text) in enumerate(lines):
        mem.add_turn(stream, text, at=T0 + timedelta(minutes=i), speaker=speaker, **kwargs)
    mem.process_pending()


def _everything(path: Path) -> str:
    """Every text the database file holds, tables and full-text indexes alike."""
    db = sqlite3.connect(path)
    parts = []
    for (table,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'"):
        for row in db.execute(f"SELECT * FROM {table}"):
            parts.extend(str(v) for v in row if isinstance(v, str | bytes))
    db.close()
    return "\n".join(parts)


def _check_indexes(path: Path) -> None:
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    for table in ("turns_fts", "facts_fts", "summaries_fts", "records_fts"):
        db.execute(f"INSERT INTO {table} ({table}) VALUES ('integrity-check')")
    db.close()


def test_forget_retracts_and_keeps_history(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    _say(mem, "project:alpha", (None, "Raj is the Lead Architect."))
    fact = mem.facts("project:alpha")[0]
    forgotten = mem.forget(fact.id, reason="the user asked")
    assert forgotten.status is FactStatus.RETRACTED
    assert mem.facts("project:alpha") == []
    ctx = mem.context("project:alpha", "who is the architect?", 3000)
    assert all(s.name != "stream_facts" for s in ctx.sections)
    history = mem.fact_history(fact.id)
    assert history.changes[-1].action == "FORGET"
    assert history.changes[-1].note == "the user asked"


def test_forget_of_an_unknown_or_foreign_id_is_not_found(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    _say(mem, "project:alpha", (None, "Raj is the Lead Architect."), tenant="acme")
    fact = mem.facts("project:alpha", tenant="acme")[0]
    with pytest.raises(NotFound):
        mem.forget(999_999)
    with pytest.raises(NotFound):
        mem.forget(fact.id, tenant="globex")
    assert mem.facts("project:alpha", tenant="acme")[0].active
    for bad in (0, -1, 2**70, "1", True):
        with pytest.raises(InvalidInput):
            mem.forget(bad)  # type: ignore[arg-type]


def test_erase_a_person_removes_their_words_everywhere(
    open_memory: MemoryFactory, tmp_path: Path
) -> None:
    mem = open_memory(session_turns=4)
    _say(
        mem,
        "chat:group",
        ("Caroline", "I adopted a greyhound called Biscuit last spring."),
        ("Melanie", "We went camping by the lake with the kids."),
        ("Caroline", "Biscuit sleeps on the sofa all day long."),
        ("Melanie", "Caroline Quinn is the Lead Designer at the studio."),
        ("Melanie", "The pottery class starts on Thursday evening."),
    )
    assert mem.summaries("chat:group")  # a session summary quoted Caroline
    report = mem.erase(entity="Caroline")
    assert report.turns == 3 and report.streams == ("chat:group",)
    assert report.facts >= 1  # "Caroline Quinn is the Lead Designer"
    left = _everything(tmp_path / "memory.db")
    for secret in ("greyhound", "Biscuit", "Caroline", "Lead Designer"):
        assert secret not in left
    assert "camping by the lake" in left
    assert mem.search("greyhound", stream="chat:group") == []
    _check_indexes(tmp_path / "memory.db")
    audit = mem.store.erasures("default")
    assert audit[-1]["removed"]["turns"] == 3
    assert "aroline" not in str(audit)


def test_erase_a_stream_takes_everything_in_it(open_memory: MemoryFactory, tmp_path: Path) -> None:
    mem = open_memory(session_turns=2)
    _say(
        mem, "chat:secret", (None, "Raj is the Lead Architect."), (None, "Our codename is Zephyr.")
    )
    _say(mem, "chat:other", (None, "Lunch is at noon."))
    report = mem.erase(stream="chat:secret")
    assert report.turns == 2 and report.facts == 1 and report.summaries >= 1
    assert mem.turns("chat:secret") == [] and mem.facts("chat:secret", include_inactive=True) == []
    left = _everything(tmp_path / "memory.db")
    assert "Zephyr" not in left and "Lead Architect" not in left
    assert "Lunch is at noon." in left
    _check_indexes(tmp_path / "memory.db")
    # The stream can be written again, and works as a new one.
    _say(mem, "chat:secret", (None, "Priya is the CFO."))
    assert [f.text for f in mem.facts("chat:secret")] == ["Priya is the CFO."]


def test_erase_one_fact_and_the_summary_lines_that_quote_it(open_memory: MemoryFactory) -> None:
    mem = open_memory(session_turns=2)
    _say(mem, "chat:1", (None, "Raj is the Lead Architect."), (None, "The weather is nice."))
    fact = mem.facts("chat:1")[0]
    report = mem.erase(fact_id=fact.id)
    assert report.facts == 1 and report.summaries_redacted >= 1
    with pytest.raises(NotFound):
        mem.fact(fact.id)
    for summary in mem.summaries("chat:1"):
        assert "Lead Architect" not in summary.text


def test_erase_by_another_tenant_does_nothing(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    _say(mem, "chat:1", ("Caroline", "I adopted a greyhound."), tenant="acme")
    fact_ids = [f.id for f in mem.facts("chat:1", include_inactive=True, tenant="acme")]
    with pytest.raises(NotFound):
        mem.erase(stream="chat:1", tenant="globex")
    with pytest.raises(NotFound):
        mem.erase(entity="Caroline", tenant="globex")
    for fact_id in fact_ids:
        with pytest.raises(NotFound):
            mem.erase(fact_id=fact_id, tenant="globex")
    assert len(mem.turns("chat:1", tenant="acme")) == 1


def test_erase_takes_exactly_one_target(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    with pytest.raises(InvalidInput):
        mem.erase()
    with pytest.raises(InvalidInput):
        mem.erase(stream="chat:1", entity="Caroline")
    with pytest.raises(InvalidInput):
        mem.erase(stream="not a stream")


class _ErasingDuringSummary(ScriptedModel):
    """Erases a person while the summary job is thinking, as another caller would."""

    def __init__(self) -> None:
        super().__init__()
        self.memory: Memory | None = None

    def summarize_session(self, turns: Sequence[TurnInput], target_tokens: int) -> SessionDigest:
        digest = super().summarize_session(turns, target_tokens)
        if self.memory is not None:
            memory, self.memory = self.memory, None
            memory.erase(entity="Caroline")
        return digest


def test_erase_during_a_running_summary_job_is_not_undone(open_memory: MemoryFactory) -> None:
    model = _ErasingDuringSummary()
    mem = open_memory(model, session_turns=2, job_backoff_seconds=0.0)
    model.memory = mem
    _say(
        mem,
        "chat:group",
        ("Caroline", "My greyhound is called Biscuit."),
        ("Melanie", "We went camping by the lake."),
    )
    mem.process_pending()
    texts = "\n".join(s.text for s in mem.summaries("chat:group"))
    assert "Biscuit" not in texts
    assert "camping" in texts  # the job ran again from what was left
