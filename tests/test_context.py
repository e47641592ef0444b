"""Context assembly: sections, sources, exact token counts and the budget rules."""

from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import fact
from tests.scripted_model import ScriptedModel
from threefold import InvalidInput
from threefold.context.assemble import (
    FACTS_DROPPED,
    ORDER,
    SUMMARY_CUT,
    SUMMARY_GAP,
    TURNS_DROPPED,
    TURNS_YIELDED,
)
from threefold.domain import SummaryKind
from threefold.tokens import count_tokens

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
STREAM = "project:alpha"


def facts_model(count: int = 0) -> ScriptedModel:
    """Turn 'fact N' yields fact N, with confidence rising with N."""

    def facts_for(turn):
        if not turn.user.startswith("fact "):
            return []
        n = int(turn.user.split()[1])
        return [
            fact(
                f"item{n}",
                "value",
                f"v{n}",
                0.7 + n / 10_000,
                text=f"Item {n} has the agreed value v{n}, as decided in review.",
                # Facts 900 and up are company-wide decisions: pinned in every stream.
                category="decision" if n >= 900 else "note",
            )
        ]

    return ScriptedModel(facts_for)


@pytest.fixture
def alpha(open_memory):
    mem = open_memory(facts_model(), session_turns=5, recent_turns=4)
    mem.add_turn("global", "fact 900", at=T0)
    for i in range(3):
        mem.add_turn(STREAM, f"fact {i}", at=T0 + timedelta(minutes=i))
    for i in range(3, 30):
        mem.add_turn(
            STREAM, f"we talked about subject {i}", f"noted {i}", at=T0 + timedelta(hours=i)
        )
    mem.end_session(STREAM)
    mem.process_pending()
    return mem


def test_sections_are_in_order_with_sources(alpha):
    ctx = alpha.context(STREAM, "How is Project Alpha doing?", budget=4000)
    names = [s.name for s in ctx.sections]
    assert names == [n for n in ORDER if n in names]
    assert {"system", "stream_facts", "global_facts", "summary", "recent_turns", "query"} <= set(
        names
    )
    assert [i.text for i in ctx.section("global_facts").items][0].startswith("- Item 900")
    for section in ctx.sections:
        if section.name not in ("system", "query"):
            assert all(item.source is not None for item in section.items)
    recent = [int(i.source.id) for i in ctx.section("recent_turns").items]
    assert recent == sorted(recent) and len(recent) == 4
    assert ctx.tokens == count_tokens(ctx.text) <= 4000
    assert {d.reason for d in ctx.dropped} <= {"repeats one of the recent turns"}


def test_messages_form_carries_the_turns(alpha):
    ctx = alpha.context(STREAM, "How is Project Alpha doing?", budget=4000)
    roles = [m["role"] for m in ctx.messages]
    assert roles[0] == "system" and roles[-1] == "user"
    assert roles[1:-1] == ["user", "assistant"] * 4
    assert ctx.messages[-1]["content"] == "How is Project Alpha doing?"
    assert "Item 2 has the agreed value" in ctx.messages[0]["content"]


@pytest.mark.parametrize("budget", [60, 120, 200, 300, 500, 800])
def test_never_over_budget(alpha, budget):
    ctx = alpha.context(STREAM, "How is Project Alpha doing?", budget=budget)
    assert ctx.tokens <= budget
    assert sum(s.tokens for s in ctx.sections) <= budget


def test_the_last_k_turns_stay_and_the_summary_is_cut(alpha):
    full = alpha.context(STREAM, "status?", budget=4000)
    needed = full.tokens - full.section("summary").tokens
    ctx = alpha.context(STREAM, "status?", budget=needed + 60)
    assert len(ctx.section("recent_turns").items) == 4
    assert SUMMARY_CUT in {d.reason for d in ctx.dropped}
    assert "recent_turns" not in {d.section for d in ctx.dropped}


def test_a_cut_summary_keeps_its_floor_in_whole_lines(alpha):
    budget = 400
    ctx = alpha.context(STREAM, "status?", budget=budget)
    full = alpha.summaries(STREAM, SummaryKind.ACTIVE)[-1].text.splitlines()
    summary = ctx.section("summary")
    assert summary.tokens >= int(budget * alpha.settings.summary_floor_share)
    lines = summary.items[0].text.splitlines()
    assert lines[0] == SUMMARY_GAP
    # Whole lines, never a scrap (a period's header has its days in words beside it).
    stored = [line.partition(" (")[0] if line.startswith("### ") else line for line in lines]
    assert all(line in full for line in stored[1:] if line)
    # The newest part stays, less the lines that only retell the last K turns.
    recent = {i.text for i in ctx.section("recent_turns").items}
    newest = next(line for line in reversed(full) if not any(line[2:] in t for t in recent))
    assert lines[-1] == newest


def test_facts_over_their_ceiling_keep_the_best_ranked(open_memory):
    mem = open_memory(facts_model())
    for i in range(40):
        mem.add_turn(STREAM, f"fact {i}", at=T0 + timedelta(minutes=i))
    mem.process_pending()
    budget = 600
    ctx = mem.context(STREAM, "q", budget=budget)
    kept = [i.text for i in ctx.section("stream_facts").items]
    assert 0 < len(kept) < 40 and ctx.tokens <= budget
    assert ctx.section("stream_facts").tokens <= budget * mem.settings.facts_ceiling_share
    assert kept[0].startswith("- Item 39 ")  # most confident and newest first
    assert all("Item 0 " not in text for text in kept)
    dropped = [d for d in ctx.dropped if d.section == "stream_facts"]
    assert {d.reason for d in dropped} == {FACTS_DROPPED}
    assert len(dropped) + len(kept) == 40


def test_a_huge_turn_is_cut_and_marked_not_dropped(open_memory):
    mem = open_memory(ScriptedModel())
    mem.add_turn(STREAM, "word " * 50_000)
    mem.add_turn(STREAM, "small turn")
    ctx = mem.context(STREAM, "q", budget=500)
    texts = [i.text for i in ctx.section("recent_turns").items]
    assert texts[-1].endswith("small turn")
    assert texts[0].endswith("[cut; the whole turn is turn:1]")
    assert ctx.tokens <= 500


def test_an_unknown_stream_gives_an_empty_context(open_memory):
    mem = open_memory(ScriptedModel())
    ctx = mem.context("chat:nobody", "hello?", budget=100)
    assert [s.name for s in ctx.sections] == ["system", "query"]


@pytest.mark.parametrize("budget", [0, -1, 2.5, "100", True])
def test_bad_budgets_are_refused(open_memory, budget):
    mem = open_memory(ScriptedModel())
    with pytest.raises(InvalidInput, match="budget"):
        mem.context(STREAM, "q", budget=budget)


def test_a_budget_smaller_than_k_turns_keeps_the_newest(alpha):
    ctx = alpha.context(STREAM, "status?", budget=130)
    shown = [int(i.source.id) for i in ctx.section("recent_turns").items]
    newest = [t.id for t in alpha.turns(STREAM)][-4:]
    assert shown and shown == newest[-len(shown) :] and len(shown) < 4
    left_out = [d for d in ctx.dropped if d.section == "recent_turns"]
    assert [int(d.source.id) for d in left_out] == list(reversed(newest[: -len(shown)]))
    reasons = {d.reason for d in left_out}
    assert reasons and reasons <= {TURNS_DROPPED, TURNS_YIELDED}
    if TURNS_YIELDED in reasons:  # true only if a floor took the room
        assert {"summary", "retrieved"} & {s.name for s in ctx.sections}
    assert ctx.tokens <= 130


def test_a_tiny_budget_keeps_part_of_the_query(open_memory):
    mem = open_memory(ScriptedModel())
    ctx = mem.context(STREAM, "what is the plan for the launch next week " * 10, budget=12)
    assert ctx.tokens <= 12 and ctx.section("query").items


def test_retrieved_finds_older_turns_by_query_words(open_memory):
    mem = open_memory(ScriptedModel(), recent_turns=3, session_turns=5)
    mem.add_turn(STREAM, "The vendor for badges is Acme Printing.", at=T0)
    for i in range(20):
        mem.add_turn(STREAM, f"filler {i}", at=T0 + timedelta(hours=i + 1))
    mem.process_pending()
    ctx = mem.context(STREAM, "Who prints the badges?", budget=2000)
    retrieved = ctx.section("retrieved").items
    assert "Acme Printing" in retrieved[0].text and retrieved[0].source.kind == "turn"


def test_a_larger_budget_retrieves_more_older_turns(open_memory):
    mem = open_memory(ScriptedModel(), recent_turns=2, session_turns=10)
    for i in range(150):
        mem.add_turn(STREAM, f"badge order {i} shipped", at=T0 + timedelta(minutes=i))
    mem.process_pending()
    shown = {
        budget: len(mem.context(STREAM, "badge order", budget=budget).section("retrieved").items)
        for budget in (2000, 8000)
    }
    assert shown[2000] < shown[8000]
    assert shown[8000] > 100  # past the hits a small budget asks for


def test_retrieved_items_are_grouped_under_their_day_in_time_order(open_memory):
    mem = open_memory(ScriptedModel(), recent_turns=2, session_turns=2)
    for day in (3, 1, 2):  # written out of order: event time decides, not insertion
        for hour in (9, 10):
            at = T0 + timedelta(days=day, hours=hour)
            mem.add_turn(STREAM, f"badge print run {day}-{hour}", at=at)
    for i in range(4):
        mem.add_turn(STREAM, f"filler {i}", at=T0 + timedelta(days=9, hours=i))
    mem.process_pending()
    ctx = mem.context(STREAM, "badge print run", budget=2000)
    lines = ctx.text.split("## Retrieved from older memory\n")[1].split("\n\n")[0].splitlines()
    days = [line for line in lines if line.startswith("### ")]
    # Each day in words, as people (and answers) write it, in time order.
    assert {"### 3 March 2026", "### 4 March 2026", "### 5 March 2026"} <= set(days)
    when = [datetime.strptime(day.removeprefix("### "), "%d %B %Y") for day in days]
    assert when == sorted(set(when))
    items = ctx.section("retrieved").items
    assert [i.source.at for i in items] == sorted(i.source.at for i in items)
    assert all(i.text.startswith(f"[{i.source.label()}] ") for i in items)
    assert ctx.tokens == count_tokens(ctx.text) <= 2000


def test_the_summarys_periods_are_dated_in_words_too(alpha):
    """A summary's period headers carry their days in words beside the ISO form, as every
    other date of a context does, and its cost is counted with them."""
    ctx = alpha.context(STREAM, "What did we talk about?", budget=4000)
    text = ctx.section("summary").items[0].text
    headers = [line for line in text.splitlines() if line.startswith("### ")]
    assert headers
    for header in headers:
        iso, _, spoken = header.removeprefix("### ").partition(" (")
        first = datetime.strptime(iso[:10], "%Y-%m-%d")
        assert spoken.endswith(f"{first.year})") and first.strftime("%B") in spoken, header
    assert ctx.tokens == count_tokens(ctx.text) <= 4000


def test_summary_lines_that_quote_a_recent_turn_give_way_to_it(open_memory):
    mem = open_memory(recent_turns=3)
    said = [
        "The Lisbon office opens on the first of June next year.",
        "Priya is moving the billing service to the new cluster.",
        "The quarterly review moved to the second week of July.",
    ]
    for n, text in enumerate(said):
        mem.add_turn(STREAM, text, "Noted.", at=T0 + timedelta(minutes=n))
    mem.end_session(STREAM)
    mem.process_pending()
    assert "Lisbon office" in mem.summaries(STREAM)[-1].text  # the summary retells the turns
    ctx = mem.context(STREAM, "What is new?", budget=2000)
    assert [i.source.id for i in ctx.section("recent_turns").items] == ["1", "2", "3"]
    assert "summary" not in [s.name for s in ctx.sections]  # it only retold these turns
    repeats = [d for d in ctx.dropped if d.reason == "repeats one of the recent turns"]
    assert repeats and all(d.section == "summary" for d in repeats)


def test_the_owners_preferences_and_the_organisations_routines_reach_a_project(open_memory):
    """Global facts that apply everywhere (issue 36): who holds which role and what was
    decided, and also how the owner and the organisation's people like things done and
    what recurs ("board meeting every last Friday"), whatever the question."""
    mem = open_memory()
    start = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)
    for n, line in enumerate(
        [
            "Our board meeting is every last Friday of the month.",
            "I prefer short answers with bullet points.",
            "Dana is the COO.",
        ]
    ):
        mem.add_turn("global", line, "Noted.", at=start + timedelta(hours=n))
    mem.write_fact(
        "global",
        "Dana prefers one-page memos over slide decks.",
        category="preference",
        subject="dana",
        slot="prefers:memo format",
        value="one-page memos",
    )
    mem.add_turn("project:alpha", "The Alpha deadline is March 27.", "Noted.", at=start)
    mem.process_pending()
    ctx = mem.context("project:alpha", "How is Alpha doing?", 2000)
    shown = " ".join(i.text for s in ctx.sections if s.name == "global_facts" for i in s.items)
    for said in ("board meeting", "bullet points", "Dana is the COO", "one-page memos"):
        assert said in shown, (said, shown)
