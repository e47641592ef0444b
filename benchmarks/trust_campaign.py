"""Trust campaign at full size: lower-trust write attacks, the tenant x trust leak matrix
over HTTP and MCP, hypothesis fuzzing of the Python API and schemathesis fuzzing of HTTP.

    python benchmarks/trust_campaign.py [--per-stream 5] [--api-examples 420]
                                        [--http-examples 50]

The same code runs in the tests at a small size (tests/security/). Everything is real: a
SQLite file in a temporary folder, the FastAPI app, the MCP server. Prints tables; the
goal is 0 in every "succeeded", "leaks", "foreign errors" and "5xx" column.
"""

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' campaign code

from tests.security.campaign import ATTACKS, bench, run_attacks, run_matrix, seed  # noqa: E402
from tests.security.fuzz import FUZZED, campaign  # noqa: E402
from tests.security.http_fuzz import fuzz_http  # noqa: E402
from threefold import Memory, load_settings  # noqa: E402
from threefold.domain import Trust  # noqa: E402

LOWER = (Trust.INNER, Trust.FAMILIAR)


def attacks_table(folder: Path) -> Table:
    with bench(folder / "attacks") as b:
        succeeded = run_attacks(b)
    table = Table(title="lower-trust write attacks (1: succeeded)")
    table.add_column("attack")
    for trust in LOWER:
        table.add_column(trust.value, justify="right")
    for name in ATTACKS:
        table.add_row(name, *(str(succeeded[name, trust]) for trust in LOWER))
    table.add_row("total", *(str(sum(succeeded[n, t] for n in ATTACKS)) for t in LOWER))
    return table


def matrix_table(folder: Path, per_stream: int) -> tuple[Table, list[str]]:
    with bench(folder / "matrix", session_turns=2) as b:
        seed(b, per_stream=per_stream)
        matrix = run_matrix(b)
    table = Table(title=f"tenant x trust leak matrix, 2 tenants, {per_stream} items per stream")
    for column in ("face", "kind", "trust", "calls", "leaks"):
        table.add_column(column, justify="right" if column in ("calls", "leaks") else "left")
    for face, kind, trust in sorted(matrix.calls, key=str):
        key = (face, kind, trust)
        table.add_row(face, kind, trust.value, str(matrix.calls[key]), str(matrix.leaks[key]))
    table.add_row("all", "", "", str(sum(matrix.calls.values())), str(sum(matrix.leaks.values())))
    return table, matrix.examples


def api_fuzz_table(folder: Path, examples: int) -> Table:
    settings = load_settings(db=folder / "fuzz.db", embed={"kind": "hashing"})
    mem = Memory.open(settings=settings, background_worker=False)
    mem.add_turn("project:alpha", "Raj is the Lead Architect.", "Noted.")
    mem.write_fact("project:alpha", "The deadline is Friday.")
    try:
        counts = campaign(mem, FUZZED, examples)
    finally:
        mem.close()
    table = Table(title=f"Python API fuzzing (hypothesis), {examples} calls per method")
    for column in ("method", "returned", "threefold errors", "foreign errors"):
        table.add_column(column, justify="left" if column == "method" else "right")
    totals = [0, 0, 0]
    for method, seen in counts.items():
        foreign = {k: v for k, v in seen.items() if k not in ("ok", "threefold")}
        row = [seen.get("ok", 0), seen.get("threefold", 0), sum(foreign.values())]
        totals = [a + b for a, b in zip(totals, row, strict=True)]
        shown = str(row[2]) + (f" {foreign}" if foreign else "")
        table.add_row(method, str(row[0]), str(row[1]), shown)
    table.add_row("all", *(str(n) for n in totals))
    return table


def http_fuzz_table(folder: Path, examples: int) -> tuple[Table, list[str]]:
    with bench(folder / "http") as b:
        seed(b, per_stream=2)
        outcomes, failures = fuzz_http(b.http.app, b.headers("acme", Trust.FULL), examples)
    table = Table(title=f"HTTP fuzzing (schemathesis), {examples} cases per operation and mode")
    table.add_column("outcome")
    table.add_column("requests", justify="right")
    for outcome in ("2xx", "4xx", "5xx"):
        table.add_row(outcome, str(outcomes[outcome]))
    table.add_row("with a traceback or 5xx", str(len(failures)))
    return table, failures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--per-stream", type=int, default=5)
    parser.add_argument("--api-examples", type=int, default=420)
    parser.add_argument("--http-examples", type=int, default=50)
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # reconcile and job retries log on purpose here
    console = Console()
    with tempfile.TemporaryDirectory(prefix="threefold-trust-") as tmp:
        folder = Path(tmp)
        for name, build in (
            ("attacks", lambda: (attacks_table(folder), [])),
            ("matrix", lambda: matrix_table(folder, args.per_stream)),
            ("api fuzz", lambda: (api_fuzz_table(folder, args.api_examples), [])),
            ("http fuzz", lambda: http_fuzz_table(folder, args.http_examples)),
        ):
            started = time.perf_counter()
            table, problems = build()
            table.caption = f"{name}: {time.perf_counter() - started:.1f} s"
            console.print(table)
            for problem in problems[:10]:
                console.print(f"  [red]{problem}[/red]")


if __name__ == "__main__":
    main()
