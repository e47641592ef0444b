"""The time a query names: absolute days and months only."""

from datetime import UTC, datetime

import pytest

from threefold.recall.timeframe import timeframe_of


def day(y, m, d):
    return datetime(y, m, d, tzinfo=UTC)


@pytest.mark.parametrize(
    ("query", "since", "until"),
    [
        ("What did Joanna watch on 1 May, 2022?", day(2022, 4, 30), day(2022, 5, 3)),
        ("the painting from October 13, 2023", day(2023, 10, 12), day(2023, 10, 15)),
        ("decided on 2024-02-29?", day(2024, 2, 28), day(2024, 3, 2)),
        ("Where did she travel in July 2022?", day(2022, 6, 30), day(2022, 8, 2)),
        ("in Feb. 2024", day(2024, 1, 31), day(2024, 3, 2)),
        ("between May 2022 and 3 June 2022", day(2022, 4, 30), day(2022, 6, 5)),
    ],
)
def test_absolute_dates_name_a_span(query, since, until):
    frame = timeframe_of(query)
    assert frame is not None and (frame.since, frame.until) == (since, until)


@pytest.mark.parametrize(
    "query",
    [
        "What did we decide last week?",
        "the demo on Friday",
        "due March 3",
        "in 2023",
        "on 2023-02-30",
        "mayday 2022",
        "",
    ],
)
def test_relative_or_vague_time_names_none(query):
    assert timeframe_of(query) is None
