"""The SQLite store's privacy erasure: rows go with their full-text entries, vectors,
history and links, and an audit row without content stays."""

import json
import re
import sqlite3
from collections.abc import Callable, Sequence, Sized
from typing import TYPE_CHECKING, Any

from threefold.domain import utcnow
from threefold.store.base import USER_NAME_SLOT, ErasedIds

_TURN_FTS_COLUMNS = "user_text, assistant_text, before_text"
_FTS_TABLES = ("turns_fts", "facts_fts", "records_fts", "summaries_fts")
_RECORD_SOURCES = ("slack", "jira", "web")
"""A record's facts name it as '<source>.<kind>' (Record.ref)."""


class ErasureTables:
    """Mixed into SQLiteStore, whose plumbing (_rows, _exec) it uses."""

    if TYPE_CHECKING:

        def _rows(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]: ...
        def _exec(self, sql: str, params: Sequence[Any] = ()) -> int: ...

        _erase_listeners: list[Callable[[str, Sequence[str]], None]]

    def erasable_ids(
        self,
        tenant: str,
        *,
        streams: Sequence[str] = (),
        speakers: Sequence[str] = (),
        subjects: Sequence[str] = (),
        fact_ids: Sequence[int] = (),
        users_named: Sequence[str] = (),
    ) -> ErasedIds:
        """The items a privacy erasure takes: everything in `streams`; the turns and
        records written by or naming `speakers` (lowercase names); facts about `subjects`
        or read from those turns and records; the facts `fact_ids`; and in the streams
        whose user is one of `users_named`, that user's turns and facts."""
        theirs = self._streams_of_users(tenant, users_named)
        turns = self._ids("turns", tenant, "stream", streams)
        turns |= self._ids_where("turns", tenant, "speaker IS NULL AND stream", [], theirs)
        turns |= self._ids_lower("turns", tenant, ("speaker", "assistant_speaker"), speakers)
        turns |= self._mentioning("turns", tenant, "user_text || ' ' || assistant_text", speakers)
        records = self._ids("records", tenant, "stream", streams)
        records |= self._ids_lower("records", tenant, ("author",), speakers)
        records |= self._mentioning("records", tenant, "text", speakers)
        facts = self._ids("facts", tenant, "stream", streams) | set(fact_ids)
        facts |= self._ids("facts", tenant, "subject", subjects)
        facts |= self._holder_ids(tenant, subjects)
        facts |= self._ids_where("facts", tenant, "subject = 'user' AND stream", [], theirs)
        facts |= self._facts_from(tenant, "turn", turns) | self._facts_from_records(tenant, records)
        summaries = self._ids("summaries", tenant, "stream", streams)
        touched = set(streams)
        for table, ids in (("turns", turns), ("facts", facts), ("records", records)):
            touched |= self._streams_of(table, tenant, ids)
        return ErasedIds(
            turns=sorted(turns),
            facts=sorted(facts),
            records=sorted(records),
            summaries=sorted(summaries),
            streams=sorted(touched),
        )

    def erase_items(self, tenant: str, ids: ErasedIds) -> None:
        """Delete the items and everything derived from them; call inside a transaction."""
        # Freed pages are zeroed, so the content does not linger in the file.
        self._exec("PRAGMA secure_delete = ON")
        self._erase_turns(tenant, ids.turns)
        self._erase_facts(tenant, ids.facts)
        self._erase_records(tenant, ids.records)
        self._erase_summaries(tenant, ids.summaries)
        for table in _FTS_TABLES:
            # A full-text delete only marks the entry; merging the segments drops its terms.
            self._exec(f"INSERT INTO {table} ({table}) VALUES ('optimize')")

    def announce_erased(self, tenant: str, streams: Sequence[str]) -> None:
        """Tell indexes kept outside the database which streams lost items. Call after the
        erasure committed: an index that takes its own lock before the store's would
        otherwise wait on a writer that waits on it."""
        for listener in self._erase_listeners:
            listener(tenant, streams)

    def redact_summary(
        self, tenant: str, summary_id: int, text: str, record: dict[str, Any] | None
    ) -> None:
        """Replace a summary's text and record (what quoted erased content removed)."""
        self._unindex("summaries", tenant, [summary_id])
        self._exec(
            "UPDATE summaries SET text = ?, record = ? WHERE tenant = ? AND id = ?",
            (text, None if record is None else json.dumps(record), tenant, summary_id),
        )
        self._exec(
            "INSERT INTO summaries_fts (rowid, text) VALUES (?, replace(?, char(0), ' '))",
            (summary_id, text),
        )
        self._exec("DELETE FROM vectors WHERE kind = 'summary' AND item_id = ?", (summary_id,))

    def note_erasure(
        self, tenant: str, target: dict[str, Any], removed: dict[str, int], streams: Sequence[str]
    ) -> None:
        """The audit row, and a mark on each stream touched so that a job which read it
        before the erasure throws its result away (see Pipeline)."""
        self._exec(
            "INSERT INTO erasures (tenant, target, removed, at) VALUES (?, ?, ?, ?)",
            (tenant, json.dumps(target), json.dumps(removed), utcnow().isoformat()),
        )
        for stream in streams:
            self._exec(
                "UPDATE streams SET erasures = erasures + 1 WHERE tenant = ? AND name = ?",
                (tenant, stream),
            )

    # -- finding --------------------------------------------------------------

    def _streams_of(self, table: str, tenant: str, ids: set[int]) -> set[str]:
        if not ids:
            return set()
        rows = self._rows(
            f"SELECT DISTINCT stream FROM {table} WHERE tenant = ? AND id IN ({_marks(ids)})",
            (tenant, *ids),
        )
        return {r["stream"] for r in rows}

    def _ids(self, table: str, tenant: str, column: str, values: Sequence[Any]) -> set[int]:
        if not values:
            return set()
        rows = self._rows(
            f"SELECT id FROM {table} WHERE tenant = ? AND {column} IN ({_marks(values)})",
            (tenant, *values),
        )
        return {r["id"] for r in rows}

    def _ids_lower(
        self, table: str, tenant: str, columns: Sequence[str], names: Sequence[str]
    ) -> set[int]:
        found: set[int] = set()
        for column in columns:
            found |= self._ids(table, tenant, f"lower({column})", names)
        return found

    def _mentioning(self, table: str, tenant: str, text: str, names: Sequence[str]) -> set[int]:
        """Rows whose text names one of `names` as a whole word."""
        found: set[int] = set()
        for name in names:
            word = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)
            rows = self._rows(
                f"SELECT id, {text} AS text FROM {table}"
                " WHERE tenant = ? AND instr(lower(" + text + "), ?) > 0",
                (tenant, name),
            )
            found |= {r["id"] for r in rows if word.search(r["text"])}
        return found

    def _streams_of_users(self, tenant: str, names: Sequence[str]) -> list[str]:
        """The streams whose user gave one of `names` as their own."""
        if not names:
            return []
        rows = self._rows(
            f"SELECT DISTINCT stream FROM facts WHERE tenant = ? AND subject = 'user'"
            f" AND slot = ? AND lower(value) IN ({_marks(names)})",
            (tenant, USER_NAME_SLOT, *names),
        )
        return sorted(r["stream"] for r in rows)

    def _holder_ids(self, tenant: str, people: Sequence[str]) -> set[int]:
        """Facts whose value is one of `people`: a title they hold, whose manager or
        partner they are ("The user's manager is Maya Chen"), whoever wrote it."""
        if not people:
            return set()
        rows = self._rows(
            f"SELECT id FROM facts WHERE tenant = ? AND lower(value) IN ({_marks(people)})",
            (tenant, *people),
        )
        return {r["id"] for r in rows}

    def _facts_from(self, tenant: str, kind: str, ids: set[int]) -> set[int]:
        return self._ids_where(
            "facts", tenant, "source_kind = ? AND source_id", [kind], [str(i) for i in ids]
        )

    def _facts_from_records(self, tenant: str, ids: set[int]) -> set[int]:
        found: set[int] = set()
        for source in _RECORD_SOURCES:
            found |= self._ids_where(
                "facts",
                tenant,
                "source_kind LIKE ? AND source_id",
                [f"{source}.%"],
                [str(i) for i in ids],
            )
        return found

    def _ids_where(
        self, table: str, tenant: str, head: str, head_params: list[Any], values: list[Any]
    ) -> set[int]:
        if not values:
            return set()
        rows = self._rows(
            f"SELECT id FROM {table} WHERE tenant = ? AND {head} IN ({_marks(values)})",
            (tenant, *head_params, *values),
        )
        return {r["id"] for r in rows}

    # -- deleting -------------------------------------------------------------

    def _erase_turns(self, tenant: str, ids: Sequence[int]) -> None:
        if not ids:
            return
        # A turn is indexed with the words of the turn before it, so the next one's entry
        # quotes an erased turn too: it is indexed again once the erased turn is gone.
        next_ids = [
            r["id"]
            for r in self._rows(
                f"SELECT n.id FROM turns t JOIN turns n ON n.tenant = t.tenant"
                f" AND n.stream = t.stream AND n.seq = t.seq + 1"
                f" WHERE t.tenant = ? AND t.id IN ({_marks(ids)})",
                (tenant, *ids),
            )
            if r["id"] not in set(ids)
        ]
        self._unindex_turns([*ids, *next_ids])
        self._drop_derived(tenant, "turn", ids)
        # A doubt names its turn: once the turn is gone, it names nothing.
        self._exec(
            "UPDATE facts SET doubt_kind = NULL, doubt_id = NULL, doubt_at = NULL"
            f" WHERE tenant = ? AND doubt_kind = 'turn' AND doubt_id IN ({_marks(ids)})",
            (tenant, *(str(i) for i in ids)),
        )
        self._exec(f"DELETE FROM turns WHERE tenant = ? AND id IN ({_marks(ids)})", (tenant, *ids))
        if next_ids:
            self._exec(
                f"INSERT INTO turns_fts (rowid, {_TURN_FTS_COLUMNS})"
                f" SELECT id, {_TURN_FTS_COLUMNS} FROM turns_indexed"
                f" WHERE id IN ({_marks(next_ids)})",
                next_ids,
            )

    def _unindex_turns(self, ids: Sequence[int]) -> None:
        self._exec(
            f"INSERT INTO turns_fts (turns_fts, rowid, {_TURN_FTS_COLUMNS})"
            f" SELECT 'delete', id, {_TURN_FTS_COLUMNS} FROM turns_indexed"
            f" WHERE id IN ({_marks(ids)})",
            list(ids),
        )

    def _erase_facts(self, tenant: str, ids: Sequence[int]) -> None:
        if not ids:
            return
        marks = _marks(ids)
        self._unindex("facts", tenant, ids)
        self._drop_derived(tenant, "fact", ids)
        self._exec(f"DELETE FROM fact_history WHERE fact_id IN ({marks})", ids)
        self._exec(
            f"UPDATE fact_history SET related_fact_id = NULL WHERE related_fact_id IN ({marks})",
            ids,
        )
        for link in ("supersedes", "superseded_by"):
            self._exec(
                f"UPDATE facts SET {link} = NULL WHERE tenant = ? AND {link} IN ({marks})",
                (tenant, *ids),
            )
        self._exec(f"DELETE FROM facts WHERE tenant = ? AND id IN ({marks})", (tenant, *ids))

    def _erase_records(self, tenant: str, ids: Sequence[int]) -> None:
        if not ids:
            return
        marks = _marks(ids)
        self._unindex("records", tenant, ids)
        self._drop_derived(tenant, "record", ids)
        self._exec(f"DELETE FROM record_streams WHERE record_id IN ({marks})", ids)
        self._exec(f"DELETE FROM records WHERE tenant = ? AND id IN ({marks})", (tenant, *ids))

    def _erase_summaries(self, tenant: str, ids: Sequence[int]) -> None:
        if not ids:
            return
        # The summaries' delete trigger takes their full-text entries.
        self._drop_derived(tenant, "summary", ids)
        self._exec(
            f"DELETE FROM summaries WHERE tenant = ? AND id IN ({_marks(ids)})", (tenant, *ids)
        )

    def _unindex(self, table: str, tenant: str, ids: Sequence[int]) -> None:
        """Remove the full-text entries of rows of an external-content table."""
        self._exec(
            f"INSERT INTO {table}_fts ({table}_fts, rowid, text)"
            f" SELECT 'delete', id, replace(text, char(0), ' ') FROM {table}"
            f" WHERE tenant = ? AND id IN ({_marks(ids)})",
            (tenant, *ids),
        )

    def _drop_derived(self, tenant: str, kind: str, ids: Sequence[int]) -> None:
        """An item's vector and timeline entries."""
        marks = _marks(ids)
        self._exec(f"DELETE FROM vectors WHERE kind = ? AND item_id IN ({marks})", (kind, *ids))
        self._exec(
            "DELETE FROM entity_events WHERE tenant = ? AND item_kind = ?"
            f" AND item_id IN ({marks})",
            (tenant, kind, *ids),
        )


def _marks(values: Sized) -> str:
    return ", ".join("?" * len(values))
