"""Dates at the calendar's edges (issue 40, F2): a question, a turn or an event time may
name 0001-01-01 or 9999-12-31, and the day before or after it is no error of theirs. Every
face answers, and no turn loses its facts."""

import logging
from datetime import UTC, date, datetime, time
from pathlib import Path

import anyio
import pytest
from mcp import Client

from tests.conftest import MemoryFactory, fact
from tests.scripted_model import ScriptedModel
from tests.security.faces import faces
from threefold.dates import annotate, find_dates, leading_date
from threefold.domain import Trust
from threefold.faces.mcp import build_server
from threefold.layers.summaries import month_of, week_of
from threefold.models.base import ExtractedFact, TurnInput
from threefold.recall.timeframe import timeframe_of

STREAM = "project:alpha"
EDGES = (
    "0001-01-01",
    "9999-12-31",
    "10000-01-01",
    "in December 9999",
    "January 0001",
    "December 31, 9999",
    "the 32nd.",
    "2023-02-29",
    "February 29, 2023",
)
"""The bad input issue 40 lists: the calendar's first and last days and the day past it,
a day no month has, a leap day in a year without one."""


@pytest.mark.parametrize("named", EDGES)
def test_a_question_naming_an_edge_day_is_answered_on_every_face(
    tmp_path: Path, named: str
) -> None:
    question = f"What happened on {named}?"
    with faces(tmp_path) as f:
        f.memory.write_fact(STREAM, "The badge vendor is Acme.")
        renderings = f.renderings(STREAM, question)
        searched = f.post(Trust.FULL, "/v1/search", {"query": question, "stream": STREAM})
        mcp = anyio.run(_mcp_search, f.memory, question)
    assert searched.status_code == 200, searched.text
    assert not mcp.is_error, mcp
    for face, text in renderings.items():
        assert "Acme" in text, face


async def _mcp_search(memory, question: str):  # type: ignore[no-untyped-def]
    async with Client(build_server(memory, memory.tenant, Trust.FULL)) as client:
        return await client.call_tool("memory_search", {"query": question, "stream": STREAM})


def test_a_deadline_on_the_last_day_of_the_calendar_is_kept(tmp_path: Path) -> None:
    with faces(tmp_path) as f:
        answer = f.post(
            Trust.FULL, "/v1/turns", {"stream": STREAM, "user": "My deadline is 9999-12-31."}
        )
        assert answer.status_code == 201, answer.text
        f.memory.process_pending()
        facts = f.memory.facts(STREAM)
        jobs = f.memory.job_counts()
    assert any("9999-12-31" in fact.text for fact in facts), [x.text for x in facts]
    assert jobs["failed"] == 0 and jobs["pending"] == 0


@pytest.mark.parametrize(
    "at", [datetime(9999, 12, 31, 23, tzinfo=UTC), datetime(1, 1, 1, 1, tzinfo=UTC)]
)
def test_turns_at_the_calendars_edges_are_summarised_and_rolled_up(
    tmp_path: Path, at: datetime
) -> None:
    # Hostile input: the owner dates turns at the calendar's first and last hours; every
    # summary, roll-up and extraction job of theirs finishes.
    with faces(tmp_path, session_turns=2) as f:
        for n in range(4):
            f.memory.add_turn(STREAM, f"Step {n}: the deadline is tomorrow.", "Noted.", at=at)
        f.memory.end_session(STREAM)
        f.memory.process_pending()
        jobs = f.memory.job_counts()
        text = f.renderings(STREAM, "What is the deadline?")["http"]
    assert jobs["failed"] == 0 and jobs["pending"] == 0
    assert "Step 3" in text


@pytest.mark.parametrize(
    "today",
    [date.min, date(1, 1, 2), date(1, 1, 7), date(9999, 12, 25), date(9999, 12, 30), date.max],
)
def test_every_date_phrase_resolves_within_the_calendar(today: date) -> None:
    phrases = (
        "tomorrow",
        "the day after tomorrow",
        "yesterday",
        "two weeks ago",
        "end of the week",
        "end of the year",
        "in 3 days",
        "in 2 weeks",
        "in 3 months",
        "next Friday",
        "last Friday",
        "this coming Monday",
        "the 31st.",
        "March 27",
        "Feb 29",
        "January 1",
        *EDGES,
    )
    at = datetime.combine(today, time(12), tzinfo=UTC)
    for phrase in phrases:
        for text in (phrase, f"The deadline is {phrase}.", f"We shipped it {phrase}."):
            for hit in find_dates(text, at):
                assert date.min <= hit.day <= date.max
            annotate(text, at)
            leading_date(text, at)


def test_timeframes_and_periods_are_held_at_the_calendars_edges() -> None:
    last = timeframe_of("what happened on 9999-12-31?")
    first = timeframe_of("and on 0001-01-01?")
    assert last is not None and last.until == datetime.max.replace(tzinfo=UTC)
    assert first is not None and first.since == datetime.min.replace(tzinfo=UTC)
    end = datetime(9999, 12, 31, 23, tzinfo=UTC)
    assert week_of(end).end == month_of(end).end == datetime.max.replace(tzinfo=UTC)
    assert week_of(end).start == datetime(9999, 12, 27, tzinfo=UTC)


def test_a_fact_whose_reconciliation_fails_is_kept_and_the_failure_logged(
    open_memory: MemoryFactory, caplog: pytest.LogCaptureFixture
) -> None:
    # Hostile input: reconciling one item of a turn raises (a value the model or the
    # similarity search cannot take); the turn's facts are stored without the verdict.
    def read(turn: TurnInput) -> list[ExtractedFact]:
        return [fact("raj", f"role:{turn.user[-2:]}", "lead", text="Raj is the lead architect.")]

    model = ScriptedModel(read)
    mem = open_memory(model)
    mem.add_turn(STREAM, "first t1", "Noted.")
    mem.process_pending()
    model.fail["reconcile"] = 99
    mem.add_turn(STREAM, "again t2", "Noted.")
    with caplog.at_level(logging.WARNING):
        mem.process_pending()
    assert model.calls["reconcile"] >= 1
    assert {f.slot for f in mem.facts(STREAM)} == {"role:t1", "role:t2"}
    assert mem.job_counts()["failed"] == 0
    assert "reconcil" in caplog.text
