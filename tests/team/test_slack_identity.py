"""A Slack user is their account, not their name (issue 39's bad inputs): a person renamed
in Slack keeps one profile and one timeline, two users showing the same name keep two,
and a user id, a handle or a full name finds them; a tracker's full name is the chat's
person. Through the public API, on SQLite and PostgreSQL."""

import csv
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

from tests.sources.exports import msg, write_export
from threefold import Memory, load_settings

NOW = datetime(2017, 3, 25, 9, tzinfo=UTC)
DAY, LATER = "2017-03-20", "2017-03-22"
ANA = {"id": "U1", "name": "ana.silva", "real_name": "Ana Silva"}
BEA = {"id": "U22", "name": "bea", "real_name": "Beatriz Lopes"}
CHANNELS = [{"id": "C1", "name": "general"}]


def _user(user: dict, shown: str) -> dict:
    return {**user, "profile": {"display_name": shown}}


def _import(mem: Memory, folder: Path, users: list[dict], day: str, said: list[dict]) -> None:
    mem.import_slack(write_export(folder, {"general": {day: said}}, users=users, channels=CHANNELS))
    mem.process_pending()


def _memory(database: Callable[[], str | Path]) -> Memory:
    chosen = load_settings(embed={"kind": "none"})
    return Memory.open(database(), settings=chosen, background_worker=False)


def _people(mem: Memory) -> list[str]:
    mem.rebuild_team(now=NOW)
    return sorted(name for _, kind, name in mem.store.profile_names("default") if kind == "person")


def test_a_person_renamed_in_slack_keeps_one_profile_and_one_timeline(
    tmp_path: Path, backend_db: Callable[[], str | Path]
) -> None:
    with _memory(backend_db) as mem:
        first = [msg("1490000000.000100", "the label printer is fixed", "U22")]
        _import(mem, tmp_path / "a", [_user(BEA, "bea")], DAY, first)
        renamed = [msg("1490176800.000100", "shipping the dock report today", "U22")]
        _import(mem, tmp_path / "b", [_user(BEA, "Beatriz")], LATER, renamed)
        people = _people(mem)
        profile = mem.profile("Beatriz")
        by_old_name = mem.profile("bea")
        timelines = {asked: mem.timeline(asked) for asked in ("bea", "Beatriz", "U22", "@bea")}
    assert people == ["Beatriz"]
    assert profile.entity == by_old_name.entity
    activity = " ".join(item.text for item in profile.recent_activity)
    assert "label printer" in activity and "dock report" in activity
    for asked, entries in timelines.items():
        said = " ".join(e.text for e in entries)
        assert "label printer" in said and "dock report" in said, asked


def test_two_users_showing_one_name_are_two_people(
    tmp_path: Path, backend_db: Callable[[], str | Path]
) -> None:
    other = {"id": "U2", "name": "ana.braga", "real_name": "Ana Braga"}
    with _memory(backend_db) as mem:
        said = [
            msg("1490000000.000100", "the pallet scanner firmware is out", "U1"),
            msg("1490000060.000100", "I moved the cycle count to friday", "U2"),
        ]
        _import(mem, tmp_path / "a", [_user(ANA, "ana"), _user(other, "ana")], DAY, said)
        people = _people(mem)
        asked = mem.profile("ana")
        first = " ".join(e.text for e in mem.timeline("U1"))
        second = " ".join(e.text for e in mem.timeline("@ana.braga"))
        by_full_name = mem.profile("Ana Braga")
    assert people == ["ana (U1)", "ana (U2)"]
    assert "may mean" in asked.note and asked.recent_activity == ()
    assert "firmware" in first and "cycle count" not in first
    assert "cycle count" in second and "firmware" not in second
    assert "cycle count" in " ".join(item.text for item in by_full_name.recent_activity)


def test_a_tracker_full_name_is_the_chat_person_of_that_name(
    tmp_path: Path, backend_db: Callable[[], str | Path]
) -> None:
    with _memory(backend_db) as mem:
        said = [msg("1490000000.000100", "picking up the returns flow next", "U22")]
        _import(mem, tmp_path / "a", [_user(BEA, "bea")], DAY, said)
        path = tmp_path / "jira.csv"
        with path.open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows(
                [
                    ["Issue key", "Summary", "Status", "Assignee", "Updated"],
                    ["WMS-3", "Returns flow", "In Progress", "Beatriz Lopes", "21/Mar/17"],
                ]
            )
        mem.import_jira(path, now=NOW)
        people = _people(mem)
        work = " ".join(item.text for item in mem.profile("bea").current_work)
    assert people == ["bea"]
    assert "WMS-3" in work
