"""The acceptance story, offline: corrections at turns 3, 9 and 40 survive 500 more turns."""

import pytest

from threefold import FactStatus, Memory, SummaryKind, load_settings
from threefold.faces.demo import QUESTION, STREAM, story


@pytest.fixture(scope="module")
def alpha(tmp_path_factory):
    path = tmp_path_factory.mktemp("acceptance") / "alpha.db"
    # Module-scoped, so the per-test environment does not apply: name the embedder here.
    settings = load_settings(embed={"kind": "hashing"})
    with Memory.open(path, settings=settings, background_worker=False) as mem:
        for turn in story(filler_after=500):
            mem.add_turn(STREAM, turn.user, turn.assistant, at=turn.at)
        mem.process_pending()
        yield mem


@pytest.fixture(scope="module")
def ctx(alpha):
    return alpha.context(STREAM, QUESTION, budget=6000)


def facts_text(ctx):
    return "\n".join(i.text for i in ctx.section("stream_facts").items)


@pytest.mark.slow
def test_current_facts_are_in_the_context(ctx):
    text = facts_text(ctx)
    assert "Raj is the Lead Architect" in text
    assert "Priya handles backend" in text
    assert "March 27" in text and "2027-03-27" in text


def test_superseded_statements_are_not_shown_as_current(alpha, ctx):
    assert "Sarah" not in facts_text(ctx)
    assert "frontend" not in facts_text(ctx)
    summary = ctx.section("summary").items[0].text
    assert "Sarah is the Lead Architect" not in summary
    assert "Priya handles frontend" not in summary
    for item in ctx.section("retrieved").items:
        if "Sarah" in item.text:
            assert "Raj is the Lead Architect" in item.text.split("; now:")[1]
    old = {f.value: f.status for f in alpha.facts(STREAM, include_inactive=True)}
    assert old["sarah"] is FactStatus.SUPERSEDED
    # "Priya handles backend, not frontend": what a person handles is many-valued, so the
    # old value goes because the correction names it, not because a new one came.
    assert old["frontend"] is FactStatus.RETRACTED


def test_the_chain_is_kept(alpha):
    raj = next(f for f in alpha.facts(STREAM) if f.value == "raj")
    assert [f.value for f in alpha.fact_history(raj.id).chain] == ["sarah", "raj"]
    assert raj.confidence == 1.0


def test_summary_still_mentions_the_first_weeks(alpha, ctx):
    summary = ctx.section("summary").items[0].text
    assert "carousel" in summary or "landing page" in summary  # discussed in week one
    active = alpha.summaries(STREAM, SummaryKind.ACTIVE)[0]
    assert active.tokens <= 2000
    assert alpha.summaries(STREAM, SummaryKind.ARCHIVED)  # compacted versions are kept


def test_the_last_k_turns_are_verbatim(alpha, ctx):
    last = alpha.turns(STREAM, limit=10)
    shown = ctx.section("recent_turns").items
    assert [i.source.id for i in shown][-10:] == [str(t.id) for t in last]
    for item, turn in zip(shown[-10:], last, strict=True):
        assert turn.user in item.text and turn.assistant in item.text


def test_budget_is_respected(ctx):
    assert ctx.tokens <= 6000
