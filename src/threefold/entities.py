"""Entities: the people a tenant's facts are about, and the names that mean each of them.

A fact's subject is an entity's key, its full name in lowercase ("lena ortiz"). Every
alias resolves to that key when it names exactly one entity of the tenant: "Lena" is Lena
Ortiz until a second Lena appears, after which the text has to say which one. A turn's
speaker is an entity too, so "I" in Caroline's turn and "Caroline" elsewhere meet.
"""

import re
from collections.abc import Iterable

from threefold import dates
from threefold.domain import Fact, FactCategory
from threefold.models.base import KIN_SLOT, ExtractedFact, SlotRef
from threefold.models.heuristic.personal_words import RELATION_RE
from threefold.models.heuristic.text import PRONOUN_OPENING_RE, STOPWORDS
from threefold.store.base import Store

PERSON = "person"

HOLDER_SLOT = "holder"
"""A title's holder: (title, holder) = person, the inverse of (person, role) = title."""
ROLE_SLOT = "role"

_NAME_RE = re.compile(r"^[^\W\d_][\w'.-]*(?: [^\W\d_][\w'.-]*){0,3}$")
_NOT_PEOPLE = frozenset({"user", "assistant", "global", "note", "team", "we", "i", "me"})


def key_of(name: str) -> str:
    """An entity's key: its name, lowercase, single-spaced."""
    return " ".join(name.lower().split())


def could_be_person(name: str) -> bool:
    key = key_of(name)
    return bool(_NAME_RE.match(key)) and key not in _NOT_PEOPLE


_CAPITALISED_RE = re.compile(r"(?<![\w'’-])[A-Z][\w'’-]*(?:[ \t]+[A-Z][\w'’-]*)?")
_NAMES_READ = 4000
"""The characters of a text capitalised_names reads: a pasted document names no speaker."""


def capitalised_names(text: str) -> list[str]:
    """The keys a capitalised word, or two, of `text` may name someone by, once each:
    "Marco's" -> "marco", "Lena Ortiz" -> "lena ortiz" and "lena"."""
    keys: list[str] = []
    for found in _CAPITALISED_RE.finditer(text[:_NAMES_READ]):
        words = [re.sub(r"['’]s$", "", w) for w in found[0].split()]
        keys += [key_of(" ".join(words)), key_of(words[0])]
    return [k for k in dict.fromkeys(keys) if could_be_person(k)]


_WORD_RE = re.compile(r"[^\W\d_][\w'’-]*")


def lowercase_names(text: str) -> list[str]:
    """In text written all in lowercase, where a capital tells nothing ("shona's the
    practice manager noo"), the words that may name someone, once each: every word but the
    commonest, an 's left out. None in text that capitalises anything."""
    read = text[:_NAMES_READ]
    if any(c.isupper() for c in read):
        return []
    words = (re.sub(r"['’]s$", "", w) for w in _WORD_RE.findall(read))
    return [w for w in dict.fromkeys(words) if len(w) > 2 and w not in STOPWORDS]


def resolve(store: Store, tenant: str, name: str) -> str:
    """The key of the one entity `name` names, else `name` as a key."""
    key = key_of(name)
    found = store.entities_named(tenant, key)
    return found[0] if len(found) == 1 else key


_PERSONAL = frozenset(
    {
        FactCategory.IDENTITY,
        FactCategory.LOCATION,
        FactCategory.WORK,
        FactCategory.HEALTH,
        FactCategory.DIET,
        FactCategory.IMPORTANT_DATE,
        FactCategory.SKILL,
        FactCategory.RELATIONSHIP,
    }
)
"""Categories whose subject is always a person: someone's home, job, diet, relations."""
_ANIMALS = frozenset({"dog", "cat", "parrot", "rabbit", "hamster", "horse", "pet"})
"""Relationship slots that name a pet, not a person ("cat:miso")."""
_NAMELESS = _ANIMALS | {KIN_SLOT}
"""Relationship slots whose value names no one: a pet, or a relative said without a name
("has:child" = "kids")."""


# "he", "she" and their other forms anywhere: "I must correct myself: she is 11"
_THIRD_PERSON_RE = re.compile(
    r"(?<![\w'’])(?:he|she|him|his|her|(?-i:hes|shes))(?![\w’])", re.IGNORECASE
)


def refers_back(text: str) -> bool:
    """Whether `text` says "he", "she", "his" or "her" anywhere, or opens a sentence with
    "they", whom it may leave unnamed ("they" only stands for a plural relation: see the
    model's reading)."""
    return _first_pronoun(text) is not None


def _first_pronoun(text: str) -> re.Match[str] | None:
    found = [m for m in (PRONOUN_OPENING_RE.search(text), _THIRD_PERSON_RE.search(text)) if m]
    return min(found, key=lambda m: m.start()) if found else None


def referent(claims: Iterable[Fact], speaker: str) -> str | None:
    """Whom a following "he" or "she" means: the one person other than `speaker` whom
    `claims` are about, as the speaker would name them ("my sister", "Raj"); None if the
    claims are about nobody else, or about more than one person."""
    people = {
        name
        for f in claims
        if f.category in _PERSONAL
        for name in (f.subject, *_named_relative(f))
        if name != speaker and could_be_person(name)
    }
    if len(people) != 1:
        return None
    key = people.pop()
    owner, _, relation = key.partition("'s ")
    if not relation:
        return key.title()
    return f"my {relation}" if owner == speaker else f"{owner.title()}'s {relation}"


# A capitalised word past a sentence's first: "How's Dev doing?" names Dev, and so does
# "Dev's new job" (the 's is no part of the name: "O'Brien" keeps its apostrophe).
_INNER_NAME_RE = re.compile(
    r"(?<=[\w,;:] )(?P<name>[A-Z][a-z][\w-]*(?:['’](?!s\b)[\w-]+)*)(?:['’]s)?\b"
)
_NOT_NAMES_RE = re.compile(
    rf"^(?:{dates.MONTH_PATTERN}|monday|tuesday|wednesday|thursday|friday|saturday|sunday"
    r"|christmas|easter|god|ok|english)$",
    re.IGNORECASE,
)
# "How's your son doing?": to the one who answers, "my son".
_YOUR_RELATIVE_RE = re.compile(rf"\byour\s+(?P<relation>{RELATION_RE})\b(?!\s+(?-i:[A-Z]))", re.I)


def named_in(text: str, speaker_name: str | None, known: Iterable[str] = ()) -> str | None:
    """The one person a turn names, whom a reply's "he" or "she" may mean: by a relation
    of the one who answers ("How's your son doing?": "my son"), by a capitalised word
    past its sentences' first ("How's Dev doing?"), or as one of `known` (keys of people
    the memory knows, whom the turn names anywhere: "Aino is 7, so she starts school?");
    None if it names none or several."""
    relatives = {f"my {m['relation'].lower()}" for m in _YOUR_RELATIVE_RE.finditer(text)}
    names = relatives | {
        found["name"]
        for found in _INNER_NAME_RE.finditer(text)
        if not _NOT_NAMES_RE.match(found["name"]) and found["name"] != speaker_name
    }
    by_key = {key_of(name): name for name in names} | {
        key: key.title() for key in known if key not in {key_of(n) for n in names}
    }
    return by_key.popitem()[1] if len(by_key) == 1 else None


# "my 2-year-old", "our youngest", "my sister": someone of one's own named in the turn
_OWN_PERSON_RE = re.compile(
    rf"\b(?:my|our)\s+(?:[\w-]+\s+){{0,2}}?(?:{RELATION_RE}|\d+[- ](?:year|month)[- ]old)\b",
    re.IGNORECASE,
)


def names_before_pronoun(text: str, speaker_name: str | None) -> bool:
    """Whether `text` names someone (a name, "my son", "my 2-year-old") before its first
    "he", "she" or "her", or a sentence it opens with "they": that pronoun then means them,
    not whom the turn before named."""
    first = _first_pronoun(text)
    before = text[: first.start()] if first else text
    if _OWN_PERSON_RE.search(before):
        return True
    capitalised = (m["name"] for m in _INNER_NAME_RE.finditer(before))
    return any(not _NOT_NAMES_RE.match(n) and n != speaker_name for n in capitalised)


def _named_relative(fact: Fact) -> tuple[str, ...]:
    """The person a relation names ("Priya is the user's fiancée": priya), not a pet."""
    relation = fact.category is FactCategory.RELATIONSHIP and fact.slot.split(":")[0]
    if not relation or relation in _NAMELESS or not fact.value[:1].isalpha():
        return ()
    return (fact.value,) if fact.value.title() in fact.text else ()


def people_in(item: ExtractedFact | Fact) -> list[str]:
    """The names of the people a fact is about, as keys: who holds a role, who has one,
    whose home or job it is, and who a relation names."""
    names = []
    role = item.category is FactCategory.ROLE
    if role and item.slot == HOLDER_SLOT:
        names.append(item.value)
    if (role and item.slot == ROLE_SLOT) or item.category in _PERSONAL:
        names.append(item.subject)
    if item.category is FactCategory.RELATIONSHIP and item.slot.split(":")[0] not in _NAMELESS:
        names.append(item.value)
    return [key_of(n) for n in names if could_be_person(n)]


def resolved(store: Store, tenant: str, item: ExtractedFact) -> ExtractedFact:
    """`item` with its subject (and a holder's name) keyed by entity."""
    subject = resolve(store, tenant, item.subject)
    value = item.value
    if item.slot == HOLDER_SLOT:
        value = resolve(store, tenant, value)
    retracts = tuple(_resolved_ref(store, tenant, r) for r in item.retracts)
    ends = tuple(_resolved_ref(store, tenant, r) for r in item.ends)
    if (subject, value, retracts, ends) == (item.subject, item.value, item.retracts, item.ends):
        return item
    return item.model_copy(
        update={"subject": subject, "value": value, "retracts": retracts, "ends": ends}
    )


def _resolved_ref(store: Store, tenant: str, ref: SlotRef) -> SlotRef:
    value = resolve(store, tenant, ref.value) if ref.slot == HOLDER_SLOT else ref.value
    return SlotRef(subject=resolve(store, tenant, ref.subject), slot=ref.slot, value=value)


def remembered(store: Store, tenant: str, item: ExtractedFact) -> ExtractedFact:
    """Register the people `item` names, then key it by entity. Call inside a transaction."""
    for key in people_in(item):
        _remember(store, tenant, key, _as_written(item.text, key))
    return resolved(store, tenant, item)


def account_alias(account: str) -> str:
    """How a source's account id (a Slack user id) is kept among a person's names: marked,
    so that it never meets a name ('@u02' is an account, 'u02' may be a word)."""
    return "@" + key_of(account).removeprefix("@")


def remember_speaker(
    store: Store,
    tenant: str,
    name: str,
    account: str | None = None,
    aliases: Iterable[str] = (),
) -> str | None:
    """A turn's speaker or a message's author is a person of the tenant; `account` is
    their id in the source (a Slack user id), and `aliases` other names of theirs (a
    handle, a full name). The account is who they are: a new name on a known account is
    that person renamed, and a known name on a new account is someone else, kept under
    the name with the account beside it ("ana (u02)"). Returns the person's key. Call
    inside a transaction."""
    if not could_be_person(name):
        return None
    key = key_of(name)
    others = tuple(key_of(a) for a in aliases if a and could_be_person(a))
    if account is None:
        _remember(store, tenant, key, " ".join(name.split()))
        return key
    mark = account_alias(account)
    owner = store.entities_named(tenant, mark)
    if owner:  # known by this account: whatever it is called now, the same person
        store.add_entity(tenant, PERSON, owner[0], name, aliases=(key, *others))
        return owner[0]
    holders = [k for k in store.entities_named(tenant, key) if _accounts_of(store, tenant, k)]
    if holders:  # the name is another account's: a second person
        for known in holders:
            if known == key:  # who held it alone now needs their account beside it too
                _rename(
                    store, tenant, known, f"{known} ({_accounts_of(store, tenant, known)[0][1:]})"
                )
        key = f"{key} ({mark[1:]})"
        store.add_entity(tenant, PERSON, key, " ".join(name.split()), aliases=(key_of(name),))
    else:
        _remember(store, tenant, key, " ".join(name.split()))
    store.add_entity(tenant, PERSON, key, name, aliases=(key_of(account), mark, *others))
    return key


def _accounts_of(store: Store, tenant: str, key: str) -> list[str]:
    return [a for a in store.entity_aliases(tenant, key) if a.startswith("@")]


def _rename(store: Store, tenant: str, old: str, new: str) -> None:
    store.rename_entity(tenant, old, new, new)
    store.add_entity(tenant, PERSON, new, new, aliases=(new,))


def _remember(store: Store, tenant: str, key: str, name: str) -> None:
    if store.entities_named(tenant, key):
        return  # known, by this name or as someone's alias
    first = key.split()[0]
    if first != key and store.entities_named(tenant, first) == [first]:
        # "Lena" was one person known by first name; "Lena Ortiz" completes her.
        store.rename_entity(tenant, first, key, name)
    store.add_entity(tenant, PERSON, key, name, aliases=(first,))


def _as_written(text: str, key: str) -> str:
    """The name as `text` writes it ("Lena Ortiz"), else capitalised."""
    found = re.search(r"\b" + r"\s+".join(map(re.escape, key.split())) + r"\b", text, re.I)
    return " ".join(found[0].split()) if found else key.title()
