"""The team cues on a blind set: which messages raise the actions they should, and which
stay quiet.

    .venv/bin/python benchmarks/team_cues.py [--show]

benchmarks/data/team_cues_eval.json holds a festival crew's Slack messages, each labelled
with the action kinds it should raise ([] for none). They go through the public path that
uses the cues (team/cues.py): Memory.import_slack, rebuild_team, actions. An action raises
from a message when the message's record is among the action's record_ids (matched by
its time: import rewrites <@U02> mentions to names). The set was
written before any change to the cues, run once, and frozen: its header records that run.
"""

import argparse
import json
import sys
import tempfile
from collections import Counter
from datetime import datetime
from pathlib import Path

from threefold import Memory, load_settings

sys.path.insert(0, str(Path(__file__).parent))
from team_eval import write_export  # noqa: E402  (a sibling script, not a package)

SET = Path(__file__).parent / "data" / "team_cues_eval.json"


def raised(data: dict) -> tuple[dict[str, set[str]], list[str]]:
    """Per message id, the kinds of the open actions that cite it; and every action."""
    projects = [
        {"stream": stream, "channels": [channel]}
        for channel, stream in data["channels"].items()
        if stream
    ]
    settings = load_settings(projects=projects, embed={"kind": "none"})
    by_time = {m["at"]: m["id"] for m in data["messages"]}  # a minute each; text is rewritten
    kinds: dict[str, set[str]] = {m["id"]: set() for m in data["messages"]}
    shown = []
    with tempfile.TemporaryDirectory(prefix="threefold-team-cues-") as tmp:
        work = Path(tmp)
        with Memory.open(work / "team.db", settings=settings, background_worker=False) as mem:
            mem.import_slack(write_export(data, work / "export"))
            mem.process_pending()
            mem.rebuild_team(now=datetime.fromisoformat(data["header"]["now"]))
            for action in mem.actions(status="open"):
                cited = [
                    by_time.get(f"{mem.record(r).at:%Y-%m-%d %H:%M}") for r in action.record_ids
                ]
                for message in filter(None, cited):
                    kinds[message].add(action.kind)
                shown.append(f"[{action.kind}] {action.title}  <- {cited}")
    return kinds, shown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print every action and miss")
    args = parser.parse_args()
    data = json.loads(SET.read_text(encoding="utf-8"))
    kinds, shown = raised(data)
    total: Counter[str] = Counter()
    right: Counter[str] = Counter()
    misses = []
    for message in data["messages"]:
        want, got = set(message["raises"]), kinds[message["id"]]
        label = "/".join(sorted(want)) or "none"
        ok = bool(want & got) if want else not got
        total[label] += 1
        right[label] += ok
        if not ok:
            misses.append(
                f"{message['id']} wants {label}, got {sorted(got) or 'none'}: {message['text']!r}"
            )
    print(f"{'label':<36} {'right':>5} {'of':>4}")
    for label in sorted(total):
        print(f"{label:<36} {right[label]:>5} {total[label]:>4}")
    raising = [k for k in total if k != "none"]
    print(
        f"{'raise (any kind)':<36} {sum(right[k] for k in raising):>5} "
        f"{sum(total[k] for k in raising):>4}"
    )
    print(f"{'all':<36} {sum(right.values()):>5} {sum(total.values()):>4}")
    if args.show:
        print("\n".join(["", *shown, "", *misses]))


if __name__ == "__main__":
    main()
