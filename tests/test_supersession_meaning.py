"""Supersession by meaning, not by confidence, and the bad input issue 36 lists.

Through Memory on real SQLite: a correction retracts only what it contradicts, a death
ends what was said of the dead and a hypothetical one ends nothing, and corrections with
nothing before them, of an erased fact, or traded by two people in a group chat leave one
current value and lose nothing."""

from datetime import UTC, datetime, timedelta

from tests.conftest import fact
from tests.scripted_model import ScriptedModel
from threefold import FactStatus

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CHAT = "chat:meaning"


def by_text(texts: dict[str, list]):
    return ScriptedModel(lambda turn: texts.get(turn.user, []))


def say(mem, *lines: str, stream: str = CHAT, speakers: tuple[str | None, ...] = ()) -> None:
    for n, line in enumerate(lines):
        speaker = speakers[n] if n < len(speakers) else None
        mem.add_turn(stream, line, "Noted.", at=T0 + timedelta(hours=n), speaker=speaker)
    mem.process_pending()


def active_values(mem, stream: str = CHAT) -> set[str]:
    return {f.value for f in mem.facts(stream)}


def test_a_correction_leaves_the_users_neighbouring_facts_alone(open_memory):
    """ "no, I'm at Shopify" retracts the employer, not how long the user has worked."""
    mem = open_memory(
        by_text(
            {
                "I work at Stripe, four years now.": [
                    fact("user", "employer", "stripe", category="work"),
                    fact("user", "tenure", "4 years", category="work"),
                ],
                "no, I'm at Shopify": [
                    fact("user", "employer", "shopify", 1.0, category="work", is_correction=True)
                ],
            }
        )
    )
    say(mem, "I work at Stripe, four years now.", "no, I'm at Shopify")
    assert active_values(mem) == {"shopify", "4 years"}


def test_a_correction_still_retracts_the_assistants_claim_on_its_topic(open_memory):
    mem = open_memory()
    mem.add_turn(CHAT, "What do I do for a living?", "You're a teacher.", at=T0)
    mem.add_turn(CHAT, "Not anymore, I retired.", "Congratulations!", at=T0 + timedelta(hours=1))
    mem.process_pending()
    facts = mem.facts(CHAT, include_inactive=True)
    teacher = [f for f in facts if f.value == "teacher"]
    assert teacher and all(f.status is FactStatus.RETRACTED for f in teacher)
    assert "retired" in active_values(mem)


def test_a_death_ends_what_was_said_of_the_pet(open_memory):
    mem = open_memory()
    say(mem, "Max is my dog, he's 12.", "Max died last spring.")
    current = [f.text for f in mem.facts(CHAT)]
    assert not any("12" in text for text in current)
    assert not any("is the user's dog" in text for text in current)
    assert any("died" in text for text in current)


def test_a_hypothetical_death_ends_nothing(open_memory):
    mem = open_memory()
    say(mem, "Max is my dog, he's 12.")
    before = {f.id for f in mem.facts(CHAT)}
    say(mem, "if Max died I'd be lost")
    assert before and before <= {f.id for f in mem.facts(CHAT)}


def test_a_correction_with_nothing_before_it_is_simply_stated(open_memory):
    mem = open_memory(
        by_text(
            {
                "No, I'm at Shopify.": [
                    fact("user", "employer", "shopify", 1.0, category="work", is_correction=True)
                ]
            }
        )
    )
    say(mem, "No, I'm at Shopify.")
    assert active_values(mem) == {"shopify"}
    assert len(mem.turns(CHAT)) == 1


def test_a_correction_of_an_erased_fact_does_not_bring_it_back(open_memory):
    mem = open_memory(
        by_text(
            {
                "I work at Stripe.": [fact("user", "employer", "stripe", category="work")],
                "No, I'm at Figma now.": [
                    fact("user", "employer", "figma", 1.0, category="work", is_correction=True)
                ],
            }
        )
    )
    say(mem, "I work at Stripe.")
    (stripe,) = mem.facts(CHAT)
    mem.erase(fact_id=stripe.id)
    mem.add_turn(CHAT, "No, I'm at Figma now.", "Noted.", at=T0 + timedelta(hours=2))
    mem.process_pending()
    assert active_values(mem) == {"figma"}
    assert all(f.value != "stripe" for f in mem.facts(CHAT, include_inactive=True))


def test_two_people_correcting_each_other_leave_the_last_word_current(open_memory):
    lines = {
        "Standup is at 9.": [fact("standup", "time", "9am", category="recurring")],
        "I live in Leeds.": [fact("lena", "home", "leeds", category="location")],
        "No, standup is at 10.": [
            fact("standup", "time", "10am", 1.0, category="recurring", is_correction=True)
        ],
        "No, it's 9 again, I moved it back.": [
            fact("standup", "time", "9am", 1.0, category="recurring", is_correction=True)
        ],
    }
    mem = open_memory(by_text(lines))
    say(
        mem,
        "I live in Leeds.",
        "Standup is at 9.",
        "No, standup is at 10.",
        "No, it's 9 again, I moved it back.",
        speakers=("Lena", "Lena", "Omar", "Lena"),
    )
    times = [f for f in mem.facts(CHAT) if f.subject == "standup"]
    assert [f.value for f in times] == ["9am"]
    assert "leeds" in active_values(mem)  # Omar's correction left Lena's home alone


def test_an_erase_while_extraction_waits_loses_the_erased_and_nothing_else(open_memory):
    """The turn's extraction job is still queued when the stream is erased: it finds
    nothing to extract, fails nothing, and other streams keep their facts."""
    mem = open_memory(
        by_text(
            {
                "I work at Stripe.": [fact("user", "employer", "stripe", category="work")],
                "I live in Leeds.": [fact("user", "home", "leeds", category="location")],
            }
        )
    )
    mem.add_turn("chat:other", "I live in Leeds.", at=T0)
    mem.add_turn(CHAT, "I work at Stripe.", at=T0)
    mem.erase(stream=CHAT)
    mem.process_pending()
    assert mem.facts(CHAT, include_inactive=True) == []
    assert active_values(mem, "chat:other") == {"leeds"}
    assert mem.job_counts().get("failed", 0) == 0


def _daughter_named_later(second_daughter: bool):
    """The user's daughter's birthday said before her name, then corrected by name."""
    kin = [fact("user", "daughter:nia", "nia", category="relationship")]
    if second_daughter:
        kin.append(fact("user", "daughter:ada", "ada", category="relationship"))
    fix = dict(
        is_correction=True, retracts=[{"subject": "nia", "slot": "birthday", "value": "july 2"}]
    )
    return by_text(
        {
            "my daughter's birthday is the 2nd": [
                fact("user's daughter", "birthday", "july 2", category="important_date")
            ],
            "her name's Nia": kin,
            "sorry, Nia's birthday is the 3rd not the 2nd": [
                fact("nia", "birthday", "july 3", 1.0, category="important_date", **fix)
            ],
        }
    )


def _birthdays_after_nia_is_corrected(mem) -> dict[tuple[str, str], FactStatus]:
    """A daughter's birthday said, then her name, then a correction by that name: every
    birthday fact stored, by subject and value, with its status."""
    say(
        mem,
        "my daughter's birthday is the 2nd",
        "her name's Nia",
        "sorry, Nia's birthday is the 3rd not the 2nd",
    )
    return {
        (f.subject, f.value): f.status
        for f in mem.facts(CHAT, include_inactive=True)
        if f.slot == "birthday"
    }


def test_a_correction_by_name_reaches_what_was_said_before_the_name(open_memory):
    mem = open_memory(_daughter_named_later(second_daughter=False))
    birthdays = _birthdays_after_nia_is_corrected(mem)
    assert birthdays[("nia", "july 3")] is FactStatus.ACTIVE
    assert birthdays[("user's daughter", "july 2")] is not FactStatus.ACTIVE


def test_with_two_daughters_named_an_unnamed_daughters_fact_stays(open_memory):
    mem = open_memory(_daughter_named_later(second_daughter=True))
    birthdays = _birthdays_after_nia_is_corrected(mem)
    assert birthdays[("user's daughter", "july 2")] is FactStatus.ACTIVE  # Nia's or Ada's?


LEXUS = "I drive a Lexus."
HIGHLANDER = "I have at last replaced the Lexus with a Toyota Highlander."
SECOND_CAR = "We now also have a Honda Jazz for the kids; the Lexus stays mine."


def _cars() -> ScriptedModel:
    car = {"category": "possession"}
    return by_text(
        {
            LEXUS: [fact("user", "owns:lexus", "Lexus", text="The user has a Lexus.", **car)],
            HIGHLANDER: [
                fact(
                    "user",
                    "owns:highlander",
                    "Toyota Highlander",
                    text="The user has a Toyota Highlander.",
                    **car,
                )
            ],
            SECOND_CAR: [
                fact("user", "owns:jazz", "Honda Jazz", text="The user has a Honda Jazz.", **car)
            ],
        }
    )


def test_a_value_of_a_kind_held_several_at_a_time_named_beside_a_change_gives_way(open_memory):
    mem = open_memory(_cars())
    say(mem, LEXUS, HIGHLANDER)
    assert active_values(mem) == {"Toyota Highlander"}
    lexus = next(f for f in mem.facts(CHAT, include_inactive=True) if f.value == "Lexus")
    assert lexus.status is FactStatus.SUPERSEDED
    assert [f.value for f in mem.fact_history(lexus.id).chain] == ["Lexus", "Toyota Highlander"]


def test_a_value_said_to_join_the_others_ends_nothing(open_memory):
    mem = open_memory(_cars())
    say(mem, LEXUS, SECOND_CAR)
    assert active_values(mem) == {"Lexus", "Honda Jazz"}
