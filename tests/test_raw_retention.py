"""Retention of raw turns and messages: off by default; when set, maintenance deletes
those older than it that the summaries already cover, and keeps the facts, the summaries,
the last K turns and an audit row of how much went."""

from datetime import timedelta

from threefold.domain import utcnow
from threefold.pipeline.maintenance import expire_raw

ALPHA = "project:alpha"
PROJECTS = [{"stream": ALPHA, "key": "ALPHA", "channels": ["proj-alpha"]}]


def fill(mem, days_ago: float) -> None:
    start = utcnow() - timedelta(days=days_ago)
    for n in range(30):
        mem.add_turn(
            "chat:a",
            user=f"Turn {n}: my dentist is Dr Okafor and I moved to Leeds.",
            assistant="Noted.",
            at=start + timedelta(minutes=n),
        )
    for n in range(10):
        stamp = f"{(start + timedelta(minutes=n)).timestamp():.6f}"
        mem.ingest_message(
            channel="proj-alpha", user="Ann", ts=stamp, text=f"We decided to ship ALPHA-{n}."
        )
    mem.end_session("chat:a")
    mem.process_pending()


def test_retention_is_off_by_default(open_memory):
    mem = open_memory(projects=PROJECTS, embed={"kind": "none"})
    fill(mem, days_ago=400)
    assert expire_raw(mem) == 0
    assert len(mem.turns("chat:a")) == 30 and len(mem.records(ALPHA)) == 10


def test_expiry_keeps_facts_summaries_the_last_turns_and_an_audit_count(open_memory):
    mem = open_memory(
        projects=PROJECTS, embed={"kind": "hashing"}, raw_retention_days=7, recent_turns=4
    )
    fill(mem, days_ago=30)
    facts_before = {f.id for f in mem.facts("chat:a")} | {f.id for f in mem.facts(ALPHA)}
    summaries_before = len(mem.summaries("chat:a")) + len(mem.summaries(ALPHA))
    assert facts_before and summaries_before
    assert expire_raw(mem) == 26 + 10
    assert [t.seq for t in mem.turns("chat:a")] == [27, 28, 29, 30]  # the last K stay
    assert mem.records(ALPHA) == []
    assert {f.id for f in mem.facts("chat:a")} | {f.id for f in mem.facts(ALPHA)} == facts_before
    assert len(mem.summaries("chat:a")) + len(mem.summaries(ALPHA)) == summaries_before
    [audit] = mem.store.erasures(mem.tenant)
    assert audit["target"] == {"retention_days": 7}
    assert (audit["removed"]["turns"], audit["removed"]["records"]) == (26, 10)
    hits = mem.search("dentist Okafor Leeds", kinds=["turn"], limit=50)
    assert hits and {h.id for h in hits} <= {t.id for t in mem.turns("chat:a")}
    assert expire_raw(mem) == 0  # nothing more is due


def test_recent_and_undigested_items_are_kept(open_memory):
    mem = open_memory(projects=PROJECTS, embed={"kind": "none"}, raw_retention_days=7)
    fill(mem, days_ago=2)
    stamp = f"{(utcnow() - timedelta(days=20)).timestamp():.6f}"
    mem.ingest_message(channel="proj-alpha", user="Ann", ts=stamp, text="Old, not digested.")
    assert expire_raw(mem) == 0
