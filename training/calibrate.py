"""Choose, per value label, how sure the trained reader must be for its reading to be kept,
on development text, and record it in the manifest (``label_min_confidence``).

The development text is the scripted conversations of benchmarks/memory_quality.py and the
written dev lines (training/written.py, kept out of training): text the reader was not
trained on, and not the frozen evaluation sets (they judge it). Every reading the type
checks keep (models/reader/checks.py) is marked right if it holds one of its scripted line's
expected facts, or is one of its written line's marked values. Per label the threshold is
the lowest at which the readings kept there are at least TARGET right; a label that never
gets there is switched off; one with too few readings to judge (or none) gets UNJUDGED. The
reader's overall threshold becomes the grid's lowest, so that each label's own threshold is
the one that applies. Prints the table it chose from.

    .venv/bin/python training/calibrate.py [--target 0.9] [--manifest reader_tuned.json]

`--sources` chooses which development text judges (any of scripted, written, dev).
`dev` is the development sets in the frozen sets' format (benchmarks/data/reader_dev/, in
voices the training lines never used; `--dev-sets` names files or folders), judged by
fact: a reading is right when its fact holds one of its line's expected facts (the frozen
sets' own test, frozen_sets._holds), wrong when it holds none or its line states nothing.
The written dev lines share their writers' voices with the training lines, so they
over-state how sure the reader is on text in new voices (training/README.md, reader35f).
`--manifest` may be a path (a candidate graph's manifest, its graph beside it);
`--dry-run` prints the choice and writes nothing.

`--held` chooses instead, on benchmarks/updates_dev.py (conversations built from the written
dev lines), how sure a reading below its label's bar must be to update a slot the stream
holds with another value (``held_min_confidence``): the lowest bar of HELD_GRID whose
control conversations (a value repeated, someone else's news) lose at most HELD_COST more
held values than with no such updates. Run it after the per-label bars (it reads them);
about five minutes a bar on 2 cores:

    .venv/bin/python training/calibrate.py --held [--manifest reader_tuned.json]
"""

import argparse
import json
import sys
from collections import defaultdict
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "benchmarks"))
sys.path.insert(0, str(HERE))

import frozen_sets  # noqa: E402
import memory_quality  # noqa: E402
import written  # noqa: E402

from threefold.models.base import PreviousTurn, TurnInput  # noqa: E402
from threefold.models.reader import FROZEN, TrainedReader  # noqa: E402
from threefold.models.reader.checks import Reading  # noqa: E402
from threefold.models.reader.labels import ENDED, slot_table  # noqa: E402

GRID = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)
FEWEST = 8
"""Fewer development readings of a label than this cannot judge its threshold."""
OFF = 1.01
UNJUDGED = 0.9
"""The threshold of a label with too few development readings to choose one."""
AT = datetime(2026, 11, 2, tzinfo=UTC)


def dev_lines() -> list[memory_quality.Line]:
    every = (*memory_quality.CONVERSATIONS, *memory_quality.LATE_CONVERSATIONS)
    return [line for c in (*every, memory_quality.GROUP_CHAT) for line in c.lines]


def right(reading: Reading, line: memory_quality.Line) -> bool:
    """Whether the reading holds one of the line's expected facts. A value said to be over
    is right where the expected fact names it ("left shopify" for "not Shopify"): the
    scripted conversations word such facts as the rules do."""
    fact = reading.fact
    value = fact.value.lower()
    over = value.removeprefix(ENDED) if reading.span.modality != "cur" else None
    return any(
        fact.subject == e.subject
        and fact.category.value == e.category
        and (e.value.lower() in value or (over is not None and over in e.value.lower()))
        for e in line.expects
    )


def written_right(reading: Reading, row: dict) -> bool:
    """Whether a reading of a written dev line is one of its marked values: the same label,
    current or not as marked, whose the value is as marked, and the same words (one
    holding the other: "a red Vespa" and "red Vespa")."""
    mine = (
        reading.fact.value.lower().removeprefix(ENDED) if reading.span.modality != "cur" else None
    )
    value = mine if mine is not None else reading.fact.value.lower()
    for start, end, label, modality, subject in row["spans"]:
        marked = row["text"][start:end].lower()
        if (
            label == reading.span.label
            and (modality == "cur") == (reading.span.modality == "cur")
            and subject == reading.span.subject
            and (marked in value or value in marked)
        ):
            return True
    return False


def written_dev_rows() -> list[dict]:
    """The hand-written lines kept out of training (training/written.py), whole."""
    paths = sorted(written.WRITTEN.glob("*.txt"))
    rows, _ = written.read_files(paths)
    return [row for row in rows if written.is_dev(row)]


SOURCES = ("scripted", "written", "dev")
Found = dict[str, list[tuple[float, bool]]]
"""(confidence, right) of readings, by label."""


def decided_by_bar(reading: Reading) -> bool:
    """Whether the threshold decides this reading: the type checks keep it."""
    return reading.refused in ("", "below its label's confidence")


def scripted_readings(reader: TrainedReader, found: Found) -> None:
    for line in dev_lines():
        turn = TurnInput(stream="chat:dev", user=line.text, at=AT, speaker=line.speaker)
        for reading in filter(decided_by_bar, reader.readings(turn)):
            found[reading.span.label].append((reading.span.confidence, right(reading, line)))


def written_readings(reader: TrainedReader, found: Found) -> None:
    for row in written_dev_rows():
        asked = PreviousTurn(speaker="assistant", text=row["previous"]) if row["previous"] else None
        turn = TurnInput(stream="chat:dev", user=row["text"], at=AT, previous=asked)
        for reading in filter(decided_by_bar, reader.readings(turn)):
            ok = written_right(reading, row)
            found[reading.span.label].append((reading.span.confidence, ok))


def dev_set_paths(named: list[Path]) -> list[Path]:
    """The development sets' files: each named file, and every set in a named folder."""
    paths: list[Path] = []
    for path in named:
        if path.is_dir():
            paths += sorted(path.glob("*.jsonl"))
        elif path.is_file():
            paths.append(path)
        else:
            raise SystemExit(f"{path}: no such development set or folder")
    return paths


def set_turns(path: Path) -> list[tuple[TurnInput, dict]]:
    """Each line of a set with the turn its reader is given when benchmarks/frozen_sets.py
    feeds the chat through the pipeline."""
    out = []
    for lines in frozen_sets.chats(path).values():
        for n, line in enumerate(lines):
            before = lines[n - 1] if n else None
            turn = TurnInput(
                stream="chat:dev",
                user=line["user"],
                at=AT,
                speaker=line.get("speaker"),
                previous=answered(line, before),
            )
            out.append((turn, line))
    return out


def answered(line: dict, before: dict | None) -> PreviousTurn | None:
    """The turn before as the pipeline gives it: the assistant message the line answers
    (`asked`) after the chat's previous user line ("Hi." opening a chat), else the chat's
    previous user line."""
    if line.get("asked"):
        return PreviousTurn(
            speaker="assistant",
            text=line["asked"],
            opening=before["user"] if before else "Hi.",
            opening_speaker=(before or {}).get("speaker") or "user",
        )
    if before is None:
        return None
    return PreviousTurn(speaker=before.get("speaker") or "user", text=before["user"])


def fact_right(reading: Reading, line: dict) -> bool:
    """A development set's reading is right when its fact holds one of the line's expected
    facts (the frozen sets' test); never on a line that states nothing."""
    return not line.get("nothing") and any(
        frozen_sets._holds(reading.fact, e)  # type: ignore[arg-type]
        for e in line.get("expects", ())
    )


def dev_set_readings(reader: TrainedReader, paths: list[Path], found: Found) -> None:
    for path in paths:
        for turn, line in set_turns(path):
            for reading in filter(decided_by_bar, reader.readings(turn)):
                found[reading.span.label].append(
                    (reading.span.confidence, fact_right(reading, line))
                )


def collect(
    reader: TrainedReader, sources: tuple[str, ...], dev_sets: list[Path] | None = None
) -> Found:
    """(confidence, right) of every reading the type checks keep, by label, on the
    development text of `sources`."""
    found: Found = defaultdict(list)
    if "scripted" in sources:
        scripted_readings(reader, found)
    if "written" in sources:
        written_readings(reader, found)
    if "dev" in sources:
        dev_set_readings(reader, dev_set_paths(dev_sets or [frozen_sets.DEV_SETS]), found)
    return found


def choose(readings: list[tuple[float, bool]], target: float, overall: float) -> float:
    if len(readings) < FEWEST:
        return overall
    for least in GRID:
        kept = [ok for confidence, ok in readings if confidence >= least]
        if len(kept) >= 3 and sum(kept) / len(kept) >= target:
            return least
    return OFF


HELD_GRID = (0.5, 0.65, 0.8, 0.9)
HELD_OFF = 2.0
"""A bar no reading reaches: no reading below its label's bar updates anything."""
HELD_COST = 0.005
"""The share of control conversations that may lose their held value beyond those that
lose it with no such updates: a true fact ended is worse than an update missed (which is
still marked possibly outdated)."""


def choose_held(manifest: str) -> float:
    """The bar for updates of held slots, chosen on benchmarks/updates_dev.py."""
    import updates_dev

    def run(bar: float) -> tuple[int, int, int]:
        """(updates right, held values lost in the controls, controls judged)."""
        print(f"\nheld_min_confidence {bar}:")
        t = updates_dev.run("tuned", False, held_least=bar, manifest=manifest)
        judged = [t[k] for k in ("repeat", "others") if k in t]
        lost = sum(x.cases - x.old_not_read - x.right for x in judged)
        cases = sum(x.cases - x.old_not_read for x in judged)
        right = sum(t[k].right for k in ("change", "ended") if k in t)
        return right, lost, cases

    _, lost_off, cases = run(HELD_OFF)
    best, best_right = HELD_OFF, -1
    for bar in HELD_GRID:
        right, lost, _ = run(bar)
        if (lost - lost_off) <= HELD_COST * cases and right > best_right:
            best, best_right = bar, right
    return best


def write_held(manifest: str) -> None:
    bar = choose_held(manifest)
    folder, name = frozen_sets.manifest_at(manifest)
    path = folder / name
    data = json.loads(path.read_text())
    data["held_min_confidence"] = bar
    data["held_chosen_on"] = (
        "benchmarks/updates_dev.py (the written dev lines as conversations): the lowest bar"
        f" of {list(HELD_GRID)} with the most updates right whose controls lose at most"
        f" {HELD_COST:.0%} more held values than with no held updates"
    )
    path.write_text(json.dumps(data, indent=2) + "\n")
    print(f"held_min_confidence {bar} written to {path}")


def sources_of(text: str) -> tuple[str, ...]:
    named = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = set(named) - set(SOURCES)
    if unknown or not named:
        raise SystemExit(f"--sources takes some of {', '.join(SOURCES)}, not {text!r}")
    return named


def print_table(found: Found, chosen: dict[str, float]) -> None:
    print(f"{'label':<12} {'n':>4} {'right':>6}  " + " ".join(f"{g:>5}" for g in GRID) + "  chosen")
    for label in sorted(found):
        rows = found[label]
        cells = []
        for least in GRID:
            kept = [ok for c, ok in rows if c >= least]
            cells.append(f"{sum(kept) / len(kept):.2f}" if kept else "  -  ")
        print(
            f"{label:<12} {len(rows):>4} {sum(ok for _, ok in rows):>6}  "
            + " ".join(f"{c:>5}" for c in cells)
            + f"  {chosen[label]}"
        )


SOURCE_NAMES = {
    "scripted": "benchmarks/memory_quality.py scripted conversations",
    "written": "the written dev lines (training/written.py)",
    "dev": "the development sets by fact ({})",
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", type=float, default=0.9)
    parser.add_argument(
        "--manifest", default=FROZEN, help="the reader to calibrate: a shipped name, or a path"
    )
    parser.add_argument(
        "--sources", default="scripted,written", help=f"development text: some of {SOURCES}"
    )
    parser.add_argument(
        "--dev-sets", nargs="*", type=Path, help="development sets (files or folders) for 'dev'"
    )
    parser.add_argument("--dry-run", action="store_true", help="print the choice, write nothing")
    parser.add_argument(
        "--held",
        action="store_true",
        help="choose held_min_confidence on benchmarks/updates_dev.py instead",
    )
    args = parser.parse_args()
    if args.held:
        write_held(args.manifest)
        return
    sources = sources_of(args.sources)
    folder, name = frozen_sets.manifest_at(args.manifest)
    reader = TrainedReader(folder=folder, least=GRID[0], label_least={}, manifest=name).load()
    try:
        found = collect(reader, sources, args.dev_sets)
    except frozen_sets.SetFormatError as exc:
        raise SystemExit(str(exc)) from None
    chosen = {label: choose(rows, args.target, UNJUDGED) for label, rows in found.items()}
    print_table(found, chosen)
    for label in slot_table():
        chosen.setdefault(label, UNJUDGED)
    if args.dry_run:
        return
    path = folder / name
    manifest = json.loads(path.read_text())
    manifest["min_confidence"] = GRID[0]
    manifest["label_min_confidence"] = dict(sorted(chosen.items()))
    manifest["label_target_precision"] = args.target
    sets = ", ".join(p.stem for p in dev_set_paths(args.dev_sets or [frozen_sets.DEV_SETS]))
    manifest["label_chosen_on"] = " + ".join(
        SOURCE_NAMES[source].format(sets) if source == "dev" else SOURCE_NAMES[source]
        for source in sources
    )
    path.write_text(json.dumps(manifest, indent=2) + "\n")
    print(f"written to {path}")


if __name__ == "__main__":
    main()
