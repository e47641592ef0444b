"""Turn vectors are made from a turn's text alone, without "Speaker: " in front; a store
whose turns were embedded the older way embeds them again in the background once opened,
and its old vectors serve recall until then. On both backends."""

import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from threefold import Memory, load_settings
from threefold.embed import HashingEmbedder
from threefold.store.base import VECTOR_FORM

STREAM = "chat:climbing"
T0 = datetime(2026, 2, 1, 18, 0, tzinfo=UTC)
SAID = [
    ("Ines", "The new bouldering gym on Dock Street opens its doors in March"),
    ("Tomas", "My chalk bag strap snapped halfway up the overhang route yesterday"),
    ("Ines", "Belay certification for the whole group is booked for the ninth"),
]


class CountingEmbedder(HashingEmbedder):
    """The hashing embedder, keeping the texts it was asked to embed."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.texts += list(texts)
        return super().embed(texts)


def _open(location: str | Path, embedder: HashingEmbedder) -> Memory:
    settings = load_settings(embed={"kind": "hashing"})
    return Memory.open(location, settings=settings, embedder=embedder, background_worker=False)


def _sql(location: str | Path) -> Callable[[str], None]:
    """Runs a statement on the database outside threefold, as an older version left it."""
    if isinstance(location, Path):

        def run(statement: str) -> None:
            with sqlite3.connect(location) as db:
                db.execute(statement)
            db.close()

        return run
    import psycopg

    def run_pg(statement: str) -> None:
        with psycopg.connect(location, autocommit=True) as db:
            db.execute(statement)

    return run_pg


def _made_the_older_way(location: str | Path) -> list[int]:
    """A store as the version before the vector form left it: turn vectors made from
    "Speaker: text", and no form column. Returns the turns' ids."""
    embedder = HashingEmbedder()
    with _open(location, embedder) as mem:
        for n, (speaker, text) in enumerate(SAID):
            mem.add_turn(STREAM, text, at=T0 + timedelta(minutes=n), speaker=speaker)
        mem.process_pending()
        turns = {t.id: t for t in mem.turns(STREAM, limit=10)}
        older = {i: f"{t.speaker}: {t.user}\n{t.assistant}" for i, t in turns.items()}
        blobs = embedder.embed(list(older.values()))
        for (turn_id, _), vector in zip(older.items(), blobs, strict=True):
            mem.store.put_vectors("default", STREAM, embedder.name, [("turn", turn_id, vector.tobytes(), embedder.dim)])
    run = _sql(location)
    run("ALTER TABLE vectors DROP COLUMN form")
    run("DELETE FROM schema_migrations WHERE name LIKE '%vector_form'")
    return sorted(turns)


def _stored(mem: Memory, turn_ids: list[int]) -> dict[int, np.ndarray]:
    rows = mem.store.item_vectors("turn", "default", turn_ids)
    return {item: np.frombuffer(blob, dtype=np.float32) for item, blob in rows}


def test_an_older_store_embeds_its_turns_again_and_recalls_meanwhile(backend_db):
    location = backend_db()
    turn_ids = _made_the_older_way(location)
    embedder = CountingEmbedder()
    with _open(location, embedder) as mem:
        # Opened: every old turn waits for a vector of the new form, and a job is queued.
        assert mem.store.count_unembedded_in("default", STREAM) == len(turn_ids)
        assert mem.store.count_unembedded() >= len(turn_ids)
        assert mem.store.has_pending("default", STREAM, "embed")
        before = _stored(mem, turn_ids)

        # Meanwhile the old vectors still serve: a search finds the turn by its vector.
        hits = mem.search(f"{SAID[0][0]}: {SAID[0][1]}", stream=STREAM, kinds=["turn"])
        assert hits and "bouldering gym" in hits[0].text
        assert "similarity" in hits[0].signals

        embedder.texts.clear()  # the query's
        mem.process_pending()
        assert mem.store.count_unembedded_in("default", STREAM) == 0
        assert sorted(embedder.texts) == sorted(f"{text}\n" for _, text in SAID)
        after = _stored(mem, turn_ids)
        assert set(after) == set(turn_ids)
        for turn_id, (_, text) in zip(turn_ids, SAID, strict=True):
            want = HashingEmbedder().embed([f"{text}\n"])[0]
            assert np.allclose(after[turn_id], want)
            assert not np.allclose(before[turn_id], want)
        hits = mem.search(SAID[0][1], stream=STREAM, kinds=["turn"])
        assert "bouldering gym" in hits[0].text and "similarity" in hits[0].signals

    # Opened again: nothing is embedded twice.
    again = CountingEmbedder()
    with _open(location, again) as mem:
        mem.process_pending()
        assert not [t for t in again.texts if "bouldering" in t]


def test_new_turns_are_embedded_as_their_text_alone(backend_db):
    embedder = CountingEmbedder()
    with _open(backend_db(), embedder) as mem:
        mem.add_turn(STREAM, SAID[0][1], "Noted, I'll tell the others.", speaker="Ines")
        mem.process_pending()
        assert f"{SAID[0][1]}\nNoted, I'll tell the others." in embedder.texts
        assert not any(t.startswith("Ines") for t in embedder.texts)
        assert mem.store.count_unembedded() == 0
        assert VECTOR_FORM >= 1
