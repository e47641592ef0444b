"""An idle stream's finished weeks and months are rolled up on time: by the clock, from
maintenance, without waiting for a later session."""

from datetime import timedelta

from threefold import SummaryKind
from threefold.domain import utcnow
from threefold.layers.summaries import month_of, week_of
from threefold.pipeline.maintenance import maintain

STREAM = "project:quiet"


def _talk(mem, start, days):
    for day in range(days):
        at = start + timedelta(days=day)
        mem.add_turn(STREAM, f"Day {day}: the badge vendor call went fine.", "Noted.", at=at)
    mem.end_session(STREAM)


def test_a_finished_week_and_month_close_without_a_later_session(open_memory):
    mem = open_memory(session_turns=3)
    last_month = month_of(month_of(utcnow()).start - timedelta(days=1))
    _talk(mem, last_month.start + timedelta(days=1), 9)
    reports = {r.stage: r.count for r in maintain(mem)}
    assert reports["rollups"] >= 1
    weekly = mem.summaries(STREAM, kind=SummaryKind.WEEKLY)
    monthly = mem.summaries(STREAM, kind=SummaryKind.MONTHLY)
    assert [m.period_start for m in monthly] == [last_month.start]
    newest_week = week_of(last_month.start + timedelta(days=9))
    assert weekly[-1].period_start == newest_week.start
    assert "badge vendor" in monthly[0].text


def test_the_week_still_going_is_not_rolled_up(open_memory):
    mem = open_memory(session_turns=3)
    now = utcnow()
    _talk(mem, now - timedelta(hours=3), 1)
    mem.add_turn(STREAM, "The badge vendor signed.", "Good.", at=now - timedelta(hours=1))
    mem.end_session(STREAM)
    maintain(mem)
    assert mem.summaries(STREAM, kind=SummaryKind.SESSION)
    assert all(
        w.period_start != week_of(now).start for w in mem.summaries(STREAM, kind=SummaryKind.WEEKLY)
    )
    assert all(
        m.period_start != month_of(now).start
        for m in mem.summaries(STREAM, kind=SummaryKind.MONTHLY)
    )
