"""Repairs: corrections that name only what changed.

"Lila, not Lily", "It's amoxicillin, not penicillin", or "No, that's Priya now" state no
fact of their own; they edit one that was said before. A repair is read here, then applied
to the fact it edits: the most recent active fact that holds the old word, or, when the
old word is left out, a claim of the turn the user answers. The edited fact is a new
correction that retracts the old one, so both models get the same repair and the chain
is kept.

A plan or a lesson said to replace the speaker's last one ("...a half marathon instead",
"I'm doing Korean instead") is read here too: both are keyed by their object, so only
those words say the 10k is off.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from threefold import dates
from threefold.domain import Fact, FactCategory
from threefold.entities import could_be_person
from threefold.models.base import ExtractedFact, SlotRef, Standing
from threefold.models.heuristic.text import sentences, words

USER_WORD = 0.6
"""Confidence above the assistant's (at most 0.55): a fact the user's own words state."""
_MAX_WORDS = 4
"""A repair's new and old parts are a few words each."""
_MAX_CHARS = 200
"""A longer sentence is pasted text, never a repair."""

_I = re.IGNORECASE
_PART = r"[^,;.!?]+?"
_TITLE = r"(?:dr|mr|mrs|ms|mx|prof)"
"""What may stand before a name: "Dr. Okafor"."""
# Words that open a repair without saying what it is.
# Sounds that open a reply without saying anything: "Ha, no — Oasis".
_INTERJECTION = (
    r"(?:(?:ha)+|lol|hmm+|um+|uh+|well|ah|oh|god|hell|lord|good\s+lord|heavens)\s*[,!.]*\s*"
)
_NO_LONGER_SO = (
    r"that\s+was\s+(?:last\s+year|before|ages\s+ago|years\s+ago|a\s+while\s+ago)|i\s+wish"
    # "Google was two jobs ago", "That was three flats ago"
    r"|(?:that|(?-i:[A-Z])[\w'-]+)\s+was\s+(?:a\s+few|two|three|four|several|\d+)\s+(?:jobs|flats"
    r"|houses|apartments|moves|cars|phones|teams|bosses|managers|addresses)\s+ago"
    # "Was a nurse.": said alone, what the speaker was is what they are no longer
    r"|(?:i\s+)?was\s+(?:a|an)\s+[\w-]+(?:\s+[\w-]+)?(?=[\s.!]*$)"
    # "Had a Golf.": said alone, a thing by its name the speaker had they have no longer
    r"|(?:i\s+|we\s+)?had\s+(?:a|an)\s+(?-i:[A-Z])[\w-]*(?:\s+[\w-]+)?(?=[\s.!]*$)"
)
"""What says a claim is out of date, or never was so: "That was last year", "I wish"."""
_LEAD_RE = re.compile(
    rf"^(?:{_INTERJECTION})?(?:(?:oh\s+)?(?:no|nope|nah|naw|wait|sorry|oops|whoops|actually|correction|my\s+bad|not\s+quite"
    r"|(?:bad|good|big)\s+news|heads\s+up|update"
    r"|no\s+way|(?:definitely|absolutely|certainly)\s+not"
    r"|wrong|not\s+any\s*more|no\s+longer"
    r"|that's\s+(?:wrong|not\s+right|not\s+true|outdated|old\s+news|incorrect)"
    rf"|{_NO_LONGER_SO}"
    r"|scratch\s+that|make\s+(?:that|it)|i\s+used\s+to,?\s+but|turns\s+out(?:\s+that)?"
    # who says so: "my allergist says it's tree nuts, not peanuts"
    r"|apparently|(?:my|the|our)\s+[\w-]+\s+(?:says|said|confirmed|reckons|thinks)(?:\s+that)?"
    r"|(?:i\s+)?used\s+to(?=[\s.!]*$)|typo|autocorrect"
    r"|(?:so\s+)?(?:close|almost|nearly)(?:\s+but\s+no)?(?=\s*[-–—,!.:]))\b"
    r"[\s,:;.!—–-]*)+",
    _I,
)
_ONE_NAME = r"(?-i:[A-Z])[\w'-]+"
"""One capitalised word: "Jordan"."""
# "its penicilin not latex": typed without the apostrophe, before a "not" it is "it's";
# "her name is Maya, not Mia", "he's called Rex, not Max": the name, not its frame.
_SAYING = (
    r"(?:(?:it's|its|it\s+is|that's|that\s+is|it\s+was|i\s+mean|i\s+meant|make\s+that"
    r"|(?:his|her|their|my|our|its|the)\s+(?:[\w'-]+\s+)?name(?:'s|\s+is|\s+was)"
    r"|(?:he|she|it|they)(?:'s|\s+is|\s+was|'re|\s+are)\s+(?:called|named))\s+)?"
)
# The new part may be a place and its region: "Perth, Scotland, not Australia".
_NEW_NOT_OLD_RE = re.compile(
    rf"^{_SAYING}(?P<new>{_PART}(?:,\s+{_ONE_NAME})?),?\s+(?:and\s+)?not\s+(?P<old>{_PART})$",
    _I,
)
# "I meant tree nuts, peanuts are fine": the old word is cleared by name.
_MEANT_RE = re.compile(
    rf"^(?:i\s+meant?|it's|it\s+is|it\s+was)\s+(?P<new>{_PART}),?\s+(?:and\s+|but\s+)?(?:the\s+)?"
    rf"(?P<old>{_PART})\s+"
    r"(?:is|are)\s+(?:totally\s+|perfectly\s+)?(?:fine|ok|okay|no\s+problem)$",
    _I,
)
# "It's Jordan, Jamie is my brother": the old name is given another place.
_OLD_IS_ELSEWHERE_RE = re.compile(
    rf"^(?:it's|it\s+is|that's|that\s+is)\s+(?P<new>{_ONE_NAME}),?\s+(?P<old>{_ONE_NAME})"
    r"\s+is\s+(?:my|our|his|her|their|the)\s+[\w' -]+$",
    _I,
)
# "Newcastle! Sunderland is my dad's lot.": said after a bare value, whose the old one is;
# "Cool. Sara is my wife." answers with no value at all.
_ELSEWHERE_AFTER_RE = re.compile(
    rf"^{_ONE_NAME}\s+is\s+(?:my|our|his|her|their)\s+[\w' -]+[.!]*$", _I
)
_ACKNOWLEDGED_RE = re.compile(
    r"^(?:cool|nice|lovely|great|good|thanks|cheers|ok|okay|right|sure|yes|yeah|yep|wow|haha"
    r"|perfect|brilliant|awesome|amazing|sweet|fine|hi|hey|hello|oh|ah|aw|congrats)$",
    _I,
)
# "It's Wolf Alice more than Muse": only after "it's", since "I like tea more than coffee"
# compares without correcting.
_RATHER_RE = re.compile(
    rf"^(?:it's|it\s+is|that's|that\s+is)\s+(?P<new>{_PART})\s+(?:more\s+than|rather\s+than"
    rf"|instead\s+of)\s+(?P<old>{_PART})$",
    _I,
)
# When the change happened, said first, is not part of it: "These days it's Wolf Alice".
_NOWADAYS_RE = re.compile(r"^(?:these\s+days|nowadays|lately|now)\s*,?\s+", _I)
_NOT_OLD_NEW_RE = re.compile(
    rf"^not\s+(?P<old>{_PART})\s*[,;—–-]+\s*(?:but\s+|it's\s+|rather\s+)?(?P<new>{_PART})$", _I
)
# "It was Kevin, but now it's Sandra", "It used to be Tuesdays; now it's Thursdays".
_WAS_NOW_RE = re.compile(
    rf"^(?:it|that|he|she|they)\s+(?:was|were|used\s+to\s+be)\s+(?P<old>{_PART})\s*[,;]?\s+"
    rf"(?:but\s+)?(?:now\s+)?(?:it's|it\s+is|that's|he's|she's|they're)\s+(?P<new>{_PART})"
    r"(?:\s+now)?$",
    _I,
)
# With the old word left out, only after a denial or a self-correction: "No, that's Priya
# now", "Not anymore, I'm at PwC", "Oops, she's 8".
_ONLY_NEW_RE = re.compile(
    rf"^(?:(?:it's|it\s+is|that's|that\s+is|it\s+was)\s+(?:now\s+)?(?P<said>(?:{_TITLE}\.\s+)?"
    r"(?:[^,;.!?]|(?<=\d)[,.](?=\d))+?)"
    # "Ha, I wish - I'm still a junior": what the speaker is, after a denial.
    r"|(?:i'm|i\s+am)\s+(?:still\s+|just\s+|only\s+)?(?:a|an)\s+(?!(?:bit|little|lot)\b)"
    r"(?P<role>[^,;.!?]+?)"
    r"|(?:i'm|i\s+am|we're|we\s+are|he's|she's|they're)\s+(?P<framed>(?:at|with|in)\s+"
    r"(?:(?-i:[A-Z])|\d+\s+(?-i:[A-Z]))[^,;.!?]*?|\d[^,;.!?]*?"
    # "I'm on the 22nd now": the day a booking moved to
    r"|on\s+the\s+\d{1,2}(?:st|nd|rd|th))"
    rf"|(?P<date>(?:{dates.MONTH_PATTERN})\s+\d{{1,2}}(?:st|nd|rd|th)?"
    rf"|\d{{1,2}}(?:st|nd|rd|th)?\s+(?:of\s+)?(?:{dates.MONTH_PATTERN}))"
    r"|(?P<number>\d[\d,.]*(?:\s+(?:months?|weeks?|days?|years?|hours?|kg|lbs?|miles|km))?)"
    r"|(?P<name>(?-i:[A-Z])[\w'-]+(?:\s+(?-i:[A-Z])[\w'-]+)?(?:,\s+(?-i:[A-Z])[\w'-]+)?)"
    r"(?:\s+(?:does|is|did|has"
    r"|\w+s\s+(?:it|that|them)\b[^,;.!?]*))?)(?:\s+(?:now|these\s+days|instead|forever|always"
    r"|(?:till|until)\s+i\s+die|all\s+the\s+way))?$",
    _I,
)
# When the change happened is not part of what changed: "It's Greta since October".
_SINCE_RE = re.compile(
    r"\s+(?:since|as\s+of|from|starting)\s+(?:last\s+|this\s+|the\s+)?\w+(?:\s+\d{1,2})?(?:\s+on)?$",
    _I,
)
_DASH_RE = re.compile(r"\s+[—–-]+\s+")
_DENIAL_RE = re.compile(
    rf"^\s*(?:{_INTERJECTION})?(?:(?:wait|sorry|hold\s+on|oh)\b[\s,.!—–-]*)*"
    r"(?:no|nope|nah|naw|wrong|not\s+quite|not\s+any\s*more|no\s+longer|that's\s+\w+|(?:i\s+)?used\s+to"
    r"|no\s+way|(?:definitely|absolutely|certainly)\s+not"
    rf"|{_NO_LONGER_SO}"
    r"|(?:so\s+)?(?:close|almost|nearly)(?=\s*[-–—,!.:]))\b",
    _I,
)
# After a slip: "Autocorrect - Milo is Mila", "typo: Jon should be John".
_OLD_IS_NEW_RE = re.compile(
    rf"^(?P<old>{_ONE_NAME})\s+(?:is|should\s+be|should\s+read|=|->|→)\s+(?P<new>{_ONE_NAME})$"
)
# A speaker fixing their own slip. These words also open apologies ("Oops, it's late"), so
# the new word must be a name, a number or a date.
_OWNED_SLIPS = r"oops|whoops|my\s+bad|make\s+(?:that|it)|typo|autocorrect"
"""Words that own up to a slip; "correction" and "actually" also open other news."""
_SELF_REPAIR_RE = re.compile(
    rf"^\s*(?:(?:sorry|oh)\W+)?(?:{_OWNED_SLIPS}|correction|actually)\b", _I
)
_OWNED_SLIP_RE = re.compile(rf"^\s*(?:(?:sorry|oh)\W+)?(?:{_OWNED_SLIPS})\b", _I)
# Said of the person the answered turn named, these restate one fact of theirs: "Her name
# is Lara", "He's 9 now". Only a claim that holds a name or a number can take them.
_THEIR_NAME_RE = re.compile(
    r"^(?:his|her|their)\s+name\s+is\s+(?P<new>(?-i:[A-Z])[\w'-]+)(?:,.*)?$", _I
)
_THEIR_AGE_RE = re.compile(
    r"^(?:he's|she's|he\s+is|she\s+is|they're)\s+(?:actually\s+)?(?P<new>\d{1,3})"
    r"(?:\s+years?\s+old)?(?:\s+now)?(?:,.*)?$",
    _I,
)

_NAME_WORDS = rf"{_ONE_NAME}(?:\s+{_ONE_NAME})?"
"""A person's name, one or two capitalised words."""
# "I switched to Dr. Alvarez in the spring": a switch to a person replaces whoever the
# answered turn named.
_SWITCHED_RE = re.compile(
    rf"^(?:i|we)(?:'ve|\s+have)?\s+(?:switched|changed|moved)\s+(?:over\s+)?to\s+"
    rf"(?:{_TITLE}\.?\s+)?(?P<new>{_NAME_WORDS})(?:\s+.*)?$",
    _I,
)

# "She switched to history last term", answering "your daughter studies law": what the
# claim said of her is what she left for the new one; when it changed is not part of it.
# The speaker's own "I switched to decaf" is news the model reads, not a repair.
_SWITCHED_TO_RE = re.compile(
    r"^(?:he|she|they)(?:'ve|'s|\s+have|\s+has)?\s+(?:just\s+)?(?:switched|changed)\s+"
    r"(?:over\s+)?to\s+(?P<new>(?-i:[a-z])[\w-]+(?:\s+(?-i:[a-z])[\w-]+)?)"
    r"(?:\s+(?:last|this|in|after|at|from|since)\s+[^,;]+)?$",
    _I,
)
# "The new one is Pepper": said of the kind the answered turn named ("your cat").
_NEW_ONE_RE = re.compile(
    r"^(?:(?:(?:the|our|my)\s+)?new\s+one|this\s+one|the\s+one\s+(?:i|we)\s+have\s+now)(?:'s|\s+is)"
    r"\s+(?:called\s+|named\s+)?"
    r"(?P<new>(?-i:[A-Z])[\w'-]+)$",
    _I,
)
# "It was amoxicillin I'm allergic to, not penicillin": what the speaker says of the new
# word is not part of it.
_CLEFT_RE = re.compile(r"\s+(?:that\s+|which\s+)?(?:i|i'm|i've|we|we're|he|she|they)\b.*$", _I)
# "Dr. Patel retired, I see Dr. Kowalski now": who took the place of someone who left.
_NAME_PART = rf"(?:{_TITLE}\.?\s+)?{_NAME_WORDS}"
_GONE = (
    r"(?:has\s+)?(?:retired|left(?:\s+the\s+\w+)?|quit|moved\s+away"
    r"|moved\s+to\s+(?:another|a\s+different|a\s+new)\s+\w+"
    r"|passed\s+away|died)\s*[,;—–-]+\s*(?:and\s+|so\s+)?(?:now\s+)?(?:i\s+see|i\s+go\s+to|i've\s+got"
    r"|i\s+have|i'm\s+with|im\s+with|i\s+report\s+to|it's|my\s+new\s+\w+\s+is"
    r"|the\s+new\s+one\s+is)\s+"
)
"""Someone gone, and the "I see" that names who took their place."""
_LEFT_RE = re.compile(
    rf"^(?!(?:he|she|they)\b)(?P<old>{_NAME_PART})\s+{_GONE}(?P<new>{_NAME_PART})(?:\s+now)?$", _I
)
# "She retired, I'm with Dr Okafor now", said of the one the answered turn named; typed in
# lowercase, a title still marks the name ("im with dr okafor now").
_THEY_LEFT_RE = re.compile(
    rf"^(?:he|she|they)(?:'s|'ve)?\s+{_GONE}"
    rf"(?P<new>{_NAME_PART}|{_TITLE}\.?\s+(?P<lower>(?-i:[a-z])[\w'-]+))(?:\s+now)?$",
    _I,
)
# "Mine is Mochi", said after "that's my sister's cat": the speaker's own is the new one.
_MINE_RE = re.compile(
    r"^(?:mine|ours)(?:'s|\s+is)\s+(?:called\s+|named\s+)?(?P<new>(?-i:[A-Z])[\w'-]+)$", _I
)
# "Max is my sister's dog, mine is Rocky": the old name is given its owner, the new one is
# the speaker's.
_THEIRS_MINE_RE = re.compile(
    rf"^(?P<old>{_ONE_NAME})\s+is\s+(?:my|our)\s+[\w'-]+(?:\s+[\w-]+)?\s*[,;]\s*(?:and\s+|but\s+)?"
    rf"(?:mine|ours)(?:'s|\s+is)\s+(?:called\s+|named\s+)?(?P<new>{_ONE_NAME})$",
    _I,
)
# "Rex was my old dog": what follows names the new one.
_OLD_ONE_RE = re.compile(
    rf"^(?:{_ONE_NAME}|that|it)(?:\s+(?:was|is)|'s)\s+(?:my|our)\s+(?:old|previous|last|former"
    r"|first)\s+[\w-]+$",
    _I,
)
# After a denial, "I left for Meta" or "we moved to Leeds" names what the claim should say.
_WENT_TO_RE = re.compile(
    r"^(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+)?(?:left\s+(?:for|to\s+join)|moved\s+(?:over\s+)?to"
    r"|went\s+(?:over\s+)?to|transferred\s+to|joined|jumped\s+ship\s+to)\s+"
    rf"(?P<new>{_NAME_WORDS})(?:\s+(?:in|last|this|a|two|three|back|after)\b.*)?$",
    _I,
)
# "We moved offices", "I changed doctors", "They cancelled it": what follows is the new one.
_CHANGED_RE = re.compile(
    r"^(?:(?:we|i)(?:'ve|\s+have)?\s+(?:just\s+)?(?:moved|changed|switched)\s+(?:offices|jobs"
    r"|doctors|dentists|schools|teams|houses|flats|apartments|banks|gyms|vets|therapists)"
    r"|(?:they|we|i|she|he)(?:'ve|\s+have|\s+had\s+to)?\s+(?:just\s+)?(?:cancell?ed|moved"
    r"|rescheduled|postponed|pushed|changed)\s+(?:it|that|this|the\s+date)(?:\s+again)?"
    # "Venue cancelled on us": whoever called it off
    r"|(?:the\s+|our\s+|my\s+)?[\w-]+\s+(?:cancell?ed|pulled\s+out|fell\s+through)(?:\s+on\s+(?:us|me))?"
    # "the flight's been cancelled": the event named, said changed
    r"|(?:the|my|our)\s+[\w-]+(?:'s|\s+has|\s+was|\s+got)(?:\s+been)?\s+(?:cancell?ed|moved"
    r"|rescheduled|postponed|pushed\s+back|changed))$",
    _I,
)
# "I left there in June", "I don't work there anymore": the claim's place is gone, so what
# follows names the new one.
_LEFT_THERE_RE = re.compile(
    r"^(?:(?:i|we)(?:'ve|\s+have)?\s+(?:just\s+|actually\s+)?(?:left|quit|moved\s+(?:away\s+from"
    r"|out\s+of|on\s+from)|finished\s+(?:at|up\s+at))\s+(?:there|that\s+(?:job|place|company"
    r"|firm|one|school|house|flat))|(?:i|we)\s+(?:don't|do\s+not)\s+(?:work|live|go)\s+there"
    r"\s+any\s*more"
    # "He's moved on": said of whoever the claim was about
    r"|(?:i|we|he|she|they)(?:'s|'ve|\s+has|\s+have)?\s+(?:just\s+)?moved\s+on)\b[^,;]*$",
    _I,
)
# "I left PureGym in the summer, I'm at The Gym Group now": who or what took the place of
# the one the speaker left.
_I_LEFT_RE = re.compile(
    rf"^(?:i|we)(?:'ve|\s+have)?\s+(?:left|quit|cancell?ed|dropped|stopped\s+going\s+to)\s+"
    rf"(?P<old>{_NAME_PART})(?:\s+(?:in|last|this|a|after|back)\b[^,;]*)?\s*[,;—–-]+\s*"
    r"(?:and\s+|so\s+)?(?:now\s+)?(?:i'm\s+(?:at|with)|i\s+go\s+to|i\s+see|i've\s+joined"
    rf"|i\s+joined|i\s+use)\s+(?:the\s+)?(?P<new>{_NAME_PART})(?:\s+now|\s+instead)?$",
    _I,
)
_DOSE = r"\d+(?:\.\d+)?\s?(?:mg|mcg|µg|g|ml|iu|units)\b"
# "The doctor upped it to 30mg": the dose of the drug the answered turn named; "GP's
# halved it, so 10mg from this week": the new dose said after the change.
_DOSE_CHANGED_RE = re.compile(
    r"^(?:the\s+[\w-]+|they|she|he|my\s+[\w-]+|i|we|gp|doc|doctor|consultant)"
    r"(?:'ve|'s|\s+have|\s+has)?\s+(?:just\s+)?"
    r"(?:upped|increased|raised|lowered|reduced|cut|dropped|put\s+up|bumped|changed|adjusted"
    r"|doubled|halved)\s+(?:it|my\s+dose|the\s+dose|me|that)(?:\s+(?:up|down|back))?"
    r"(?:\s+to\s+|\s*[,;—–-]+\s*(?:so\s+)?(?:(?:it's|i'm\s+on|that's)\s+)?)"
    rf"(?P<new>{_DOSE})(?:\s+now|\s+(?:from|since|as\s+of|starting)\s+[\w ]+)?$",
    _I,
)
_DOSE_RE = re.compile(_DOSE, _I)
_MONEY = r"[£$€]\s?\d[\d,]*(?:\.\d+)?k?"
# "The landlord put it up to £1,350": the amount of what the answered turn named.
_AMOUNT_CHANGED_RE = re.compile(
    r"^(?:the\s+[\w-]+|they|she|he|my\s+[\w-]+)(?:'ve|\s+have|\s+has)?\s+(?:just\s+)?(?:put|pushed"
    r"|bumped|raised|increased|upped|dropped|lowered|cut|brought)\s+(?:it|the\s+[\w-]+|my\s+[\w-]+)"
    rf"(?:\s+(?:up|down))?\s+to\s+(?P<new>{_MONEY})$",
    _I,
)
_MONEY_RE = re.compile(_MONEY)
# "It got moved to Sunday": the answered claim's day moved.
# "They moved it to the 21st": the same, said of whoever moved it.
_MOVED_TO_RE = re.compile(
    r"^(?:(?:it|that|this)(?:'s|\s+has|\s+was|\s+got|\s+is)?(?:\s+been|\s+got|\s+just)?\s+"
    r"|(?:they|we|i|she|he)(?:'ve|\s+have|\s+had\s+to)?\s+(?:just\s+)?(?=\w+\s+(?:it|that)\b))"
    r"(?:moved|pushed|rescheduled|postponed|changed|bumped|brought\s+forward|delayed)"
    r"(?:\s+(?:it|that))?(?:\s+back)?\s+(?:to|until)\s+(?P<new>[^,;.!?]+?)$",
    _I,
)
# "Three now, we adopted a kitten", "Three!": a count said alone restates a count; only a
# claim that counts something takes it.
_COUNT_NOW_RE = re.compile(
    rf"^(?:{_INTERJECTION})?(?:just\s+|only\s+)?(?P<new>\d{{1,3}}(?!,\d{{3}})|one|two|three|four"
    r"|five|six|seven|eight|nine|ten)(?:\s+now)?(?:,.*)?$",
    _I,
)
# "Ramen, these days": a value said with when it became so restates the claimed one.
_THESE_DAYS_RE = re.compile(
    r"^(?P<new>(?!(?:busy|good|fine|ok|okay|great|better|worse|tired|quiet|same|not|no|it|that"
    r"|this|i|we|he|she|they|you)\b)[\w-]+(?:\s+[\w-]+){0,2}?),?\s+(?:these\s+days|nowadays"
    r"|lately)$",
    _I,
)
# "Theo, with a T", "Madison, one d": a name spelled out restates the claimed one.
_SPELLED_RE = re.compile(
    rf"^(?:(?:it's|it\s+is|that's|(?:his|her|their)\s+name's)\s+)?(?P<new>{_ONE_NAME}),?\s+"
    r"(?:with\s+an?\s+(?-i:[A-Za-z])(?:\s+\w+)?|(?:with\s+)?(?:two|double|one|single)\s+"
    r"(?-i:[A-Za-z])(?:'?s)?)$",
    _I,
)
# "Year 5 since September!": a word and its number restate the claim's same word's number.
_NUMBERED_RE = re.compile(r"^(?P<new>(?P<word>[a-z]+)\s+(?P<n>\d{1,3}))(?:\s+now)?$", _I)
# Said without a denial, each names only the new value of what the answered turn claimed.
_OF_ANOTHER = (_THEIR_NAME_RE, _THEIR_AGE_RE)
"""Restatements said of a he or she."""
_RESTATEMENTS = (
    _THEIR_NAME_RE,
    _THEIR_AGE_RE,
    _SWITCHED_RE,
    _NEW_ONE_RE,
    _MINE_RE,
    _COUNT_NOW_RE,
    _SPELLED_RE,
    _THESE_DAYS_RE,
)


@dataclass(frozen=True)
class Repair:
    new: str
    old: str | None
    """None: the old value is whatever the answered claim said."""
    alongside: bool = False
    """Made beside a statement of the speaker's own ("It's Jordan, Jamie is my brother",
    "Make that 3 - our son was born on Monday!"), so it stands where the model read that
    statement, on the slots the statement leaves alone."""
    others: bool = False
    """Said of "he" or "she": it edits only a claim about someone other than the speaker."""
    renumbers: bool = False
    """A word and its number said alone ("Year 5"): it edits only a claim that numbers the
    same word, so "Room 12 now" leaves "works at Tesco"."""
    of_another: bool = False
    """Said of "he" or "she" ("Her name is Lara", "She is 61"): it edits who the claim
    names (the wife it calls Laura), never the speaker's own name or age."""


def read_repairs(user_text: str) -> list[Repair]:
    """The repairs a user turn makes, one per sentence that is nothing but a repair. A
    denial on its own ("Not anymore.") or a change said as such ("We moved offices") makes
    what follows a repair too."""
    found, denied, changed = [], False, False
    for sentence in _with_trailing_nots(_sentences(user_text)):
        sentence = sentence.strip().rstrip(".!")
        if len(sentence) > _MAX_CHARS:
            denied = changed = False
            continue
        # "Boulder, not Denver — I keep mixing them up": the repair may be one dash's part;
        # "I switched dentists, it's Dr. Grant now": or what follows a change said as such.
        parts = [sentence, *_DASH_RE.split(sentence)] if _DASH_RE.search(sentence) else [sentence]
        head, comma, tail = _LEAD_RE.sub("", sentence).partition(", ")
        if comma and (_CHANGED_RE.match(head) or _OLD_ONE_RE.match(head) or _left(head)):
            parts += [head, tail]
        elif comma and _MOVED_TO_RE.match(tail):
            parts.append(tail)  # "They rang, it's been moved to the 21st"
        repair = None
        for part in parts:
            repair = repair or _read(part, denied, changed)
            changed = changed or bool(_CHANGED_RE.match(part) or _OLD_ONE_RE.match(part))
            changed = changed or _left(part)
        if repair:
            found.append(repair)
        changed = bool(_CHANGED_RE.match(sentence) or _OLD_ONE_RE.match(sentence))
        changed = changed or _left(sentence)
        denied = bool(_DENIAL_RE.match(sentence)) and not _LEAD_RE.sub("", sentence).strip()
    return found


_NAME_LAST = (_NEW_ONE_RE, _MINE_RE)
"""Restatements that end in the new name."""


def _named_in_lowercase(body: str) -> str:
    """ "new one's called juniper", typed all in lowercase: the word "called" names is a
    name ("new one is great" names none)."""
    if not body.islower():
        return body
    return _CALLED_LAST_RE.sub(lambda m: m[0].capitalize(), body)


_CALLED_LAST_RE = re.compile(r"(?:(?<=\bcalled\s)|(?<=\bnamed\s))[a-z][\w'-]*$")


def _left(sentence: str) -> bool:
    return bool(_LEFT_THERE_RE.match(_LEAD_RE.sub("", sentence).strip()))


# "It's Jesse, actually", "It's March 12, you said May": what marks the correction may
# come last.
_ACTUALLY_END_RE = re.compile(
    r",?\s+(?:actually|technically|but\s+close(?:\s+enough)?|close\s+(?:though|enough)"
    r"|you\s+(?:said|wrote|had|put|thought|missed|forgot|dropped|added|swapped|flipped"
    r"|mixed\s+up|transposed|confused)\s+[^,]{1,30}?"
    # "..., easy mix up": a mix-up owned in the same sentence
    r"|(?:an?\s+)?(?:easy|common|classic|honest|my)\s+mix[\s-]?up"
    r"|i\s+(?:always\s+)?(?:mix|get)\s+(?:them|those|the\s+two)\s+(?:up|mixed\s+up))"
    r"(?:\s*,.*)?$",
    _I,
)


# "bees not wasps lol": laughter at the end is no part of the repair, nor a repair itself.
_LAUGHTER_END_RE = re.compile(r"[\s,!.]+(?:lol|lmao|rofl|(?:ha){2,}|(?:he){2,}|xd)[\s!.]*$", _I)

_AFTER_HONORIFIC_RE = re.compile(rf"\b{_TITLE}\.$", _I)


def _sentences(text: str) -> list[str]:
    """`text` cut after . ! and ?, but not after the "Dr." of "Dr. Okafor"."""
    out: list[str] = []
    for piece in re.split(r"(?<=[.!?])\s+", text.strip()):
        if out and _AFTER_HONORIFIC_RE.search(out[-1]):
            out[-1] += " " + piece
        else:
            out.append(piece)
    return out


_NOT_ALONE_RE = re.compile(
    rf"^not\s+(?!(?:sure|really|yet|now|today|bad|much|quite|exactly)\b){_PART}[.!]*$", _I
)
_BARE_VALUE_RE = re.compile(rf"^(?:{_NAME_PART}|\d[\w ,.]*)$")


# "Everyone mixes those up", "Easy mix-up": owning a mix-up after a bare value.
_MIX_UP_RE = re.compile(
    r"^[^,;]{0,40}\b(?:mix(?:es|ed|ing)?\s+(?:those|them|these|the\s+two|it)\s+up|mix-?up"
    r"|confus(?:e|es|ed|ing)\s+(?:those|them|these|the\s+two))\b[^,;]{0,20}[.!]*$",
    _I,
)


def _with_trailing_nots(sentences: list[str]) -> list[str]:
    """ "Clara. Not Claire.": a "not" said as a sentence of its own belongs to the name or
    number just before it; "Iowa! Everyone mixes those up.": so does a mix-up owned."""
    out: list[str] = []
    for sentence in sentences:
        before = out[-1].rstrip(".!") if out else ""
        if not _BARE_VALUE_RE.match(before):
            out.append(sentence)
        elif _NOT_ALONE_RE.match(sentence):
            out[-1] = f"{before}, {sentence[:1].lower()}{sentence[1:]}"
        elif _MIX_UP_RE.match(sentence):
            out[-1] = f"No, {before}"
        elif _ELSEWHERE_AFTER_RE.match(sentence) and not _ACKNOWLEDGED_RE.match(before):
            out[-1] = f"It's {before}, {sentence.rstrip('.!')}"
        else:
            out.append(sentence)
    return out


def _read(sentence: str, denied: bool, changed: bool = False) -> Repair | None:
    """The repair `sentence` makes: after a denial any short new word; after a slip or a
    change said as such ("We moved offices"), only a name, a number or a date."""
    sentence = _LAUGHTER_END_RE.sub("", sentence)
    if _ACTUALLY_END_RE.search(sentence):
        sentence, denied = _ACTUALLY_END_RE.sub("", sentence), True
    body = _NOWADAYS_RE.sub("", _SINCE_RE.sub("", _LEAD_RE.sub("", sentence).strip()))
    led = body != sentence
    slip = led and bool(_SELF_REPAIR_RE.match(sentence))
    # "Make that 3 - our son was born on Monday!": a slip owned up to stands beside a
    # statement; "Actually, I switched to VS Code" says nothing of what it answered.
    owned = slip and bool(_OWNED_SLIP_RE.match(sentence))
    for regex in (
        _RATHER_RE,
        _MEANT_RE,
        _OLD_IS_ELSEWHERE_RE,
        _THEIRS_MINE_RE,
        _NEW_NOT_OLD_RE,
        _NOT_OLD_NEW_RE,
        _WAS_NOW_RE,
        _LEFT_RE,
        _I_LEFT_RE,
    ):
        if not (m := regex.match(body)):
            continue
        new = _CLEFT_RE.sub("", m["new"])
        if _DASH_RE.search(f" {m['old']} "):
            continue  # "Paralegal, not a lawyer - yet!": the dash ends the repair
        if regex is _OLD_IS_ELSEWHERE_RE and (_dated(new) or not could_be_person(new)):
            continue  # "It's Tuesday, Sam is my boss" moves no one
        if _short(new) and _short(m["old"]):
            return Repair(_bare(new), _bare(m["old"]), regex is _OLD_IS_ELSEWHERE_RE)
    if gone := _THEY_LEFT_RE.match(body):
        new = gone["lower"].title() if gone["lower"] else _bare(gone["new"])
        return Repair(new, None)
    if switched := _SWITCHED_TO_RE.match(body):
        return Repair(switched["new"], None, others=True)
    for regex in _RESTATEMENTS:
        said = _named_in_lowercase(body) if regex in _NAME_LAST else body
        if restated := regex.match(said):
            # A count said alone stands beside other news: "Three! The baby arrived."; what
            # is said of a he or she is never the speaker's own ("She is 61" after "I am 29").
            return Repair(
                restated["new"],
                None,
                alongside=owned or regex is _COUNT_NOW_RE,
                of_another=regex in _OF_ANOTHER,
            )
    if (numbered := _NUMBERED_RE.match(body)) and not _dated(numbered["new"]):
        return Repair(numbered["new"], None, renumbers=True)
    if (moved := _MOVED_TO_RE.match(body)) and _dated(moved["new"]):
        return Repair(moved["new"], None)
    if changed_to := _DOSE_CHANGED_RE.match(body) or _AMOUNT_CHANGED_RE.match(body):
        return Repair(changed_to["new"], None)
    denied = denied or (led and bool(_DENIAL_RE.match(sentence)))
    if slip and (renamed := _OLD_IS_NEW_RE.match(body)):
        return Repair(renamed["new"], renamed["old"])
    # "she's 8, she had her birthday last week": the repair is the first part.
    if not (denied or slip or changed):
        return None
    if denied and (went := _WENT_TO_RE.match(body)):
        return Repair(went["new"], None)
    if m := _ONLY_NEW_RE.match(body) or _ONLY_NEW_RE.match(_CLAUSE_COMMA_RE.split(body)[0]):
        new = _bare(m["said"] or m["role"] or m["framed"] or m["date"] or m["number"] or m["name"])
        if _short(new) and (denied or _specific(new)) and not _SOMEONE_ELSES_RE.match(new):
            return Repair(new, None, alongside=owned)
    return None


# A comma that ends a clause; "1,950" keeps its own.
_CLAUSE_COMMA_RE = re.compile(r",(?!\d{3}\b)")
# "No, that's my sister's cat": whose it is, not what it is.
_SOMEONE_ELSES_RE = re.compile(r"^(?:my|your|his|her|their|our)\s+[\w-]+'s\b", _I)


def _specific(word: str) -> bool:
    """A name, a number or a date: what a slip of the tongue gets wrong."""
    return word[:1].isupper() or bool(_DIGIT_RE.search(word)) or _dated(word)


# Words that answer without naming anything: "Not bad, thanks", "No, no problem".
_SMALL_TALK_RE = re.compile(
    r"^(?:(?:thanks|thank|you|please|ok|okay|sure|really|at|all|yet|much|bad|great|good|fine"
    r"|worries|problem|big|deal|a|the)\s*)+$",
    _I,
)


# "It's no lactose": what a denial says is not, which names no new value.
_DENIED_RE = re.compile(r"^(?:no|not|never|none)\b", _I)
_NOT_RE = re.compile(r"\bnot\b", _I)


def _short(text: str) -> bool:
    """A few words that name something: "Thursday", not "thanks", "a big deal" or "no
    lactose"."""
    text = text.strip()
    return (
        0 < len(text.split()) <= _MAX_WORDS
        and not _SMALL_TALK_RE.match(text)
        and not _DENIED_RE.match(text)
        and not _NOT_RE.search(text)  # "Wickes not Dunelm now": the swap is read apart
    )


# What frames the new word without being part of it: "I'm at Amazon", "it's the Berlin office".
_FRAME_RE = re.compile(
    # "Is Fabia, not Octavia": "it is" with its "it" left out, as a second language may
    r"^(?:(?:i'm|i\s+am|we're|we\s+are|he's|she's|they're|it's|it\s+is|it\s+was|that's|is|was"
    r"|i\s+meant?)\s+)?"
    rf"(?:(?:at|in|with|on|from|for)\s+)?(?:(?:a|an|the)\s+)?(?:{_TITLE}\.?\s+)?",
    _I,
)


def _bare(text: str) -> str:
    """The new word without its frame, the apostrophe that closes "St Thomas'", or a dash
    left dangling where the repair's clause ends ("it's Monzo — I switched in May")."""
    return _FRAME_RE.sub("", text.strip()).rstrip(" —–-,;:").rstrip("'")


def repaired(
    repairs: Sequence[Repair],
    active: Iterable[Fact],
    answered: Sequence[Fact],
    speaker: str,
    at: datetime | None = None,
) -> list[ExtractedFact]:
    """The facts the repairs make: each edits the newest fact that holds its old word
    (`active`, newest first; the speaker's own facts before others') or, with no old
    word, a claim of the answered turn. A day named relative to `at` ("Saturday") is
    written as the date it means, like the claim it replaces."""
    active = sorted(active, key=lambda f: f.subject != speaker)
    out = []
    for repair in repairs:
        edited = None
        if repair.old is not None:
            target = next((f for f in active if _holds(f, repair.old)), None)
            edited = replace_in(target, repair.old, repair.new) if target else None
            edited = edited or day_of_month_moved(repair, active) or _refined(repair, active)
        if edited is None and (repair.old is None or _dated(repair.old)):
            # A day the claim wrote as a date ("Tuesday" is "november 3") is not found by
            # its word; the claim the user answers is what it corrects.
            claims = [
                f
                for f in answered
                if (not repair.others or f.subject != speaker)
                and not (repair.of_another and _own_identity(f, speaker))
            ]
            fill = _renumbered if repair.renumbers else _fill
            edited = next(filter(None, (fill(f, repair.new, at) for f in claims)), None)
        if edited is not None:
            out.append(edited)
    return out


def _own_identity(claim: Fact, speaker: str) -> bool:
    """Whether `claim` is the speaker's own name, age or the like."""
    return claim.subject == speaker and claim.category is FactCategory.IDENTITY


_ORDINAL_RE = re.compile(r"^(?:the\s+)?(?P<day>\d{1,2})(?:st|nd|rd|th)$", _I)


_DAY_OF_MONTH_RE = re.compile(
    rf"^(?:the\s+)?(?P<day>\d{{1,2}})(?:st|nd|rd|th)(?:\s+of\s+(?P<month>{dates.MONTH_PATTERN}))?$"
    rf"|^(?P<month_first>{dates.MONTH_PATTERN})\s+(?:the\s+)?(?P<day_after>\d{{1,2}})(?:st|nd|rd|th)?$",
    _I,
)


def day_of_month_moved(repair: Repair, active: Sequence[Fact]) -> ExtractedFact | None:
    """ "The 12th, not the 10th", "the 13th of March, not the 3rd": the newest fact dated
    the 10th of a month moves to the 12th (of the month said, if one is)."""
    old, new = _ORDINAL_RE.match(repair.old or ""), _DAY_OF_MONTH_RE.match(repair.new)
    if not (old and new):
        return None
    new_day = new["day"] or new["day_after"]
    for fact in active:
        if (day := MONTH_DAY_RE.match(fact.value)) and day["day"] == old["day"]:
            month = new["month"] or new["month_first"] or day["month"]
            return replace_in(fact, fact.value, f"{month.title()} {new_day}")
    return None


def _refined(repair: Repair, active: Sequence[Fact]) -> ExtractedFact | None:
    """ "Perth, Scotland, not Australia": the old word held by no fact, the new one makes
    a held value more exact."""
    head = repair.new.split(",")[0].strip()
    if head == repair.new.strip():
        return None
    target = next((f for f in active if f.value.lower() == head.lower()), None)
    return replace_in(target, target.value, repair.new) if target else None


def word_re(word: str) -> re.Pattern[str]:
    """`word` as a whole word (or words), in any case."""
    return re.compile(rf"(?<!\w){re.escape(word.strip())}(?!\w)", _I)


def _holds(fact: Fact, word: str) -> bool:
    pattern = word_re(word)
    return bool(pattern.search(fact.value) or pattern.search(fact.subject))


def _fill(claim: Fact, new: str, at: datetime | None = None) -> ExtractedFact | None:
    """The claim with `new` in the place a name or a value of its kind takes."""
    dated = _dated(new)
    claimed_day = MONTH_DAY_RE.match(claim.value)
    if claimed_day and (ordinal := _ORDINAL_RE.match(new)):
        # "Close, it's the 15th" for "June 5": the month stays the claim's.
        new = f"{claimed_day['month'].title()} {ordinal['day']}"
    elif dated and at is not None and claimed_day:
        hit = dates.leading_date(new, at)
        new = f"{hit.day:%B} {hit.day.day}" if hit else new
    for measure in (_DOSE_RE, _MONEY_RE):
        if measure.fullmatch(new):
            # "30mg" for "20mg of citalopram", "£1,350" for "£1,200 a month": the amount only
            held = measure.search(claim.value)
            return replace_in(claim, held[0], new.lower()) if held else None
    if claimed_day and new.isdigit() and not 1 <= int(new) <= 31:
        return None  # "79" after "my birthday was Tuesday" is an age, no day of a month
    if _COUNT_RE.fullmatch(new) and (count := _COUNT_RE.search(claim.value)):
        return _recounted(claim, count[0], new.lower())
    if dated or not (could_be_person(new) and new[:1].isupper()):
        return replace_in(claim, claim.value, new) if dated or _fits(claim.value, new) else None
    people = [p for p in (claim.value, claim.subject) if p not in ("user", "global")]
    named = [p for p in people if _named(claim.text, p)]
    if not named and _fits(claim.value, new):
        # "Ramen, these days": capitalised only as the sentence's first word
        return replace_in(claim, claim.value, new)
    # A name takes the place of a name; a claim that names nobody it could replace is left.
    edits = (replace_in(claim, p, new) for p in named)
    return next(filter(None, edits), None)


def _recounted(claim: Fact, count: str, new: str) -> ExtractedFact | None:
    """ "4" for "3 cats": the count, not the cats; "one" for "two cats" is one cat."""
    if new in ("one", "1") and (
        plural := re.search(rf"\b{re.escape(count)}\s+([\w-]+)s\b", claim.value)
    ):
        return replace_in(claim, plural[0], f"{new} {plural[1]}")
    return replace_in(claim, count, new)


def _renumbered(claim: Fact, new: str, at: datetime | None = None) -> ExtractedFact | None:
    """ "Year 5" for "year 4": only a claim that numbers the same word takes it."""
    word = new.split()[0]
    held = re.search(rf"\b{re.escape(word)}\s+\d{{1,3}}\b", claim.value, _I)
    return replace_in(claim, held[0], new.lower()) if held else None


def _fits(old: str, new: str) -> bool:
    """Whether `new` can take the place of `old`: a number only that of a number ("she's
    8" for 7), so "Sorry, it's late" edits no age; "a Mazda 3" is a name, not a number."""
    return _counted(old) == _counted(new)


def _counted(value: str) -> bool:
    return bool(_DIGIT_RE.match(value.strip()))


def _dated(word: str) -> bool:
    return bool(dates.DATE_RE.fullmatch(word.strip()))


_DIGIT_RE = re.compile(r"\d")
_COUNT_RE = re.compile(
    r"(?<![\w.])(?:\d+(?:[.,]\d+)?|one|two|three|four|five|six|seven|eight|nine|ten)(?![\w.])", _I
)
"""A count, in digits or words: "3 cats", "two kids"."""
MONTH_DAY_RE = re.compile(rf"^(?P<month>{dates.MONTH_PATTERN})\s+(?P<day>\d{{1,2}})$", _I)
"""A claim's day as the personal facts write it: "november 27"."""


def _named(text: str, part: str) -> bool:
    """Whether `text` writes `part` as a name: "Maria", not "the data team"."""
    found = word_re(part).search(text)
    return found is not None and could_be_person(part) and found[0].istitle()


def replace_in(fact: Fact, old: str, new: str) -> ExtractedFact | None:
    pattern = word_re(old)
    said = pattern.search(fact.text)
    if said is None:
        return None  # the sentence does not show the old word, so it cannot be rewritten

    if said[0][:1].isupper() and new.islower():
        new = new.title()  # "asda not tesco": the name as the sentence wrote it, "Asda"

    def swap(text: str) -> str:
        return pattern.sub(new.strip(), text)

    return ExtractedFact(
        text=_article_before(swap(fact.text), new.strip()),
        category=fact.category,
        subject=swap(fact.subject).lower(),
        slot=swap(fact.slot).lower(),
        value=swap(fact.value).lower() if pattern.search(fact.value) else fact.value,
        confidence=1.0,  # an explicit correction, as the models score one
        is_correction=True,
        retracts=(SlotRef(subject=fact.subject, slot=fact.slot, value=fact.value),),
    )


_ARTICLE_RE = re.compile(r"\b(?P<article>an?) (?=(?P<word>\w+))", _I)


def _article_before(text: str, new: str) -> str:
    """ "works as a paramedic" with "emergency care assistant" in its place takes "an";
    only the article before the new words changes, by their first letter's sound as
    spelt ("an hour" and "a university" are left to whoever wrote them)."""

    def fitted(match: re.Match[str]) -> str:
        if not new.lower().startswith(match["word"].lower()) or not match["word"][:1].isalpha():
            return match[0]
        vowel = match["word"][:1].lower() in "aeio"
        return ("an " if vowel else "a ") if match["article"].islower() else match[0]

    return _ARTICLE_RE.sub(fitted, text)


# "Change of plans: I'm training for a half marathon instead": a plan keyed by its object
# would sit beside the 10k it replaces; these words say it replaces it.
_INSTEAD_RE = re.compile(
    r"\binstead\b|\bchange\s+of\s+plans?\b|\bchanged\s+my\s+mind\b|\bnew\s+plan\b", _I
)


def says_instead(user_text: str) -> bool:
    return len(user_text) <= _MAX_CHARS and bool(_INSTEAD_RE.search(user_text))


def replaced_kind(fact: ExtractedFact | Fact) -> str | None:
    """What "instead" swaps one of for another: a plan, or a lesson ("I'm doing Korean
    instead"), both keyed by what they are of."""
    if fact.category is FactCategory.PLAN:
        return "plan"
    return "learning" if fact.slot.startswith("learning:") else None


# "Instead of going out tonight" swaps an evening, not the lesson one was learning.
_INSTEAD_OF_RE = re.compile(r"\binstead\s+of\b", _I)


def replacing_plans(
    extracted: Sequence[ExtractedFact], active: Iterable[Fact], user_text: str = ""
) -> list[ExtractedFact]:
    """`extracted`, where each new plan, or lesson taken "instead", retracts its subject's
    newest other one (`active` is newest first)."""
    kinds = {"plan"} if _INSTEAD_OF_RE.search(user_text) else {"plan", "learning"}
    kept = [f for f in active if replaced_kind(f) in kinds]
    out = []
    for item in extracted:
        kind = replaced_kind(item)
        old = next(
            (
                f
                for f in kept
                if f.subject == item.subject and f.slot != item.slot and replaced_kind(f) == kind
            ),
            None,
        )
        if kind in kinds and old is not None and not item.retracts:
            gone = SlotRef(subject=old.subject, slot=old.slot, value=old.value)
            item = item.model_copy(update={"retracts": (gone,)})
        out.append(item)
    return out


_SWITCH_RE = re.compile(r"\b(?:switch|chang|swapp?|replac)\w*|\binstead\b|\bonto\b", _I)
"""Words that say one thing took another's place: "switched me to", "changed it",
"swapped", "replaced", "instead", "off X onto Y"."""


def switched_medicines(
    extracted: Sequence[ExtractedFact], active: Iterable[Fact], user_text: str
) -> list[ExtractedFact]:
    """`extracted`, where a new medicine said in a sentence of switching ("the doctor
    switched me to sertraline", "changed it, on naproxen now") ends the one other medicine
    its subject takes. With two or more taken, or two new ones said, which replaces which
    is unclear, and each stays; a medicine named as replaced is ended by its own reading."""
    new = [f for f in extracted if _taken(f) and not f.ends and not f.retracts]
    if len(new) != 1 or not _said_switching(new[0].value, user_text):
        return list(extracted)
    item = new[0]
    others = [f for f in active if f.subject == item.subject and _taken(f) and f.slot != item.slot]
    if len(others) != 1:
        return list(extracted)
    gone = SlotRef(subject=item.subject, slot=others[0].slot, value=others[0].value)
    return [f.model_copy(update={"ends": (gone,)}) if f is item else f for f in extracted]


def _taken(fact: ExtractedFact | Fact) -> bool:
    """A medicine taken now: not one said to be over, nor denied."""
    said = fact.value.lower()
    return fact.slot.startswith("medication:") and not said.startswith(("not ", "no "))


def _said_switching(value: str, user_text: str) -> bool:
    """Whether the sentence that names `value` says one thing took another's place."""
    for sentence in sentences(user_text):
        if value.lower() in sentence.lower():
            return bool(_SWITCH_RE.search(sentence))
    return False


def beside_edits(
    read: Sequence[ExtractedFact], edits: Sequence[ExtractedFact]
) -> list[ExtractedFact]:
    """The readings of a repair turn (Standing.BESIDE_REPAIR) that no edit of this layer
    covers, as facts. The edits know the value held and what replaced it; a reader's
    reading of the same words ("tree nuts" in "Sorry, I meant tree nuts, peanuts are
    fine") would keep the old value beside the new. So a reading gives way where an edit
    is of the same person's kind of fact, or names its value, old or new. A turn the layer
    edits nothing in ("44" after "How old are you?") keeps what the reader read."""
    kinds = {(e.subject, e.category) for e in edits}
    named = {
        word
        for e in edits
        for value in (e.value, *(ref.value for ref in (*e.retracts, *e.ends)))
        for word in words(value)
    }
    return [
        item.model_copy(update={"standing": Standing.FACT})
        for item in read
        if item.standing is Standing.BESIDE_REPAIR
        and (item.subject, item.category) not in kinds
        and not named & set(words(item.value))
    ]
