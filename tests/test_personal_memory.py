"""Personal facts through the public API: a Memory on a real SQLite file, the default
heuristic model, add_turn, process_pending, facts() and context()."""

from datetime import UTC, datetime, timedelta

import pytest

from threefold import Memory
from threefold.domain import FactStatus

AT = datetime(2026, 11, 2, 9, 0, tzinfo=UTC)
STREAM = "chat:8812"


@pytest.fixture
def mem(tmp_path):
    with Memory.open(tmp_path / "mem.db", background_worker=False, embedder=None) as memory:
        yield memory


def say(mem: Memory, *lines: str, stream: str = STREAM) -> None:
    for n, line in enumerate(lines):
        mem.add_turn(stream, line, "Noted.", at=AT + timedelta(minutes=n))
    mem.process_pending()


def current(mem: Memory) -> set[tuple[str, str, str]]:
    return {(f.subject, f.slot, f.value) for f in mem.facts(STREAM)}


def test_what_the_user_says_about_themselves_is_pinned_and_updates_replace(mem):
    say(
        mem,
        "My name is Dana and I lead the Atlas project.",
        "I live in Berlin. I am allergic to peanuts.",
        "I prefer vim as my editor.",
        "Actually, I moved to Munich last month.",
        "Actually, I switched to VS Code.",
        "I'm also allergic to shellfish.",
    )
    assert {
        ("user", "name", "dana"),
        ("user", "leads", "atlas project"),
        ("user", "home", "munich"),
        ("user", "tool:editor", "vs code"),
        ("user", "allergy:peanut", "peanuts"),
        ("user", "allergy:shellfish", "shellfish"),
    } <= current(mem)
    old = {f.value: f.status for f in mem.facts(STREAM, include_inactive=True) if not f.active}
    assert old == {"berlin": FactStatus.SUPERSEDED, "vim": FactStatus.SUPERSEDED}
    facts_section = mem.context(STREAM, "what should I cook?").section("stream_facts")
    shown = " ".join(item.text for item in facts_section.items)
    assert "allergic to peanuts" in shown and "lives in Munich" in shown
    assert "Berlin" not in shown


def test_a_retraction_keeps_the_old_value_in_history(mem):
    say(mem, "I'm vegetarian.", "I'm not vegetarian anymore.")
    (fact,) = [f for f in mem.facts(STREAM) if f.slot == "diet"]
    assert fact.value == "not vegetarian"
    chain = mem.fact_history(fact.id).chain
    assert [f.value for f in chain] == ["vegetarian", "not vegetarian"]


@pytest.mark.parametrize(
    "text",
    [
        "Ich wohne in Berlin und bin allergisch gegen Erdnüsse.",
        "Am I allergic to peanuts?",
        "If I lived in Paris I would cycle to work.",
        "I wish I worked at Google.",
        "My friend is vegetarian.",
    ],
)
def test_no_fact_and_no_error(mem, text):
    say(mem, text)
    assert mem.facts(STREAM, include_inactive=True) == []


def test_the_chat_id_never_becomes_a_subject(mem):
    say(mem, "The launch is on May 3.")
    (fact,) = mem.facts(STREAM)
    assert "8812" not in f"{fact.subject} {fact.value} {fact.text}"


def test_she_after_a_claim_about_a_daughter_corrects_her_age(mem):
    mem.add_turn(STREAM, "How old is my daughter?", "Your daughter is 7.", at=AT)
    mem.add_turn(STREAM, "She turned 8 in March, actually.", "Oops.", at=AT + timedelta(hours=1))
    mem.process_pending()
    ages = {f.value for f in mem.facts(STREAM) if f.slot == "age"}
    assert ages == {"8"}


def test_a_relative_named_otherwise_in_reply_renames_the_claim(mem):
    mem.add_turn(STREAM, "What's my son called?", "Your son is called Jack.", at=AT)
    mem.add_turn(STREAM, "My son is called Jake.", "Sorry!", at=AT + timedelta(hours=1))
    mem.process_pending()
    assert {f.value for f in mem.facts(STREAM) if f.slot.startswith("son:")} == {"jake"}


def test_a_second_relative_named_in_reply_leaves_the_first(mem):
    mem.add_turn(STREAM, "Who's my son?", "Your son is Jack; your daughter is Mia.", at=AT)
    mem.add_turn(STREAM, "My younger son is Jake.", "Ah.", at=AT + timedelta(hours=1))
    mem.process_pending()
    names = {f.value for f in mem.facts(STREAM) if f.slot.split(":")[0] in ("son", "daughter")}
    assert names == {"jack", "jake", "mia"}


def test_a_favourite_without_its_kind_replaces_the_one_favourite_named(mem):
    say(mem, "My favourite band is Blur.", "These days my favourite is Fontaines D.C.")
    favourites = {f.slot: f.value for f in mem.facts(STREAM) if f.slot.startswith("favorite")}
    assert favourites == {"favorite": "fontaines d.c"}


def test_a_favourite_without_its_kind_leaves_two_kinds_alone(mem):
    say(
        mem,
        "My favourite band is Blur.",
        "My favourite food is ramen.",
        "These days my favourite is Fontaines D.C.",
    )
    favourites = {f.slot for f in mem.facts(STREAM) if f.slot.startswith("favorite")}
    assert favourites == {"favorite", "favorite:band", "favorite:food"}


# --- relations that end: a break-up, a divorce or a death puts the relation in the past


def active_texts(mem: Memory, stream: str = STREAM) -> set[str]:
    return {f.text for f in mem.facts(stream)}


# "Sadly he ...": a he after a one-word sentence adverb is the one the turn before named;
# "my dog" is the one dog the user has; whatever follows "died" says how or when
@pytest.mark.parametrize(
    "news",
    [
        "Max passed away in June.",
        "Sadly he passed away last month.",
        "Yesterday he passed away.",
        "My dog passed away last month.",
        "Our dog died on Sunday :(",
        "Sadly our retriever died in his sleep.",
    ],
)
def test_a_pet_that_died_is_no_current_pet_and_its_chain_is_kept(mem, news):
    say(mem, "We have a golden retriever named Max.", news)
    texts = active_texts(mem)
    assert "Max was the user's retriever." in texts
    assert "Max is the user's retriever." not in texts
    (past,) = [f for f in mem.facts(STREAM) if f.slot == "dog:max"]
    chain = mem.fact_history(past.id).chain
    assert [f.text for f in chain] == ["Max is the user's retriever.", past.text]
    assert chain[0].status is FactStatus.SUPERSEDED


@pytest.mark.parametrize(
    "ending",
    ["Mark and I got divorced last year.", "We separated in March.", "My husband died in 2019."],
)
def test_a_divorce_a_separation_or_a_death_ends_the_marriage(mem, ending):
    say(mem, "My husband Mark is a chef.", ending)
    texts = active_texts(mem)
    assert "Mark was the user's husband." in texts
    assert "Mark is the user's husband." not in texts
    # what else is known of him stays, but not in the present tense once he died ("My
    # husband died" is Mark's death, as "Mark died" is), though his history keeps it
    assert ("Mark works as a chef." in texts) is ("died" not in ending)
    assert "Mark works as a chef." in {f.text for f in mem.facts(STREAM, include_inactive=True)}


def test_after_a_break_up_the_new_partner_is_current_and_single_is_over(mem):
    say(mem, "My boyfriend Tom is great.", "Tom and I broke up.", "I'm dating Sam now.")
    partners = {f.value: f.text for f in mem.facts(STREAM) if f.slot == "partner"}
    assert partners == {"sam": "Sam is the user's partner."}
    assert not [f for f in mem.facts(STREAM) if f.slot == "marital status"]


def test_whom_the_speaker_is_with_after_a_separation_is_the_partner(mem):
    say(mem, "My husband Mark is a chef.", "We separated last year, I'm with Paul now.")
    texts = active_texts(mem)
    assert {"Paul is the user's partner.", "Mark was the user's husband."} <= texts


def test_a_relation_said_in_the_same_turn_as_the_ending_is_the_new_one(mem):
    say(mem, "My wife Jo is a doctor.", "I'm a widower, and I'm engaged to Sam now.")
    texts = active_texts(mem)
    assert {"Sam is the user's partner.", "Jo was the user's wife."} <= texts


def test_a_death_ends_a_relation_named_by_kind_only_when_it_is_one(mem):
    say(mem, "My grandma Rose lives with us.", "My grandma passed away last week.")
    assert "Rose was the user's grandma." in active_texts(mem)


@pytest.mark.parametrize(
    "news", ["I lost my grandad last year.", "Lost my grandad in March, still raw."]
)
def test_a_relative_lost_is_a_death(mem, news):
    say(mem, "My grandad Jim lives in Hull.", news)
    assert "Jim was the user's grandad." in active_texts(mem)


@pytest.mark.parametrize("line", ["I lost my grandad's watch.", "Lost my job last week."])
def test_losing_a_thing_or_a_job_is_no_death(mem, line):
    say(mem, "My grandad Jim lives in Hull.", line)
    assert "Jim is the user's grandad." in active_texts(mem)


def test_a_death_is_dated_so_that_it_never_rots(mem):
    say(mem, "My grandad Jim lives in Hull.", "My grandad died yesterday.")
    assert "Jim was the user's grandad." in active_texts(mem)
    assert "The user's grandad died yesterday (2026-11-01)." in active_texts(mem)


def test_two_of_a_kind_leave_both_relations_as_they_were(mem):
    say(
        mem,
        "My grandma Rose lives with us.",
        "My grandma Ann lives in Leeds.",
        "My grandma passed away last week.",
    )
    texts = active_texts(mem)
    assert {"Rose is the user's grandma.", "Ann is the user's grandma."} <= texts


@pytest.mark.parametrize(
    "line",
    [
        "We split the bill.",
        "We broke up the work into smaller tickets.",
        "I split with my cofounder.",
        "The Beatles broke up in 1970.",
        "Our old router died last week.",
        "The noise died down after midnight.",
        "Luna died of boredom at the vet.",
        "My phone died on me at the station.",
    ],
)
def test_what_only_sounds_like_an_ending_ends_nothing(mem, line):
    say(mem, "My boyfriend Tom is great.", "We have a cat called Luna.", line)
    texts = active_texts(mem)
    assert {"Tom is the user's boyfriend.", "Luna is the user's cat."} <= texts


def test_an_ending_in_one_stream_leaves_another_stream_alone(mem):
    say(mem, "We have a dog called Rex.", stream="chat:1")
    say(mem, "We have a dog called Rex.", "Rex died last month.", stream="chat:2")
    assert "Rex is the user's dog." in active_texts(mem, "chat:1")
    assert "Rex was the user's dog." in active_texts(mem, "chat:2")


def test_a_food_eaten_again_ends_the_diet_held(mem):
    say(mem, "I've been vegan for two years.", "I eat fish again.")
    assert active_texts(mem) == {"The user eats fish again."}


def test_a_food_eaten_again_after_the_diet_was_said_over_keeps_both(mem):
    say(mem, "I'm plant-based.", "I'm no longer plant-based, I eat meat again.")
    assert active_texts(mem) == {"The user is no longer plant-based.", "The user eats meat again."}


def test_a_food_eaten_again_beside_the_new_diet_leaves_that_diet(mem):
    """The fish belongs to the diet said with it: only the old diet ends."""
    say(mem, "I'm vegetarian.", "I'm pescatarian now, started eating fish again")
    assert active_texts(mem) == {"The user is pescatarian.", "The user eats fish again."}


@pytest.mark.parametrize(
    ("held", "said", "now", "gone"),
    [
        ("I'm on 20mg citalopram.", "doctor switched me to sertraline", "sertraline", "citalopram"),
        (
            "I take ibuprofen for my back.",
            "my GP changed it, on naproxen now",
            "naproxen",
            "ibuprofen",
        ),
    ],
)
def test_a_medicine_said_as_a_switch_ends_the_one_taken(mem, held, said, now, gone):
    say(mem, held, said)
    taken = [f.value for f in mem.facts(STREAM) if f.slot.startswith("medication:")]
    assert taken == [now]
    ended = mem.facts(STREAM, include_inactive=True)
    assert any(gone in f.value and f.superseded_by is not None for f in ended)


@pytest.mark.parametrize(
    ("held", "said", "kept"),
    [
        (  # a medicine added, no switch said
            "I take ibuprofen for my back.",
            "also on omeprazole now for my stomach",
            {"ibuprofen", "omeprazole"},
        ),
        (  # a switch among two taken: which one it replaces is unclear
            "I take warfarin. I also take bisoprolol.",
            "the doctor switched me to apixaban",
            {"warfarin", "bisoprolol", "apixaban"},
        ),
    ],
)
def test_a_medicine_added_or_switched_among_several_ends_none(mem, held, said, kept):
    say(mem, held, said)
    assert {f.value for f in mem.facts(STREAM) if f.slot.startswith("medication:")} == kept


def test_a_food_eaten_without_again_leaves_the_diet(mem):
    say(mem, "I'm pescatarian.", "I eat fish most days.")
    assert "The user is pescatarian." in active_texts(mem)


def group(mem: Memory, *lines: tuple[str, str]) -> None:
    for n, (speaker, line) in enumerate(lines):
        mem.add_turn(STREAM, line, speaker=speaker, at=AT + timedelta(minutes=n))
    mem.process_pending()


def test_he_in_a_reply_is_the_one_person_the_question_before_named(mem):
    group(
        mem,
        ("Amara", "Aww. How's Dev doing?"),
        ("Priya", "He's good! He started his own landscaping business in the spring."),
    )
    assert ("dev", "employer", "landscaping business") in current(mem)


def test_she_after_how_she_is_is_the_person_asked_about(mem):
    group(
        mem,
        ("Amara", "How is your sister Jo?"),
        ("Priya", "She's great, she just moved to Bristol."),
    )
    assert ("jo", "home", "bristol") in current(mem)


def test_he_after_a_question_naming_two_people_means_nobody(mem):
    group(
        mem,
        ("Amara", "How are Dev and Sam?"),
        ("Priya", "He moved to Leeds."),
    )
    assert not any(value == "leeds" for _, _, value in current(mem))


def test_he_in_a_reply_is_the_relative_of_the_one_answering_the_question_named(mem):
    group(
        mem,
        ("Omar", "How's your son doing at university?"),
        ("Tunde", "He's loving it. He's studying engineering at Manchester."),
    )
    assert ("tunde's son", "major", "engineering") in current(mem)


def test_her_in_the_next_turn_is_the_person_the_turn_before_named_by_relation(mem):
    say(
        mem,
        "Me and my fiancée Priya are getting married in Goa next year.",
        "Her parents live in Mumbai.",
    )
    assert ("priya's parents", "home", "mumbai") in current(mem)


@pytest.mark.parametrize(
    ("news", "left"),
    [
        ("I quit my job last week, taking some time off.", "The user quit their job."),
        ("I resigned from my job.", "The user resigned from their job."),
        ("I lost my job as an auditor yesterday.", "The user lost their job."),
        ("Lost my job yesterday.", "The user lost their job."),
    ],
)
def test_leaving_a_job_unnamed_ends_the_employer(mem, news, left):
    say(mem, "I work at Deloitte as an auditor.", news)
    texts = active_texts(mem)
    assert "The user works at Deloitte." not in texts
    assert left in texts


@pytest.mark.parametrize(
    "line", ["I want to quit my job.", "Should I quit my job?", "My wife quit her job."]
)
def test_a_wish_a_question_or_someone_else_quitting_keeps_the_job(mem, line):
    say(mem, "I work at Deloitte as an auditor.", line)
    assert "The user works at Deloitte." in active_texts(mem)


@pytest.mark.parametrize(
    ("said", "day"),
    [
        ("It's my birthday today!", "November 2"),
        ("Today is my birthday.", "November 2"),
        ("its my bday!! any cake ideas?", "November 2"),
        ("Tomorrow's my 30th.", "November 3"),
        ("It's my birthday on Friday, so I'm off work.", "November 6"),
    ],
)
def test_a_birthday_said_of_a_day_is_the_birthday_on_that_date(mem, said, day):
    say(mem, said)
    assert f"The user's birthday is {day}." in active_texts(mem)


@pytest.mark.parametrize(
    "line",
    ["It's my birthday party on Saturday.", "Is it my birthday today?", "It's my birthday week!"],
)
def test_a_birthday_party_a_question_or_a_week_gives_no_birthday(mem, line):
    say(mem, line)
    assert not [f for f in mem.facts(STREAM) if f.slot == "birthday"]


@pytest.mark.parametrize(
    "news",
    [
        "My car was written off in a crash on Monday.",
        "my car got nicked last night",
        "My car has been scrapped.",
    ],
)
def test_a_car_written_off_or_stolen_is_gone(mem, news):
    say(mem, "I drive a Honda Civic.", news)
    texts = active_texts(mem)
    assert "The user has a Honda Civic." not in texts
    assert "The user no longer has their car." in texts


@pytest.mark.parametrize(
    "line",
    ["My identity was stolen.", "my heart got stolen by a barista lol", "Was my car stolen?"],
)
def test_what_is_no_thing_or_only_asked_keeps_the_car(mem, line):
    say(mem, "I drive a Honda Civic.", line)
    assert "The user has a Honda Civic." in active_texts(mem)


def test_divorced_said_as_we_ends_the_marriage(mem):
    say(mem, "My husband is called Ravi.", "We're divorced now.")
    texts = active_texts(mem)
    assert "Ravi is the user's husband." not in texts
    assert "The user is divorced." in texts
