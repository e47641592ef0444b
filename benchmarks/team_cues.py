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
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from team_eval import imported, raised_by_message  # noqa: E402  (a sibling script)

SET = Path(__file__).parent / "data" / "team_cues_eval.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", action="store_true", help="print every action and miss")
    args = parser.parse_args()
    data = json.loads(SET.read_text(encoding="utf-8"))
    with imported(data) as mem:
        kinds, shown = raised_by_message(mem, data)
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
