"""Digesting a stream's outside messages in batches: facts, observations and a summary.

Facts from messages rank below the user's own statements: their confidence is scaled into
the source's band, so a Slack message never supersedes a correction the user made.
Observation categories have thresholds (settings.sources.observation_thresholds) below
which nothing is stored.
"""

import logging
import re
from urllib.parse import urlsplit

from threefold import entities
from threefold.domain import (
    GLOBAL_STREAM,
    FactCategory,
    Record,
    SourceRef,
    SummaryKind,
    channel_entity,
    most_private,
    person,
)
from threefold.layers import summaries
from threefold.layers.facts import record_fact
from threefold.models.base import ExtractedFact, MemoryModel, MessageInput, TurnInput
from threefold.pipeline.jobs import ACTIONS, DIGEST, FETCH, Apply, enqueue_once
from threefold.settings import Settings
from threefold.sources import web
from threefold.sources.ingest import credited_author
from threefold.store.base import NewRecord, Store
from threefold.tokens import count_tokens

log = logging.getLogger("threefold.sources")

SOURCE_LEVELS = (0.85, 0.8, 0.75, 0.7, 0.6, 0.5)
"""Slack's band, in steps: a fact from a message is stored at the highest level at or below
the model's own confidence, so messages rank below the user's own statements, plain
statements share one level (among them the later one wins), and no fact is ever stored
surer than it was judged."""
CORRECTION_LEVEL = 0.9
MIN_STORED = 0.5
"""Below this a fact is not stored at all."""
BOT_CONFIDENCE = 0.7
BOT_DISCOUNT = 0.15
"""Bots post commit links and build results by the hundred; an observation from a bot
must be that much clearer to pass its category's threshold."""
PAGE_SUMMARY_TOKENS = 150
_CODE_BLOCK = re.compile(r"```.*?(?:```|\Z)", re.DOTALL)
"""Pasted logs and code read as sentences to a summarizer; the record keeps them."""


def digest(store: Store, model: MemoryModel, settings: Settings, tenant: str, stream: str) -> Apply:
    """Facts and a Slack summary for the stream's oldest unprocessed messages."""
    batch = store.unprocessed_records(tenant, stream, settings.sources.import_batch_messages)
    if not batch:
        return lambda: None
    kept = message_facts(model, settings, batch, thread_starts(store, tenant, batch))
    # Bots post commit lists and build results by the hundred; people's words tell the story.
    told = [r for r in batch if r.kind != "bot"] or batch
    fold = summaries.fold_in(
        store,
        model,
        settings,
        tenant,
        stream,
        SummaryKind.SLACK,
        [_turn_input(r) for r in told],
        most_private(r.visibility for r in told),
    )
    links = _links_to_fetch(batch, settings)

    def apply() -> None:
        for record in batch:
            if record.kind != "bot":
                entities.remember_speaker(store, tenant, record.author, record.author_id)
        events = []
        for record, fact in kept:
            stored = record_fact(
                store, tenant, stream, fact, record.ref(), visibility=record.visibility
            )
            events += [
                (entity, "fact", stored.id, record.at)
                for entity in (person(credited(record)), channel_entity(record.channel))
            ]
            if record.author_id and record.kind != "bot":
                account = person(entities.account_alias(record.author_id))
                events.append((account, "fact", stored.id, record.at))
        store.add_entity_events(tenant, events)
        fold()
        store.mark_processed(tenant, [r.id for r in batch])
        for url, record in links:
            store.enqueue(tenant, stream, FETCH, {"url": url, "record_id": record.id})
        if store.unprocessed_records(tenant, stream, 1):
            store.enqueue(tenant, stream, DIGEST, {})
        elif settings.team.actions_on_arrival:
            # The stream's waiting messages are read: what they cause or finish is an
            # action now, not at the next nightly rebuild. The rules read the whole
            # tenant, so one waiting run serves every stream an import fills.
            enqueue_once(store, tenant, GLOBAL_STREAM, ACTIONS)

    return apply


def message_facts(
    model: MemoryModel,
    settings: Settings,
    batch: list[Record],
    starts: dict[int, str] | None = None,
) -> list[tuple[Record, ExtractedFact]]:
    """The facts the model reads in `batch`, at the source's confidence, those that pass
    their category's threshold; links alone are left to the records. `starts` holds, per
    reply's record id, the words of the message that started its thread."""
    starts = starts or {}
    found = model.extract_from_messages([_message_input(r, starts.get(r.id, "")) for r in batch])
    banded = [
        (record, _in_band(fact, record))
        for record, facts in zip(batch, found, strict=True)
        for fact in facts
    ]
    # A link alone says nothing a search of the message would not find; kept as facts,
    # links crowded out what people decided. A fetched page is still stored (see fetch).
    return [
        (record, fact)
        for record, fact in banded
        if _passes(fact, settings) and fact.category is not FactCategory.REFERENCE
    ]


def fetch(
    store: Store,
    model: MemoryModel,
    settings: Settings,
    tenant: str,
    stream: str,
    url: str,
    record_id: int,
) -> Apply:
    """A linked page, fetched, summarised and stored as a reference. A page that cannot be
    fetched is logged and left alone: the link itself is already a reference."""
    linked_from = store.record(tenant, record_id)
    try:
        page = web.fetch_page(
            url,
            allow_hosts=settings.sources.fetch_hosts,
            allow_networks=settings.sources.fetch_allow_networks,
            timeout=settings.sources.fetch_timeout_seconds,
            max_bytes=settings.sources.fetch_max_bytes,
            max_chars=min(web.DEFAULT_MAX_CHARS, settings.max_turn_chars),
        )
    except (web.FetchError, ValueError) as exc:
        log.warning("not fetched: %s", exc)
        return lambda: None
    digest_ = model.summarize_session(
        [TurnInput(stream=stream, user=page.text, at=page.fetched_at)], PAGE_SUMMARY_TOKENS
    )
    title = page.title or url
    text = f"{title}\n{digest_.text}".strip()
    host = urlsplit(page.url).hostname or "web"

    def apply() -> None:
        stored = store.insert_record(
            NewRecord(
                tenant=tenant,
                stream=stream,
                source="web",
                channel=host,
                external_id=page.url,
                author=host,
                text=text,
                kind="page",
                at=page.fetched_at,
                route_method="link",
                route_confidence=1.0,
                visibility=linked_from.visibility,
                tokens=count_tokens(text),
                processed=True,
                entities=(stream, person(linked_from.author)),
                data={"title": page.title, "truncated": page.truncated, "linked_from": record_id},
            )
        )
        if stored is None:
            return
        reference = ExtractedFact(
            text=f"{title} ({page.url}): {_first_line(digest_.text)}",
            category=FactCategory.REFERENCE,
            subject=host,
            slot=f"ref:{url}",
            value=page.url,
            confidence=0.8,
        )
        source = SourceRef(kind="web.page", id=str(stored), at=page.fetched_at)
        record_fact(store, tenant, stream, reference, source, visibility=linked_from.visibility)

    return apply


def _message_input(record: Record, replying_to: str = "") -> MessageInput:
    return MessageInput(
        author=credited(record),
        text=record.text,
        at=record.at,
        channel=record.channel,
        replying_to=replying_to,
    )


def thread_starts(store: Store, tenant: str, batch: list[Record]) -> dict[int, str]:
    """Per thread reply of `batch`, the words of the message that started its thread:
    looked up in the batch, else among the stored records; absent when it is not known."""
    here = {(r.channel, r.external_id): r.text for r in batch}
    starts = {}
    for record in batch:
        if record.thread is None or record.thread == record.external_id:
            continue
        text = here.get((record.channel, record.thread))
        if text is None:
            found = store.record_id(tenant, record.source, record.channel, record.thread)
            text = store.record(tenant, found).text if found is not None else None
        if text:
            starts[record.id] = text
    return starts


def credited(record: Record) -> str:
    """Who a message is about: its author, or for a bot the person it says acted."""
    return credited_author(record.kind, record.author, record.text)


def _turn_input(record: Record) -> TurnInput:
    in_thread = record.thread is not None and record.thread != record.external_id
    text = _CODE_BLOCK.sub(" [code] ", record.text)
    said = f"{record.author}{' (in thread)' if in_thread else ''}: {text}"
    return TurnInput(stream=record.stream, user=said, at=record.at)


def _passes(fact: ExtractedFact, settings: Settings) -> bool:
    """Thresholds compare the confidence that is stored."""
    threshold = settings.sources.observation_thresholds.get(fact.category.value, 0.0)
    return fact.confidence >= max(MIN_STORED, threshold)


def _in_band(fact: ExtractedFact, record: Record) -> ExtractedFact:
    """`fact` at its stored confidence: the source's level at or below the judged one."""
    judged = fact.confidence
    if record.kind == "bot":
        judged = min(BOT_CONFIDENCE, judged - BOT_DISCOUNT)
    elif fact.is_correction and judged >= CORRECTION_LEVEL:
        return fact.model_copy(update={"confidence": CORRECTION_LEVEL})
    # The tolerance keeps 0.85 - 0.15 at the 0.7 step despite binary rounding.
    level = next((step for step in SOURCE_LEVELS if step <= judged + 1e-9), 0.0)
    return fact.model_copy(update={"confidence": level})


def _links_to_fetch(batch: list[Record], settings: Settings) -> list[tuple[str, Record]]:
    hosts = settings.sources.fetch_hosts
    if not hosts:
        return []
    return [
        (url, record)
        for record in batch
        for url in web.extract_urls(record.text)
        if web.host_allowed(url, hosts)
    ]


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""
