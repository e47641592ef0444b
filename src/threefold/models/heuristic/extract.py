"""extract_facts: sentences -> clauses -> rules, with corrections, hedges and denials.

Confidence says who vouches for a fact: the user's plain word 0.95, the user's explicit
correction 1.0, the user's hedge 0.65 (hearsay 0.7), and the assistant at most 0.55,
since the assistant often restates or guesses.
"""

import re
from dataclasses import dataclass, field, replace

from threefold.domain import FactCategory, project_subject
from threefold.models.base import EATS_AGAIN_SLOT, ExtractedFact, SlotRef, TurnInput
from threefold.models.heuristic import personal, rules
from threefold.models.heuristic.answers import read_reply
from threefold.models.heuristic.ending import all_settled
from threefold.models.heuristic.patterns import NAME
from threefold.models.heuristic.personal_words import FOODS_TO_AVOID, RELATION_RE
from threefold.models.heuristic.rules import Clause, Parsed
from threefold.models.heuristic.text import NEGATION_RE, sentence_case, sentences

_I = re.IGNORECASE
_MAX_SENTENCE_CHARS = 400  # longer "sentences" are pasted text, not statements

_CORRECTION_RE = re.compile(
    r"^(?:(?:no|nope|nah|wrong|incorrect|not\s+quite|not\s+exactly|oops|wait|correction"
    r"|my\s+bad|to\s+clarify|to\s+be\s+clear|let\s+me\s+correct\s+(?:that|myself)|i\s+meant"
    r"|not\s+any\s*more|i\s+used\s+to"
    r"|change\s+of\s+plans?|plans?\s+changed?|new\s+plan"
    r"|scratch\s+that|that's\s+(?:wrong|not\s+right|incorrect|not\s+correct|not\s+true)"
    r"|that\s+is\s+(?:wrong|not\s+right|incorrect|not\s+correct))\s*(?:[,:;!.]+|\s[-–—]+)\s*"
    r"|(?:no|nope)\s+(?:no\s+)?(?=(?-i:[A-Z]))|actually\b[,:;]?\s*|(?:in\s+)?fact\s*,\s*"
    r"|(?:no|oh|oh\s+no)\s+(?=(?:wait|sorry|oops|actually|my\s+bad)\b))+",
    _I,
)
_DENIAL_ONLY_RE = re.compile(
    r"^(?:no|nope|nah|wrong|incorrect|not\s+quite|not\s+exactly|not\s+true|not\s+any\s*more"
    r"|no\s+longer|that's\s+(?:wrong|not\s+right|incorrect|not\s+correct|not\s+true|outdated"
    r"|old\s+news)|that\s+is\s+(?:wrong|not\s+right|incorrect))[\s.!]*$",
    _I,
)
_INTERJECTION_RE = re.compile(
    r"^(?:(?:ok|okay|sure|great|cool|right|yes|yeah|yep|got\s+it|noted|understood|thanks"
    r"|thank\s+you|alright|hi|hey|hello|oh|fyi|btw|by\s+the\s+way|just\s+so\s+you\s+know"
    r"|for\s+the\s+record|heads\s+up|(?:quick|small|life|big)\s+update|update|note|also|and|but"
    r"|so|well|good|(?:big|good|great|exciting|some|sad|bad)\s+news"
    r"|perfect|sorry|i\s+see)\s*(?:[,:;!.]+|\s[-–—]+)\s*|(?:so|also|and|but|plus|oh|fyi|btw|fwiw"
    r"|ps|omg|wow|lol|haha|yay)\s+)+",
    _I,
)
_HEDGE_PREFIX_RE = re.compile(
    r"^(?:i\s+think|i\s+believe|i\s+guess|i\s+suppose|i\s+assume|i'm\s+(?:pretty|fairly"
    r"|almost)\s+sure|maybe|perhaps|probably|possibly|apparently|presumably|supposedly"
    r"|it\s+seems(?:\s+like)?|seems\s+like|i\s+heard|rumou?r\s+(?:is|has\s+it)|iirc|afaik"
    r"|if\s+i\s+remember\s+(?:correctly|right)|as\s+far\s+as\s+i\s+know|likely)\b,?\s*"
    r"(?:that\s+)?",
    _I,
)
_HEDGE_WORD_RE = re.compile(
    r",?\s*\b(?:probably|maybe|perhaps|possibly|likely|apparently|supposedly|presumably"
    r"|i\s+think|i\s+believe|i\s+guess)\b,?",
    _I,
)
_REPORTED_RE = re.compile(
    rf"^(?P<who>{NAME})\s+(?:said|says|mentioned|told\s+(?:me|us)|thinks|claims)"
    r"(?:\s+that)?,?\s+",
)
_NOT_A_STATEMENT_RE = re.compile(
    r"^(?:what|who|whom|whose|when|where|why|how|which|do|does|did|can|could|would|should"
    # ("Had my birthday at the weekend, 30 now" asks nothing: chat drops the "I")
    r"|is|are|am|was|were|have|has|had(?!\s+my\s+(?:birthday|bday)\b)|shall|might|if"
    r"|unless|whether|suppose|supposing|assuming|imagine|in\s+case|let's\s+say|what\s+if"
    r"|tell|remind|show|help|explain|summari[sz]e|draft|give|list|find|let\s+me\s+know)\b"
    r"|\b(?:not\s+sure|don't\s+know|do\s+not\s+know|no\s+idea|unclear|undecided|tbd"
    r"|to\s+be\s+decided|hypothetically|for\s+example|e\.g\.|such\s+as)\b",
    _I,
)
_SPLIT_RE = re.compile(
    r"(\s*;\s*|,\s*(?:and|but|while|whereas|plus)\s+|\s+(?:and|but)\s+(?=[A-Z])"
    r"|(?:,\s*|\s+[-–—]+\s+|\s+(?:and|but|because|since|so|as|though|although|while|before"
    r"|after|until|once)\s+)"
    r"(?=(?i:i|my|i'm|i've|we|we're|our)\b)"
    # "..., he's a nurse in Toronto": a pronoun starts a clause about the person just named
    r"|(?:,\s*|\s+and\s+)(?=(?i:he|she)(?:'s|\s)|(?i:his|her)\s+name\s)"
    # "...called biscuit hes nine": typed without the apostrophe or a comma, "hes" still
    # starts a clause, as no other word is spelled so
    r"|\s+(?=(?-i:hes|shes)\s)"
    # "Divorced, two kids - they're with me every other weekend", "Mum of three - Zoe is 9"
    r"|\s+[-–—]+\s+(?=(?i:they|he|she|it|that|this)(?:'s|'re|\s)|[A-Z][\w'-]+\s+(?:is|was|has)\s)"
    # "My English is not perfect, Polish is my native language"
    r"|,\s*(?=[A-Z]\w+\s+is\s+(?i:my|our)\s)"
    # "We have two daughters, Zuzia is 7 and Ola is 4": each named child's age
    r"|,\s*(?=[A-Z]\w+\s+is\s+\d{1,2}(?:\s+(?i:years?\s+old|months?\s+old))?(?:\s+and\s|[.!]*$))"
    # "I can't stand coriander, it tastes like soap to me": what it is like, said after
    r"|,\s*(?=(?i:it|they)\s+(?:tastes?|smells?|looks?|sounds?|feels?)\s)"
    # "We lived in Swindon, then moved to Devizes", "..., before that I was at Aviva": what
    # came next or before is news of its own
    r"|,\s*(?=(?i:then|and\s+then|before\s+that)\s)"
    # "My brother is out now, works security at the airport": the subject goes unsaid, and
    # the piece is read as the sentence's opener's, or joined back
    r"|,\s*(?=(?i:works|lives)\s)"
    # "I'm burnt out, thinking of taking August off", "camry got totaled, driving my wifes
    # old civic": the "I'm" goes unsaid
    r"|,\s*(?=(?i:thinking|planning|hoping|saving|training|driving)\s)"
    # "We're moving to Bristol, Femke's got a job at the BBC there": someone's own news
    r"|,\s*(?=[A-Z][\w'-]+(?:'s|\s+has)?\s+(?:just\s+)?got\s+(?i:a|an|the|into)\s)"
    # "She had the baby last week, a little girl called Rose": the newborn, named after
    r"|,\s*(?=(?i:a|our)\s+(?i:little\s+|baby\s+)?(?i:boy|girl)\s+(?i:called|named)\s)"
    # "I'm having an art show next month - can't wait!": the feeling is no denial of the news
    r"|(?:\s+[-–—]+\s+|,\s*)(?=(?i:can't\s+wait|cannot\s+wait|so\s+excited|fingers\s+crossed"
    r"|wish\s+me\s+luck)\b)"
    # "I have ADHD so please keep things short": a request after the reason for it
    r"|(?:,\s*|\s+)(?:(?i:so|and))\s+(?=(?i:please)\s))",
)
# In a first-person sentence any "and" may start a clause whose subject it leaves out:
# "I sold my Volvo and bought a Tesla". Pieces that read as nothing are joined back.
_AND_RE = re.compile(r"(\s+(?:and|but)\s+(?:then\s+|also\s+|now\s+)?)", _I)
_FIRST_PERSON_RE = re.compile(r"\b(?:i|i'm|me|my|we|our)\b", _I)
_I_AM_RE = re.compile(r"^(?:i'm|im|i\s+am)\b", _I)
_NAME_AND_I_RE = re.compile(
    r"^(?:(?:my|our)\s+[\w-]+\s+)?(?-i:[A-Z])[\w'-]+\s+and\s+i\s"
    r"|^me\s+and\s+(?:my|our)\s+[\w-]+(?:\s+(?-i:[A-Z])[\w'-]+)?\s",
    _I,
)
_I_LEAD_RE = re.compile(r"^(?:i|i'm|im|i've|ive)\b", _I)
_MY_LEAD_RE = re.compile(r"^(?:my|our)\b", _I)
_WE_LEAD_RE = re.compile(r"^(?:we|we've)\s+(?!are\b|were\b)", _I)
_PAIR_RE = re.compile(
    r"^(?P<neg>[^,;]*?\b(?:not|isn't|aren't|wasn't|doesn't|don't|no\s+longer)\b[^,;]*?)\s*"
    r"(?:[,;]|\s+but\s+|\s+[-–—]+\s+)\s*(?:but\s+|rather\s+|instead\s+|actually\s+)*"
    r"(?P<pos>[^,;]+?)$",
    _I,
)
_TRAILING_NOT_RE = re.compile(
    r"^(?P<head>.+?)(?:,\s*|\s+)(?:and\s+|but\s+)?(?P<how>not|rather\s+than|instead\s+of)\s+"
    r"(?P<neg>(?!(?:yet|sure|really|now|only|just|always|too|so|that|this|it)\b)[^,;]+?)$",
    _I,
)
_LEADING_NOT_RE = re.compile(
    rf"^(?P<a>{NAME}),?\s+not\s+(?P<b>{NAME}),?\s+(?P<rest>.+)$",
)
_APPOSITIVE_RE = re.compile(
    r"^(?P<person>[A-Z][\w'-]*(?:\s+[A-Z][\w'-]*)?),\s+(?:the|our)\s+(?P<title>[^,]+),\s*"
    r"(?P<rest>.+)$"
)
_PRONOUN_RE = re.compile(r"^(?:he|she)\b", _I)
# "hes nine", typed without the apostrophe: the person just named "is" nine
_PRONOUN_IS_RE = re.compile(r"^(?-i:hes|shes)\b")
_POS_PRONOUN_RE = re.compile(r"^(?:it|that|this)(?:'s|\s+is|\s+was)\s+(?P<np>.+)$", _I)
_END_PUNCT = " .!;:,\"'"
# Personal facts first ("I prefer vim as my editor" is a tool, not a taste), facts about
# a named person last ("Raj is the Lead Architect" stays a role).
_RULES = (*personal.RULES, *rules.RULES, *personal.LATE_RULES)
_NEGATION_RULES = (*personal.NEGATION_AWARE, *rules.NEGATION_AWARE, *personal.LATE_NEGATION_AWARE)
# A change marker: the statement it denies stops being true, in its own slot.
_CHANGED_RE = re.compile(r"\b(?:no\s+longer|anymore|any\s+more|any\s+longer)\b", _I)
# Sarcasm undoes what it is attached to: "I love Mondays /s", "Best job ever. Not!"
_SARCASM_RE = re.compile(
    r"(?:\byeah,?\s+right\b|(?:^|\s)/s\b|\bnot!|\bjk\b|\bjust\s+kidding\b|\bkidding\b"
    r"|\bas\s+if\b|\blol\s+no\b|\bsarcasm\b|🙄)",
    _I,
)
_SARCASM_ONLY_RE = re.compile(
    r"^\W*(?:not|jk|/s|just\s+kidding|kidding|lol|yeah\s+right|as\s+if|🙄)(?:\W|lol)*$", _I
)


@dataclass
class _Side:
    """What one side of a turn carries from sentence to sentence."""

    base: Clause
    last_person: str | None = None
    pending_correction: bool = False
    facts: list[ExtractedFact] = field(default_factory=list)
    voice: str = ""
    """Whose word the facts are, when not the clause's speaker: the assistant's, for what
    it tells the user about themself."""


@dataclass(frozen=True)
class _Tone:
    correction: bool = False
    hedge: str = ""
    """'' for a plain statement, 'hedged' or 'reported'."""


def _confidence(speaker: str, tone: _Tone) -> float:
    if speaker != "user":
        return 0.4 if tone.hedge else 0.55
    if tone.hedge:
        return 0.7 if tone.hedge == "reported" else 0.65
    return 1.0 if tone.correction else 0.95


def _fact(
    side: _Side, parsed: Parsed, tone: _Tone, retracts: tuple[SlotRef, ...] = ()
) -> ExtractedFact:
    speaker = side.voice or side.base.speaker
    user = speaker == "user"
    if parsed.person:
        side.last_person = parsed.person
    return ExtractedFact(
        text=parsed.text[:1].upper() + parsed.text[1:],
        category=parsed.category,
        subject=parsed.subject,
        slot=parsed.slot,
        value=parsed.value,
        confidence=_confidence(speaker, tone),
        is_correction=tone.correction and user,
        retracts=tuple(r for r in retracts if r != _ref(parsed)),
    )


def _facts(
    side: _Side, parsed: Parsed, tone: _Tone, retracts: tuple[SlotRef, ...] = ()
) -> list[ExtractedFact]:
    """`parsed` and the facts that ride with it ("my wife Sara": the wife, then Sara's)."""
    return [_fact(side, parsed, tone, retracts), *(_fact(side, p, tone) for p in parsed.also)]


def _ref(parsed: Parsed) -> SlotRef:
    return SlotRef(subject=parsed.subject, slot=parsed.slot, value=parsed.value)


def _parse(side: _Side, text: str, negation_ok: bool = False) -> Parsed | None:
    text = text.strip(_END_PUNCT)
    if not text:
        return None
    if side.last_person:
        text = _PRONOUN_RE.sub(side.last_person, _PRONOUN_IS_RE.sub("he is", text))
    base = side.base
    clause = replace(base, text=text)
    if NEGATION_RE.search(text) and not negation_ok:
        return rules.parse(clause, _NEGATION_RULES)
    return rules.parse(clause, _RULES)


def _positive(text: str) -> str:
    """The statement a negation denies: "Priya doesn't handle QA" -> "Priya handles QA"."""
    text = re.sub(r"\s*\b(?:anymore|any\s+more|any\s+longer)\b", "", text, flags=_I)
    # After a modal the verb keeps its base form: "I'll never forget" -> "I'll forget".
    text = re.sub(
        r"(\b(?:will|would|can|could|should|must)|'ll|'d)\s+never\b", r"\1", text, flags=_I
    )
    text = re.sub(r"\b(is|are|was|were)\s+(?:not|no\s+longer|never)\b", r"\1", text, flags=_I)
    text = re.sub(r"\b(is|are|was|were)n't\b", r"\1", text, flags=_I)
    text = re.sub(r"('s|'re|'m)\s+(?:not|no\s+longer)\b", r"\1", text, flags=_I)
    text = re.sub(
        r"\b(?:does\s+not|doesn't|do\s+not|don't|did\s+not|didn't|never)\s+(\w+)",
        lambda m: _third_person(m[1]),
        text,
        flags=_I,
    )
    return re.sub(r"\bno\s+longer\s+", "", text, flags=_I)


def _third_person(verb: str) -> str:
    if re.search(r"(?:s|sh|ch|x|z|o)$", verb):
        return verb + "es"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    return verb + "s"


def _denial(side: _Side, text: str, tone: _Tone) -> list[ExtractedFact]:
    """A bare denial ("Raj is not the PM") retracts the statement it negates."""
    denied = _parse(side, _positive(text), negation_ok=True)
    if denied is None:
        return []
    changed = _CHANGED_RE.search(text)
    if denied.category is FactCategory.PLAN and not changed:
        return []  # "I don't want to move to Denver" denies nothing that was said
    if denied.denied_text and changed:
        # "I'm no longer vegetarian": the diet slot now says so, and the old diet is history.
        note = replace(denied, value=f"not {denied.value}", text=denied.denied_text, also=())
        return [_fact(side, note, _Tone(True, tone.hedge), (_ref(denied),))]
    # "We're not blocked on X anymore" is news about status, not a new blocker.
    category = FactCategory.STATUS if denied.category is FactCategory.BLOCKER else denied.category
    note = Parsed(
        category,
        denied.subject,
        f"{denied.slot}:not:{denied.value}",
        denied.value,
        _no_longer_text(denied, text),
    )
    return [_fact(side, note, _Tone(True, tone.hedge), (_ref(denied),))]


def _no_longer_text(denied: Parsed, text: str) -> str:
    """A denial's own words, unless they speak in the first person ("I don't live in
    Berlin"): then the denied fact's words, negated."""
    if denied.denied_text and _FIRST_PERSON_RE.search(text):
        return f"It is not true that {denied.text[:1].lower()}{denied.text[1:]}"
    return sentence_case(text.strip(_END_PUNCT))


def _replacement(side: _Side, denied: Parsed, pos: str) -> Parsed | None:
    """What the second half of "X is not Y, it's Z" asserts, given the denied statement."""
    if denied.person and _PRONOUN_RE.match(pos):
        pos = _PRONOUN_RE.sub(denied.person, pos)
    if (bare := _POS_PRONOUN_RE.match(pos)) and denied.rebuild:
        return denied.rebuild(bare["np"].strip(_END_PUNCT))
    if (found := _parse(side, pos)) is not None:
        return found
    if denied.slot == "employer" and (now_at := _NOW_AT_RE.match(pos)):
        return _parse(side, f"I work at {now_at['where']}")  # "..., I'm at a bookshop now"
    if denied.rebuild and len(pos.split()) <= 4 and not _CLAUSE_VERB_RE.search(pos):
        return denied.rebuild(pos.strip(_END_PUNCT))
    return None


# "I'm not allergic to penicillin - the test was negative": a clause of its own says why,
# it is no new value.
_CLAUSE_VERB_RE = re.compile(r"\b(?:is|was|are|were|has|had|have|did|does|came|went|said)\b", _I)


def _pair(side: _Side, sentence: str, tone: _Tone) -> list[ExtractedFact] | None:
    """ "X is not Y, X is Z" and "X isn't Y, it's Z": a correction with a retraction."""
    match = _PAIR_RE.match(sentence.strip(_END_PUNCT))
    if not match:
        return None
    denied = _parse(side, _positive(match["neg"]), negation_ok=True)
    if denied is None:
        return _restated(side, match["neg"], match["pos"], tone)
    found = _replacement(side, denied, match["pos"].strip(_END_PUNCT))
    if found is None:
        return _denial(side, match["neg"], tone)
    if found.slot == EATS_AGAIN_SLOT:  # "I'm no longer vegan, I eat fish again": no new diet
        return [*_denial(side, match["neg"], tone), *_facts(side, found, tone)]
    return _facts(side, found, _Tone(True, tone.hedge), (_ref(denied),))


def _restated(side: _Side, neg: str, pos: str, tone: _Tone) -> list[ExtractedFact] | None:
    """ "Priya is not on frontend; Priya handles backend": the denial reads as no fact, but
    the same subject's new statement is still a correction."""
    found = _parse(side, pos)
    same = neg.split()[:1] == pos.split()[:1] or bool(_PRONOUN_RE.match(pos))
    return _facts(side, found, _Tone(True, tone.hedge)) if found and same else None


def _clauses(side: _Side, sentence: str) -> list[str]:
    """`sentence` cut at 'and'/'but'/';' where the piece after the cut stands on its own."""
    if appositive := _APPOSITIVE_RE.match(sentence):
        person = appositive["person"]
        first = f"{person} is the {appositive['title']}"
        return [first, *_clauses(side, f"{person} {appositive['rest']}")]
    first_person = bool(_I_LEAD_RE.match(sentence) or _WE_LEAD_RE.match(sentence))
    pieces = _pieces(sentence, first_person)
    out = [pieces[0]]
    for separator, piece in zip(pieces[1::2], pieces[2::2], strict=True):
        if elided := _with_named_subject(side, out[-1], piece):
            out.append(elided)  # "My daughter Isla is 10 and autistic": Isla's, not mine
        elif _parse(side, piece, negation_ok=True) is not None:
            out.append(piece)
        elif renamed := _with_named_pronoun(side, out[-1], piece):
            out.append(renamed)  # "Theo is excited, he's 4": Theo is 4
        elif _PRONOUN_RE.match(piece) or _PRONOUN_IS_RE.match(piece):
            out.append(piece)  # its "he" is the person the clauses before it name
        elif first_person and (elided := _with_subject(side, sentence, piece)):
            out.append(elided)  # "I live in Berlin and work at Acme"
        elif elided := _with_relative(side, sentence, piece):
            out.append(elided)  # "My mum has dementia and lives in a care home"
        elif _NOW_AT_RE.match(piece.strip(_END_PUNCT)):
            out.append(piece)  # "I left Shopify, I'm with Stripe now": read after what was left
        elif _reads_better_alone(side, out[-1], out[-1] + separator + piece):
            continue  # "My son Leo is 6 and obsessed with dinosaurs": the rest reads as nothing
        else:
            out[-1] += separator + piece
    return out


def _pieces(sentence: str, first_person: bool) -> list[str]:
    """`sentence` cut where a clause may start, each cut followed by its separator."""
    # "Priya and I got engaged": the two are one subject, not two clauses.
    together = _NAME_AND_I_RE.match(sentence)
    held = together.end() if together else 0
    pieces = _companions_kept(_SPLIT_RE.split(sentence[held:]))
    pieces[0] = sentence[:held] + pieces[0]
    if not (first_person or _MY_LEAD_RE.match(sentence)):
        return pieces
    return [
        part
        for n, piece in enumerate(pieces)
        for part in (_companions_kept(_AND_RE.split(piece)) if n % 2 == 0 else [piece])
    ]


# "I live with my wife and my two kids in Leeds": whom one lives with is one list.
_WITH_MY_END_RE = re.compile(r"\bwith\s+(?:my|our)\s+[\w-]+(?:\s+[\w-]+)?$", _I)
_COMPANION_RE = re.compile(
    r"^(?:my|our)\s+(?:(?:two|three|four|five|\d+|little|baby|elderly|new)\s+)?"
    rf"(?:{RELATION_RE})s?(?:\s+(?:in|near|outside)\s+.+)?$",
    _I,
)


def _companions_kept(parts: list[str]) -> list[str]:
    """Pieces and their separators, as a split gave them, with "with my wife" and "and my
    two kids" joined again."""
    out = parts[:1]
    for separator, part in zip(parts[1::2], parts[2::2], strict=True):
        listed = separator.strip().lower() == "and"
        if listed and _WITH_MY_END_RE.search(out[-1]) and _COMPANION_RE.match(part):
            out[-1] += separator + part
        else:
            out += [separator, part]
    return out


def _reads_better_alone(side: _Side, head: str, joined: str) -> bool:
    """Whether `head` says more without the piece after it than with it."""
    alone = _parse(side, head, negation_ok=True)
    if alone is None:
        return False
    if NEGATION_RE.search(joined) and not NEGATION_RE.search(head):
        return True  # "Yui is from Osaka, and her parents don't speak English"
    together = _parse(side, joined, negation_ok=True)
    return together is None or len(together.also) < len(alone.also)


def _with_subject(side: _Side, sentence: str, piece: str) -> str | None:
    """`piece` with the 'I' (or "I'm", or "we") its first-person sentence left out, if it
    then reads. Only a lowercase start can be such a piece: "and English" is a list's end."""
    if not piece[:1].islower():
        return None
    subjects = ("I", "I'm") if _I_AM_RE.match(sentence) else ("I",)
    if _WE_LEAD_RE.match(sentence):
        subjects = ("We",)  # "We sold the flat and bought a house in Margate"
    for subject in subjects:
        if _parse(side, f"{subject} {piece}", negation_ok=True) is not None:
            return f"{subject} {piece}"
    return None


_RELATIVE_LEAD_RE = re.compile(
    rf"^(?P<who>(?:my|our)\s+(?:[\w-]+\s+)?(?:{RELATION_RE})(?:\s+(?-i:[A-Z])[\w'-]+)?)\s", _I
)


def _with_relative(side: _Side, sentence: str, piece: str) -> str | None:
    """`piece` said of the relative its sentence opened with, if it then reads as a fact:
    "My mum has dementia and lives in a care home in Swindon"."""
    relative = _RELATIVE_LEAD_RE.match(sentence)
    if relative is None or not _OWN_VERB_RE.match(piece):
        return None
    elided = f"{relative['who']} {piece}"
    return elided if _parse(side, elided) is not None else None


_OWN_VERB_RE = re.compile(r"^(?:has|had|lives|works|speaks|plays|loves|takes|goes|gets)\b", _I)
_NAMED_IS_RE = re.compile(
    r"^(?:(?:my|our)\s+(?:[\w-]+\s+){1,2})?(?P<who>(?-i:[A-Z])[\w'-]+)\s+is\s", _I
)


def _with_named_subject(side: _Side, head: str, piece: str) -> str | None:
    """`piece` said of the person whose "is" the clause before it opened with, if it
    then reads as a fact of its own: "... Isla is 10 and autistic"."""
    named = _NAMED_IS_RE.match(head)
    if named is None or not piece[:1].islower():
        return None
    # "Bailey is 11 and has arthritis": a verb of its own needs no "is"
    elided = f"{named['who']} {'' if _OWN_VERB_RE.match(piece) else 'is '}{piece}"
    found = _parse(side, elided)
    return elided if found is not None and found.subject != "user" else None


_HE_IS_RE = re.compile(
    r"^(?:he|she)(?:(?P<has>'s(?=\s+(?:been|got|gotten|had|\w+ed)\b))|(?P<is>'s|\s+is))?\b", _I
)


# "Dad packed in the post round, he ...": a parent needs no "my", as elsewhere.
_MY_SOMEONE_RE = re.compile(
    r"^(?:(?P<who>(?:my|our)\s+[\w-]+(?:\s+(?-i:[A-Z])[\w'-]+)?)|(?P<parent>mum|mom|dad|mam)"
    r"(?:'s)?)\s+(?!is\b)\w",
    _I,
)


def _with_named_pronoun(side: _Side, head: str, piece: str) -> str | None:
    """`piece` with its opening "he" said of the person the clause before it opened with,
    if it then reads as their fact: "Theo is excited, he's 4", "My husband handles the
    books, he's an accountant", "Carlos is good, he just retired"."""
    if not _HE_IS_RE.match(piece):
        return None
    if named := _NAMED_IS_RE.match(head) or _MY_SOMEONE_RE.match(head):
        who = named["who"] or f"my {named['parent']}"
    else:  # "Married to Ana, she's a dentist": the person the clause named
        said = _parse(side, head)
        who = said.person if said else None
    if who is None:
        return None
    verb = _HE_IS_RE.match(piece)
    said_as = " has" if verb and verb["has"] else " is" if verb and verb["is"] else ""
    renamed = _HE_IS_RE.sub(f"{who}{said_as}", piece, count=1)
    found = _parse(side, renamed)
    return renamed if found is not None and found.subject != "user" else None


# "I left Shopify in August. I'm with Stripe now": after a job is left, where the person
# now is names the next employer ("he left Amazon, he's at Microsoft now"); after a
# break-up, whom the speaker is with names the partner.
_NOW_AT_RE = re.compile(
    r"^(?P<who>i'm|i\s+am|he's|she's|he\s+is|she\s+is)\s+(?:now\s+)?(?P<how>at|with)\s+"
    r"(?P<where>.+?)(?:\s+now)?$",
    _I,
)
_PARTED = ("divorced", "separated", "single")
_EX_SLOTS = ("ex-partner", "ex-spouse")


def _after_leaving(earlier: list[ExtractedFact], text: str) -> str:
    if (now_at := _NOW_AT_RE.match(text)) is None:
        return text
    mine = now_at["who"][:1].lower() == "i"
    left = {
        f.subject
        for f in earlier
        if f.slot == "employer" and f.value.startswith("not ") and (f.subject == "user") == mine
    }
    if len(left) == 1:
        who = "I work" if mine else f"{_as_said(left.pop())} works"
        return f"{who} at {now_at['where']}"
    parted = any(
        f.slot == "marital status" and f.value in _PARTED or f.slot in _EX_SLOTS for f in earlier
    )
    if mine and parted and now_at["how"].lower() == "with" and rules.is_name(now_at["where"]):
        return f"I'm dating {now_at['where']}"
    return text


# "I got a new job, I'm at Aldi now": where the speaker is after the news employs them.
_NEW_JOB_AT_RE = re.compile(
    r"(?P<news>\b(?:got|have|found|started|landed)\s+a\s+new\s+job\s*[,;:—–.!-]+\s*)"
    r"(?:i'm|i\s+am)\s+(?:now\s+)?(?=(?:at|with)\s)",
    _I,
)


def _as_said(subject: str) -> str:
    """A subject key as the speaker would say it: "user's brother" is "My brother"."""
    owner, _, relation = subject.partition("'s ")
    return f"My {relation}" if owner == "user" and relation else subject.title()


def _clause_facts(
    side: _Side, text: str, tone: _Tone, before: list[ExtractedFact]
) -> list[ExtractedFact]:
    """The facts of one clause; `before` holds those of the sentence's earlier clauses."""
    said = text.strip(_END_PUNCT)
    text = _after_leaving([*side.facts, *before], said)
    if text != said:
        tone = _Tone(True, tone.hedge)  # the new employer is the correction's point
    match = _LEADING_NOT_RE.match(text)
    if match and rules.is_name(match["a"]) and rules.is_name(match["b"]):
        found = _parse(side, f"{match['a']} {match['rest']}")
        other = found.rebuild(match["b"]) if found and found.rebuild else None
        if found:
            return _facts(side, found, _Tone(True, tone.hedge), (_ref(other),) if other else ())
    if (match := _TRAILING_NOT_RE.match(text)) and (head := _parse(side, match["head"])):
        other = head.rebuild(match["neg"]) if head.rebuild else None
        refs = (_ref(other),) if other else ()
        corrected = tone.correction or match["how"].lower() == "not"
        return _facts(side, head, _Tone(corrected, tone.hedge), refs)
    if (found := _parse(side, text)) is not None:
        return _facts(side, found, tone)
    if NEGATION_RE.search(_CONTRAST_TAIL_RE.sub("", text)):
        return _denial(side, text, tone)
    return []


# ", not 2019" or ", not especially well" set off by commas contrasts a word of the clause
# before: the clause itself is not denied ("Geoffrey died in 2018, not 2019").
_CONTRAST_TAIL_RE = re.compile(r",\s*(?:and\s+|but\s+)?not\b[^,;]*(?=[,;]|$)", _I)


# "About the CI pipeline: we are blocked on ..." names a topic, not the subject.
_TOPIC_LEAD_RE = re.compile(r"^(?:about|re|regarding|as\s+for|on)\s+[^:]{1,60}:\s*", _I)


def _tone_and_text(side: _Side, sentence: str) -> tuple[_Tone, str]:
    """The sentence without its lead-in words, and what those words said about it."""
    text = _INTERJECTION_RE.sub("", _TOPIC_LEAD_RE.sub("", sentence))
    marked = _CORRECTION_RE.match(text)
    correction = bool(marked and marked.group(0).strip()) or side.pending_correction
    text = _CORRECTION_RE.sub("", text)
    text = re.sub(r"\s+actually\b,?", "", _INTERJECTION_RE.sub("", text), flags=_I)
    if re.search(r"\bactually\b", sentence, _I):
        correction = True
    hedge = ""
    # "doc says its a herniated disc" is the speaker's diagnosis, not the doctor's saying
    if (reported := _REPORTED_RE.match(text)) and not personal.told_diagnosis(text):
        hedge, text = "reported", text[reported.end() :]
    if _HEDGE_PREFIX_RE.match(text) or _HEDGE_WORD_RE.search(text):
        hedge = hedge or "hedged"
        text = _HEDGE_WORD_RE.sub("", _HEDGE_PREFIX_RE.sub("", text))
    return _Tone(correction, hedge), text.strip()


# Chat leaves out the "I" of a taste: "Can't stand cilantro", "Really love sushi". Not
# before a bare "Love": "Love the colors!" praises, and "Love and acceptance..." is a noun.
_DROPPED_I_RE = re.compile(
    r"^(?=(?:can't\s+stand|cannot\s+stand|can't\s+eat|really\s+(?:love|hate|like|dislike))\s)",
    _I,
)
# "First some context: I'm 58 and married": what follows a colon is read on its own,
# unless what precedes it is a label ("Decision: we ship"), which the rules read with it.
_COLON_RE = re.compile(r":\s+(?=(?:i|i'm|i've|my|we|we're|our)\b)", _I)
_LABEL_WORDS = 3
# "I'm a night-shift nurse, any tips?": people state a fact on the way to a question. The
# statement ends where the question begins: at a dash, a semicolon, a "so", or a comma
# before a question word.
_QUESTION_START_RE = re.compile(
    r"\s+[-–—]+\s+|\s*;\s*|,?\s+so\s+|,\s*(?=(?:what|how|which|any|anything|can|could"
    r"|would|should|do|does|did|is|are|where|when|who|why|will|ideas?|tips?|thoughts?"
    r"|suggestions?|recommendations?|advice)\b)",
    _I,
)
_STATED_BY_ME_RE = re.compile(r"^(?:\W*\w+\W+){0,3}?(?:i|i'm|im|i've|my|we|we're|our)\b", _I)
# "As a vegetarian, what should I cook?" and "As a diabetic I have to..." say who is asking;
# "As a kid, I..." is the past.
_AS_A_RE = re.compile(
    r"^as\s+(?:a|an)\s+(?!(?:kid|child|teen|teenager|boy|girl|baby|youngster|result|rule"
    r"|matter|whole|reminder|side\s+note|heads\s+up|bonus|treat|joke|favou?r|test|start"
    r"|first\s+step|starting\s+point|compromise|backup|fallback)\b)(?P<np>[^,?]{2,40}?)"
    r"(?:,\s*|\s+(?=(?:i|i'm|i've|my|we|we're|our)\s))",
    _I,
)

# "My daughter (she's 4) won't sleep": an age in brackets is a statement of its own.
_BRACKETED_AGE_RE = re.compile(
    r"(?P<np>\b(?:my|our)\s+(?:[\w-]+\s+){0,2}?[\w-]+)\s*\(\s*(?:(?:he|she)(?:'s|\s+is)\s+"
    r"|aged?\s+)?(?P<age>\d{1,2})(?:\s*(?:yo|y/o|years?\s+old|now))?\s*\)",
    _I,
)

# "We live in Leeds, so anywhere near is fine": a consequence is read on its own, since
# joined to the statement before it, it would spoil that statement's value.
# Without a comma, "so" leads a consequence only where a new subject follows: "I'm in Toronto
# so EST is fine", but not "I'm so tired".
_CONSEQUENCE_RE = re.compile(
    r",\s*(?:so|because|since|which\s+means|meaning)\s+"
    r"|\s+so\s+(?=(?:i|we|you|it|that|this|they|he|she|my|our|the|any|anything)\b|(?-i:[A-Z]))"
    # "We're a gluten-free household because Max has coeliac": a cause with its own subject.
    r"|\s+because\s+(?=(?:i|we|he|she|they|my|our)\b|(?-i:[A-Z])[\w'-]+\s+(?:is|has|was|had)\b)",
    _I,
)


# "I'm Muslim, so no pork or alcohol": foods refused without the "I", as what follows from
# what was just said; "No coffee for me" alone may decline one cup.
_NO_FOOD_RE = re.compile(
    rf"^no\s+(?=(?:{FOODS_TO_AVOID})(?:\s*(?:,|or|and)\s*(?:{FOODS_TO_AVOID}))*"
    r"(?:\s+for\s+me)?\s*[.!]*$)",
    _I,
)


def _refusal(part: str) -> str:
    return _NO_FOOD_RE.sub("I avoid ", part.strip(), count=1)


# "Did I tell you I'm learning Japanese?": news asked as a question.
_TOLD_YOU_RE = re.compile(
    r"^(?:did\s+i\s+(?:tell|mention\s+to)\s+you|did\s+i\s+mention|have\s+i\s+(?:told\s+you"
    r"|mentioned)|did\s+you\s+(?:know|hear))\s+(?:that\s+)?(?=(?:i|i'm|i've|my|we|we're|our)\b)"
    r"(?P<news>[^?]+)\?+$",
    _I,
)


def _stated_part(sentence: str) -> str | None:
    """The statement a sentence makes before it asks its question, if it makes one."""
    if "?" not in sentence:
        return sentence
    if told := _TOLD_YOU_RE.match(sentence.strip()):
        return told["news"]
    lead = _QUESTION_START_RE.split(sentence, maxsplit=1)[0]
    if "?" in lead or not _STATED_BY_ME_RE.match(lead):
        return None
    return lead


def _sentence_facts(side: _Side, sentence: str) -> list[ExtractedFact]:
    if len(sentence) > _MAX_SENTENCE_CHARS:
        side.pending_correction = False
        return []
    if as_a := _AS_A_RE.match(sentence):
        rest = sentence[as_a.end() :]
        asker = _sentence_facts(side, f"I'm a {as_a['np']}.")
        return asker + _sentence_facts(side, rest[:1].upper() + rest[1:])
    if aged := _BRACKETED_AGE_RE.search(sentence):
        rest = sentence[: aged.end("np")] + sentence[aged.end() :]
        return _sentence_facts(side, f"{aged['np']} is {aged['age']}.") + _sentence_facts(
            side, rest
        )
    if (stated := _stated_part(sentence)) is None:
        side.pending_correction = False
        return []
    parts = _COLON_RE.split(stated, maxsplit=1)
    if len(parts) == 2 and len(parts[0].split()) > _LABEL_WORDS:
        return _sentence_facts(side, parts[0]) + _sentence_facts(side, parts[1])
    # "Quick note: I hate coriander": a short label before "I" says nothing; "Decision: we..." does
    sentence = parts[1] if len(parts) == 2 and _I_LEAD_RE.match(parts[1]) else stated
    if _DENIAL_ONLY_RE.match(sentence.strip()):
        side.pending_correction = True  # "No." then the right statement
        return []
    tone, text = _tone_and_text(side, sentence)
    side.pending_correction = False
    if side.base.speaker == "user" and _DROPPED_I_RE.match(text):
        text = f"I {text[:1].lower()}{text[1:]}"
    if not text or _NOT_A_STATEMENT_RE.search(text):
        return []
    if (paired := _pair(side, text, tone)) is not None:
        return paired
    found: list[ExtractedFact] = []
    for n, part in enumerate(_CONSEQUENCE_RE.split(text.strip(_END_PUNCT))):
        for clause in _clauses(side, _refusal(part) if n else part):
            found += _clause_facts(side, clause, tone, found)
    return found


def _base(turn: TurnInput, speaker: str, me: str | None) -> Clause:
    """What every clause of one side shares. Only a project stream's id names a subject:
    "The launch is on May 3." in chat:8812 is about no "8812"."""
    subject = project_subject(turn.stream) or "global"
    shown = "" if subject == "global" else subject[:1].upper() + subject[1:]
    return Clause("", turn.at, subject, shown, speaker, me)


def _side_facts(base: Clause, text: str) -> list[ExtractedFact]:
    side = _Side(base)
    heard = _Side(replace(base, speaker="user"), voice="assistant")
    previous: list[ExtractedFact] = []
    before = ""
    for said in sentences(text):
        sentence = personal.resolve_things(said, before)
        before = f"{before} {said}"[-_MAX_SENTENCE_CHARS:]
        if _SARCASM_ONLY_RE.match(sentence):
            side.facts = [f for f in side.facts if f not in previous]
            continue
        told = in_users_words(sentence) if base.speaker == "assistant" else None
        if _SARCASM_RE.search(sentence):
            previous = []
        else:
            previous = _sentence_facts(heard, told) if told else _sentence_facts(side, sentence)
        side.facts.extend(previous)
    return side.facts


# The assistant's "You live in Denver" is a claim about the user, so it is read in the
# user's words ("I live in Denver") and believed as the assistant's word.
_TOLD_RE = re.compile(
    r"^(?:as\s+)?you\s+(?:mentioned|said|told\s+me|noted|shared|wrote)(?:\s+(?:before|earlier"
    r"|once))?(?:\s+that)?,?\s+",
    _I,
)
_SECOND_PERSON = (
    (re.compile(r"\byou're\b", _I), "I'm"),
    (re.compile(r"\byou\s+are\b", _I), "I am"),
    (re.compile(r"\byou've\b", _I), "I've"),
    (re.compile(r"\byou\s+were\b", _I), "I was"),
    (re.compile(r"\byourself\b", _I), "myself"),
    (re.compile(r"\byours\b", _I), "mine"),
    (re.compile(r"\byour\b", _I), "my"),
    (re.compile(r"\byou\b", _I), "I"),
)


def in_users_words(sentence: str) -> str | None:
    """A sentence that tells the user about themself, said as the user would say it."""
    told = _TOLD_RE.match(sentence)
    rest = sentence[told.end() :] if told else sentence
    if not told and not re.match(r"(?:you|you're|you've|your)\b", rest, _I):
        return None
    for pattern, mine in _SECOND_PERSON:
        rest = pattern.sub(mine, rest)
    return rest[:1].upper() + rest[1:]


def _sides(turn: TurnInput) -> tuple[Clause, Clause]:
    """The user side speaks as its speaker (or the user). A named assistant side is a
    person in a group chat, who speaks for themself; an unnamed one is the assistant."""
    user = _base(turn, "user", _speaker_name(turn.speaker))
    named = _speaker_name(turn.assistant_speaker)
    assistant = _base(turn, "user" if named else "assistant", named)
    if named:  # two people talking: each one's "you" is the other
        user = replace(user, you=named)
        assistant = replace(assistant, you=_speaker_name(turn.speaker))
    elif answered := _answered_person(turn):
        user = replace(user, you=answered)
    return user, assistant


_TO_THE_ASSISTANT_RE = re.compile(r"\b(?:assistant|bot|chatbot)\b", _I)
"""A message that names the assistant ("Assistant, ...", "dump for the bot") may speak to it."""


def _answered_person(turn: TurnInput) -> str | None:
    """Whom "you" means in a chat of named people that the assistant only reads (one side
    a turn, no reply): the writer of the message the turn answers, when that is someone
    else. "I'll send you a link" after Ingrid's message is to Ingrid, and "don't remind
    me" is said to her, not asked of the assistant. Not when the turn names the assistant
    ("Assistant, keep it short", "a list for the bot")."""
    me, before = _speaker_name(turn.speaker), turn.previous
    if me is None or before is None or turn.assistant.strip():
        return None
    them = _speaker_name(before.speaker)
    if them is None or them.lower() in ("user", "assistant", me.lower()):
        return None
    return None if _TO_THE_ASSISTANT_RE.search(turn.user) else them


_SENTENCE_ADVERB = r"(?:[a-z]+ly|now|then|so|well|oh|yes|yeah|also|anyway|still|today|yesterday)"
"""One word that may open a sentence before its subject: "Sadly", "Now", "Yesterday"."""
# ("hes out now": typed without its apostrophe, "hes" and "shes" are "he's" and "she's")
_HE_OR_SHE_RE = re.compile(
    # after a sentence's start, a sentence adverb may come first: "Sadly he passed away"
    rf"(?P<start>(?:^|[.!?]\s+)(?:{_SENTENCE_ADVERB},?\s+)?|[,;]\s+(?:and\s+|so\s+|but\s+)?)"
    r"(?:he|she)"
    r"(?:(?P<has>'?s(?=\s+(?:been|got|gotten|had|\w+ed)\b))|(?P<is>'s|(?-i:s)(?=\s)))?\b",
    re.IGNORECASE,
)


def _naming_referent(text: str, referent: str | None) -> str:
    """`text` with the person the turn before named in place of an opening "he" or "she":
    "She moved to Edinburgh" after a claim about the user's sister."""
    if not referent:
        return text

    def named(m: re.Match[str]) -> str:
        verb = " has" if m["has"] else " is" if m["is"] else ""
        # "She's great, she just moved": after a short "how they are", the news reads as a
        # sentence of its own
        if m["start"][:1] in (",", ";"):
            before = re.split(r"[.!?]\s+", text[: m.start()])[-1]
            if len(before.split()) > 3:
                return m.group(0)  # read with the clause before, whose subject it repeats
            return f". {referent[:1].upper()}{referent[1:]}{verb}"
        return f"{m['start']}{referent[:1].upper()}{referent[1:]}{verb}"

    shown = referent[:1].upper() + referent[1:]
    if _PLURAL_KIN_RE.search(referent):  # "They moved to Galway" after "your parents"
        return _THEY_RE.sub(lambda m: f"{m['start']}{shown}", text)
    # "Her parents live in Mumbai": the person's own
    text = _HIS_OR_HER_RE.sub(lambda m: f"{m['start']}{shown}'s ", text)
    return _HE_OR_SHE_RE.sub(named, text)


_PLURAL_KIN_RE = re.compile(
    r"\b(?:parents|grandparents|in-laws|kids|children|twins|folks|sons|daughters)$", re.I
)
_THEY_RE = re.compile(r"(?P<start>^|[.!?]\s+)they\b(?!')", re.IGNORECASE)
_HIS_OR_HER_RE = re.compile(r"(?P<start>^|[.!?]\s+)(?:his|her)\s+(?=\w)", re.IGNORECASE)


def _speaker_name(name: str | None) -> str | None:
    name = " ".join((name or "").split())
    return name or None


def extract_facts(turn: TurnInput) -> list[ExtractedFact]:
    """Facts in `turn`; the assistant's only where the user said nothing on that slot."""
    user_side, assistant_side = _sides(turn)
    user_text = personal.naming_relatives(_naming_referent(_with_question(turn), turn.referent))
    user_text = _NEW_JOB_AT_RE.sub(r"\g<news>I work ", user_text)
    user = _side_facts(user_side, user_text)
    taken = {(f.subject, f.slot) for f in user}
    assistant = [
        f for f in _side_facts(assistant_side, turn.assistant) if (f.subject, f.slot) not in taken
    ]
    out: list[ExtractedFact] = []
    seen: set[tuple[str, str, str]] = set()
    for fact in all_settled(user + assistant):
        key = (fact.subject, fact.slot, fact.value)
        if key not in seen:
            seen.add(key)
            out.append(fact)
    return _denials_answered(out)


_DENIED = ":not:"
"""What a bare denial's slot holds between the denied slot and value (see _denial)."""


def _denials_answered(facts: list[ExtractedFact]) -> list[ExtractedFact]:
    """A bare denial's note ("Stefan is not 45") gives way to the value the same message
    puts in the denied slot ("he is 47, I have calculated false"): that value retracts the
    old one, as "not 45, he's 47" read as one correction does, where the note would stand
    beside it, a current fact holding the old value."""
    answers: dict[int, ExtractedFact] = {}
    kept: list[ExtractedFact] = []
    for note in facts:
        slot, denial, denied = note.slot.partition(_DENIED)
        answer = next(
            (
                f
                for f in facts
                if denial
                and f.subject == note.subject
                and f.slot == slot
                and f.value.lower() != denied.lower()
            ),
            None,
        )
        if answer is None:
            kept.append(note)
            continue
        held = answers.get(id(answer), answer)
        answers[id(answer)] = held.model_copy(update={"retracts": (*held.retracts, *note.retracts)})
    return [answers.get(id(f), f) for f in kept]


def _with_question(turn: TurnInput) -> str:
    """The user's words, or, for a terse reply to a question put to them ("42" after "How
    old are you?"), the statement the reply completes."""
    asked = turn.previous
    if asked is None or asked.speaker == (turn.speaker or "user"):
        return turn.user  # one's own question answers nothing
    return read_reply(turn.user, asked.text) or turn.user


def states_fact(sentence: str, turn: TurnInput, speaker: str) -> bool:
    """Whether one sentence reads as a fact, which the engine pins on its own."""
    user_side, assistant_side = _sides(turn)
    side = _Side(user_side if speaker == "user" else assistant_side)
    return bool(_sentence_facts(side, sentence))
