"""A second opinion on each reading: how likely it is right, from what the graph says of
it and from its sentence, rather than from the graph's confidence alone.

The graph's confidence tells a fact from its look-alike poorly on text in voices it was
not trained on (training/README.md, sessions 24-27): a reading's precision stays near 0.8
from 0.7 to 0.95 there. Cheap facts about the reading tell more: its label, mood and
whose it is and how sure the graph is of each, how likely the graph found it to be no value
or another label's, whether the value was in the message it answers, whether it opens its
sentence, how many values the sentence yields, whether the sentence speaks of the writer
or of someone else. A logistic model over them (a JSON file that a reader manifest names
as ``verifier``, fitted by training/verifier.py on development sets, its bar chosen set by
set, each judged by a model fitted on the others) keeps a reading when its chance of being
right reaches the bar. The shipped manifest names one since session 28 (V3, bar 0.66;
training/README.md); a manifest naming none leaves the per-label bars to decide.
"""

import json
import math
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from threefold.models.base import TurnInput
from threefold.models.reader.facts import TurnRead
from threefold.models.reader.heads import ReaderModelError, Span


@dataclass(frozen=True)
class Clues:
    """What the verifier reads of one reading."""

    span: Span
    sentence: str
    previous: str
    in_sentence: int
    """How many readings its sentence yields (itself included)."""


@dataclass(frozen=True)
class Verifier:
    weights: np.ndarray
    bias: float
    labels: tuple[str, ...]
    modalities: tuple[str, ...]
    subjects: tuple[str, ...]
    self_words: re.Pattern[str]
    other_words: re.Pattern[str]
    least: float
    """The chance a reading needs to be kept."""

    @classmethod
    def load(cls, path: Path) -> "Verifier":
        """The verifier fitted into `path`: ReaderModelError naming the file if it is
        missing, not JSON, or its weights do not fit its clues."""
        try:
            verifier = cls.of(json.loads(path.read_text(encoding="utf-8")))
        except FileNotFoundError:
            raise ReaderModelError(f"the reader's verifier {path} is missing") from None
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ReaderModelError(f"cannot read the reader's verifier {path}: {exc!r}") from exc
        if verifier.weights.shape != (verifier.clue_count,):
            raise ReaderModelError(
                f"the reader's verifier {path} has {verifier.weights.size} weights for "
                f"{verifier.clue_count} clues"
            )
        return verifier

    @classmethod
    def of(cls, data: dict[str, Any]) -> "Verifier":
        return cls(
            weights=np.asarray(data["weights"], dtype=np.float64),
            bias=float(data["bias"]),
            labels=tuple(data["labels"]),
            modalities=tuple(data["modalities"]),
            subjects=tuple(data["subjects"]),
            self_words=_words(data["self_words"]),
            other_words=_words(data["other_words"]),
            least=float(data["least"]),
        )

    @property
    def clue_count(self) -> int:
        """How many numbers `features` gives: one weight each."""
        return self.features(_BLANK).size

    def chance(self, clues: Clues) -> float:
        z = float(np.dot(self.weights, self.features(clues))) + self.bias
        return 1.0 / (1.0 + math.exp(-max(-40.0, min(40.0, z))))

    def keeps(self, clues: Clues) -> bool:
        return self.chance(clues) >= self.least

    def features(self, clues: Clues) -> np.ndarray:
        span, sentence = clues.span, clues.sentence
        value = sentence[span.start : span.end]
        lowered = f" {sentence.lower()} "
        c = _clipped(span.confidence)
        outside = _clipped(span.outside)
        found = [
            c,
            math.log(c / (1 - c)),
            *(span.label == name for name in self.labels),
            *(span.modality == name for name in self.modalities),
            *(span.subject == name for name in self.subjects),
            len(value.split()),
            value[:1].isupper(),
            value.isupper(),
            any(ch.isdigit() for ch in value),
            bool(clues.previous) and value.lower() in clues.previous.lower(),
            sentence.lower().startswith(value.lower()),
            len(sentence.split()),
            "?" in sentence,
            clues.in_sentence,
            bool(self.self_words.search(lowered)),
            bool(self.other_words.search(lowered)),
            outside,
            math.log(outside / (1 - outside)),
            span.rival,
            span.sure_of_mood,
            span.sure_of_whose,
        ]
        return np.asarray(found, dtype=np.float64)


def clues(turn: TurnInput, reads: Sequence[TurnRead]) -> dict[int, Clues]:
    """The clues of each of a turn's readings, by id(read)."""
    previous = turn.previous.text if turn.previous is not None else ""
    per_sentence = Counter(r.text for r in reads)
    return {id(r): Clues(r.span, r.text, previous, per_sentence[r.text]) for r in reads}


_BLANK = Clues(Span(0, 0, "", "", "", 0.5), "", "", 0)
"""Clues of nothing, to count the numbers `Verifier.features` gives."""


def _clipped(chance: float) -> float:
    return min(max(chance, 1e-4), 1 - 1e-4)


def _words(words: list[str]) -> re.Pattern[str]:
    return re.compile(r"\b(?:" + "|".join(re.escape(w) for w in words) + r")\b")
