"""The MemoryModel protocol: one method per thinking task, with typed inputs and outputs.

The engine calls tasks, never prompts. The heuristic model answers them with rules, the
llm model with a chat model; both return the same types.
"""

from collections.abc import Sequence
from datetime import datetime
from enum import StrEnum
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from threefold.domain import FactCategory


class _Task(BaseModel):
    model_config = ConfigDict(frozen=True)


KIN_SLOT = "has"
"""The slot prefix of a partner, child or pet said without a name ("has:child" = "kids",
models/reader/kin.py): its value names no one."""


class PreviousTurn(_Task):
    """The message a turn answers, shown read-only: it gives a terse reply its meaning
    ("42" after "How old are you?"). Facts are never read from it."""

    speaker: str
    """Who said it: a name, or "assistant" / "user" where the side has none."""
    text: str
    opening: str = ""
    """The side of that turn `text` replies to ("help me pick a gift for my dad" before
    "How old is he?"), its last 400 characters (layers.summaries.OPENING_CHARS): what
    "he", "it" or "the 13th" refers to is often said there. Empty when the turn had one
    side."""
    opening_speaker: str = ""
    """Who said `opening`: a name, or "user"."""


class TurnInput(_Task):
    """A turn as the model sees it: the texts, its own event time and its stream."""

    stream: str
    user: str
    assistant: str = ""
    at: datetime
    page_context: str | None = None
    speaker: str | None = None
    """Who wrote the user side ("Caroline"); None: the user. First-person facts are theirs."""
    assistant_speaker: str | None = None
    """The assistant side's name, where it has one (a second person in a group chat)."""
    referent: str | None = None
    """Whom "he" or "she" opening a user sentence means, named by the turn before ("my
    sister" after "Your sister lives in Glasgow."); None: nobody known. A hint only: the
    turn itself may name whom it means."""
    people: tuple[str, ...] = ()
    """The people the memory knows that the user side names, the writer left out
    (lowercase keys: "marco", "lena ortiz"): "Marco bought a car" is Marco's news."""
    previous: PreviousTurn | None = None
    """The message this turn answers (the stream's turn before, its last side that said
    something); None at a stream's start or when that turn was erased."""
    repair: bool = False
    """The turn names only what changed ("Lila, not Lily"): the engine's repair layer
    (layers.repairs) edits the fact it names, so a reader may leave the turn to it."""

    @property
    def writer(self) -> str:
        """Whose the turn's first-person facts are, as a subject key: "user", or the
        speaker's name lowercase and single-spaced."""
        return " ".join((self.speaker or "").split()).lower() or "user"


class MessageInput(_Task):
    """A team message (Slack) as the model sees it: who wrote it, where and when."""

    author: str
    text: str
    at: datetime
    channel: str = ""
    replying_to: str = ""
    """The words of the message this one answers in its thread, when known: what "I can
    take it" takes."""


EATS_AGAIN_SLOT = "eats again"
"""The slot of a food eaten again ("I eat fish again"), which ends the diet held."""


class Standing(StrEnum):
    """How surely a candidate fact was read, and so where it may be stored."""

    FACT = "fact"
    """Sure enough to store on its own."""
    UPDATE = "update"
    """Read less surely than its kind needs on its own: stored only where the stream
    already holds its subject's slot with another value (a new value in an established
    slot is what an update looks like), or holds the value it says is over."""
    HINT = "hint"
    """Read too unsurely even for that: stored nowhere, but a held fact of its slot with
    another value (or the value it says is over) is marked possibly outdated by its turn."""
    BESIDE_REPAIR = "beside_repair"
    """Read in a turn that repairs what was said before ("Lila, not Lily", "44" after "How
    old are you?"): stored as a fact where the engine's repair layer, which knows the value
    held, edits nothing of its person's kind of fact, nor its value."""


class SlotRef(_Task):
    subject: str
    slot: str
    value: str


class ExtractedFact(_Task):
    """A candidate fact. (subject, slot) is the supersession key; both are lowercase."""

    text: str = Field(min_length=1)
    category: FactCategory
    subject: str = Field(min_length=1)
    slot: str = Field(min_length=1)
    value: str = Field(min_length=1)
    confidence: float = Field(ge=0.0, le=1.0)
    is_correction: bool = False
    retracts: tuple[SlotRef, ...] = ()
    """Statements this fact denies ("Raj is not the PM"), whatever their slot."""
    ends: tuple[SlotRef, ...] = ()
    """Statements this fact says are over ("I used to live in Leeds" ends "lives in
    Leeds"): they give way to it and stay in its history, unlike a denial."""
    standing: Standing = Standing.FACT
    """Whether it is stored as it is, or only where it changes a held value (see Standing)."""


class SessionDigest(_Task):
    """A summary of some turns, as the model wrote it."""

    text: str
    open_items: tuple[str, ...] = ()
    """Concerns, blockers and pending actions, which compaction must keep."""
    intent: str = ""
    """What the session was for, in the words of its first real request."""
    key_facts: tuple[str, ...] = ()
    decisions: tuple[str, ...] = ()
    open_questions: tuple[str, ...] = ()
    """Questions asked and not answered later in the session: the data still missing."""
    written_by: str = ""
    """The model that wrote it, when not the one asked: a fallback's name."""


class Period(_Task):
    start: datetime
    end: datetime


class DatedSummary(_Task):
    """A summary with the period it covers, as input to merging and roll-ups."""

    text: str
    period: Period


class RouteDecision(_Task):
    stream: str
    confidence: float = Field(ge=0.0, le=1.0)
    reason: str = ""


class ReconcileAction(StrEnum):
    ADD = "ADD"
    UPDATE = "UPDATE"
    SUPERSEDE = "SUPERSEDE"
    NONE = "NONE"


class ReconcileDecision(_Task):
    action: ReconcileAction
    target_id: int | None = None
    """The existing fact that UPDATE or SUPERSEDE applies to."""
    reason: str = ""


class KnownFact(_Task):
    """An existing fact offered to reconcile()."""

    id: int
    text: str
    subject: str
    slot: str
    value: str
    confidence: float


@runtime_checkable
class MemoryModel(Protocol):
    name: str

    def extract_facts(self, turn: TurnInput) -> list[ExtractedFact]:
        """Facts stated in one turn. The user's own words rank above the assistant's."""
        ...

    def extract_from_messages(self, batch: Sequence[MessageInput]) -> list[list[ExtractedFact]]:
        """Facts and observations in each of a batch of team messages, one list per message
        in order. Confidence is the model's certainty; the caller scales it by source."""
        ...

    def summarize_session(self, turns: Sequence[TurnInput], target_tokens: int) -> SessionDigest:
        """A summary of consecutive turns of one stream, in about `target_tokens`."""
        ...

    def merge_summary(
        self, active: DatedSummary | None, new: DatedSummary, open_items: Sequence[str]
    ) -> str:
        """The stream's active summary with `new` folded in, oldest period first."""
        ...

    def compact_summary(self, text: str, known_facts: Sequence[str], target_tokens: int) -> str:
        """`text` cut to about `target_tokens`: squeeze older periods first, keep open
        items, and drop what `known_facts` already say."""
        ...

    def roll_up(self, summaries: Sequence[DatedSummary], target_tokens: int) -> str:
        """One summary for a week or month, from the session summaries inside it."""
        ...

    def route(self, text: str, streams: Sequence[str]) -> RouteDecision:
        """The stream a message belongs to, among `streams` (or 'global')."""
        ...

    def reconcile(self, new: ExtractedFact, similar: Sequence[KnownFact]) -> ReconcileDecision:
        """What to do with a new fact given similar existing ones."""
        ...


@runtime_checkable
class TurnBatchReader(Protocol):
    """A model that reads several turns in one go, which costs less than one call per
    turn (the llm model sends one request). Optional: the engine uses it only where turns
    are waiting together, and reads turn by turn with any model that lacks it."""

    def extract_turns(self, turns: Sequence[TurnInput]) -> list[list[ExtractedFact]]:
        """Facts of consecutive turns of one stream, oldest first: one list per turn, in
        order. Each turn's facts are those `extract_facts` would give it, except that a
        turn may be read with the turns before it in the batch."""
        ...


def offline_model(model: MemoryModel) -> MemoryModel:
    """The model that reads without a request: `model` itself, or the offline model a
    chat model falls back on. What the engine reads only to check a reply (the
    assistant's guesses, layers/proposals.py) costs no request this way."""
    fallback = getattr(model, "fallback", None)
    return fallback if fallback is not None else model


def request_counts(model: object) -> dict[str, int]:
    """What a chat model cost in this process, summed over its tasks: calls, requests
    sent, answers that fell back to the heuristic model, and batches read again turn by
    turn. Empty for models that keep no such counts (the heuristic and reader models)."""
    stats = getattr(model, "stats_dict", None)
    if not callable(stats):
        return {}
    tasks = stats().values()
    keys = ("calls", "requests", "fallbacks", "split")
    return {key: sum(t.get(key, 0) for t in tasks) for key in keys}
