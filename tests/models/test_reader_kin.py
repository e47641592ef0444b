"""Partners, children and pets said without a name are had (models/reader/kin.py), through
Memory with the reader's tagger given by marks (tests/models/marks.py)."""

from collections.abc import Callable

import pytest

from tests.models.test_reader_whose import facts_of
from threefold import Memory

MemoryFactory = Callable[..., Memory]


def kin(open_memory: MemoryFactory, said: str, speaker: str | None = None) -> dict[str, str]:
    """Slot -> value of the unnamed relatives stored from `said`."""
    facts = facts_of(open_memory, [(said, speaker)])
    return {f.slot: f.value for f in facts if f.slot.startswith("has:")}


def test_a_husband_and_kids_said_without_names_are_had(open_memory: MemoryFactory) -> None:
    said = "I'm lucky to have my husband and kids; they keep me motivated."
    assert kin(open_memory, said, "Melanie") == {"has:spouse": "husband", "has:child": "kids"}


def test_the_fact_reads_as_said(open_memory: MemoryFactory) -> None:
    facts = facts_of(open_memory, [("We were all freaked when my son got into an accident.", None)])
    assert [f.text for f in facts if f.slot == "has:son"] == ["The user has a son."]


@pytest.mark.parametrize(
    "said",
    [
        "My late husband loved Spain.",  # not had now
        "my friend's son is four",  # the friend's
        "Sam and kids came round.",  # joined to no owned word
        "Do you have kids?",  # nobody's
        "my mum and dad visited",  # parents say little: everyone has them
        "Martine my wife says I work too much.",  # named: her relation fact says it
        "my dog is called biscuit",
        "whats the excel formula for this? my lab partner is useless",  # no couple
        "My business partner and I are opening a second shop.",
        "the patient said 'nurse you look like my daughter in Kerala'",  # another's words
    ],
)
def test_what_is_not_an_unnamed_partner_child_or_pet(open_memory: MemoryFactory, said: str) -> None:
    assert kin(open_memory, said) == {}


def test_an_unnamed_relative_is_no_person(open_memory: MemoryFactory) -> None:
    mem = open_memory()
    mem.add_turn("chat:k", user="My kids and our dog are driving me mad.")
    mem.process_pending()
    assert {f.value for f in mem.facts("chat:k")} >= {"kids", "dog"}
    assert mem.store.entities_named("default", "kids") == []


def test_a_long_message_of_relation_words_reads_once_each(open_memory: MemoryFactory) -> None:
    said = "my son and my son, " * 2000 + "my my my"
    assert kin(open_memory, said) == {"has:son": "son"}


# --- a person or pet named in the sentence after its relation word --------------------


def relations(open_memory: MemoryFactory, said: str) -> dict[str, str]:
    """Slot -> value of the named relatives and pets stored from `said`."""
    facts = facts_of(open_memory, [(said, None)])
    return {f.slot: f.value.lower() for f in facts if f.category.value == "relationship"}


@pytest.mark.parametrize(
    ("said", "held"),
    [
        ("We got a [[REL|puppy]]!! Hana named him [[pet|Mochi]]", {"dog:mochi": "mochi"}),
        (
            "My [[REL|great grandson]] was born last week. His name is [[relation|Wyatt]].",
            {"great grandson:wyatt": "wyatt"},
        ),
    ],
)
def test_a_name_takes_the_relation_the_sentence_before_said_without_one(
    open_memory: MemoryFactory, said: str, held: dict[str, str]
) -> None:
    assert relations(open_memory, said) == held


def test_a_pet_named_with_no_relation_word_is_a_pet(open_memory: MemoryFactory) -> None:
    said = "[[pet|Ficelle]] sleeps by the stove all day, so lazy"
    assert relations(open_memory, said) == {"pet:ficelle": "ficelle"}


@pytest.mark.parametrize(
    "said",
    [
        # the relation word before named its own person
        "My [[REL|sister]] [[relation|Ana]] came over. [[relation|Bo]] stayed home.",
        # two sentences back is too far
        "My [[REL|son]] starts school. It's a big day. [[relation|Theo]] is excited.",
        # a person named with no relation word anywhere is no relative
        "[[relation|Bo]] came round for tea.",
        # a relation word the graph left untagged is most often someone else's
        "[[pet|Bo]] is my neighbour's dog.",
        "We got a [[REL|puppy]]! [[pet|Bo]] is my neighbour's dog though.",
    ],
)
def test_a_relation_is_not_lent_past_the_sentence_before(
    open_memory: MemoryFactory, said: str
) -> None:
    assert not any(value in ("bo", "theo") for value in relations(open_memory, said).values())


# --- another's relative or pet -------------------------------------------------------


@pytest.mark.parametrize(
    ("said", "name"),
    [
        ("my [[REL|sister's]] cat [[pet|Tigger]] keeps sneezing, should she take him?", "tigger"),
        ("My [[REL|brother's]] wife [[relation|Anna]] is a nurse.", "anna"),
        ("[[PER|Dave]]'s [[REL|wife]] [[relation|Linda]] runs the bakery.", "linda"),
        ("my friend's [[REL|son]] [[relation|Leo]] is four", "leo"),
    ],
)
def test_anothers_relative_or_pet_is_not_the_writers(
    open_memory: MemoryFactory, said: str, name: str
) -> None:
    facts = facts_of(open_memory, [(said, None)])
    assert [f.text for f in facts if f.subject == "user" and name in f.value.lower()] == []


@pytest.mark.parametrize(
    ("said", "held"),
    [
        ("my [[REL|wife's]] name is [[relation|Ines]]", {"spouse": "ines"}),
        ("my [[REL|son's]] called [[relation|Leo]]", {"son:leo": "leo"}),
        (
            "My [[REL|mum's partner]] [[relation|Steve]] lives in Hull.",
            {"mum's partner:steve": "steve"},
        ),
    ],
)
def test_an_s_that_is_no_owner_keeps_the_relative(
    open_memory: MemoryFactory, said: str, held: dict[str, str]
) -> None:
    assert relations(open_memory, said) == held


def test_a_title_is_no_part_of_whom_a_name_means(open_memory: MemoryFactory) -> None:
    facts = facts_of(
        open_memory,
        [
            ("My [[REL|wife]], [[relation|Mrs. Ngozi Obi]], is a [[job@per|pharmacist]].", None),
            ("[[PER|Ngozi Obi]] is [[age@per|70]] in May.", None),
        ],
    )
    assert {f.value.lower() for f in facts if f.slot == "spouse"} == {"ngozi obi"}
    assert {f.subject for f in facts if f.slot != "spouse"} == {"ngozi obi"}
