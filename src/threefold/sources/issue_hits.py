"""Jira issues among search hits: each issue once, as its newest export says it, and only
the open ones when the question asks how things stand.

An issue is stored once per update time, so a search may find several versions of it; the
older ones contradict the newer (another sprint, another status) and only cost room.
"""

import re
from collections.abc import Sequence

from threefold.sources.workflow import finished_status
from threefold.store.base import Item

ISSUE_SOURCE = "jira.issue"
_KEY = re.compile(r"(?:[^:\n]{1,200}: )?([A-Z][A-Z0-9_]*-\d+) \[")
"""A row as search shows it, "<reporter>: EL-5 [Bug] ...": the reporter may be anyone."""
_STATUS = re.compile(r"\(status ([^,)]+)")
_STATUS_QUESTION = re.compile(
    r"\b(status|state|open|progress|going|stand|blocked|blocking|left|remaining|pending|"
    r"outstanding|to do|todo|backlog|where are we)\b",
    re.IGNORECASE,
)
_ASKS_FOR_FINISHED = re.compile(
    r"\b(done|finished|closed|completed|resolved|shipped|fixed)\b", re.IGNORECASE
)


def issue_key(hit: Item) -> str | None:
    if hit.kind != "record" or hit.source.kind != ISSUE_SOURCE:
        return None
    match = _KEY.match(hit.text)
    return match[1] if match else None


def current_issues(hits: Sequence[Item], query: str) -> list[Item]:
    """`hits` with each issue's older versions left out, and, for a question about how
    things stand, its finished issues too (unless it names them or asks for them)."""
    newest: dict[str, Item] = {}
    for hit in hits:
        key = issue_key(hit)
        if key is not None and _newer(hit, newest.get(key)):
            newest[key] = hit
    drop_finished = _asks_status(query)
    named = {m.upper() for m in re.findall(r"\b[A-Za-z][A-Za-z0-9_]*-\d+\b", query)}

    def shown(hit: Item) -> bool:
        key = issue_key(hit)
        if key is None:
            return True
        hidden = drop_finished and key not in named and _finished(hit)
        return newest[key] is hit and not hidden

    return [hit for hit in hits if shown(hit)]


def _newer(hit: Item, other: Item | None) -> bool:
    return other is None or _version(hit) > _version(other)


def _version(hit: Item) -> tuple[float, int]:
    return (hit.at.timestamp() if hit.at else 0.0, hit.id)


def _asks_status(query: str) -> bool:
    return bool(_STATUS_QUESTION.search(query)) and not _ASKS_FOR_FINISHED.search(query)


def _finished(hit: Item) -> bool:
    match = _STATUS.search(hit.text)
    return match is not None and finished_status(match[1])
