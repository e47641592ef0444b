"""What the llm model costs per chat turn: requests, prompt and completion tokens, per task,
and what OpenAI's prompt caching would take off the bill.

It replays the recorded answers (tests/cassettes/llm_eval.jsonl) to both blind sets'
conversations and the coverage streams through the public API, and counts what was sent
and answered with threefold's own tokenizer (cl100k; a chat model's own is within a few
percent):

- prompt tokens: the system and user messages plus the JSON schema, as sent (compact);
- of which cacheable: the system prompt and the schema, the same for every request of a
  task and stream kind;
- completion tokens: the recorded answers.

Two ways of reading chat turns are measured:

- batched (``model.batch_turns`` = 8, the default): turns waiting together (the eval
  feeds a conversation, then processes it, as a backfill or an import does) share one
  extraction request;
- one per turn (``batch_turns`` = 1): what a live chat costs, each turn read as it comes.
  Its answers are recorded too; a request with no recorded answer (after a prompt change,
  before recording) is given its task's mean recorded completion, and counted.

Prompt caching, OpenAI's rule: a request of 1,024 prompt tokens or more whose first
1,024 (then each further 128) tokens were sent before is billed at a discount for that
cached prefix (50% on the gpt-4o family, 75% on gpt-4.1, 90% on gpt-5; prices change, the
rule has held). Only an identical prefix is cached, so here only the system prompt and
schema can be: the second table bills each request as if every prefix long enough were
cached (the best case), with the prefix as it is and padded to 1,024 tokens, and prints
the cache hit rate above which padding would pay.

mem0's published figure, two model calls per add (extract, then update), is the reference.

    .venv/bin/python benchmarks/llm_cost.py
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parent))

from llm_eval import SETS, conversations, recorded_model, run, run_coverage  # noqa: E402

from tests.cassette import request_key, task_of  # noqa: E402
from threefold.tokens import count_tokens  # noqa: E402

MEM0_CALLS_PER_ADD = 2
CACHE_MIN = 1024
"""OpenAI caches a prompt's prefix from this many tokens on..."""
CACHE_STEP = 128
"""...in steps of this many."""
DISCOUNTS = (0.5, 0.75, 0.9)


class Cost(NamedTuple):
    """One request: prompt tokens, of which the cacheable prefix, and the completion."""

    prompt: int
    fixed: int
    completion: int
    recorded: bool


def _cost(request: dict, answers: dict[str, str]) -> Cost:
    system, *rest = request["messages"]
    schema = (request.get("response_format") or {}).get("json_schema", {}).get("schema")
    fixed = count_tokens(system["content"])
    if schema:
        fixed += count_tokens(json.dumps(schema, separators=(",", ":")))
    prompt = fixed + sum(count_tokens(m["content"]) for m in rest)
    answer = answers.get(request_key(request))
    return Cost(prompt, fixed, count_tokens(answer or ""), answer is not None)


def cached(prompt: int, prefix: int) -> int:
    """The tokens OpenAI bills at the cached rate once `prefix` was seen."""
    if prompt < CACHE_MIN or prefix < CACHE_MIN:
        return 0
    return CACHE_MIN + (prefix - CACHE_MIN) // CACHE_STEP * CACHE_STEP


def billed(costs: list[Cost], discount: float, pad_to: int = 0) -> float:
    """Prompt tokens as billed, every cacheable prefix hit; with `pad_to`, each prefix
    made that long first."""
    total = 0.0
    for c in costs:
        pad = max(pad_to - c.fixed, 0)
        total += c.prompt + pad - discount * cached(c.prompt + pad, c.fixed + pad)
    return total


def _slack_from(requests: list[dict]) -> int:
    """Where the Slack side starts: the chats are fed and processed first, then the
    messages, so every request from the first routing or digest on is theirs."""
    team = ("route", "extract_from_messages")
    return next((n for n, r in enumerate(requests) if task_of(r) in team), len(requests))


def _row(name: str, costs: list[Cost], per: float, unit: str | int) -> str:
    n = len(costs)
    prompt, fixed, completion = (sum(c[i] for c in costs) for i in range(3))
    scale = float(unit) / per
    return (
        f"{name:<22} {n:>8} {n * scale:>9.2f} {prompt / n:>10.0f} {fixed / n:>9.0f}"
        f" {(prompt - fixed) / n:>12.0f} {completion / n:>14.0f}"
        f" {prompt * scale:>10.0f} {(prompt - fixed) * scale:>10.0f}"
    )


Sides = dict[str, dict[str, list[Cost]]]


def measure(batch_turns: int) -> tuple[Sides, int, int]:
    """Costs by side (chat, slack) and task, with the chat turns and Slack messages fed."""
    chats = [chat for path in SETS for chat in conversations(path)]
    with recorded_model() as (model, server):
        run(model, chats, batch_turns=batch_turns)
        chat_turns, messages = run_coverage(model, batch_turns=batch_turns)
        requests = list(server.requests)
        answers = server.cassette.answers
    turns = sum(len(c["turns"]) for c in chats) + chat_turns
    by_side: Sides = defaultdict(lambda: defaultdict(list))
    slack_from = _slack_from(requests)
    for n, request in enumerate(requests):
        side = "slack" if n >= slack_from else "chat"
        by_side[side][task_of(request)].append(_cost(request, answers))
    return by_side, turns, messages


def _table(tasks: dict[str, list[Cost]], per: int, unit: int) -> None:
    for task, costs in sorted(tasks.items()):
        print(_row(task, costs, per, unit))
    print(_row("all", [c for costs in tasks.values() for c in costs], per, unit))


def _estimate_unrecorded(tasks: dict[str, list[Cost]], reference: dict[str, list[Cost]]) -> int:
    """Give each request with no recorded answer the mean completion of its task's
    recorded ones (in `reference` when this mode recorded none); the number given."""
    missing = 0
    for task, costs in tasks.items():
        recorded = [c.completion for c in costs if c.recorded] or [
            c.completion for c in reference.get(task, []) if c.recorded
        ]
        mean = round(sum(recorded) / len(recorded)) if recorded else 0
        missing += sum(not c.recorded for c in costs)
        costs[:] = [c if c.recorded else c._replace(completion=mean) for c in costs]
    return missing


def _caching(modes: dict[str, list[Cost]], turns: int) -> None:
    print("\nchat extraction prompt tokens per turn as billed by OpenAI, every prefix cached")
    head = "".join(f" {f'{d:.0%} off':>9} {'padded':>7}" for d in DISCOUNTS)
    print(f"{'mode':<14} {'prompt':>7} {'prefix':>7}{head} {'pays from hit rate':>19}")
    for mode, costs in modes.items():
        prompt = sum(c.prompt for c in costs) / turns
        prefix = sum(c.fixed for c in costs) / len(costs)
        cells = "".join(
            f" {billed(costs, d) / turns:>9.0f} {billed(costs, d, CACHE_MIN) / turns:>7.0f}"
            for d in DISCOUNTS
        )
        # padding adds (1,024 - prefix) tokens to each request and saves discount x 1,024
        # on each hit: it pays when the hit rate is above added / (discount x 1,024)
        added = max(CACHE_MIN - prefix, 0)
        rates = "/".join(f"{min(added / (d * CACHE_MIN), 1):.2f}" for d in DISCOUNTS)
        print(f"{mode:<14} {prompt:>7.0f} {prefix:>7.0f}{cells} {rates:>19}")


def main() -> None:
    batched, turns, messages = measure(batch_turns=8)
    alone, _, _ = measure(batch_turns=1)
    estimated = _estimate_unrecorded(alone["chat"], batched["chat"])
    header = (
        f"{'task':<22} {'requests':>8} {'req/unit':>9} {'prompt/req':>10} {'cacheable':>9}"
        f" {'uncached/req':>12} {'completion/req':>14} {'prompt/u':>10} {'uncached/u':>10}"
    )
    print(f"{turns} chat turns and {messages} Slack messages (machine loaded: tokens only)\n")
    print(header)
    print("-- per chat turn, batched (model.batch_turns = 8: turns waiting together)")
    _table(batched["chat"], turns, 1)
    print("-- per chat turn, one request per turn (model.batch_turns = 1: a live chat)")
    _table(alone["chat"], turns, 1)
    print("-- per 1,000 Slack messages")
    _table(batched["slack"], messages, 1000)
    extraction = {"batched": batched["chat"]["extract_facts"]}
    extraction["one per turn"] = alone["chat"]["extract_facts"]
    _caching(extraction, turns)
    if estimated:
        print(
            f"\n(one per turn: {estimated} requests have no recorded answer and are given"
            " their task's mean recorded completion: record them, see docs/llm-cassettes.md)"
        )
    print(f"mem0, for reference: {MEM0_CALLS_PER_ADD} model calls per add (extract, then update)")


if __name__ == "__main__":
    main()
