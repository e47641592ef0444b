"""Fit the reading verifier (src/threefold/models/reader/verify.py) on development sets.

Every reading the graph makes on benchmarks/data/reader_dev (each line read with the
message it answers, as the pipeline reads it; type checks passed, any confidence of at
least the manifest's floor), and with `--locomo` on LoCoMo's development annotations
(benchmarks/data/locomo_facts, the text read from LoCoMo's file), is labelled right when a
fact the line expects holds it (an ended value: when the line says that value is over). A
logistic model over the verifier's clues is fitted on all sets; its bar is chosen on
predictions that are fair: each set's readings scored by a model fitted on the other sets.
The bar is the lowest whose kept readings are right at least as often as the readings the
shipped per-label bars keep, unless `--least` gives one chosen otherwise (end to end).

    .venv/bin/python training/verifier.py --out /tmp/candidate/reader_verifier.json
        [--manifest /tmp/candidate/reader_tuned.json] [--locomo locomo10.json] [--least B]

`--manifest` reads with a candidate manifest (its graph and ``min_confidence``; not the
verifier it names) in place of the shipped one.
"""

import argparse
import hashlib
import json
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import frozen_sets  # noqa: E402
import locomo_facts  # noqa: E402

from threefold.layers.people import under_known_names  # noqa: E402
from threefold.models.base import ExtractedFact, PreviousTurn, TurnInput  # noqa: E402
from threefold.models.reader import DATA, TUNED, TrainedReader  # noqa: E402
from threefold.models.reader.checks import refusal  # noqa: E402
from threefold.models.reader.heads import read_manifest  # noqa: E402
from threefold.models.reader.labels import ENDED, MODALITIES, SUBJECTS, slot_table  # noqa: E402
from threefold.models.reader.verify import Clues, Verifier, clues  # noqa: E402

WORDS = {
    "self_words": ["i", "i'm", "im", "my", "me", "mine", "myself", "we", "our", "us"],
    "other_words": ["he", "she", "his", "her", "him", "they", "their", "them", "hes", "shes"],
}
AT = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)


def readings(reader: TrainedReader, locomo: Path | None = None) -> list[tuple[str, Clues, bool]]:
    """(set, clues, right) of every reading on the development sets."""
    rows = []
    for path in frozen_sets.set_paths(frozen_sets.DEV_SETS):
        for lines in frozen_sets.chats(path).values():
            rows += _chat_readings(reader, path.stem, lines)
    if locomo is not None:
        for name, lines in _locomo_chats(locomo).items():
            rows += _chat_readings(reader, name, lines)
    return rows


def _chat_readings(
    reader: TrainedReader, name: str, lines: list[dict]
) -> list[tuple[str, Clues, bool]]:
    """The readings of one chat's lines in order, each judged as the memory files it: a
    relative's under the name a right relation reading of the chat gave them before
    (layers/people.under_known_names)."""
    rows: list[tuple[str, Clues, bool]] = []
    named: list[ExtractedFact] = []
    before = ""
    for line in lines:
        read = _line_readings(reader, name, line, line.get("asked") or before, named)
        rows += [(name, clue, right) for clue, right, _ in read]
        named += [
            fact for _, right, fact in read if right and fact.category.value == "relationship"
        ]
        before = line["user"]
    return rows


def _locomo_chats(data: Path) -> dict[str, list[dict]]:
    """LoCoMo's annotated development lines, by annotation file."""
    annotations = {
        path.stem: locomo_facts.load_annotation(path)
        for path in locomo_facts.annotation_paths(frozen=False)
    }
    chats = locomo_facts.conversations(data, {h["sample"] for h, _ in annotations.values()})
    return {
        name: locomo_facts.annotated_lines(name, header, rows, chats[header["sample"]])
        for name, (header, rows) in annotations.items()
    }


def _line_readings(
    reader: TrainedReader, name: str, line: dict, asked: str, named: list[ExtractedFact]
) -> list[tuple[Clues, bool, ExtractedFact]]:
    """(clues, right, fact as filed) of each reading of `line` the type checks pass."""
    previous = PreviousTurn(text=asked, speaker="assistant") if asked else None
    turn = TurnInput(
        stream="s", user=line["user"], at=AT, previous=previous, speaker=line.get("speaker")
    )
    reads = [r for r in reader.turn_reads(turn) if not refusal(r.text, r.span, r.fact, None)]
    found = clues(turn, reads)
    filed = under_known_names([r.fact for r in reads], named)
    expects = line.get("expects", ())
    return [
        (found[id(read)], _right(fact, expects), fact)
        for read, fact in zip(reads, filed, strict=True)
    ]


def _right(fact, expects) -> bool:
    value = fact.value.lower()
    category = fact.category.value
    for e in expects:
        if fact.subject != e.get("subject", "user") or category != e["category"]:
            continue
        if value.startswith(ENDED):
            if e.get("old") and e["old"].lower() in value:
                return True
        elif e["value"].lower() in value:
            return True
    return False


def fit(x: np.ndarray, y: np.ndarray, l2: float = 1.0) -> tuple[np.ndarray, float]:
    """Logistic regression by Newton's method on standardised features, L2 on weights;
    returns weights and bias on the raw features."""
    mean, scale = x.mean(0), x.std(0)
    scale[scale == 0] = 1.0
    z = np.hstack([(x - mean) / scale, np.ones((len(x), 1))])
    w = np.zeros(z.shape[1])
    penalty = np.full(z.shape[1], l2)
    penalty[-1] = 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(z @ w)))
        grad = z.T @ (p - y) + penalty * w
        hess = (z * (p * (1 - p))[:, None]).T @ z + np.diag(penalty)
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.abs(step).max() < 1e-8:
            break
    weights = w[:-1] / scale
    return weights, float(w[-1] - np.dot(weights, mean))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="where to write it (JSON)")
    parser.add_argument("--manifest", type=Path, help="a candidate reader manifest")
    parser.add_argument("--locomo", type=Path, help="LoCoMo's JSON file (locomo10.json)")
    parser.add_argument("--least", type=float, help="the bar, chosen end to end")
    args = parser.parse_args()
    reader = _reader(args.manifest or DATA / TUNED)
    rows = readings(reader, args.locomo)
    shape = {
        "labels": tuple(sorted(slot_table())),
        "modalities": MODALITIES,
        "subjects": SUBJECTS,
        **WORDS,
    }
    blank = Verifier.of({**shape, "weights": [], "bias": 0.0, "least": 0.5})
    x = np.array([blank.features(c) for _, c, _ in rows])
    y = np.array([right for _, _, right in rows], dtype=np.float64)
    fair = _fair(x, y, np.array([name for name, _, _ in rows]))
    shipped = dict(read_manifest(DATA / TUNED).get("label_min_confidence") or {})
    by_bars = np.array([c.span.confidence >= shipped.get(c.span.label, 0.0) for _, c, _ in rows])
    least, kept_right = _bar(fair, y, y[by_bars].mean())
    if args.least is not None:
        least, kept_right = args.least, int(y[fair >= args.least].sum())
    weights, bias = fit(x, y)
    record = {
        **shape,
        "weights": [round(float(v), 6) for v in weights],
        "bias": round(bias, 6),
        "least": least,
        "fitted": {
            "graph_sha256": reader.manifest.get("graph_sha256"),
            "min_confidence": reader.manifest.get("min_confidence"),
            "data_sha256": _sets_sha(args.locomo is not None),
            "readings": len(rows),
            "right": int(y.sum()),
            "per_label_bars_keep": f"{int(y[by_bars].sum())}/{int(by_bars.sum())}",
            "set_by_set_at_least": f"{kept_right}/{int((fair >= least).sum())}",
            "least_chosen": "given (end to end)" if args.least is not None else "by readings",
        },
    }
    args.out.write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(record["fitted"], indent=1), "least", least)


def _reader(manifest: Path) -> TrainedReader:
    """The reader of `manifest`, loaded without the verifier it may name (the fit makes
    one): from a folder of links to its files beside a manifest that names none."""
    with tempfile.TemporaryDirectory(prefix="verifier-fit-") as name:
        folder = Path(name)
        for path in manifest.parent.iterdir():
            if path.name != manifest.name:
                (folder / path.name).symlink_to(path.resolve())
        bare = {k: v for k, v in read_manifest(manifest).items() if k != "verifier"}
        (folder / manifest.name).write_text(json.dumps(bare), encoding="utf-8")
        return TrainedReader(folder=folder, manifest=manifest.name, label_least={}).load()


def _fair(x: np.ndarray, y: np.ndarray, sets: np.ndarray) -> np.ndarray:
    """Each set's chances from a model fitted on the other sets."""
    fair = np.zeros(len(y))
    for name in sorted(set(sets)):
        test = sets == name
        w, b = fit(x[~test], y[~test])
        fair[test] = 1 / (1 + np.exp(-(x[test] @ w + b)))
    return fair


def _bar(chance: np.ndarray, right: np.ndarray, target: float) -> tuple[float, int]:
    """The lowest bar whose kept readings are right at least `target` of the time."""
    for least in np.arange(0.30, 0.99, 0.01):
        kept = chance >= least
        if kept.any() and right[kept].mean() >= target:
            return round(float(least), 2), int(right[kept].sum())
    return 0.99, int(right[chance >= 0.99].sum())


def _sets_sha(with_locomo: bool) -> str:
    digest = hashlib.sha256()
    paths = frozen_sets.set_paths(frozen_sets.DEV_SETS)
    if with_locomo:
        paths += locomo_facts.annotation_paths(frozen=False)
    for path in paths:
        digest.update(path.read_bytes())
    return digest.hexdigest()


if __name__ == "__main__":
    main()
