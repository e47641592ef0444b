"""Trace events: JSON lines for context builds, extraction, compaction; no secrets."""

import json

import pytest

from tests.conftest import fact
from tests.scripted_model import ScriptedModel
from threefold import tracing


@pytest.fixture
def trace_file(tmp_path):
    path = tmp_path / "trace.jsonl"
    yield path
    tracing.disable()


def events(path):
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_pipeline_and_context_are_traced(open_memory, trace_file):
    model = ScriptedModel(lambda t: [fact("raj", "role", "architect")] if "Raj" in t.user else [])
    mem = open_memory(model, trace_file=trace_file, session_turns=3, summary_max_tokens=100)
    mem.add_turn("chat:1", "Raj is the architect.")
    for i in range(30):
        mem.add_turn("chat:1", f"a long enough message number {i} to make summaries grow")
    mem.process_pending()
    mem.context("chat:1", "who is the architect?", budget=600)

    seen = events(trace_file)
    names = {e["event"] for e in seen}
    assert {"extract", "compaction", "context"} <= names
    context = next(e for e in seen if e["event"] == "context")
    assert context["tokens"] <= 600 and "stream_facts" in context["sections"]
    assert isinstance(context["dropped"], list)
    compaction = next(e for e in seen if e["event"] == "compaction")
    assert compaction["tokens_after"] < compaction["tokens_before"]


def test_secrets_are_masked(trace_file):
    tracing.enable(trace_file)
    tracing.event("probe", key="tf_AbCdEfGhIjKlMnOp", header="Bearer sk-live-1234567890abcdef")
    (line,) = trace_file.read_text().splitlines()
    assert "AbCdEfGh" not in line and "1234567890" not in line and "***" in line


def test_no_file_no_events(open_memory, tmp_path):
    mem = open_memory(ScriptedModel())
    mem.add_turn("chat:1", "hello")
    mem.context("chat:1", "hello")
    assert not list(tmp_path.glob("*.jsonl"))
