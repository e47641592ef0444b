"""Text plumbing shared by the heuristic tasks: cleaning, sentence splitting, word sets."""

import re
import unicodedata
from functools import cache, lru_cache
from importlib import resources
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pysbd loads with the first sentence split: a context needs none
    import pysbd

# pysbd slows down sharply on long inputs and on dense punctuation, so every task looks
# at a bounded prefix and feeds pysbd short chunks.
MAX_SIDE_CHARS = 20_000
_CHUNK_CHARS = 2_000

_CONTROL_RE = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u200b\ufeff]")
_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"'})
_SPACE_RE = re.compile(r"[ \t\r\f\v]+")
_BREAK_RE = re.compile(r"(?<=[.!?。！？])\s+|\n")
_WORD_RE = re.compile(r"[^\W_][\w'-]*")
NEGATION_RE = re.compile(r"\b(?:not|never|no\s+longer|\w+n't)\b", re.IGNORECASE)
"""A word that denies what its sentence says: "not", "never", "no longer", "doesn't"."""
_END_MARK_RE = re.compile(r"[.!?。！？]")
_SIMPLE_SPLIT_RE = re.compile(r"(?<=[.!?。！？])\s+")
_INNER_BOUNDARY_RE = re.compile(r"[.!?。！？]['\")\]]*\s+\S")
# Prose has a sentence end every ~80 characters; text far denser than that ("a. a. a.")
# is not prose, and pysbd's cost grows with the number of candidate boundaries.
_DENSE_CHARS_PER_MARK = 25


def wordset(text: str) -> frozenset[str]:
    """The whitespace-separated words of `text`, for writing word lists compactly."""
    return frozenset(text.split())


STOPWORDS = wordset(
    """a an the and or but if then so of to in on at by for with from as is are was were be
    been being am it its it's this that these those there here i me my we us our you your
    he him his she her they them their what which who whom whose when where why how do does
    did done not no yes just also too very really can could would should will shall may
    might must have has had having let let's get got into about over than out up down all
    any some each every more most other such only own same s t d ll m re ve don't isn't
    i'm i'll we'll we're you're that's there's ok okay"""
)


@cache
def _segmenter() -> "pysbd.Segmenter":
    # Building a Segmenter compiles many rules; one per process is enough.
    import pysbd

    return pysbd.Segmenter(language="en", clean=False)


def clean(text: str, limit: int = MAX_SIDE_CHARS) -> str:
    """`text` capped to `limit` characters, without control characters or curly quotes."""
    text = unicodedata.normalize("NFC", text[:limit])
    text = _CONTROL_RE.sub(" ", text).translate(_QUOTES)
    return _SPACE_RE.sub(" ", text)


def _chunks(text: str) -> list[str]:
    """Pieces of at most about _CHUNK_CHARS, cut at a sentence end or line break if possible."""
    pieces: list[str] = []
    while len(text) > _CHUNK_CHARS:
        window = text[:_CHUNK_CHARS]
        cuts = [m.end() for m in _BREAK_RE.finditer(window)]
        cut = cuts[-1] if cuts and cuts[-1] > _CHUNK_CHARS // 4 else window.rfind(" ") + 1
        cut = cut if cut > 0 else _CHUNK_CHARS
        pieces.append(text[:cut])
        text = text[cut:]
    pieces.append(text)
    return pieces


def _split(chunk: str) -> list[str]:
    if not _INNER_BOUNDARY_RE.search(chunk):
        # No end mark followed by more text: one sentence, as most chat messages are.
        return [chunk]
    dense = len(_END_MARK_RE.findall(chunk)) * _DENSE_CHARS_PER_MARK > len(chunk)
    if dense and len(chunk) > 500:  # short chunks are cheap, and "Dr. Lee." needs pysbd
        return _SIMPLE_SPLIT_RE.split(chunk)
    # pysbd is untyped; its processor gives plain strings.
    return _placed(_segmenter().processor(chunk).process(), chunk)


def _placed(found: list[str], chunk: str) -> list[str]:
    """The sentences pysbd found that stand in `chunk` as written, each after the one
    before and with the spaces after it, as pysbd's own non-destructive segment() keeps
    them. segment() places each with a regular expression made for that sentence: one
    compile a sentence, and a flood of patterns through re's cache of 512 that evicts
    pysbd's and the rules' own (benchmarks/reader_cpu.py). str.find places them alike."""
    out, done = [], 0
    for sentence in found:
        at = chunk.find(sentence) if sentence else -1
        while at >= 0:
            end = _after_space(chunk, at + len(sentence))
            if end > done:
                out.append(chunk[at:end])
                done = end
                break
            at = chunk.find(sentence, max(end, at + 1))
    return out


def _after_space(text: str, at: int) -> int:
    while at < len(text) and text[at].isspace():
        at += 1
    return at


def sentences(text: str, limit: int = MAX_SIDE_CHARS) -> list[str]:
    """The sentences of (a bounded prefix of) `text`, stripped, in order."""
    return list(_sentences(text, limit))


# A turn is split once for extraction and again for its session summary; pysbd is the
# slowest step of both, so recent answers are kept.
@lru_cache(maxsize=4096)
def _sentences(text: str, limit: int) -> tuple[str, ...]:
    out: list[str] = []
    for paragraph in clean(text, limit).split("\n"):
        if not paragraph.strip():
            continue
        for chunk in _chunks(paragraph):
            out.extend(_titles_joined([s.strip() for s in _split(chunk) if s.strip()]))
    return tuple(out)


def _titles_joined(found: list[str]) -> list[str]:
    """`found` with a sentence that ends in a title and its period ("My wife is Smt.")
    joined to the name that follows it: the splitter knows only English titles."""
    out: list[str] = []
    for sentence in found:
        if out and _title_at_end().search(out[-1]) and sentence[:1].isupper():
            out[-1] = f"{out[-1]} {sentence}"
        else:
            out.append(sentence)
    return out


@cache
def titles() -> frozenset[str]:
    """Titles said before a name (data/titles.txt), lowercase, without their period."""
    return frozenset(title.rstrip(".") for title in _title_lines())


@cache
def _title_lines() -> tuple[str, ...]:
    text = resources.files(__package__).joinpath("data/titles.txt").read_text("utf-8")
    return tuple(line.strip() for line in text.splitlines() if line.strip()[:1].isalpha())


@cache
def _title_at_end() -> re.Pattern[str]:
    """An abbreviated title and its period at a sentence's end ("... is Smt.")."""
    short = sorted((t[:-1] for t in _title_lines() if t.endswith(".")), key=len, reverse=True)
    return re.compile(rf"(?<![\w'])(?:{'|'.join(short)})\.$", re.IGNORECASE)


def words(text: str) -> list[str]:
    return _WORD_RE.findall(text.lower())


# Merging compares every summary line with every other, again at each merge.
@lru_cache(maxsize=32768)
def content_words(text: str) -> frozenset[str]:
    """Lowercase words that carry meaning, with a crude plural strip so 'keys' ~ 'key'."""
    out = set()
    for word in words(text):
        if word in STOPWORDS or len(word) < 2:
            continue
        out.add(word[:-1] if len(word) > 3 and word.endswith("s") else word)
    return frozenset(out)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


def coverage(part: frozenset[str], whole: frozenset[str]) -> float:
    """The share of `part`'s words that also occur in `whole`."""
    return len(part & whole) / len(part) if part else 0.0


_SAID_WITH_A = re.compile(
    r"(?:uni(?![mndr])|use|usu|uti|ura|ure|uro|ubiq|uku|eu|ewe|one\b|once\b)", re.I
)
"""Words spelled with a vowel and said with a consonant: "a used van", "a university", "a
European", "a one-off" (but "an unusual", "an uninsured driver", "an umbrella")."""
_SAID_WITH_AN = re.compile(r"hour|honest|honou?r|heir", re.I)
"""Words spelled with a consonant and said with a vowel: "an hour", "an heir"."""
_INITIALS = re.compile(r"[A-Z][A-Z\d]+\b|[A-Za-z]-")
"""Initials, said letter by letter: "an MBA", "a BMW", "an X-ray"."""


def indefinite_article(word: str) -> str:
    """ "a" or "an" before `word`, by how it is said rather than how it is spelled."""
    if _INITIALS.match(word):
        return "an" if word[0].upper() in "AEFHILMNORSX" else "a"
    if _SAID_WITH_AN.match(word):
        return "an"
    if _SAID_WITH_A.match(word):
        return "a"
    return "an" if word[:1].lower() in "aeiou" else "a"


def sentence_case(text: str) -> str:
    """`text` with its first letter upper-cased and a final period when it has no end mark."""
    text = text.strip().rstrip(",;:")
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


# ("hes out now" is "he's", typed without the apostrophe)
PRONOUN_OPENING_RE = re.compile(
    r"(?:^|[.!?]\s+)(?:he|she|they|his|her|(?-i:hes|shes))\b", re.IGNORECASE
)


def opens_with_pronoun(text: str) -> bool:
    """Whether a sentence of `text` opens with "he", "she", "they", "his" or "her"."""
    return bool(PRONOUN_OPENING_RE.search(text))


_FIRST_PERSON = {
    "i": "they",
    "me": "them",
    "my": "their",
    "mine": "theirs",
    "myself": "themself",
    "we": "they",
    "us": "them",
    "our": "their",
    "ours": "theirs",
    "ourselves": "themselves",
    "i'm": "they're",
    "i've": "they've",
    "i'd": "they'd",
    "i'll": "they'll",
}
_FIRST_PERSON_RE = re.compile(
    # a word of its own: "me-time" is no "me"
    r"(?<![\w'-])(?:"
    + "|".join(map(re.escape, sorted(_FIRST_PERSON, key=len, reverse=True)))
    + r")(?![\w'-])",
    re.IGNORECASE,
)


def third_person(text: str) -> str:
    """'show my paintings' -> 'show their paintings': a writer's own words, told of them
    (by the rules and the trained reader alike)."""
    return _FIRST_PERSON_RE.sub(lambda m: _FIRST_PERSON[m.group(0).lower()], text)
