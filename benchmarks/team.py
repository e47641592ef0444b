"""Team intelligence against a generated Slack export with a known ground truth.

A team of people works on a few projects for three weeks. The generator decides who works
on what, who committed to what by when (and who reported it done), which decisions were
made, which blockers were cleared, which questions and requests for an owner got an
answer, and in which channel the mood fell; then it writes each event in one of many
phrasings, between filler chatter. The export is imported as a user would, the team layer
is rebuilt, and the script prints precision and recall of profiles, actions and decisions,
the coverage of what changed in each project's weekly digests, questions across two
projects answered, and the digest of one known week.

    python benchmarks/team.py [--seed 7] [--people 12] [--chatter 1] [--db PATH]

Goal (issue 18): precision >= 0.9 and recall >= 0.8 for actions and decisions with the
heuristic model. Wording is drawn from templates; no rule was tuned to one sentence.
"""

import argparse
import csv
import json
import random
import re
import sys
import tempfile
import time
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from threefold import Memory, load_settings
from threefold.domain import Visibility

START = date(2026, 3, 2)  # a Monday
DAYS = 21
NOW = datetime(2026, 3, 23, 9, 0, tzinfo=UTC)  # the Monday after
KNOWN_WEEK = "2026-03-09..2026-03-15"
READ_ALL = tuple(Visibility)

FIRST = [
    "Priya",
    "Marco",
    "Anil",
    "Lena",
    "Omar",
    "Sofia",
    "Kenji",
    "Hana",
    "Tomas",
    "Ines",
    "Ravi",
    "Greta",
    "Jonas",
    "Maya",
    "Felix",
    "Nora",
    "Dario",
    "Ulla",
]
PROJECTS = [("alpha", "ALPHA"), ("beta", "BETA"), ("gamma", "GAMMA")]
TASKS = [
    "billing migration",
    "search reindex",
    "onboarding flow",
    "audit log export",
    "invoice templates",
    "rate limiter",
    "SSO integration",
    "metrics dashboard",
    "data retention job",
    "mobile push service",
    "CSV importer",
    "pricing page",
    "webhook retries",
    "session cleanup",
    "tax report",
    "load test plan",
]
THINGS = [
    "the auth token from IT",
    "legal review",
    "the vendor API keys",
    "a schema sign-off",
    "the staging database",
    "security approval",
    "the design mockups",
]
CHOICES = [
    "Postgres for the event store",
    "a phased rollout",
    "weekly releases",
    "feature flags for the beta",
    "Stripe for payments",
    "a monorepo",
    "GraphQL for the public API",
    "Kafka for the event bus",
    "dark launches",
    "OpenTelemetry for tracing",
]
DELIVERABLES = [
    "the customer demo",
    "the security audit",
    "the Q1 report",
    "the beta launch",
    "the board deck",
    "the migration cutover",
    "the partner review",
]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]

COMMIT = [
    "I'll finish the {task} by {when}.",
    "I will have the {task} done by {when}.",
    "I'm going to wrap up the {task} by {when}.",
    "Will ship the {task} by {when}.",
    "I promise to deliver the {task} by {when}.",
    "ok, I'll get the {task} done by {when}",
    "I will send the {task} over by {when}.",
]
DONE = [
    "The {task} is done.",
    "Finished the {task} just now.",
    "Just shipped the {task}!",
    "{task} is merged and done.",
    "The {task} is completed, closing it out.",
]
BLOCK = [
    "{key} is blocked on {thing}.",
    "Still blocked on {key}, waiting on {thing}.",
    "{key} is stuck, waiting for {thing}.",
    "We're blocked on {key} until {thing} arrives.",
    "Blocker: {key} is held up by {thing}.",
]
CLEAR = [
    "{key} is unblocked now.",
    "{thing} came through, {key} is no longer blocked.",
    "Good news: {key} is resolved.",
    "{key} got sorted out, moving again.",
]
DEADLINE = [
    "{what} is due on {when}.",
    "The deadline for {what} is {when}.",
    "Reminder: {what} is due {when}.",
    "Heads up, {what} must be delivered by {when}.",
]
DECIDE = [
    "We decided to go with {choice}.",
    "We'll go with {choice}.",
    "Decision: we are going with {choice}.",
    "After the call we agreed on {choice}.",
    "Final call: we're going with {choice}.",
    "Let's go with {choice}, agreed by all.",
]
ASSIGN = [
    "{name} is taking {key}.",
    "{key} is assigned to {name}.",
    "{name} will own {key}.",
    "{name} picks up {key}.",
]
ROLE = [
    "{name} is the tech lead on {project}.",
    "{name} is our PM for {project}.",
    "{name} is the QA lead for {project}.",
]
ASK = [
    "@{who} can you review the {task} PR?",
    "Does anyone know where the {task} runbook is?",
    "@{who} what's the status of the {task}?",
    "Quick question: who has access to the {task} logs?",
    "Is the {task} config in the shared drive?",
]
ANSWER = [
    "Yes, it's in the wiki under ops.",
    "Looking at it now.",
    "Done, left two comments.",
    "It's on track for this week.",
    "I have access, sending it over.",
]
HANDOFF = [
    "Can someone take over the {task}? I'm out from Monday.",
    "The {task} needs a new owner.",
    "Who can pick up the {task} while I'm away?",
    "FYI the {task} is up for grabs.",
]
CLAIM = ["I'll take it.", "On it!", "I can pick that up.", "Happy to own it from here."]
PRAISE = [
    "Great job on the {task}, {who}!",
    "Kudos to {who} for the {task}.",
    "Nice work on the {task}, {who}!",
    "Thanks so much {who}, the {task} looks great.",
]
GLOOM = [
    "Honestly so frustrated with the {task} today.",
    "I'm fed up with the {task} flakiness.",
    "Feeling burned out after the {task} fire drill.",
    "So tired of the {task} breaking again.",
    "Pretty stressed about the {task}, to be honest.",
]
FILLER = [
    "Morning all.",
    "Pushed a small fix for the {task}.",
    "Lunch at noon, anyone in.",
    "Notes from the sync are in the doc.",
    "Deploying the {task} to staging now.",
    "Reviewing PRs this afternoon.",
    "Updated the {task} ticket with logs.",
]


@dataclass
class Truth:
    commitments: list[dict] = field(default_factory=list)
    blockers: list[dict] = field(default_factory=list)
    deadlines: list[dict] = field(default_factory=list)
    decisions: list[dict] = field(default_factory=list)
    questions: list[dict] = field(default_factory=list)
    handoffs: list[dict] = field(default_factory=list)
    mood_drops: set[str] = field(default_factory=set)
    work: dict[str, set[str]] = field(default_factory=lambda: defaultdict(set))
    roles: dict[str, str] = field(default_factory=dict)
    jira: list[list[str]] = field(default_factory=list)
    """Rows of a Jira CSV export: the issues, their assignees, statuses and due dates."""


class Export:
    """Messages per channel and day, written as a Slack export folder."""

    def __init__(self, people: list[str]) -> None:
        self.people = people
        self.days: dict[tuple[str, date], list[dict]] = defaultdict(list)
        self.clock = 0

    def say(
        self,
        channel: str,
        who: str,
        day: date,
        text: str,
        hour: int = 10,
        thread: str | None = None,
    ) -> str:
        self.clock += 1
        at = datetime(day.year, day.month, day.day, hour, tzinfo=UTC) + timedelta(
            seconds=self.clock
        )
        ts = f"{at.timestamp():.6f}"
        message = {
            "type": "message",
            "user": f"U{self.people.index(who):03d}",
            "text": text,
            "ts": ts,
        }
        if thread:
            message["thread_ts"] = thread
        self.days[(channel, day)].append(message)
        return ts

    def write(self, folder: Path, channels: list[str]) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        users = [
            {"id": f"U{i:03d}", "name": p.lower(), "real_name": p}
            for i, p in enumerate(self.people)
        ]
        (folder / "users.json").write_text(json.dumps(users))
        listed = [{"id": f"C{i:03d}", "name": c} for i, c in enumerate(channels)]
        (folder / "channels.json").write_text(json.dumps(listed))
        for (channel, day), messages in self.days.items():
            (folder / channel).mkdir(exist_ok=True)
            (folder / channel / f"{day}.json").write_text(json.dumps(messages))


def when_phrase(rng: random.Random, said: date, due: date) -> str:
    """A phrase that names `due` as said on `said`: a weekday within the week, or a date."""
    ahead = (due - said).days
    if ahead == 1 and rng.random() < 0.3:
        return "tomorrow"
    if 1 < ahead < 7 and due.weekday() < 5 and rng.random() < 0.5:
        return WEEKDAYS[due.weekday()]
    return rng.choice([f"{due:%B} {due.day}", f"{due.day} {due:%B}"])


def workday(rng: random.Random, first: int, last: int) -> date:
    while True:
        day = START + timedelta(days=rng.randint(first, last))
        if day.weekday() < 5:
            return day


SURNAMES = [
    "Raman",
    "Rossi",
    "Mehta",
    "Berg",
    "Haddad",
    "Costa",
    "Sato",
    "Kim",
    "Novak",
    "Silva",
    "Iyer",
    "Lund",
    "Weber",
    "Cohen",
    "Vogel",
    "Moreau",
    "Ricci",
    "Dahl",
]
JIRA_HEADER = [
    "Summary",
    "Issue key",
    "Issue Type",
    "Status",
    "Priority",
    "Assignee",
    "Reporter",
    "Created",
    "Updated",
    "Due Date",
]


def full_name(first: str) -> str:
    """How the tracker names a person who is a first name in chat."""
    return f"{first} {SURNAMES[FIRST.index(first)]}"


def jira_row(key: str, status: str, assignee: str, due: str) -> list[str]:
    return [
        f"Work on {key}",
        key,
        "Story",
        status,
        "Medium",
        assignee,
        "Ann",
        "02/Mar/26 9:00 AM",
        "20/Mar/26 5:00 PM",
        due,
    ]


def generate(seed: int, n_people: int, chatter: int = 1) -> tuple[Export, Truth, list[str]]:
    rng = random.Random(seed)
    people = rng.sample(FIRST, n_people)
    export, truth = Export(people), Truth()
    channels = [f"proj-{name}" for name, _ in PROJECTS] + ["general"]
    team = {name: people[i :: len(PROJECTS)] for i, (name, _) in enumerate(PROJECTS)}
    tasks = rng.sample(TASKS, len(TASKS))
    issue = defaultdict(int)

    def key_for(project: str) -> str:
        code = dict(PROJECTS)[project]
        issue[code] += 1
        return f"{code}-{100 + issue[code]}"

    for project, members in team.items():
        channel = f"proj-{project}"
        lead = members[0]
        truth.roles[lead] = project
        export.say(
            channel,
            members[-1],
            START,
            rng.choice(ROLE).format(name=lead, project=f"Project {project.title()}"),
            hour=9,
        )
        for member in members:
            key = key_for(project)
            truth.work[member].add(key)
            day = workday(rng, 0, 4)
            export.say(channel, lead, day, rng.choice(ASSIGN).format(name=member, key=key), 9)
            truth.jira.append(jira_row(key, "In Progress", full_name(member), ""))
        for member in members:  # tracked only in Jira: open work, and finished work
            key, status = key_for(project), rng.choice(["To Do", "In Progress", "Done"])
            if status != "Done":
                truth.work[member].add(key)
            due = NOW.date() + timedelta(days=rng.choice([-3, 1, 2, 5, 12]))
            truth.jira.append(jira_row(key, status, full_name(member), f"{due:%d/%b/%y}"))
            if status != "Done" and 0 <= (due - NOW.date()).days <= 3:
                truth.deadlines.append({"what": key, "due": due, "soon": True, "project": project})
        for _ in range(3):  # commitments, some reported done
            who, task = rng.choice(members), tasks.pop() if tasks else rng.choice(TASKS)
            said = workday(rng, 0, 15)
            due = said + timedelta(days=rng.randint(1, 8))
            text = rng.choice(COMMIT).format(task=task, when=when_phrase(rng, said, due))
            export.say(channel, who, said, text, 11)
            done = rng.random() < 0.4 and due < NOW.date()
            if done:
                export.say(
                    channel,
                    who,
                    min(due, NOW.date() - timedelta(days=1)),
                    rng.choice(DONE).format(task=task),
                    16,
                )
            overdue = due < NOW.date() and not done
            truth.commitments.append(
                {
                    "who": who,
                    "task": task,
                    "said": said,
                    "due": due,
                    "project": project,
                    "done": done,
                    "overdue": overdue,
                }
            )
        for _ in range(2):  # blockers, some cleared
            who, key, thing = rng.choice(members), key_for(project), rng.choice(THINGS)
            said = workday(rng, 0, 19)
            export.say(channel, who, said, rng.choice(BLOCK).format(key=key, thing=thing), 12)
            cleared = rng.random() < 0.4
            if cleared and said + timedelta(days=1) < NOW.date():
                export.say(
                    channel,
                    rng.choice(members),
                    said + timedelta(days=1),
                    rng.choice(CLEAR).format(key=key, thing=thing.capitalize()),
                    14,
                )
            else:
                cleared = False
            stale = not cleared and (
                NOW - datetime.combine(said, datetime.min.time(), UTC)
            ) > timedelta(days=3, hours=12)
            truth.blockers.append({"key": key, "stale": stale, "said": said, "project": project})
        for _ in range(2):  # deadlines, near and far
            what = rng.choice(DELIVERABLES)
            said = workday(rng, 8, 19)
            due = NOW.date() + timedelta(days=rng.choice([-6, -2, 1, 2, 3, 6, 10]))
            text = rng.choice(DEADLINE).format(what=what, when=f"{due:%B} {due.day}")
            export.say(channel, rng.choice(members), said, text, 13)
            soon = 0 <= (due - NOW.date()).days <= 3
            truth.deadlines.append({"what": what, "due": due, "soon": soon, "project": project})
        for choice in rng.sample(CHOICES, 2):  # decisions, two different ones
            said = workday(rng, 0, 19)
            phrasing = rng.choice(DECIDE)
            export.say(channel, rng.choice(members), said, phrasing.format(choice=choice), 15)
            truth.decisions.append(
                {"project": project, "choice": choice, "day": said, "phrasing": phrasing}
            )
        for _ in range(3):  # questions, most answered in their thread
            asker = rng.choice(members)
            other = rng.choice([m for m in members if m != asker] or people)
            said = workday(rng, 0, 19)
            text = rng.choice(ASK).format(who=other.lower(), task=rng.choice(TASKS))
            ts = export.say(channel, asker, said, text, 10)
            answered = rng.random() < 0.6
            if answered:
                export.say(channel, other, said, rng.choice(ANSWER), 15, thread=ts)
            truth.questions.append({"text": text, "open": not answered})
        for _ in range(1 + rng.randint(0, 1)):  # requests for an owner
            asker, task = rng.choice(members), rng.choice(TASKS)
            said = workday(rng, 0, 19)
            text = rng.choice(HANDOFF).format(task=task)
            ts = export.say(channel, asker, said, text, 10)
            claimed = rng.random() < 0.5
            if claimed:
                taker = rng.choice([m for m in members if m != asker] or people)
                export.say(channel, taker, said, rng.choice(CLAIM), 11, thread=ts)
            truth.handoffs.append({"text": text, "open": not claimed})
    mood_channel = f"proj-{rng.choice(PROJECTS)[0]}"
    truth.mood_drops.add(mood_channel.removeprefix("#"))
    members = team[mood_channel.removeprefix("proj-")]
    for offset in range(7, 13):  # praise the week before, gloom the last week
        day = START + timedelta(days=offset)
        export.say(
            mood_channel,
            rng.choice(members),
            day,
            rng.choice(PRAISE).format(task=rng.choice(TASKS), who=rng.choice(members)),
            17,
        )
    for offset in range(16, 21):
        day = START + timedelta(days=offset)
        export.say(
            mood_channel,
            rng.choice(members),
            day,
            rng.choice(GLOOM).format(task=rng.choice(TASKS)),
            17,
        )
    for offset in range(DAYS):  # filler chatter in every channel
        day = START + timedelta(days=offset)
        if day.weekday() >= 5:
            continue
        for channel in channels:
            for _ in range(rng.randint(1, 3) * chatter):
                export.say(
                    channel,
                    rng.choice(people),
                    day,
                    rng.choice(FILLER).format(task=rng.choice(TASKS)),
                    rng.randint(9, 17),
                )
    return export, truth, channels


def prf(found: int, right: int, relevant: int, hit: int) -> tuple[float, float]:
    precision = right / found if found else 1.0
    recall = hit / relevant if relevant else 1.0
    return precision, recall


def words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", text.lower()) if len(w) > 2}


def score_actions(mem: Memory, truth: Truth) -> dict[str, tuple[int, int, int, int]]:
    actions = mem.actions(status="open")
    by_kind = defaultdict(list)
    for action in actions:
        by_kind[action.kind].append(action)
    rows = {}

    def match(kind: str, wanted: list[dict], hits) -> None:
        found = by_kind[kind]
        right = sum(1 for a in found if any(hits(a, w) for w in wanted))
        hit = sum(1 for w in wanted if any(hits(a, w) for a in found))
        rows[kind] = (len(found), right, len(wanted), hit)

    match(
        "overdue_commitment",
        [c for c in truth.commitments if c["overdue"]],
        lambda a, c: a.owner == c["who"].lower() and words(c["task"]) <= words(a.title),
    )
    match(
        "stale_blocker", [b for b in truth.blockers if b["stale"]], lambda a, b: b["key"] in a.title
    )
    # A commitment still open and due within the window is a deadline too.
    promised = [
        {"due": c["due"], "project": c["project"]}
        for c in truth.commitments
        if not c["done"] and 0 <= (c["due"] - NOW.date()).days <= 3
    ]
    match(
        "deadline_soon",
        [d for d in truth.deadlines if d["soon"]] + promised,
        lambda a, d: a.due == d["due"] and a.stream == f"project:{d['project']}",
    )
    match(
        "unanswered",
        [q for q in truth.questions if q["open"]],
        lambda a, q: _quoted(a.title, q["text"]),
    )
    match(
        "unowned_handoff",
        [h for h in truth.handoffs if h["open"]],
        lambda a, h: _task_of(h["text"]) <= words(a.title),
    )
    match(
        "mood_drop",
        [{"channel": c} for c in truth.mood_drops],
        lambda a, m: f"#{m['channel']}:" in a.title or f"#{m['channel']} " in a.title,
    )
    return rows


def _quoted(title: str, text: str) -> bool:
    return " ".join(text.split())[:60] in title


def _task_of(text: str) -> set[str]:
    return {w for w in words(text) if w in words(" ".join(TASKS))}


def score_decisions(mem: Memory, truth: Truth) -> tuple[int, int, int, int]:
    found = [
        f for name, _ in PROJECTS for f in mem.facts(f"project:{name}") if f.category == "decision"
    ]

    def same(f, d) -> bool:
        return f.stream == f"project:{d['project']}" and words(d["choice"]) <= words(f.text)

    right = sum(1 for f in found if any(same(f, d) for d in truth.decisions))
    hit = sum(1 for d in truth.decisions if any(same(f, d) for f in found))
    return len(found), right, len(truth.decisions), hit


def missed_phrasings(mem: Memory, truth: Truth) -> list[str]:
    """The decision phrasings of the export that no decision fact came from."""
    found = [
        f for name, _ in PROJECTS for f in mem.facts(f"project:{name}") if f.category == "decision"
    ]
    missed = {
        d["phrasing"]
        for d in truth.decisions
        if not any(
            f.stream == f"project:{d['project']}" and words(d["choice"]) <= words(f.text)
            for f in found
        )
    }
    return sorted(missed)


def score_profiles(mem: Memory, truth: Truth, people: list[str]) -> dict[str, tuple]:
    work_found = work_right = work_hit = work_total = 0
    role_found = role_right = role_hit = 0
    for name in people:
        profile = mem.profile(name)
        keys = {k for item in profile.current_work for k in re.findall(r"[A-Z]+-\d+", item.text)}
        work_found += len(keys)
        work_right += len(keys & truth.work[name])
        work_total += len(truth.work[name])
        work_hit += len(keys & truth.work[name])
        roles = [i for i in profile.role]
        role_found += len(roles)
        wanted = truth.roles.get(name)
        good = [r for r in roles if wanted and r.stream == f"project:{wanted}"]
        role_right += len(good)
        role_hit += 1 if good else 0
    return {
        "profile: current work": (work_found, work_right, work_total, work_hit),
        "profile: role": (role_found, role_right, len(truth.roles), role_hit),
    }


def score_digests(mem: Memory, truth: Truth) -> tuple[int, int, int, int]:
    """Coverage of what changed: each commitment, blocker and decision said in a week is
    named in its project's digest of that week (days in UTC, as the export's times)."""
    expected = [(c["project"], c["said"], words(c["task"])) for c in truth.commitments] + [
        (b["project"], b["said"], {b["key"].lower()}) for b in truth.blockers
    ]
    expected += [(d["project"], d["day"], words(d["choice"])) for d in truth.decisions]
    texts: dict[tuple[str, date], set[str]] = {}
    hit = 0
    for project, said, wanted in expected:
        monday = said - timedelta(days=said.weekday())
        if (project, monday) not in texts:
            week = f"{monday}..{monday + timedelta(days=6)}"
            digest = mem.digest(f"project:{project}", week, timezone="UTC", now=NOW)
            keys = re.findall(r"[a-z]+-\d+", digest.text.lower())  # "Alpha-109" too
            texts[(project, monday)] = words(digest.text) | set(keys)
        hit += wanted <= texts[(project, monday)]
    return len(expected), hit, len(expected), hit


_DIGESTS = "digest: what changed"
_CROSS = "cross-project questions"
CROSS_FORMS = [
    "Compare {a} and {b}: what did each team decide?",
    "What was decided in {a} and in {b}?",
    "Did {a} and {b} settle on the same approach?",
]
"""Questions across two projects, asked in `global`; each names its projects one of the
ways people do (see _named)."""


def _named(index: int, project: str, key: str) -> str:
    """A project as a question may name it: its key, its configured name, its channel."""
    return [key, f"Project {project.title()}", f"#proj-{project}"][index % 3]


def score_cross(mem: Memory, truth: Truth) -> tuple[int, int, int, int]:
    """Questions comparing two projects: right when the context holds a decision of each."""
    pairs = [(x, y) for i, x in enumerate(PROJECTS) for y in PROJECTS[i + 1 :]]
    asked = right = 0
    for n, ((a, key_a), (b, key_b)) in enumerate(pairs * len(CROSS_FORMS)):
        form = CROSS_FORMS[n // len(pairs)]
        query = form.format(a=_named(n, a, key_a), b=_named(n + 1, b, key_b))
        text = " ".join(mem.context("global", query, 3000).text.lower().split())
        asked += 1
        right += all(
            any(
                d["project"] == project and words(d["choice"]) <= words(text)
                for d in truth.decisions
            )
            for project in (a, b)
        )
    return asked, right, asked, right


def context_costs(mem: Memory, people: list[str], rounds: int = 40) -> str:
    """What the team sections add to a context: unique questions naming a person, two
    projects, or a period, timed whole and for the team part alone."""
    asks = [
        f"What is {people[i % len(people)]} working on, question {i}?"
        if i % 3 == 0
        else f"Compare Alpha and Beta on item {i}"
        if i % 3 == 1
        else f"What did we learn this week about point {i}?"
        for i in range(rounds)
    ]
    part = time.perf_counter()
    for ask in asks:
        mem.team.material(mem.tenant, "project:alpha", ask, READ_ALL)
    part = (time.perf_counter() - part) * 1000 / rounds
    whole = time.perf_counter()
    for ask in asks:
        mem.context("project:alpha", ask + " (asked again)", 4000)
    whole = (time.perf_counter() - whole) * 1000 / rounds
    return (
        f"context(): {whole:.1f} ms per question ({rounds} unique questions, budget 4000),"
        f" of which team sections {part:.1f} ms"
    )


def _row(name: str, found: int, right: int, relevant: int, hit: int) -> str:
    p, r = prf(found, right, relevant, hit)
    counts = f"{found:5} | {right:5} | {relevant:5} | {hit:3}"
    return f"| {name:<24} | {counts} | {p:9.2f} | {r:6.2f} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--people", type=int, default=12)
    parser.add_argument("--db", type=Path, default=None)
    parser.add_argument(
        "--chatter", type=int, default=1, help="filler messages per channel and day, times this"
    )
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="threefold-team-"))
    export, truth, channels = generate(args.seed, args.people, args.chatter)
    export.write(work / "export", channels)
    projects = [
        {
            "stream": f"project:{n}",
            "key": k,
            "names": [f"Project {n.title()}"],
            "channels": [f"proj-{n}"],
        }
        for n, k in PROJECTS
    ]
    settings = load_settings(projects=projects, embed={"kind": "none"})
    started = time.perf_counter()
    with Memory.open(
        args.db or work / "team.db", settings=settings, background_worker=False
    ) as mem:
        report = mem.import_slack(work / "export")
        jira = work / "jira.csv"
        with jira.open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows([JIRA_HEADER, *truth.jira])
        mem.import_jira(jira, now=NOW)
        mem.process_pending()
        imported = time.perf_counter() - started
        rebuilt = mem.rebuild_team(now=NOW)
        took = time.perf_counter() - started - imported
        rows = score_actions(mem, truth)
        rows["decisions"] = score_decisions(mem, truth)
        rows.update(score_profiles(mem, truth, export.people))
        rows[_DIGESTS] = score_digests(mem, truth)
        rows[_CROSS] = score_cross(mem, truth)
        print(
            f"export: {report.kept} messages and {len(truth.jira)} Jira issues in "
            f"{len(channels)} channels, "
            f"{len(export.people)} people, seed {args.seed}; import {imported:.1f} s, "
            f"rebuild {took:.2f} s ({rebuilt.profiles} profiles, {rebuilt.actions} actions)"
        )
        print()
        print(f"| {'measure':<24} | found | right | truth | hit | precision | recall |")
        print(f"|{'-' * 26}|------:|------:|------:|----:|----------:|-------:|")
        totals = [0, 0, 0, 0]
        for name, (found, right, relevant, hit) in rows.items():
            p, r = prf(found, right, relevant, hit)
            print(_row(name, found, right, relevant, hit))
            if not name.startswith("profile") and name not in ("decisions", _DIGESTS, _CROSS):
                totals = [t + v for t, v in zip(totals, (found, right, relevant, hit), strict=True)]
        p, r = prf(*totals)
        print(_row("all actions", *totals))
        print()
        print()
        print("decision phrasings not extracted:", "; ".join(missed_phrasings(mem, truth)) or "-")
        print(context_costs(mem, export.people))
        print()
        week = mem.digest("project:alpha", KNOWN_WEEK, timezone="Europe/Berlin", now=NOW)
        print(f"digest of project:alpha for {KNOWN_WEEK} (Europe/Berlin):")
        print(week.text)
        empty = mem.digest("project:alpha", "2026-02-02..2026-02-08", now=NOW)
        print()
        print(empty.text)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
