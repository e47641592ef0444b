"""The offline, deterministic MemoryModel: rules instead of a chat model.

Same input, same output; no network, no key. Each task lives in its own module, imported
when the task first runs: compiling the rules takes longer than a command that only reads.
With the ``local`` extra, facts are read by the trained reader (threefold.models.reader) as
well, which adds what the rules miss; see :func:`build` for the ``reader`` option.
"""

import logging
from collections.abc import Callable, Sequence

from threefold.errors import SettingsError
from threefold.extras import has_extra, require_extra
from threefold.models.base import (
    DatedSummary,
    ExtractedFact,
    KnownFact,
    MessageInput,
    ReconcileDecision,
    RouteDecision,
    SessionDigest,
    Standing,
    TurnInput,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from threefold.models.reader import TrainedReader
    from threefold.settings import ModelSettings

__all__ = ["READERS", "HeuristicModel"]

READERS = ("auto", "rules", "trained", "tuned")
"""auto (the default): the fine-tuned reader beside the rules when the ``local`` extra is
installed, else the rules alone; rules: the rules alone; trained: the reader of heads over
the frozen encoder beside the rules, or an error if it cannot load; tuned: MiniLM's upper
layers fine-tuned with the heads (``reader_top.onnx``) beside the rules, or an error."""

DEFAULT_READER = "auto"
"""A false fact is pinned into every prompt, a missed one only leaves a gap, so the trained
reader became the default only once, on the frozen blind sets (benchmarks/frozen_sets.py),
its facts beside the rules' were at least as precise as the rules' alone and it stored
nothing where nothing was said as often (>= 0.95). Session 22's reader (layers 3-6 fine-tuned
on 12,500 hand-written lines), calibrated for 0.95 right per label on development text, over
the twelve sets: capture 0.28 -> 0.38, updates 3 -> 6 of 54, corrections 2 -> 2 of 46,
precision 0.738 -> 0.76, store-nothing 0.972 -> 0.96. (At 0.9 per label: capture 0.45 but
precision 0.715 and store-nothing 0.944.)"""

log = logging.getLogger(__name__)


class HeuristicModel:
    """`reader` is a trained reader (threefold.models.reader.TrainedReader) whose facts
    join the rules', or a function that makes one on the first turn read; None: the rules
    alone. `required`: a reader that fails to load is an error, not a fallback to the
    rules."""

    name = "heuristic"

    def __init__(
        self,
        reader: "TrainedReader | Callable[[], TrainedReader] | None" = None,
        *,
        required: bool = False,
        policy: str | None = None,
        reader_name: str = "trained",
    ) -> None:
        made = reader is None or hasattr(reader, "extract_facts")
        self.reader_name = reader_name
        """Which reader `reader` is (one of READERS but auto), as `fact_reader` says it."""
        self._reader: TrainedReader | None = reader if made else None  # type: ignore[assignment]
        self._make_reader = None if made else reader
        """How to make the reader on the first turn it reads: numpy and the encoder load
        then, not with a command that reads no turn."""
        self.required = required
        self.policy = policy
        """How the reader's facts join the rules' (see blend.POLICIES); None: the one the
        reader's manifest records, chosen on development text."""

    @property
    def reader(self) -> "TrainedReader | None":
        if self._make_reader is not None:
            self._reader, self._make_reader = self._make_reader(), None  # type: ignore[operator]
        return self._reader

    @reader.setter
    def reader(self, reader: "TrainedReader | None") -> None:
        self._reader = reader

    @property
    def fact_reader(self) -> str:
        """Who reads facts out of turns: "rules" alone, or the name of the reader beside
        them ("tuned", "trained"). Said without loading the reader; one that fails to load
        later is logged and leaves the rules reading alone."""
        if self._reader is None and self._make_reader is None:
            return "rules"
        return self.reader_name

    def extract_facts(self, turn: TurnInput) -> list[ExtractedFact]:
        from threefold.models.heuristic.family_names import as_relatives

        facts = as_relatives(self._read_and_blend(turn), turn)
        # "For the newbies, I'm Bev": the speaker's own name, which the chat already says
        # (the trained reader refuses a value that is its own subject in checks.refusal;
        # this holds for the rules' readings too)
        return [f for f in facts if not (f.slot == "name" and f.value.lower() == f.subject)]

    def _read_and_blend(self, turn: TurnInput) -> list[ExtractedFact]:
        """The rules' facts of `turn` and, where it runs, the trained reader's beside them;
        neither reads what the turn holds that is no news of real people (not_news.py)."""
        from threefold.models.heuristic import extract
        from threefold.models.heuristic.blend import blend
        from threefold.models.heuristic.not_news import as_news

        turn = as_news(turn)
        rules = extract.extract_facts(turn)
        if self.reader is None:
            return rules
        from threefold.embed.base import EmbeddingError
        from threefold.models.heuristic.ending import all_settled
        from threefold.models.reader.heads import ReaderModelError

        try:
            read = all_settled(self.reader.extract_facts(turn))
        except (ReaderModelError, EmbeddingError) as exc:
            if self.required:
                raise
            log.warning("the trained reader cannot run, the rules read alone: %s", exc)
            self.reader = None
            return rules
        if turn.repair:  # the repair layer edits what a repair names, more surely
            read = [beside_repair(f) for f in read]
        policy = self.policy or str(self.reader.manifest.get("blend", "union"))
        return blend(rules, read, policy)

    def extract_from_messages(self, batch: Sequence[MessageInput]) -> list[list[ExtractedFact]]:
        from threefold.models.heuristic import messages

        return messages.extract_from_messages(batch)

    def summarize_session(self, turns: Sequence[TurnInput], target_tokens: int) -> SessionDigest:
        from threefold.models.heuristic import summarize

        return summarize.summarize_session(turns, target_tokens)

    def merge_summary(
        self, active: DatedSummary | None, new: DatedSummary, open_items: Sequence[str]
    ) -> str:
        from threefold.models.heuristic import compact

        return compact.merge_summary(active, new, open_items)

    def compact_summary(self, text: str, known_facts: Sequence[str], target_tokens: int) -> str:
        from threefold.models.heuristic import compact

        return compact.compact_summary(text, known_facts, target_tokens)

    def roll_up(self, summaries: Sequence[DatedSummary], target_tokens: int) -> str:
        from threefold.models.heuristic import compact

        return compact.roll_up(summaries, target_tokens)

    def route(self, text: str, streams: Sequence[str]) -> RouteDecision:
        from threefold.models.heuristic import route

        return route.route(text, streams)

    def reconcile(self, new: ExtractedFact, similar: Sequence[KnownFact]) -> ReconcileDecision:
        from threefold.models.heuristic import route

        return route.reconcile(new, similar)


def build(settings: "ModelSettings") -> HeuristicModel:
    """The ``heuristic`` entry point. Option ``reader``: one of :data:`READERS`."""
    choice = settings.options.get("reader", DEFAULT_READER)
    if choice not in READERS:
        raise SettingsError(
            f"model option reader must be one of {', '.join(READERS)}, not {choice!r}"
        )
    if choice == "rules" or (choice == "auto" and not has_extra("local")):
        return HeuristicModel()
    if choice in ("trained", "tuned"):
        require_extra("local", f"the {choice} reader", load=False)

    name = "trained" if choice == "trained" else "tuned"  # auto, with the local extra: tuned

    def trained_reader() -> "TrainedReader":
        from threefold.models.reader import FROZEN, TUNED, TrainedReader

        return TrainedReader(manifest=FROZEN if name == "trained" else TUNED)

    required = choice in ("trained", "tuned")
    return HeuristicModel(trained_reader, required=required, reader_name=name)


def beside_repair(fact: ExtractedFact) -> ExtractedFact:
    """A reading of a repair turn, left to the repair layer where it edits the same kind of
    fact (models.base.Standing.BESIDE_REPAIR)."""
    if fact.standing is not Standing.FACT:
        return fact
    return fact.model_copy(update={"standing": Standing.BESIDE_REPAIR})
