"""A synthetic Slack export, in the layout Slack's workspace export uses, for import benchmarks.

    python benchmarks/slack_synth.py OUT_DIR [--messages 100000] [--channels 30] [--months 12]

Writes users.json, channels.json, groups.json, dms.json and one `<conversation>/<YYYY-MM-DD>.json`
per active day, ending 2026-10-31. Text is team chat from templates with random slots, so
routing, cleaning and extraction all have work; a few percent of joins, bot posts, file shares
and threads, plus one truncated day file for the import's error path. Deterministic in `seed`;
day files are written one at a time, so memory stays flat in `messages`.
"""

import argparse
import bisect
import datetime as dt
import itertools
import json
import random
import string
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

END = dt.date(2026, 10, 31)
VOCABULARY = json.loads((Path(__file__).parent / "data" / "slack_synth.json").read_text())
"""Names, channels, slot words and message templates: the export's raw material, as data."""


def _tuples(value: Any) -> Any:
    return tuple(_tuples(v) for v in value) if isinstance(value, list) else value


NATO: tuple[str, ...] = _tuples(VOCABULARY["nato"])
TEAM_CHANNELS: tuple[str, ...] = _tuples(VOCABULARY["team_channels"])
PRIVATE_CHANNELS: tuple[str, ...] = _tuples(VOCABULARY["private_channels"])
FIRST: tuple[str, ...] = _tuples(VOCABULARY["first"])
LAST: tuple[str, ...] = _tuples(VOCABULARY["last"])
BOTS: tuple[tuple[str, str], ...] = _tuples(VOCABULARY["bots"])
WORDS: dict[str, tuple[str, ...]] = {k: _tuples(v) for k, v in VOCABULARY["words"].items()}
TEMPLATES: dict[str, tuple[str, ...]] = {k: _tuples(v) for k, v in VOCABULARY["templates"].items()}
MIX: dict[str, int] = VOCABULARY["mix"]
"""Category weights for project channels; team channels shift them through FLAVOR."""
FLAVOR: dict[str, dict[str, int]] = VOCABULARY["flavor"]
BOT_TEMPLATES: dict[str, tuple[str, ...]] = {
    k: _tuples(v) for k, v in VOCABULARY["bot_templates"].items()
}


@dataclass(frozen=True)
class ExportShape:
    """What write_export wrote; `messages` counts entries in the readable day files only."""

    messages: int
    channels: int
    """Public channels; `conversations` adds the private channels and DMs."""
    conversations: int
    days: int
    """Calendar days spanned."""
    files: int
    """Day files written, the malformed one included."""
    malformed_files: tuple[str, ...]
    """Paths relative to the export root; their messages are not in `messages`."""
    project_channels: dict[str, tuple[str, str]]
    """Channel name -> (stream, issue key prefix), e.g. proj-alpha -> (project:alpha, ALPHA)."""
    kinds: dict[str, int]
    """Messages by kind: message, thread_reply, channel_join, bot_message, file_share, ..."""


@dataclass
class _Person:
    id: str
    name: str
    first: str
    real_name: str


@dataclass
class _Conversation:
    id: str
    name: str
    """Directory name: the channel name, or the DM id."""
    kind: str
    """public, private or dm."""
    members: list[_Person]
    project: str | None
    created: dt.date


def write_export(
    root: Path, *, messages: int = 100_000, channels: int = 30, months: int = 12, seed: int = 0
) -> ExportShape:
    """Write a synthetic Slack export with `messages` readable messages into `root`."""
    rng = random.Random(seed)
    root.mkdir(parents=True, exist_ok=True)
    days = _days(months)
    people = _people(rng, 60)
    bots = [_Person(_slack_id(rng, "U"), name, name, real) for name, real in BOTS]
    convs = _conversations(rng, people, channels, days)
    _write_json(root / "users.json", _users_json(rng, people, bots))
    for filename, kind in (("channels.json", "public"), ("groups.json", "private")):
        _write_json(root / filename, [_channel_json(c) for c in convs if c.kind == kind])
    _write_json(root / "dms.json", [_dm_json(c) for c in convs if c.kind == "dm"])

    # Reserve one empty cell for the truncated file, so it never shadows a real day file.
    names = [c.name for c in convs]
    broken = (names.index("random") if "random" in names else 0, max(len(days) - 3, 0))
    counts = _allocate(rng, convs, days, messages, broken)
    writer = _Writer(rng, people, bots, convs)
    files = 0
    for ci, conv in enumerate(convs):
        for di, day in enumerate(days):
            if counts[ci][di]:
                writer.write_day(root, conv, day, counts[ci][di])
                files += 1
    conv, day = convs[broken[0]], days[broken[1]]
    malformed = writer.write_broken(root, conv, day)
    return ExportShape(
        messages=messages,
        channels=sum(c.kind == "public" for c in convs),
        conversations=len(convs),
        days=len(days),
        files=files + 1,
        malformed_files=(malformed,),
        project_channels={
            c.name: (f"project:{c.project}", c.project.upper()) for c in convs if c.project
        },
        kinds=dict(sorted(writer.kinds.items())),
    )


def _days(months: int) -> list[dt.date]:
    """Every date in the `months` calendar months ending with END's month."""
    index = END.year * 12 + END.month - 1 - (months - 1)
    start = dt.date(index // 12, index % 12 + 1, 1)
    return [start + dt.timedelta(days=n) for n in range((END - start).days + 1)]


def _slack_id(rng: random.Random, prefix: str) -> str:
    return prefix + "0" + "".join(rng.choices(string.ascii_uppercase + string.digits, k=9))


def _people(rng: random.Random, count: int) -> list[_Person]:
    people, handles = [], set()
    for first in rng.sample(FIRST, min(count, len(FIRST))):
        last = rng.choice(LAST)
        handle = f"{first.lower()}.{last[0].lower()}"
        # Handles must stay unique, as Slack enforces.
        handle = handle if handle not in handles else f"{handle}{len(handles)}"
        handles.add(handle)
        people.append(_Person(_slack_id(rng, "U"), handle, first, f"{first} {last}"))
    return people


def _conversations(
    rng: random.Random, people: list[_Person], count: int, days: list[dt.date]
) -> list[_Conversation]:
    projects = NATO[: min(len(NATO), max(1, count // 3))]
    names = [f"proj-{p}" for p in projects] + list(TEAM_CHANNELS)
    names += [f"team-{n}" for n in range(max(0, count - len(names)))]
    convs = []
    for name in names[:count]:
        project = name.removeprefix("proj-") if name.startswith("proj-") else None
        everyone = name in ("general", "random", "announcements")
        members = people if everyone else rng.sample(people, rng.randint(5, 18))
        # Projects start during the year; team channels predate the export.
        opened = rng.randrange(len(days) // 2) if project else -rng.randint(30, 900)
        created = days[0] + dt.timedelta(days=opened)
        convs.append(_Conversation(_slack_id(rng, "C"), name, "public", members, project, created))
    for name in PRIVATE_CHANNELS:
        members = rng.sample(people, rng.randint(4, 8))
        created = days[0] - dt.timedelta(days=rng.randint(30, 400))
        convs.append(_Conversation(_slack_id(rng, "G"), name, "private", members, None, created))
    for _ in range(6):
        pair = rng.sample(people, 2)
        created = days[0] - dt.timedelta(days=rng.randint(1, 400))
        dm_id = _slack_id(rng, "D")
        convs.append(_Conversation(dm_id, dm_id, "dm", pair, None, created))
    return convs


def _users_json(rng: random.Random, people: list[_Person], bots: list[_Person]) -> list[dict]:
    team = "T0" + "".join(rng.choices(string.ascii_uppercase + string.digits, k=9))
    users = [
        {
            "id": p.id,
            "team_id": team,
            "name": p.name,
            "deleted": False,
            "real_name": p.real_name,
            "tz": "Europe/Berlin",
            "is_bot": False,
            "profile": {"display_name": p.first, "real_name": p.real_name, "title": ""},
        }
        for p in people
    ]
    users += [
        {
            "id": b.id,
            "team_id": team,
            "name": b.name,
            "deleted": False,
            "real_name": b.real_name,
            "is_bot": True,
            "profile": {"display_name": "", "real_name": b.real_name, "bot_id": _bot_id(b)},
        }
        for b in bots
    ]
    return users


def _bot_id(bot: _Person) -> str:
    return "B" + bot.id[1:]


def _epoch(day: dt.date) -> int:
    return int(dt.datetime(day.year, day.month, day.day, tzinfo=dt.UTC).timestamp())


def _channel_json(conv: _Conversation) -> dict:
    text = f"{conv.project.title()} project" if conv.project else f"#{conv.name}"
    return {
        "id": conv.id,
        "name": conv.name,
        "created": _epoch(conv.created),
        "creator": conv.members[0].id,
        "is_archived": False,
        "is_general": conv.name == "general",
        "members": [p.id for p in conv.members],
        "topic": {"value": "", "creator": "", "last_set": 0},
        "purpose": {"value": text, "creator": conv.members[0].id, "last_set": _epoch(conv.created)},
    }


def _dm_json(conv: _Conversation) -> dict:
    return {"id": conv.id, "created": _epoch(conv.created), "members": [p.id for p in conv.members]}


def _allocate(
    rng: random.Random,
    convs: list[_Conversation],
    days: list[dt.date],
    messages: int,
    reserved: tuple[int, int],
) -> list[list[int]]:
    """Messages per (conversation, day): heavy-tailed channels, quiet weekends, busy spells."""
    busy = [
        (1.0 if day.weekday() < 5 else 0.12)
        * rng.lognormvariate(0, 0.35)
        * (4.0 if rng.random() < 0.03 else 1.0)
        for day in days
    ]
    ranks = rng.sample(range(len(convs)), len(convs))  # which channels are the loud ones
    cells, weights = [], []
    for ci, conv in enumerate(convs):
        # Project channels carry the work (and live only part of the year); DMs stay quiet.
        boost = 2.0 if conv.project else 0.25 if conv.kind == "dm" else 1.0
        scale = boost / (ranks[ci] + 1) ** 0.7
        for di, day in enumerate(days):
            if day >= conv.created and (ci, di) != reserved:
                cells.append((ci, di))
                weights.append(scale * busy[di])
    counts = [[0] * len(days) for _ in convs]
    cumulative = list(itertools.accumulate(weights))
    for ci, di in rng.choices(cells, cum_weights=cumulative, k=messages):
        counts[ci][di] += 1
    return counts


class _Slots(dict):
    """Template slots, each filled on first use so a template only pays for what it names."""

    def __init__(self, fill: Callable[["_Slots", str], str]) -> None:
        super().__init__()
        self._fill = fill

    def __missing__(self, name: str) -> str:
        value = self[name] = self._fill(self, name)
        return value


class _Writer:
    """Builds and writes day files; keeps only the counters across days."""

    def __init__(
        self,
        rng: random.Random,
        people: list[_Person],
        bots: list[_Person],
        convs: list[_Conversation],
    ) -> None:
        self.rng = rng
        self.people = people
        self.bots = bots
        self.public = [c for c in convs if c.kind == "public"]
        self.projects = [c.project for c in convs if c.project]
        self.kinds: dict[str, int] = {}
        self.mixes = {c.name: _mix(c) for c in convs}

    def write_day(self, root: Path, conv: _Conversation, day: dt.date, count: int) -> None:
        day_messages = self._day(conv, day, count)
        _write_json(root / conv.name / f"{day.isoformat()}.json", day_messages)
        for message in day_messages:
            kind = message.get("subtype", "thread_reply" if _is_reply(message) else "message")
            self.kinds[kind] = self.kinds.get(kind, 0) + 1

    def write_broken(self, root: Path, conv: _Conversation, day: dt.date) -> str:
        text = json.dumps(self._day(conv, day, 12), indent=4)
        path = root / conv.name / f"{day.isoformat()}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text[: len(text) // 2], encoding="utf-8")  # cut mid-object
        return path.relative_to(root).as_posix()

    def _day(self, conv: _Conversation, day: dt.date, count: int) -> list[dict]:
        base = _epoch(day) * 1_000_000
        stamps = sorted(self._moment() for _ in range(count))
        for n in range(1, count):  # ts is a message id within a channel: keep it unique
            stamps[n] = max(stamps[n], stamps[n - 1] + 1)
        out = [self._message(conv, _ts(base + us)) for us in stamps]
        self._threads(conv, out)
        return out

    def _moment(self) -> int:
        """Microseconds into the day, mostly in office hours (UTC)."""
        hours = min(max(self.rng.gauss(12.5, 3.2), 0.0), 23.99)
        return int(hours * 3600 * 1_000_000) + self.rng.randrange(1_000_000)

    def _message(self, conv: _Conversation, ts: str) -> dict:
        roll = self.rng.random()
        author = self.rng.choice(conv.members)
        if conv.kind == "dm" or roll >= 0.07:
            text = self._text(conv, author)
            return {"type": "message", "user": author.id, "text": text, "ts": ts}
        if roll < 0.03:
            verb = "joined" if roll < 0.02 else "left"
            subtype = "channel_join" if roll < 0.02 else "channel_leave"
            text = f"<@{author.id}> has {verb} the channel"
            return {
                "type": "message",
                "subtype": subtype,
                "user": author.id,
                "text": text,
                "ts": ts,
            }
        if roll < 0.05:
            bot = self.rng.choice(self.bots)
            template = self.rng.choice(BOT_TEMPLATES[bot.name])
            return {
                "type": "message",
                "subtype": "bot_message",
                "bot_id": _bot_id(bot),
                "username": bot.name,
                "text": self._fill(template, conv, author),
                "ts": ts,
            }
        filename = self.rng.choice(WORDS["filename"])
        comment = self._text(conv, author) if self.rng.random() < 0.6 else ""
        file = {
            "id": _slack_id(self.rng, "F"),
            "name": filename,
            "title": filename.rsplit(".", 1)[0].replace("-", " ").title(),
            "filetype": filename.rsplit(".", 1)[1],
            "size": self.rng.randint(2_000, 4_000_000),
        }
        return {
            "type": "message",
            "subtype": "file_share",
            "user": author.id,
            "text": comment,
            "files": [file],
            "upload": True,
            "ts": ts,
        }

    def _threads(self, conv: _Conversation, day: list[dict]) -> None:
        """Turn about 2% of plain messages into parents with 1-5 same-day replies after them."""
        taken = set()
        for n, parent in enumerate(day):
            if n in taken or "subtype" in parent or self.rng.random() >= 0.02:
                continue
            later = (
                m for m in range(n + 1, len(day)) if m not in taken and "subtype" not in day[m]
            )
            replies = list(itertools.islice(later, self.rng.randint(1, 5)))
            if not replies:
                continue
            taken.update([n, *replies])
            parent["thread_ts"] = parent["ts"]
            parent["reply_count"] = len(replies)
            parent["reply_users"] = sorted({day[m]["user"] for m in replies})
            parent["reply_users_count"] = len(parent["reply_users"])
            parent["latest_reply"] = day[replies[-1]]["ts"]
            parent["replies"] = [{"user": day[m]["user"], "ts": day[m]["ts"]} for m in replies]
            for m in replies:
                author = next(p for p in conv.members if p.id == day[m]["user"])
                template = self.rng.choice(TEMPLATES["reply"])
                day[m]["text"] = self._fill(template, conv, author)
                day[m]["thread_ts"] = parent["ts"]
                day[m]["parent_user_id"] = parent["user"]

    def _text(self, conv: _Conversation, author: _Person) -> str:
        categories, cumulative = self.mixes[conv.name]
        pick = categories[bisect.bisect(cumulative, self.rng.random() * cumulative[-1])]
        if pick == "digest":  # a multi-line update, the kind of message summaries must compress
            parts = [self._pick("status"), self._pick("blocker"), self._pick("deadline")]
            template = "Update on {project}:\n• " + "\n• ".join(parts)
        else:
            template = self._pick(pick)
        text = self._fill(template, conv, author)
        return text if self.rng.random() > 0.04 else f"{text}\n(edit: cc <@{author.id}>)"

    def _pick(self, category: str) -> str:
        return self.rng.choice(TEMPLATES[category])

    def _fill(self, template: str, conv: _Conversation, author: _Person) -> str:
        # General channels name a random project's issues, so routing has something to decide.
        project = conv.project or self.rng.choice(self.projects)
        return template.format_map(_Slots(lambda s, name: self._slot(s, name, conv, project)))

    def _slot(self, slots: _Slots, name: str, conv: _Conversation, project: str) -> str:
        rng = self.rng
        match name:
            case "key" | "key2":
                return f"{project.upper()}-{rng.randint(1, 400)}"
            case "other_key":
                return f"{slots['other_project'].upper()}-{rng.randint(1, 400)}"
            case "project":
                return project.title()
            case "other_project":
                others = [p for p in self.projects if p != project] or [project]
                return rng.choice(others).title()
            case "person" | "person2":
                return self._person(slots, name, conv).first
            case "mention":
                return f"<@{rng.choice(conv.members).id}>"
            case "channel_ref":
                target = rng.choice(self.public)
                return f"<#{target.id}|{target.name}>"
            case "version":
                return f"v{rng.randint(1, 3)}.{rng.randint(0, 20)}.{rng.randint(0, 9)}"
            case "pr_link":
                repo = rng.choice(WORDS["repo"])
                return f"<https://github.com/example/{repo}/pull/{rng.randint(100, 9999)}>"
            case "number" | "day" | "build":
                return str(rng.randint(1, {"number": 20, "day": 28, "build": 9000}[name]))
            case "slug":
                return "-".join(
                    rng.sample(
                        (
                            "setup",
                            "api",
                            "v2",
                            "guide",
                            "deploy",
                            "faq",
                            "auth",
                            "billing",
                            "events",
                            "limits",
                        ),
                        2,
                    )
                )
            case "hex":
                return f"{rng.getrandbits(32):08x}"
            case "tech2" | "component2":
                pool = [w for w in WORDS[name[:-1]] if w != slots[name[:-1]]]
                return rng.choice(pool)
        return rng.choice(WORDS[name])

    def _person(self, slots: _Slots, name: str, conv: _Conversation) -> _Person:
        pool = conv.members if len(conv.members) > 2 else self.people
        if name == "person2":  # a handoff goes between two different people
            pool = [p for p in pool if p.first != slots["person"]]
        return self.rng.choice(pool)


def _mix(conv: _Conversation) -> tuple[list[str], list[float]]:
    flavor = FLAVOR.get("dm" if conv.kind == "dm" else conv.name, {})
    weights = {**MIX, **flavor}
    categories = [c for c, w in weights.items() if w > 0]
    return categories, list(itertools.accumulate(weights[c] for c in categories))


def _is_reply(message: dict) -> bool:
    return "thread_ts" in message and message["thread_ts"] != message["ts"]


def _ts(microseconds: int) -> str:
    seconds, micros = divmod(microseconds, 1_000_000)
    return f"{seconds}.{micros:06d}"


def _write_json(path: Path, value: Sequence[dict]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # Compact, not Slack's indent=4: the indenting encoder is pure Python and 5x slower.
    path.write_text(json.dumps(value), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("out", type=Path, help="directory to write the export into")
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--channels", type=int, default=30)
    parser.add_argument("--months", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    started = time.perf_counter()
    shape = write_export(
        args.out,
        messages=args.messages,
        channels=args.channels,
        months=args.months,
        seed=args.seed,
    )
    seconds = time.perf_counter() - started
    print(
        f"{shape.messages:,} messages in {shape.files:,} day files, {shape.conversations} "
        f"conversations, {shape.days} days, in {seconds:.1f}s ({shape.messages / seconds:,.0f}/s)"
    )
    print("kinds:", ", ".join(f"{k} {v:,}" for k, v in shape.kinds.items()))
    print("malformed:", ", ".join(shape.malformed_files))


if __name__ == "__main__":
    main()
