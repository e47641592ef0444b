"""A Jira import and a Slack backfill hold this process's job worker while they store, as
a Slack export's import does: a job made due mid-import waits (it would share the
interpreter lock with the import), runs once the import ends, and still runs when the
import fails midway, which keeps what it stored."""

import csv
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from tests.sources.exports import msg
from tests.sources.slack_fake import FakeSlack
from threefold import Memory
from threefold.errors import SourceError
from threefold.sources.slack_api import slack_api

T0 = 1772442000  # 2026-03-02 09:00 UTC
TOKEN = "xoxb-test-token"
CHAT = "chat:side"
HEADER = ["Summary", "Issue key", "Issue Type", "Status", "Assignee", "Updated"]


def jira_csv(path: Path, issues: int) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        for n in range(1, issues + 1):
            writer.writerow(
                [f"Crane part {n}", f"ALPHA-{n}", "Task", "To Do", "Raj", "10/Mar/26 4:00 PM"]
            )
    return path


def settled(mem: Memory, seconds: float = 20) -> dict[str, int]:
    """The pending jobs once the worker has had `seconds` to run them."""
    deadline = time.monotonic() + seconds
    while mem.backlog().jobs and time.monotonic() < deadline:
        time.sleep(0.05)
    return mem.backlog().jobs


class SideTurn:
    """A progress callback that, on its first call (mid-import), adds a turn to another
    stream, which queues its jobs and wakes the worker, and notes the jobs still pending
    half a second later; `fail` makes that call raise, as a caller's callback may."""

    def __init__(self, mem: Memory, fail: bool = False) -> None:
        self.mem, self.fail = mem, fail
        self.pending: list[dict[str, int]] = []

    def __call__(self, done: int, total: int) -> None:
        if self.pending:
            return
        self.mem.add_turn(CHAT, "The crane inspection is on Thursday afternoon.", "Noted.")
        time.sleep(0.5)
        self.pending.append(self.mem.backlog().jobs)
        if self.fail:
            raise RuntimeError("the caller's progress display broke")


@pytest.fixture
def worker_memory(open_memory) -> Callable[..., Memory]:
    def opened(**settings: object) -> Memory:
        mem = open_memory(embed={"kind": "hashing"}, worker=True, **settings)
        assert settled(mem) == {}
        return mem

    return opened


def test_a_jira_import_holds_the_worker_until_it_ends(worker_memory, tmp_path: Path) -> None:
    mem = worker_memory()
    side = SideTurn(mem)
    report = mem.import_jira(jira_csv(tmp_path / "jira.csv", 3), progress=side)
    assert report.kept == 3
    assert side.pending and side.pending[0].get("embed") == 1  # waited through the import
    assert settled(mem) == {}  # and ran after it
    assert mem.backlog().unembedded == 0  # the side turn's vector and the issues'


def test_a_jira_import_failing_midway_keeps_its_rows_and_lets_the_jobs_run(
    worker_memory, tmp_path: Path
) -> None:
    mem = worker_memory()
    side = SideTurn(mem, fail=True)
    with pytest.raises(RuntimeError, match="progress display broke"):
        mem.import_jira(jira_csv(tmp_path / "jira.csv", 700), progress=side)
    assert side.pending[0].get("embed") == 1
    assert settled(mem) == {}
    # The first 500 rows were committed before the callback broke; the rest were not read.
    stored = mem.records("project:alpha", limit=1000)
    assert len(stored) == 500
    again = mem.import_jira(jira_csv(tmp_path / "jira.csv", 700))
    assert (again.kept, again.duplicates) == (200, 500)


@pytest.fixture
def slack() -> Iterator[FakeSlack]:
    with FakeSlack(token=TOKEN, page_size=2) as fake:
        fake.users = [{"id": "U1", "name": "ann", "profile": {"display_name": "Ann"}}]
        fake.channels = [{"id": "C1", "name": "proj-alpha", "is_member": True}]
        fake.history["C1"] = [
            msg(f"{T0 + m * 60}.000100", f"Crane note {m}.", "U1") for m in range(6)
        ]
        yield fake


@pytest.fixture
def client() -> Iterator[httpx.Client]:
    with httpx.Client(timeout=10) as http:
        yield http


def slack_settings(slack: FakeSlack) -> dict[str, object]:
    return {
        "projects": [{"stream": "project:alpha", "key": "ALPHA", "channels": ["proj-alpha"]}],
        "slack": {"bot_token": TOKEN, "api_base": slack.url},
    }


def test_a_backfill_holds_the_worker_until_it_ends(worker_memory, slack, client) -> None:
    mem = worker_memory(**slack_settings(slack))
    side = SideTurn(mem)
    report = mem.backfill_slack(slack_api(mem.settings, client), progress=side)
    assert report.kept == 6
    assert side.pending and side.pending[0].get("embed") == 1
    assert settled(mem) == {}


def test_a_backfill_stopped_by_an_expired_token_lets_the_jobs_run(
    worker_memory, slack, client
) -> None:
    mem = worker_memory(**slack_settings(slack))
    pages = 0

    def expire_on_the_second_page(method: str, params: dict[str, str]) -> str | None:
        nonlocal pages
        if method == "conversations.history":
            pages += 1
            if pages == 2:
                return "token_expired"
        return None

    slack.script(*[expire_on_the_second_page] * 100)
    side = SideTurn(mem)
    with pytest.raises(SourceError, match="token_expired"):
        mem.backfill_slack(slack_api(mem.settings, client), progress=side)
    assert side.pending and side.pending[0].get("embed") == 1
    assert settled(mem) == {}
    assert len(mem.records("project:alpha")) == 2  # the first page, kept
