"""Issue 36's smaller defects, each through the public API: what Slack pins, one blocker
one fact, who wrote a summary, and what the `categories` filter lets through."""

import pytest

from tests.openai_fake import FakeOpenAIServer
from threefold import SummaryKind, load_settings

TS = 1_780_000_000.0


def _slack(mem) -> str:
    """Four plain Slack messages in one channel: a blocker, a commitment, a decision and a
    role. Returns their stream."""
    stream = mem.ingest_message(
        channel="C1", user="U1", ts=TS, text="I'm blocked on the staging database migration."
    )
    said = [
        ("U2", "I'll send the vendor report by Friday."),
        ("U1", "We decided to use Postgres for the billing service."),
        ("U3", "Raj is the Lead Architect."),
    ]
    for n, (user, text) in enumerate(said, start=1):
        mem.ingest_message(channel="C1", user=user, ts=TS + 60 * n, text=text)
    mem.process_pending()
    assert stream is not None
    return stream


def test_slack_pins_decisions_and_roles_only(open_memory):
    """README: of outside messages only decisions and roles stated plainly are pinned;
    commitments and blockers are recall material."""
    mem = open_memory()
    stream = _slack(mem)
    categories = {f.category.value for f in mem.facts(stream)}
    assert {"blocker", "commitment"} <= categories  # they are read, and kept for recall
    context = mem.context(stream, "what is going on?", 4000)
    pinned = [
        i.text
        for s in context.sections
        if s.name in ("stream_facts", "global_facts", "profiles")
        for i in s.items
    ]
    assert any("Lead Architect" in t for t in pinned)
    assert any("Postgres" in t for t in pinned)
    assert not [t for t in pinned if "blocked" in t or "vendor report" in t], pinned


def test_one_blocker_message_is_one_blocker_fact(open_memory):
    mem = open_memory()
    stream = _slack(mem)
    blockers = [f.text for f in mem.facts(stream) if f.category.value == "blocker"]
    assert len(blockers) == 1, blockers


def test_the_categories_filter_returns_only_facts_of_those_categories(open_memory):
    mem = open_memory()
    stream = _slack(mem)
    hits = mem.search("staging database migration", stream=stream, categories=["blocker"])
    assert hits
    assert {h.kind for h in hits} == {"fact"}
    kept = {mem.fact(h.id).category.value for h in hits}
    assert kept == {"blocker"}
    assert mem.search("", stream=stream, categories=["decision"], kinds=["turn"]) == []


@pytest.fixture
def failing_llm(monkeypatch):
    monkeypatch.setenv("TEST_LLM_KEY", "sk-test-secret")
    with FakeOpenAIServer(default="{not valid json") as server:
        yield load_settings(
            model={
                "kind": "llm",
                "base_url": server.base_url,
                "name": "fake-model",
                "api_key_env": "TEST_LLM_KEY",
                "attempts": 1,
                "backoff_seconds": 0.01,
                "timeout_seconds": 5,
            },
            session_turns=2,
        )


def test_a_summary_the_fallback_wrote_names_the_fallback(tmp_path, failing_llm):
    from threefold import Memory

    with Memory.open(tmp_path / "llm.db", settings=failing_llm, background_worker=False) as mem:
        mem.add_turn("chat:s", "We moved the launch to March.", "Noted.")
        mem.add_turn("chat:s", "Priya owns the launch checklist.", "Ok.")
        mem.process_pending()
        (session,) = mem.summaries("chat:s", SummaryKind.SESSION)
    assert session.record["model"] == "heuristic"
