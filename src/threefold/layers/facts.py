"""Layer 1: recording facts, with reconciliation and soft supersession by (subject, slot).

Subjects are entity keys (threefold.entities): "Lena" and "Lena Ortiz" are one subject
when the tenant knows one Lena. A person's role and a title's holder are one relation, so
"Raj is a developer" and "Raj is the Lead Architect" hold each other's slot.

The rules, in order:
- the same text in the same slot again is a mention of the fact already held;
- the same value again is a mention too;
- a holder with higher confidence outranks the newcomer, which is kept but not shown;
- a holder whose event is later than the newcomer's wins too (late imports of old news);
- otherwise the newcomer supersedes every holder of the slot;
- a newcomer for an empty slot that resembles facts elsewhere is reconciled by the model:
  ADD, UPDATE (the old fact's text, in place), or NONE (a mention).
- a break-up, a divorce or a death ends the user's relation to that person (or pet): the
  relation gives way to its past form ("Max was the user's dog").
Nothing is deleted: the losers change status and keep links to the winner, and every
change leaves a history row.
"""

import functools
import hashlib
import logging
import re
from collections.abc import Callable, Iterable, Sequence
from importlib import resources

from threefold import entities
from threefold.domain import Fact, FactCategory, FactStatus, SourceRef, Visibility
from threefold.entities import HOLDER_SLOT, ROLE_SLOT
from threefold.errors import NotFound
from threefold.layers.things import ADDING, keyed_by_a_name, keyed_by_the_old
from threefold.models.base import (
    EATS_AGAIN_SLOT,
    KIN_SLOT,
    ExtractedFact,
    KnownFact,
    MemoryModel,
    ReconcileAction,
    ReconcileDecision,
    SlotRef,
)
from threefold.store.base import NewFact, Store
from threefold.tokens import count_tokens
from threefold.trust.writes import OWNER, Author, holder_wins, may_change

log = logging.getLogger("threefold.layers.facts")

SimilarFacts = Callable[[str, str, ExtractedFact], Sequence[Fact]]
"""(tenant, stream, new fact) -> active facts of the stream that resemble it."""


def normalize(value: str) -> str:
    return " ".join(value.lower().split()).strip(" .!,;:'\"")


def content_hash(item: ExtractedFact) -> str:
    key = "\x1f".join((normalize(item.text), item.subject, item.slot))
    return hashlib.sha1(key.encode()).hexdigest()


def reconcile(
    store: Store,
    model: MemoryModel,
    similar: SimilarFacts,
    tenant: str,
    stream: str,
    item: ExtractedFact,
) -> ReconcileDecision | None:
    """The model's verdict on a fact for an empty slot that resembles others; None: ADD.
    SUPERSEDE names an older fact in another slot that the new one replaces ("works at
    Monzo" for "is a Sage engineer"): record_fact retires it.

    This is the thinking half, run outside any transaction; record_fact applies it.
    """
    item = entities.resolved(store, tenant, item)
    if item.ends:
        return None  # it says what it ends is over: no restatement of it, nor a new value
    if store.facts_in_slot(tenant, stream, item.subject, item.slot):
        return None  # supersession by slot decides
    if store.fact_with_hash(tenant, stream, content_hash(item)):
        return None  # an exact repeat is a mention
    candidates = list(similar(tenant, stream, item))
    if not candidates:
        return None
    known = [
        KnownFact(
            id=f.id,
            text=f.text,
            subject=f.subject,
            slot=f.slot,
            value=f.value,
            confidence=f.confidence,
        )
        for f in candidates
    ]
    decision = model.reconcile(item, known)
    offered = {f.id for f in candidates}
    if decision.action is not ReconcileAction.ADD and decision.target_id not in offered:
        log.warning("reconcile named fact %s, not a candidate; adding", decision.target_id)
        return None
    return decision


def record_fact(
    store: Store,
    tenant: str,
    stream: str,
    item: ExtractedFact,
    source: SourceRef,
    *,
    visibility: Visibility = Visibility.PRIVATE,
    decision: ReconcileDecision | None = None,
    writer: Author = OWNER,
) -> Fact:
    """Store `item` and apply supersession; call inside a transaction.

    `writer` is who states it: a less trusted writer cannot displace, retract or rewrite
    what a more trusted one said (see threefold.trust.writes).
    """
    item = entities.remembered(store, tenant, item)
    repeat = store.fact_with_hash(tenant, stream, content_hash(item))
    if repeat is not None:
        return _ending(store, tenant, stream, item, writer, repeat)(
            _mention(store, tenant, repeat, item, source, "the same statement again")
        )
    if decision is not None and decision.target_id is not None:
        target = store.fact(tenant, decision.target_id)
        if target.active and decision.action is ReconcileAction.NONE:
            return _mention(store, tenant, target, item, source, f"reconciled: {decision.reason}")
        if (
            target.active
            and decision.action is ReconcileAction.UPDATE
            and may_change(target, writer)
        ):
            return _update(store, tenant, target, item, decision.reason)
    holders = store.facts_in_slot(tenant, stream, item.subject, item.slot)
    for holder in holders:
        if normalize(holder.value) == normalize(item.value):
            return _ending(store, tenant, stream, item, writer, holder)(
                _mention(store, tenant, holder, item, source, "mentioned again")
            )
    unnamed = _unnamed_keys(store, tenant, stream, item) if item.is_correction else []
    holders += [f for key in unnamed for f in store.facts_in_slot(tenant, stream, key, item.slot)]
    if item.slot.split(":", 1)[0] in MANY_VALUED:
        holders = []  # "Raj owns a bike" leaves "Raj leads the platform team" standing
    new = _new_fact(tenant, stream, item, source, visibility, writer)
    linked = _linked_holders(store, tenant, stream, item, source)
    holders += [f for f in linked if f not in holders]
    winner = _stronger_holder(store, holders, item, source, writer)
    if winner is not None:
        return _insert_losing(store, new, winner)
    holders += _replaced_by_verdict(store, tenant, decision, writer, holders)
    supersedes = holders[0].id if holders else None
    fact = store.insert_fact(new.model_copy(update={"supersedes": supersedes}))
    store.add_fact_change(
        fact.id, "ADD", related=fact.supersedes, note=_origin(item), after=_snapshot(fact)
    )
    for holder in holders:
        _supersede(store, holder, fact)
    for denied in item.retracts:
        _retract(store, tenant, stream, denied, fact, writer)
        for key in unnamed if denied.subject == item.subject else ():
            _retract(
                store, tenant, stream, denied.model_copy(update={"subject": key}), fact, writer
            )
    for over in item.ends:
        _end_value(store, tenant, stream, over, fact, writer)
    for ended in _ended_relations(store, tenant, stream, fact):
        # Within one turn, what is said later stands, whatever the tone of each sentence.
        outranks = ended.confidence <= fact.confidence or ended.source == fact.source
        if may_change(ended, writer) and outranks:
            _end(store, ended, fact)
    for twin in _twins(store, fact):
        _give_way(store, twin, fact, note="the same statement, read twice from one message")
    return fact  # what changed since the insert were the older facts, not this one


def _twins(store: Store, fact: Fact) -> list[Fact]:
    """The active facts read from `fact`'s own message that say the same of the same
    subject in another slot: "Wait, it's amoxicillin, not penicillin" read as a swap
    (keyed by the new value) and by the reader as the held slot's update (keyed by the
    old) would else show the allergy twice."""
    text = normalize(fact.text)
    return [
        f
        for f in store.facts_from(fact.tenant, fact.stream, fact.source)
        if f.id != fact.id and f.active and f.subject == fact.subject and normalize(f.text) == text
    ]


def held_changes(
    store: Store,
    tenant: str,
    stream: str,
    item: ExtractedFact,
    said: Sequence[ExtractedFact] = (),
) -> list[Fact]:
    """The active facts that `item`, a reading less sure than its kind needs to be stored
    on its own (models.base.Standing), would change: for a value said to be over ("not
    vegan any more", or one it `ends`), the facts holding that value; for a new value, the
    facts holding its subject's slot with another value. None held: the reading changes
    nothing, and is not stored.

    A slot held with another value is what makes a weak reading likely right: the topic
    is established, and a new value in that slot is exactly what an update looks like.
    A held value that the same turn states again (`said`: every reading of the turn) is
    confirmed, not changed: "still at Halfords, but they made me manager"; and a value the
    turn reads in another slot as well ("Pixel" a dog's name and an employer) is too
    ambiguous to change anything.
    """
    item = entities.resolved(store, tenant, item)
    said = [entities.resolved(store, tenant, f) for f in said]
    again = {normalize(f.value) for f in said if (f.subject, f.slot) == (item.subject, item.slot)}
    if any(_read_elsewhere(item, f) for f in said):
        return []  # one value read in two slots ("two greyhounds, Pixel and Boo"): unsure
    if item.ends:
        return [
            held
            for over in item.ends
            for held in store.facts_in_slot(tenant, stream, over.subject, over.slot)
            if normalize(held.value) == normalize(over.value)
        ]
    holders = [
        h
        for h in store.facts_in_slot(tenant, stream, item.subject, item.slot)
        if normalize(h.value) not in again
    ]
    value = normalize(item.value)
    kind, _, key = item.slot.partition(":")
    if key and not holders:
        # A keyed slot's value may be held under another key of its kind ("owns:car"
        # for the camper, as the rules key it).
        holders = [
            h
            for h in store.facts(tenant, stream)
            if h.subject == item.subject
            and h.slot.partition(":")[0] == kind
            and normalize(h.value) not in again
        ]
        if not value.startswith(_OVER):
            if key in _words(value):
                return []  # keyed by its own value: a new one of its kind, not a change
            # keyed by the value it replaces ("traded the Fiesta for a Corsa")
            holders = [h for h in holders if key in _words(h.value)]
    if value.startswith(_OVER):
        return [h for h in holders if normalize(h.value) == value.removeprefix(_OVER)]
    return [h for h in holders if normalize(h.value) not in (value, _OVER + value) and value]


def named_as_replaced(
    item: ExtractedFact,
    text: str,
    held: Sequence[Fact],
    said: Sequence[ExtractedFact] = (),
) -> tuple[SlotRef, ...]:
    """The values of `item`'s kind its subject holds (`held`: the stream's active facts)
    that `text`, a turn that says something changed, names beside the new one: "replaced
    the Lexus with a Highlander", "taken me off atorvastatin, on rosuvastatin now". A kind
    held several at a time (a car, a medication, an instrument) is keyed by value, so the
    new one would sit beside the old; named in the same breath as a change, the old one
    gives way. A held value the turn reads again (`said`) stands, and a turn that says it
    adds ("a second car", "now also the cello") ends nothing. Plans are left to the words
    that say one replaces another (layers/repairs.replacing_plans): a trip named again is
    the same trip."""
    kind, _, key = item.slot.partition(":")
    if not key or item.value.lower().startswith(_OVER) or item.is_correction:
        return ()
    if item.category is FactCategory.PLAN:
        return ()
    words = set(_words(text))
    if words & ADDING:
        return ()
    again = {normalize(f.value) for f in said if f.subject == item.subject}
    new = set(_words(item.value))
    return tuple(
        SlotRef(subject=fact.subject, slot=fact.slot, value=fact.value)
        for fact in held
        if fact.subject == item.subject
        and fact.slot.partition(":")[0] == kind
        and fact.slot != item.slot
        and normalize(fact.value) not in again
        and words & {w for w in _words(fact.value) if len(w) >= 3} - new - _FUNCTION_WORDS
    )


def _read_elsewhere(item: ExtractedFact, other: ExtractedFact) -> bool:
    """Whether `other` reads `item`'s value (a word of it, "2009 Camry" for "Camry") for
    the same subject as another kind of fact (a car, not a home; a former employer is the
    same kind as an employer)."""
    if other.subject != item.subject or other.category == item.category:
        return False
    mine = set(_words(item.value.removeprefix(_OVER))) - _FUNCTION_WORDS
    theirs = set(_words(other.value.removeprefix(_OVER))) - _FUNCTION_WORDS
    return bool(mine and theirs) and (mine <= theirs or theirs <= mine)


_FUNCTION_WORDS = frozenset({"a", "an", "the", "my", "our", "of", "in", "at", "not"})


_OVER = "not "
"""How a fact says its value is over or was wrong ("not vegan"), as both readers write it."""


def _ending(
    store: Store, tenant: str, stream: str, item: ExtractedFact, writer: Author, by: Fact
) -> Callable[[Fact], Fact]:
    """What a statement said again still says is over ends ("I used to be a firefighter",
    held already as a former job, ends "is a firefighter" all the same), and what it
    retracts is retracted ("my sister's name is Johanna, not Jana", read as a statement of
    Johanna and as a repair of Jana); then the fact."""

    def ended(fact: Fact) -> Fact:
        for denied in item.retracts:
            _retract(store, tenant, stream, denied, by, writer)
        for over in item.ends:
            _end_value(store, tenant, stream, over, by, writer)
        return fact

    return ended


MANY_VALUED = frozenset({"handles"})
"""Slots a subject holds several values of at once: what a person handles, leads or owns.
A new value joins the others; a retraction or an ending removes one."""


def _replaced_by_verdict(
    store: Store,
    tenant: str,
    decision: ReconcileDecision | None,
    writer: Author,
    holders: list[Fact],
) -> list[Fact]:
    """The fact in another slot that the reconcile task said the new one supersedes."""
    if decision is None or decision.action is not ReconcileAction.SUPERSEDE:
        return []
    if decision.target_id is None:
        return []
    target = store.fact(tenant, decision.target_id)
    if not target.active or target in holders or not may_change(target, writer):
        return []
    return [target]


_PARTED = frozenset({"divorced", "separated", "single", "widowed"})
_COUPLE_SLOTS = ("spouse", "partner")
_DEATH_SLOT = "passed away"


def _ended_relations(store: Store, tenant: str, stream: str, fact: Fact) -> list[Fact]:
    """The user's relations `fact` ends: being single, once there is a partner; a spouse or
    partner after a break-up, a divorce or a death, unless stated in the same turn (then
    they are the new one); whoever passed away."""
    if fact.category is not FactCategory.RELATIONSHIP:
        return []
    if fact.subject == "user" and fact.slot in _COUPLE_SLOTS:
        single = store.facts_in_slot(tenant, stream, "user", "marital status")
        return [f for f in single if normalize(f.value) == "single"]
    if fact.subject == "user" and fact.slot == "marital status":
        if normalize(fact.value) not in _PARTED:
            return []
        ended = [
            f for slot in _COUPLE_SLOTS for f in store.facts_in_slot(tenant, stream, "user", slot)
        ]
    elif fact.slot == _DEATH_SLOT:
        ended = _relations_of(store, tenant, stream, fact.subject)
        ended += [f for f in _said_of(store, tenant, stream, fact.subject) if f.id != fact.id]
    else:
        return []
    return [f for f in ended if f.source != fact.source]


def _said_of(store: Store, tenant: str, stream: str, who: str) -> list[Fact]:
    """What is said of `who` in the present ("Max is 12"): once they died it holds no
    more. The death itself and what was said of them in the past stay."""
    return [
        f
        for f in store.facts(tenant, stream)
        if f.subject == who and f.slot != _DEATH_SLOT and not _PAST_RE.search(f.text)
    ]


_PAST_RE = re.compile(r"\b(?:was|were|had|used\s+to)\b", re.IGNORECASE)


def _relations_of(store: Store, tenant: str, stream: str, who: str) -> list[Fact]:
    """The user's relation to `who`: a name ("max"), or a kind ("user's grandmother") when
    the user has one of it."""
    relations = [
        f
        for f in store.facts(tenant, stream)
        if f.subject == "user" and f.category is FactCategory.RELATIONSHIP
    ]
    kind = who.removeprefix("user's ")
    if kind == who:
        return [f for f in relations if normalize(f.value) == who]
    of_kind = [f for f in relations if f.slot.split(":", 1)[0] == kind]
    return of_kind if len(of_kind) == 1 else []


def _end(store: Store, old: Fact, by: Fact) -> None:
    """`old` gives way: a relation to its past form, so the chain keeps who the person was;
    a status ("single") or what was said of someone now dead ("Max is 12") to `by`."""
    kept = old.category is FactCategory.RELATIONSHIP and old.slot != "marital status"
    _supersede(store, old, _past_form(store, old, by) if kept else by)


def _supersede(store: Store, old: Fact, by: Fact) -> None:
    _give_way(store, old, by)
    for echo in _restatements(store, old, by):
        _give_way(store, echo, by, note="restated what gave way")


def _give_way(store: Store, old: Fact, by: Fact, note: str = "") -> None:
    store.set_fact_status(old.tenant, old.id, FactStatus.SUPERSEDED, superseded_by=by.id)
    after = old.model_copy(update={"status": FactStatus.SUPERSEDED})
    store.add_fact_change(
        old.id, "SUPERSEDE", related=by.id, note=note, before=_snapshot(old), after=_snapshot(after)
    )


def _mark_retracted(store: Store, old: Fact, by: Fact, note: str) -> None:
    store.set_fact_status(old.tenant, old.id, FactStatus.RETRACTED, superseded_by=by.id)
    store.add_fact_change(old.id, "SUPERSEDE", related=by.id, note=note, before=_snapshot(old))
    for echo in _restatements(store, old, by):
        _give_way(store, echo, by, note="restated what gave way")


def _restatements(store: Store, old: Fact, by: Fact) -> list[Fact]:
    """The assistant's claims of `old`'s turn that say it again in other words ("Got it:
    Sarah leads architecture" after "Sarah is the Lead Architect"): a restatement is no
    fact of its own, so it goes when what it restated goes, whatever slot the model filed
    it in. A claim there that says something else (names no Sarah, or names the new
    holder) stays."""
    restates = OutdatedStatements([(old, by)])
    return [
        claim
        for claim in store.facts_from(old.tenant, old.stream, old.source)
        if claim.active
        and claim.id not in (old.id, by.id)
        and claim.confidence <= CLAIM_CEILING < old.confidence
        and may_change(claim, Author(by.writer_trust))
        and restates.replacements(claim.text)
    ]


_IS_RE = re.compile(r"\b(is|are)\b")


def _past_form(store: Store, old: Fact, by: Fact) -> Fact:
    past = ExtractedFact(
        text=_IS_RE.sub(lambda m: "was" if m[1] == "is" else "were", old.text, count=1),
        category=old.category,
        subject=old.subject,
        slot=old.slot,
        value=old.value,
        confidence=old.confidence,  # never above what the next partner may say
    )
    writer = Author(by.writer_trust, by.writer_key)
    new = _new_fact(old.tenant, old.stream, past, by.source, old.visibility, writer)
    fact = store.insert_fact(new.model_copy(update={"supersedes": old.id}))
    store.add_fact_change(fact.id, "ADD", related=old.id, note=f"ended: {by.text}")
    return fact


def _new_fact(
    tenant: str,
    stream: str,
    item: ExtractedFact,
    source: SourceRef,
    visibility: Visibility,
    writer: Author,
) -> NewFact:
    return NewFact(
        tenant=tenant,
        stream=stream,
        text=item.text,
        category=item.category,
        subject=item.subject,
        slot=item.slot,
        value=item.value,
        confidence=item.confidence,
        visibility=visibility,
        content_hash=content_hash(item),
        source=source,
        tokens=count_tokens(item.text),
        writer_trust=writer.trust,
        writer_key=writer.key_id,
    )


def _linked_holders(
    store: Store, tenant: str, stream: str, item: ExtractedFact, source: SourceRef
) -> list[Fact]:
    """Facts that hold the same relation under the other key: Raj's role for a title Raj
    now holds, the titles Raj held for Raj's new role, what kin a person was before
    ("Anna's my cousin" after "Anna is your sister"), the one favourite of a kind that a
    favourite named without its kind replaces, and the diet a food eaten again ends (one
    said before `source`, the message the item was read from)."""
    if item.category is FactCategory.RELATIONSHIP:
        return _kin_before(store, tenant, stream, item)
    if item.category is FactCategory.PREFERENCE and item.slot == "favorite":
        # "These days my favourite is Fontaines D.C.": the one favourite named so far.
        kinds = [
            f
            for f in store.facts(tenant, stream)
            if f.subject == item.subject and f.slot.startswith("favorite:")
        ]
        return kinds if len(kinds) == 1 else []
    if item.category is FactCategory.DIET and item.slot == EATS_AGAIN_SLOT:
        # "I eat fish again" ends the diet held, unless one said it was over already, or
        # said it in the same message: "I'm pescatarian now, started eating fish again"
        # names the diet the fish belongs to.
        held = store.facts_in_slot(tenant, stream, item.subject, "diet")
        return [
            f
            for f in held
            if not normalize(f.value).startswith("not ")
            and (f.source.kind, f.source.id) != (source.kind, source.id)
        ]
    if item.category is FactCategory.POSSESSION and keyed_by_a_name(item):
        return keyed_by_the_old(item, store.facts(tenant, stream))  # read only for such a key
    if item.category is not FactCategory.ROLE:
        return []
    if item.slot == HOLDER_SLOT:
        return store.facts_in_slot(tenant, stream, item.value, ROLE_SLOT)
    if item.slot == ROLE_SLOT:
        return store.facts_holding(tenant, stream, HOLDER_SLOT, item.subject)
    return []


def _unnamed_keys(store: Store, tenant: str, stream: str, item: ExtractedFact) -> list[str]:
    """The keys a person's facts were stored under before their name was known: "user's
    daughter" for Nia once the user's daughter is named Nia, and she is the only daughter
    named. Read for corrections ("Nia's birthday is the 3rd, not the 2nd"), which may mean
    a fact said of her before she was named."""
    person = normalize(item.subject)
    kin = [
        f
        for f in store.facts(tenant, stream)
        if f.category is FactCategory.RELATIONSHIP and normalize(f.value) == person
    ]
    keys = []
    for relation in kin:
        kind = relation.slot.split(":", 1)[0]
        if kind in _ONE_OF_A_KIND and relation.slot == kind:
            keys.append(f"{relation.subject}'s {kind}")
        elif kind in _ONE_OF_MANY:
            named = [
                f
                for f in store.facts(tenant, stream)
                if f.subject == relation.subject and f.slot.startswith(f"{kind}:")
            ]
            if len(named) == 1:  # with two daughters named, "user's daughter" is either
                keys.append(f"{relation.subject}'s {kind}")
    return [key for key in keys if key != person]


_ONE_OF_A_KIND = frozenset(
    {"spouse", "partner", "ex-spouse", "ex-partner", "mother", "father", "stepmother", "stepfather"}
)
_ONE_OF_MANY = frozenset(
    {"sister", "brother", "sibling", "son", "daughter", "child", "stepson", "stepdaughter",
     "cousin", "aunt", "uncle", "niece", "nephew", "grandmother", "grandfather", "grandson",
     "granddaughter", "grandchild"}
)  # fmt: skip
"""Kin: a person is one of these to someone, so a new one replaces the old."""


def _kin_before(store: Store, tenant: str, stream: str, item: ExtractedFact) -> list[Fact]:
    kind = item.slot.split(":", 1)[0]
    if kind not in _ONE_OF_A_KIND | _ONE_OF_MANY:
        return []
    slots = [k for k in _ONE_OF_A_KIND if k != kind]
    slots += [f"{k}:{item.value}" for k in _ONE_OF_MANY if k != kind]
    return [
        fact
        for slot in slots
        for fact in store.facts_in_slot(tenant, stream, item.subject, slot)
        if normalize(fact.value) == normalize(item.value)
    ]


def _stronger_holder(
    store: Store, holders: list[Fact], item: ExtractedFact, source: SourceRef, writer: Author
) -> Fact | None:
    """The holder that keeps the slot: by trust, then by event time; by confidence only
    against someone else's word. A person's newer statement replaces their older one
    however it is hedged ("I think I'm pescatarian now" after "I'm vegan")."""
    for holder in holders:
        by_trust = holder_wins(holder, writer)
        if by_trust is not None:  # trust outranks confidence and event time
            if by_trust:
                return holder
            continue
        if holder.confidence > item.confidence and not _same_person(store, holder, item, source):
            return holder
        if holder.source.at and source.at and holder.source.at > source.at:
            return holder
    return None


def _same_person(store: Store, holder: Fact, item: ExtractedFact, source: SourceRef) -> bool:
    """Whether the holder and the newcomer are the same person's own words: both from
    turns by the same speaker, neither only the assistant's claim."""
    if min(holder.confidence, item.confidence) <= CLAIM_CEILING:
        return False
    if holder.source.kind != "turn" or source.kind != "turn":
        return holder.source.kind == source.kind == "manual"
    try:
        before = store.turn(holder.tenant, int(holder.source.id))
        now = store.turn(holder.tenant, int(source.id))
    except (NotFound, ValueError):
        return False  # the turn was erased: whose words they were is not known
    return before.speaker == now.speaker


def _insert_losing(store: Store, new: NewFact, winner: Fact) -> Fact:
    if winner.writer_trust is not new.writer_trust:
        status, note = FactStatus.OUTRANKED, f"held by a writer of trust {winner.writer_trust}"
    elif winner.confidence > new.confidence:
        status, note = FactStatus.OUTRANKED, f"confidence {new.confidence} < {winner.confidence}"
    else:
        status, note = FactStatus.SUPERSEDED, "an event-later fact already holds the slot"
    fact = store.insert_fact(new.model_copy(update={"status": status}))
    if status is FactStatus.SUPERSEDED:
        store.set_fact_status(new.tenant, fact.id, status, superseded_by=winner.id)
    store.add_fact_change(fact.id, "NONE", related=winner.id, note=note, after=_snapshot(fact))
    return store.fact(new.tenant, fact.id)


def _mention(
    store: Store, tenant: str, fact: Fact, item: ExtractedFact, source: SourceRef, note: str
) -> Fact:
    """The fact stated again: counted, and dated by this statement if it is the newest."""
    store.mention(tenant, fact.id, item.confidence, source.at)
    store.add_fact_change(fact.id, "NONE", note=note)
    return store.fact(tenant, fact.id)


def _update(store: Store, tenant: str, target: Fact, item: ExtractedFact, reason: str) -> Fact:
    """The newcomer says the same thing better: the old fact takes its words."""
    store.update_fact(
        tenant, target.id, text=item.text, value=item.value, tokens=count_tokens(item.text)
    )
    store.mention(tenant, target.id, item.confidence)
    after = store.fact(tenant, target.id)
    store.add_fact_change(
        target.id, "UPDATE", note=reason, before=_snapshot(target), after=_snapshot(after)
    )
    return after


def _snapshot(fact: Fact) -> dict[str, object]:
    return fact.model_dump(
        mode="json", include={"text", "value", "status", "confidence", "mention_count"}
    )


def _retract(
    store: Store, tenant: str, stream: str, denied: SlotRef, by: Fact, writer: Author
) -> None:
    for old in store.facts_in_slot(tenant, stream, denied.subject, denied.slot):
        if normalize(old.value) != normalize(denied.value) or old.confidence > by.confidence:
            continue
        if not may_change(old, writer):
            continue
        _mark_retracted(store, old, by, "retracted")


def _end_value(
    store: Store, tenant: str, stream: str, over: SlotRef, by: Fact, writer: Author
) -> None:
    """What `by` says is over gives way to it, if held as surely at most."""
    for old in store.facts_in_slot(tenant, stream, over.subject, over.slot):
        same = normalize(old.value) == normalize(over.value)
        if same and old.confidence <= by.confidence and may_change(old, writer):
            _supersede(store, old, by)


def retract_answered_claims(
    store: Store, tenant: str, stream: str, corrections: Sequence[Fact], answered: SourceRef
) -> None:
    """A correction ("No, Lena is our Head of Data") retracts what the turn it answers
    claimed in the same slot, or of the same role, unless said more firmly; and what only
    the assistant claimed on the same topic ("You're a teacher." "Not anymore, I
    retired."). The user's own neighbouring facts stand: "no, I'm at Shopify" leaves
    "I've been at my company for 4 years" alone.

    Call inside a transaction.
    """
    for claim in store.facts_from(tenant, stream, answered):
        by = next((c for c in corrections if _contradicts(c, claim)), None)
        if by is None or claim.id == by.id:
            continue
        _mark_retracted(store, claim, by, "retracted: corrected")


def retract_denied_values(
    store: Store, tenant: str, stream: str, stated: Sequence[Fact], answered_text: str
) -> None:
    """ "So you're allergic to peanuts?" "Nope, shellfish.": a reply that opens with a
    denial and states a value of a kind held one value to a slot (allergy, medication,
    owns, ...) corrects the value of that kind the answered message names: the subject's
    fact holding it is retracted, wherever it was said. A value of a one-slot kind (home,
    birthday) needs nothing here: the new value supersedes the old in their shared slot.

    Call inside a transaction.
    """
    named = _heads(_words(answered_text))
    for fact in stated:
        kind = fact.slot.split(":", 1)[0]
        if kind == fact.slot:
            continue
        for old in store.facts(tenant, stream):
            if (
                old.id != fact.id
                and old.subject == fact.subject
                and old.slot != fact.slot
                and old.slot.split(":", 1)[0] == kind
                and old.confidence <= fact.confidence
                and (held := _words(old.value))
                and _covers(named, held)
                and may_change(old, Author(fact.writer_trust))
            ):
                _mark_retracted(store, old, fact, "retracted: corrected in reply")


# "My other son", "we also have": a second one named, not the first one renamed.
_ADDING_RE = re.compile(
    r"\b(?:also|too|another|other|as\s+well|both|second|third|younger|older|youngest|eldest"
    r"|oldest)\b",
    re.I,
)


def retract_renamed_claims(
    store: Store,
    tenant: str,
    stream: str,
    stated: Sequence[Fact],
    answered: SourceRef,
    user_text: str,
) -> None:
    """ "Your son is Jack." "My son is called Jake.": a person or pet the user names in
    reply, of the kind the turn before claimed under another name, renames the claim.

    Call inside a transaction."""
    if _ADDING_RE.search(user_text):
        return
    named = [
        f
        for f in stated
        if f.category is FactCategory.RELATIONSHIP
        and ":" in f.slot
        and not f.slot.startswith(f"{KIN_SLOT}:")  # "my son": no name to rename by
    ]
    for claim in store.facts_from(tenant, stream, answered):
        by = next((f for f in named if _renames(f, claim)), None)
        if by is None:
            continue
        _mark_retracted(store, claim, by, "retracted: renamed")


def _renames(stated: Fact, claim: Fact) -> bool:
    return (
        claim.category is FactCategory.RELATIONSHIP
        and claim.subject == stated.subject
        and claim.slot.split(":", 1)[0] == stated.slot.split(":", 1)[0]
        and normalize(claim.value) != normalize(stated.value)
        and claim.confidence < stated.confidence
        and may_change(claim, Author(stated.writer_trust))
    )


CLAIM_CEILING = 0.6
"""The most a fact only the assistant said is worth, in both models: the user's own words,
even hedged, are above it."""
CONFIRMED_CONFIDENCE = 0.9
"""What the assistant said and the user then confirmed: above the pin threshold, below the
user's own words."""

_CONFIRMATION_RE = re.compile(
    r"^\s*(?:yes|yeah|yep|yup|correct|exactly|right|confirmed|indeed|that's\s+(?:right|correct)"
    r"|that\s+is\s+(?:right|correct)|you're\s+right|spot\s+on)\b[\s,.!]*+"
    r"(?!(?:but|although|though|except|however|no|not|only|partly)\b)",
    re.IGNORECASE,
)


def confirms(user_text: str) -> bool:
    """Whether a user turn opens by agreeing with what it answers ("Yes, that's right");
    "Right?" asks instead."""
    first = _first_sentence(user_text)
    return bool(_CONFIRMATION_RE.match(first)) and not first.endswith("?")


def confirm_answered_claims(store: Store, tenant: str, stream: str, answered: SourceRef) -> None:
    """The user agreed with the turn they answer: its claims count as theirs now."""
    for claim in store.facts_from(tenant, stream, answered):
        if claim.confidence < CONFIRMED_CONFIDENCE:
            store.mention(tenant, claim.id, CONFIRMED_CONFIDENCE)
            store.add_fact_change(
                claim.id, "CONFIRM", note="confirmed by the user", before=_snapshot(claim)
            )


# "Not anymore", "That's not true": said of a claim, whatever follows. A plain "No" may
# answer the question the claim came with, so it denies only a turn that asked nothing.
_DENIAL_OF_A_CLAIM_RE = re.compile(
    r"^\s*(?:not\s+any\s*more|no\s+longer|not\s+(?:true|right|correct)|no\s+way"
    r"|(?:god|hell)\s+no|(?:definitely|absolutely|certainly)\s+not"
    r"|that's\s+(?:wrong|not\s+right|not\s+true|outdated|old\s+news|incorrect)|wrong)\b",
    re.IGNORECASE,
)
_PLAIN_NO_RE = re.compile(
    r"^\s*(?:no|nope|nah)\b(?![\s,]+(?:problem|worries|way|thanks|thank)\b)", re.IGNORECASE
)


# "Max is my neighbour's dog", "Max isn't mine": a name the claim gave the user is
# someone else's.
_SOMEONE_ELSES_RE = re.compile(
    r"^\s*(?P<name>(?-i:[A-Z])[\w'-]+)(?:\s+is|'s|\s+was)\s+(?:(?:my|our)\s+[\w-]+(?:'s|s')"
    r"|not\s+(?:mine|ours)|actually\s+(?:my|our)\s+[\w-]+(?:'s|s'))"
    r"|^\s*(?P<other>(?-i:[A-Z])[\w'-]+)\s+(?:isn't|is\s+not|wasn't)\s+(?:mine|ours)",
    re.IGNORECASE,
)


def opens_with_denial(user_text: str) -> bool:
    """Whether a user turn opens with "No" or "Not anymore", which may deny what it answers,
    or gives a name to someone else ("Max is my neighbour's dog")."""
    first = _first_sentence(user_text)
    denial = (
        _PLAIN_NO_RE.match(first)
        or _DENIAL_OF_A_CLAIM_RE.match(first)
        or _SOMEONE_ELSES_RE.match(first)
    )
    return denial is not None and not first.endswith("?")


def denies(user_text: str, answered_text: str) -> bool:
    """Whether a user turn denies what it answers ("Not anymore, sold it"); a plain "No"
    only if the answered turn asked nothing, and a name given to someone else only if
    the answered turn said it."""
    if not opens_with_denial(user_text):
        return False
    first = _first_sentence(user_text)
    if elsewhere := _SOMEONE_ELSES_RE.match(first):
        name = elsewhere["name"] or elsewhere["other"]
        return re.search(rf"\b{re.escape(name)}\b", answered_text) is not None
    return "?" not in answered_text or bool(_DENIAL_OF_A_CLAIM_RE.match(first))


def _first_sentence(text: str) -> str:
    return re.split(r"(?<=[.!?])\s", text.strip(), maxsplit=1)[0]


def retract_denied_claims(store: Store, tenant: str, stream: str, answered: SourceRef) -> None:
    """The user denied the turn they answer and said nothing to put in its place: what
    only the assistant said there stands no more.

    Call inside a transaction.
    """
    for claim in store.facts_from(tenant, stream, answered):
        if claim.active and claim.confidence <= CLAIM_CEILING:
            store.set_fact_status(tenant, claim.id, FactStatus.RETRACTED)
            store.add_fact_change(
                claim.id, "RETRACT", note="denied by the user", before=_snapshot(claim)
            )


def retract_guess(
    store: Store, guess: Fact, stored: Sequence[Fact], instead: ExtractedFact
) -> None:
    """A guess of the assistant's ("So you're allergic to peanuts?") that the user answered
    otherwise ("nope, shellfish") stands no more, whatever the reply's own facts already
    did to it: retracted by the fact said in its place, or by the reply alone when that
    fact was not kept.

    Call inside a transaction, after the reply's facts are stored.
    """
    now = store.fact(guess.tenant, guess.id)
    if not now.active:
        return
    key = (instead.subject, instead.slot, normalize(instead.value))
    by = next((f for f in stored if (f.subject, f.slot, normalize(f.value)) == key), None)
    if by is not None:
        _mark_retracted(store, now, by, "retracted: the user answered otherwise")
        return
    store.set_fact_status(now.tenant, now.id, FactStatus.RETRACTED)
    store.add_fact_change(now.id, "RETRACT", note="answered otherwise", before=_snapshot(now))


def _contradicts(correction: Fact, claim: Fact) -> bool:
    if claim.confidence >= correction.confidence:
        return False
    if not may_change(claim, Author(correction.writer_trust)):
        return False
    if (claim.subject, claim.slot) == (correction.subject, correction.slot):
        return True
    # "Maria leads the data team." "No, that's Priya now.": one role, two keys.
    named = {correction.subject, correction.value}
    same_people = bool({claim.subject, claim.value} & named - {"user", "global"})
    roles = {claim.slot, correction.slot} <= {ROLE_SLOT, HOLDER_SLOT}
    if same_people and roles:
        return True
    # "You're a teacher." "Not anymore, I retired.": the correction answers what only the
    # assistant said on its topic (work), in another slot of the same subject.
    return (
        claim.confidence <= CLAIM_CEILING
        and claim.subject == correction.subject
        and claim.category is correction.category
    )


def _origin(item: ExtractedFact) -> str:
    return "correction" if item.is_correction else ""


def fact_chain(store: Store, tenant: str, fact_id: int) -> list[Fact]:
    """Every version of the fact's slot that `fact_id` is linked to, oldest first."""
    start = store.fact(tenant, fact_id)
    chain = [start]
    seen = {start.id}
    back = start
    while back.supersedes is not None and back.supersedes not in seen:
        back = store.fact(tenant, back.supersedes)
        chain.insert(0, back)
        seen.add(back.id)
    ahead = start
    while ahead.superseded_by is not None and ahead.superseded_by not in seen:
        ahead = store.fact(tenant, ahead.superseded_by)
        chain.append(ahead)
        seen.add(ahead.id)
    return chain


_WORD = re.compile(r"[^\W_]+")
_MIN_PREFIX = 4


_Rule = tuple[tuple[str, ...], tuple[str, ...], Fact, Fact]
"""The words of an old value, those of the value now in force that it lacks, the old fact
and the fact in force."""


class OutdatedStatements:
    """Recognizes text that states a superseded fact as if it were still true.

    A line is outdated when it names the old fact's subject and value but not the value
    that replaced it ("Sarah is the Lead Architect" after "No, Raj is"). The correction
    itself names both, so it stays.
    """

    def __init__(self, superseded: Iterable[tuple[Fact, Fact]]) -> None:
        """From (superseded fact, its successor) pairs, as Store.superseded_facts gives."""
        self._rules: list[_Rule] = []
        self._by_first: dict[str, list[int]] = {}
        """The rules, by position, under the first word of their old value: a text is
        checked against those whose first word it holds, not against all of a long
        stream's hundreds."""
        self._read_from: dict[str, list[tuple[Fact, Fact]]] = {}
        """The superseded facts by the label of the turn or message each was read from."""
        for old, successor in superseded:
            self._read_from.setdefault(old.source.label(), []).append((old, successor))
            claim, current = _claim_words(old.subject, old.value, successor.value)
            if claim:
                self._by_first.setdefault(claim[0], []).append(len(self._rules))
                self._rules.append((claim, current, old, successor))

    def __bool__(self) -> bool:
        return bool(self._rules)

    def replacements(self, text: str) -> list[Fact]:
        """The facts now in force in place of those `text` states; empty if none."""
        return [now for _, now in self.replaced(text)]

    def replaced(self, text: str) -> list[tuple[Fact, Fact]]:
        """The superseded facts `text` states, each with the fact now in force in its place:
        a turn that says several things is outdated only in what it says of these."""
        words = _words(text)
        heads = _heads(words)
        return list(_replacements(self._named(heads), words, heads).values())

    def read_from(self, source: SourceRef) -> list[tuple[Fact, Fact]]:
        """The superseded facts read from `source` (a turn, a message), each with the fact
        now in force: what it stated, though its words may not repeat the fact's ("Target
        for beta is Friday 2 October" stated "The Atlas beta date is 2026-10-02")."""
        return list(self._read_from.get(source.label(), ()))

    def line_replacements(self, text: str) -> list[Fact]:
        """The same, judging each line of `text` on its own: a summary that says "works at
        Stripe" on one line and "moved to Figma" on another still states the old value."""
        named = self._named(_heads(_words(text)))
        found: dict[int, tuple[Fact, Fact]] = {}
        for line in text.splitlines() if named else ():
            words = _words(line)
            found.update(_replacements(named, words, _heads(words)))
        return [now for _, now in found.values()]

    def _named(self, heads: set[str]) -> list[_Rule]:
        """The rules whose old value's words `heads` holds, in their order."""
        positions = sorted({p for head in heads for p in self._by_first.get(head, ())})
        return [rule for p in positions if _covers(heads, (rule := self._rules[p])[0])]


@functools.lru_cache(maxsize=8192)
def _claim_words(
    subject: str, value: str, value_now: str
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words that state an old value, and those of the value in force that they lack.
    Kept: a stream's superseded facts are read again after every write, the same ones."""
    # The user is named as "I" in their own words ("I'm allergic to penicillin").
    said = _words(value if subject == "user" else f"{subject} {value}")
    # "Dana heads product" states "head of product: dana" without its "of".
    claim = tuple(w for w in said if w not in _JOINING) or tuple(said)
    return claim, tuple(w for w in _words(value_now) if w not in claim)


def _replacements(
    rules: list[_Rule], words: list[str], heads: set[str]
) -> dict[int, tuple[Fact, Fact]]:
    """(old fact, fact in force) by the id of the fact in force, for each rule `words` meet."""
    names_user = bool(_USER_WORDS & set(words))
    found = {}
    for claim, current, old, successor in rules:
        if old.subject == "user" and not names_user:
            continue
        if _covers(heads, claim) and not (current and _covers(heads, current)):
            found[successor.id] = (old, successor)
    return found


_USER_WORDS = frozenset({"i", "i'm", "im", "my", "me", "user", "user's"})
_JOINING = frozenset({"a", "an", "the", "of", "for", "and", "to", "in", "on", "at", "with"})
"""Words that join a title or value ("head of product") and that a restatement drops."""


def _words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def _heads(words: list[str]) -> set[str]:
    """The words and their prefixes of _MIN_PREFIX letters or more, to match word stems
    ('architect' in 'architecture') with set lookups."""
    heads = set(words)
    for word in words:
        heads.update(word[:end] for end in range(_MIN_PREFIX, len(word)))
    return heads


def _covers(heads: set[str], needed: Sequence[str]) -> bool:
    # Short needed words must match whole; _heads holds only long prefixes.
    return all(need in heads for need in needed)


def word_overlap(left: str, right: str) -> float:
    """Jaccard overlap of lowercase words: similarity when there are no vectors."""
    a, b = set(_words(left)), set(_words(right))
    return len(a & b) / len(a | b) if a and b else 0.0


_ABOUT_THE_USER = re.compile(r"\b(?:the user|user's|i|i'm|i've|me|my|mine)\b", re.IGNORECASE)


@functools.cache
def _category_slots() -> dict[str, str]:
    import tomllib  # a fact written with a category needs it; a short CLI call does not

    data = resources.files("threefold.layers").joinpath("data", "category_slots.toml")
    return {str(k): str(v) for k, v in tomllib.loads(data.read_text("utf-8")).items()}


def category_slot(category: FactCategory, text: str) -> tuple[str, str] | None:
    """(subject, slot) for a fact whose writer named `category` and whose text the reader
    could not place: the user's slot of that category, when the category holds one value
    at a time (layers/data/category_slots.toml) and the text speaks of the user."""
    slot = _category_slots().get(category.value)
    if slot is None or not _ABOUT_THE_USER.search(text):
        return None
    return "user", slot
