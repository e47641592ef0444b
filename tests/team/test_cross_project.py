"""Questions across projects (issue 39, deliverable 5): a question reads every project it
names, by key, tracker name or channel, wherever it is asked; one that names none is
routed by the model; a key that is also a word ("IT") counts only in capitals. Through the
public API on a real SQLite file."""

import csv
from datetime import UTC, datetime, timedelta
from pathlib import Path

from threefold import Memory, load_settings

DAY = datetime(2026, 4, 7, 9, tzinfo=UTC)
PROJECTS = [
    {"stream": "project:nb", "key": "NB", "channels": ["nb-dev"]},
    {"stream": "project:ops", "key": "OPS", "channels": ["portal-ops"]},
    {"stream": "project:it", "key": "IT", "channels": ["helpdesk"]},
]
SAID = [
    ("nb-dev", "Ana", "the release candidate for 4.2 goes to QA on thursday"),
    ("portal-ops", "Bo", "staging is down since 2am, the load balancer certs expired"),
    ("helpdesk", "Cy", "laptop refresh for the new starters is booked for monday"),
]


def _memory(folder: Path) -> Memory:
    chosen = load_settings(
        projects=PROJECTS, embed={"kind": "none"}, sources={"batch_idle_minutes": 0}
    )
    mem = Memory.open(folder / "cross.db", settings=chosen, background_worker=False)
    for minute, (channel, user, text) in enumerate(SAID):
        at = DAY + timedelta(minutes=minute)
        mem.ingest_message(channel=channel, user=user, ts=f"{at.timestamp():.6f}", text=text)
    mem.process_pending()
    return mem


def _tracker(mem: Memory, folder: Path) -> None:
    path = folder / "jira.csv"
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows(
            [
                ["Issue key", "Summary", "Status", "Project key", "Project name", "Updated"],
                ["NB-1", "Notebook 4.2 release", "In Progress", "NB", "Notebook", "06/Apr/26"],
                ["OPS-4", "Renew staging certs", "To Do", "OPS", "Portal Ops", "07/Apr/26"],
            ]
        )
    mem.import_jira(path, now=DAY)


def _projects(mem: Memory, stream: str, query: str) -> list[str]:
    context = mem.context(stream, query, 3000)
    names = [s.name for s in context.sections]
    return [i.text for i in context.section("projects").items] if "projects" in names else []


def test_a_question_naming_two_projects_by_their_tracker_names_reads_both(
    tmp_path: Path,
) -> None:
    with _memory(tmp_path) as mem:
        _tracker(mem, tmp_path)
        read = _projects(
            mem, "global", "Is the Notebook release affected by the Portal Ops staging outage?"
        )
    assert any(t.startswith("[project:nb]") and "release" in t for t in read), read
    assert any(t.startswith("[project:ops]") and "staging" in t for t in read), read


def test_a_channel_names_its_project_and_one_project_asked_elsewhere_is_read(
    tmp_path: Path,
) -> None:
    with _memory(tmp_path) as mem:
        read = _projects(mem, "global", "is staging still down in portal-ops?")
    assert read and all(t.startswith("[project:ops]") for t in read), read


def test_a_key_that_is_a_word_counts_only_in_capitals(tmp_path: Path) -> None:
    with _memory(tmp_path) as mem:
        lower = _projects(mem, "project:nb", "is it booked for monday?")
        upper = _projects(mem, "project:nb", "compare NB and IT: what is booked, what goes to QA?")
    assert lower == [], lower
    assert any(t.startswith("[project:it]") for t in upper), upper
    assert any(t.startswith("[project:nb]") for t in upper), upper


def test_a_question_naming_no_project_is_routed_by_the_model(tmp_path: Path) -> None:
    with _memory(tmp_path) as mem:
        # Names no key, tracker name or channel; the router reads "ops" as the stream's id.
        read = _projects(mem, "global", "did the ops people fix the load balancer yet?")
        chatter = _projects(mem, "global", "lunch?")
    assert read and all(t.startswith("[project:ops]") for t in read), read
    assert chatter == []
