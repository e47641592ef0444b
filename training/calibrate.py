"""Choose, per value label, how sure the trained reader must be for its reading to be kept,
on development text, and record it in the manifest (``label_min_confidence``).

The development text is the scripted conversations of benchmarks/memory_quality.py: text
the reader was not trained on, and not the frozen evaluation sets (they judge it). Every
reading the type checks keep (models/reader/checks.py) is marked right if it holds one of
its line's expected facts. Per label the threshold is the lowest at which the readings kept
there are at least TARGET right; a label that never gets there is switched off. A label with
too few readings to judge keeps the reader's overall threshold. Prints the table it chose
from.

    .venv/bin/python training/calibrate.py [--target 0.9] [--manifest reader_tuned.json]
"""

import argparse
import json
import sys
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "benchmarks"))

import memory_quality  # noqa: E402

from threefold.models.base import TurnInput  # noqa: E402
from threefold.models.reader import DATA, FROZEN, TrainedReader  # noqa: E402
from threefold.models.reader.checks import Reading  # noqa: E402

GRID = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)
FEWEST = 8
"""Fewer development readings of a label than this cannot judge its threshold."""
OFF = 1.01
AT = datetime(2026, 11, 2, tzinfo=UTC)


def dev_lines() -> list[memory_quality.Line]:
    every = (*memory_quality.CONVERSATIONS, *memory_quality.LATE_CONVERSATIONS)
    return [line for c in (*every, memory_quality.GROUP_CHAT) for line in c.lines]


def right(reading: Reading, line: memory_quality.Line) -> bool:
    fact = reading.fact
    return any(
        fact.subject == e.subject
        and fact.category.value == e.category
        and e.value.lower() in fact.value.lower()
        for e in line.expects
    )


def collect(reader: TrainedReader) -> dict[str, list[tuple[float, bool]]]:
    """(confidence, right) of every reading the type checks keep, by label."""
    found: dict[str, list[tuple[float, bool]]] = defaultdict(list)
    for line in dev_lines():
        turn = TurnInput(stream="chat:dev", user=line.text, at=AT, speaker=line.speaker)
        for reading in reader.readings(turn):
            if reading.refused in ("", "below its label's confidence"):
                found[reading.span.label].append((reading.span.confidence, right(reading, line)))
    return found


def choose(readings: list[tuple[float, bool]], target: float, overall: float) -> float:
    if len(readings) < FEWEST:
        return overall
    for least in GRID:
        kept = [ok for confidence, ok in readings if confidence >= least]
        if len(kept) >= 3 and sum(kept) / len(kept) >= target:
            return least
    return OFF


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", type=float, default=0.9)
    parser.add_argument("--manifest", default=FROZEN, help="which shipped reader to calibrate")
    args = parser.parse_args()
    reader = TrainedReader(least=GRID[0], label_least={}, manifest=args.manifest).load()
    overall = float(reader.manifest.get("min_confidence", 0.9))  # type: ignore[arg-type]
    found = collect(reader)
    chosen: dict[str, float] = {}
    print(f"{'label':<12} {'n':>4} {'right':>6}  " + " ".join(f"{g:>5}" for g in GRID) + "  chosen")
    for label in sorted(found):
        rows = found[label]
        cells = []
        for least in GRID:
            kept = [ok for c, ok in rows if c >= least]
            cells.append(f"{sum(kept) / len(kept):.2f}" if kept else "  -  ")
        chosen[label] = choose(rows, args.target, overall)
        print(
            f"{label:<12} {len(rows):>4} {sum(ok for _, ok in rows):>6}  "
            + " ".join(f"{c:>5}" for c in cells)
            + f"  {chosen[label]}"
        )
    path = DATA / args.manifest
    manifest = json.loads(path.read_text())
    manifest["label_min_confidence"] = chosen
    manifest["label_target_precision"] = args.target
    manifest["label_chosen_on"] = "benchmarks/memory_quality.py scripted conversations"
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
