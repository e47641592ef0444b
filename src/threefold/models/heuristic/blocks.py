"""The summary text format: dated period blocks of bullet lines, oldest first.

    ### 2026-11-02 – 2026-11-04
    - Decided to use Postgres for the database.
    - Open: the CI pipeline keeps failing on the integration tests.

    ### 2026-11-09
    - Assistant: suggested splitting the migration into two releases.

A header is '### ' and the first and last day (one day when they are equal), separated by
' – '. Open items are '- Open: ' lines and survive compaction. Text in any other shape
(an LLM's prose, say) parses as one undated block of its lines, so nothing is ever lost
or rejected.
"""

import re
from dataclasses import dataclass, field
from datetime import date
from functools import lru_cache

from threefold.models.heuristic.text import content_words, jaccard

_HEADER_RE = re.compile(
    r"^#{1,6}\s*(?P<start>\d{4}-\d{2}-\d{2})(?:\s*(?:–|—|-|to|\.\.)\s*(?P<end>\d{4}-\d{2}-\d{2}))?"
    r"\s*$"
)
_OPEN_RE = re.compile(r"^[-*•]\s*open\s*:\s*", re.IGNORECASE)
_BULLET_RE = re.compile(r"^[-*•]\s+")
OPEN_PREFIX = "- Open: "


@dataclass
class Block:
    start: date | None = None
    end: date | None = None
    lines: list[str] = field(default_factory=list)
    """Rendered lines ('- ...'), in the order they were written."""

    @property
    def dated(self) -> bool:
        return self.start is not None and self.end is not None

    def header(self) -> str:
        if self.start is None or self.end is None:
            return ""
        if self.start == self.end:
            return f"### {self.start.isoformat()}"
        return f"### {self.start.isoformat()} – {self.end.isoformat()}"


def _day(text: str) -> date | None:
    try:
        return date.fromisoformat(text)
    except ValueError:
        return None


def parse(text: str) -> list[Block]:
    """The blocks of `text`; anything before the first header is one undated block."""
    blocks: list[Block] = []
    current = Block()
    for raw in text.replace("\x00", " ").splitlines():
        line = raw.strip()
        header = _HEADER_RE.match(line)
        start = _day(header["start"]) if header else None
        if header and start:
            if current.lines or current.dated:
                blocks.append(current)
            end = _day(header["end"] or header["start"]) or start
            current = Block(min(start, end), max(start, end))
        elif line:
            current.lines.append(line)
    if current.lines or current.dated:
        blocks.append(current)
    return [b for b in blocks if b.lines]


def render(blocks: list[Block]) -> str:
    parts = []
    for block in blocks:
        if not block.lines:
            continue
        head = block.header()
        parts.append("\n".join([head, *block.lines] if head else block.lines))
    return "\n\n".join(parts)


def is_open(line: str) -> bool:
    return bool(_OPEN_RE.match(line))


def body(line: str) -> str:
    """A line's words without its bullet or 'Open:' marker."""
    return _BULLET_RE.sub("", _OPEN_RE.sub("", line)).strip()


def bullet(line: str) -> str:
    """`line` as a bullet line, keeping an existing bullet or Open marker."""
    line = line.strip()
    if is_open(line):
        return OPEN_PREFIX + body(line)
    return line if _BULLET_RE.match(line) else f"- {line}"


def same_item(a: str, b: str) -> bool:
    """Whether two lines say the same thing, give or take wording."""
    (left, left_words), (right, right_words) = _item(a), _item(b)
    return left == right or jaccard(left_words, right_words) >= 0.8


# Merges and roll-ups compare every line with every other: each line is read once.
@lru_cache(maxsize=4096)
def _item(line: str) -> tuple[str, frozenset[str]]:
    said = body(line).lower()
    return said, content_words(said)
