"""What global facts cost a project's context: the owner's roles, decisions, preferences
and routines in the `global` stream, shown in every stream's context.

    python benchmarks/global_facts.py [--budgets 1000 2000 4000 6000] [--filler 100]

On a fresh SQLite file (heuristic model, no vectors): the owner's statements of
benchmarks/data/global_facts/owner.json go to `global` as turns (two preferences of
others as write_fact, since the rules reader does not read them), then the Project Alpha
story (threefold.faces.demo) with `--filler` turns after its key ones goes to
`project:alpha`. Each question is asked at each budget, once with the global categories of
before issue 36's deliverable 4 (role, decision) and once with today's defaults. Prints the
mean tokens of the global facts section and of the whole context, the global facts shown,
and how many of the project's three current facts (Raj, Priya on backend, March 27) the
context still holds. Asserts nothing.

First run (session 20, 100 filler turns, five questions; the machine loaded, tokens are
not timings):

    categories                             budget  global tokens  context tokens  global facts  project facts
    role, decision                           1000             15             942           0.6          3.0/3
    role, decision                           2000             79            1671           3.2          3.0/3
    role, decision                           4000             93            2044           4.2          3.0/3
    role, decision                           6000             93            2166           4.2          3.0/3
    role, decision, preference, recurring    1000             15             941           0.6          3.0/3
    role, decision, preference, recurring    2000            218            1753           8.0          3.0/3
    role, decision, preference, recurring    4000            218            2135           8.0          3.0/3
    role, decision, preference, recurring    6000            257            2330          11.0          3.0/3

So the owner's preferences and the organisation's routines cost about 140 tokens at
2,000-4,000 (160 at 6,000) for eight to eleven global facts, and no project fact leaves.
At 1,000 the facts' share holds one global fact either way.
"""  # noqa: E501

import argparse
import json
import tempfile
from datetime import UTC, datetime, timedelta
from pathlib import Path
from statistics import mean

from threefold import Memory, load_settings
from threefold.faces import demo

DATA = Path(__file__).parent / "data" / "global_facts" / "owner.json"
BEFORE = ("role", "decision")
PROJECT_FACTS = ("Raj", "backend", "March 27")
START = datetime(2026, 9, 1, 9, tzinfo=UTC)


def fill(mem: Memory, data: dict, filler: int) -> None:
    for n, line in enumerate(data["global"]):
        mem.add_turn("global", line, "Noted.", at=START + timedelta(hours=n))
    for text, subject, slot, value in data["preferences_written"]:
        mem.write_fact(
            "global", text, category="preference", subject=subject, slot=slot, value=value
        )
    for turn in demo.story(filler_after=filler):
        mem.add_turn(demo.STREAM, turn.user, turn.assistant, at=turn.at)
    mem.process_pending()


def measure(mem: Memory, questions: list[str], budget: int) -> tuple[float, float, float, float]:
    section, total, shown, kept = [], [], [], []
    for question in questions:
        ctx = mem.context(demo.STREAM, question, budget)
        found = [s for s in ctx.sections if s.name == "global_facts"]
        section.append(sum(s.tokens for s in found))
        shown.append(sum(len(s.items) for s in found))
        total.append(ctx.tokens)
        kept.append(sum(said in ctx.text for said in PROJECT_FACTS))
    return mean(section), mean(total), mean(shown), mean(kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budgets", type=int, nargs="+", default=[1000, 2000, 4000, 6000])
    parser.add_argument("--filler", type=int, default=100)
    args = parser.parse_args()
    data = json.loads(DATA.read_text(encoding="utf-8"))
    print(
        f"{'categories':<38} {'budget':>6} {'global tokens':>14} {'context tokens':>15}"
        f" {'global facts':>13} {'project facts':>14}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for categories in (BEFORE, None):
            extra = {} if categories is None else {"global_pinned_categories": categories}
            settings = load_settings(db=Path(tmp) / "g.db", embed={"kind": "none"}, **extra)
            with Memory.open(settings=settings, background_worker=False) as mem:
                if categories == BEFORE:
                    fill(mem, data, args.filler)
                label = ", ".join(mem.settings.global_pinned_categories)
                for budget in args.budgets:
                    section, total, shown, kept = measure(mem, data["questions"], budget)
                    print(
                        f"{label:<38} {budget:>6} {section:>14.0f} {total:>15.0f}"
                        f" {shown:>13.1f} {kept:>12.1f}/3"
                    )


if __name__ == "__main__":
    main()
