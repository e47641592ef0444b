"""A MemoryModel whose answers the test scripts, for driving the pipeline precisely."""

from collections.abc import Callable, Sequence

from threefold.models.base import (
    DatedSummary,
    ExtractedFact,
    KnownFact,
    MessageInput,
    ReconcileAction,
    ReconcileDecision,
    RouteDecision,
    SessionDigest,
    TurnInput,
)


class ScriptedModel:
    """Facts come from `facts_for(turn)`; summaries join the user texts; any task can be
    made to raise by naming it in `fail` (a countdown: fail that many more times)."""

    name = "scripted"

    def __init__(self, facts_for: Callable[[TurnInput], list[ExtractedFact]] | None = None) -> None:
        self.facts_for = facts_for or (lambda turn: [])
        self.fail: dict[str, int] = {}
        self.calls: dict[str, int] = {}

    def _enter(self, task: str) -> None:
        self.calls[task] = self.calls.get(task, 0) + 1
        if self.fail.get(task, 0) > 0:
            self.fail[task] -= 1
            raise RuntimeError(f"scripted failure in {task}")

    def extract_facts(self, turn: TurnInput) -> list[ExtractedFact]:
        self._enter("extract_facts")
        return self.facts_for(turn)

    def extract_from_messages(self, messages: Sequence[MessageInput]) -> list[list[ExtractedFact]]:
        """Each message is read as a turn its author said, through `facts_for`."""
        self._enter("extract_from_messages")
        return [
            self.facts_for(TurnInput(stream="", user=m.text, at=m.at, page_context=m.channel))
            for m in messages
        ]

    def summarize_session(self, turns: Sequence[TurnInput], target_tokens: int) -> SessionDigest:
        self._enter("summarize_session")
        return SessionDigest(text="\n".join(f"- {t.user}" for t in turns if t.user))

    def merge_summary(
        self, active: DatedSummary | None, new: DatedSummary, open_items: Sequence[str]
    ) -> str:
        self._enter("merge_summary")
        block = f"### {new.period.start:%Y-%m-%d}\n{new.text}"
        return f"{active.text}\n{block}" if active else block

    def compact_summary(self, text: str, known_facts: Sequence[str], target_tokens: int) -> str:
        self._enter("compact_summary")
        lines = text.splitlines()
        return "\n".join(lines[len(lines) // 2 :])

    def roll_up(self, summaries: Sequence[DatedSummary], target_tokens: int) -> str:
        self._enter("roll_up")
        return " / ".join(s.text.splitlines()[0] for s in summaries if s.text)

    def route(self, text: str, streams: Sequence[str]) -> RouteDecision:
        self._enter("route")
        return RouteDecision(stream="global", confidence=0.1)

    def reconcile(self, new: ExtractedFact, similar: Sequence[KnownFact]) -> ReconcileDecision:
        self._enter("reconcile")
        return ReconcileDecision(action=ReconcileAction.ADD)
