"""Marked text for the reader's tests: "[[home.former|Leeds]]" marks a value the way the
trained reader's heads would tag it, "[[home~0.8|Leeds]]" with the confidence they would
give it (1.0 when none is written). The tests then run everything after the tagger."""

import re

from threefold.models.reader.heads import Span
from threefold.models.reader.units import units

_MARK = re.compile(r"\[\[([^\[\]|~]+)(?:~([0-9.]+))?\|([^\[\]|]+)\]\]")


def unmarked(marked: str) -> tuple[str, list[Span]]:
    """The text without its marks, and a span (with its confidence) for each mark."""
    text, found, at = "", [], 0
    for m in _MARK.finditer(marked):
        text += marked[at : m.start()]
        label, _, subject = m.group(1).partition("@")
        label, _, modality = label.partition(".")
        end = len(text) + len(m.group(3))
        confidence = float(m.group(2)) if m.group(2) else 1.0
        found.append(Span(len(text), end, label, modality or "cur", subject or "self", confidence))
        text += m.group(3)
        at = m.end()
    return text + marked[at:], found


def by_sentence(text: str, found: list[Span]) -> list[tuple[str, list[Span]]]:
    """Each piece of `text` the reader reads, with the spans of `found` inside it, counted
    from the piece's start: what TrainedReader.sentence_spans gives."""
    out = []
    for piece in units(text, None):
        start = text.index(piece.text)
        inside = [
            Span(s.start - start, s.end - start, s.label, s.modality, s.subject, s.confidence)
            for s in found
            if start <= s.start and s.end <= start + len(piece.text)
        ]
        out.append((piece.text, inside))
    return out
