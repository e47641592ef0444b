"""The TeamStore role on its own, on SQLite and on PostgreSQL."""

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from threefold.domain import Visibility
from threefold.errors import NotFound
from threefold.store import Store, open_store
from threefold.store.base import NewRecord, NewTurn

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def store(backend_db: Callable[[], str | Path]) -> Iterator[Store]:
    store = open_store(backend_db())
    yield store
    store.close()


def test_profiles_are_replaced_per_tenant(store: Store) -> None:
    store.put_profile("a", "person:priya", "person", "Priya", {"note": "one"})
    store.put_profile("a", "person:priya", "person", "Priya", {"note": "two"})
    store.put_profile("b", "person:priya", "person", "Priya", {"note": "other tenant"})
    assert store.profile_data("a", "person:priya") == {"note": "two"}
    assert store.profile_names("a") == [("person:priya", "person", "Priya")]
    assert store.profile_data("a", "person:nobody") is None


def test_actions_keep_their_status_and_close_when_gone(store: Store) -> None:
    first, new = store.upsert_action(
        "a", "k1", "rule", "project:x", {"title": "t"}, Visibility.SHARED
    )
    assert new
    store.set_action_status("a", first, "dismissed")
    again, new = store.upsert_action(
        "a", "k1", "rule", "project:x", {"title": "t2"}, Visibility.SHARED
    )
    assert (again, new) == (first, False)
    (row,) = store.action_rows("a")
    assert row["status"] == "dismissed" and row["title"] == "t2"
    second, _ = store.upsert_action("a", "k2", "rule", "project:x", {}, Visibility.PRIVATE)
    assert store.close_missing_actions("a", ["k1"]) == 1
    assert [r["id"] for r in store.action_rows("a", "done")] == [second]
    assert store.action_rows("b") == []
    with pytest.raises(NotFound):
        store.set_action_status("b", first, "done")


def test_digests_by_day_and_zone(store: Store) -> None:
    store.put_digest("a", "chat:1", "2026-03-02", "UTC", {"text": "x"}, Visibility.PRIVATE)
    store.put_digest("a", "chat:1", "2026-03-02", "UTC", {"text": "y"}, Visibility.SHARED)
    store.put_digest("a", "chat:1", "2026-03-02", "Asia/Tokyo", {"text": "z"}, Visibility.SHARED)
    rows = store.digest_rows("a", "chat:1", "2026-03-01", "2026-03-31", "UTC")
    assert rows == [{"day": "2026-03-02", "visibility": "shared", "text": "y"}]
    store.forget_team("a", ["chat:1"], [], [])
    assert store.digest_rows("a", "chat:1", "2026-03-01", "2026-03-31", "UTC") == []


def test_time_windows_read_records_and_turns(store: Store) -> None:
    with store.transaction():
        store.ensure_stream("a", "chat:1")
        for hours in (0, 5, 30):
            store.insert_turn(
                NewTurn(
                    tenant="a",
                    stream="chat:1",
                    user=f"at {hours}",
                    assistant="",
                    at=T0 + timedelta(hours=hours),
                    tokens=2,
                )
            )
            store.insert_record(
                NewRecord(
                    tenant="a",
                    stream="chat:1",
                    source="slack",
                    channel="c",
                    external_id=str(hours),
                    author="Priya",
                    text=f"at {hours}",
                    kind="message",
                    at=T0 + timedelta(hours=hours),
                    route_method="channel",
                    route_confidence=1.0,
                    visibility=Visibility.SHARED,
                    tokens=2,
                )
            )
    day = (T0, T0 + timedelta(days=1))
    assert [t.user for t in store.turns_between("a", "chat:1", *day)] == ["at 0", "at 5"]
    assert [r.text for r in store.records_between("a", None, *day)] == ["at 0", "at 5"]
    assert store.records_between("b", None, *day) == []
