"""A search with an empty query lists what the filters let through, newest first."""

from datetime import UTC, datetime, timedelta

T0 = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def test_an_empty_query_lists_by_recency_with_filters(open_memory):
    mem = open_memory(embed={"kind": "hashing"})
    for day in range(5):
        mem.add_turn(
            "chat:a", user=f"Note for day {day}.", assistant="ok", at=T0 + timedelta(days=day)
        )
    mem.add_turn("chat:b", user="Elsewhere entirely.", assistant="ok", at=T0 + timedelta(days=9))
    mem.process_pending()
    listed = mem.search("", stream="chat:a", kinds=["turn"], limit=3)
    assert [hit.at for hit in listed] == [T0 + timedelta(days=d) for d in (4, 3, 2)]
    assert all(hit.stream == "chat:a" for hit in listed)
    everything = mem.search("   ", kinds=["turn"])
    assert everything[0].text.startswith("Elsewhere")
    window = mem.search(
        "", kinds=["turn"], since=T0 + timedelta(days=1), until=T0 + timedelta(days=3)
    )
    assert sorted(hit.at for hit in window) == [T0 + timedelta(days=d) for d in (1, 2, 3)]
