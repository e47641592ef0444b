"""Choose the trained reader's span confidence threshold on development text, and record it
in the manifest (``min_confidence``).

The development text is the scripted conversations of benchmarks/memory_quality.py: text
the reader was not trained on, and not the frozen evaluation sets (those judge it, and
choosing anything on them would tune to them). Per threshold it prints the reader's own
precision, capture and F0.5 there (precision counts twice as much as capture), alone and
blended with the rules by each policy; it keeps the best threshold and policy.

    .venv/bin/python training/choose_threshold.py
"""

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "benchmarks"))

import memory_quality  # noqa: E402

from threefold.models.base import ExtractedFact, TurnInput  # noqa: E402
from threefold.models.heuristic import extract  # noqa: E402
from threefold.models.heuristic.blend import POLICIES, blend  # noqa: E402
from threefold.models.reader import DATA, TrainedReader  # noqa: E402

THRESHOLDS = (0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9)
AT = datetime(2026, 11, 2, tzinfo=UTC)


def lines() -> list[memory_quality.Line]:
    every = (*memory_quality.CONVERSATIONS, *memory_quality.LATE_CONVERSATIONS)
    return [line for c in (*every, memory_quality.GROUP_CHAT) for line in c.lines]


def holds(fact: ExtractedFact, expect: memory_quality.Expect) -> bool:
    return (
        fact.subject == expect.subject
        and fact.category.value == expect.category
        and expect.value.lower() in fact.value.lower()
    )


def rate(found: list[list[ExtractedFact]], said: list[memory_quality.Line]) -> tuple[float, ...]:
    """Precision, capture and F0.5 of the facts read from each line."""
    right = stored = captured = stated = 0
    for facts, line in zip(found, said, strict=True):
        stored += len(facts)
        right += sum(any(holds(f, e) for e in line.expects) for f in facts)
        stated += len(line.expects)
        captured += sum(any(holds(f, e) for f in facts) for e in line.expects)
    precision, capture = right / max(stored, 1), captured / max(stated, 1)
    return precision, capture, 1.25 * precision * capture / max(0.25 * precision + capture, 1e-9)


def main() -> None:
    said = lines()
    turns = [TurnInput(stream="chat:dev", user=x.text, at=AT, speaker=x.speaker) for x in said]
    rules = [extract.extract_facts(t) for t in turns]
    reader = TrainedReader().load()
    print(f"{len(said)} development lines")
    print("rules alone: precision {:.3f} capture {:.3f} F0.5 {:.3f}".format(*rate(rules, said)))
    print(f"{'threshold':>9} {'reader':>20} " + " ".join(f"{p:>20}" for p in POLICIES))
    best, best_f = (THRESHOLDS[0], POLICIES[0]), -1.0
    for least in THRESHOLDS:
        reader.least = least
        read = [reader.extract_facts(t) for t in turns]
        cells = [rate(read, said)]
        for policy in POLICIES:
            cells.append(
                rate([blend(r, t, policy) for r, t in zip(rules, read, strict=True)], said)
            )
            if cells[-1][2] > best_f:
                best, best_f = (least, policy), cells[-1][2]
        print(f"{least:>9} " + " ".join("{:.2f}/{:.2f}/{:.3f}".format(*c).rjust(20) for c in cells))
    manifest_path = DATA / "reader_manifest.json"
    manifest = json.loads(manifest_path.read_text())
    manifest["min_confidence"], manifest["blend"] = best
    manifest["chosen_on"] = "benchmarks/memory_quality.py scripted conversations (F0.5)"
    manifest_path.write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"chose threshold {best[0]}, blend {best[1]!r}; written to {manifest_path}")


if __name__ == "__main__":
    main()
