"""Team extraction on a blind set: what is read from each message, and what it raises.

    .venv/bin/python benchmarks/team_extract.py [--show] [--record]

benchmarks/data/team_extract_eval.json holds a newsroom desk's Slack messages. Each says
what a reader should take from it: facts of a kind (a commitment with its owner and day,
"I can take it" with the work it takes, a blocker with whose it is, each half of a
compound decision, a mood or a risk), and the actions it should raise. The messages go
through the public path (Memory.import_slack, process_pending, rebuild_team, facts,
actions). A fact belongs to a message when its source record is the message's (matched by
its minute, as benchmarks/team_cues.py does: import rewrites <@U02> mentions).

The set was written before any change to team extraction and run once: --record stores
that run in its header and freezes it; a frozen set is never rewritten.
"""

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from threefold.domain import Fact

sys.path.insert(0, str(Path(__file__).parent))
from team_eval import imported, message_of, raised_by_message  # noqa: E402  (a sibling script)

SET = Path(__file__).parent / "data" / "team_extract_eval.json"
SCORED = frozenset({"commitment", "blocker", "decision", "handoff", "risk_signal", "mood_signal"})
"""Kinds a message labelled with no reads should not give."""


def read(data: dict) -> tuple[dict[str, list[Fact]], dict[str, set[str]], list[str]]:
    """Per message id, the facts read from it and the kinds of open actions citing it."""
    facts: dict[str, list[Fact]] = defaultdict(list)
    with imported(data) as mem:
        of = message_of(mem, data)
        for stream in mem.streams():
            for fact in mem.facts(stream.name):
                slack = fact.source.kind.startswith("slack.") and fact.source.id.isdigit()
                if slack and (message := of(int(fact.source.id))):
                    facts[message].append(fact)
        kinds, shown = raised_by_message(mem, data)
    return facts, kinds, shown


def matches(fact: Fact, want: dict) -> bool:
    said = f"{fact.text} {fact.value}".lower()
    return (
        fact.category.value in want["cats"]
        and want.get("owner", "") in fact.subject.lower()
        and any(alt in said for alt in want.get("has", "").split("|"))
        and want.get("due", "") in said
    )


def score(data: dict) -> tuple[dict[str, object], list[str]]:
    facts, kinds, shown = read(data)
    reads = reads_hit = spurious = raises = raises_hit = quiet = quiet_right = 0
    notes = []
    for message in data["messages"]:
        mine = facts[message["id"]]
        for want in message["reads"]:
            reads += 1
            if any(matches(f, want) for f in mine):
                reads_hit += 1
            else:
                got = [f"[{f.category.value}] {f.subject}: {f.text}" for f in mine]
                notes.append(f"{message['id']} missed read {want}: {message['text']!r} got {got}")
        wanted = {c for want in message["reads"] for c in want["cats"]}
        for fact in mine:
            if fact.category.value in SCORED and fact.category.value not in wanted:
                spurious += 1
                notes.append(f"{message['id']} spurious [{fact.category.value}] {fact.text}")
        want_raise, got = set(message["raises"]), kinds[message["id"]]
        if want_raise:
            raises += 1
            raises_hit += bool(want_raise & got)
        else:
            quiet += 1
            quiet_right += not got
        if (want_raise and not want_raise & got) or (not want_raise and got):
            notes.append(
                f"{message['id']} wants {sorted(want_raise) or 'none'}, raised "
                f"{sorted(got) or 'none'}: {message['text']!r}"
            )
    table = {
        "reads": f"{reads_hit}/{reads}",
        "spurious_facts": spurious,
        "raise": f"{raises_hit}/{raises}",
        "quiet": f"{quiet_right}/{quiet}",
    }
    return table, notes + ["", *shown]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print every miss and action")
    parser.add_argument("--record", action="store_true", help="store this run as the first")
    args = parser.parse_args()
    data = json.loads(SET.read_text(encoding="utf-8"))
    table, notes = score(data)
    first = data["header"].get("first_run") or {}
    print(f"| {'measure':<16} | {'this run':>8} | {'first run':>9} |")
    print(f"|{'-' * 18}|{'-' * 10}|{'-' * 11}|")
    for name, value in table.items():
        print(f"| {name:<16} | {value!s:>8} | {first.get(name, '-')!s:>9} |")
    if args.show:
        print("\n".join(["", *notes]))
    if args.record:
        if data["header"].get("frozen"):
            sys.exit("this set is frozen: its first run is recorded already")
        commit = subprocess.run(
            ["git", "-C", str(SET.parent), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
        ).stdout.strip()
        text = SET.read_text(encoding="utf-8")
        first_run = json.dumps({"commit": f"{commit} (main)", **table})
        text = text.replace('"first_run": null', f'"first_run": {first_run}', 1)
        SET.write_text(text.replace('"frozen": false', '"frozen": true', 1), encoding="utf-8")
        print(f"recorded the first run in {SET}")


if __name__ == "__main__":
    main()
