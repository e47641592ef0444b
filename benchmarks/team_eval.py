"""A frozen blind set for team intelligence: a written workspace, what a lead should see.

benchmarks/data/team_eval/*.json each hold a small Slack workspace (users, channels,
messages with their threads), one or more Jira CSV exports of the same weeks, and what is
true of them: the open actions a lead should be shown, facts each profile should carry,
statements no profile may make, what a digest should name, and what a question across
projects should find. The sets are written in voices unlike the tests' and
benchmarks/team.py's, and each was run once before the change it judges: its first-run
figures are in its header, and the set is not edited after.

    python benchmarks/team_eval.py [--set warehouse] [--record] [--show]

--record writes the figures of this run into the header as its first run (only once: a
set whose header says frozen is never rewritten). --show prints the actions, digests and
profiles, to see what went wrong; it does not change the figures.
"""

import argparse
import csv
import json
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from threefold import Memory, load_settings

DATA = Path(__file__).parent / "data" / "team_eval"


@dataclass
class Figures:
    actions_found: int = 0
    actions_right: int = 0
    actions_truth: int = 0
    actions_hit: int = 0
    profile_truth: int = 0
    profile_hit: int = 0
    false_statements: int = 0
    digest_truth: int = 0
    digest_hit: int = 0
    first_person: int = 0
    file_names: int = 0
    assigned_lines: int = 0
    cross_truth: int = 0
    cross_hit: int = 0
    notes: list[str] = field(default_factory=list)

    def table(self) -> dict[str, object]:
        precision = self.actions_right / self.actions_found if self.actions_found else 1.0
        recall = self.actions_hit / self.actions_truth if self.actions_truth else 1.0
        return {
            "actions_precision": round(precision, 2),
            "actions_recall": round(recall, 2),
            "actions": f"{self.actions_found} found, {self.actions_right} right, "
            f"{self.actions_hit} of {self.actions_truth} expected",
            "profile_facts": f"{self.profile_hit} of {self.profile_truth}",
            "false_statements": self.false_statements,
            "digest_coverage": f"{self.digest_hit} of {self.digest_truth}",
            "digest_first_person": self.first_person,
            "digest_file_names": self.file_names,
            "digest_assigned_lines": self.assigned_lines,
            "cross_project": f"{self.cross_hit} of {self.cross_truth}",
        }


def _at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def write_export(data: dict, folder: Path) -> Path:
    """The set's messages as a Slack export folder, threads as Slack writes them."""
    folder.mkdir(parents=True)
    (folder / "users.json").write_text(json.dumps(data["users"]))
    names = list(data["channels"])
    channels = [{"id": f"C{i:03d}", "name": name} for i, name in enumerate(names)]
    (folder / "channels.json").write_text(json.dumps(channels))
    ts = {m["id"]: f"{_at(m['at']).timestamp():.6f}" for m in data["messages"]}
    days: dict[tuple[str, str], list[dict]] = {}
    for message in data["messages"]:
        said = {"type": "message", "user": message["user"], "text": message["text"]}
        said["ts"] = ts[message["id"]]
        if "thread_of" in message:
            said["thread_ts"] = ts[message["thread_of"]]
        days.setdefault((message["channel"], message["at"][:10]), []).append(said)
    for (channel, day), messages in days.items():
        (folder / channel).mkdir(exist_ok=True)
        (folder / channel / f"{day}.json").write_text(json.dumps(messages))
    return folder


def write_jira(data: dict, export: dict, folder: Path) -> Path:
    path = folder / export["name"]
    with path.open("w", newline="", encoding="utf-8") as handle:
        csv.writer(handle).writerows([data["jira_columns"], *export["rows"]])
    return path


def _has(text: str, pattern: str) -> bool:
    """`pattern` is alternatives split by '|', each a lower-case substring."""
    return any(alt in text for alt in pattern.split("|"))


def score_actions(mem: Memory, data: dict, figures: Figures, show: bool) -> None:
    expected = data["expected_actions"]
    hit = [False] * len(expected)
    actions = mem.actions(status="open")
    figures.actions_found, figures.actions_truth = len(actions), len(expected)
    for action in actions:
        title = action.title.lower()
        matches = [
            i
            for i, want in enumerate(expected)
            if action.kind in want["kinds"] and all(_has(title, p) for p in want["all"])
        ]
        fresh = [i for i in matches if not hit[i]]
        if fresh:
            hit[fresh[0]] = True
            figures.actions_right += 1
        else:
            why = "duplicate" if matches else "not expected"
            figures.notes.append(f"action {why}: [{action.kind}] {action.title}")
    figures.actions_hit = sum(hit)
    figures.notes += [
        f"action missed: {w['about']}" for w, h in zip(expected, hit, strict=True) if not h
    ]
    if show:
        for action in actions:
            print(f"  [{action.kind}] {action.title}")


def _section(profile, section: str) -> str:
    if section == "name":
        return profile.name.lower()
    if section == "note":
        return profile.note.lower()
    if section == "any":
        return "\n".join(text for text, _ in profile.lines()).lower()
    return "\n".join(item.text for item in getattr(profile, section)).lower()


def score_profiles(mem: Memory, data: dict, figures: Figures, show: bool) -> None:
    seen: dict[str, object] = {}

    def text(entity: str, section: str) -> str | None:
        if entity not in seen:
            try:
                seen[entity] = mem.profile(entity)
            except Exception as exc:  # a profile that cannot be read carries nothing
                figures.notes.append(f"profile {entity!r} failed: {exc}")
                seen[entity] = None
        profile = seen[entity]
        return None if profile is None else _section(profile, section)

    for want in data["profile_facts"]:
        figures.profile_truth += 1
        found = text(want["entity"], want["section"])
        if found is not None and any(alt in found for alt in want["any"]):
            figures.profile_hit += 1
        else:
            figures.notes.append(
                f"profile missing: {want['entity']} {want['section']} {want['any']}"
            )
    for bad in data["false_statements"]:
        found = text(bad["entity"], bad["section"])
        if found is not None and any(alt in found for alt in bad["any"]):
            figures.false_statements += 1
            figures.notes.append(f"profile false: {bad['entity']} {bad['section']} {bad['any']}")
    if show:
        for profile in seen.values():
            if profile is not None:
                print("\n".join(line for line, _ in profile.lines()))


def score_digests(mem: Memory, data: dict, now: datetime, figures: Figures, show: bool) -> None:
    penalties = {k: re.compile(v) for k, v in data["digest_penalties"].items()}
    for want in data["digests"]:
        digest = mem.digest(want["stream"], want["period"], timezone="UTC", now=now)
        lines = [line.lower() for line in digest.text.splitlines()]
        for expected in want["lines"]:
            figures.digest_truth += 1
            if any(all(_has(line, p) for p in expected) for line in lines):
                figures.digest_hit += 1
            else:
                figures.notes.append(f"digest {want['stream']} {want['period']} lacks {expected}")
        figures.first_person += len(penalties["first_person"].findall(digest.text))
        figures.file_names += len(penalties["file_names"].findall(digest.text))
        figures.assigned_lines += len(penalties["assigned_lines"].findall(digest.text))
        if show:
            print(digest.text, "\n")


def score_cross(mem: Memory, data: dict, figures: Figures) -> None:
    for want in data["cross_project"]:
        figures.cross_truth += 1
        text = mem.context(want["stream"], want["query"], 3000).text.lower()
        if all(_has(text, p) for p in want["all"]):
            figures.cross_hit += 1
        else:
            figures.notes.append(f"cross-project missed: {want['query']}")


@contextmanager
def imported(data: dict) -> Iterator[Memory]:
    """A memory of a team set (this one, benchmarks/team_cues.py's, team_extract.py's):
    its Slack messages and Jira exports imported through the public path, digested, and
    the team rebuilt at the set's `now`; each channel routed to the stream it names."""
    projects = [
        {"stream": stream, "channels": [channel]}
        for channel, stream in data["channels"].items()
        if stream
    ]
    settings = load_settings(projects=projects, embed={"kind": "none"})
    with tempfile.TemporaryDirectory(prefix="threefold-team-set-") as tmp:
        work = Path(tmp)
        with Memory.open(work / "team.db", settings=settings, background_worker=False) as mem:
            mem.import_slack(write_export(data, work / "export"))
            for export in data.get("jira_exports", ()):
                mem.import_jira(write_jira(data, export, work), now=_at(export["at"][:19]))
            mem.process_pending()
            mem.rebuild_team(now=datetime.fromisoformat(data["header"]["now"]))
            yield mem


def message_of(mem: Memory, data: dict) -> Callable[[int], str | None]:
    """The id of the set's message a record was imported from, matched by its minute:
    import rewrites <@U02> mentions to names, so the text does not match."""
    by_time = {m["at"]: m["id"] for m in data["messages"]}
    return lambda record_id: by_time.get(f"{mem.record(record_id).at:%Y-%m-%d %H:%M}")


def raised_by_message(mem: Memory, data: dict) -> tuple[dict[str, set[str]], list[str]]:
    """Per message id, the kinds of the open actions that cite it; and every action."""
    of = message_of(mem, data)
    kinds: dict[str, set[str]] = {m["id"]: set() for m in data["messages"]}
    shown = []
    for action in mem.actions(status="open"):
        cited = [of(r) for r in action.record_ids]
        for message in filter(None, cited):
            kinds[message].add(action.kind)
        shown.append(f"[{action.kind}] {action.title}  <- {cited}")
    return kinds, shown


def run(data: dict, show: bool) -> Figures:
    figures = Figures()
    with imported(data) as mem:
        score_actions(mem, data, figures, show)
        score_profiles(mem, data, figures, show)
        score_digests(mem, data, datetime.fromisoformat(data["header"]["now"]), figures, show)
        score_cross(mem, data, figures)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="warehouse")
    parser.add_argument("--record", action="store_true", help="store this run as the first")
    parser.add_argument("--show", action="store_true")
    args = parser.parse_args()
    path = DATA / f"{args.set}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    figures = run(data, args.show)
    table = figures.table()
    print(f"| {'measure':<22} | {'this run':<40} | first run |")
    print(f"|{'-' * 24}|{'-' * 42}|-----------|")
    first = data["header"].get("first_run") or {}
    for name, value in table.items():
        print(f"| {name:<22} | {value!s:<40} | {first.get(name, '-')!s} |")
    print()
    print("\n".join(figures.notes))
    if args.record:
        if data["header"].get("frozen"):
            sys.exit("this set is frozen: its first run is recorded already")
        first_run = json.dumps({"commit": _commit(), **table})
        text = path.read_text(encoding="utf-8")  # edited in place: the set's layout stays
        text = text.replace('"first_run": null', f'"first_run": {first_run}', 1)
        path.write_text(text.replace('"frozen": false', '"frozen": true', 1), encoding="utf-8")
        print(f"recorded the first run in {path}")


def _commit() -> str:
    import subprocess

    done = subprocess.run(
        ["git", "-C", str(DATA), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    return done.stdout.strip() or "unknown"


if __name__ == "__main__":
    main()
