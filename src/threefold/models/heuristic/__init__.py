"""The offline, deterministic MemoryModel: rules instead of a chat model.

Same input, same output; no network, no key. Each task lives in its own module.
"""

from collections.abc import Sequence

from threefold.models.base import (
    DatedSummary,
    ExtractedFact,
    KnownFact,
    MessageInput,
    ReconcileDecision,
    RouteDecision,
    SessionDigest,
    TurnInput,
)
from threefold.models.heuristic import compact, extract, messages, route, summarize

TYPE_CHECKING = False
if TYPE_CHECKING:
    from threefold.settings import ModelSettings

__all__ = ["HeuristicModel"]


class HeuristicModel:
    name = "heuristic"

    def extract_facts(self, turn: TurnInput) -> list[ExtractedFact]:
        return extract.extract_facts(turn)

    def extract_from_messages(self, batch: Sequence[MessageInput]) -> list[list[ExtractedFact]]:
        return messages.extract_from_messages(batch)

    def summarize_session(self, turns: Sequence[TurnInput], target_tokens: int) -> SessionDigest:
        return summarize.summarize_session(turns, target_tokens)

    def merge_summary(
        self, active: DatedSummary | None, new: DatedSummary, open_items: Sequence[str]
    ) -> str:
        return compact.merge_summary(active, new, open_items)

    def compact_summary(self, text: str, known_facts: Sequence[str], target_tokens: int) -> str:
        return compact.compact_summary(text, known_facts, target_tokens)

    def roll_up(self, summaries: Sequence[DatedSummary], target_tokens: int) -> str:
        return compact.roll_up(summaries, target_tokens)

    def route(self, text: str, streams: Sequence[str]) -> RouteDecision:
        return route.route(text, streams)

    def reconcile(self, new: ExtractedFact, similar: Sequence[KnownFact]) -> ReconcileDecision:
        return route.reconcile(new, similar)


def build(settings: "ModelSettings") -> HeuristicModel:
    """The ``heuristic`` entry point: rules only, no options."""
    return HeuristicModel()
