"""The trained reader: facts read by small heads over MiniLM's token states.

Each sentence of the user's side, with the message it answers, runs through the int8
MiniLM that embeds every turn (onnxruntime); the heads in ``data/reader_heads.npz`` (numpy)
tag the value spans, their modality and whose they are; :mod:`.facts` keys them for
supersession. Nothing is downloaded. Training: ``training/`` (see training/README.md).

Importable without onnxruntime: the encoder loads on :meth:`TrainedReader.load`.
"""

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from threefold.models.base import ExtractedFact, Standing, TurnInput
from threefold.models.reader.checks import BELOW, Reading, refusal, standing
from threefold.models.reader.facts import (
    MIN_CONFIDENCE,
    RELATION_LABELS,
    USER_WORD,
    TurnRead,
    asked_relative,
    referent_subject,
    says_third_person,
    settled,
    turn_reads,
)
from threefold.models.reader.heads import (
    Encoded,
    Heads,
    ReaderModelError,
    Span,
    TopHeads,
    encode,
    read_manifest,
    spans,
)
from threefold.models.reader.kin import kin_facts
from threefold.models.reader.units import asks, units
from threefold.models.reader.verify import Verifier, clues
from threefold.models.reader.whose import whose

__all__ = ["DATA", "FROZEN", "TUNED", "ReaderModelError", "TrainedReader"]

DATA = Path(__file__).parent / "data"
"""Where the shipped heads and their manifest live."""
FROZEN = "reader_manifest.json"
"""The heads over the shared MiniLM's last states (the encoder frozen)."""
TUNED = "reader_tuned.json"
"""MiniLM's upper layers fine-tuned with the heads, over the shared MiniLM's lower states
(``reader_top.onnx``, int8; its manifest names the cut, ``lower_layers``;
training/finetune.py)."""

log = logging.getLogger(__name__)


class TrainedReader:
    """Reads facts from a turn's user side. `encoder` is a MiniLMEmbedder (shared with the
    memory's embedder where it is one, so the model loads once)."""

    def __init__(
        self,
        encoder: Any = None,
        folder: Path = DATA,
        least: float | None = None,
        label_least: dict[str, float] | None = None,
        manifest: str = FROZEN,
        held_least: float | dict[str, float] | None = None,
    ) -> None:
        self.folder = folder
        self.manifest_name = manifest
        self.least = least
        """Spans below this confidence are dropped; None: the manifest's choice."""
        self.label_least = label_least
        """Per value label, the confidence its readings need (above 1: never kept); None:
        the manifest's, chosen on development text by training/calibrate.py."""
        self.held_least = held_least
        """The confidence a reading needs to update a held slot (one number, or per
        label); None: the manifest's ``held_min_confidence``."""
        self._encoder = encoder
        self._heads: Heads | TopHeads | None = None
        self._layers = 6
        self._verifier: Verifier | None = None
        self.manifest: dict[str, object] = {}

    def load(self) -> "TrainedReader":
        """Load the heads and the encoder now: :class:`ReaderModelError` naming the file if
        the weights are missing or corrupt, EmbeddingError if the encoder cannot run."""
        self.manifest = read_manifest(self.folder / self.manifest_name)
        graph = self.manifest.get("graph")
        if graph:
            self._heads = TopHeads.load(self.folder / str(graph))
            layers = self.manifest.get("lower_layers")
            if not isinstance(layers, int) or not 0 <= layers < 6:
                raise ReaderModelError(
                    f"{self.folder / self.manifest_name} names no lower_layers from 0 to 5"
                )
            self._layers = layers
        else:
            self._heads = Heads.load(
                self.folder / str(self.manifest.get("weights", "reader_heads.npz"))
            )
        verifier = self.manifest.get("verifier")
        self._verifier = Verifier.load(self.folder / str(verifier)) if verifier else None
        if self._encoder is None:
            from threefold.embed.minilm import MiniLMEmbedder

            self._encoder = MiniLMEmbedder()
        self._encoder.load()
        return self

    def _least(self) -> float:
        if self.least is not None:
            return self.least
        chosen = self.manifest.get("min_confidence", MIN_CONFIDENCE)
        return float(chosen) if isinstance(chosen, int | float) else MIN_CONFIDENCE

    def extract_facts(self, turn: TurnInput) -> list[ExtractedFact]:
        """The facts kept, and the readings that fall short of their label's bar with the
        standing they may still have (an update of a held slot, or a hint): the engine
        stores those only where the stream holds that slot (pipeline.handlers)."""
        return [
            r.fact
            if r.standing is Standing.FACT
            else r.fact.model_copy(update={"standing": r.standing})
            for r in self.readings(turn)
            if r.standing is not None
        ]

    def readings(self, turn: TurnInput) -> list[Reading]:
        """Every fact the heads read in `turn`, each with its span, its sentence and
        whether the checks keep it (:mod:`.checks`)."""
        out: list[Reading] = []
        seen: set[tuple[str, str, str]] = set()
        sentences = self._sentences(turn)  # loads the manifest, with the bars
        every = self._turn_reads(turn, sentences)
        label_least, held, hint = self._label_least(), self._held_least(), self._hint_least()
        refusals: dict[int, str] = {}  # each reading checked once, by settled() and below
        verdict = self._verdict(turn, every, label_least)

        def refused(read: TurnRead) -> str:
            if id(read) not in refusals:
                refusals[id(read)] = verdict(read)
            return refusals[id(read)]

        def standing_of(read: TurnRead) -> Standing | None:
            tier = standing(refused(read), read.span, held, hint)
            return tier if tier is Standing.FACT or not asks(read.text) else None

        reads = settled(every, standing_of)
        for read, tier in reads:
            fact = read.fact
            key = (fact.subject, fact.slot, fact.value.lower())
            if key not in seen:
                seen.add(key)
                out.append(Reading(fact, read.span, read.text, refused(read), tier))
        return out + self._kin(sentences, seen)

    def _kin(
        self, sentences: list[tuple[str, list[Span], str]], seen: set[tuple[str, str, str]]
    ) -> list[Reading]:
        """The relatives and pets each writer owns without naming them (:mod:`.kin`)."""
        out = []
        for text, found, writer in sentences:
            names = [s for s in found if s.label in ("PER", *RELATION_LABELS)]
            for fact, word in kin_facts(text, names, writer, USER_WORD):
                if (key := (fact.subject, fact.slot, fact.value)) not in seen:
                    seen.add(key)
                    out.append(Reading(fact, word, text, "", Standing.FACT))
        return out

    def _verdict(
        self, turn: TurnInput, reads: list[TurnRead], label_least: dict[str, float]
    ) -> Callable[[TurnRead], str]:
        """Why a reading is refused ("" if kept): the type checks, then the verifier's
        chance where the manifest names one (:mod:`.verify`), else its label's bar."""
        verifier = self._verifier
        if verifier is None:
            return lambda read: refusal(read.text, read.span, read.fact, label_least)
        found = clues(turn, reads)

        def verdict(read: TurnRead) -> str:
            why = refusal(read.text, read.span, read.fact, None)
            return why or ("" if verifier.keeps(found[id(read)]) else BELOW)

        return verdict

    def turn_reads(self, turn: TurnInput) -> list[TurnRead]:
        """Every reading of `turn` at the manifest's least confidence, before any check:
        the user's facts, or the speaker's where the turn names one; a sentence opening
        with another person the memory knows, and saying nothing in the first person,
        is theirs (:mod:`.whose`)."""
        return self._turn_reads(turn, self._sentences(turn))

    def _sentences(self, turn: TurnInput) -> list[tuple[str, list[Span], str]]:
        """Each piece of `turn` the reader reads with the spans the heads tag in it, and
        whose its values are (:mod:`.whose`)."""
        me = turn.writer
        people = frozenset(turn.people)
        return [
            (text, *whose(text, found, me, people)) for text, found in self.sentence_spans(turn)
        ]

    def _turn_reads(
        self, turn: TurnInput, read: list[tuple[str, list[Span], str]]
    ) -> list[TurnRead]:
        """:meth:`turn_reads` of the pieces `read` (:meth:`_sentences`)."""
        me = turn.writer
        sentences = [(text, found) for text, found, _ in read]
        writers = [writer for *_, writer in read]
        referent = referent_subject(turn.referent, me) or self._asked(turn)
        return turn_reads(sentences, me, self._least(), writers, referent)

    @staticmethod
    def _asked(turn: TurnInput) -> str | None:
        """The relative the message `turn` answers asks about, whose a relative's value is
        where the turn says no relation word ("What does your wife do?" "Nurse."): only
        where the turn says no "he" or "she", whom the pipeline resolves itself
        (TurnInput.referent)."""
        if turn.previous is None or says_third_person(turn.user):
            return None
        return asked_relative(turn.previous.text, turn.writer)

    def sentence_spans(self, turn: TurnInput) -> list[tuple[str, list[Span]]]:
        """Each piece of `turn`'s user side the reader reads, with the spans the heads
        tag in it."""
        if self._heads is None:
            self.load()
        assert self._heads is not None and self._encoder is not None
        previous = turn.previous.text if turn.previous is not None else None
        pieces = units(turn.user, previous)
        if not pieces:
            return []
        tokenizer = self._encoder.tokenizer
        encoded = [encode(tokenizer, p.text, p.previous) for p in pieces]
        ids = [e.ids for e in encoded]
        states = (
            self._encoder.token_states(ids, layers=self._layers)
            if self._layers < 6
            else self._encoder.token_states(ids)
        )
        return [
            (piece.text, self._spans(piece.text, code, state) if code.offsets else [])
            for piece, code, state in zip(pieces, encoded, states, strict=True)
        ]

    def _spans(self, text: str, code: Encoded, states: np.ndarray) -> list[Span]:
        assert self._heads is not None
        tag_p, mod_p, subj_p = self._heads.read(states, code.first, len(code.offsets))
        return spans(text, code.offsets, tag_p, mod_p, subj_p, floor=self._span_floor())

    def _span_floor(self) -> float | None:
        """The manifest's ``span_floor``: the chance of a label at which a token is read
        as part of a value (heads.spans); none there: each token's likeliest tag."""
        chosen = self.manifest.get("span_floor")
        return float(chosen) if isinstance(chosen, int | float) else None

    def _held_least(self) -> dict[str, float]:
        """Per value label, the confidence a reading needs to update a slot the stream
        holds with another value: the manifest's ``held_min_confidence`` (one number for
        every label, or one per label); none there: no reading below its label's bar
        updates anything."""
        chosen = (
            self.held_least
            if self.held_least is not None
            else self.manifest.get("held_min_confidence")
        )
        if isinstance(chosen, int | float):
            return {"*": float(chosen)}
        return dict(chosen) if isinstance(chosen, dict) else {}

    def _hint_least(self) -> float:
        """The confidence a reading needs to mark a held fact possibly outdated: the
        manifest's ``hint_min_confidence``, else every reading kept by `least`."""
        chosen = self.manifest.get("hint_min_confidence")
        return float(chosen) if isinstance(chosen, int | float) else self._least()

    def _label_least(self) -> dict[str, float]:
        if self.label_least is not None:
            return self.label_least
        chosen = self.manifest.get("label_min_confidence", {})
        return dict(chosen) if isinstance(chosen, dict) else {}
