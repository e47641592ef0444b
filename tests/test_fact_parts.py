"""A fact whose value or subject has no shape of its kind is cut to its shape or not
stored (issue 35): the checks are on word classes, so they hold for any reader: the rules
(HeuristicModel without a trained reader) and a scripted reader stand for any other."""

import pytest

from tests.conftest import fact
from tests.scripted_model import ScriptedModel
from threefold.models.heuristic import HeuristicModel

STREAM = "chat:parts"


def stored(mem) -> list[tuple[str, str, str]]:
    mem.process_pending()
    return sorted((f.subject, f.slot, f.value) for f in mem.facts(STREAM, include_inactive=True))


def told(open_memory, text: str, **extra) -> list[tuple[str, str, str]]:
    mem = open_memory(HeuristicModel())
    mem.add_turn(STREAM, text, **extra)
    return stored(mem)


def test_a_chat_word_at_a_values_end_is_cut_off(open_memory) -> None:
    assert told(open_memory, "my favourite band is wallows fr") == [
        ("user", "favorite:band", "wallows")
    ]


def test_the_cut_value_reads_as_a_sentence(open_memory) -> None:
    mem = open_memory(HeuristicModel())
    mem.add_turn(STREAM, "my favourite band is wallows fr")
    mem.process_pending()
    assert [f.text for f in mem.facts(STREAM)] == ["The user's favorite band is wallows."]


def test_own_left_by_a_possessive_is_no_part_of_the_thing(open_memory) -> None:
    mem = open_memory(HeuristicModel())
    mem.add_turn(STREAM, "Dad's got his own iPad now")
    mem.process_pending()
    assert [(f.value, f.text) for f in mem.facts(STREAM)] == [
        ("ipad", "The user's dad has an iPad.")
    ]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "btw Dad's allergic to peanuts, tell Dev before he cooks anything",
            [("user's father", "allergy:peanut", "peanuts")],
        ),
        (
            "my daughter Helena is allergic to egg, the pediatrician confirmed",
            [
                ("helena", "allergy:egg", "egg"),
                ("user", "daughter:helena", "helena"),
            ],
        ),
    ],
)
def test_a_verb_of_saying_in_a_things_value_is_the_next_clause(open_memory, text, kept) -> None:
    assert told(open_memory, text) == kept


def test_a_group_is_no_subject_of_a_personal_fact(open_memory) -> None:
    assert told(open_memory, "Twins turn 8 on 30 June btw") == []


def test_a_language_named_the_turn_before_is_not_whom_he_means(open_memory) -> None:
    mem = open_memory(HeuristicModel())
    mem.add_turn(
        STREAM,
        "How do you say 'see you at eight' in Portuguese?",
        "Até às oito. Any birthdays I should remember?",
    )
    mem.add_turn(STREAM, "Tom's birthday is the 4th of May. He works as a plumber in Leeds.")
    assert all(subject != "portuguese" for subject, _, _ in stored(mem))


def test_a_name_keeps_a_word_that_is_a_verb_elsewhere(open_memory) -> None:
    # "said" is a verb of saying, but names are not things: the check leaves them alone
    mem = open_memory(HeuristicModel())
    mem.add_turn(STREAM, "My name is Said and I live in Rabat.")
    assert ("user", "home", "rabat") in stored(mem)
    assert any(f.slot == "name" and f.value.lower() == "said" for f in mem.facts(STREAM))


def scripted(open_memory, *facts):
    mem = open_memory(ScriptedModel(lambda turn: list(facts)))
    mem.add_turn(STREAM, "a turn")
    return mem


def test_any_readers_subject_pronoun_at_a_values_end_is_cut_off(open_memory) -> None:
    gary = fact(
        "user",
        "father:gary he",
        "gary he",
        text="Gary he is the user's father.",
        category="relationship",
    )
    mem = scripted(open_memory, gary)
    mem.process_pending()
    assert [(f.slot, f.value, f.text) for f in mem.facts(STREAM)] == [
        ("father:gary", "gary", "Gary is the user's father.")
    ]


def test_a_request_inside_a_value_ends_it(open_memory) -> None:
    plan = fact(
        "user",
        "plan:nice",
        "do something nice for her any ideas that dont involve me dancing",
        text="The user plans to do something nice for her any ideas that dont involve me dancing.",
        category="plan",
    )
    mem = scripted(open_memory, plan)
    mem.process_pending()
    assert [f.text for f in mem.facts(STREAM)] == ["The user plans to do something nice for her."]


def test_a_noun_that_needs_its_complement_says_nothing_alone(open_memory) -> None:
    cut = fact("user", "condition:type", "type", text="The user has type.", category="health")
    whole = fact(
        "user", "condition:type 2", "type 2", text="The user has type 2.", category="health"
    )
    mem = scripted(open_memory, cut, whole)
    mem.process_pending()
    assert [f.value for f in mem.facts(STREAM)] == ["type 2"]


def test_a_value_cut_where_its_sentence_does_not_hold_it_is_not_stored(open_memory) -> None:
    odd = fact(
        "user", "favorite:band", "wallows fr", text="The user likes Wallows.", category="preference"
    )
    mem = scripted(open_memory, odd)
    mem.process_pending()
    assert mem.facts(STREAM) == []


@pytest.mark.parametrize(
    "text",
    ["", "🙂🙂🙂", "x" * 20_000, "def f(x):\n    return x  # lol fr\n", "fr fr lol", "he"],
)
def test_bad_input_is_kept_and_stores_no_malformed_fact(open_memory, text) -> None:
    mem = open_memory(HeuristicModel())
    if not text:
        with pytest.raises(ValueError):
            mem.add_turn(STREAM, text)
        return
    mem.add_turn(STREAM, text)
    mem.process_pending()
    assert len(mem.turns(STREAM)) == 1
    for found in mem.facts(STREAM):
        assert found.value.split()[-1] not in ("fr", "lol", "he")
