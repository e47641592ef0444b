"""Writes one partition's vector graph file, in a child process of the one that needs it.

    python -m threefold.store.graph_builder DATABASE TENANT STREAM KIND

threefold.store.vectors starts this with the partition's lock file held and handed down, so that
no other process builds the same graph until this one exits. It runs at low priority: the
searches of the processes that serve requests come first on a shared machine, and its own
memory (the graph, loaded) is apart from theirs.
"""

import argparse
import contextlib
import logging
import os
import resource
import time
from pathlib import Path

from threefold.store import SQLiteStore
from threefold.store.vectors import write_graph

log = logging.getLogger("threefold.store.vectors")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    for name in ("database", "tenant", "stream", "kind"):
        parser.add_argument(name)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="threefold graph builder: %(message)s")
    with contextlib.suppress(OSError):
        os.nice(10)
    started, cpu = time.perf_counter(), time.process_time()
    store = SQLiteStore(args.database)
    try:
        assert store.index_directory is not None
        written = write_graph(store, store.index_directory, args.tenant, args.stream, args.kind)
    finally:
        store.close()
    peak_mb = _peak_rss_mb()
    log.info(
        "%s (%s): %s in %.1f s, %.1f CPU-s, peak RSS %.0f MB",
        args.stream,
        args.kind,
        written.name if written else "nothing new to write",
        time.perf_counter() - started,
        time.process_time() - cpu,
        peak_mb,
    )


def _peak_rss_mb() -> float:
    """This process's peak resident memory. getrusage's figure is kept across exec, so it
    would be the parent's when that was larger; /proc's high-water mark is this image's."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


if __name__ == "__main__":
    main()
