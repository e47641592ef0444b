"""A search ranks the same in every process: the second stage's sums do not depend on the
order Python happens to iterate a set in (PYTHONHASHSEED)."""

import os
import subprocess
import sys
from pathlib import Path

RANK_COVERED = """
from datetime import UTC, datetime
from threefold.domain import SourceRef, Visibility
from threefold.recall.rerank import Scored, covered
from threefold.store.base import Item

# Two candidates each hold three of the question's words, held by 1, 2 and 3 of the four
# candidates: their coverage is the same three numbers summed, in each set's own order.
texts = [
    "alpha bravo charlie", "delta echo foxtrot", "bravo echo charlie foxtrot", "charlie foxtrot"
]
at = datetime(2026, 1, 1, tzinfo=UTC)
pool = []
for n, text in enumerate(texts, 1):
    source = SourceRef(kind="turn", id=str(n), at=at)
    item = Item(kind="turn", id=n, stream="s", text=text, at=at, source=source,
                visibility=Visibility.PRIVATE)
    pool.append((item, Scored("turn", n, 0.01, {})))
terms = "alpha bravo charlie delta echo foxtrot".split()
print([item.id for item, _ in covered(pool, terms, 0.5, 60)])
"""


def test_covered_ranks_ties_the_same_whatever_the_hash_seed():
    orders = set()
    for seed in range(12):
        env = {**os.environ, "PYTHONHASHSEED": str(seed)}
        src = str(Path(__file__).resolve().parent.parent / "src")
        env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
        run = subprocess.run(
            [sys.executable, "-c", RANK_COVERED], env=env, capture_output=True, text=True
        )
        assert run.returncode == 0, run.stderr
        orders.add(run.stdout.strip())
    assert len(orders) == 1, orders
