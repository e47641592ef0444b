"""`threefold migrate --from memory.db --to postgresql://…`: everything, twice safely."""

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from tests.http.test_serve import CLI
from threefold import Memory, load_settings
from threefold.trust.keys import create_key


def _migrate(source: Path, url: str, *options: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", CLI, "migrate", "--from", str(source), "--to", url, *options],
        capture_output=True,
        text=True,
        timeout=300,
        env={"COLUMNS": "200", "PATH": "/usr/bin:/bin"},
    )


def test_a_sqlite_memory_moves_over_whole_and_a_rerun_adds_nothing(
    tmp_path: Path, fresh_postgres: Callable[[], str]
) -> None:
    source = tmp_path / "memory.db"
    settings = load_settings(session_turns=2, embed={"kind": "hashing"})
    with Memory.open(source, settings=settings, background_worker=False) as mem:
        mem.add_turn("project:alpha", "Raj is a Junior Developer.", "Noted.")
        mem.add_turn("project:alpha", "No, Raj is the Lead Architect.", "Thanks.")
        mem.add_turn("chat:trip", "I moved to Munich last month.", speaker="Caroline")
        mem.process_pending()
        create_key(mem.store, "default", "inner", label="bot")
        mem.erase(entity="Caroline")
        facts_before = [(f.id, f.text) for f in mem.facts("project:alpha", include_inactive=True)]
        [raj] = [f for f in mem.facts("project:alpha") if "Lead Architect" in f.text]
        history_before = mem.fact_history(raj.id)
    url = fresh_postgres()
    first = _migrate(source, url)
    assert first.returncode == 0, first.stderr
    again = _migrate(source, url, "--format", "json")
    assert again.returncode == 0, again.stderr
    counts = json.loads(again.stdout)
    for table in ("turns", "facts", "fact_history", "summaries", "vectors", "api_keys"):
        before, after = counts[table]
        assert before == after and before > 0, (table, before, after)
    assert "s3cret" not in first.stdout + again.stdout
    with Memory.open(url, settings=settings, background_worker=False) as moved:
        assert [(f.id, f.text) for f in moved.facts("project:alpha", include_inactive=True)] == (
            facts_before
        )
        assert moved.fact_history(raj.id) == history_before
        assert moved.store.erasures("default")[0]["target"]
        assert moved.turns("chat:trip") == []
        hits = moved.search("lead architect", stream="project:alpha")
        assert hits and "Lead Architect" in hits[0].text
        # The copy filled the turns' index through its pending list, and left it as the
        # migrations made every full-text index: searches read no pending list.
        options = moved.store._rows(  # type: ignore[attr-defined]
            "SELECT relname, reloptions FROM pg_class WHERE relname = ANY(%s)",
            [[f"{table}_search" for table in ("turns", "facts", "summaries", "records")]],
        )
        assert len(options) == 4
        assert all(row["reloptions"] == ["fastupdate=off"] for row in options), options
        # New rows take ids after the copied ones.
        added = moved.add_turn("project:alpha", "The demo is on Friday.")
        assert added.seq == 3
