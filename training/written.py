"""Hand-written training lines (``training/written/*.txt``) and the whole training set.

The generated utterances (generate.py) come from templates: the reader learns them to 0.96
span F1 and still misreads people. The written lines were typed one by one, in many
voices, to teach it how people really say things. This module reads them, checks them,
cuts them into the pieces the reader reads at run time, and joins them to the generated
data, with the splits every training script shares.

File format, one utterance per line (blank lines and ``#`` lines are skipped)::

    REGISTER<TAB>TEXT
    REGISTER<TAB>PREVIOUS ||| TEXT

PREVIOUS is the message the utterance answers. Values are marked inline as
``[[LABEL|text]]``, ``[[LABEL.MODALITY|text]]``, ``[[LABEL@SUBJECT|text]]`` or
``[[LABEL.MODALITY@SUBJECT|text]]``: LABEL is a value label of models/reader/data/slots.json
or a marker (REL, PER); MODALITY and SUBJECT as in models/reader/labels.py.

    .venv/bin/python training/written.py [FILE ...]     # check, and count per register/label
"""

import collections
import hashlib
import itertools
import json
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from threefold.models.reader.labels import MARKERS, MODALITIES, SUBJECTS, slot_table
from threefold.models.reader.units import units

HERE = Path(__file__).parent
GENERATED = HERE / "data" / "utterances.jsonl"
WRITTEN = HERE / "written"
REGISTERS = frozenset(
    ("plain", "casual", "change", "nothing", "onway", "terse", "multi", "long", "nonnative")
    + ("formal", "group", "bare")
)
DEV_PERCENT = 15
"""Written lines kept out of training to measure the reader on realistic text (chosen by
a hash of the line's text, so a line stays on its side as the files grow)."""
UNPUNCTUATED_PERCENT = 30
"""Written training lines seen a second time as typed without punctuation or apostrophes
(voice-to-text, hurried texting: "im at monzo now not sage"), chosen by a hash of their
text; never dev lines."""
SWAPPED_PERCENT = 50
"""Written training lines seen once more with their values swapped for other lines' values
of the same label (`swapped`), chosen by a hash of their text; never dev lines."""
SWAPPED_LABELS = frozenset(
    ("name", "age", "nationality", "religion", "home", "hometown", "employer", "job")
    + ("studies", "relation", "pet", "condition", "medication", "allergy", "diet")
    + ("birthday", "anniversary", "language", "PER")
)
"""Labels whose values are names of one kind, which any other value of the label can
stand in for; a plan or a liking is a verb phrase that fits only its own sentence, and a
possession or a favourite may be a car or a farm, a food or a place."""
GENERATED_SEED = 7
"""The generated data's held-out tenth is the one train.py and finetune.py always used."""
_SPAN = re.compile(r"\[\[([^\[\]|]+)\|([^\[\]|]+)\]\]")
_PUNCTUATION = frozenset(".,!?;:'’\"“”")
_NUMBER_MARKS = frozenset(".,:")
"""Kept between two digits: "5.30", "1,950", "7:45" say a number, not a pause."""

# What each row is for, in the arrays every script shares.
GENERATED_TRAIN, GENERATED_HELD, WRITTEN_TRAIN, WRITTEN_DEV = range(4)
ROLE_NAMES = ("generated train", "generated held-out", "written train", "written dev")


class WrittenLineError(ValueError):
    """A written line that does not follow the format."""


def parse(line: str) -> dict:
    """One line as a training row: register, previous, text (marks removed) and spans
    [start, end, label, modality, subject]; WrittenLineError says what is wrong."""
    register, tab, rest = line.partition("\t")
    if not tab or register not in REGISTERS:
        raise WrittenLineError(f"unknown register {register!r} (or no TAB after it)")
    previous, sep, text = rest.partition(" ||| ")
    if not sep:
        previous, text = "", rest
    if "[[" in previous:
        raise WrittenLineError("spans belong in the text, not in PREVIOUS")
    plain, spans, at = "", [], 0
    labels = {*slot_table(), *MARKERS}
    for m in _SPAN.finditer(text):
        plain += text[at : m.start()]
        label, _, subject = m.group(1).partition("@")
        label, _, modality = label.partition(".")
        modality, subject = modality or "cur", subject or "self"
        if label not in labels or modality not in MODALITIES or subject not in SUBJECTS:
            raise WrittenLineError(f"bad span label {m.group(1)!r}")
        value = m.group(2)
        if value != value.strip() or not value:
            raise WrittenLineError(f"span text has edge spaces or is empty: {value!r}")
        spans.append([len(plain), len(plain) + len(value), label, modality, subject])
        plain += value
        at = m.end()
    plain += text[at:]
    if "[[" in plain or "]]" in plain:
        raise WrittenLineError("unclosed or malformed [[...]]")
    if not plain.strip() or plain != plain.strip():
        raise WrittenLineError("empty text, or spaces at its ends")
    if register == "nothing" and spans:
        raise WrittenLineError("a 'nothing' line has spans")
    return {"register": register, "previous": previous.strip(), "text": plain, "spans": spans}


def read_files(paths: Iterable[Path]) -> tuple[list[dict], list[str]]:
    """The rows of every file, each text once (the first wins) and with the name of its
    file, and one message per bad line naming its file and line number."""
    rows, bad, seen = [], [], set()
    for path in sorted(paths):
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if not line.strip() or line.startswith("#"):
                continue
            try:
                row = parse(line)
            except WrittenLineError as exc:
                bad.append(f"{path.name}:{n}: {exc}: {line[:100]}")
                continue
            key = (row["previous"].lower(), row["text"].lower())
            if key not in seen:
                seen.add(key)
                rows.append({**row, "file": path.name})
    return rows, bad


def is_dev(row: dict) -> bool:
    return _share(row["text"]) < DEV_PERCENT


def _share(text: str, salt: str = "") -> int:
    """A line's place from 0 to 99, the same on every run and as the files grow."""
    digest = hashlib.sha256((salt + text.lower()).encode()).digest()
    return int.from_bytes(digest[:4], "big") % 100


def unpunctuated(row: dict) -> dict | None:
    """The row as typed without punctuation or apostrophes, its spans moved to match;
    None when that changes nothing or would empty a span or leave spaces at an edge."""
    text = row["text"]
    kept = [not _pause(text, i) for i in range(len(text))]
    if all(kept):
        return None
    moved = [0, *itertools.accumulate(kept)]  # where each old offset lands
    bare = "".join(char for char, keep in zip(text, kept, strict=True) if keep)
    spans = [[moved[s], moved[e], *rest] for s, e, *rest in row["spans"]]
    values = [bare[s:e] for s, e, *_ in spans]
    if bare != bare.strip() or not bare or any(not v or v != v.strip() for v in values):
        return None
    return {**row, "text": bare, "spans": spans}


def value_pool(rows: Iterable[dict]) -> dict[str, list[str]]:
    """Every value the training lines mark, by label, each once, in a fixed order."""
    pool: dict[str, set[str]] = collections.defaultdict(set)
    for row in rows:
        for start, end, label, *_ in row["spans"]:
            if label in SWAPPED_LABELS:
                pool[label].add(row["text"][start:end])
    return {label: sorted(values) for label, values in pool.items()}


def swapped(row: dict, pool: dict[str, list[str]]) -> dict | None:
    """The row with each name or noun value replaced by another line's value of the same
    label (lowercased where the writer typed it so), its spans moved to match; None if it
    has no such value. Real people name towns, firms and drugs no line has: a reader that
    learns the values' words rather than the wording around them misses those."""
    rng = np.random.default_rng(_share(row["text"], "swap-seed") + 1000 * len(row["text"]))
    text, out, at, spans = row["text"], "", 0, []
    for start, end, label, *rest in sorted(row["spans"]):
        value = text[start:end]
        if label in SWAPPED_LABELS and len(pool.get(label, ())) > 1:
            value = _fitted(pool[label][rng.integers(len(pool[label]))], value)
        out += text[at:start]
        spans.append([len(out), len(out) + len(value), label, *rest])
        out += value
        at = end
    out += text[at:]
    return {**row, "text": out, "spans": spans} if out != text else None


def _fitted(value: str, written: str) -> str:
    """`value` in the case the writer used for the value it replaces."""
    return value.lower() if written == written.lower() else value


def _pause(text: str, at: int) -> bool:
    """Whether the character at `at` is punctuation a hurried writer leaves out."""
    char = text[at]
    if char not in _PUNCTUATION:
        return False
    between_digits = 0 < at < len(text) - 1 and text[at - 1].isdigit() and text[at + 1].isdigit()
    return not (char in _NUMBER_MARKS and between_digits)


def as_read(row: dict) -> list[dict]:
    """The row as the reader meets it at run time: cut into the pieces units() reads
    (sentences, long ones cut at clause marks; code and whole questions left out), each
    with its own spans, the first with the answered message. A piece a span crosses the
    edge of is left out: its labels would teach a value's edges wrong."""
    text = row["text"]
    out, at = [], 0
    for unit in units(text, row["previous"]):
        start = _locate(text, unit.text, at)
        if start is None:
            continue
        end = start + len(unit.text)
        at = end
        crossed = any(
            s < end and e > start and not (start <= s and e <= end) for s, e, *_ in row["spans"]
        )
        if crossed:
            continue
        inside = [
            [s - start, e - start, *rest] for s, e, *rest in row["spans"] if start <= s and e <= end
        ]
        out.append({**row, "previous": unit.previous, "text": unit.text, "spans": inside})
    return out


def _locate(text: str, piece: str, at: int) -> int | None:
    """Where `piece` starts in `text` at or after `at`; None if units() changed its spaces."""
    found = text.find(piece, at)
    return found if found >= 0 else None


def _more_forms(row: dict, pool: dict[str, list[str]]) -> list[dict]:
    """The training line's other forms: unpunctuated, and with its values swapped, each
    for a share of the lines."""
    bare = unpunctuated(row) if _share(row["text"], "bare") < UNPUNCTUATED_PERCENT else None
    other = swapped(row, pool) if _share(row["text"], "swap") < SWAPPED_PERCENT else None
    return [form for form in (bare, other) if form is not None]


@dataclass
class TrainingSet:
    rows: list[dict]
    roles: np.ndarray
    """Each row's role: GENERATED_TRAIN, GENERATED_HELD, WRITTEN_TRAIN or WRITTEN_DEV."""
    digest: str
    """sha256 over the generated data and every written file (name and bytes)."""
    files: dict[str, str]
    """Each data file (relative to training/) and its sha256."""


def training_set(folder: Path = WRITTEN) -> TrainingSet:
    """The generated utterances and the written lines, as rows the reader reads, with the
    role of each row. Written lines are split into train and dev by line, before cutting,
    so the pieces of one line stay on one side."""
    raw = GENERATED.read_bytes()
    generated = [json.loads(line) for line in raw.decode().splitlines()]
    held = np.random.default_rng(GENERATED_SEED).permutation(len(generated))[: len(generated) // 10]
    roles = np.full(len(generated), GENERATED_TRAIN, dtype=np.int8)
    roles[held] = GENERATED_HELD
    paths = sorted(folder.glob("*.txt"))
    written, bad = read_files(paths)
    if bad:
        raise SystemExit("malformed written lines:\n" + "\n".join(bad[:20]))
    rows, more = list(generated), []
    pool = value_pool(row for row in written if not is_dev(row))
    for row in written:
        role = WRITTEN_DEV if is_dev(row) else WRITTEN_TRAIN
        row_forms = [row, *_more_forms(row, pool)] if role == WRITTEN_TRAIN else [row]
        for piece in (p for form in row_forms for p in as_read(form)):
            rows.append({**piece, "source": "written"})
            more.append(role)
    files = {str(GENERATED.relative_to(HERE)): hashlib.sha256(raw).hexdigest()}
    whole = hashlib.sha256(raw)
    for path in paths:
        data = path.read_bytes()
        files[str(path.relative_to(HERE))] = hashlib.sha256(data).hexdigest()
        whole.update(path.name.encode() + b"\0" + data)
    return TrainingSet(
        rows, np.concatenate([roles, np.array(more, dtype=np.int8)]), whole.hexdigest(), files
    )


def main() -> None:
    paths = [Path(p) for p in sys.argv[1:]] or sorted(WRITTEN.glob("*.txt"))
    rows, bad = read_files(paths)
    for message in bad:
        print(message)
    registers = collections.Counter(r["register"] for r in rows)
    labels = collections.Counter(f"{s[2]}.{s[3]}@{s[4]}" for r in rows for s in r["spans"])
    pieces = [p for r in rows for p in as_read(r)]
    dev = sum(is_dev(r) for r in rows)
    print(f"{len(rows)} lines ok ({dev} dev), {len(bad)} malformed; {len(pieces)} pieces read")
    print("registers:", dict(registers.most_common()))
    print("labels:", dict(sorted(labels.items())))


if __name__ == "__main__":
    main()
