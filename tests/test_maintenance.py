"""The maintenance stages: retention, archiving, clean-up, roll-ups, retries and index merges."""

import time
from datetime import UTC, datetime, timedelta

from typer.testing import CliRunner

from tests.scripted_model import ScriptedModel
from threefold import FactStatus, Memory
from threefold.faces.cli import app
from threefold.pipeline.maintenance import (
    DELIVERY_SECONDS,
    LEASE,
    RUN_LEASE,
    MaintenanceLoop,
    forget_deliveries,
    maintain,
)

ALPHA = "project:alpha"


def counts(reports):
    return {r.stage: r.count for r in reports}


def test_stale_near_identical_facts_are_compressed(open_memory):
    mem = open_memory(ScriptedModel(), retention_days=1e-9)
    for i in range(3):
        mem.write_fact(
            ALPHA,
            f"The coffee machine on floor two is broken again {'!' * i}",
            subject="coffee machine",
            slot=f"note:{i}",
            confidence=0.5,
        )
    keep = mem.write_fact(
        ALPHA, "Priya owns the billing service.", subject="priya", slot="owns", confidence=0.95
    )
    assert counts(maintain(mem))["retention"] == 3

    active = mem.facts(ALPHA)
    folded = next(f for f in active if f.slot.startswith("compressed:"))
    assert "(said 3 times)" in folded.text and keep.id in {f.id for f in active}
    originals = [
        f for f in mem.facts(ALPHA, include_inactive=True) if f.status is FactStatus.COMPRESSED
    ]
    assert len(originals) == 3 and all(f.superseded_by == folded.id for f in originals)
    actions = [c.action for c in mem.fact_history(originals[0].id).changes]
    assert actions[-1] == "COMPRESS"


def test_past_deadlines_are_archived_not_deleted(open_memory):
    mem = open_memory(ScriptedModel())
    old = mem.write_fact(
        ALPHA,
        "The beta deadline was 2020-01-31.",
        category="deadline",
        subject="beta",
        slot="deadline",
        value="2020-01-31",
    )
    soon = (datetime.now(UTC) + timedelta(days=10)).date().isoformat()
    mem.write_fact(
        ALPHA,
        f"The launch deadline is {soon}.",
        category="deadline",
        subject="launch",
        slot="deadline",
        value=soon,
    )
    assert counts(maintain(mem))["archive"] == 1
    assert mem.fact(old.id).status is FactStatus.ARCHIVED
    assert [f.value for f in mem.facts(ALPHA)] == [soon]
    assert [c.action for c in mem.fact_history(old.id).changes][-1] == "ARCHIVE"


def test_archive_cleanup_only_when_configured(open_memory):
    mem = open_memory(ScriptedModel(), session_turns=2)
    for i in range(8):
        mem.add_turn(ALPHA, f"message {i}")
    mem.process_pending()
    archived = len(mem.summaries(ALPHA, "archived"))
    assert archived and counts(maintain(mem))["archive_cleanup"] == 0
    mem.settings = mem.settings.model_copy(update={"archive_cleanup_days": 1e-9})
    assert counts(maintain(mem))["archive_cleanup"] == archived
    assert mem.summaries(ALPHA, "archived") == []
    assert mem.search("message", kinds=["summary"]) is not None  # the index stayed consistent


def test_failed_jobs_are_retried(open_memory, scripted):
    mem = open_memory(scripted, job_attempts=1)
    scripted.fail["extract_facts"] = 1
    mem.add_turn(ALPHA, "hello")
    mem.process_pending()
    assert mem.store.jobs(status="failed")
    assert counts(maintain(mem))["retries"] == 1
    mem.process_pending()
    assert not mem.store.jobs(status="failed")


def test_maintain_command(tmp_path):
    Memory.open(tmp_path / "m.db").close()  # maintain creates no database
    result = CliRunner().invoke(
        app, ["--db", str(tmp_path / "m.db"), "maintain"], env={"COLUMNS": "200"}
    )
    assert result.exit_code == 0, result.output
    assert "retention" in result.output and "rollups" in result.output


def test_maintain_command_refuses_while_another_process_runs_maintenance(tmp_path):
    db = tmp_path / "m.db"
    with Memory.open(db) as server:
        assert server.store.claim_lease(RUN_LEASE, "server-loop", 60)
        result = CliRunner().invoke(app, ["--db", str(db), "maintain"])
        assert result.exit_code == 2 and "running maintenance" in result.output
        server.store.release_lease(RUN_LEASE, "server-loop")
    assert CliRunner().invoke(app, ["--db", str(db), "maintain"]).exit_code == 0


def test_a_loop_leaves_its_turn_to_a_run_already_going(open_memory):
    mem = open_memory(ScriptedModel())
    assert mem.store.claim_lease(RUN_LEASE, "cli", 60)  # `threefold maintain` is running
    loop = MaintenanceLoop(mem, interval=3600)
    loop.start()
    assert loop.tried.wait(30)
    loop.stop()
    assert loop.runs == 0 and not mem.store.claim_lease(RUN_LEASE, "other", 60)


def test_loops_of_several_processes_take_turns_through_a_lease(open_memory):
    # Two memories on one file stand for two server processes.
    here, there = open_memory(ScriptedModel()), open_memory(ScriptedModel())
    loops = [MaintenanceLoop(here, interval=3600), MaintenanceLoop(there, interval=3600)]
    for loop in loops:
        loop.start()
    for loop in loops:
        assert loop.tried.wait(30)
    assert sorted(loop.runs for loop in loops) == [0, 1]
    runner = next(loop for loop in loops if loop.runs)
    assert not here.store.claim_lease(LEASE, "someone-else", 60)  # held until the interval ends
    for loop in loops:
        loop.stop()
    # Stopped cleanly, the runner let the lease go: a restarted server maintains at start.
    assert runner.runs == 1 and here.store.claim_lease(LEASE, "someone-else", 60)


def test_a_lease_whose_time_is_up_can_be_taken_over(open_memory):
    store = open_memory(ScriptedModel()).store
    assert store.claim_lease("job", "a", 0) and store.claim_lease("job", "b", 60)
    assert not store.extend_lease("job", "a", 60)  # a lost it
    assert not store.claim_lease("job", "a", 60)
    store.release_lease("job", "a")  # not a's to release
    assert not store.claim_lease("job", "a", 60)
    assert store.extend_lease("job", "b", 60)
    store.release_lease("job", "b")
    assert store.claim_lease("job", "a", 60)


def test_a_run_leaves_the_text_index_merged(open_memory):
    mem = open_memory(ScriptedModel())
    for n in range(30):
        mem.add_turn(ALPHA, f"deploy note {n} about kafka{n % 3}", "noted")
    assert counts(maintain(mem))["text_index"] >= 0  # pages merged; 0 where none are kept
    assert mem.store.merge_text_index(1000) == 0
    assert len(mem.search("kafka1 deploy", stream=ALPHA, limit=50)) >= 10


def test_maintenance_forgets_event_ids_no_retry_can_reuse(open_memory):
    mem = open_memory()
    now = time.time()
    mem.store.first_delivery(mem.tenant, "slack", "EvOld", now - DELIVERY_SECONDS - 60)
    mem.store.first_delivery(mem.tenant, "slack", "EvNew", now - 60)
    assert forget_deliveries(mem) == 1
    assert not mem.store.first_delivery(mem.tenant, "slack", "EvNew", now)
    assert mem.store.first_delivery(mem.tenant, "slack", "EvOld", now)
