"""A fact's line in the context names its source turn with the days from that turn's to
the last time it was said, when it was said again on a later day: "[turn:1, 4 May – 13
June 2026]", never turn 1 beside turn 2's date alone."""

from datetime import UTC, date, datetime, timedelta

import pytest

from threefold.dates import spoken_span

CHAT = "chat:home"
MAY = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)


def fact_lines(mem, query: str) -> list[str]:
    ctx = mem.context(CHAT, query, 2000)
    return [item.text for item in ctx.section("stream_facts").items]


@pytest.mark.parametrize(
    ("later", "shown"),
    [
        (timedelta(days=40), "4 May – 13 June 2026"),  # said again on a later day
        (timedelta(hours=5), "4 May 2026"),  # said again the same day: one day
    ],
)
def test_a_fact_said_again_names_the_days_from_its_source(open_memory, later, shown) -> None:
    mem = open_memory()
    first = mem.add_turn(CHAT, "I live in Leeds.", "Nice.", at=MAY)
    mem.add_turn(CHAT, "I live in Leeds.", "You said.", at=MAY + later)
    mem.process_pending()
    (home,) = [line for line in fact_lines(mem, "where do I live?") if "Leeds" in line]
    assert f"[turn:{first.id}, {shown}]" in home


def test_spans_are_written_as_people_write_them() -> None:
    assert spoken_span(date(2026, 5, 5), date(2026, 5, 6)) == "5–6 May 2026"
    assert spoken_span(date(2026, 10, 7), date(2026, 12, 9)) == "7 October – 9 December 2026"
    assert spoken_span(date(2026, 12, 30), date(2027, 1, 2)) == "30 December 2026 – 2 January 2027"
    assert spoken_span(date(2026, 5, 6), date(2026, 5, 6)) == "6 May 2026"
