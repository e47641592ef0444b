"""Updates at the level of stored facts, on development text (never the frozen sets).

Cases come from the written dev split (training/written.py keeps 15% of the hand-written
lines out of training, by a hash of their text). Each case is a conversation of three
turns on its own stream, run through the public API (Memory on a temporary SQLite file,
add_turn, process_pending, facts()):

1. a plain earlier statement of a value ("I live in Reading."), from
   benchmarks/data/updates_dev/statements.json;
2. a small-talk turn whose assistant side is the message the dev line answers, if any;
3. the dev line itself.

Kinds of case, by the dev line's marked spans (the writer's own values only):

- change: a former or denied value and a current one of the same label ("moved to
  Swindon from Reading"); the earlier statement says the former value. Right when the
  new value is held by an active fact, the old value by none (except as past: a former
  slot, "not ..."), and a stored fact of the old value is kept inactive (history).
- ended: a former or denied value that nothing in the line replaces ("sold the camper");
  right when the old value is no longer active and its fact is kept inactive.
- repeat (control): a current value alone; the earlier statement says that same value.
  Right when a fact of it is still active (nothing must end it).
- others (control): a current value of someone else (a relative, a named person); the
  earlier statement gives the user a value of that label ("held" in the data file).
  Right when the user's value is still active.
- profile (control): one dev line in four (by hash) that states nothing of the writer as
  former or denied, after six turns that give the user a home, employer, job, car, shifts
  and diet ("held" values; less the labels the line states of the writer). Right when
  every one of them the first turns stored is still active: a weak misreading in any held
  slot would end one.

The earlier statement must have been stored for a case to be judged: cases whose first
turn stored nothing of the old value are counted apart ("old not read"; "right/read" is
the share right of the others).

Written in session 23 (issues 35, 36) to choose how sure a reading below its label's bar
must be to update a held slot; development text, so it may be tuned on. Figures (right of
those whose first turn was read; controls: held values lost), first on main at 16a1bfb,
then with the change at each bar (`--held-least`; "none" is the change with no reading
below its label's bar updating anything: its hints and endings only):

    run                 change   ended   repeat lost  others lost  profile lost
    main 16a1bfb        35/140   12/83   10/596       2/275        10/414
    change, none        35/140   15/83   10/596       2/275        10/414
    change, 0.65        62/140   30/83   14/596       2/275        23/414
    change, 0.8         54/140   25/83   11/596       2/275        17/414
    change, 0.9         45/140   21/83   11/596       2/275        13/414

0.9 is the manifest's (training/calibrate.py --held: the most updates right whose controls
lose at most 0.5% more held values than none: 0.65 loses 17 more of 1,285, 0.8 eight,
0.9 four). Missed updates below the bar mark the held fact possibly outdated instead.

    .venv/bin/python benchmarks/updates_dev.py [--reader auto|rules|tuned] [--show]
        [--held-least 0.6]
"""

import argparse
import hashlib
import json
import re
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

HERE = Path(__file__).parent
sys.path.insert(0, str(HERE.parent / "training"))

import frozen_sets  # noqa: E402
import written  # noqa: E402

from threefold import Memory  # noqa: E402
from threefold.domain import Fact  # noqa: E402
from threefold.models.heuristic import READERS, HeuristicModel  # noqa: E402
from threefold.models.reader import TUNED, TrainedReader  # noqa: E402
from threefold.models.reader.labels import ENDED, slot_table  # noqa: E402

STATEMENTS = HERE / "data" / "updates_dev" / "statements.json"
START = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)
STEP = timedelta(hours=5)
KINDS = ("change", "ended", "repeat", "others", "profile")
PROFILE = ("home", "employer", "job", "owns", "shifts", "diet")
"""The slots a profile control holds before its line: those most often updated."""
_WORD = re.compile(r"[^\W_]+(?:['-][^\W_]+)*")
_SKIP = frozenset({"a", "an", "the", "my", "our", "his", "her", "their", "your", "of", "in"})


@dataclass(frozen=True)
class Case:
    kind: str
    label: str
    previous: str
    line: str
    old: str
    new: str = ""
    watched: tuple[str, ...] = ()
    """A profile control's labels, each held with its "held" value before the line."""


@dataclass
class Tally:
    cases: int = 0
    right: int = 0
    old_not_read: int = 0
    misses: list[str] = field(default_factory=list)


def words(text: str) -> frozenset[str]:
    return frozenset(w for w in _WORD.findall(text.lower()) if w not in _SKIP)


def _bare(value: str) -> str:
    return re.sub(r"^(?:a|an|the|my|our)\s+", "", value.strip(" ,.;:!?\"'()"), flags=re.I)


def statements() -> dict[str, dict[str, str]]:
    data = json.loads(STATEMENTS.read_text(encoding="utf-8"))
    data.pop("_doc", None)
    return data


def said(label: str, value: str) -> str:
    value = _bare(value)
    article = "an" if value[:1].lower() in "aeiou" else "a"
    return statements()[label]["say"].format(value=value, a_value=f"{article} {value}")


def cases() -> list[Case]:
    rows, _ = written.read_files(sorted(written.WRITTEN.glob("*.txt")))
    known = statements()
    out: list[Case] = []
    for row in (r for r in rows if written.is_dev(r)):
        text, spans = row["text"], row["spans"]

        def value(span: list, text: str = text) -> str:
            return text[span[0] : span[1]]

        own = [s for s in spans if s[4] == "self" and s[2] in known]
        before = [s for s in own if s[3] in ("former", "neg")]
        current = [s for s in own if s[3] == "cur"]
        if before:
            s = before[0]
            new = next((c for c in current if c[2] == s[2]), None)
            kind = "change" if new is not None else "ended"
            out.append(Case(kind, s[2], row["previous"], text, value(s), value(new) if new else ""))
        elif current:
            s = current[0]
            out.append(Case("repeat", s[2], row["previous"], text, value(s)))
        else:
            theirs = [
                s
                for s in spans
                if s[4] in ("rel", "per") and s[3] == "cur" and s[2] in known and s[2] != "name"
            ]
            if theirs:
                label = theirs[0][2]
                out.append(Case("others", label, row["previous"], text, known[label]["held"]))
        if not any(s[4] == "self" and s[3] in ("former", "neg") for s in spans) and _half(text):
            stated = {s[2] for s in spans if s[4] == "self"}
            watched = tuple(label for label in PROFILE if label not in stated)
            out.append(Case("profile", "", row["previous"], text, "", watched=watched))
    return out


def _half(text: str) -> bool:
    """One line in four, by a hash of its text: the profile controls' share."""
    return hashlib.sha256(text.encode()).digest()[0] % 4 == 0


def _holds(fact: Fact, value: str) -> bool:
    """Whether `fact` states `value` as its own value: every content word of one is in the
    other (a value said shorter or longer)."""
    mine, theirs = words(fact.value.removeprefix(ENDED)), words(_bare(value))
    return bool(mine and theirs) and (mine <= theirs or theirs <= mine)


def _as_past(fact: Fact) -> bool:
    """A fact that states its value as past: a former slot, or "not ..."."""
    former = {e["former"] for e in slot_table().values() if "former" in e}
    return (
        fact.value.lower().startswith(ENDED)
        or fact.slot in former
        or fact.slot.startswith("former")
        or "(formerly)" in fact.text
    )


def _current(facts: list[Fact], value: str) -> list[Fact]:
    return [f for f in facts if f.active and f.subject == "user" and _holds(f, value)]


def judge(case: Case, facts: list[Fact], first: list[Fact]) -> tuple[bool, str]:
    """(right, why not) for one case, given the stream's facts after the whole case and
    those its first turn stored."""
    if case.kind == "profile":
        return _profile_kept(case, facts, first)
    stated = [f for f in first if f.subject == "user" and _holds(f, case.old)]
    if not stated:
        return False, "old not read"
    old_now = [f for f in _current(facts, case.old) if not _as_past(f)]
    if case.kind in ("repeat", "others"):
        return (True, "") if old_now else (False, "held value ended")
    kept = any(not f.active for f in facts if f.id in {s.id for s in stated})
    if case.kind == "change":
        new_now = [f for f in _current(facts, case.new) if not _as_past(f)]
        if not new_now:
            return False, "new value not current"
    if old_now:
        return False, "old value still current"
    if not kept:
        return False, "old fact not kept in history"
    return True, ""


def model(reader: str, held_least: float | None, manifest: str = TUNED) -> object:
    """The heuristic model with `reader`; with `held_least`, the trained reader of
    `manifest` (a shipped name, or a path: frozen_sets.manifest_at) beside the rules with
    that bar for updates of held slots instead of its manifest's."""
    if held_least is None:
        return frozen_sets.reader_model(reader)
    folder, name = frozen_sets.manifest_at(manifest)
    return HeuristicModel(
        TrainedReader(folder=folder, manifest=name, held_least=held_least), required=True
    )


def _profile_kept(case: Case, facts: list[Fact], first: list[Fact]) -> tuple[bool, str]:
    """Whether every watched value the profile turns stored is still current."""
    held = statements()
    read = [label for label in case.watched if _current(first, held[label]["held"])]
    if not read:
        return False, "old not read"
    lost = [label for label in read if not _current(facts, held[label]["held"])]
    return (False, "held value ended: " + ", ".join(lost)) if lost else (True, "")


def run(
    reader: str, show: bool, held_least: float | None = None, manifest: str = TUNED
) -> dict[str, Tally]:
    tallies: dict[str, Tally] = defaultdict(Tally)
    why: dict[str, Counter] = defaultdict(Counter)
    todo = cases()
    with tempfile.TemporaryDirectory() as tmp:
        settings = {"background_worker": False, "model": model(reader, held_least, manifest)}
        with Memory.open(Path(tmp) / "updates.db", embedder=None, **settings) as mem:
            for n, case in enumerate(todo):
                stream = f"dev:{n}"
                at = START + n * timedelta(days=1)
                if case.kind == "profile":
                    for k, label in enumerate(case.watched):
                        value = statements()[label]["held"]
                        mem.add_turn(stream, user=said(label, value), assistant="Ok.", at=at)
                        at += timedelta(minutes=1 + k)
                else:
                    mem.add_turn(
                        stream, user=said(case.label, case.old), assistant="Got it.", at=at
                    )
                mem.process_pending()
                first = mem.facts(stream, include_inactive=True)
                mem.add_turn(
                    stream,
                    user="ok thanks",
                    assistant=case.previous or "Anything else on your mind?",
                    at=at + STEP,
                )
                mem.add_turn(stream, user=case.line, assistant="", at=at + 2 * STEP)
                mem.process_pending()
                right, reason = judge(case, mem.facts(stream, include_inactive=True), first)
                tally = tallies[case.kind]
                tally.cases += 1
                tally.right += right
                tally.old_not_read += reason == "old not read"
                if not right:
                    why[case.kind][reason.split(":")[0]] += 1
                    tally.misses.append(f"{reason}: [{case.label}] {case.line[:140]!r}")
    report(tallies, why, show)
    return tallies


def report(tallies: dict[str, Tally], why: dict[str, Counter], show: bool) -> None:
    print(f"{'kind':<8} {'cases':>6} {'right':>6} {'share':>6} {'old read':>9} {'right/read':>11}")
    for kind in KINDS:
        t = tallies.get(kind)
        if t is None:
            continue
        read = t.cases - t.old_not_read
        print(
            f"{kind:<8} {t.cases:>6} {t.right:>6} {t.right / t.cases:>6.2f} {read:>9}"
            f" {t.right / read if read else 0:>11.2f}"
        )
    for kind in KINDS:
        if why.get(kind):
            print(f"  {kind}: " + ", ".join(f"{r} {n}" for r, n in why[kind].most_common()))
    if show:
        for kind in KINDS:
            for miss in tallies[kind].misses if kind in tallies else ():
                print(f"  [{kind}] {miss}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--reader", default="auto", choices=[*READERS])
    parser.add_argument("--show", action="store_true", help="list every case not right")
    parser.add_argument(
        "--held-least",
        type=float,
        help="the tuned reader's bar for updates of a held slot (default: its manifest's)",
    )
    args = parser.parse_args()
    print(f"reader: {args.reader}, held-least: {args.held_least}")
    run(args.reader, args.show, args.held_least)


if __name__ == "__main__":
    main()
