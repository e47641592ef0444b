"""Write the reader's training data: labelled utterances from templates.txt and vocab.json.

Each output line is one unit the trained reader reads at run time: the message it answers
(``previous``, may be empty) and one sentence or clause run (``text``), with the value
spans it states: ``[start, end, slot, modality, subject]`` (character offsets in ``text``).
Relation words and people's names are spans too, slot ``REL`` and ``PER``.

Vocabulary values that occur in any frozen evaluation set are left out, so the evaluation
measures wordings and values the model never saw.

    python training/generate.py [--count 24000] [--seed 7] [--out training/data/utterances.jsonl]
"""

import argparse
import json
import random
import re
from collections import Counter
from pathlib import Path

HERE = Path(__file__).parent
EVAL_SETS = HERE.parent / "benchmarks" / "data" / "reader_eval"
SPAN = re.compile(
    r"\{(?P<slot>[A-Za-z_]+)(?:\.(?P<mod>\w+))?(?:@(?P<subj>\w+))?(?::(?P<vocab>[A-Z_+]+))?\}"
)
CHOICE = re.compile(r"\[([^\[\]]*)\]")
MODALITIES = ("cur", "former", "neg", "hypo", "ask")
SUBJECTS = ("self", "rel", "per")
# How often each register is drawn. "bare": a lone word or number said with no question
# before it, which states nothing (after "How old are you?" it would).
REGISTER_WEIGHTS = {
    "plain": 0.16,
    "multi": 0.07,
    "change": 0.12,
    "casual": 0.10,
    "formal": 0.06,
    "nonnative": 0.07,
    "onway": 0.08,
    "terse": 0.10,
    "group": 0.05,
    "nothing": 0.13,
    "long": 0.06,
    "bare": 0.02,
}


def load_templates(path: Path) -> dict[str, list[tuple[str, str]]]:
    by_register: dict[str, list[tuple[str, str]]] = {}
    for line in path.read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        register, body = line.split("\t", 1)
        previous, _, text = body.rpartition(" ||| ")
        by_register.setdefault(register, []).append((previous, text))
    return by_register


def held_out_words() -> str:
    """All text of the frozen evaluation sets, lowercased, to keep their values out."""
    parts = []
    for path in EVAL_SETS.glob("*.jsonl"):
        for line in path.read_text().splitlines():
            row = json.loads(line)
            parts += [row.get("user", ""), row.get("asked", "")]
    return " ".join(parts).lower()


def load_vocab(path: Path) -> dict[str, list[str]]:
    held_out = held_out_words()
    vocab = json.loads(path.read_text())
    kept = {}
    for kind, values in vocab.items():
        if kind in (
            "EMOJI",
            "QUESTION_TAIL",
            "FILLER",
            "MONTH",
            "FAV_KIND",
            "WHEN",
            "DATE",
            "AGE",
            "SMALL_NUMBER",
        ):
            kept[kind] = values
            continue
        kept[kind] = [v for v in values if not re.search(rf"\b{re.escape(v.lower())}\b", held_out)]
    return kept


class Filler:
    def __init__(self, vocab: dict[str, list[str]], rng: random.Random) -> None:
        self.vocab, self.rng = vocab, rng

    def fill(self, template: str) -> tuple[str, list[list]]:
        """The template with choices made and spans filled, and the spans' offsets."""
        template = CHOICE.sub(lambda m: self.rng.choice(m.group(1).split("|")), template)
        out, spans, at = [], [], 0
        for match in SPAN.finditer(template):
            out.append(template[at : match.start()])
            slot, vocab = match["slot"], match["vocab"]
            kinds = (vocab or slot).split("+")  # DOSE+MED: one span of two picks
            value = " ".join(self.rng.choice(self.vocab[kind]) for kind in kinds)
            start = sum(map(len, out))
            out.append(value)
            if vocab is not None and slot not in self.vocab or slot in ("REL", "PER"):  # labelled
                spans.append(
                    [
                        start,
                        start + len(value),
                        slot,
                        match["mod"] or "cur",
                        match["subj"] or "self",
                    ]
                )
            at = match.end()
        out.append(template[at:])
        return "".join(out), spans


# --- registers: ways people write the same thing ----------------------------------------


def lowercase(text: str, spans: list[list]) -> str:
    return text.lower()


def drop_apostrophes(text: str, spans: list[list]) -> tuple[str, list[list]]:
    return _delete_chars(text, spans, "'")


def _delete_chars(text: str, spans: list[list], chars: str) -> tuple[str, list[list]]:
    keep = [i for i, c in enumerate(text) if c not in chars]
    index = {old: new for new, old in enumerate(keep)}
    moved = []
    for start, end, *rest in spans:
        inside = [index[i] for i in range(start, end) if i in index]
        if inside:
            moved.append([inside[0], inside[-1] + 1, *rest])
    return "".join(text[i] for i in keep), moved


def typo(text: str, spans: list[list], rng: random.Random) -> str:
    """Swap two letters of one word outside every span: the length stays the same."""
    words = [
        m
        for m in re.finditer(r"[a-z]{4,}", text)
        if not any(s <= m.start() < e for s, e, *_ in spans)
    ]
    if not words:
        return text
    word = rng.choice(words)
    i = rng.randrange(word.start(), word.end() - 1)
    return text[:i] + text[i + 1] + text[i] + text[i + 2 :]


def register_noise(
    text: str, spans: list[list], rng: random.Random, vocab: dict
) -> tuple[str, list[list]]:
    if rng.random() < 0.25:
        text = lowercase(text, spans)
    if rng.random() < 0.15:
        text, spans = drop_apostrophes(text, spans)
    if rng.random() < 0.15:
        text = typo(text, spans, rng)
    if rng.random() < 0.12:
        text = text.rstrip(".") + " " + rng.choice(vocab["EMOJI"])
    if rng.random() < 0.10:
        lead = rng.choice(vocab["FILLER"]) + ", "
        text, spans = lead + text, [[s + len(lead), e + len(lead), *r] for s, e, *r in spans]
    return text, spans


def long_unit(filler: Filler, templates: dict, rng: random.Random) -> tuple[str, list[list]]:
    """A rambling run of clauses in one sentence, as long messages are written."""
    parts, spans = [], []
    joins = [", and ", ", which ", " - ", ", so ", ", but anyway ", "; "]
    for n in range(rng.randint(2, 4)):
        register = rng.choice(["plain", "plain", "change", "nothing", "onway"])
        _, template = rng.choice(templates[register])
        text, found = filler.fill(template)
        text = text.rstrip(".?!")
        if n:
            text = text[0].lower() + text[1:] if not text.startswith("I ") else text
            parts.append(rng.choice(joins))
        offset = sum(map(len, parts))
        spans += [[s + offset, e + offset, *r] for s, e, *r in found]
        parts.append(text)
    return "".join(parts) + rng.choice([".", "?", "!", ""]), spans


def unit(filler: Filler, templates: dict, vocab: dict, rng: random.Random) -> dict:
    register = rng.choices(list(REGISTER_WEIGHTS), weights=list(REGISTER_WEIGHTS.values()))[0]
    previous = ""
    if register == "long":
        text, spans = long_unit(filler, templates, rng)
    else:
        prev_template, template = rng.choice(templates[register])
        text, spans = filler.fill(template)
        previous = filler.fill(prev_template)[0] if prev_template else ""
    if register != "nothing" or rng.random() < 0.5:
        text, spans = register_noise(text, spans, rng, vocab)
    if not previous and register != "bare" and rng.random() < 0.2:
        previous = filler.fill(rng.choice(templates["terse"])[0])[0]  # a question it ignores
    return {"register": register, "previous": previous, "text": text, "spans": spans}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=24000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", type=Path, default=HERE / "data" / "utterances.jsonl")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    vocab = load_vocab(HERE / "vocab.json")
    templates = load_templates(HERE / "templates.txt")
    filler = Filler(vocab, rng)
    held_out = {
        json.loads(line).get("user", "").lower()
        for path in EVAL_SETS.glob("*.jsonl")
        for line in path.read_text().splitlines()
    }
    rows, seen = [], set()
    while len(rows) < args.count:
        row = unit(filler, templates, vocab, rng)
        key = (row["previous"], row["text"])
        if key in seen or row["text"].lower() in held_out:
            continue
        seen.add(key)
        rows.append(row)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    slots = Counter(s[2] for r in rows for s in r["spans"])
    print(f"{len(rows)} utterances -> {args.out}")
    print("registers:", dict(Counter(r["register"] for r in rows)))
    print("slots:", dict(sorted(slots.items())))


if __name__ == "__main__":
    main()
