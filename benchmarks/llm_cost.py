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

from llm_eval import conversations, recorded_model, run  # noqa: E402

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


def main() -> None:
    chats = conversations()
    turns = sum(len(c["turns"]) for c in chats)
    with recorded_model() as (model, server):
        run(model, chats)
        requests = list(server.requests)
        answers = server.cassette.answers
    by_task: dict[str, list[tuple[int, int, int]]] = defaultdict(list)
    for request in requests:
        by_task[task_of(request)].append(_cost(request, answers))
    print(f"{turns} chat turns in {len(chats)} conversations, {len(requests)} requests\n")
    head = f"{'task':<16} {'requests':>8} {'req/turn':>8} {'prompt/req':>10}"
    print(
        head + f" {'cacheable':>9} {'uncached/req':>12} {'completion/req':>14} {'tokens/turn':>11}"
    )
    total = [0, 0, 0, 0]
    for task, costs in sorted(by_task.items()):
        n = len(costs)
        prompt, cached, completion = (sum(c[i] for c in costs) for i in range(3))
        total = [total[0] + n, total[1] + prompt, total[2] + cached, total[3] + completion]
        print(
            f"{task:<16} {n:>8} {n / turns:>8.2f} {prompt / n:>10.0f} {cached / n:>9.0f}"
            f" {(prompt - cached) / n:>12.0f} {completion / n:>14.0f}"
            f" {(prompt + completion) / turns:>11.0f}"
        )
    n, prompt, cached, completion = total
    print(
        f"{'all':<16} {n:>8} {n / turns:>8.2f} {prompt / n:>10.0f} {cached / n:>9.0f}"
        f" {(prompt - cached) / n:>12.0f} {completion / n:>14.0f}"
        f" {(prompt + completion) / turns:>11.0f}"
    )
    print(
        f"\nper turn: {n / turns:.2f} requests (mem0: {MEM0_CALLS_PER_ADD} per add), "
        f"{prompt / turns:.0f} prompt tokens ({(prompt - cached) / turns:.0f} not cacheable), "
        f"{completion / turns:.0f} completion tokens"
    )


if __name__ == "__main__":
    main()
