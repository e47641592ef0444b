"""Where the shipped reader's facts are lost: a stage for every expected fact it misses.

Every development set (benchmarks/data/reader_dev; with `--locomo`, LoCoMo's development
annotations instead) is read end to end as benchmarks/frozen_sets.py reads it (rules and trained
reader blended, literal judge), while a recording model keeps what each stage made of
each turn: the pieces the reader read (models/reader/units.py), every span the graph
tagged at any confidence, every reading with its refusal and the verifier's chance, the
rules' facts and the blended list. Each missed fact gets the furthest stage one of its
value's spans reached (:data:`STAGES`, pipeline order); each false stored fact a reason
and the reader that wrote it. A fair judge is named beside the literal one where a
span holds the right label but not the expected words: it accepts the same date or
number in other words (frozen_sets' by-meaning judge) or a value that keeps the expected
value's last word and at least half its words.

    PYTHONPATH=src .venv/bin/python training/losses.py [--locomo locomo_dev.json]
        [--manifest reader_tuned.json] [--examples 5]

About a minute on one core for the 33 sets.
"""

import argparse
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
sys.path.insert(0, str(Path(__file__).resolve().parent))
import frozen_sets as fs  # noqa: E402
import verifier as fit_verifier  # noqa: E402

from threefold import Memory  # noqa: E402
from threefold.domain import Fact  # noqa: E402
from threefold.models.base import ExtractedFact, Standing, TurnInput  # noqa: E402
from threefold.models.heuristic import HeuristicModel, extract  # noqa: E402
from threefold.models.heuristic.text import sentences  # noqa: E402
from threefold.models.reader import DATA, TUNED, TrainedReader  # noqa: E402
from threefold.models.reader.checks import BELOW, Reading  # noqa: E402
from threefold.models.reader.facts import _value  # noqa: E402
from threefold.models.reader.heads import Span  # noqa: E402
from threefold.models.reader.labels import slot_table  # noqa: E402
from threefold.models.reader.units import asks, looks_like_code, units  # noqa: E402
from threefold.models.reader.verify import clues  # noqa: E402

STAGES = (
    "value not in the line's words",
    "a repair turn: kept, then left to the repair layer's edits",
    "never reached the graph",
    "no span on the value's words",
    "a span of another label",
    "right label, value cut or extended",
    "right label, under the graph's floor",
    "read as hypothetical or asked",
    "no reading made (no subject found)",
    "read about another subject",
    "refused by a type check",
    "verifier under its bar",
    "kept, the rules' fact stands (blend)",
    "blended, dropped by the pipeline",
    "stored about another subject",
)
"""Pipeline order: a miss is charged to the furthest stage any of its spans reached."""


@dataclass
class TurnRecord:
    """What each stage made of one turn."""

    pieces: list[str]
    spans: list[tuple[str, list[Span]]]
    readings: list[tuple[Reading, float]]
    rules: list[ExtractedFact]
    blended: list[ExtractedFact]
    repair: bool = False
    least: float = 0.5
    """The reader's least confidence (its manifest's ``min_confidence``)."""


class RecordingReader(TrainedReader):
    """The trained reader, keeping the spans of the turn it last read (read once)."""

    last: tuple[tuple[str, str], list[tuple[str, list[Span]]]] | None = None

    def sentence_spans(self, turn: TurnInput) -> list[tuple[str, list[Span]]]:
        key = (turn.user, turn.previous.text if turn.previous else "")
        if self.last is None or self.last[0] != key:
            self.last = (key, super().sentence_spans(turn))
        return self.last[1]


class RecordingModel(HeuristicModel):
    """The default model's reading (rules, reader, blend), every stage kept by turn."""

    def __init__(self, reader: RecordingReader) -> None:
        super().__init__(reader, required=True)
        self.turns: dict[tuple[str, str], TurnRecord] = {}

    def extract_facts(self, turn: TurnInput) -> list[ExtractedFact]:
        reader = self.reader
        assert isinstance(reader, RecordingReader)
        blended = super().extract_facts(turn)  # the default model's own reading
        rules = extract.extract_facts(turn)
        readings = reader.readings(turn)
        chances = _chances(reader, turn)
        previous = turn.previous.text if turn.previous else None
        self.turns[(turn.stream, turn.user)] = TurnRecord(
            [u.text for u in units(turn.user, previous)],
            reader.sentence_spans(turn),
            [(r, chances.get(_where(r.sentence, r.span), 1.0)) for r in readings],
            rules,
            blended,
            repair=bool(turn.repair),
            least=reader._least(),
        )
        return blended


def _chances(reader: TrainedReader, turn: TurnInput) -> dict[tuple, float]:
    verifier = reader._verifier
    if verifier is None:
        return {}
    every = reader.turn_reads(turn)
    found = clues(turn, every)
    return {_where(r.text, r.span): verifier.chance(found[id(r)]) for r in every}


def _where(sentence: str, span: Span) -> tuple:
    return (sentence, span.start, span.end, span.label)


@dataclass
class Tally:
    missed: Counter = field(default_factory=Counter)
    by_category: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    changes: dict[str, Counter] = field(default_factory=lambda: defaultdict(Counter))
    examples: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    wrong: Counter = field(default_factory=Counter)
    wrong_examples: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))
    detail: Counter = field(default_factory=Counter)
    expected: int = 0
    captured: int = 0
    stored: int = 0


def category_of(label: str) -> str:
    entry = slot_table().get(label)
    return str(entry["category"]) if entry else label


def fair(value: str, expected: str) -> bool:
    """The fair judge: the same date or number, or the expected value's last word and at
    least half its words."""
    if fs._meaning(expected) and f" {fs._meaning(expected)} " in f" {fs._meaning(value)} ":
        return True
    want, have = expected.lower().split(), set(value.lower().split())
    return bool(want) and want[-1] in have and 2 * len(have & set(want)) >= len(want)


def stage_of(expect: dict, line: dict, record: TurnRecord | None, stored: list[Fact]) -> tuple:
    """(stage, detail) of an expected fact the store does not hold."""
    subject, category = expect.get("subject", "user"), expect["category"]
    value = expect["value"].lower().strip()
    if not value:
        return STAGES[0], "empty"
    if any(
        f.category.value == category and value in f.value.lower() and f.subject != subject
        for f in stored
    ):
        return STAGES[-1], ""
    if value not in line["user"].lower():
        where = "in the question" if value in (line.get("asked") or "").lower() else "reworded"
        return STAGES[0], where
    if record is None:
        return STAGES[2], "no turn read"
    best: tuple[int, str] = (2, _unreached(line["user"], value))
    for piece, found in record.spans:
        at = piece.lower().find(value)
        if at < 0:
            continue
        best = max(best, _piece_stage(expect, piece, found, at, record))
    if record.repair and best[0] >= STAGES.index("kept, the rules' fact stands (blend)"):
        return STAGES[1], STAGES[best[0]]  # the reading went to the repair layer's judgement
    return STAGES[best[0]], best[1]


def _unreached(user: str, value: str) -> str:
    for sentence in sentences(user):
        if value in sentence.lower():
            if asks(sentence):
                return "a question"
            return "code-like" if looks_like_code(sentence) else "cut into pieces"
    return "split across sentences"


def _piece_stage(
    expect: dict, piece: str, found: list[Span], at: int, record: TurnRecord
) -> tuple[int, str]:
    value, category = expect["value"].lower(), expect["category"]
    end = at + len(value)
    over = [s for s in found if s.start < end and s.end > at]
    values = [s for s in over if s.label in slot_table()]
    if not values:
        if over:
            return (3, "a name or relation word only")
        elsewhere = any(s.label in slot_table() for s in found)
        return (3, "spans on other words" if elsewhere else "no value span in the piece")
    right = [s for s in values if category_of(s.label) == category]
    if not right:
        return (4, f"{category} as {values[0].label}")
    best: tuple[int, str] = (5, "")
    for span in right:
        said = _value(piece, span).lower()
        if value not in said:
            best = max(best, (5, "fair" if fair(said, value) else "not fair"))
            continue
        if span.confidence < record.least:
            best = max(best, (6, f"{span.confidence:.2f}"))
            continue
        best = max(best, _reading_stage(expect, piece, span, record))
    return best


def _reading_stage(expect: dict, piece: str, span: Span, record: TurnRecord) -> tuple[int, str]:
    if span.modality in ("hypo", "ask"):
        return (7, span.modality)
    mine = [(r, p) for r, p in record.readings if r.sentence == piece and r.span == span]
    if not mine:
        return (8, _no_reading(span))
    best: tuple[int, str] = (8, "")
    for reading, chance in mine:
        fact = reading.fact
        if fact.subject != expect.get("subject", "user"):
            best = max(best, (9, f"{span.subject}: {fact.subject}"))
        elif reading.refused and reading.refused != BELOW:
            best = max(best, (10, reading.refused))
        elif reading.standing is not Standing.FACT:
            best = max(best, (11, _band(chance)))
        elif not any(_same_fact(fact, f) for f in record.blended):
            best = max(best, (12, ""))
        else:
            best = max(best, (13, ""))
    return best


def _band(chance: float) -> str:
    """The verifier's chance in bands, its bar 0.66 the last edge."""
    edges = (0.3, 0.5, 0.6, 0.66)
    low = max((e for e in edges if e <= chance), default=0.0)
    high = min((e for e in edges if e > chance), default=1.0)
    return f"{low:.2f}-{high:.2f}"


def _no_reading(span: Span) -> str:
    if span.label in ("relation", "pet") and span.modality != "cur":
        return "a relation said as over"
    return f"whose: {span.subject}"


def _same_fact(a: ExtractedFact, b: ExtractedFact) -> bool:
    return (a.subject, a.slot, a.value.lower()) == (b.subject, b.slot, b.value.lower())


def why_wrong(found: Fact, line: dict | None, record: TurnRecord | None) -> tuple[str, str]:
    """(who wrote it, why it is false) of a stored fact no expect of its line holds."""
    value = found.value.lower()
    who = "rules"
    if record is not None and not any(f.value.lower() == value for f in record.rules):
        who = "reader" if any(f.value.lower() == value for f in record.blended) else "pipeline"
    if line is None:
        return who, "not from a line"
    if line.get("nothing"):
        return who, "from a line that states nothing"
    expects = line.get("expects", ())
    for e in expects:
        if e["value"].lower() in value or fair(value, e["value"]):
            if e["category"] != found.category.value:
                return who, "another label of an expected value"
            if e.get("subject", "user") != found.subject:
                return who, "an expected value about another subject"
            if fair(value, e["value"]):
                return who, "an expected value in other words (the fair judge's)"
            return who, "an expected value cut or extended"
    if value.startswith("not ") and value[4:] not in line["user"].lower():
        return who, "said to be over, not said"
    if any(w in line["user"].lower() for w in value.split() if len(w) > 3):
        return who, "a value the line names but does not state"
    return who, "a value the line does not name"


def run_chat(stream: str, lines: list[dict], model: RecordingModel, tally: Tally) -> None:
    with (
        tempfile.TemporaryDirectory() as tmp,
        Memory.open(Path(tmp) / "l.db", model=model, embedder=None, background_worker=False) as mem,
    ):
        by_turn = fs.feed(mem, stream, lines)
        stored = mem.facts(stream, include_inactive=True)
    for line in lines:
        record = model.turns.get((stream, line["user"]))
        for expect in line.get("expects", ()):
            _tally_expect(expect, line, record, stored, tally)
    for found in stored:
        line = by_turn.get(int(found.source.id)) if found.source.kind == "turn" else None
        tally.stored += 1
        if line is not None and any(fs._holds(found, e) for e in line.get("expects", ())):
            continue
        record = model.turns.get((stream, line["user"])) if line else None
        who, why = why_wrong(found, line, record)
        tally.wrong[(who, why)] += 1
        said = line["user"][:110] if line else found.source.label()
        tally.wrong_examples[why].append(f"{who}: {found.text!r} << {said!r}")


def _tally_expect(
    expect: dict, line: dict, record: TurnRecord | None, stored: list[Fact], tally: Tally
) -> None:
    tally.expected += 1
    change = "correction" if expect.get("correction") else "update" if "old" in expect else ""
    if any(fs._holds(f, expect) for f in stored):
        tally.captured += 1
        if change:
            tally.changes[change][_change_fate(expect, stored)] += 1
        return
    stage, detail = stage_of(expect, line, record, stored)
    tally.missed[stage] += 1
    tally.detail[(stage, detail)] += 1
    tally.by_category[expect["category"]][stage] += 1
    if change:
        tally.changes[change][f"new value missed: {stage}"] += 1
    tally.examples[stage].append(
        f"{expect['category']} {expect['value']!r} ({detail}) << {line['user'][:110]!r}"
    )


def _change_fate(expect: dict, stored: list[Fact]) -> str:
    """Why a change whose new value was captured is right or not (frozen_sets' test)."""
    subject, old, new = expect.get("subject", "user"), expect["old"].lower(), expect["value"]
    same = [f for f in stored if f.subject == subject and f.category.value == expect["category"]]
    if not any(f.active and fs._holds(f, expect) for f in stored):
        return "new value captured, then ended or superseded"
    if any(f.active and fs._asserts(f, old, new.lower()) for f in same):
        return "old value still current"
    if not any(f.status in fs._GONE and fs._asserts(f, old, new.lower()) for f in same):
        seen = any(fs._asserts(f, old, new.lower()) for f in same)
        return "old value never stored" if not seen else "old value kept but not ended"
    return "right"


def spread(texts: list[str], count: int) -> list[str]:
    """`count` of `texts` taken evenly through them (the sets in turn, not the first set's)."""
    if count <= 0:
        return []
    return texts[:: max(1, len(texts) // count)][:count]


def report(tally: Tally, examples: int) -> None:
    missed = tally.expected - tally.captured
    print(f"expected {tally.expected}, captured {tally.captured}, missed {missed}")
    for stage in STAGES:
        if tally.missed[stage]:
            print(f"  {tally.missed[stage]:5}  {stage}")
            details = [(d, n) for (s, d), n in tally.detail.most_common() if s == stage and d]
            if details:
                print("         " + "; ".join(f"{d} {n}" for d, n in details[:6]))
            for text in spread(tally.examples[stage], examples):
                print("           e.g.", text)
    print("\nmissed by category (stage: count)")
    for category, counts in sorted(tally.by_category.items(), key=lambda kv: -sum(kv[1].values())):
        top = ", ".join(f"{s} {n}" for s, n in counts.most_common(3))
        print(f"  {category:13} {sum(counts.values()):4}  {top}")
    for kind, counts in tally.changes.items():
        print(f"\n{kind}s ({sum(counts.values())})")
        for fate, n in counts.most_common():
            print(f"  {n:4}  {fate}")
    wrong = sum(tally.wrong.values())
    print(f"\nstored {tally.stored}, false {wrong} (who wrote it, why)")
    for (who, why), n in tally.wrong.most_common():
        print(f"  {n:4}  {who:8} {why}")
    for why, texts in tally.wrong_examples.items():
        print(f"  {why}:")
        for text in spread(texts, examples):
            print("           e.g.", text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--manifest", type=Path, default=DATA / TUNED)
    parser.add_argument(
        "--locomo", type=Path, help="LoCoMo's JSON file: its dev annotations, not the sets"
    )
    parser.add_argument("--examples", type=int, default=5)
    parser.add_argument(
        "--dir", type=Path, default=None, help="sets to read (default: the development sets)"
    )
    args = parser.parse_args()
    fs.BY_MEANING = False
    reader = RecordingReader(folder=args.manifest.parent, manifest=args.manifest.name).load()
    model = RecordingModel(reader)
    tally = Tally()
    chats: dict[str, list[dict[str, Any]]] = {}
    if args.locomo:
        chats = fit_verifier._locomo_chats(args.locomo)
    for path in [] if args.locomo else fs.set_paths(args.dir or fs.DEV_SETS):
        chats |= {f"{path.stem}.{name}": lines for name, lines in fs.chats(path).items()}
    for name, lines in chats.items():
        run_chat(f"chat:{name}", lines, model, tally)
    report(tally, args.examples)


if __name__ == "__main__":
    main()
