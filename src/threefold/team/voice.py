"""A chat line told of its speaker: "Kofi Mensah: I'll keep poking at it" becomes "Kofi
Mensah: Kofi will keep poking at it", so that a digest read by a lead says who, not "I".

Only the first person singular changes: "we" is the team's own voice and stays. A verb
after "I" takes the third person's form by the regular rule (-s, -es, -ies) unless it is
a modal, already in the past tense, or listed in team/data/voice.json.
"""

import json
import re
from functools import cache
from importlib.resources import files

_I = re.IGNORECASE
_LABEL = re.compile(r"^(?P<lead>(?:[-*]\s+)?(?:Open:\s+)?)(?P<name>[^:\n]{1,60}?):\s+(?P<said>.+)$")
_PRONOUN = re.compile(r"\b(?:I|i)(?P<tail>'m|'ve|'ll|'d|’m|’ve|’ll|’d)?\b(?!['’]\w)")
_OBJECT = re.compile(r"\b(?:me|myself)\b", _I)
_POSSESSIVE = re.compile(r"\b(?:my|mine)\b", _I)
_WORD = re.compile(r"\s+(?P<word>[A-Za-z']+)")


@cache
def _words() -> dict:
    data = json.loads(files("threefold.team").joinpath("data/voice.json").read_text())
    return {
        "keep": frozenset(data["keep"]),
        "changed": data["changed"],
        "past": frozenset(data["past"]),
        "between": frozenset(data["between"]),
    }


def told_of(line: str) -> str:
    """`line` ("Name: said", as a digest writes a message) with the speaker's "I", "me"
    and "my" replaced by their first name; a line without a speaker is left as it is."""
    found = _LABEL.match(line)
    if found is None or not found["name"].strip():
        return line
    first = found["name"].split()[0]
    name = first[:1].upper() + first[1:]
    said = in_third_person(found["said"], name)
    return f"{found['lead']}{found['name']}: {said}"


def in_third_person(text: str, name: str) -> str:
    """`text` said by `name`, with its first person singular told of them."""
    words = _words()
    out, at = [], 0
    for found in _PRONOUN.finditer(text):
        if _is_roman_numeral(text, found):
            continue
        tail = (found["tail"] or "").replace("’", "'")
        out.append(text[at : found.start()])
        if tail:
            out.append(f"{name} {words['changed'][tail]}")
            at = found.end()
            continue
        out.append(name)
        at = found.end()
        verb_at = _verb_after(text, at, words["between"])
        if verb_at is not None:
            start, end = verb_at
            out.append(text[at:start] + _agreeing(text[start:end], words))
            at = end
    out.append(text[at:])
    told = "".join(out)
    told = _OBJECT.sub(name, told)
    return _POSSESSIVE.sub(f"{name}'s", told)


def _verb_after(text: str, at: int, between: frozenset[str]) -> tuple[int, int] | None:
    """Where the verb after a subject "I" is: the next word, past adverbs like "just"."""
    while found := _WORD.match(text, at):
        word = found["word"].lower()
        if word in between or word.endswith("ly"):
            at = found.end()
            continue
        return found.start("word"), found.end("word")
    return None


def _agreeing(verb: str, words: dict) -> str:
    low = verb.lower()
    if low in words["changed"]:
        return words["changed"][low]
    if low in words["keep"] or low in words["past"] or _regular_past(low) or "'" in low:
        return verb
    if re.search(r"(?:s|sh|ch|x|z|o)$", low):
        return verb + "es"
    if re.search(r"[^aeiou]y$", low):
        return verb[:-1] + "ies"
    return verb + "s"


def _regular_past(word: str) -> bool:
    """ "shipped", "rotated": -ed, but not "need" or "proceed" (past forms in -eed are listed)."""
    return word.endswith("ed") and not word.endswith("eed") and len(word) > 3


def _is_roman_numeral(text: str, found: re.Match[str]) -> bool:
    """ "World War I", "Phase I": a capital I after a capitalised word ends a name."""
    before = text[: found.start()].rstrip()
    return bool(found["tail"] is None and re.search(r"\b(?:War|Phase|Part|Act|Type)$", before))
