"""Which of a subject's facts a context shows first for a question, when its facts share
one profile line (at most PROFILE_FACTS written out).

    .venv/bin/python benchmarks/fact_focus.py [--budgets 400 800] [--embedders none hashing minilm]
        [--show] [--scale 1000 5000]

benchmarks/data/fact_focus_eval.json holds 28 facts about two subjects, written with
Memory.write_fact, and 24 questions that name what they ask in other words than the fact.
Per embedder and budget it prints how many expected facts are written out in their
subject's line (shown) and how many come first in it (first). The set was written before
profiles ranked facts by vectors and is frozen: its header records the first run.

--scale N...: instead, the CPU of one context (minilm, 2,000 tokens) over a stream of N
pinned, embedded facts about 100 people, to see what ranking by vectors costs; run it on
the code before and after to compare (CPU swells on a busy machine: the load is printed).
"""

import argparse
import json
import os
import re
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from threefold import Memory, load_settings
from threefold.domain import SourceRef
from threefold.layers.facts import record_fact
from threefold.models.base import ExtractedFact

SET = Path(__file__).parent / "data" / "fact_focus_eval.json"
STREAM = "chat:focus"


def place(text: str, subject: str, expect: str) -> int | None:
    """Where `expect` stands among what the context says of `subject`: 0 first, None if
    not written out. A line of its own counts as first."""
    for line in text.splitlines():
        if expect.lower() not in line.lower():
            continue
        named = re.match(
            rf"- (?:the )?{re.escape(subject)}: (.*?)(?:; and \d+ more)? \[\d+ facts", line, re.I
        )
        if named is None:
            return 0 if line.startswith("- ") and "[" in line else None
        parts = named[1].split("; ")
        return next(i for i, p in enumerate(parts) if expect.lower() in p.lower())
    return None


def run(data: dict, embedder: str, budgets: list[int], show: bool) -> dict[int, tuple[int, int]]:
    settings = load_settings(embed={"kind": embedder})
    out = {}
    with (
        tempfile.TemporaryDirectory(prefix="threefold-focus-") as tmp,
        Memory.open(Path(tmp) / "focus.db", settings=settings, background_worker=False) as mem,
    ):
        for fact in data["facts"]:
            mem.write_fact(
                STREAM,
                fact["text"],
                category=fact["category"],
                subject=fact["subject"],
                slot=fact["slot"],
                value=fact["text"],
            )
        mem.process_pending()
        for budget in budgets:
            shown = first = 0
            for q in data["questions"]:
                text = mem.context(STREAM, q["query"], budget).text
                at = place(text, q["subject"], q["expect"])
                shown += at is not None
                first += at == 0
                if show:
                    print(f"  {embedder} {budget} {q['query']!r}: {at}")
            out[budget] = (shown, first)
    return out


def scale(count: int, questions: int = 30) -> float:
    """CPU milliseconds of one context over `count` pinned facts, each question new."""
    settings = load_settings(embed={"kind": "minilm"})
    start = datetime(2026, 1, 1, tzinfo=UTC)
    with (
        tempfile.TemporaryDirectory(prefix="threefold-focus-") as tmp,
        Memory.open(Path(tmp) / "scale.db", settings=settings, background_worker=False) as mem,
    ):
        with mem.store.transaction():  # written as a reader would store them, at speed
            mem.store.ensure_stream(mem.tenant, STREAM)
            for n in range(count):
                who = f"person{n % 100}"
                said = f"{who.capitalize()} keeps note {n} about the allotment."
                item = ExtractedFact(
                    text=said,
                    category="note",
                    subject=who,
                    slot=f"note{n}",
                    value=str(n),
                    confidence=0.9,
                )
                at = start + timedelta(minutes=n)
                record_fact(
                    mem.store, mem.tenant, STREAM, item, SourceRef(kind="turn", id=str(n), at=at)
                )
        mem.reembed()
        mem.context(STREAM, "warm up", 2000)
        began = time.process_time()
        for n in range(questions):
            mem.context(STREAM, f"What does person{n} grow on the allotment this year?", 2000)
        return 1000 * (time.process_time() - began) / questions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", nargs="*", type=int, default=[400, 800])
    parser.add_argument("--embedders", nargs="*", default=["none", "hashing", "minilm"])
    parser.add_argument("--show", action="store_true")
    parser.add_argument("--scale", nargs="*", type=int, default=[], help="CPU at N facts")
    args = parser.parse_args()
    if args.scale:
        print(f"{'facts':>6} {'ms CPU per context':>18} {'load':>5}")
        for count in args.scale:
            print(f"{count:>6} {scale(count):>18.1f} {os.getloadavg()[0]:>5.1f}")
        return
    data = json.loads(SET.read_text(encoding="utf-8"))
    n = len(data["questions"])
    print(f"{'embedder':<10} {'budget':>6} {'shown':>7} {'first':>7}")
    for embedder in args.embedders:
        for budget, (shown, first) in run(data, embedder, args.budgets, args.show).items():
            print(f"{embedder:<10} {budget:>6} {shown:>3}/{n:<3} {first:>3}/{n:<3}")


if __name__ == "__main__":
    main()
