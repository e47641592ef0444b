"""Cues in team messages that no single fact carries: open questions, requests for an
owner, claims of a task, and blockers cleared. Each table lists its examples, which
tests/team/test_cues.py reads as tests."""

import re

from threefold.models.heuristic.text import content_words

_I = re.IGNORECASE
_WHO = r"(?:someone|somebody|anyone|anybody|one\s+of\s+you|a\s+volunteer)"
_TAKE = r"(?:take\s+over|pick\s+up|take\s+on|own|take|cover|handle|run\s+with)"

HANDOFF_REQUESTS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (
        re.compile(
            rf"\b(?:can|could|would|will)\s+{_WHO}\s+(?:please\s+)?{_TAKE}\s+(?P<what>[^?.!]+)",
            _I,
        ),
        (
            "Can someone take over the release notes?",
            "could anybody please pick up the billing export while I'm out?",
        ),
    ),
    (
        re.compile(rf"\bwho\s+(?:can|will|could|wants\s+to)\s+{_TAKE}\s+(?P<what>[^?.!]+)", _I),
        ("Who can take over the onboarding docs?", "who wants to own the flaky test triage?"),
    ),
    (
        re.compile(
            r"(?P<what>[^.!?:]+?)\s+(?:still\s+)?(?:needs|need)\s+(?:a\s+new\s+|an\s+)owner\b",
            _I,
        ),
        ("The metrics dashboard needs a new owner.", "Heads up: SSO rollout still needs an owner"),
    ),
    (
        re.compile(
            r"(?P<what>[^.!?:]+?)\s+is\s+(?:now\s+)?(?:unowned|up\s+for\s+grabs|orphaned"
            r"|without\s+an\s+owner)",
            _I,
        ),
        ("The Q3 report is up for grabs.", "FYI the search reindex is now unowned"),
    ),
    (
        re.compile(
            rf"\b{_WHO}\s+(?:will\s+)?(?:(?:has|have|needs?|ought)\s+to|must|should)\s+"
            r"(?P<what>(?!be\b|know\b|say\b|tell\b|answer\b)[^?.!]+)",
            _I,
        ),
        (
            "I'm off next week - somebody has to water the lab plants while I'm gone",
            "someone needs to keep an eye on the overnight queue",
        ),
        # "does anyone have the number?" asks for a thing, not an owner: "have" is owning
        # unless "to" follows
    ),
    (
        re.compile(
            r"\b(?:I'm|I\s+am|I'll\s+be)\s+(?:out|away|off|on\s+leave)\b[^.!?]*?[,;-]?\s*"
            r"(?:so\s+)?(?P<what>[^.!?]+?)\s+needs\s+(?:someone|a\s+new\s+owner|an\s+owner)",
            _I,
        ),
        ("I'm out next week, so the vendor sync needs someone.",),
    ),
)
"""Someone asks for an owner of a piece of work; `what` names the work."""

CLAIMS: tuple[tuple[re.Pattern[str], tuple[str, ...]], ...] = (
    (
        re.compile(
            r"\b(?:I'll|I\s+will|I\s+can|I\s+could|let\s+me|happy\s+to|I'm\s+happy\s+to)\s+"
            r"(?:take|grab|pick|own|handle|cover|do)\b",
            _I,
        ),
        ("I'll take it", "I can pick that up", "happy to own the dashboard from here"),
    ),
    (
        re.compile(r"^\s*(?:on\s+it|mine|dibs|got\s+it|I've\s+got\s+(?:it|this))\b", _I),
        ("On it!", "I've got this one"),
    ),
)
"""A reply that takes the work someone asked an owner for."""

REQUESTS = re.compile(
    r"\b(?:(?:can|could|would|will)\s+you|please|pls|plz|lmk|let\s+me\s+know|need\s+you\s+to)\b",
    _I,
)
REQUEST_EXAMPLES = ("@dana please send the vendor contract", "<@U7> pls review when free")
NOT_REQUEST_EXAMPLES = ("the token is in the vault now @yuki, go wild", "thanks @omar!")
"""A message that @-mentions someone asks them for a reply only when it asks something:
a question, or a request. Telling someone a thing ("it's in the vault now @yuki") does
not; where wording is subtler than this, the model's reading is the place for it."""

CLEARED = re.compile(
    r"\b(?:unblocked|no\s+longer\s+blocked|not\s+blocked\s+anymore|resolved|is\s+fixed"
    r"|got\s+fixed|sorted(?:\s+out)?|cleared|came\s+through|is\s+in\s+now|got\s+(?:the|it))\b",
    _I,
)
CLEARED_EXAMPLES = (
    "ALPHA-7 is unblocked now",
    "The auth token came through, we're good",
    "Legal sorted it out, ALPHA-9 no longer blocked",
)
"""A message saying a blocker is gone."""

NOT_CLEARED_EXAMPLES = (
    "EL-5 is blocked until EL-63 is fixed.",
    "We can ship once the auth token came through",
    "If legal sorted it out we'd be unblocked",
    "ALPHA-7 will be unblocked next week",
)
"""A cue that is the condition of what is still to happen reports nothing."""

DONE_EXAMPLES = (
    ("rotate database credentials", "Database credentials rotated."),
    ("have the quarterly report filed by friday", "quarterly report filed, it's with finance"),
    ("fix login bug", "Login bug fixed!"),
    ("write release notes", "Release notes are done"),
)
NOT_DONE_EXAMPLES = (
    ("rotate database credentials", "Database credentials will be rotated once approved"),
    ("fix login bug", "I'll ship the login bug fix once it is merged"),
    ("write release notes", "The weather report is done"),
)
"""(work, message): whether the message reports the work done (see reports_done)."""

_NOT_YET = re.compile(
    r"(?:\b(?:until|till|once|when|whenever|after|as\s+soon\s+as|if|unless|before|waiting\s+for"
    r"|will|going\s+to|gonna|should|must|needs?\s+to|have\s+to|has\s+to|hope\s+to)\b|'ll\b)"
    r"[^.!?;]*$",
    _I,
)
"""A condition or a future before a cue, in its sentence: what it names has not happened."""

DONE = re.compile(
    r"\b(?:done|finished|shipped|merged|delivered|completed|wrapped\s+up|landed|is\s+live)\b",
    _I,
)

_MENTION_RE = re.compile(r"<@(\w+)>|(?<![\w.])@([A-Za-z][\w.'-]*)")
_ISSUE_RE = re.compile(r"\b[A-Z][A-Z0-9]{1,9}-\d{1,6}\b")


def states(cue: re.Pattern[str], text: str) -> bool:
    """Whether `text` says what `cue` names as a fact: a cue inside a condition or a future
    ("blocked until EL-63 is fixed", "will be merged") says it has not happened yet."""
    return any(not _NOT_YET.search(text[: found.start()]) for found in cue.finditer(text))


def reports_done(work: str, text: str) -> bool:
    """Whether `text` says `work` ("rotate database credentials") is done: a word for done
    ("shipped", "finished") or the work's own verb in the past tense ("credentials
    rotated"), outside a condition, about the same work."""
    if not same_work(work, text):
        return False
    return states(DONE, text) or any(states(verb, text) for verb in _done_forms(work))


_CAUSATIVE = frozenset({"have", "get", "got"})
_PARTICIPLE = re.compile(r"^[a-z]{2,}(?:ed|en)$")


def _done_forms(work: str) -> list[re.Pattern[str]]:
    """What says `work` is done in its own words: its verb in the past tense ("rotate
    database credentials" -> "rotated"); for work someone will have or get done ("have the
    tolls story filed", "get the docs written up"), the participle itself ("filed")."""
    forms = [_past_tense(work)]
    first, *rest = work.lower().split() or [""]
    if first in _CAUSATIVE:
        for word in rest:
            if word == "by":
                break  # "by Friday": the day, no longer the work
            if _PARTICIPLE.match(word):
                forms.append(re.compile(rf"\b{re.escape(word)}\b", _I))
    return forms


def _past_tense(work: str) -> re.Pattern[str]:
    """The past tense of the verb `work` starts with, as regular verbs make it: rotate ->
    rotated, fix -> fixed, plan -> planned."""
    verb = (work.split() or [""])[0].lower()
    stem = re.escape(verb.removesuffix("e"))
    last = re.escape(verb[-1:]) + "?" if verb else ""
    return re.compile(rf"\b{stem}{last}e?d\b", _I) if verb.isalpha() else re.compile(r"(?!)")


_WHILE_AWAY = re.compile(
    r"\s+(?:while|whilst|when|until|till|as|because|since|before|after|during)\s.*$", _I
)
"""The time or reason said after the work ("... while I'm gone") is no part of it."""


_GERUND = re.compile(r"\b([a-z]{3,})ing\b", _I)


def step_done(awaited: str) -> re.Pattern[str] | None:
    """The past tense of the step a blocker awaits, when it is named by its -ing form
    ("the CMS team whitelisting the domain" -> "whitelisted"), else None."""
    found = _GERUND.search(awaited)
    if found is None:
        return None
    stem = found[1].lower()
    if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "aeiouls":
        stem = stem[:-1]  # "planning" -> "plan"
    return _past_tense(stem)


_NOT_THERE = re.compile(r"\b(?:not|no|never|still|yet)\b|n't\b", _I)


def tells(person: str, text: str) -> bool:
    """Whether `text` tells `person` (a lowercase first name) something as a fact: it
    names them, asks nothing and denies nothing ("the token is in the vault now @yuki")."""
    named = person in mentions(text) or re.search(rf"\b{re.escape(person)}\b", text, _I)
    return bool(named) and not is_question(text) and not _NOT_THERE.search(text)


def handoff_request(text: str) -> str | None:
    """The work `text` asks an owner for, or None."""
    for pattern, _ in HANDOFF_REQUESTS:
        if found := pattern.search(text):
            what = _WHILE_AWAY.sub("", found["what"]).strip(" ,;:-")
            if content_words(what):
                return what
    return None


def requests(text: str) -> bool:
    return bool(REQUESTS.search(text))


def claims(text: str) -> bool:
    return any(pattern.search(text) for pattern, _ in CLAIMS)


def is_question(text: str) -> bool:
    """A message that asks something: a sentence of it (words since the last stop, line
    break or question mark) ends with a question mark. Read mark by mark, in time linear
    in the text."""
    for mark in _QUESTION_MARK.finditer(text):
        start = 1 + max(text.rfind(stop, 0, mark.start()) for stop in ".!?\n")
        if _WORD.search(text, start, mark.start()):
            return True
    return False


_QUESTION_MARK = re.compile(r"\?(?=\s|$)")
_WORD = re.compile(r"\w")


def mentions(text: str) -> list[str]:
    """Lowercase names or user ids a message @-mentions."""
    return [(a or b).lower() for a, b in _MENTION_RE.findall(text)]


def issue_keys(text: str) -> set[str]:
    return set(_ISSUE_RE.findall(text))


def same_work(a: str, b: str) -> bool:
    """Whether two phrases name the same work: an issue key, or most content words of the
    shorter one."""
    keys_a, keys_b = issue_keys(a), issue_keys(b)
    if keys_a and keys_b:
        return bool(keys_a & keys_b)
    words_a, words_b = content_words(a), content_words(b)
    shorter = min(len(words_a), len(words_b))
    return shorter > 0 and 2 * len(words_a & words_b) >= shorter
