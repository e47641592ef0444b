"""How long the heuristic model takes on 10 MB turns: each task reads a bounded prefix, so
this stays about constant however large the turn is.

    .venv/bin/python benchmarks/huge_turns.py
"""

import time
from datetime import UTC, datetime

from threefold.models.base import TurnInput
from threefold.models.heuristic import HeuristicModel

INPUTS = {
    "one sentence repeated, 10 MB": "Raj is the CTO. " * 700_000,
    "no punctuation, 10 MB": "x" * 10_000_000,
    "dense punctuation, 10 MB": "a. " * 3_500_000,
    "one long list": "Priya handles " + "backend and " * 900_000,
    "corrections repeated": "No, Raj is not the PM, he's the lead architect. " * 200_000,
}


def main() -> None:
    model = HeuristicModel()
    at = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
    print(f"{'input':<32} {'chars':>11} {'extract s':>10}")
    for name, text in INPUTS.items():
        turn = TurnInput(stream="project:alpha", user=text, assistant=text, at=at)
        started = time.perf_counter()
        model.extract_facts(turn)
        print(f"{name:<32} {len(text):>11,} {time.perf_counter() - started:>10.3f}")


if __name__ == "__main__":
    main()
