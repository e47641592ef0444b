"""Embedding that keeps up with ingest: what recall needs is embedded, identical texts once,
and an import says how much it left for later (nothing, once it has embedded)."""

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

from tests.sources.exports import msg, write_export
from tests.sources.test_jira_import import issue, write_csv
from threefold import Memory, load_settings
from threefold.embed import HashingEmbedder

ALPHA = "project:alpha"
PROJECTS = [{"stream": ALPHA, "key": "ALPHA", "channels": ["proj-alpha"]}]


class CountingEmbedder(HashingEmbedder):
    """The hashing embedder, counting the texts it is asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts += list(texts)
        return super().embed(texts)


def open_counting(tmp_path: Path) -> tuple[Memory, CountingEmbedder]:
    embedder = CountingEmbedder()
    settings = load_settings(projects=PROJECTS)
    tmp_path.mkdir(exist_ok=True)  # Memory.open makes no missing folder
    mem = Memory.open(
        tmp_path / "memory.db", settings=settings, embedder=embedder, background_worker=False
    )
    return mem, embedder


def test_short_turns_get_no_vector_and_are_still_found(tmp_path):
    mem, embedder = open_counting(tmp_path)
    with mem:
        mem.add_turn(ALPHA, "ok", "")
        mem.add_turn(ALPHA, "lgtm", "")
        mem.add_turn(ALPHA, "The kafka upgrade is blocked on the security review", "Noted.")
        mem.process_pending()
        assert not any(t.startswith(("ok", "lgtm")) for t in embedder.texts)
        assert any("kafka upgrade" in t for t in embedder.texts)
        assert mem.store.count_unembedded_in("default", ALPHA) == 0
        assert mem.search("lgtm", stream=ALPHA, kinds=["turn"])[0].text == "lgtm\n"


def test_a_repeated_text_is_embedded_once_across_batches(tmp_path):
    mem, embedder = open_counting(tmp_path)
    with mem:
        for n in range(150):  # more than one embedding batch
            mem.add_turn(ALPHA, "The nightly build failed again on the ARM runner", "")
            if n % 40 == 0:
                mem.process_pending()
        mem.process_pending()
        said = [t for t in embedder.texts if t.startswith("The nightly build")]
        assert len(said) == 1
        assert mem.store.count_unembedded_in("default", ALPHA) == 0


def test_a_slack_import_reports_what_is_left_to_embed(tmp_path):
    day = [
        msg(f"1772442{n:03d}.000100", f"Deploy step {n} for the billing service", "U1")
        for n in range(30)
    ]
    day += [msg("1772443999.000100", "ok", "U1")]
    export = write_export(tmp_path / "export", {"proj-alpha": {"2026-03-02": day}})
    mem, _ = open_counting(tmp_path)
    with mem:
        later = mem.import_slack(export, process=False)
        assert later.unembedded == 30, "the 30 messages wait; 'ok' needs no vector"
        done = mem.import_slack(export)
        assert done.unembedded == 0
        assert mem.search("billing deploy", stream=ALPHA, kinds=["record"])


def test_a_jira_import_is_embedded_when_it_returns(tmp_path):
    when = "12/Mar/26 11:00 AM"
    rows = [
        issue(f"ALPHA-{n}", "To Do", "Raj", when, summary=f"Migrate the invoice table, part {n}")
        for n in range(1, 20)
    ]
    csv_path = write_csv(tmp_path / "jira.csv", rows)
    mem, embedder = open_counting(tmp_path)
    with mem:
        report = mem.import_jira(csv_path, now=datetime(2026, 3, 20, tzinfo=UTC))
        assert report.routed and report.unembedded == 0
        assert any("invoice table" in t for t in embedder.texts)


def _fact_history(mem: Memory, embed_between: bool) -> list[int]:
    """Write a fact, supersede it and retract another, embedding in between or only at the
    end; the ids of the stream's fact vectors."""
    mem.write_fact(ALPHA, "Raj lives in Lisbon", subject="raj", slot="home", value="Lisbon")
    tea = mem.write_fact(ALPHA, "Raj drinks green tea", subject="raj", slot="drink", value="tea")
    if embed_between:
        mem.process_pending()
    mem.write_fact(ALPHA, "Raj lives in Porto", subject="raj", slot="home", value="Porto")
    mem.forget(tea.id)
    mem.process_pending()
    return sorted(item for _, item, _, _ in mem.store.vectors("fact", "default", [ALPHA]))


def _found(mem: Memory, query: str) -> list[str]:
    return [hit.text for hit in mem.search(query, stream=ALPHA, kinds=["fact"])]


def test_a_fact_superseded_before_embedding_gets_no_vector(tmp_path):
    late, _ = open_counting(tmp_path / "late")
    early, _ = open_counting(tmp_path / "early")
    with late, early:
        late_vectors = _fact_history(late, embed_between=False)
        early_vectors = _fact_history(early, embed_between=True)
        [active] = late.facts(ALPHA)
        assert active.text == "Raj lives in Porto" and late_vectors == [active.id]
        assert late.store.count_unembedded_in("default", ALPHA) == 0
        # Embedded before it was superseded, a fact keeps its vector and nothing is owed.
        assert len(early_vectors) == 3
        assert early.store.count_unembedded_in("default", ALPHA) == 0
        for query in ("where does Raj live", "Lisbon", "green tea", "Raj"):
            assert _found(late, query) == _found(early, query)
        assert _found(late, "where does Raj live")[0] == "Raj lives in Porto"
