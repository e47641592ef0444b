"""A context never presents what a newer message may have changed as current (issue 36).

Through the public API, with the offline reader and real SQLite: the header says that a
newer message wins, and facts, summary lines and retrieved turns that a newer message the
reader could not file touches are marked possibly outdated, naming that message."""

from datetime import UTC, datetime, timedelta

import pytest

from tests.conftest import fact
from tests.scripted_model import ScriptedModel

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)
CHAT = "chat:moves"
SMALL_TALK = [
    ("how do i undo the last git commit but keep the changes", "git reset --soft HEAD~1."),
    ("whats the capital of mongolia again", "Ulaanbaatar."),
    ("give me a haiku about rain", "Grey roofs drink the sky."),
    ("how long do cooked rice leftovers keep", "Up to four days in the fridge."),
]


def section_lines(ctx, *names: str) -> list[str]:
    return [
        line
        for section in ctx.sections
        if section.name in names
        for item in section.items
        for line in item.text.splitlines()
    ]


def talk(mem, stream: str, said: list[tuple[str, str]], start: int = 0, **speaker) -> int:
    for n, (user, assistant) in enumerate(said, start):
        mem.add_turn(stream, user, assistant, at=T0 + timedelta(hours=3 * n), **speaker)
    return start + len(said)


def test_the_header_says_a_newer_message_wins(open_memory):
    mem = open_memory()
    talk(mem, CHAT, [("I live in Leeds.", "Nice.")])
    mem.process_pending()
    header = mem.context(CHAT, "where do I live?", budget=1000).sections[0].items[0].text
    assert "newer message in the conversation wins over an older fact" in header
    assert "Facts are current" not in header


def test_an_update_the_reader_missed_marks_the_old_fact_and_its_turn(open_memory):
    mem = open_memory(recent_turns=4, session_turns=50)
    n = talk(mem, CHAT, [("I live in Leeds and I'm allergic to peanuts.", "Noted.")])
    n = talk(mem, CHAT, SMALL_TALK, n)
    talk(mem, CHAT, [("so we ended up relocating, up north now", "Big change!")], n)
    mem.process_pending()
    homes = [f for f in mem.facts(CHAT) if "Leeds" in f.text]
    assert homes, "the offline reader files the first statement"

    ctx = mem.context(CHAT, "Where do I live these days?", budget=2000)
    facts = section_lines(ctx, "stream_facts")
    leeds = [line for line in facts if "Leeds" in line]
    assert leeds and all("possibly outdated" in line for line in leeds)
    assert any("turn:" in line.split("possibly outdated")[1] for line in leeds)
    peanuts = [line for line in facts if "peanut" in line]
    assert peanuts and not any("possibly outdated" in line for line in peanuts)
    retrieved = [line for line in section_lines(ctx, "retrieved") if "Leeds" in line]
    assert all("possibly outdated" in line for line in retrieved)


@pytest.mark.parametrize(
    ("said", "later", "asked", "value"),
    [
        (
            "I live in Leeds.",
            "Leeds has great curry houses, any favourites?",
            "where do I live?",
            "Leeds",
        ),
        (  # "news" is no plural of "new", a change word
            "I work at the Rose hotel as a receptionist.",
            "Good news at the hotel, we're fully booked all summer!",
            "where do I work?",
            "Rose hotel",
        ),
    ],
)
def test_a_message_without_a_change_marks_nothing(open_memory, said, later, asked, value):
    mem = open_memory()
    n = talk(mem, CHAT, [(said, "Nice.")])
    talk(mem, CHAT, [(later, "Great.")], n)
    mem.process_pending()
    ctx = mem.context(CHAT, asked, budget=2000)
    shown = section_lines(ctx, "stream_facts", "summary", "retrieved")
    assert any(value in line for line in shown)
    assert not any("possibly outdated" in line for line in shown)


def test_another_speakers_change_leaves_a_persons_facts_alone(open_memory):
    """A group chat: Omar's move says nothing about where Lena lives."""
    mem = open_memory()
    talk(mem, CHAT, [("I live in Leeds.", "")], speaker="Lena")
    talk(mem, CHAT, [("we ended up relocating, Manchester now", "")], 1, speaker="Omar")
    mem.process_pending()
    lines = section_lines(mem.context(CHAT, "where does Lena live?", 2000), "stream_facts")
    assert any("Leeds" in line for line in lines)
    assert not any("possibly outdated" in line for line in lines if "Leeds" in line)


def test_news_of_someone_else_leaves_the_users_facts_alone(open_memory):
    """'Ana quit nursing' names a person the memory knows and says nothing of the user: the
    user's job is not in doubt (with the heuristic reader)."""
    mem = open_memory()
    n = talk(mem, CHAT, [("I work at Monzo as an analyst.", "Nice.")])
    n = talk(mem, CHAT, [("My sister Ana is a nurse in Porto.", "Lovely.")], n)
    talk(mem, CHAT, [("Ana quit nursing, she's retraining as a pilot", "Wow.")], n)
    mem.process_pending()
    lines = section_lines(mem.context(CHAT, "where do I work?", 2000), "stream_facts")
    mine = [line for line in lines if "Monzo" in line]
    assert mine and not any("possibly outdated: see turn:3" in line for line in mine)


def test_a_death_marks_what_was_said_of_the_pet(open_memory):
    mem = open_memory()
    n = talk(mem, CHAT, [("We've got a cat called Pudding and she's 14.", "A grand old lady.")])
    talk(mem, CHAT, [("we lost Pudding on Sunday, house feels empty", "I'm so sorry.")], n)
    mem.process_pending()
    lines = section_lines(mem.context(CHAT, "how is my cat?", 2000), "stream_facts")
    pudding = [line for line in lines if "Pudding" in line]
    assert pudding and all("possibly outdated" in line for line in pudding)


def test_budget_one_is_refused_or_tiny_and_loses_nothing(open_memory):
    mem = open_memory()
    talk(mem, CHAT, [("I live in Leeds.", "Nice."), ("we moved to York now", "OK.")])
    mem.process_pending()
    ctx = mem.context(CHAT, "where?", budget=1)
    assert ctx.tokens <= 1
    assert len(mem.turns(CHAT)) == 2


def test_a_fact_shows_the_date_it_was_last_stated(open_memory):
    mem = open_memory()
    mem.add_turn(CHAT, "I live in Leeds.", "Nice.", at=T0)
    mem.add_turn(CHAT, "I live in Leeds.", "You said.", at=T0 + timedelta(days=40))
    mem.process_pending()
    (home,) = [f for f in mem.facts(CHAT) if "Leeds" in f.text]
    assert home.mention_count == 2
    lines = section_lines(mem.context(CHAT, "where do I live?", 2000), "stream_facts")
    assert any("Leeds" in line and "13 June 2026" in line for line in lines)


def test_a_summary_line_on_a_newer_facts_topic_is_marked_whatever_its_words(open_memory):
    """The reader filed only the update, which shares no word with the first statement
    ("vegetarian" / "pescatarian these days"): the current fact on the same topic
    (diet) still marks the older line that states another value. A line of the same
    summary on another topic stays unmarked."""
    update = "For the record: pescatarian these days."
    pescatarian = fact(
        "user", "diet", "pescatarian", category="diet", text="The user is pescatarian."
    )
    reader = ScriptedModel(lambda turn: [pescatarian] if turn.user == update else [])
    mem = open_memory(reader, recent_turns=2, session_turns=3)
    n = talk(mem, CHAT, [("Quick note, I'm vegetarian, and I live in Leeds.", "Noted.")])
    n = talk(mem, CHAT, SMALL_TALK, n)
    talk(mem, CHAT, [(update, "Got it.")], n)
    mem.end_session(CHAT)
    mem.process_pending()
    assert [f.value for f in mem.facts(CHAT) if f.slot == "diet"] == ["pescatarian"]
    ctx = mem.context(CHAT, "What should I cook tonight?", budget=4000)
    old = [line for line in section_lines(ctx, "summary", "retrieved") if "vegetarian" in line]
    assert old and all("possibly outdated" in line for line in old), old
    baking = [line for line in section_lines(ctx, "summary") if "git" in line]
    assert not [line for line in baking if "possibly outdated" in line]


def test_a_retrieved_fact_in_force_is_not_outdated_by_itself(open_memory):
    """A hedged update, filed below the pin threshold, is retrieved rather than pinned; it
    replaced the older fact, so it must not read as outdated in favour of itself."""
    update = "probably not really vegetarian anymore, I eat fish most weeks"
    old = fact("user", "diet", "vegetarian", category="diet", text="The user is vegetarian.")
    new = fact(
        "user", "diet", "not vegetarian", 0.65, category="diet",
        text="The user is no longer vegetarian.",
    )  # fmt: skip
    facts = {"I'm vegetarian.": [old], update: [new]}
    mem = open_memory(ScriptedModel(lambda turn: facts.get(turn.user, [])), recent_turns=2)
    talk(mem, CHAT, [("I'm vegetarian.", "Noted."), *SMALL_TALK, (update, "OK.")])
    mem.process_pending()
    assert [f.value for f in mem.facts(CHAT) if f.slot == "diet"] == ["not vegetarian"]
    ctx = mem.context(CHAT, "Am I vegetarian?", budget=4000)
    # The fact's own line, not the older turn marked as outdated by it.
    items = [line for line in section_lines(ctx, "retrieved") if "] The user is no longer" in line]
    assert items and not any("(outdated: " in line for line in items), items


def test_a_newer_message_naming_an_event_with_a_change_marks_its_schedule(open_memory):
    """A recurring event's fact is about the event: a newer message that names it and says
    something changed touches it, though it shares no other word with the fact."""
    mem = open_memory()
    n = talk(mem, CHAT, [("Our retro is every other Thursday at 4pm.", "Noted.")])
    n = talk(mem, CHAT, SMALL_TALK[:2], n)
    talk(mem, CHAT, [("heads up, the retro is Fridays at 2 from now on", "Got it.")], n)
    mem.process_pending()
    held = [f for f in mem.facts(CHAT) if "Thursday" in f.text]
    assert held and held[0].subject == "retro"
    lines = section_lines(mem.context(CHAT, "When is the retro?", budget=2000), "stream_facts")
    old = [line for line in lines if "Thursday" in line]
    assert old and all("possibly outdated" in line for line in old)


def test_a_reversed_decision_in_a_project_stream_marks_the_projects_fact(open_memory):
    """A project's facts are about the project, and its stream's messages speak of it
    without naming it: "actually we're keeping the CSV export" doubts the decision to drop
    it, though the message never says "Atlas"."""
    mem = open_memory()
    project = "project:atlas"
    said = [("Decision: we're dropping the CSV export from the beta.", "")]
    n = talk(mem, project, said, speaker="Felix")
    n = talk(mem, project, SMALL_TALK[:2], n, speaker="Dana")
    talk(mem, project, [("Actually we're keeping CSV export, finance insisted.", "")], n)
    mem.process_pending()
    held = [f for f in mem.facts(project) if "CSV" in f.text]
    assert held and held[0].subject == "atlas"
    ctx = mem.context(project, "Is the CSV export in the beta?", budget=2000)
    lines = [line for line in section_lines(ctx, "stream_facts") if "dropping" in line]
    assert lines and all("possibly outdated" in line for line in lines), lines


def test_a_question_says_nothing_changed(open_memory):
    """Through a proxy every question becomes a turn: "Where do I live now?" asks about the
    home held, it does not doubt it."""
    mem = open_memory()
    talk(mem, CHAT, [("I'm Tom and I live in Porto.", "Hi Tom!")])
    talk(mem, CHAT, [("Where do I live now?", "In Porto.")], 1)
    mem.process_pending()

    facts = section_lines(mem.context(CHAT, "Where do I live?", budget=1000), "stream_facts")
    porto = [line for line in facts if "Porto" in line]
    assert porto and not any("possibly outdated" in line for line in porto)


def test_news_of_someone_else_leaves_the_users_facts_unmarked(open_memory):
    mem = open_memory()
    said = [
        ("I'm Tom and I live in Porto.", "Hi Tom!"),
        ("My girlfriend is called Mia.", "Nice."),
        ("Correction: her name is Maya, not Mia.", "Noted."),
    ]
    talk(mem, CHAT, said)
    mem.process_pending()

    facts = section_lines(mem.context(CHAT, "What's my name?", budget=1000), "stream_facts")
    mine = [line for line in facts if "Tom" in line]
    assert mine and not any("possibly outdated" in line for line in mine)


DEPLOY_CHAT = [
    ("Ana", "The deploy script for the billing service lives in the ops repo, run it from there."),
    *(("Ana", user) for user, _ in SMALL_TALK * 4),
]
CI_NOTICE = "2 new commits pushed to billing service main: fixed the deploy script, bumped deps"


def deploy_lines(open_memory, **notice) -> list[str]:
    mem = open_memory(recent_turns=2, session_turns=50)
    for n, (speaker, user) in enumerate(DEPLOY_CHAT):
        mem.add_turn("chat:ops", user, "", at=T0 + timedelta(hours=n), speaker=speaker)
    mem.end_session("chat:ops")
    at = T0 + timedelta(hours=len(DEPLOY_CHAT))
    mem.add_turn("chat:ops", CI_NOTICE, "", at=at, speaker="github", **notice)
    mem.process_pending()
    ctx = mem.context("chat:ops", "Where does the billing deploy script live?", budget=2000)
    return [line for line in section_lines(ctx, "summary", "retrieved") if "ops repo" in line]


def test_an_integrations_notice_says_no_one_changed_anything(open_memory):
    """A channel fed by a CI integration: GitHub's "2 new commits pushed ... fixed the
    deploy script" is no person saying where the script lives has changed."""
    shown = deploy_lines(open_memory, source="bot")
    assert shown, "the older message is in the context"
    assert not any("possibly outdated" in line for line in shown)


def test_the_same_notice_from_a_person_still_doubts_the_older_message(open_memory):
    shown = deploy_lines(open_memory)
    assert any("possibly outdated" in line for line in shown)


def test_an_outdated_turn_names_which_of_its_facts_is_outdated(open_memory):
    """A turn that says two things, one since replaced, is marked with the replaced one:
    "(outdated; now: Zosia is 8 years old.)" alone read as if her allergy were outdated."""
    first = "my daughter Zosia is 7 and allergic to sesame"
    age = fact("zosia", "age", "7", category="identity", text="Zosia is 7 years old.")
    allergy = fact(
        "zosia", "allergy:sesame", "sesame", category="health", text="Zosia is allergic to sesame."
    )
    older = fact("zosia", "age", "8", category="identity", text="Zosia is 8 years old.")
    said = {first: [age, allergy], "Zosia turned 8 on Saturday!": [older]}
    mem = open_memory(ScriptedModel(lambda turn: said.get(turn.user, [])), recent_turns=2)
    talk(mem, CHAT, [(first, "Noted."), *SMALL_TALK, ("Zosia turned 8 on Saturday!", "Yay!")])
    mem.process_pending()
    ctx = mem.context(CHAT, "What is Zosia allergic to?", budget=4000)
    turns = [line for line in section_lines(ctx, "retrieved") if "sesame" in line]
    mark = "(outdated: Zosia is 7 years old; now: Zosia is 8 years old.)"
    assert turns and all(line.endswith(mark) for line in turns), turns


def test_a_turn_is_outdated_in_what_was_read_from_it_whatever_its_words(open_memory):
    """ "Target for beta is Friday 2 October" stated the beta's date in other words than
    the fact read from it ("The Atlas beta date is October 2, 2026"): once a later date
    replaced that fact, the turn is marked with it all the same."""
    project = "project:atlas"
    mem = open_memory(recent_turns=2)
    said = [("Target for beta is Friday 2 October.", "")]
    n = talk(mem, project, said, speaker="Priya")
    n = talk(mem, project, [("Beta slips to 9 October.", "")], n, speaker="Priya")
    talk(mem, project, SMALL_TALK, n, speaker="Dana")
    mem.process_pending()
    dates = {f.value: f.status.value for f in mem.facts(project, include_inactive=True)}
    assert dates.get("2026-10-02") == "superseded" and dates.get("2026-10-09") == "active"
    ctx = mem.context(project, "When was the beta first planned?", budget=4000)
    turns = [line for line in section_lines(ctx, "retrieved") if "Target for beta" in line]
    assert turns and all("(outdated: " in line and "October 9" in line for line in turns), turns
