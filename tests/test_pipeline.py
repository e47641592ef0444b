"""Layer 2 and the job queue: session summaries, the chunk cursor, compaction, roll-ups,
retries, crashes and concurrency."""

import subprocess
import sys
import textwrap
import threading
from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import fact
from tests.scripted_model import ScriptedModel
from threefold import Memory, SummaryKind, load_settings

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)  # a Monday
STREAM = "chat:1"


def add(mem, count, start=0, every=timedelta(hours=1), stream=STREAM):
    for i in range(start, start + count):
        mem.add_turn(stream, f"message {i}", f"reply {i}", at=T0 + i * every)


def kinds(mem, kind, stream=STREAM):
    return mem.summaries(stream, kind)


def cursor(mem, stream=STREAM):
    return mem.store.stream_state(mem.tenant, stream).last_summarized_turn


def test_session_summary_every_n_turns_moves_the_cursor(open_memory, scripted):
    mem = open_memory(scripted, session_turns=5)
    add(mem, 12)
    mem.process_pending()

    sessions = kinds(mem, SummaryKind.SESSION)
    assert [s.item_count for s in sessions] == [5, 5]
    assert cursor(mem) == 10
    assert "message 0" in sessions[0].text and "message 5" in sessions[1].text
    assert sessions[1].period_start == T0 + 5 * timedelta(hours=1)

    (active,) = kinds(mem, SummaryKind.ACTIVE)
    assert active.item_count == 10 and "message 9" in active.text
    assert len(kinds(mem, SummaryKind.ARCHIVED)) == 1  # the first active, kept


def test_end_session_summarizes_the_rest(open_memory, scripted):
    mem = open_memory(scripted, session_turns=5)
    add(mem, 7)
    mem.end_session(STREAM)
    mem.end_session(STREAM)  # nothing new: no second summary
    mem.process_pending()
    assert [s.item_count for s in kinds(mem, SummaryKind.SESSION)] == [5, 2]
    assert cursor(mem) == 7


def test_unsummarized_turns_stay_in_the_context(open_memory, scripted):
    mem = open_memory(scripted, session_turns=5, recent_turns=2)
    add(mem, 9)
    mem.process_pending()
    turns = mem.context(STREAM, "", budget=4000).section("recent_turns").items
    # Turns 6-9 are not summarized yet, so they show even though K is 2.
    assert [item.source.id for item in turns] == [str(t.id) for t in mem.turns(STREAM)[5:]]


def test_compaction_archives_the_old_version(open_memory, scripted):
    mem = open_memory(scripted, session_turns=5, summary_max_tokens=100)
    add(mem, 40)
    mem.process_pending()

    active = kinds(mem, SummaryKind.ACTIVE)
    assert len(active) == 1
    assert active[0].tokens <= 100
    assert active[0].generation >= 1
    archived = kinds(mem, SummaryKind.ARCHIVED)
    assert any(s.tokens > 100 for s in archived)
    assert any(s.id in active[0].parents for s in archived)


class Overshooting(ScriptedModel):
    """A model that ignores the size it is asked for, as chat models often do."""

    def compact_summary(self, text, known_facts, target_tokens):
        self._enter("compact_summary")
        return text


def test_a_compacted_summary_starts_at_a_whole_line(open_memory):
    mem = open_memory(Overshooting(), session_turns=5, summary_max_tokens=100)
    for i in range(40):
        said = f"Note {i}: the Hendricks relocation moved to week {i % 7}, and the vendors agreed"
        mem.add_turn(STREAM, said, "Noted.", at=T0 + i * timedelta(hours=1))
    mem.process_pending()

    (active,) = kinds(mem, SummaryKind.ACTIVE)
    assert 0 < active.tokens <= 100
    said = {line for s in kinds(mem, SummaryKind.SESSION) for line in s.text.splitlines()}
    assert all(line in said for line in active.text.splitlines())


def test_failed_compaction_leaves_the_active_summary_intact(open_memory, scripted):
    mem = open_memory(scripted, session_turns=5, summary_max_tokens=100, job_attempts=1)
    add(mem, 15)
    scripted.fail["compact_summary"] = 1
    mem.process_pending()
    before = kinds(mem, SummaryKind.ACTIVE)

    assert len(before) == 1 and before[0].tokens > 100  # still the uncompacted one
    (job,) = [j for j in mem.store.jobs() if j.kind == "compact"]
    assert job.status == "failed" and "scripted failure" in job.last_error
    summary = mem.context(STREAM, "anything").section("summary").items[0]
    assert summary.source.id == str(before[0].id)  # still usable

    mem.store.retry_failed()
    mem.process_pending()
    assert kinds(mem, SummaryKind.ACTIVE)[0].tokens <= 100


def test_a_job_that_keeps_failing_stops_after_its_attempts(open_memory, scripted):
    mem = open_memory(scripted, job_attempts=3, job_backoff_seconds=0)
    scripted.fail["extract_facts"] = 99
    add(mem, 1)
    mem.process_pending()
    (job,) = mem.store.jobs(status="failed")
    assert job.attempts == 3
    assert mem.turns(STREAM)[0].user == "message 0"  # the turn itself is safe

    assert mem.store.retry_failed() == 1
    scripted.fail.clear()
    mem.process_pending()
    assert not mem.store.jobs(status="failed")


def test_backoff_defers_a_failed_job(open_memory, scripted):
    mem = open_memory(scripted, job_backoff_seconds=60)
    scripted.fail["extract_facts"] = 1
    add(mem, 1)
    mem.process_pending()
    (job,) = mem.store.jobs(status="pending")
    assert job.run_after > datetime.now(UTC).timestamp() + 50
    assert mem.process_pending() == 0  # not due yet


def test_weekly_and_monthly_rollups(open_memory, scripted):
    mem = open_memory(scripted, session_turns=4)
    add(mem, 80, every=timedelta(days=1))  # 80 days from March 2nd
    mem.process_pending()

    weekly = kinds(mem, SummaryKind.WEEKLY)
    monthly = kinds(mem, SummaryKind.MONTHLY)
    # The clock is past May: its month and last week are over although no later turn came.
    assert [m.period_start.month for m in monthly] == [3, 4, 5]
    assert all(w.period_start.weekday() == 0 for w in weekly)
    assert len(weekly) == 12  # March 2nd to May 24th
    for rollup in weekly + monthly:
        assert rollup.parents and rollup.item_count == len(rollup.parents)


def test_refresh_rebuilds_from_rollups(open_memory, scripted):
    mem = open_memory(scripted, session_turns=4)
    add(mem, 80, every=timedelta(days=1))
    mem.process_pending()
    before = kinds(mem, SummaryKind.ACTIVE)[0]

    after = mem.refresh(STREAM)
    assert after.id != before.id and after.generation == before.generation + 1
    monthly_ids = {m.id for m in kinds(mem, SummaryKind.MONTHLY)}
    assert monthly_ids <= set(after.parents)
    assert after.tokens < before.tokens


@pytest.mark.slow
def test_a_killed_process_leaves_its_turn_and_job(tmp_path, scripted):
    db = tmp_path / "crash.db"
    script = textwrap.dedent(f"""
        import os
        from threefold import Memory
        mem = Memory.open({str(db)!r}, background_worker=False)
        mem.add_turn("chat:1", "No, Raj is the Lead Architect.")
        os.kill(os.getpid(), 9)
    """)
    run = subprocess.run([sys.executable, "-c", script], capture_output=True, timeout=60)
    assert run.returncode == -9

    scripted.facts_for = lambda t: [fact("lead architect", "holder", "raj", 1.0)]
    with Memory.open(db, settings=load_settings(), model=scripted, background_worker=False) as mem:
        assert [t.user for t in mem.turns("chat:1")] == ["No, Raj is the Lead Architect."]
        assert {j.kind for j in mem.store.jobs(status="pending")} == {"extract", "embed"}
        mem.process_pending()
        assert [f.value for f in mem.facts("chat:1")] == ["raj"]


def test_two_threads_adding_turns_lose_nothing(open_memory, scripted):
    mem = open_memory(scripted, session_turns=7, summary_max_tokens=120, worker=True)

    def writer(name):
        for i in range(60):
            mem.add_turn(STREAM, f"{name} {i}", at=T0 + timedelta(seconds=i))

    threads = [threading.Thread(target=writer, args=(n,)) for n in ("left", "right")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    mem.end_session(STREAM)
    mem.process_pending()

    turns = mem.turns(STREAM)
    assert len(turns) == 120 and [t.seq for t in turns] == list(range(1, 121))
    sessions = kinds(mem, SummaryKind.SESSION)
    assert sum(s.item_count for s in sessions) == 120  # every turn summarized exactly once
    assert len(kinds(mem, SummaryKind.ACTIVE)) == 1


def test_two_workers_on_one_file_never_double_process(tmp_path):
    settings = load_settings(session_turns=5, summary_max_tokens=100)
    models = [ScriptedModel(), ScriptedModel()]
    mems = [
        Memory.open(tmp_path / "shared.db", settings=settings, model=m, background_worker=False)
        for m in models
    ]
    try:
        streams = [f"chat:{n}" for n in range(4)]
        for stream in streams:
            add(mems[0], 25, stream=stream)
        threads = [threading.Thread(target=m.process_pending) for m in mems]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        calls = [m.calls.get("extract_facts", 0) for m in models]
        assert sum(calls) == 100
        for stream in streams:
            sessions = kinds(mems[1], SummaryKind.SESSION, stream)
            assert sum(s.item_count for s in sessions) == 25
            assert len(kinds(mems[1], SummaryKind.ACTIVE, stream)) == 1
        assert all(j.status == "done" for j in mems[0].store.jobs())
    finally:
        for mem in mems:
            mem.close()


def test_late_sessions_are_rolled_up_again_on_refresh(open_memory, scripted):
    mem = open_memory(scripted, session_turns=4)
    add(mem, 40, every=timedelta(days=1))
    mem.process_pending()
    (march,) = [m for m in kinds(mem, SummaryKind.MONTHLY) if m.period_start.month == 3]
    for i in range(4):  # a late import of four more March turns: one more session
        mem.add_turn(STREAM, f"late {i}", at=T0 + timedelta(days=3, hours=i))
    mem.process_pending()
    mem.refresh(STREAM)
    (again,) = [m for m in kinds(mem, SummaryKind.MONTHLY) if m.period_start.month == 3]
    assert again.item_count == march.item_count + 1
    assert march.id in {s.id for s in kinds(mem, SummaryKind.ARCHIVED)}


def test_streams_list_their_counts_per_tenant(open_memory, scripted):
    mem = open_memory(scripted, session_turns=3)
    add(mem, 4)
    add(mem, 1, stream="project:beta")
    mem.add_turn("chat:9", "elsewhere", tenant="acme")
    mem.process_pending()
    listed = {s.name: (s.turn_count, s.last_summarized_turn) for s in mem.streams()}
    assert listed == {STREAM: (4, 3), "project:beta": (1, 0)}
    assert [s.name for s in mem.streams(tenant="acme")] == ["chat:9"]


def test_the_background_worker_runs_jobs_on_its_own(open_memory):
    scripted = ScriptedModel(lambda t: [fact("lead architect", "holder", "raj", 1.0)])
    mem = open_memory(scripted, worker=True)
    mem.add_turn(STREAM, "No, Raj is the Lead Architect.")
    for _ in range(500):  # up to ten seconds on a slow machine; usually milliseconds
        if mem.facts(STREAM):
            break
        threading.Event().wait(0.02)
    assert [f.value for f in mem.facts(STREAM)] == ["raj"]


@pytest.mark.slow
def test_a_backlog_is_compacted_as_it_goes(open_memory, scripted):
    mem = open_memory(scripted, session_turns=5, summary_max_tokens=150)
    add(mem, 200)  # one process_pending over a long backlog
    mem.process_pending()
    generations = [s.tokens for s in kinds(mem, SummaryKind.ARCHIVED)]
    # Compaction ran between merges, so no archived version grew far past the cap.
    assert max(generations) < 300
