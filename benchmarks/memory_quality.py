"""Memory quality I: what people say about themselves and others becomes facts, and an
update replaces what it updates.

Scripted conversations (written for this benchmark) run through the public API: a
Memory on a temporary SQLite file, add_turn, process_pending, then facts() and
fact_history(). Per category it prints:

- capture: stated facts found among the stored facts (any status);
- updates: changes whose new value is current and whose old value is kept in history
  (superseded or retracted);
- stale: old values still current after a change (goal: 0);
- precision: stored facts that match what their turn said, against those that are false,
  garbled or fragments, or come from a sentence that states nothing.

    .venv/bin/python benchmarks/memory_quality.py [--model heuristic] [--show-misses]
"""

import argparse
import inspect
import json
import sys
import tempfile
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from threefold import Memory
from threefold.domain import Fact, FactStatus

GOALS = {"capture": 0.90, "updates": 0.90, "precision": 0.95}
_GONE = (FactStatus.SUPERSEDED, FactStatus.RETRACTED)
_NEGATED = ("not ", "left ", "sold ")


@dataclass(frozen=True)
class Expect:
    """A fact the turn states: its category, subject, and a word its value holds."""

    category: str
    value: str
    subject: str = "user"
    old: str | None = None
    """For a change: the earlier value, which must now be history."""


@dataclass(frozen=True)
class Line:
    text: str
    expects: tuple[Expect, ...] = ()
    speaker: str | None = None
    states_nothing: bool = False


@dataclass(frozen=True)
class Conversation:
    stream: str
    lines: tuple[Line, ...]
    group: bool = False


def nothing(text: str, speaker: str | None = None) -> Line:
    return Line(text, (), speaker, states_nothing=True)


# --- the script ----------------------------------------------------------------------------

CONVERSATIONS_DATA = Path(__file__).parent / "data" / "memory_quality"
"""The conversations, as data: scripted.json (the first script), late.json (sets written
after the rules; each set's note gives its first-run figure), group_chat.json. A turn is
{"said": text, "facts": [[category, value(, subject)]], "changes": [[category, value, old
(, subject)]]} or {"nothing": text}, with an optional speaker and note."""


def _expect(row: list[str], *, change: bool) -> Expect:
    category, value, *rest = row
    old = rest.pop(0) if change else None
    return Expect(category, value, rest[0] if rest else "user", old)


def _line(row: dict[str, Any]) -> Line:
    expects = tuple(_expect(r, change=False) for r in row.get("facts", ())) + tuple(
        _expect(r, change=True) for r in row.get("changes", ())
    )
    if "nothing" in row:
        return nothing(row["nothing"], speaker=row.get("speaker"))
    return Line(row["said"], expects, row.get("speaker"))


def load_conversations(name: str) -> tuple[Conversation, ...]:
    data = json.loads((CONVERSATIONS_DATA / f"{name}.json").read_text())
    return tuple(
        Conversation(c["stream"], tuple(_line(r) for r in c["lines"]), c.get("group", False))
        for c in data["conversations"]
    )


CONVERSATIONS = load_conversations("scripted")
LATE_CONVERSATIONS = load_conversations("late")
(GROUP_CHAT,) = load_conversations("group_chat")


# --- running ---------------------------------------------------------------------------------

START = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


@dataclass
class Tally:
    statements: int = 0
    captured: int = 0
    updates: int = 0
    updated: int = 0
    stale: int = 0
    stored: int = 0
    wrong: int = 0
    misses: list[str] = field(default_factory=list)


def takes_speaker(mem: Memory) -> bool:
    return "speaker" in inspect.signature(mem.add_turn).parameters


def feed(mem: Memory, conversation: Conversation) -> dict[int, Line]:
    """Add every line as a turn; the turn ids map back to the lines."""
    by_turn: dict[int, Line] = {}
    for n, line in enumerate(conversation.lines):
        extra = {"speaker": line.speaker} if line.speaker else {}
        at = START + timedelta(hours=6 * n)
        turn = mem.add_turn(conversation.stream, user=line.text, at=at, **extra)
        by_turn[turn.id] = line
    mem.process_pending()
    return by_turn


def _holds(found: Fact, expect: Expect, value: str) -> bool:
    return (
        found.subject == expect.subject
        and found.category.value == expect.category
        and value.lower() in found.value.lower()
    )


def _asserts(found: Fact, old: str, new: str) -> bool:
    """Whether `found` still says the old value (and not the one that replaced it)."""
    value = found.value.lower()
    return old in value and new not in value and not value.startswith(_NEGATED)


def score(mem: Memory, conversation: Conversation, tallies: dict[str, Tally]) -> None:
    by_turn = feed(mem, conversation)
    stored = mem.facts(conversation.stream, include_inactive=True)
    for line in conversation.lines:
        for expect in line.expects:
            _score_expect(stored, expect, line, tallies[expect.category])
    for found in stored:
        tally = tallies[found.category.value]
        tally.stored += 1
        line = by_turn.get(int(found.source.id)) if found.source.kind == "turn" else None
        right = line is not None and any(_holds(found, e, e.value) for e in line.expects)
        leak = conversation.stream.split(":", 1)[1] in f"{found.subject} {found.value}"
        if not right or leak:
            tally.wrong += 1
            origin = line.text if line else found.source.label()
            tally.misses.append(
                f"false: {found.text!r} ({found.subject}, {found.slot}) from {origin!r}"
            )


def _score_expect(stored: list[Fact], expect: Expect, line: Line, tally: Tally) -> None:
    tally.statements += 1
    current = [f for f in stored if f.active and _holds(f, expect, expect.value)]
    if any(_holds(f, expect, expect.value) for f in stored):
        tally.captured += 1
    else:
        tally.misses.append(f"missed: {expect.category} {expect.value!r} in {line.text!r}")
    if expect.old is None:
        return
    tally.updates += 1
    old, new = expect.old.lower(), expect.value.lower()
    same = [
        f for f in stored if f.subject == expect.subject and f.category.value == expect.category
    ]
    kept = any(f.status in _GONE and _asserts(f, old, new) for f in same)
    stale = [f for f in same if f.active and _asserts(f, old, new)]
    tally.stale += len(stale)
    if current and kept and not stale:
        tally.updated += 1
    else:
        what = "stale" if stale else "not current" if not current else "old value lost"
        tally.misses.append(f"update {what}: {expect.old!r} -> {expect.value!r} in {line.text!r}")


def run(model: str, show_misses: bool, db: str | None = None) -> dict[str, Tally]:
    tallies: dict[str, Tally] = defaultdict(Tally)
    with tempfile.TemporaryDirectory() as tmp:
        settings = {"background_worker": False}
        with Memory.open(db or Path(tmp) / "quality.db", embedder=None, **settings) as mem:
            if model != "heuristic":
                sys.exit(f"unknown model {model!r}; only 'heuristic' runs offline")
            conversations = [*CONVERSATIONS, *LATE_CONVERSATIONS]
            if takes_speaker(mem):
                conversations.append(GROUP_CHAT)
            else:
                print("note: Memory.add_turn has no speaker= yet; the group chat is skipped\n")
            for conversation in conversations:
                score(mem, conversation, tallies)
    report(tallies, show_misses)
    return tallies


def _rate(part: int, whole: int) -> str:
    return f"{part / whole:.2f}" if whole else "  - "


def report(tallies: dict[str, Tally], show_misses: bool) -> None:
    header = f"{'category':<15} {'stmts':>5} {'capture':>7} {'changes':>7} {'updates':>7}"
    print(header + f" {'stale':>5} {'stored':>6} {'false':>5} {'precision':>9}")
    total = Tally()
    for name in sorted(tallies):
        t = tallies[name]
        print(
            f"{name:<15} {t.statements:>5} {_rate(t.captured, t.statements):>7} "
            f"{t.updates:>7} {_rate(t.updated, t.updates):>7} {t.stale:>5} {t.stored:>6} "
            f"{t.wrong:>5} {_rate(t.stored - t.wrong, t.stored):>9}"
        )
        for attr in ("statements", "captured", "updates", "updated", "stale", "stored", "wrong"):
            setattr(total, attr, getattr(total, attr) + getattr(t, attr))
    print(
        f"{'all':<15} {total.statements:>5} {_rate(total.captured, total.statements):>7} "
        f"{total.updates:>7} {_rate(total.updated, total.updates):>7} {total.stale:>5} "
        f"{total.stored:>6} {total.wrong:>5} "
        f"{_rate(total.stored - total.wrong, total.stored):>9}"
    )
    every = (*CONVERSATIONS, *LATE_CONVERSATIONS, GROUP_CHAT)
    negatives = sum(line.states_nothing for c in every for line in c.lines)
    print(
        f"\nsentences that must not become facts: {negatives}; goals: capture >= "
        f"{GOALS['capture']}, updates >= {GOALS['updates']}, stale 0, precision >= "
        f"{GOALS['precision']}"
    )
    if show_misses:
        for name in sorted(tallies):
            for miss in tallies[name].misses:
                print(f"  [{name}] {miss}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", default="heuristic")
    parser.add_argument("--show-misses", action="store_true", help="list every miss")
    parser.add_argument(
        "--db", help="an empty database instead of a temporary SQLite file (postgresql://...)"
    )
    args = parser.parse_args()
    run(args.model, args.show_misses, args.db)


if __name__ == "__main__":
    main()
