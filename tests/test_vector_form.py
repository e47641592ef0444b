"""Turn vectors are made from a turn's text alone, leaned a little towards its speakers'
names, no longer from "Speaker: text"; a store whose turns were embedded the older way
embeds them again in the background once opened, and its old vectors serve recall until
then. On both backends."""

import sqlite3
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path

import numpy as np

from threefold import Memory, load_settings
from threefold.embed import HashingEmbedder, normalize_rows
from threefold.store.base import SPEAKER_WEIGHT, VECTOR_FORM

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


def _leaned(text: str, *speakers: str) -> np.ndarray:
    """The vector a turn of `text` said by `speakers` should have."""
    embedder = HashingEmbedder()
    toward = embedder.embed(list(speakers)).mean(axis=0)
    return normalize_rows((embedder.embed([text])[0] + SPEAKER_WEIGHT * toward)[None, :])[0]


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
            mem.store.put_vectors(
                "default",
                STREAM,
                embedder.name,
                [("turn", turn_id, vector.tobytes(), embedder.dim)],
            )
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
        texts = sorted(f"{text}\n" for _, text in SAID)
        assert sorted(t for t in embedder.texts if t.endswith("\n")) == texts
        assert not any(": " in t for t in embedder.texts)
        after = _stored(mem, turn_ids)
        assert set(after) == set(turn_ids)
        for turn_id, (speaker, text) in zip(turn_ids, SAID, strict=True):
            want = _leaned(f"{text}\n", speaker)
            assert np.allclose(after[turn_id], want)
            assert not np.allclose(before[turn_id], want)
        hits = mem.search(SAID[0][1], stream=STREAM, kinds=["turn"])
        assert "bouldering gym" in hits[0].text and "similarity" in hits[0].signals

    # Opened again: nothing is embedded twice.
    again = CountingEmbedder()
    with _open(location, again) as mem:
        mem.process_pending()
        assert not [t for t in again.texts if "bouldering" in t]


def test_a_turn_is_embedded_as_its_text_leaned_towards_its_speakers(backend_db):
    embedder = CountingEmbedder()
    with _open(backend_db(), embedder) as mem:
        said = mem.add_turn(STREAM, SAID[0][1], "Noted.", speaker="Ines", assistant_speaker="Tomas")
        unnamed = mem.add_turn(STREAM, SAID[1][1], "Sorry to hear that.")
        mem.process_pending()
        assert not any(": " in t for t in embedder.texts)
        assert embedder.texts.count("Ines") == 1  # names are embedded once, then kept
        vectors = _stored(mem, [said.id, unnamed.id])
        assert np.allclose(vectors[said.id], _leaned(f"{SAID[0][1]}\nNoted.", "Ines", "Tomas"))
        alone = HashingEmbedder().embed([f"{SAID[1][1]}\nSorry to hear that."])[0]
        assert np.allclose(vectors[unnamed.id], alone)  # a user and an assistant
        mem.add_turn(STREAM, SAID[2][1], "", speaker="Ines")
        mem.process_pending()
        assert embedder.texts.count("Ines") == 1
        assert mem.store.count_unembedded() == 0 and VECTOR_FORM == 1
