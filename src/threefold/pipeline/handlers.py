"""The work that follows a write, as job handlers: extraction, summaries, embeddings."""

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from threefold import entities, tracing
from threefold.context.material import pinned_texts
from threefold.context.staleness import says_change
from threefold.domain import Fact, Trust, Turn
from threefold.embed import Embedder
from threefold.errors import NotFound, StoreError, ThreefoldError
from threefold.layers import summaries
from threefold.layers.dated_plans import (
    day_out_of_place,
    is_plan,
    kept_dates,
    moved,
    says_moved,
    with_dates,
)
from threefold.layers.facts import (
    confirm_answered_claims,
    confirms,
    denies,
    held_changes,
    named_as_replaced,
    normalize,
    opens_with_denial,
    reconcile,
    record_fact,
    retract_answered_claims,
    retract_denied_claims,
    retract_denied_values,
    retract_guess,
    retract_renamed_claims,
    word_overlap,
)
from threefold.layers.one_turn import as_read
from threefold.layers.people import under_known_names
from threefold.layers.proposals import PROPOSED, answered_guesses, as_claim, proposed
from threefold.layers.realign import (
    RECENT_TURNS,
    claims_open_to_repair,
    realigned,
    speaks_of_spelling,
)
from threefold.layers.repairs import (
    USER_WORD,
    beside_edits,
    read_repairs,
    repaired,
    replaced_kind,
    replacing_plans,
    says_instead,
    switched_medicines,
)
from threefold.layers.shape import is_misshapen
from threefold.layers.summaries import turn_input
from threefold.layers.swaps import beside_swaps, read_swaps, swapped
from threefold.layers.things import keyed_by_kind_asked, replaced_of_its_kind
from threefold.models.base import (
    ExtractedFact,
    MemoryModel,
    ReconcileDecision,
    SlotRef,
    Standing,
    TurnBatchReader,
    TurnInput,
    offline_model,
)
from threefold.pipeline.jobs import (
    COMPACT,
    DIGEST,
    EMBED,
    EXTRACT,
    FETCH,
    REFRESH,
    ROLLUP,
    SUMMARIZE,
    Apply,
    Handler,
    enqueue_once,
)
from threefold.recall.presets import PRESETS
from threefold.recall.search import Recall
from threefold.settings import Settings
from threefold.sources import digest
from threefold.store.base import ItemFilter, Job, Store
from threefold.trust.writes import Author, capped_fact, may_change

log = logging.getLogger("threefold.pipeline")


class ErasedMeanwhile(ThreefoldError):
    """A privacy erasure touched the stream while a job read it; the job runs again."""


EMBED_BATCH = 512
"""Items an embed job reads: the embedder sorts a call's texts by length and pads each run
to its longest, so a larger call wastes less (an import's backlog of 3,211 messages: 35 s
in calls of 64, 27.5 s in one call, under the same load; benchmarks/embed_drain.py)."""
_RECENT_VECTORS = 4096
"""Vectors of recently embedded texts kept by text, so that a repeated text is not
embedded again."""
_EMBED_CHARS = 2000  # MiniLM reads 256 tokens; more text only costs tokenizing time
_READ_AHEAD_KEPT = 256
"""Turns read ahead in a batch whose jobs have not run yet, kept at most (oldest dropped:
such a turn is then read again on its own)."""

_Seen = tuple[str, str, str, int]
"""What a turn read ahead was, as read: its texts, visibility and the stream's erasure
count. A job whose turn no longer matches reads it again."""


def _seen(turn: Turn, erasures: int) -> _Seen:
    return (turn.user, turn.assistant, turn.visibility.value, erasures)


class Pipeline:
    def __init__(
        self, store: Store, model: MemoryModel, settings: Settings, recall: Recall
    ) -> None:
        self.store, self.model, self.settings, self.recall = store, model, settings, recall
        self._recent_vectors: dict[str, bytes] = {}
        self._read_ahead: OrderedDict[tuple[str, int], tuple[_Seen, list[ExtractedFact]]] = (
            OrderedDict()
        )
        self._read_ahead_lock = threading.Lock()

    @property
    def embedder(self) -> Embedder | None:
        return self.recall.embedder

    def handlers(self) -> dict[str, Handler]:
        return {kind: self._unless_erased(handler) for kind, handler in self._handlers().items()}

    def _handlers(self) -> dict[str, Handler]:
        return {
            EXTRACT: self.extract,
            SUMMARIZE: self.summarize,
            COMPACT: self.compact,
            ROLLUP: self.rollup,
            REFRESH: self.refresh,
            EMBED: self.embed,
            DIGEST: self.digest,
            FETCH: self.fetch,
        }

    def _unless_erased(self, handler: Handler) -> Handler:
        """A job that read its stream before a privacy erasure is not applied: it would
        write back what was erased. It runs again from what is left."""

        def guarded(job: Job) -> Apply:
            seen = self.store.stream_state(job.tenant, job.stream).erasures
            apply = handler(job)

            def checked() -> None:
                if self.store.stream_state(job.tenant, job.stream).erasures != seen:
                    raise ErasedMeanwhile(f"{job.stream} was erased while job {job.id} ran")
                apply()

            return checked

        return guarded

    def pinned_fact_texts(self, tenant: str, stream: str) -> list[str]:
        """What layer 1 already says, which compaction need not repeat."""
        return pinned_texts(self.store, self.settings, tenant, stream, Trust.FULL)

    def extract(self, job: Job) -> Apply:
        try:
            turn = self.store.turn(job.tenant, int(job.payload["turn_id"]))
        except NotFound:
            return lambda: None  # erased before its facts were read
        writer = Author(turn.writer_trust, turn.writer_key)
        answered = self._turn_before(turn)
        told = turn_input(turn, self._referent(turn, answered), answered, self._people_in(turn))
        changes = told.repair or says_change(turn.user)
        read = self._dated(turn, as_read(self._read(turn, told), every_value=changes))
        read = keyed_by_kind_asked(read, self._asked_by_another(told))
        (read,) = self._named_relatives(turn, read)
        extracted = self._instead(turn, [f for f in read if f.standing is Standing.FACT])
        extracted = self._switched(turn, extracted)
        guesses = self._guesses(turn, answered, told.repair)
        edits = [e for e in self._repairs(turn, extracted, guesses) if not day_out_of_place(e)]
        swaps = self._swapped(turn)
        extracted, edits = beside_swaps(extracted, swaps), [*swaps, *beside_swaps(edits, swaps)]
        moves = self._moved_dates(turn, answered, [*extracted, *edits])
        found = [
            capped_fact(item, writer, self.settings.writes)
            for item in [*extracted, *edits, *beside_edits(read, edits), *moves]
            # A piece of a sentence is no fact, whichever reader wrote it (layers/shape.py).
            if not is_misshapen(item)
        ]
        unsure = [
            capped_fact(item, writer, self.settings.writes)
            for item in read
            if item.standing in (Standing.UPDATE, Standing.HINT) and not is_misshapen(item)
        ]
        # again for what repairs and moved dates wrote of a relative
        found, unsure = self._named_relatives(turn, found, unsure)
        verdicts = [self._verdict(job, item) for item in found]

        def apply() -> None:
            for name in (turn.speaker, turn.assistant_speaker):
                if name:
                    entities.remember_speaker(self.store, job.tenant, name)
            updates = self._held_updates(turn, unsure, [*found, *unsure], writer)
            answers = self._record_guesses(turn, answered, answered_guesses(guesses, found), writer)
            corrections, stated = [], []
            # Read inside the transaction, once for the turn: what it may replace.
            held = self.store.facts(turn.tenant, turn.stream) if _keyed(found) else []
            stated_now = _named_replaced(found, unsure, held, turn.user) if changes else found
            stated_now = _things_replaced(stated_now, held, turn.user)
            for item, verdict in [*zip(stated_now, verdicts, strict=True), *updates]:
                fact = record_fact(
                    self.store,
                    job.tenant,
                    job.stream,
                    item,
                    turn.ref(),
                    visibility=turn.visibility,
                    decision=verdict,
                    writer=writer,
                )
                if item.is_correction and fact.active:
                    corrections.append(fact)
                elif fact.active:
                    stated.append(fact)
                if verdict is not None:
                    tracing.event(
                        "reconcile",
                        stream=job.stream,
                        fact=fact.id,
                        action=verdict.action.value,
                        target=verdict.target_id,
                    )
            self._answer_claims(turn, corrections, stated)
            for guess, instead in answers:
                retract_guess(self.store, guess, [*corrections, *stated], instead)
            self.embed_later(job.tenant, job.stream)
            tracing.event(
                "extract",
                stream=job.stream,
                turn=turn.id,
                facts=len(found),
                categories=sorted({f.category.value for f in found}),
            )

        return apply

    def _dated(self, turn: Turn, read: list[ExtractedFact]) -> list[ExtractedFact]:
        """`read`, each plan keeping the date its sentence gives it, or, said again with
        none, the date the stream holds it with (layers/dated_plans.py)."""
        if not self._reads_offline():
            return read
        read = with_dates(read, turn.user, turn.at)
        held = [
            fact
            for item in read
            if is_plan(item)
            for fact in self.store.facts_in_slot(turn.tenant, turn.stream, item.subject, item.slot)
        ]
        return kept_dates(read, held) if held else read

    def _reads_offline(self) -> bool:
        """Whether the facts are read offline (the rules, the trained reader): a chat
        model writes a plan's date, reads a moved one and a correction said in passing
        itself (models/prompts)."""
        return offline_model(self.model) is self.model

    def _moved_dates(
        self, turn: Turn, answered: Turn | None, said: list[ExtractedFact]
    ) -> list[ExtractedFact]:
        """The held plans whose date the turn says moved, with the new date
        (layers/dated_plans.py)."""
        if not (self._reads_offline() and says_moved(turn.user)):
            return []
        held = self.store.facts(turn.tenant, turn.stream)
        before = self.store.facts_from(turn.tenant, turn.stream, answered.ref()) if answered else []
        return moved(turn.user, turn.at, held, before, said, self._speaker(turn))

    def _held_updates(
        self, turn: Turn, unsure: list[ExtractedFact], said: list[ExtractedFact], writer: Author
    ) -> list[tuple[ExtractedFact, None]]:
        """Of the readings too unsure to store on their own, those that change a value the
        stream holds, to be stored (an UPDATE); a HINT stores nothing, but marks the held
        facts it would change as possibly outdated by this turn (context/staleness.py).
        `said`: everything read in the turn, by which a held value said again stands.
        Call inside the transaction: what is held is read there."""
        updates: list[tuple[ExtractedFact, None]] = []
        for item in unsure:
            changed = held_changes(self.store, turn.tenant, turn.stream, item, said)
            if not changed:
                continue
            if item.standing is Standing.UPDATE:
                # a value held under another key of its kind ("owns:car") ends there too
                elsewhere = tuple(
                    SlotRef(subject=h.subject, slot=h.slot, value=h.value)
                    for h in changed
                    if h.slot != item.slot
                )
                update = {"standing": Standing.FACT, "ends": (*item.ends, *elsewhere)}
                updates.append((item.model_copy(update=update), None))
                continue
            for held in changed:
                if may_change(held, writer):
                    self.store.doubt_fact(turn.tenant, held.id, turn.ref())
                    note = f"possibly outdated: {item.text}"
                    self.store.add_fact_change(held.id, "NONE", note=note)
        return updates

    def _read(self, turn: Turn, told: TurnInput) -> list[ExtractedFact]:
        """The facts the model reads in `turn`. With a model that reads turns in batches,
        the turns of the same writer and visibility whose extraction jobs wait right after
        this one are read in the same request, and kept for their own jobs; a turn is
        never held back to wait for others."""
        kept = self._take_read_ahead(turn)
        if kept is not None:
            return kept
        size = self.settings.model.batch_turns
        if size <= 1 or not isinstance(self.model, TurnBatchReader):
            return self.model.extract_facts(told)
        later = self._waiting_after(turn, size - 1)
        if not later:
            return self.model.extract_facts(told)
        batch, before = [told], turn
        for other in later:
            said = turn_input(other, self._referent(other, before), before, self._people_in(other))
            batch.append(said)
            before = other
        # counted before the request: an erasure while it runs makes what it read stale
        erasures = self.store.stream_state(turn.tenant, turn.stream).erasures
        found = self.model.extract_turns(batch)
        with self._read_ahead_lock:
            for other, facts in zip(later, found[1:], strict=True):
                self._read_ahead[(other.tenant, other.id)] = (_seen(other, erasures), facts)
            while len(self._read_ahead) > _READ_AHEAD_KEPT:
                self._read_ahead.popitem(last=False)
        return found[0]

    def _take_read_ahead(self, turn: Turn) -> list[ExtractedFact] | None:
        with self._read_ahead_lock:
            kept = self._read_ahead.pop((turn.tenant, turn.id), None)
        if kept is None:
            return None
        seen, facts = kept
        erasures = self.store.stream_state(turn.tenant, turn.stream).erasures
        return facts if seen == _seen(turn, erasures) else None

    def _waiting_after(self, turn: Turn, most: int) -> list[Turn]:
        """The turns right after `turn` whose extraction jobs wait, while they follow on
        without a gap and share its writer and visibility: a batch must not let one
        writer's words be read as another's, nor a private turn into a shared one."""
        waiting = {
            int(job.payload["turn_id"])
            for job in self.store.pending_jobs(turn.tenant, turn.stream, EXTRACT, most + 16)
            if "turn_id" in job.payload
        }
        run: list[Turn] = []
        after = self.store.turns(
            turn.tenant, turn.stream, after_seq=turn.seq, through_seq=turn.seq + most
        )
        for seq, other in enumerate(after, start=turn.seq + 1):
            same = (other.writer_trust, other.writer_key, other.visibility) == (
                turn.writer_trust,
                turn.writer_key,
                turn.visibility,
            )
            if other.seq != seq or other.id not in waiting or not same:
                break
            run.append(other)
        return run

    def _verdict(self, job: Job, item: ExtractedFact) -> ReconcileDecision | None:
        """How `item` meets the stream's similar facts; None (add it as it is) when that
        cannot be worked out for this item. A verdict only spares a near-repeat: failing
        the job over one would retry it five times and then lose every fact of the turn."""
        try:
            return reconcile(
                self.store, self.model, self.similar_facts, job.tenant, job.stream, item
            )
        except StoreError:
            raise  # the store is unwell: the job retries, and loses nothing
        except Exception:  # noqa: BLE001 - whatever one item's value breaks
            log.warning(
                "reconciling a fact of job %s on %s failed; the fact is added as it is: %r",
                job.id,
                job.stream,
                item.text[:120],
                exc_info=True,
            )
            return None

    def _referent(self, turn: Turn, before: Turn | None) -> str | None:
        """Whom the turn's "he", "she" or "her", or an opening "they", may mean, as the turn
        before named them; None when the turn names someone itself before that pronoun
        ("My 2-year-old was up all night. He has a cold"): the pronoun is theirs."""
        if before is None or not entities.refers_back(turn.user):
            return None
        if entities.names_before_pronoun(turn.user, turn.speaker):
            return None
        claims = self.store.facts_from(turn.tenant, turn.stream, before.ref())
        if named := entities.referent(claims, self._speaker(turn)):
            return named
        # "How's Dev doing?" "He started his own business": a question states no fact
        # one side per line: a reply's first word ("Twelve years is...") is no inner name
        said = f"{before.user}\n{before.assistant}"
        known = self._known_in(turn, entities.capitalised_names(said))
        return entities.named_in(said, turn.speaker, set(known.values()))

    def _people_in(self, turn: Turn) -> tuple[str, ...]:
        """The tenant's people the turn's user side names by a capitalised word or two, or
        by any word where it is all in lowercase, its writer left out (TurnInput.people)."""
        named = entities.capitalised_names(turn.user) or entities.lowercase_names(turn.user)
        return tuple(self._known_in(turn, named))

    def _known_in(self, turn: Turn, named: list[str]) -> dict[str, str]:
        """Those of `named` (keys) that name a person the tenant knows, each with the
        person's key, the turn's writer left out."""
        known = self.store.aliases_among(turn.tenant, named) if named else []
        people = {alias: entities.resolve(self.store, turn.tenant, alias) for alias in known}
        writer = self._speaker(turn)
        return {alias: key for alias, key in people.items() if key != writer}

    def _speaker(self, turn: Turn) -> str:
        return entities.resolve(self.store, turn.tenant, turn.speaker) if turn.speaker else "user"

    def _instead(self, turn: Turn, extracted: list[ExtractedFact]) -> list[ExtractedFact]:
        """A new plan or lesson said to replace the old ("...a half marathon instead",
        "I'm doing Korean instead") retracts it."""
        if not says_instead(turn.user) or all(replaced_kind(f) is None for f in extracted):
            return extracted
        return replacing_plans(extracted, self.store.facts(turn.tenant, turn.stream), turn.user)

    @staticmethod
    def _asked_by_another(told: TurnInput) -> str:
        """The message `told` answers, if someone other than its writer said it."""
        previous = told.previous
        if previous is None or previous.speaker == (told.speaker or "user"):
            return ""
        return previous.text

    def _switched(self, turn: Turn, extracted: list[ExtractedFact]) -> list[ExtractedFact]:
        """A new medicine said as a switch ends the one other its subject takes."""
        if not any(f.slot.startswith("medication:") for f in extracted):
            return extracted
        held = self.store.facts(turn.tenant, turn.stream)
        return switched_medicines(extracted, held, turn.user)

    def _named_relatives(
        self, turn: Turn, *groups: list[ExtractedFact]
    ) -> list[list[ExtractedFact]]:
        """Each of `groups` with a relative's facts under the name the stream knows them by
        (people.py), each filed apart; the stream's facts are read once for all."""
        if not any("'s " in f.subject for group in groups for f in group):
            return list(groups)
        held = self.store.facts(turn.tenant, turn.stream)
        return [under_known_names(group, held) for group in groups]

    def _guesses(self, turn: Turn, answered: Turn | None, repairs: bool) -> list[ExtractedFact]:
        """What the assistant guessed of the user in the message `turn` answers ("So
        you're allergic to peanuts?"), read as the user's words, when `turn` denies or
        `repairs` something ("nope, shellfish"; TurnInput.repair, read once a turn); only
        the owner's replies to the assistant itself (a named assistant side is another
        person in a group chat)."""
        if answered is None or answered.assistant_speaker or turn.writer_trust is not Trust.FULL:
            return []
        if not (repairs or opens_with_denial(turn.user)):
            return []
        said = proposed(answered.assistant)
        if not said:
            return []
        told = TurnInput(stream=turn.stream, user=" ".join(said), at=turn.at, speaker=turn.speaker)
        return [
            f.model_copy(update={"confidence": min(f.confidence, PROPOSED)})
            for f in offline_model(self.model).extract_facts(told)
            if f.standing is Standing.FACT and not f.is_correction and not f.retracts
        ]

    def _record_guesses(
        self,
        turn: Turn,
        answered: Turn | None,
        pairs: list[tuple[ExtractedFact, ExtractedFact]],
        writer: Author,
    ) -> list[tuple[Fact, ExtractedFact]]:
        """Store the guesses the turn answers otherwise, as the assistant's claims of the
        turn it answers, so that what the user says in their place retracts them and the
        history keeps them. A guess of a value already held is left to the held fact."""
        if answered is None:
            return []
        out = []
        for guess, instead in pairs:
            held = self.store.facts_in_slot(turn.tenant, turn.stream, guess.subject, guess.slot)
            if any(normalize(f.value) == normalize(guess.value) for f in held):
                continue
            fact = record_fact(
                self.store,
                turn.tenant,
                turn.stream,
                guess,
                answered.ref(),
                visibility=answered.visibility,
                writer=writer,
            )
            out.append((fact, instead))
        return out

    def _repairs(
        self, turn: Turn, extracted: list[ExtractedFact], guesses: Sequence[ExtractedFact] = ()
    ) -> list[ExtractedFact]:
        """What a repair ("Lila, not Lily"; "No, that's Priya now") changes, when the
        model read no statement of the user's own in the turn. A repair made beside such a
        statement ("Make that 3 - our son was born on Monday!") edits only the slots the
        statement leaves alone; one that names the old value and that the statement says
        itself ("my sister's name is Johanna, not Jana") still retracts the old value."""
        stated = [f for f in extracted if f.confidence >= USER_WORD]
        said = {(f.subject, f.slot) for f in stated}
        restated = {(f.subject, f.slot, f.value.lower()) for f in stated}
        repairs = read_repairs(turn.user)
        found = [r for r in repairs if r.alongside or not said]
        told = {value for *_, value in restated}
        saying = [r for r in repairs if r not in found and r.old and r.new.lower() in told]
        me = self._speaker(turn)
        if found or saying:
            active = self.store.facts(turn.tenant, turn.stream)  # newest first
            answered = self._turn_before(turn)
            claims = (
                claims_open_to_repair(
                    self.store.facts_from(turn.tenant, turn.stream, answered.ref()),
                    answered.assistant,
                    turn.user,
                )
                if answered
                else []
            )
            # what the assistant only guessed comes after anything held or claimed
            guessed = [as_claim(g, turn, answered) for g in guesses] if answered else []
            active, claims = [*active, *guessed], [*claims, *guessed]
            edits = repaired(found, active, claims, me, turn.at)
            same = repaired(saying, active, claims, me, turn.at)
        elif not said:
            edits, same = self._realigned(turn), []
        else:
            return []
        kept = [e for e in edits if (e.subject, e.slot) not in said]
        kept += [e for e in same if (e.subject, e.slot, e.value) in restated]
        return [e for e in kept if not self._own_word(turn, e.subject, e.slot, me)]

    def _swapped(self, turn: Turn) -> list[ExtractedFact]:
        """The corrections said in passing ("it's amoxicillin not penicillin, is that a
        big difference?"), where the value after "not" is held (layers/swaps.py). Anchored
        on the held value, they come before what the reader and the repairs read of the
        same words (see `beside_swaps`)."""
        swaps = read_swaps(turn.user) if self._reads_offline() else []
        if not swaps:
            return []  # a chat model reads a correction said in passing itself
        me = self._speaker(turn)
        return [
            edit
            for edit in swapped(swaps, self.store.facts(turn.tenant, turn.stream), me)
            if not self._own_word(turn, edit.subject, edit.slot, me)
        ]

    def _realigned(self, turn: Turn) -> list[ExtractedFact]:
        """A value just said, said again spelt, dated or numbered otherwise ("*Pika",
        "wait no 14 march"), where the turn read as no statement and no repair."""
        before = self.store.turns(
            turn.tenant,
            turn.stream,
            after_seq=turn.seq - 1 - RECENT_TURNS,
            through_seq=turn.seq - 1,
        )
        stated = [
            (said.speaker, fact)
            for said in reversed(before)
            for fact in self.store.facts_from(turn.tenant, turn.stream, said.ref())
        ]
        recent = [fact for _, fact in stated]
        own = [fact for speaker, fact in stated if speaker == turn.speaker]
        # every name held, newest first; listed only where the turn speaks of spelling
        held = self.store.facts(turn.tenant, turn.stream) if speaks_of_spelling(turn.user) else []
        answering = bool(before) and "?" in before[-1].assistant
        edit = realigned(turn.user, recent, held, answering=answering, own=own)
        return [edit] if edit is not None else []

    def _own_word(self, turn: Turn, subject: str, slot: str, me: str) -> bool:
        """Whether `subject`'s `slot` holds what they said of themselves, and `me` is
        someone else: in a group chat Jo's "nah, York these days" after Sam's "I live in
        Leeds now" is no repair of Sam's home. People are the authority on themselves; a
        claim someone made of another stays open to correction."""
        if subject == me:
            return False
        for held in self.store.facts_in_slot(turn.tenant, turn.stream, subject, slot):
            if held.source.kind != "turn" or not held.source.id.isdigit():
                continue
            try:
                said = self.store.turn(turn.tenant, int(held.source.id))
            except NotFound:
                continue
            if said.speaker and entities.resolve(self.store, turn.tenant, said.speaker) == subject:
                return True
        return False

    def _answer_claims(self, turn: Turn, corrections: list[Fact], stated: list[Fact]) -> None:
        """A user turn that corrects, renames, denies or confirms the turn before decides
        its claims; only the owner's turns do (a lower-trust writer's "yes" confirms nothing)."""
        owner = turn.writer_trust is Trust.FULL
        confirmed = owner and confirms(turn.user)
        denial = owner and not corrections and opens_with_denial(turn.user)
        if not (corrections or confirmed or stated or denial):
            return
        answered = self._turn_before(turn)
        if answered is None:
            return
        if denial and denies(turn.user, answered.assistant):
            retract_denied_claims(self.store, turn.tenant, turn.stream, answered.ref())
        if stated:
            retract_renamed_claims(
                self.store, turn.tenant, turn.stream, stated, answered.ref(), turn.user
            )
        if owner and opens_with_denial(turn.user):
            retract_denied_values(
                self.store, turn.tenant, turn.stream, [*corrections, *stated], answered.assistant
            )
        if corrections:
            retract_answered_claims(
                self.store, turn.tenant, turn.stream, corrections, answered.ref()
            )
        elif confirmed:
            confirm_answered_claims(self.store, turn.tenant, turn.stream, answered.ref())

    def _turn_before(self, turn: Turn) -> Turn | None:
        before = self.store.turns(
            turn.tenant, turn.stream, after_seq=turn.seq - 2, through_seq=turn.seq - 1
        )
        return before[0] if before else None

    def summarize(self, job: Job) -> Apply:
        through = int(job.payload["through"])
        return self._then_embed(
            job,
            summaries.summarize_chunk(
                self.store, self.model, self.settings, job.tenant, job.stream, through
            ),
        )

    def compact(self, job: Job) -> Apply:
        known = self.pinned_fact_texts(job.tenant, job.stream)
        before = self.store.active_summary(job.tenant, job.stream)
        write = summaries.compact(
            self.store, self.model, self.settings, job.tenant, job.stream, known
        )

        def apply() -> None:
            write()
            after = self.store.active_summary(job.tenant, job.stream)
            if before is not None and after is not None and after.id != before.id:
                tracing.event(
                    "compaction",
                    stream=job.stream,
                    tokens_before=before.tokens,
                    tokens_after=after.tokens,
                    generation=after.generation,
                )

        return self._then_embed(job, apply)

    def rollup(self, job: Job) -> Apply:
        return self._then_embed(
            job, summaries.roll_up(self.store, self.model, self.settings, job.tenant, job.stream)
        )

    def refresh(self, job: Job) -> Apply:
        rolled = summaries.roll_up(
            self.store, self.model, self.settings, job.tenant, job.stream, everything=True
        )
        with self.store.transaction():
            rolled()
        known = self.pinned_fact_texts(job.tenant, job.stream)
        return self._then_embed(
            job,
            summaries.rebuild(self.store, self.model, self.settings, job.tenant, job.stream, known),
        )

    def digest(self, job: Job) -> Apply:
        """Facts, observations and a Slack summary for a batch of the stream's messages."""
        return self._then_embed(
            job, digest.digest(self.store, self.model, self.settings, job.tenant, job.stream)
        )

    def fetch(self, job: Job) -> Apply:
        """A linked page, when fetching is switched on for its host."""
        return self._then_embed(
            job,
            digest.fetch(
                self.store,
                self.model,
                self.settings,
                job.tenant,
                job.stream,
                str(job.payload["url"]),
                int(job.payload["record_id"]),
            ),
        )

    def embed(self, job: Job) -> Apply:
        """Vectors for one batch of the stream's items that have none; more follow."""
        # The batches written before this one are committed: the index takes them now.
        self.recall.index.refresh(job.tenant, job.stream)
        rows = self._embed_next(job.tenant, job.stream)

        def apply() -> None:
            self._store_vectors(job.tenant, job.stream, rows)
            if len(rows) == EMBED_BATCH:
                self.store.enqueue(job.tenant, job.stream, EMBED, {})

        return apply

    def embed_batch(self, tenant: str, stream: str) -> int:
        """Embed and store one batch now; returns its size (0: nothing left)."""
        rows = self._embed_next(tenant, stream)
        with self.store.transaction():
            self._store_vectors(tenant, stream, rows)
        return len(rows)

    def _embed_next(self, tenant: str, stream: str) -> list[tuple[str, int, bytes, int]]:
        embedder = self.embedder
        if embedder is None:
            return []
        batch = self.store.unembedded(tenant, stream, EMBED_BATCH)
        if not batch:
            return []
        # Identical texts (a bot's repeated message, a summary that says it again, a
        # message shown in two streams) are embedded once, across batches too.
        texts = [text[:_EMBED_CHARS] for _, _, text in batch]
        known = self._recent_vectors  # shared by worker threads: read once, then replaced
        blobs = {t: blob for t in dict.fromkeys(texts) if (blob := known.get(t)) is not None}
        distinct = [t for t in dict.fromkeys(texts) if t not in blobs]
        vectors = embedder.embed(distinct) if distinct else np.empty((0, 0), dtype=np.float32)
        fresh = {
            t: np.asarray(v, dtype=np.float32).tobytes()
            for t, v in zip(distinct, vectors, strict=True)
        }
        blobs.update(fresh)
        self._recent_vectors = (known if len(known) + len(fresh) <= _RECENT_VECTORS else {}) | fresh
        return [
            (kind, item_id, blobs[text], embedder.dim)
            for (kind, item_id, _), text in zip(batch, texts, strict=True)
        ]

    def _store_vectors(
        self, tenant: str, stream: str, rows: list[tuple[str, int, bytes, int]]
    ) -> None:
        if rows and self.embedder is not None:
            self.store.put_vectors(tenant, stream, self.embedder.name, rows)

    def embed_later(self, tenant: str, stream: str) -> None:
        if self.embedder is not None:
            enqueue_once(self.store, tenant, stream, EMBED)

    def similar_facts(self, tenant: str, stream: str, item: ExtractedFact) -> Sequence[Fact]:
        """Active facts of the stream close to `item`: by vectors, or by words without them."""
        where = ItemFilter(tenant=tenant, streams=(stream,))
        hits = self.recall.search(item.text, where, PRESETS["facts_only"], limit=5)
        threshold = self.settings.reconcile_similarity
        close = [
            h
            for h in hits
            if h.signals.get("similarity", 0.0) >= threshold
            or ("similarity" not in h.signals and word_overlap(item.text, h.text) >= 0.6)
        ]
        return [self.store.fact(tenant, h.id) for h in close]

    def _then_embed(self, job: Job, apply: Apply) -> Apply:
        def both() -> None:
            apply()
            self.embed_later(job.tenant, job.stream)

        return both


def _keyed(found: list[ExtractedFact]) -> bool:
    """Whether any of `found` is of a kind held several at a time, keyed by value or kind
    ("owns:car", "medication:metformin"): only those end what the turn names as replaced."""
    return any(":" in item.slot for item in found)


def _named_replaced(
    found: list[ExtractedFact], unsure: list[ExtractedFact], held: list[Fact], text: str
) -> list[ExtractedFact]:
    """`found`, each fact also ending the held values of its kind the turn (`text`) names as
    replaced (facts.named_as_replaced)."""
    said = [*found, *unsure]
    return [_ending_also(item, named_as_replaced(item, text, held, said)) for item in found]


def _things_replaced(
    found: list[ExtractedFact], held: list[Fact], text: str
) -> list[ExtractedFact]:
    """`found`, each new thing also ending the one of its kind held under another key
    (things.replaced_of_its_kind)."""
    return [_ending_also(item, replaced_of_its_kind(item, held, text)) for item in found]


def _ending_also(item: ExtractedFact, ends: Sequence[SlotRef]) -> ExtractedFact:
    return item.model_copy(update={"ends": (*item.ends, *ends)}) if ends else item
