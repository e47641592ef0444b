"""A real Slack export as chat conversations, for the recall benchmarks.

    python benchmarks/recall_slack.py EXPORT_DIR QUESTIONS.json [--pairs] [--budgets ...]

A Slack workspace export (`users.json`, `channels.json`, `<channel>/<YYYY-MM-DD>.json`) is
read into one conversation per channel, in the shape of LoCoMo's (benchmarks/locomo.py),
so that every recall method is measured alike: each message is a line with its author
(an integration's posts, such as GitHub's, under the integration's name), its text with
mentions and links written as a reader sees them, and the text of its attachments; joins
and integration notices are left out. A day is a session. The export is never copied
into this repository: the questions name their evidence by channel and message ts.
"""

import json
import re
from datetime import UTC, datetime
from pathlib import Path

from locomo import Conversation, Line, Question

from threefold.sources.slack import clean_markup

NOTICES = frozenset({"channel_join", "channel_leave", "bot_add", "bot_remove", "channel_topic"})
_MENTION = re.compile(r"<@(U\w+)(?:\|[^>]*)?>")
_LINK = re.compile(r"<(https?://[^|>]+)(?:\|([^>]+))?>")


def load_channels(export: Path, links: str = "label") -> dict[str, list[Line]]:
    """Each channel's lines, oldest first; `links` "label" writes a link as its label (what
    Slack shows), "imported" as threefold's Slack import stores it ("label (url)")."""
    users = {u["id"]: u.get("name") or u["id"] for u in _read(export / "users.json")}
    channels = {}
    for channel in _read(export / "channels.json"):
        name = channel["name"]
        messages = []
        for day in sorted((export / name).glob("*.json")):
            messages += [m for m in _read(day) if m.get("subtype") not in NOTICES]
        messages.sort(key=lambda m: float(m["ts"]))
        days = sorted({_moment(m).date() for m in messages})
        lines = [_line(m, users, days.index(_moment(m).date()) + 1, links) for m in messages]
        channels[name] = [line for line in lines if line.text]
    return channels


def conversations(export: Path, questions_file: Path, links: str = "label") -> list[Conversation]:
    """One conversation per channel that a question asks about, with its questions."""
    channels = load_channels(export, links)
    asked: dict[str, list[Question]] = {}
    unknown: dict[str, list[str]] = {}
    for q in json.loads(questions_file.read_text(encoding="utf-8"))["questions"]:
        known = {line.dia_id for line in channels[q["channel"]]}
        evidence = tuple(ts for ts in q["evidence"] if ts in known)
        unknown.setdefault(q["channel"], []).extend(ts for ts in q["evidence"] if ts not in known)
        asked.setdefault(q["channel"], []).append(
            Question(q["question"], q["answer"], evidence, q["category"])
        )
    return [
        Conversation(name, tuple(channels[name]), tuple(qs), tuple(unknown[name]))
        for name, qs in asked.items()
    ]


def _moment(message: dict) -> datetime:
    return datetime.fromtimestamp(float(message["ts"]), tz=UTC)


def _line(message: dict, users: dict[str, str], session: int, links: str) -> Line:
    """One message as a line; its day is its session."""
    at = _moment(message)
    author = users.get(message.get("user", ""), message.get("username") or "integration")
    parts = [message.get("text", "")]
    for attachment in message.get("attachments", ()):
        parts += [attachment.get("pretext", ""), attachment.get("text", "")]
    text = " ".join(_readable(p, users, links) for p in parts if p and p.strip())
    day = at.date()
    return Line(
        dia_id=message["ts"],
        speaker=author if "bot_id" not in message else "github",
        text=" ".join(text.split()),
        caption=None,
        at=at,
        session=session,
        session_time=f"{day:%d %B, %Y}",
        # an integration's post is no person's word (context/staleness.py)
        source="bot"
        if "bot_id" in message or message.get("subtype") == "bot_message"
        else "conversation",
    )


def _readable(text: str, users: dict[str, str], links: str) -> str:
    text = _MENTION.sub(lambda m: "@" + users.get(m[1], m[1]), text)
    if links == "imported":
        text = _LINK.sub(lambda m: clean_markup(m[0], {}, {}), text)
    else:
        text = _LINK.sub(lambda m: m[2] or m[1], text)
    return text.replace("&gt;", ">").replace("&lt;", "<").replace("&amp;", "&")


def _read(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))
