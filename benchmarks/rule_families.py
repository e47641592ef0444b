"""Which rule family stores which fact, on development text only (never the frozen sets).

The default reader is the trained reader beside the rules (models.heuristic.blend): the
rules' fact stands where they read a slot, the reader adds the rest. This benchmark runs the
development conversations through the public API with that model and attributes every
stored fact to what produced it:

- ``reader``: the trained reader's fact, which the blend added;
- ``TABLE:<facet><first example>``: a row of models.heuristic.personal's TABLE;
- ``rules.<rule>``: a rule of models.heuristic.rules (team chat: dates, roles, decisions);
- ``<module>.<function>``: another rule path (relatives named, a denial, ...);
- a trailing ``/assistant`` for a fact read from the assistant's side.

Per family it prints the stored facts, how many are false (they match nothing their line
states), the expected facts only that family captured, and how many of its facts the
trained reader also read in the same turn (same subject and slot, or the same value), which
says what deleting the family would leave to the reader. Attribution wraps the rules at run
time (nothing stored changes); a fact whose origin cannot be told is ``unknown``.

Development text: memory_quality's conversations (data/memory_quality/*.json) and the
development sets in the frozen sets' format (data/reader_dev/*.jsonl), whose misses may be
read freely.

Session 24 (rules35), default reader, 2,320 statements (memory_quality's 2,029, which the
rules were tuned on, and reader_dev's 291): capture 0.834, 1,959 stored, precision 0.986.
The rules store 1,924 of them at 0.99 precision (on reader_dev alone 28, 22 right); the
reader adds 35 (18 right). No family of 5 or more facts has its captures all stored by the
reader as plain facts: the most covered, relatives named (84%), conditions (81%),
allergies (79%), languages (63%), ages (61%); job titles 26%.

    .venv/bin/python benchmarks/rule_families.py [--show FAMILY ...] [--sets NAME ...]
"""

import argparse
import dataclasses
import json
import sys
import tempfile
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import frozen_sets

from threefold import Memory
from threefold.domain import Fact
from threefold.models.base import ExtractedFact, Standing, TurnInput
from threefold.models.heuristic import HeuristicModel, build, extract, personal, rules
from threefold.models.heuristic import personal_values as values
from threefold.models.heuristic.blend import blend
from threefold.settings import ModelSettings

DATA = Path(__file__).parent / "data"
HEURISTIC = Path(extract.__file__).parent
_GENERIC = {"_joined", "_build", "_one_per_slot", "__init__", "replace", "_fact", "_facts"}


# --- provenance ------------------------------------------------------------------------------


def _origin(frame: Any) -> str:
    """The family of a Parsed built at `frame`: the TABLE row or rule it was read by, else
    the innermost rule function of the heuristic package that built it."""
    innermost = None
    while frame is not None:
        code = frame.f_code
        if Path(code.co_filename).parent == HEURISTIC:
            name = code.co_name
            if name == "_row_facts" and "row" in frame.f_locals:
                row = frame.f_locals["row"]
                return f"TABLE:{row.facet}<{_first_example(row)}>"
            if code.co_filename == rules.__file__ and name in _RULE_NAMES:
                return f"rules.{name}"
            if innermost is None and name not in _GENERIC and not name.startswith("<"):
                innermost = f"{Path(code.co_filename).stem}.{name}"
        frame = frame.f_back
    return innermost or "unknown"


_RULE_NAMES = {r.__name__ for r in rules.RULES}


def _first_example(row: personal.Row) -> str:
    """A row's name that survives the deletion of other rows: its first example."""
    return row.examples[0][0][:40] if row.examples else f"#{personal.TABLE.index(row)}"


def _traced_init(init: Callable[..., None]) -> Callable[..., None]:
    def traced(self: Any, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        object.__setattr__(self, "_origin", _origin(sys._getframe(1)))

    return traced


def _traced_replace(obj: Any, /, **changes: Any) -> Any:
    made = dataclasses.replace(obj, **changes)
    if hasattr(obj, "_origin"):
        object.__setattr__(made, "_origin", obj._origin)
    return made


_ORIGINS: dict[tuple[str, str, str], str] = {}
"""Per turn: (subject, slot, value) of each rule fact -> its family."""


def _traced_fact(make: Callable[..., ExtractedFact]) -> Callable[..., ExtractedFact]:
    def traced(side: Any, parsed: Any, *args: Any, **kwargs: Any) -> ExtractedFact:
        fact = make(side, parsed, *args, **kwargs)
        family = getattr(parsed, "_origin", "unknown")
        if (side.voice or side.base.speaker) != "user":
            family += "/assistant"
        _ORIGINS.setdefault((fact.subject, fact.slot, fact.value.lower()), family)
        return fact

    return traced


def trace_rules() -> None:
    """Tag every fact the rules build with its family (run-time wrappers only)."""
    rules.Parsed.__init__ = _traced_init(rules.Parsed.__init__)  # type: ignore[method-assign]
    for module in (rules, personal, values, extract):
        if hasattr(module, "replace"):
            module.replace = _traced_replace  # type: ignore[attr-defined]
    extract._fact = _traced_fact(extract._fact)


# --- the model that records what each fact came from ------------------------------------------


@dataclass
class Made:
    fact: ExtractedFact
    family: str
    reader_too: bool
    """Whether the reader alone read the same subject and slot, or the same value, surely
    enough to store it anywhere (its standing a plain fact)."""


class TracingModel(HeuristicModel):
    """The default model (rules beside the trained reader), recording each fact's family."""

    def __init__(self, default: HeuristicModel) -> None:
        super().__init__(default.reader)
        self.policy = default.policy
        self.made: dict[datetime, list[Made]] = {}
        self.read: dict[datetime, list[ExtractedFact]] = {}

    def extract_facts(self, turn: TurnInput) -> list[ExtractedFact]:
        _ORIGINS.clear()
        found = extract.extract_facts(turn)
        origins = dict(_ORIGINS)
        read = [] if self.reader is None or turn.repair else self.reader.extract_facts(turn)
        stored = [r for r in read if r.standing is Standing.FACT]
        policy = self.policy or (
            str(self.reader.manifest.get("blend", "union")) if self.reader else ""
        )
        out = blend(found, read, policy) if read else found
        self.read[turn.at] = stored
        self.made[turn.at] = [
            Made(
                f,
                "reader"
                if any(f is r for r in read)
                else origins.get((f.subject, f.slot, f.value.lower()), "unknown"),
                any(_same_reading(f, r) for r in stored),
            )
            for f in out
        ]
        return out


def _same_reading(fact: ExtractedFact, read: ExtractedFact) -> bool:
    if fact.subject != read.subject:
        return False
    mine, theirs = fact.value.lower(), read.value.lower()
    return fact.slot == read.slot or (
        fact.category == read.category and (mine in theirs or theirs in mine)
    )


# --- development text -----------------------------------------------------------------------


def memory_quality_chats() -> Iterator[tuple[str, str, list[dict[str, Any]]]]:
    """memory_quality's conversations as the frozen sets' lines."""
    for name in ("scripted", "late", "group_chat"):
        data = json.loads((DATA / "memory_quality" / f"{name}.json").read_text())
        for chat in data["conversations"]:
            yield f"mq:{name}", chat["stream"], [_frozen_line(r) for r in chat["lines"]]


def _frozen_line(row: dict[str, Any]) -> dict[str, Any]:
    line: dict[str, Any] = {"speaker": row["speaker"]} if row.get("speaker") else {}
    if "nothing" in row:
        return {**line, "user": row["nothing"], "nothing": True}
    expects = [_expect(r) for r in row.get("facts", ())]
    expects += [_expect(r[:2] + r[3:], old=r[2]) for r in row.get("changes", ())]
    return {**line, "user": row["said"], "expects": expects}


def _expect(row: list[str], old: str | None = None) -> dict[str, Any]:
    category, value, *subject = row
    expect = {"category": category, "value": value, "subject": subject[0] if subject else "user"}
    return {**expect, "old": old} if old else expect


def reader_dev_chats() -> Iterator[tuple[str, str, list[dict[str, Any]]]]:
    for path in sorted((DATA / "reader_dev").glob("*.jsonl")):
        for name, lines in frozen_sets.chats(path).items():
            yield f"dev:{path.stem}", f"chat:{name}", lines


# --- scoring ---------------------------------------------------------------------------------


@dataclass
class Family:
    stored: int = 0
    false: int = 0
    reader_too: int = 0
    false_reader_too: int = 0
    only_capture: int = 0
    """Expected facts captured by this family's facts alone."""
    only_capture_reader_too: int = 0
    """...of which the reader alone also read one in that turn."""
    examples: list[str] = field(default_factory=list)


@dataclass
class Totals:
    statements: int = 0
    captured: int = 0
    stored: int = 0
    false: int = 0
    families: dict[str, Family] = field(default_factory=lambda: defaultdict(Family))
    by_set: Counter[str] = field(default_factory=Counter)


def score_chat(
    model: TracingModel, set_name: str, stream: str, lines: list[dict[str, Any]], totals: Totals
) -> None:
    with (
        tempfile.TemporaryDirectory() as tmp,
        Memory.open(
            Path(tmp) / "dev.db", model=model, embedder=None, background_worker=False
        ) as mem,
    ):
        by_turn = frozen_sets.feed(mem, stream, lines)
        stored = mem.facts(stream, include_inactive=True)
    at_of = {
        turn_id: frozen_sets.START + timedelta(hours=6 * (n + 1))
        for n, turn_id in enumerate(by_turn)
    }
    families_of: dict[int, str] = {}
    for found in stored:
        line = by_turn.get(int(found.source.id)) if found.source.kind == "turn" else None
        if line is None:
            continue
        made = _made_for(found, model.made.get(at_of[int(found.source.id)], []))
        family = made.family if made else "unknown"
        families_of[found.id] = family
        entry = totals.families[family]
        entry.stored += 1
        totals.stored += 1
        entry.reader_too += bool(made and made.reader_too)
        if not any(frozen_sets._holds(found, e) for e in line.get("expects", ())):
            entry.false += 1
            totals.false += 1
            entry.false_reader_too += bool(made and made.reader_too)
            entry.examples.append(
                f"false [{set_name}] {found.value!r} ({found.slot}) {line['user']!r}"
            )
        else:
            entry.examples.append(
                f"right [{set_name}] {found.value!r} ({found.slot}) {line['user']!r}"
            )
    for turn_id, line in by_turn.items():
        here = [f for f in stored if f.source.kind == "turn" and int(f.source.id) == turn_id]
        read = model.read.get(at_of[turn_id], [])
        for expect in line.get("expects", ()):
            totals.statements += 1
            holders = {
                families_of.get(f.id, "unknown") for f in here if frozen_sets._holds(f, expect)
            }
            totals.captured += bool(holders)
            if len(holders) == 1:
                (family,) = holders
                entry = totals.families[family]
                entry.only_capture += 1
                entry.only_capture_reader_too += any(_read_holds(r, expect) for r in read)


def _made_for(found: Fact, made: list[Made]) -> Made | None:
    value = found.value.lower()
    exact = [m for m in made if (m.fact.subject, m.fact.slot) == (found.subject, found.slot)]
    for m in exact:
        if m.fact.value.lower() == value:
            return m
    return (
        exact[0]
        if exact
        else next(
            (m for m in made if m.fact.subject == found.subject and m.fact.value.lower() in value),
            None,
        )
    )


def _read_holds(read: ExtractedFact, expect: dict[str, Any]) -> bool:
    return (
        read.subject == expect.get("subject", "user")
        and read.category.value == expect["category"]
        and expect["value"].lower() in read.value.lower()
    )


def report(totals: Totals, show: tuple[str, ...]) -> None:
    precision = (totals.stored - totals.false) / totals.stored if totals.stored else 0.0
    print(
        f"development text: {totals.statements} statements, capture "
        f"{totals.captured / max(totals.statements, 1):.3f}; {totals.stored} stored, "
        f"precision {precision:.3f}"
    )
    print(
        f"{'family':<60} {'stored':>6} {'false':>5} {'reader':>6} {'false&rd':>8} "
        f"{'only-cap':>8} {'&reader':>7}"
    )
    ranked = sorted(totals.families.items(), key=lambda kv: (-kv[1].false, -kv[1].stored))
    for name, f in ranked:
        print(
            f"{name:<60} {f.stored:>6} {f.false:>5} {f.reader_too:>6} {f.false_reader_too:>8} "
            f"{f.only_capture:>8} {f.only_capture_reader_too:>7}"
        )
    for name, f in ranked:
        if any(name.startswith(s) for s in show):
            print(f"\n{name}:")
            for example in f.examples:
                print(f"  {example}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", nargs="*", default=(), help="families whose facts to list")
    parser.add_argument("--sets", nargs="*", default=(), help="only sets whose name starts so")
    parser.add_argument("--reader", default="auto", help="the model's reader option")
    args = parser.parse_args()
    trace_rules()
    model = TracingModel(build(ModelSettings(options={"reader": args.reader})))
    totals = Totals()
    for set_name, stream, lines in [*memory_quality_chats(), *reader_dev_chats()]:
        if not args.sets or any(set_name.startswith(s) for s in args.sets):
            score_chat(model, set_name, stream, lines, totals)
    report(totals, tuple(args.show))


if __name__ == "__main__":
    main()
