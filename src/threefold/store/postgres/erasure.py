"""The PostgreSQL store's privacy erasure: rows go with their vectors, history, links and
timeline entries (their full-text entries are columns of the rows themselves), and an
audit row without content stays."""

import json
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from threefold.domain import utcnow
from threefold.store.base import USER_NAME_SLOT, ErasedIds
from threefold.store.postgres.migrations import INDEX_TURNS

if TYPE_CHECKING:
    from threefold.store.postgres.store import Params
    from threefold.store.postgres.text_lengths import TextLengths

_RECORD_SOURCES = ("slack", "jira", "web")
"""A record's facts name it as '<source>.<kind>' (Record.ref)."""


class ErasureTables:
    """Mixed into PostgresStore, whose plumbing (_rows, _exec) it uses."""

    if TYPE_CHECKING:

        def _rows(self, sql: str, params: "Params" = ()) -> list[dict[str, Any]]: ...
        def _exec(self, sql: str, params: "Params" = ()) -> int: ...

        _erase_listeners: list[Callable[[str, Sequence[str]], None]]
        _text_lengths: "TextLengths"

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
        """The items a privacy erasure takes, as the SQLite store finds them."""
        theirs = self._streams_of_users(tenant, users_named)
        turns = self._ids("turns", tenant, "stream", streams)
        turns |= self._ids("turns", tenant, "(CASE WHEN speaker IS NULL THEN stream END)", theirs)
        turns |= self._ids("turns", tenant, "lower(speaker)", speakers)
        turns |= self._ids("turns", tenant, "lower(assistant_speaker)", speakers)
        turns |= self._mentioning("turns", tenant, "user_text || ' ' || assistant_text", speakers)
        records = self._ids("records", tenant, "stream", streams)
        records |= self._ids("records", tenant, "lower(author)", speakers)
        records |= self._mentioning("records", tenant, "text", speakers)
        facts = self._ids("facts", tenant, "stream", streams) | set(fact_ids)
        facts |= self._ids("facts", tenant, "subject", subjects)
        if subjects:
            facts |= self._id_set(
                # Whose value they are: a title they hold, whose manager or partner they are.
                "SELECT id FROM facts WHERE tenant = %s AND lower(value) = ANY(%s)",
                (tenant, list(subjects)),
            )
        facts |= self._ids("facts", tenant, "(CASE WHEN subject = 'user' THEN stream END)", theirs)
        facts |= self._facts_from(tenant, ["turn"], turns)
        facts |= self._facts_from(tenant, [f"{s}.%" for s in _RECORD_SOURCES], records)
        summaries = self._ids("summaries", tenant, "stream", streams)
        touched = set(streams)
        for table, ids in (("turns", turns), ("facts", facts), ("records", records)):
            if ids:
                rows = self._rows(
                    f"SELECT DISTINCT stream FROM {table} WHERE tenant = %s AND id = ANY(%s)",
                    (tenant, sorted(ids)),
                )
                touched |= {r["stream"] for r in rows}
        return ErasedIds(
            turns=sorted(turns),
            facts=sorted(facts),
            records=sorted(records),
            summaries=sorted(summaries),
            streams=sorted(touched),
        )

    def erase_items(self, tenant: str, ids: ErasedIds) -> None:
        """Delete the items and everything derived from them; call inside a transaction.
        The deleted rows' space is reclaimed by (auto)vacuum, as PostgreSQL always does."""
        self._erase_turns(tenant, ids.turns)
        self._erase_facts(tenant, ids.facts)
        self._erase_records(tenant, ids.records)
        self._erase_summaries(tenant, ids.summaries)

    def announce_erased(self, tenant: str, streams: Sequence[str]) -> None:
        for listener in self._erase_listeners:
            listener(tenant, streams)

    def redact_summary(
        self, tenant: str, summary_id: int, text: str, record: dict[str, Any] | None
    ) -> None:
        self._exec(
            "UPDATE summaries SET text = %s, record = %s WHERE tenant = %s AND id = %s",
            (text, None if record is None else json.dumps(record), tenant, summary_id),
        )
        self._exec("DELETE FROM vectors WHERE kind = 'summary' AND item_id = %s", (summary_id,))
        self._text_lengths.forget()  # its words were counted before

    def note_erasure(
        self, tenant: str, target: dict[str, Any], removed: dict[str, int], streams: Sequence[str]
    ) -> None:
        self._exec(
            "INSERT INTO erasures (tenant, target, removed, at) VALUES (%s, %s, %s, %s)",
            (tenant, json.dumps(target), json.dumps(removed), utcnow().isoformat()),
        )
        self._exec(
            "UPDATE streams SET erasures = erasures + 1 WHERE tenant = %s AND name = ANY(%s)",
            (tenant, list(streams)),
        )

    # -- finding --------------------------------------------------------------

    def _id_set(self, sql: str, params: Sequence[Any]) -> set[int]:
        return {r["id"] for r in self._rows(sql, params)}

    def _streams_of_users(self, tenant: str, names: Sequence[str]) -> list[str]:
        """The streams whose user gave one of `names` as their own."""
        if not names:
            return []
        rows = self._rows(
            "SELECT DISTINCT stream FROM facts WHERE tenant = %s AND subject = 'user'"
            " AND slot = %s AND lower(value) = ANY(%s)",
            (tenant, USER_NAME_SLOT, list(names)),
        )
        return sorted(r["stream"] for r in rows)

    def _ids(self, table: str, tenant: str, column: str, values: Sequence[Any]) -> set[int]:
        if not values:
            return set()
        return self._id_set(
            f"SELECT id FROM {table} WHERE tenant = %s AND {column} = ANY(%s)",
            (tenant, list(values)),
        )

    def _mentioning(self, table: str, tenant: str, text: str, names: Sequence[str]) -> set[int]:
        """Rows whose text names one of `names` as a whole word."""
        found: set[int] = set()
        for name in names:
            word = re.compile(rf"(?<!\w){re.escape(name)}(?!\w)", re.IGNORECASE)
            rows = self._rows(
                f"SELECT id, {text} AS text FROM {table}"
                f" WHERE tenant = %s AND strpos(lower({text}), %s) > 0",
                (tenant, name),
            )
            found |= {r["id"] for r in rows if word.search(r["text"])}
        return found

    def _facts_from(self, tenant: str, kinds: Sequence[str], ids: set[int]) -> set[int]:
        """Facts read from the items `ids`, whose source kind is like one of `kinds`."""
        if not ids:
            return set()
        return self._id_set(
            "SELECT id FROM facts WHERE tenant = %s AND source_kind LIKE ANY(%s)"
            " AND source_id = ANY(%s)",
            (tenant, list(kinds), [str(i) for i in ids]),
        )

    # -- deleting -------------------------------------------------------------

    def _erase_turns(self, tenant: str, ids: Sequence[int]) -> None:
        if not ids:
            return
        # A turn is indexed with the words of the turn before it: the next turn's entry
        # quoted an erased one, so it is indexed again from its own words (and its new
        # predecessor's, should that one be left) once the erased turns are gone.
        next_ids = [
            r["id"]
            for r in self._rows(
                "SELECT n.id FROM turns t JOIN turns n ON n.tenant = t.tenant"
                " AND n.stream = t.stream AND n.seq = t.seq + 1"
                " WHERE t.tenant = %s AND t.id = ANY(%s) AND NOT (n.id = ANY(%s))",
                (tenant, list(ids), list(ids)),
            )
        ]
        self._drop_derived(tenant, "turn", ids)
        # A doubt names its turn: once the turn is gone, it names nothing.
        self._exec(
            "UPDATE facts SET doubt_kind = NULL, doubt_id = NULL, doubt_at = NULL"
            " WHERE tenant = %s AND doubt_kind = 'turn' AND doubt_id = ANY(%s)",
            (tenant, [str(i) for i in ids]),
        )
        self._exec("DELETE FROM turns WHERE tenant = %s AND id = ANY(%s)", (tenant, list(ids)))
        if next_ids:
            self._exec(INDEX_TURNS + " WHERE t.id = ANY(%s)", (next_ids,))
            self._text_lengths.forget()  # their words were counted before

    def _erase_facts(self, tenant: str, ids: Sequence[int]) -> None:
        if not ids:
            return
        id_list = list(ids)
        self._drop_derived(tenant, "fact", ids)
        self._exec("DELETE FROM fact_history WHERE fact_id = ANY(%s)", (id_list,))
        self._exec(
            "UPDATE fact_history SET related_fact_id = NULL WHERE related_fact_id = ANY(%s)",
            (id_list,),
        )
        for link in ("supersedes", "superseded_by"):
            self._exec(
                f"UPDATE facts SET {link} = NULL WHERE tenant = %s AND {link} = ANY(%s)",
                (tenant, id_list),
            )
        self._exec("DELETE FROM facts WHERE tenant = %s AND id = ANY(%s)", (tenant, id_list))

    def _erase_records(self, tenant: str, ids: Sequence[int]) -> None:
        if not ids:
            return
        self._drop_derived(tenant, "record", ids)
        self._exec("DELETE FROM record_streams WHERE record_id = ANY(%s)", (list(ids),))
        self._exec("DELETE FROM records WHERE tenant = %s AND id = ANY(%s)", (tenant, list(ids)))

    def _erase_summaries(self, tenant: str, ids: Sequence[int]) -> None:
        if not ids:
            return
        self._drop_derived(tenant, "summary", ids)
        self._exec("DELETE FROM summaries WHERE tenant = %s AND id = ANY(%s)", (tenant, list(ids)))

    def _drop_derived(self, tenant: str, kind: str, ids: Sequence[int]) -> None:
        """An item's vector and timeline entries."""
        self._exec("DELETE FROM vectors WHERE kind = %s AND item_id = ANY(%s)", (kind, list(ids)))
        self._exec(
            "DELETE FROM entity_events WHERE tenant = %s AND item_kind = %s AND item_id = ANY(%s)",
            (tenant, kind, list(ids)),
        )
