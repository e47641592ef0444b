"""LoCoMo data and the one scorer every recall method is measured with.

LoCoMo (Maharana et al., 2024, snap-research/LoCoMo): long two-person conversations in
dated sessions, with questions that name the dialogue lines holding their answer.
The data is never copied into this repository; callers pass a path to the JSON file.
"""

import calendar
import json
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

from threefold.context.links import compact

CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop"}
# Category 5 (adversarial) asks about things the conversation never says: no answer to find.
SCORED_CATEGORIES = frozenset(CATEGORIES)

_SESSION_DATE = "%I:%M %p on %d %B, %Y"  # "1:56 pm on 8 May, 2023"
# Evidence ids come as "D8:6", sometimes "D8:6; D9:17" in one string, once "D:11:26".
_EVIDENCE_ID = re.compile(r"D:?(\d+):(\d+)")
_WORD = re.compile(r"[a-z0-9]+")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_MONTHS = tuple(name.lower() for name in calendar.month_name[1:])  # "january", ...
# Words too common to tell whether an answer is there; "s" is what "Caroline's" leaves.
# The formatter leaves the list as a paragraph (fmt: off): one word per line reads worse.
# fmt: off
_STOPWORDS = frozenset({
    "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "for", "with", "by",
    "from", "as", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this",
    "that", "these", "those", "he", "she", "they", "them", "his", "her", "their", "i",
    "you", "we", "my", "your", "our", "me", "us", "do", "did", "does", "has", "have", "had",
    "not", "no", "so", "than", "then", "there", "what", "which", "who", "whom", "when",
    "where", "why", "how", "about", "into", "over", "after", "before", "during", "s",
})
# fmt: on


@dataclass(frozen=True)
class Line:
    dia_id: str
    speaker: str
    text: str
    caption: str | None
    at: datetime
    session: int
    session_time: str  # LoCoMo's own wording: "1:56 pm on 8 May, 2023"
    source: str = "conversation"
    """Where the line came from; "bot" for an integration's post (benchmarks/slack_chats.py)."""

    def render(self) -> str:
        """The line as every method shows it: speaker, text, and what a shared photo shows."""
        photo = f" [shares a photo: {self.caption}]" if self.caption else ""
        return f"{self.speaker}: {self.text}{photo}"


@dataclass(frozen=True)
class Question:
    text: str
    answer: str
    evidence: tuple[str, ...]  # dia_ids that exist in the conversation
    category: int


@dataclass(frozen=True)
class Conversation:
    sample_id: str
    lines: tuple[Line, ...]
    questions: tuple[Question, ...]
    unknown_evidence: tuple[str, ...]  # cited ids that name no line

    def sessions(self) -> list[list[Line]]:
        grouped: dict[int, list[Line]] = {}
        for line in self.lines:
            grouped.setdefault(line.session, []).append(line)
        return [grouped[n] for n in sorted(grouped)]


def load_conversations(path: Path, wanted: set[str] | None = None) -> list[Conversation]:
    samples = json.loads(path.read_text(encoding="utf-8"))
    return [
        _conversation(sample)
        for sample in samples
        if wanted is None or sample["sample_id"] in wanted
    ]


def _conversation(sample: dict) -> Conversation:
    lines = _lines(sample["conversation"])
    known = {line.dia_id for line in lines}
    questions, unknown = [], []
    for qa in sample["qa"]:
        if qa["category"] not in SCORED_CATEGORIES:
            continue
        cited = _evidence_ids(qa["evidence"])
        unknown.extend(i for i in cited if i not in known)
        questions.append(
            Question(
                text=qa["question"],
                answer=str(qa["answer"]),  # some answers are ints (years, counts)
                evidence=tuple(i for i in cited if i in known),
                category=qa["category"],
            )
        )
    return Conversation(sample["sample_id"], tuple(lines), tuple(questions), tuple(unknown))


def _lines(conversation: dict) -> list[Line]:
    lines = []
    session = 1
    # Some samples carry date keys past the last session, so stop at the first missing one.
    while f"session_{session}" in conversation:
        session_time = conversation[f"session_{session}_date_time"]
        start = datetime.strptime(session_time, _SESSION_DATE)
        for index, turn in enumerate(conversation[f"session_{session}"]):
            lines.append(
                Line(
                    dia_id=turn["dia_id"],
                    speaker=turn["speaker"],
                    text=turn["text"],
                    caption=turn.get("blip_caption"),
                    # Sessions only have a start time; a minute per line keeps turns ordered.
                    at=start.replace(tzinfo=UTC) + timedelta(minutes=index),
                    session=session,
                    session_time=session_time,
                )
            )
        session += 1
    return lines


def _evidence_ids(evidence: list[str]) -> list[str]:
    found = (f"D{s}:{i}" for item in evidence for s, i in _EVIDENCE_ID.findall(item))
    return list(dict.fromkeys(found))


# -- the scorer ---------------------------------------------------------------


@dataclass(frozen=True)
class Score:
    evidence_recall: float | None  # None when the question cites no existing line
    answer_share: float | None  # None when the answer has no words at all
    answer_hit: bool


def normalized(text: str) -> str:
    return " ".join(text.lower().split())


def content_words(text: str) -> list[str]:
    """Lowercase words without punctuation or stopwords; the plain words if only stopwords."""
    words = _WORD.findall(text.lower())
    return [w for w in words if w not in _STOPWORDS] or words


def context_words(context: str) -> set[str]:
    """The context's words; an ISO date also gives its day and month name, so "2023-05-07"
    holds "7 May 2023" as LoCoMo's answers write it, whichever way a method renders dates."""
    words = set(_WORD.findall(context.lower()))
    for _, month, day in _ISO_DATE.findall(context):
        if 1 <= int(month) <= 12:
            words.update((str(int(day)), _MONTHS[int(month) - 1]))
    return words


def _shown(line: str, flat: str) -> bool:
    """A line is in a context verbatim, or as a context writes it: links short."""
    return normalized(line) in flat or normalized(compact(line)) in flat


def score(question: Question, context: str, lines_by_id: dict[str, Line]) -> Score:
    """How much of the question's evidence and answer a context text holds."""
    flat = normalized(context)
    evidence = [_shown(lines_by_id[i].text, flat) for i in question.evidence]
    answer = content_words(question.answer)
    vocabulary = context_words(context)
    found = sum(w in vocabulary for w in answer)
    return Score(
        evidence_recall=sum(evidence) / len(evidence) if evidence else None,
        answer_share=found / len(answer) if answer else None,
        answer_hit=bool(answer) and found * 2 >= len(answer),
    )
