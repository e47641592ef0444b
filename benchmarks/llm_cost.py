"""What the llm model costs per chat turn: requests, prompt and completion tokens, per task.

It replays the recorded answers (tests/cassettes/llm_eval.jsonl) to the eval set's
conversations through the public API, and counts what was sent and answered, with
threefold's own tokenizer (cl100k, as the chat model's would be within a few percent):

- prompt tokens: the system and user messages plus the JSON schema sent with them;
- of which cacheable: the system prompt, which is the same for every request of a task
  and stream kind, so that a provider's prompt caching (a prefix of 1,024 tokens or more)
  bills it at the cached rate after the first request;
- completion tokens: the recorded answers.

mem0's published figure, two model calls per add (extract, then update), is the reference.

    .venv/bin/python benchmarks/llm_cost.py
"""

from __future__ import annotations

import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from llm_eval import COVERAGE, conversations, recorded_model, run, run_coverage  # noqa: E402

from tests.cassette import request_key, task_of  # noqa: E402
from threefold.tokens import count_tokens  # noqa: E402

MEM0_CALLS_PER_ADD = 2


def _cost(request: dict, answers: dict[str, str]) -> tuple[int, int, int]:
    """(prompt tokens, of which the cacheable system prompt, completion tokens)."""
    system, *rest = request["messages"]
    schema = json.dumps((request.get("response_format") or {}).get("json_schema", {}))
    prompt = count_tokens(system["content"]) + sum(count_tokens(m["content"]) for m in rest)
    prompt += count_tokens(schema)
    completion = count_tokens(answers.get(request_key(request), ""))
    return prompt, count_tokens(system["content"]), completion


def _slack_from(requests: list[dict]) -> int:
    """Where the Slack side starts: the chats are fed and processed first, then the
    messages, so every request from the first routing or digest on is theirs."""
    team = ("route", "extract_from_messages")
    return next((n for n, r in enumerate(requests) if task_of(r) in team), len(requests))


def _row(name: str, costs: list[tuple[int, int, int]], per: float, unit: str) -> str:
    n = len(costs)
    prompt, cached, completion = (sum(c[i] for c in costs) for i in range(3))
    return (
        f"{name:<22} {n:>8} {n / per * unit:>9.2f} {prompt / n:>10.0f} {cached / n:>9.0f}"
        f" {(prompt - cached) / n:>12.0f} {completion / n:>14.0f}"
        f" {prompt / per * unit:>10.0f} {(prompt - cached) / per * unit:>10.0f}"
    )


def main() -> None:
    chats = conversations()
    with recorded_model() as (model, server):
        run(model, chats)
        fed = run_coverage(model)
        requests = list(server.requests)
        answers = server.cassette.answers
    coverage = json.loads(COVERAGE.read_text(encoding="utf-8"))
    turns = sum(len(c["turns"]) for c in chats) + len(coverage["chat"]["turns"])
    messages = fed - len(coverage["chat"]["turns"])
    by_side: dict[str, dict[str, list[tuple[int, int, int]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    slack_from = _slack_from(requests)
    for n, request in enumerate(requests):
        side = "slack" if n >= slack_from else "chat"
        by_side[side][task_of(request)].append(_cost(request, answers))
    print(f"{len(requests)} requests for {turns} chat turns and {messages} Slack messages\n")
    print(
        f"{'task':<22} {'requests':>8} {'req/unit':>9} {'prompt/req':>10} {'cacheable':>9}"
        f" {'uncached/req':>12} {'completion/req':>14} {'prompt/u':>10} {'uncached/u':>10}"
    )
    for side, per, unit, label in (
        ("chat", turns, 1, "per chat turn"),
        ("slack", messages, 1000, "per 1,000 Slack messages"),
    ):
        print(f"-- {label}")
        tasks = by_side[side]
        for task, costs in sorted(tasks.items()):
            print(_row(task, costs, per, unit))
        print(_row("all", [c for costs in tasks.values() for c in costs], per, unit))
    print(f"\nmem0, for reference: {MEM0_CALLS_PER_ADD} model calls per add (extract, then update)")


if __name__ == "__main__":
    main()
