"""The llm model with a capable chat model's recorded answers, against the heuristic model,
on two blind sets of conversations (benchmarks/data/llm_eval.json and llm_eval_more.json,
each frozen before its answers were recorded), read in batches (model.batch_turns = 8, the
default) and one request per turn (batch_turns = 1, a live chat).

Each conversation runs through the public API on a fresh SQLite file: add_turn with the
turn's own time, process_pending, then facts(include_inactive=True). It prints, per model:

- capture: expected facts found (a stored fact with that subject whose value or text holds
  one of the words);
- updates: changes whose new value is active and whose old value no active fact holds;
- corrections: corrected values active, the replaced ones in no active fact;
- leaks: facts that must not be stored (an assistant's guess, a prompt injection) that are;
- requests and fallbacks of the llm model, and stale requests (a prompt changed since the
  cassette was recorded: re-record, see docs/llm-cassettes.md).

    .venv/bin/python benchmarks/llm_eval.py                 # both models, offline
    .venv/bin/python benchmarks/llm_eval.py --record DIR    # ask for missing answers in DIR
    .venv/bin/python benchmarks/llm_eval.py --prune         # drop answers no request used
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.cassette import CassetteServer, request_key  # noqa: E402
from threefold import Memory, load_settings  # noqa: E402
from threefold.domain import Fact  # noqa: E402
from threefold.models.base import MemoryModel  # noqa: E402
from threefold.models.heuristic import HeuristicModel  # noqa: E402
from threefold.models.llm import LLMModel  # noqa: E402

DATA = Path(__file__).with_name("data") / "llm_eval.json"
MORE = Path(__file__).with_name("data") / "llm_eval_more.json"
SETS = (DATA, MORE)
MODES = {"batched": 8, "one per turn": 1}
"""How chat turns are read: model.batch_turns."""
COVERAGE = Path(__file__).with_name("data") / "llm_coverage.json"
CASSETTE = Path(__file__).resolve().parents[1] / "tests" / "cassettes" / "llm_eval.jsonl"


@dataclass
class Tally:
    expected: int = 0
    captured: int = 0
    updates: int = 0
    updated: int = 0
    corrections: int = 0
    corrected: int = 0
    forbidden: int = 0
    leaked: int = 0
    misses: list[str] = field(default_factory=list)


def conversations(path: Path = DATA) -> list[dict]:
    return list(json.loads(path.read_text(encoding="utf-8"))["conversations"])


def _holds(fact: Fact, words: list[str]) -> bool:
    said = f"{fact.value} {fact.text}".lower()
    return any(word.lower() in said for word in words)


def _asserts(fact: Fact, old: str, new: list[str]) -> bool:
    value = fact.value.lower()
    return old in value and not _holds(fact, new) and not value.startswith("not ")


def feed(mem: Memory, conversation: dict) -> None:
    start = datetime.fromisoformat(conversation["start"])
    step = timedelta(minutes=conversation.get("step_minutes", 2))
    for n, turn in enumerate(conversation["turns"]):
        mem.add_turn(
            conversation["stream"],
            turn["user"],
            turn.get("assistant", ""),
            at=start + n * step,
            speaker=turn.get("speaker"),
            assistant_speaker=turn.get("assistant_speaker"),
        )
    mem.process_pending()


def score(stored: list[Fact], conversation: dict, tally: Tally) -> None:
    active = [f for f in stored if f.active]
    for turn in conversation["turns"]:
        for expect in turn.get("expects", []):
            tally.expected += 1
            mine = [f for f in stored if f.subject == expect["subject"]]
            if any(_holds(f, expect["value"]) for f in mine):
                tally.captured += 1
            else:
                tally.misses.append(
                    f"missed {expect['subject']}: {expect['value']} in {turn['user']!r}"
                )
            if "old" in expect:
                tally.updates += 1
                now = any(f.active and _holds(f, expect["value"]) for f in mine)
                stale = [
                    f for f in mine if f.active and _asserts(f, expect["old"], expect["value"])
                ]
                if now and not stale:
                    tally.updated += 1
                else:
                    tally.misses.append(
                        f"update {expect['old']} -> {expect['value']}: {turn['user']!r}"
                    )
        if fix := turn.get("corrects"):
            tally.corrections += 1
            now = any(_holds(f, fix["now"]) for f in active)
            gone = any(any(w in f.value.lower() for w in fix["gone"]) for f in active)
            if now and not gone:
                tally.corrected += 1
            else:
                tally.misses.append(f"correction {fix}: {turn['user']!r}")
    for absent in conversation.get("absent", []):
        tally.forbidden += 1
        said = [f for f in active if f.subject == absent["subject"] and _holds(f, absent["value"])]
        if any(not f.value.lower().startswith("not ") for f in said):
            tally.leaked += 1
            tally.misses.append(f"stored {absent['value']} ({absent['why']})")


def run(model: MemoryModel, chats: list[dict], batch_turns: int | None = None) -> Tally:
    """Feed and score each conversation; `batch_turns` overrides model.batch_turns."""
    tally = Tally()
    settings = load_settings(model={"batch_turns": batch_turns}) if batch_turns else None
    with tempfile.TemporaryDirectory() as tmp:
        for n, conversation in enumerate(chats):
            path = Path(tmp) / f"eval{n}.db"
            with Memory.open(
                path, settings=settings, model=model, embedder=None, background_worker=False
            ) as mem:
                feed(mem, conversation)
                stored = mem.facts(conversation["stream"], include_inactive=True)
            score(stored, conversation, tally)
    return tally


def run_coverage(
    model: MemoryModel, path: Path = COVERAGE, batch_turns: int | None = None
) -> tuple[int, int]:
    """Feed the coverage streams (every task of the model at least once); returns the
    numbers of chat turns and of Slack messages fed."""
    coverage = json.loads(path.read_text(encoding="utf-8"))
    given = coverage["settings"]
    if batch_turns:
        given = {**given, "model": {"batch_turns": batch_turns}}
    settings = load_settings(**given)
    with (
        tempfile.TemporaryDirectory() as tmp,
        Memory.open(
            Path(tmp) / "coverage.db",
            settings=settings,
            model=model,
            embedder=None,
            background_worker=False,
        ) as mem,
    ):
        feed(mem, coverage["chat"])
        feed(mem, coverage["project"])
        feed_restated(mem, coverage["restated"])
        at = datetime.fromisoformat(coverage["chat"]["start"]) + timedelta(days=30)
        mem.import_jira(path.with_name(coverage["jira"]), now=at)
        for n, message in enumerate(coverage["slack"]):
            ts = f"{(at + timedelta(minutes=7 * n)).timestamp():.6f}"
            mem.ingest_message(ts=ts, **message)
        mem.process_pending()
        mem.end_session(coverage["chat"]["stream"])
        mem.process_pending()
    turns = sum(len(coverage[part]["turns"]) for part in ("chat", "project", "restated"))
    return turns, len(coverage["slack"])


def feed_restated(mem: Memory, restated: dict) -> None:
    """The facts written beforehand, then the turns that say them again."""
    at = datetime.fromisoformat(restated["start"])
    for fact in restated["facts"]:
        mem.write_fact(restated["stream"], at=at - timedelta(days=1), **fact)
    feed(mem, restated)


@contextmanager
def recorded_model(
    cassette: Path = CASSETTE, answers_dir: Path | None = None
) -> Iterator[tuple[LLMModel, CassetteServer]]:
    """The llm model answered from `cassette` (recording into it with `answers_dir`)."""
    with CassetteServer(cassette, answers_dir=answers_dir) as server:
        timeout = 3600.0 if answers_dir else 10.0
        model = LLMModel(server.client(timeout=timeout), "recorded", HeuristicModel(), attempts=1)
        yield model, server


def _rate(part: int, whole: int) -> str:
    return f"{part / whole:.2f} ({part}/{whole})" if whole else "-"


def report(rows: dict[str, Tally], extra: Callable[[str], str]) -> None:
    heads = f"{'capture':>14} {'updates':>10} {'corrections':>11} {'leaks':>6}"
    print(f"{'set: model':<44} {heads}  notes")
    for name, t in rows.items():
        print(
            f"{name:<44} {_rate(t.captured, t.expected):>14} {_rate(t.updated, t.updates):>10}"
            f" {_rate(t.corrected, t.corrections):>11} {t.leaked:>3}/{t.forbidden:<2}"
            f"  {extra(name)}"
        )


def _prune(server: CassetteServer) -> None:
    """Rewrite the cassette with only the answers this run asked for, in their order:
    after a prompt changed and its requests were recorded again, the old ones are dead."""
    used = {request_key(r) for r in server.requests}
    kept = [e for e in server.cassette.entries if e["key"] in used]
    lines = [json.dumps(entry, ensure_ascii=False) for entry in kept]
    server.cassette.path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"pruned: kept {len(kept)} of {len(server.cassette.entries)} recorded answers")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", type=Path, help="write unanswered requests to this folder")
    parser.add_argument("--show-misses", action="store_true")
    parser.add_argument(
        "--prune", action="store_true", help="rewrite the cassette without unused answers"
    )
    args = parser.parse_args()
    sets = {path.name: conversations(path) for path in SETS}
    rows: dict[str, Tally] = {}
    notes: dict[str, str] = {}
    for name, chats in sets.items():
        rows[f"{name}: heuristic"] = run(HeuristicModel(), chats)
        notes[f"{name}: heuristic"] = "no requests"
    with recorded_model(answers_dir=args.record) as (model, server):
        for mode, batch_turns in MODES.items():
            for name, chats in sets.items():
                asked, stale = len(server.requests), len(server.stale)
                rows[f"{name}: llm, {mode}"] = run(model, chats, batch_turns=batch_turns)
                asked, stale = len(server.requests) - asked, len(server.stale) - stale
                notes[f"{name}: llm, {mode}"] = f"{asked} requests, {stale} stale"
            run_coverage(model, batch_turns=batch_turns)  # not scored: every other task
        fallbacks = sum(s["fallbacks"] for s in model.stats_dict().values())
        if args.prune:
            _prune(server)
    for name, chats in sets.items():
        turns = sum(len(c["turns"]) for c in chats)
        print(f"{name}: {len(chats)} conversations, {turns} turns")
    print(f"llm: {len(server.requests)} requests in all, {fallbacks} fallbacks\n")
    report(rows, notes.__getitem__)
    if args.show_misses:
        for name, tally in rows.items():
            print(f"\n{name}:")
            for miss in tally.misses:
                print(f"  {miss}")


if __name__ == "__main__":
    main()
