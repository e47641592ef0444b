"""A quality team's chat for the team tests: project QG, whose channel is #qa-room, on a
real SQLite file, messages digested as soon as they arrive, no vectors."""

from datetime import datetime
from pathlib import Path

from threefold import Memory, load_settings


def qa_memory(folder: Path, **settings: object) -> Memory:
    chosen = load_settings(
        projects=[{"stream": "project:qg", "key": "QG", "channels": ["qa-room"]}],
        embed={"kind": "none"},
        sources={"batch_idle_minutes": 0},
        **settings,
    )
    return Memory.open(folder / "qa.db", settings=chosen, background_worker=False)


def say(
    mem: Memory, user: str, text: str, at: datetime, thread: datetime | None = None, **extra: object
) -> str:
    """`user` says `text` in #qa-room at `at` (in the thread begun at `thread`); its ts."""
    ts = f"{at.timestamp():.6f}"
    if thread is not None:
        extra["thread_ts"] = f"{thread.timestamp():.6f}"
    mem.ingest_message(channel="qa-room", user=user, ts=ts, text=text, **extra)
    return ts
