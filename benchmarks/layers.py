"""The three layers under pressure: what a busy stream's context keeps at each budget.

    python benchmarks/layers.py [--slack 1800] [--turns 300] [--global-messages 3000]
        [--budgets 2000 3000 6000] [--seed 7]

Builds a busy project on a fresh SQLite file (heuristic model, hashing embedder): a Slack
channel routed to `project:atlas`, fed live through Memory.ingest_message over 30 days;
a long chat in the same stream; and a large `global` stream from an imported export whose
channels no project claims (role announcements, decisions, chatter). Then asks "Where does
the project stand, and what is blocked?" at each budget and prints, per section, tokens
and items, the share of the last K turns present, the summary's tokens against its floor
and the facts' against their ceiling. Goal: all K turns at 3,000 and above, the summary at
or above its floor (or whole, or short of it by less than its next line: the floor holds
whole lines within it, session 26), facts at or below their ceiling, in every row.
Session 38: a next line of an older period than those shown counts its period's header
too (the floor holds it with the line), now that headers carry their days in words;
with that, every row meets the goal at 1,000, 2,000, 3,000 and 6,000 (main before the
session: the 1,000 row's check failed the same way).
Asserts nothing.
"""

import argparse
import json
import random
import re
import tempfile
import time
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

from rich.console import Console
from rich.table import Table

from threefold import Memory, load_settings
from threefold.context.assemble import ORDER, SUMMARY_CUT
from threefold.dates import spoken_span
from threefold.domain import Context
from threefold.tokens import count_tokens

STREAM = "project:atlas"
CHANNEL = "atlas"
QUESTION = "Where does the project stand, and what is blocked?"
START = datetime(2026, 9, 1, 9, tzinfo=UTC)
DAYS = 30
PEOPLE = ("Priya", "Raj", "Ana", "Tom", "Mei", "Lukas", "Sofia", "Omar", "Grace", "Diego")
ROLES = ("tech lead", "product manager", "designer", "QA lead", "SRE", "data engineer")
PARTS = ("billing service", "search index", "login flow", "export job", "audit log", "mobile app")
TECH = ("Postgres", "Kafka", "Redis", "GraphQL", "gRPC", "Terraform")
CAUSES = ("the vendor contract", "a flaky integration test", "the security review", "infra")
TEAM_CHANNELS = ("general", "eng", "random", "support", "releases")

SHORT = {
    "system": "sys",
    "stream_facts": "facts",
    "global_facts": "global",
    "structured_data": "struct",
    "profiles": "prof",
    "projects": "proj",
    "digest": "digest",
    "memory_index": "index",
    "summary": "summ",
    "recent_turns": "turns",
    "retrieved": "retr",
    "query": "query",
}
SLACK_LINES = (
    "I'll finish the {part} migration by {day}.",
    "The {part} is blocked on {cause}.",
    "We decided to use {tech} for the {part}.",
    "Status: {part} deployed to staging, smoke tests green.",
    "Heads up, the {part} error rate doubled after the last deploy.",
    "Can someone review the {part} PR? https://git.example.com/atlas/pull/{n}",
    "{who} is handing the {part} over to {other} next week.",
    "Standup notes: {part} on track, {cause} still pending.",
)
GLOBAL_LINES = (
    "{who} is the {role} for the {team} team.",
    "Company-wide we decided to move all dashboards to {tech}.",
    "Reminder: expense reports are due on {day}.",
    "Lunch is in the big room today, {who} brought cake.",
    "The {team} team shipped the {part} update.",
    "Anyone seen the {part} runbook? {who} was asking.",
)
CHAT_TURNS = (
    (
        "Let's go over the {part}. {who} says {cause} is still open and we may slip.",
        "Understood. The {part} depends on {cause}; if it stays open past {day} the rollout "
        "moves. I'd ask {who} for a date and keep the staging plan as is.",
    ),
    (
        "We decided the {part} will use {tech}; write that down.",
        "Noted: {tech} for the {part}. That affects the migration scripts and the on-call "
        "runbook, which {other} owns.",
    ),
    (
        "What's left before the {part} can go live?",
        "Three things: the {cause} sign-off, a load test at twice today's traffic, and the "
        "rollback drill {other} scheduled for {day}.",
    ),
    (
        "{who} is now the {role} on Atlas, replacing {other}.",
        "Got it: {who} as {role} from today; {other} stays on the {part} until the handover.",
    ),
)


def fill(template: str, rng: random.Random, day: datetime) -> str:
    who, other = rng.sample(PEOPLE, 2)
    return template.format(
        who=who,
        other=other,
        part=rng.choice(PARTS),
        cause=rng.choice(CAUSES),
        tech=rng.choice(TECH),
        role=rng.choice(ROLES),
        team=rng.choice(TEAM_CHANNELS),
        day=(day + timedelta(days=rng.randint(2, 20))).strftime("%B %d"),
        n=rng.randint(1, 999),
    )


def moments(count: int, rng: random.Random) -> list[datetime]:
    """`count` times spread over the month, in order."""
    span = DAYS * 24 * 3600
    return sorted(START + timedelta(seconds=rng.randrange(span)) for _ in range(count))


def feed_slack(mem: Memory, count: int, rng: random.Random) -> float:
    started = time.perf_counter()
    for n, at in enumerate(moments(count, rng)):
        mem.ingest_message(
            channel=CHANNEL,
            user=rng.choice(PEOPLE),
            ts=at.timestamp(),
            text=fill(rng.choice(SLACK_LINES), rng, at),
        )
        if n % 200 == 199:
            mem.process_pending()
    mem.process_pending()
    return time.perf_counter() - started


def chat(mem: Memory, count: int, rng: random.Random) -> float:
    started = time.perf_counter()
    at = START + timedelta(days=DAYS)  # the chat follows the month of Slack
    for _ in range(count):
        user, assistant = rng.choice(CHAT_TURNS)
        seed = rng.random()
        mem.add_turn(
            STREAM,
            fill(user, random.Random(seed), at),
            fill(assistant, random.Random(seed), at),
            at=at,
        )
        at += timedelta(minutes=rng.randint(2, 90))
    mem.process_pending()
    return time.perf_counter() - started


def write_global_export(root: Path, count: int, rng: random.Random) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    users = [{"id": f"U{i}", "name": p.lower(), "real_name": p} for i, p in enumerate(PEOPLE)]
    channels = [{"id": f"C{i}", "name": c} for i, c in enumerate(TEAM_CHANNELS)]
    (root / "users.json").write_text(json.dumps(users))
    (root / "channels.json").write_text(json.dumps(channels))
    days: dict[tuple[str, str], list[dict]] = {}
    for at in moments(count, rng):
        channel = rng.choice(TEAM_CHANNELS)
        message = {
            "type": "message",
            "user": f"U{rng.randrange(len(PEOPLE))}",
            "ts": f"{at.timestamp():.6f}",
            "text": fill(rng.choice(GLOBAL_LINES), rng, at),
        }
        days.setdefault((channel, at.date().isoformat()), []).append(message)
    for (channel, day), messages in days.items():
        (root / channel).mkdir(parents=True, exist_ok=True)
        (root / channel / f"{day}.json").write_text(json.dumps(messages))
    return root


def row(ctx: Context, mem: Memory, k_present: float) -> list[str]:
    sections = {s.name: s for s in ctx.sections}
    cells = []
    for name in ORDER:
        section = sections.get(name)
        cells.append(f"{section.tokens}/{len(section.items)}" if section else "-")
    summary = sections["summary"].tokens if "summary" in sections else 0
    facts = sum(sections[n].tokens for n in ("stream_facts", "global_facts") if n in sections)
    floor = int(ctx.budget * mem.settings.summary_floor_share)
    # A summary shorter than its floor meets it by being there whole; one cut short of it
    # meets it when its next line would have crossed it (the floor holds whole lines).
    whole = not any(d.section == "summary" and d.reason == SUMMARY_CUT for d in ctx.dropped)
    shown = sections["summary"].items[0].text if "summary" in sections else ""
    crossing = summary + next_summary_line(mem, shown) > floor
    ceiling = int(ctx.budget * mem.settings.facts_ceiling_share)
    turns_ok = k_present == 1.0 or ctx.budget < 3000
    floor_ok = summary >= floor or (whole and summary > 0) or (summary > 0 and crossing)
    met = turns_ok and floor_ok and facts <= ceiling
    return [
        f"{ctx.budget:,}",
        f"{ctx.tokens:,}",
        *cells,
        f"{k_present:.0%}",
        f"{summary} (≥{floor}{', whole' if whole else ''})",
        f"{facts} (≤{ceiling})",
        str(len(ctx.dropped)),
        "yes" if met else "NO",
    ]


def next_summary_line(mem: Memory, shown: str) -> int:
    """The tokens of the newest line of the stream's summary that the context left out,
    with its period's header where the context shows none of that period (a header is
    shown with its days in words: "### 2026-10-09 (9 October 2026)")."""
    left_out: list[tuple[str, str]] = []
    for summary in mem.summaries(STREAM, "active"):
        header = ""
        for line in summary.text.splitlines():
            if line.startswith("### "):
                header = line
            elif line.startswith("- ") and line not in shown:
                left_out.append((header, line))
    if not left_out:
        return 0
    header, line = left_out[-1]
    framed = 0 if not header or header in shown else count_tokens(spoken_header(header)) + 2
    return count_tokens(line) + 1 + framed


def spoken_header(header: str) -> str:
    days = [date.fromisoformat(day) for day in re.findall(r"\d{4}-\d{2}-\d{2}", header)]
    return f"{header} ({spoken_span(days[0], days[-1])})" if days else header


def share_of_last_k(mem: Memory, ctx: Context) -> float:
    k = mem.settings.recent_turns
    last = {str(t.id) for t in mem.turns(STREAM, limit=k)}
    shown = {i.source.id for i in ctx.section("recent_turns").items if i.source}
    return len(last & shown) / len(last) if last else 1.0


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--slack", type=int, default=1800, help="live messages to the project")
    parser.add_argument("--turns", type=int, default=300, help="chat turns in the project")
    parser.add_argument("--global-messages", type=int, default=3000, help="imported to global")
    parser.add_argument("--budgets", type=int, nargs="+", default=[2000, 3000, 6000])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--show", type=int, metavar="BUDGET", help="print this context's text")
    return parser.parse_args()


def main() -> None:
    args = parse_args()
    rng = random.Random(args.seed)
    console = Console()
    if not console.is_terminal:
        console.width = 160  # piped output: wide enough for the table
    with tempfile.TemporaryDirectory() as tmp:
        settings = load_settings(
            db=Path(tmp) / "layers.db",
            embed={"kind": "hashing"},
            projects=[{"stream": STREAM, "channels": [CHANNEL], "names": ["Atlas"]}],
            sources={"batch_idle_minutes": 0},
        )
        with Memory.open(settings=settings, background_worker=False) as mem:
            slack_s = feed_slack(mem, args.slack, rng)
            export = write_global_export(Path(tmp) / "export", args.global_messages, rng)
            started = time.perf_counter()
            report = mem.import_slack(export)
            import_s = time.perf_counter() - started
            chat_s = chat(mem, args.turns, rng)
            console.print(
                f"built in {slack_s + import_s + chat_s:.0f} s: {args.slack} live messages, "
                f"{report.kept} imported ({dict(report.routed)}), {args.turns} turns; "
                f"facts: {len(mem.facts(STREAM))} in {STREAM}, {len(mem.facts('global'))} "
                "global (active)"
            )
            for warning in report.warnings:
                console.print(f"import warning: {warning}")
            table = Table(
                "budget",
                "tokens",
                *(SHORT[n] for n in ORDER),
                "last K",
                "summary",
                "facts",
                "dropped",
                "goal",
                title=f"context of {STREAM} (sections: tokens/items)",
            )
            for budget in sorted(args.budgets):
                ctx = mem.context(STREAM, QUESTION, budget=budget)
                table.add_row(*row(ctx, mem, share_of_last_k(mem, ctx)))
                if budget == args.show:
                    console.print(ctx.text, markup=False, highlight=False)
            console.print(table)


if __name__ == "__main__":
    main()
