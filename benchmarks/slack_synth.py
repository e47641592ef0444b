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

END = dt.date(2026, 10, 31)
NATO = (
    "alpha",
    "bravo",
    "charlie",
    "delta",
    "echo",
    "foxtrot",
    "golf",
    "hotel",
    "india",
    "juliet",
    "kilo",
    "lima",
)
TEAM_CHANNELS = (
    "general",
    "random",
    "eng",
    "design",
    "support",
    "incidents",
    "releases",
    "infra",
    "data",
    "qa",
    "mobile",
    "frontend",
    "backend",
    "security",
    "oncall",
    "product",
    "marketing",
    "sales",
    "hiring",
    "announcements",
    "watercooler",
    "ops",
    "analytics",
    "docs",
)
PRIVATE_CHANNELS = ("leads", "hiring-panel")
FIRST = (
    "Priya",
    "Raj",
    "Ana",
    "Tom",
    "Mei",
    "Lukas",
    "Sofia",
    "Omar",
    "Grace",
    "Diego",
    "Hannah",
    "Kenji",
    "Fatima",
    "Ben",
    "Chloé",
    "Ivan",
    "Nora",
    "Sam",
    "Aisha",
    "Mateo",
    "Elena",
    "Kwame",
    "Julia",
    "Arjun",
    "Zoë",
    "Liam",
    "Yuki",
    "Carlos",
    "Emma",
    "Noah",
    "Leila",
    "Oscar",
    "Ingrid",
    "Tariq",
    "Mia",
    "Jonas",
    "Amara",
    "Felix",
    "Rosa",
    "Hugo",
    "Sara",
    "Dev",
    "Lena",
    "Marco",
    "Nadia",
    "Pavel",
    "Ruth",
    "Sean",
    "Tara",
    "Victor",
    "Wen",
    "Ximena",
    "Yusuf",
    "Zara",
    "Łukasz",
    "Søren",
    "José",
    "Anika",
    "Bruno",
    "Chen",
)
LAST = (
    "Sharma",
    "Patel",
    "Silva",
    "Nguyen",
    "Müller",
    "Okafor",
    "Kim",
    "García",
    "Rossi",
    "Cohen",
    "Tanaka",
    "Haddad",
    "Novak",
    "Andersen",
    "O'Brien",
    "Kowalski",
    "Mensah",
    "Dubois",
    "Ivanova",
    "Larsen",
    "Moreau",
    "Singh",
    "Chen",
    "Fischer",
    "Park",
)
BOTS = (("deploybot", "Deploy Bot"), ("jira", "Jira Cloud"))

# Slot vocabularies: enough variety that summaries and fact extraction see distinct content.
WORDS: dict[str, tuple[str, ...]] = {
    "env": ("staging", "prod", "production", "dev", "canary", "the QA cluster"),
    "component": (
        "event store",
        "auth service",
        "billing API",
        "search index",
        "onboarding flow",
        "mobile app",
        "web client",
        "data pipeline",
        "notification service",
        "rate limiter",
        "feature flag service",
        "payments worker",
        "CDN config",
        "GraphQL gateway",
        "admin dashboard",
        "export job",
        "session cache",
        "webhook dispatcher",
    ),
    "tech": (
        "Postgres",
        "Kafka",
        "Redis",
        "SQLite",
        "ClickHouse",
        "gRPC",
        "GraphQL",
        "Terraform",
        "Kubernetes",
        "S3",
        "DynamoDB",
        "RabbitMQ",
        "OpenSearch",
        "React",
        "Svelte",
        "Rust",
        "Go",
        "Temporal",
    ),
    "feature": (
        "SSO",
        "dark mode",
        "bulk export",
        "the audit log",
        "usage-based billing",
        "offline mode",
        "2FA",
        "webhooks v2",
        "CSV import",
        "search filters",
        "the new onboarding",
        "team workspaces",
        "SCIM provisioning",
        "the public API",
    ),
    "milestone": (
        "Beta freeze",
        "GA launch",
        "the v2 cutover",
        "Code freeze",
        "the security review",
        "the QBR",
        "Sprint demo",
        "the pen test",
        "the SOC 2 audit",
        "the pricing launch",
    ),
    "weekday": ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday"),
    "when": (
        "tomorrow",
        "this week",
        "next week",
        "end of day",
        "EOD Friday",
        "by the 15th",
        "after the offsite",
        "before the freeze",
        "early next sprint",
        "tonight",
    ),
    "dependency": (
        "the auth token",
        "API credentials",
        "a prod DB snapshot",
        "the new VPC",
        "design sign-off",
        "legal review",
        "the SDK release",
        "a DNS change",
        "the staging certs",
        "budget approval",
    ),
    "team": (
        "infra",
        "security",
        "design",
        "legal",
        "platform",
        "data",
        "the mobile team",
        "support",
        "finance",
        "SRE",
    ),
    "doc": (
        "migration guide",
        "runbook",
        "RFC",
        "release notes",
        "postmortem",
        "onboarding doc",
        "API docs",
        "test plan",
        "design doc",
        "rollout plan",
    ),
    "customer": (
        "Acme",
        "Globex",
        "Initech",
        "Umbrella",
        "Hooli",
        "Stark Industries",
        "Wayne Enterprises",
        "Soylent",
        "Tyrell",
        "Cyberdyne",
    ),
    "time": ("2pm", "10:30", "3pm PT", "9am", "noon", "4:15", "11am CET"),
    "option": (
        "option B",
        "the simpler approach",
        "the vendor SDK",
        "plan A",
        "the second draft",
        "a feature flag",
        "the batch design",
    ),
    "error": (
        "a NullPointerException",
        "timeouts after 30s",
        "OOMKilled pods",
        "401s",
        "a flaky test",
        "a deadlock",
        "a 502 from the load balancer",
        "a schema mismatch",
    ),
    "repo": ("api", "web", "mobile", "infra", "pipeline", "billing", "docs"),
    "doc_title": ("Design doc", "RFC", "Runbook", "Dashboard", "Spec", "Notes", "Postmortem"),
    "topic": (
        "release questions",
        "incident updates",
        "design reviews",
        "customer escalations",
        "deploy notices",
    ),
    "month": (
        "January",
        "February",
        "March",
        "April",
        "May",
        "June",
        "July",
        "August",
        "September",
        "October",
        "November",
        "December",
    ),
    "filename": (
        "design-v3.png",
        "roadmap.pdf",
        "metrics.csv",
        "screenshot.png",
        "trace.log",
        "architecture.svg",
        "notes.md",
        "budget.xlsx",
    ),
}

TEMPLATES: dict[str, tuple[str, ...]] = {
    "status": (
        "Merged {key}, deploying to {env}",
        "{key} is in review, {mention} can you take a look?",
        "Pushed a fix for {key}",
        "Finished the {component} refactor, PR is up: {pr_link}",
        "Deployed {version} to {env}",
        "{key} done, moving on to {key2}",
        "CI is green again on main",
        "Rebased {key} on main, tests passing",
        "Closing {key} as won't fix",
        "Reopened {key}, the {component} bug is back in {env}",
        "Standup: yesterday {key}, today {key2}, no blockers",
        "{project} update: {key} merged, {key2} in progress",
        "Rolled back {version} in {env}, looking into {key}",
        "Load test on the {component} passed at {number}k rps",
    ),
    "decision": (
        "We decided to use {tech} for the {component}",
        "Decision: we're going with {option} for {feature}",
        "Agreed in the sync: {feature} ships behind a flag",
        "Final call — we drop {tech} and move the {component} to {tech2}",
        "OK, let's go with {person}'s proposal for the {component}",
        "We're not doing {feature} this quarter",
        "For {project} we'll keep {tech} and revisit in {month}",
        "Decided: {key} is out of scope for {milestone}",
    ),
    "deadline": (
        "{milestone} is next {weekday}",
        "Reminder: {milestone} on {month} {day}",
        "Code freeze for {project} is {when}",
        "{feature} needs to ship by end of {month}",
        "Demo for {customer} moved to {weekday} at {time}",
        "{key} has to land before {milestone}",
        "Heads up: {project} beta deadline is {month} {day}",
    ),
    "handoff": (
        "{person} will take over the release from {person2}",
        "{mention} can you own {key}?",
        "Assigning {key} to {person}",
        "Handing off {component} on-call to {mention} for the week",
        "{person} is out {when}, {person2} covers the {component}",
        "{person2} is now the tech lead for {project}",
        "Passing {key} to {mention}, I'm swamped with {key2}",
    ),
    "blocker": (
        "Blocked on {dependency} from {team}",
        "{key} is blocked by {key2}",
        "Can't deploy, {env} is down",
        "Waiting on {team} for {dependency}",
        "Still stuck on {key}: {error} in {env}",
        "No progress on {key} until we get {dependency}",
    ),
    "commitment": (
        "I'll write the {doc} by {weekday}",
        "I'll have the {component} PR up {when}",
        "Will look at {key} after lunch",
        "I'll follow up with {team} about {dependency} today",
        "I'll pair with {mention} on {key} tomorrow",
        "I can take {key}, should be done {when}",
        "I'll update the {doc} for {project} {when}",
    ),
    "risk": (
        "Risk: the {component} might not scale past {number}k rps",
        "Heads up, {milestone} is at risk because of {key}",
        "If {team} slips, we miss {milestone}",
        "Worried about {tech} licensing for {customer}",
        "{project} is behind, {key} alone is a week of work",
    ),
    "mood": (
        "Long day, signing off",
        "Feeling good about {milestone}",
        "ugh, {env} is flaky again",
        ":tada: {milestone} shipped!",
        "Kudos to {mention} for fixing {key}",
        "Friday deploys, what could go wrong :sweat_smile:",
        "honestly exhausted after {milestone}",
    ),
    "question": (
        "Does anyone know why the {component} times out in {env}?",
        "{mention} what's the status of {key}?",
        "Where do we track {feature}?",
        "Is {milestone} still {when}?",
        "Who owns the {component} now?",
        "Can someone review {pr_link}?",
        "Are we still using {tech} for the {component}?",
        "{mention} any update from {team} on {dependency}?",
    ),
    "smalltalk": (
        "lol",
        "thanks!",
        "ty",
        "+1",
        "nice",
        "on it",
        ":+1:",
        "sounds good",
        "brb",
        "lunch?",
        "haha yes",
        "ok",
        "good morning",
        "will do",
        "same here",
        "makes sense",
        "np",
        "coffee anyone?",
        "agreed",
        "sure",
        "thank you {mention}!",
        "congrats {person}!",
        "nice work",
        ":joy:",
        "yep",
        "omw",
        "happy Friday",
        "welcome {mention}!",
    ),
    "link": (
        "see https://docs.example.com/{slug}",
        "Docs here: <https://docs.example.com/{slug}|{doc_title}>",
        "Runbook: <https://runbooks.example.com/{slug}>",
        "Dashboard for the {component}: <https://grafana.example.com/d/{hex}|{component}>",
        "Ticket: <https://jira.example.com/browse/{key}|{key}>",
        "Notes from the sync: https://notion.so/example/{slug}-{hex}",
    ),
    "channel_ref": (
        "moved the discussion to {channel_ref}",
        "Please post {topic} in {channel_ref}",
        "cc {channel_ref}",
        "{mention} this belongs in {channel_ref}",
    ),
    "escaped": (
        "Q&amp;A for {project} at {time}",
        "R&amp;D sync moved to {weekday}",
        "p95 latency &lt; {number}0ms after {key}",
        "The {component} &amp; {component2} both need a bump",
        "Results: error rate &gt; {number}% in {env}",
    ),
    "cross": (
        "{key} depends on {other_key}",
        "Syncing {project} and {other_project} release dates",
        "{project} and {other_project} both use the {component}; let's share the fix from {key}",
        "{other_key} broke {key} in {env}",
    ),
    "reply": (
        "on it",
        "fixed in {key}",
        "I think {tech} is fine here",
        "yes, {weekday}",
        "+1",
        "not yet, waiting on {team}",
        "good catch",
        "done",
        "I'll check {when}",
        "should be fixed in {version}",
        "{mention} knows more",
        "agreed, let's do {option}",
    ),
}

# Category mix for project channels; team channels shift it through FLAVOR below.
MIX = {
    "status": 17,
    "decision": 5,
    "deadline": 5,
    "handoff": 4,
    "blocker": 5,
    "commitment": 5,
    "risk": 3,
    "mood": 3,
    "question": 8,
    "smalltalk": 22,
    "link": 5,
    "channel_ref": 2,
    "escaped": 2,
    "cross": 2,
    "digest": 3,
}
FLAVOR = {
    "random": {"smalltalk": 60, "mood": 10, "link": 8},
    "watercooler": {"smalltalk": 60, "mood": 10},
    "general": {"smalltalk": 30, "deadline": 8, "cross": 4},
    "incidents": {"blocker": 14, "risk": 8, "status": 20},
    "oncall": {"blocker": 12, "handoff": 10},
    "releases": {"deadline": 12, "status": 22, "cross": 5},
    "design": {"decision": 10, "link": 10, "question": 12},
    "support": {"question": 16, "blocker": 8},
    "leads": {"decision": 12, "risk": 8, "handoff": 8, "deadline": 8},
    "dm": {"smalltalk": 30, "question": 12, "commitment": 8, "channel_ref": 0, "escaped": 0},
}
BOT_TEMPLATES = {
    "deploybot": (
        "Deployed {repo} {version} to {env} :rocket:",
        "Build #{build} failed on main ({key})",
        "Rollback of {repo} {version} in {env} complete",
    ),
    "jira": (
        "{person} created {key}: {feature} for the {component}",
        "{key} moved to In Review by {person}",
        "{key} resolved by {person}",
    ),
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
