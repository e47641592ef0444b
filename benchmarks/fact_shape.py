"""The fragment check on a blind set: how many fact sentences it classifies right.

    .venv/bin/python benchmarks/fact_shape.py [--show-misses]

The set (benchmarks/data/fact_shape_eval.jsonl) holds fact sentences as a reader or an llm
writes them, half whole and half fragments, written before any change to the check and
frozen: its header records the first run. Prints, per kind, how many are right.
"""

import argparse
import json
from collections import Counter
from pathlib import Path

from threefold.layers.shape import is_fragment

SET = Path(__file__).parent / "data" / "fact_shape_eval.jsonl"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show-misses", action="store_true", help="list every wrong call")
    args = parser.parse_args()
    rows = [json.loads(line) for line in SET.read_text().splitlines() if line.strip()]
    total: Counter[bool] = Counter()
    right: Counter[bool] = Counter()
    by_kind: Counter[tuple[bool, str]] = Counter()
    right_kind: Counter[tuple[bool, str]] = Counter()
    misses = []
    for row in rows[1:]:
        fragment = bool(row["fragment"])
        ok = is_fragment(row["text"], row["subject"]) == fragment
        total[fragment] += 1
        right[fragment] += ok
        by_kind[fragment, row["kind"]] += 1
        right_kind[fragment, row["kind"]] += ok
        if not ok:
            misses.append(
                f"{'fragment kept' if fragment else 'statement dropped'}: {row['text']!r}"
            )
    print(f"{'':<10} {'kind':<18} {'right':>5} {'of':>4}")
    for (fragment, kind), n in sorted(by_kind.items()):
        label = "fragment" if fragment else "whole"
        print(f"{label:<10} {kind:<18} {right_kind[fragment, kind]:>5} {n:>4}")
    for fragment, label in ((True, "fragments"), (False, "whole")):
        print(f"{label:<10} {'all':<18} {right[fragment]:>5} {total[fragment]:>4}")
    if args.show_misses:
        print("\n".join(misses))


if __name__ == "__main__":
    main()
