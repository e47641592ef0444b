"""Precision and recall of decisions and assignments read from a generated Slack export.

    python benchmarks/slack_extraction.py [--messages 400] [--seed 7]

The export is team chat from templates with random slots and a known answer per message:
which ones settle a decision, which ones give a task to a person (and whom), and which
only look like it (questions, proposals, status lines, thanks, bots). It is imported with
the default heuristic model through `Memory.import_slack`, the way a user would, and the
facts stored are compared with the answers, message by message.
"""

import argparse
import json
import random
import tempfile
import time
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from threefold import Memory, load_settings

PEOPLE = ("Anil", "Priya", "Raj", "Mei", "Tom", "Sofia", "Omar", "Grace", "Kenji", "Lena")
CHOICES = (
    "a phased rollout",
    "Postgres",
    "the blue-green deploy",
    "option B",
    "weekly releases",
    "the vendor SDK",
    "Kafka for the event bus",
    "a feature flag",
    "the smaller scope",
    "GraphQL for the public API",
    "Terraform",
    "a canary release",
)
TASKS = (
    "the billing migration",
    "the onboarding docs",
    "the release checklist",
    "the load tests",
    "the auth refactor",
    "the incident review",
    "the pricing page",
    "the data export",
)
DECISIONS = (
    "we'll go with {c}",
    "let's go with {c}",
    "ok, we decided to use {c}",
    "Decision: we go with {c}",
    "agreed, we're going with {c}",
    "we are going to use {c}",
    "final call: we use {c}",
    "after the review we chose {c}",
)
ASSIGNMENTS = (
    "{p} is taking {k}",
    "{p} will own {t}",
    "{k} assigned to {p}",
    "{p} assigned to {k}",
    "assigning {t} to {p}",
    "{p} will handle {t}",
    "{p} picked up {k}",
    "{t} is assigned to {p}",
)
DISTRACTORS = (
    "should we go with {c}?",
    "maybe we could use {c}, thoughts?",
    "who is taking {k}?",
    "{p} said {t} looks good",
    "lunch anyone?",
    "running late today, sorry",
    "{k} is still in review",
    "thanks {p}!",
    "has anyone seen the doc for {t}?",
    "I like {c} but not sure",
    "{p} is out on Friday",
    "standup moved to 10",
)


@dataclass(frozen=True)
class Truth:
    category: str | None
    value: str = ""
    """The choice a decision settles, or the person an assignment names."""
    thing: str = ""
    """The task or issue an assignment gives."""


def generate(count: int, seed: int) -> tuple[list[dict], dict[str, Truth]]:
    rng = random.Random(seed)
    start = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    messages, truth, seen = [], {}, set[str]()
    for n in range(count):
        person, key = rng.choice(PEOPLE), f"ALPHA-{rng.randint(1, 400)}"
        slots = {"c": rng.choice(CHOICES), "t": rng.choice(TASKS), "k": key, "p": person}
        text, answer = _said(rng, slots)
        while text in seen:  # a decision said twice is one fact: each message says it once
            text, answer = _said(rng, slots | {"c": rng.choice(CHOICES), "t": rng.choice(TASKS)})
        seen.add(text)
        ts = f"{(start + timedelta(minutes=7 * n)).timestamp():.6f}"
        author = f"U{rng.randint(1, len(PEOPLE))}"
        messages.append({"type": "message", "ts": ts, "user": author, "text": text})
        truth[ts] = answer
    return messages, truth


def _said(rng: random.Random, slots: dict[str, str]) -> tuple[str, Truth]:
    roll = rng.random()
    if roll < 0.25:
        return rng.choice(DECISIONS).format(**slots), Truth("decision", _plain(slots["c"]))
    if roll < 0.45:
        template = rng.choice(ASSIGNMENTS)
        thing = slots["k"] if "{k}" in template else slots["t"]
        return template.format(**slots), Truth("assignment", _plain(slots["p"]), _plain(thing))
    return rng.choice(DISTRACTORS).format(**slots), Truth(None)


def _plain(text: str) -> str:
    words = text.lower().split()
    return " ".join(words[1:] if words[0] in ("a", "an", "the") else words)


def write_export(root: Path, messages: list[dict]) -> Path:
    users = [
        {"id": f"U{i}", "name": name.lower(), "real_name": name} for i, name in enumerate(PEOPLE, 1)
    ]
    (root / "proj-alpha").mkdir(parents=True)
    (root / "users.json").write_text(json.dumps(users))
    (root / "channels.json").write_text(json.dumps([{"id": "C1", "name": "proj-alpha"}]))
    by_day: dict[str, list[dict]] = {}
    for message in messages:
        day = datetime.fromtimestamp(float(message["ts"]), UTC).date().isoformat()
        by_day.setdefault(day, []).append(message)
    for day, items in by_day.items():
        (root / "proj-alpha" / f"{day}.json").write_text(json.dumps(items))
    return root


def measure(count: int, seed: int) -> list[tuple[str, int, int, int, int, float]]:
    messages, truth = generate(count, seed)
    with tempfile.TemporaryDirectory() as folder:
        export = write_export(Path(folder) / "export", messages)
        settings = load_settings(projects=[{"stream": "project:alpha", "channels": ["proj-alpha"]}])
        with Memory.open(Path(folder) / "m.db", settings=settings, background_worker=False) as mem:
            started = time.perf_counter()
            mem.import_slack(export)
            seconds = time.perf_counter() - started
            ts_of = {str(r.id): r.external_id for r in mem.records("project:alpha")}
            facts = mem.facts("project:alpha", include_inactive=True)
    return [_score(category, truth, facts, ts_of, seconds) for category in CATEGORIES]


CATEGORIES = ("decision", "assignment")


def _score(
    category: str, truth: dict[str, Truth], facts: list, ts_of: dict[str, str], seconds: float
) -> tuple[str, int, int, int, int, float]:
    """Recall: the messages whose decision or assignment is stored (as read from that
    message or from an earlier one saying the same). Precision: the stored facts that a
    message of the answer says."""
    stored = [f for f in facts if f.category.value == category]
    said = [t for t in truth.values() if t.category == category]
    found = sum(any(_matches(t, f) for f in stored) for t in said)
    right = sum(
        (answer := truth.get(ts_of.get(f.source.id, ""))) is not None and _matches(answer, f)
        for f in stored
    )
    return category, len(said), found, len(stored), right, seconds


def _matches(truth: Truth, fact) -> bool:
    if truth.category != fact.category.value:
        return False
    if truth.category == "decision":
        # "Kafka for the event bus" is stored as the choice "kafka" in the slot of its topic.
        choice = _plain(fact.value)
        return truth.value == choice or truth.value.startswith(f"{choice} for ")
    return _plain(fact.value) == truth.value and _plain(fact.subject) == truth.thing


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=400)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    rows = measure(args.messages, args.seed)
    print(
        f"{args.messages} messages, seed {args.seed}, heuristic model; import took "
        f"{rows[0][5]:.1f} s"
    )
    print(
        f"{'category':<12}{'said':>6}{'found':>7}{'facts':>7}{'right':>7}"
        f"{'precision':>11}{'recall':>8}"
    )
    for category, said, found, stored, right, _ in rows:
        precision = right / stored if stored else 0.0
        recall = found / said if said else 0.0
        print(
            f"{category:<12}{said:>6}{found:>7}{stored:>7}{right:>7}"
            f"{precision:>11.2f}{recall:>8.2f}"
        )


if __name__ == "__main__":
    main()
