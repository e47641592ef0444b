"""What the llm model costs per chat turn: requests, prompt and completion tokens, per task.

It replays the recorded answers (tests/cassettes/llm_eval.jsonl) to the eval set's
conversations and the coverage streams through the public API, and counts what was sent
and answered with threefold's own tokenizer (cl100k; a chat model's own is within a few
percent):

- prompt tokens: the system and user messages plus the JSON schema, as sent (compact);
- of which cacheable: the system prompt and the schema, the same for every request of a
  task and stream kind, which a provider's prompt caching bills at the cached rate once
  the prefix is seen (OpenAI: 1,024 tokens or more; Anthropic and others: a marked prefix);
- completion tokens: the recorded answers.

Two ways of reading chat turns are measured:

- batched (``model.batch_turns`` = 8, the default): turns waiting together (the eval
  feeds a conversation, then processes it, as a backfill or an import does) share one
  extraction request;
- one per turn (``batch_turns`` = 1): what a live chat costs, each turn read as it comes.
  Its extraction answers are not recorded (the same turns, read alone, are other
  requests): the prompt side is measured, the completion column is the batched one's.

mem0's published figure, two model calls per add (extract, then update), is the reference.

    .venv/bin/python benchmarks/llm_cost.py
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from llm_eval import conversations, recorded_model, run, run_coverage  # noqa: E402

from tests.cassette import request_key, task_of  # noqa: E402
from threefold.tokens import count_tokens  # noqa: E402

MEM0_CALLS_PER_ADD = 2

Cost = tuple[int, int, int]
"""(prompt tokens, of which cacheable, completion tokens) of one request."""


def _cost(request: dict, answers: dict[str, str]) -> Cost:
    system, *rest = request["messages"]
    schema = (request.get("response_format") or {}).get("json_schema", {}).get("schema")
    fixed = count_tokens(system["content"])
    if schema:
        fixed += count_tokens(json.dumps(schema, separators=(",", ":")))
    prompt = fixed + sum(count_tokens(m["content"]) for m in rest)
    completion = count_tokens(answers.get(request_key(request), ""))
    return prompt, fixed, completion


def _slack_from(requests: list[dict]) -> int:
    """Where the Slack side starts: the chats are fed and processed first, then the
    messages, so every request from the first routing or digest on is theirs."""
    team = ("route", "extract_from_messages")
    return next((n for n, r in enumerate(requests) if task_of(r) in team), len(requests))


def _row(name: str, costs: list[Cost], per: float, unit: str | int) -> str:
    n = len(costs)
    prompt, cached, completion = (sum(c[i] for c in costs) for i in range(3))
    scale = float(unit) / per
    return (
        f"{name:<22} {n:>8} {n * scale:>9.2f} {prompt / n:>10.0f} {cached / n:>9.0f}"
        f" {(prompt - cached) / n:>12.0f} {completion / n:>14.0f}"
        f" {prompt * scale:>10.0f} {(prompt - cached) * scale:>10.0f}"
    )


def measure(batch_turns: int) -> tuple[dict[str, dict[str, list[Cost]]], int, int]:
    """Costs by side (chat, slack) and task, with the chat turns and Slack messages fed."""
    chats = conversations()
    with recorded_model() as (model, server):
        run(model, chats, batch_turns=batch_turns)
        chat_turns, messages = run_coverage(model, batch_turns=batch_turns)
        requests = list(server.requests)
        answers = server.cassette.answers
    turns = sum(len(c["turns"]) for c in chats) + chat_turns
    by_side: dict[str, dict[str, list[Cost]]] = defaultdict(lambda: defaultdict(list))
    slack_from = _slack_from(requests)
    for n, request in enumerate(requests):
        side = "slack" if n >= slack_from else "chat"
        by_side[side][task_of(request)].append(_cost(request, answers))
    return by_side, turns, messages


def _table(tasks: dict[str, list[Cost]], per: int, unit: int) -> None:
    for task, costs in sorted(tasks.items()):
        print(_row(task, costs, per, unit))
    print(_row("all", [c for costs in tasks.values() for c in costs], per, unit))


def main() -> None:
    batched, turns, messages = measure(batch_turns=8)
    alone, _, _ = measure(batch_turns=1)
    header = (
        f"{'task':<22} {'requests':>8} {'req/unit':>9} {'prompt/req':>10} {'cacheable':>9}"
        f" {'uncached/req':>12} {'completion/req':>14} {'prompt/u':>10} {'uncached/u':>10}"
    )
    print(f"{turns} chat turns and {messages} Slack messages\n")
    print(header)
    print("-- per chat turn, batched (model.batch_turns = 8: turns waiting together)")
    _table(batched["chat"], turns, 1)
    print("-- per chat turn, one request per turn (model.batch_turns = 1: a live chat)")
    # these extraction answers are not recorded: each turn is given the batched answers'
    # completion tokens per turn
    per_turn = round(sum(c for *_, c in batched["chat"]["extract_facts"]) / turns)
    sent = alone["chat"]["extract_facts"]
    alone["chat"]["extract_facts"] = [(p, f, per_turn) for p, f, _ in sent]
    _table(alone["chat"], turns, 1)
    print("-- per 1,000 Slack messages")
    _table(batched["slack"], messages, 1000)
    print(
        "\n(one per turn: extraction completion tokens are the batched answers' per turn;"
        " its other tasks replay what the rules then found, so they may differ a little)"
    )
    print(f"mem0, for reference: {MEM0_CALLS_PER_ADD} model calls per add (extract, then update)")


if __name__ == "__main__":
    main()
