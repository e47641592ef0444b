"""How long the `threefold` command takes to start and answer, per command.

    python benchmarks/cli_start.py [--runs 10] [--turns 60] [--no-instructions]

Each command runs as its own process, `--runs` times, on a SQLite file holding the demo
story's first `--turns` turns; the table shows the fastest and the median wall time. The
store is made twice: once without vectors (embed.kind none) and once with the default
embedder's vectors, where a `context` must embed its question and so loads the embedder.
`python -c pass` is the floor no command can go below. On a loaded machine the wall
times grow with the load; the CPU time (user plus system, of the fastest run) does much less,
and is close to what the wall time would be on an idle one. Where valgrind is installed, the
last column counts the instructions of one run under callgrind, which load does not move at
all (about 3,900 million make a CPU second on the 2-core machine of issue 34 when idle).
"""

import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from threefold import Memory, load_settings
from threefold.faces.demo import QUESTION, STREAM, story

CLI = Path(sys.executable).with_name("threefold")


def fill(db: Path, turns: int, embed_kind: str) -> None:
    """The demo story's first `turns` turns in a new SQLite file, digested and embedded."""
    os.environ["THREEFOLD_EMBED__KIND"] = embed_kind
    try:
        with Memory.open(settings=load_settings(db=str(db)), background_worker=False) as mem:
            for turn in list(story(filler_after=turns))[:turns]:
                mem.add_turn(STREAM, turn.user, turn.assistant, at=turn.at)
            mem.process_pending()
    finally:
        del os.environ["THREEFOLD_EMBED__KIND"]


def cpu_seconds() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def timed(argv: list[str], env: dict[str, str], runs: int) -> list[tuple[float, float]]:
    """(wall, cpu) seconds of each run."""
    samples = []
    for _ in range(runs):
        started, cpu = time.perf_counter(), cpu_seconds()
        done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
        samples.append((time.perf_counter() - started, cpu_seconds() - cpu))
        if done.returncode != 0:
            raise SystemExit(f"{' '.join(argv)} failed ({done.returncode}): {done.stderr}")
    return samples


def instructions(argv: list[str], env: dict[str, str]) -> int:
    """Millions of instructions one run executes, counted by callgrind."""
    with tempfile.TemporaryDirectory() as folder:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={folder}/out", *argv],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
    counted = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or counted is None:
        raise SystemExit(f"callgrind on {' '.join(argv)} failed: {done.stderr[-500:]}")
    return int(counted.group(1)) // 1_000_000


def cases(plain: Path, embedded: Path) -> list[tuple[str, list[str], dict[str, str]]]:
    quiet = {"THREEFOLD_EMBED__KIND": "none"}
    return [
        ("python -c pass (the floor)", [sys.executable, "-c", "pass"], {}),
        ("threefold --help", [str(CLI), "--help"], {}),
        ("threefold --version", [str(CLI), "--version"], {}),
        ("facts (no vectors)", [str(CLI), "--db", str(plain), "facts", STREAM], quiet),
        (
            "context (no vectors)",
            [str(CLI), "--db", str(plain), "context", STREAM, QUESTION],
            quiet,
        ),
        ("facts (stream with vectors)", [str(CLI), "--db", str(embedded), "facts", STREAM], {}),
        (
            "context (stream with vectors: embeds the question)",
            [str(CLI), "--db", str(embedded), "context", STREAM, QUESTION],
            {},
        ),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--no-instructions", action="store_true", help="skip callgrind")
    parser.add_argument("--turns", type=int, default=60)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="threefold-cli-start-"))
    plain, embedded = folder / "plain.db", folder / "embedded.db"
    fill(plain, args.turns, "none")
    fill(embedded, args.turns, "auto")
    base_env = {k: v for k, v in os.environ.items() if not k.startswith("THREEFOLD_")}
    table = Table(title=f"threefold start-up: {args.runs} runs each, {args.turns} turns")
    counting = shutil.which("valgrind") is not None and not args.no_instructions
    columns = ["command", "fastest s", "median s", "cpu s", *(["M instructions"] * counting)]
    for column in columns:
        table.add_column(column, justify="left" if column == "command" else "right")
    for label, argv, extra in cases(plain, embedded):
        samples = timed(argv, base_env | extra, args.runs)
        fastest = min(samples)
        median = statistics.median(wall for wall, _ in samples)
        counted = [f"{instructions(argv, base_env | extra):,}"] if counting else []
        table.add_row(label, f"{fastest[0]:.3f}", f"{median:.3f}", f"{fastest[1]:.3f}", *counted)
    Console().print(table)


if __name__ == "__main__":
    main()
