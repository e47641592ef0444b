"""Each term's BM25 share of the rows it matches, kept while a full-text index is unchanged.

FTS5's bm25() looks up the length of every row it scores, a microsecond or two a row, and
a question that names a common word (a person, a project) scores hundreds of rows. Yet the
score of an OR query is the sum of each term's own share, added term by term, and a term's
share of a row depends only on the index: its row count, its average length and the term's
document frequency. So while an index is unchanged, a term scored once is not scored again,
and summing the shares in the query's order gives FTS5's very scores. A busy stream changes
its turns' index with every turn, but its facts', summaries' and records' far less often.

An index is unchanged while its structure record (its segments and a counter of segment
writes) and its averages record (rows and tokens) are: any commit that touches the index
rewrites both. Pending writes of an open transaction show in neither, so the caller scores
inside a transaction without this.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy loads with the first large index scored, not with every store
    import numpy as np

_KEPT_ROWS = 1_000_000
"""Rows kept over every term and index: 16 MB. Past it the memory starts afresh."""
_VERSION_RECORDS = "(1, 10)"
"""FTS5's averages record and structure record, by their ids in the index's _data table."""
KEPT_FROM_TOKENS = 20_000
"""A smaller index is scored by FTS5 at once: its matches are few and cheap to score, and
keeping their shares costs more reads than it saves. Counted in tokens, not rows: a term
matches more of long rows (a stream's thousand session summaries of 40 words each cost
FTS5 1.3 ms a search to score, its five thousand short facts less)."""


IndexVersion = tuple[bytes, ...]
"""A full-text index's averages and structure records: equal while the index is."""


class CountsAtVersion:
    """Counts read from a full-text index, each kept while the index stays at the version
    it was read at (None: unknown, inside a transaction, so neither kept nor trusted), at
    most `entries` of them."""

    def __init__(self, entries: int) -> None:
        self._entries = entries
        self._kept: dict[tuple[str, ...], tuple[int, IndexVersion]] = {}

    def get(self, key: tuple[str, ...], version: IndexVersion | None) -> int | None:
        kept = self._kept.get(key)
        return kept[0] if version is not None and kept is not None and kept[1] == version else None

    def put(self, key: tuple[str, ...], count: int, version: IndexVersion | None) -> None:
        if version is None:
            return
        if len(self._kept) >= self._entries:
            self._kept.clear()
        self._kept[key] = (count, version)


class TermScores:
    """Shares by (index, term), dropped for an index as soon as it changes."""

    def __init__(self) -> None:
        self._versions: dict[str, IndexVersion] = {}
        self._tokens: dict[str, int] = {}
        self._shares: dict[str, dict[str, tuple[np.ndarray, np.ndarray]]] = {}
        """By index, then phrase: a busy stream's turns drop theirs at every search, and
        looking for them among every other index's terms was 1.4% of a context's CPU under
        the profiler at 100k items."""
        self._rows = 0

    def follow(self, db: sqlite3.Connection, fts: str) -> bool:
        """Drop what is kept for `fts` if the index changed since the last call, and say
        whether it was unchanged: an index that changes between every two searches (the
        turns of a busy stream) is better scored by FTS5 at once than term by term."""
        version = tuple(
            bytes(row[0])
            for row in db.execute(
                f"SELECT block FROM {fts}_data WHERE id IN {_VERSION_RECORDS} ORDER BY id"
            )
        )
        if self._versions.get(fts) == version:
            return True
        self._versions[fts] = version
        self._tokens[fts] = sum(_varints(version[0])[1:]) if len(version) == 2 else 0
        self._rows -= sum(ids.size for ids, _ in self._shares.pop(fts, {}).values())
        return False

    def version(self, fts: str) -> IndexVersion | None:
        """The version of `fts` when last followed."""
        return self._versions.get(fts)

    def worth_keeping(self, fts: str) -> bool:
        """Whether `fts` held enough tokens, when last followed, for kept shares to pay."""
        return self._tokens.get(fts, 0) >= KEPT_FROM_TOKENS

    def count(self, fts: str, phrase: str) -> int | None:
        """How many rows `phrase` matches, if its shares are kept."""
        found = self._shares.get(fts, {}).get(phrase)
        return None if found is None else int(found[0].size)

    def ranked(
        self, db: sqlite3.Connection, fts: str, rank: str, phrases: Sequence[str]
    ) -> tuple[np.ndarray, np.ndarray]:
        """Row ids matching any of `phrases` (FTS5 strings) and their `rank` (a bm25 call,
        lower is better), best first and ties by row id, as FTS5 orders an OR query of the
        same phrases."""
        import numpy as np

        kept = self._shares.get(fts, {})
        known = {p: found for p in phrases if (found := kept.get(p)) is not None}
        # Held here: scoring the rest may empty the memory to make room.
        known.update(self._score(db, fts, rank, [p for p in phrases if p not in known]))
        shares = [known[phrase] for phrase in phrases]
        ids, where = np.unique(np.concatenate([ids for ids, _ in shares]), return_inverse=True)
        total = np.zeros(ids.size, dtype=np.float64)
        start = 0
        for term_ids, term_shares in shares:
            # bm25() adds up each phrase's share in the query's order: so is it added here.
            total[where[start : start + term_ids.size]] += term_shares
            start += term_ids.size
        scores = -total
        order = np.lexsort((ids, scores))
        return ids[order], scores[order]

    def _score(
        self, db: sqlite3.Connection, fts: str, rank: str, phrases: list[str]
    ) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Score each of `phrases` alone, all in one statement, and keep their shares."""
        if not phrases:
            return {}
        import numpy as np

        one = f"SELECT ? AS phrase, rowid, {rank} FROM {fts} WHERE {fts} MATCH ?"
        rows = db.execute(
            " UNION ALL ".join([one] * len(phrases)),
            [value for number, phrase in enumerate(phrases) for value in (number, phrase)],
        ).fetchall()
        numbers = np.fromiter((row[0] for row in rows), dtype=np.int64, count=len(rows))
        ids = np.fromiter((row[1] for row in rows), dtype=np.int64, count=len(rows))
        # A single phrase's bm25 is minus its share: negating is exact, so the sums are too.
        shares = np.fromiter((-row[2] for row in rows), dtype=np.float64, count=len(rows))
        if self._rows + ids.size > _KEPT_ROWS:
            self._shares.clear()
            self._rows = 0
        scored = {}
        for number, phrase in enumerate(phrases):
            mine = numbers == number
            scored[phrase] = (ids[mine], shares[mine])
        self._shares.setdefault(fts, {}).update(scored)
        self._rows += ids.size
        return scored


def _varints(record: bytes) -> list[int]:
    """The varints of a record (SQLite's big-endian form: seven bits a byte while the high
    bit is set, all eight in a ninth byte): the averages record holds the index's row
    count, then each column's token count."""
    values: list[int] = []
    position = 0
    while position < len(record):
        value = 0
        for length, byte in enumerate(record[position : position + 9], start=1):
            if length == 9:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if byte < 0x80:
                break
        values.append(value)
        position += length
    return values
