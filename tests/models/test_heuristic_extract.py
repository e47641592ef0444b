"""Fact extraction by the heuristic model: the acceptance story, table-driven rules,
precision on small talk, corrections, dates, and robustness on hostile input."""

from datetime import UTC, date, datetime, timedelta

import pytest

from threefold import dates
from threefold.dates import annotate, find_date
from threefold.domain import FactCategory
from threefold.models.base import ExtractedFact, MemoryModel, SlotRef, TurnInput
from threefold.models.heuristic import HeuristicModel
from threefold.models.heuristic.text import MAX_SIDE_CHARS, indefinite_article

AT = datetime(2026, 11, 5, 15, 0, tzinfo=UTC)  # a Thursday
MODEL = HeuristicModel()


def facts(user: str, assistant: str = "", stream: str = "project:alpha", at: datetime = AT):
    return MODEL.extract_facts(TurnInput(stream=stream, user=user, assistant=assistant, at=at))


def keys(found: list[ExtractedFact]) -> list[tuple[str, str, str]]:
    return [(f.subject, f.slot, f.value) for f in found]


def only(user: str, **kwargs) -> ExtractedFact:
    found = facts(user, **kwargs)
    assert len(found) == 1, keys(found)
    return found[0]


def test_is_a_memory_model():
    assert isinstance(HeuristicModel(), MemoryModel)
    assert HeuristicModel.name == "heuristic"


def test_acceptance_story():
    turn = lambda n, text: facts(text, at=AT + timedelta(minutes=10 * n))  # noqa: E731
    first = turn(1, "Sarah is the Lead Architect on Alpha, and Priya handles frontend.")
    assert [
        (k, f.confidence, f.is_correction) for k, f in zip(keys(first), first, strict=True)
    ] == [
        (("lead architect", "holder", "sarah"), 0.95, False),
        (("priya", "handles", "frontend"), 0.95, False),
    ]
    assert first[0].category is FactCategory.ROLE
    assert first[1].category is FactCategory.RESPONSIBILITY

    assert turn(2, "Let's talk about the marketing site redesign.") == []

    third = turn(3, "No, Raj is the Lead Architect. He's been with us 4 years.")
    assert keys(third) == [("lead architect", "holder", "raj"), ("raj", "tenure", "4 years")]
    assert third[0].confidence == 1.0 and third[0].is_correction
    assert third[0].text == "Raj is the Lead Architect."
    assert "Raj" in third[1].text and not third[1].is_correction

    ninth = only("Priya handles backend, not frontend.")
    assert (ninth.subject, ninth.slot, ninth.value) == ("priya", "handles", "backend")
    assert ninth.confidence == 1.0 and ninth.is_correction
    assert ninth.retracts == (SlotRef(subject="priya", slot="handles", value="frontend"),)

    ci = turn(
        20,
        "The CI pipeline keeps failing on the integration tests, that's a blocker for the release.",
    )
    assert [f.category for f in ci] == [FactCategory.BLOCKER]
    assert ci[0].subject == "release"

    fortieth = only("The Alpha deadline moved to March 27.")
    assert (fortieth.subject, fortieth.slot, fortieth.value) == ("alpha", "deadline", "2027-03-27")
    assert fortieth.confidence == 0.95 and fortieth.category is FactCategory.DEADLINE
    assert "March 27, 2027" in fortieth.text and "2027-03-27" in fortieth.text


POSITIVES = [
    # roles: keyed by the title, so a new holder supersedes the old one
    ("Raj is the Lead Architect.", "lead architect", "holder", "raj", FactCategory.ROLE),
    ("Priya is our PM.", "pm", "holder", "priya", FactCategory.ROLE),
    ("Our PM is Priya.", "pm", "holder", "priya", FactCategory.ROLE),
    ("Raj is the VP of Sales.", "vp of sales", "holder", "raj", FactCategory.ROLE),
    ("Maria is head of engineering.", "head of engineering", "holder", "maria", FactCategory.ROLE),
    (
        "Tom is the lead architect on Beta.",
        "beta lead architect",
        "holder",
        "tom",
        FactCategory.ROLE,
    ),
    ("Raj is a senior engineer.", "raj", "role", "senior engineer", FactCategory.ROLE),
    ("raj is the cto", "cto", "holder", "raj", FactCategory.ROLE),
    # responsibilities
    ("Priya handles backend.", "priya", "handles", "backend", FactCategory.RESPONSIBILITY),
    (
        "Priya owns the billing service.",
        "priya",
        "handles",
        "billing service",
        FactCategory.RESPONSIBILITY,
    ),
    ("Raj is responsible for hiring.", "raj", "handles", "hiring", FactCategory.RESPONSIBILITY),
    ("Ana works on the mobile app.", "ana", "handles", "mobile app", FactCategory.RESPONSIBILITY),
    (
        "Raj handles Sales and Marketing.",
        "raj",
        "handles",
        "sales and marketing",
        FactCategory.RESPONSIBILITY,
    ),
    # deadlines and dates, resolved against the turn (Thursday 2026-11-05)
    ("The deadline is next Friday.", "alpha", "deadline", "2026-11-13", FactCategory.DEADLINE),
    ("The report is due tomorrow.", "report", "deadline", "2026-11-06", FactCategory.DEADLINE),
    ("It's due Friday.", "alpha", "deadline", "2026-11-06", FactCategory.DEADLINE),
    (
        "The deadline for the Q3 report is December 1.",
        "q3 report",
        "deadline",
        "2026-12-01",
        FactCategory.DEADLINE,
    ),
    ("Deadline: 2027-01-15.", "alpha", "deadline", "2027-01-15", FactCategory.DEADLINE),
    ("Launch is on June 3.", "alpha", "launch date", "2027-06-03", FactCategory.DATE),
    (
        "The launch got pushed to next Monday.",
        "alpha",
        "launch date",
        "2026-11-09",
        FactCategory.DATE,
    ),
    ("We ship on Friday.", "alpha", "ship date", "2026-11-06", FactCategory.DATE),
    (
        "The design review is on the 3rd of December.",
        "design",
        "review date",
        "2026-12-03",
        FactCategory.DATE,
    ),
    # decisions
    (
        "We decided to use Postgres for the database.",
        "alpha",
        "decision:database",
        "postgres",
        FactCategory.DECISION,
    ),
    (
        "Let's go with React.",
        "alpha",
        "decision:frontend framework",
        "react",
        FactCategory.DECISION,
    ),
    (
        "Decision: we ship the beta without SSO.",
        "alpha",
        "decision:auth",
        "we ship the beta without sso",
        FactCategory.DECISION,
    ),
    (
        "We agreed to postpone the offsite.",
        "alpha",
        "decision:postpone offsite",
        "postpone the offsite",
        FactCategory.DECISION,
    ),
    # assignments
    ("Assign the migration to Raj.", "migration", "assignee", "raj", FactCategory.ASSIGNMENT),
    (
        "The API review is assigned to Priya.",
        "api review",
        "assignee",
        "priya",
        FactCategory.ASSIGNMENT,
    ),
    (
        "Raj will take the onboarding docs.",
        "onboarding docs",
        "assignee",
        "raj",
        FactCategory.ASSIGNMENT,
    ),
    # commitments
    (
        "I will send the report by Friday.",
        "user",
        "commitment:send report",
        "send the report by friday (2026-11-06)",
        FactCategory.COMMITMENT,
    ),
    (
        "We'll publish the changelog tomorrow.",
        "alpha",
        "commitment:publish changelog",
        "publish the changelog tomorrow (2026-11-06)",
        FactCategory.COMMITMENT,
    ),
    # blockers
    (
        "We're blocked on the API keys.",
        "alpha",
        "blocker:api keys",
        "api keys",
        FactCategory.BLOCKER,
    ),
    (
        "Legal review is blocking the launch.",
        "launch",
        "blocker:legal review",
        "legal review",
        FactCategory.BLOCKER,
    ),
    (
        "Still waiting on legal review.",
        "alpha",
        "blocker:legal review",
        "legal review",
        FactCategory.BLOCKER,
    ),
    # recurring events
    (
        "Standup is every Monday at 10.",
        "standup",
        "schedule",
        "every monday at 10",
        FactCategory.RECURRING,
    ),
    (
        "We have retro every last Friday.",
        "retro",
        "schedule",
        "every last friday",
        FactCategory.RECURRING,
    ),
    ("Weekly sync on Tuesdays.", "weekly sync", "schedule", "on tuesdays", FactCategory.RECURRING),
    (
        "The team meets every Tuesday at 3pm.",
        "team meeting",
        "schedule",
        "every tuesday at 3pm",
        FactCategory.RECURRING,
    ),
    # preferences
    (
        "I prefer short answers.",
        "user",
        "response length",
        "prefers short answers",
        FactCategory.PREFERENCE,
    ),
    (
        "I don't like long answers.",
        "user",
        "response length",
        "dislikes long answers",
        FactCategory.PREFERENCE,
    ),
    (
        "Please always answer in English.",
        "user",
        "language",
        "always answer in english",
        FactCategory.PREFERENCE,
    ),
    ("Never use emojis.", "user", "tone", "never use emojis", FactCategory.PREFERENCE),
    # status and the user's name
    ("The migration is done.", "migration", "status", "done", FactCategory.STATUS),
    ("My name is Dana.", "user", "name", "dana", FactCategory.IDENTITY),
    # amounts, named by what they pay for
    ("The budget for Q3 is $50k.", "alpha", "amount:q3 budget", "$50k", FactCategory.NOTE),
    ("Our budget was cut to 20k.", "alpha", "amount:budget", "20k", FactCategory.NOTE),
    ("My rent is £1,200 a month.", "user", "amount:rent", "£1,200 a month", FactCategory.NOTE),
]


@pytest.mark.parametrize(("text", "subject", "slot", "value", "category"), POSITIVES)
def test_statements(text, subject, slot, value, category):
    fact = only(text)
    assert (fact.subject, fact.slot, fact.value) == (subject, slot, value)
    assert fact.category is category
    assert fact.confidence == 0.95 and not fact.is_correction
    assert fact.text[0].isupper() and fact.text.endswith(".")


NEGATIVES = [
    "Thanks!",
    "The price is right.",
    "The cost is too high.",
    "The rate is 5.",
    "Noah is picking up lunch.",  # an errand, not an assignment
    "Sam is picking up the kids.",
    "Decision is pending.",  # no choice named
    "The decision is not made yet.",
    "The decision is final.",
    "What do you think about the weather?",
    "Let's talk about the marketing site redesign.",
    "Who is the lead architect?",
    "Is Raj the lead architect?",
    "Raj is the lead architect, right?",
    "I'm not sure if Raj is the lead architect.",
    "If Raj is the lead, we should talk.",
    "Raj is the best.",
    "This is the lead architect's decision.",
    "It handles backend.",
    "He is the CTO.",  # nobody for "he" to be
    "That's great, thanks so much!",
    "I love it.",
    "I like that idea.",
    "I'm going to grab lunch.",
    "I'll take a look.",
    "We'll see.",
    "No worries, I'll be there.",
    "Don't worry about it.",
    "The weather is nice today.",
    "Today is a good day.",
    "Security is the lead concern.",
    "Python is the main language.",
    "The deadline is tight.",
    "The meeting went well.",
    "We may launch on June 3.",
    "Please summarize the meeting.",
    "Can you remind me about the deadline?",
    "Tell me about Raj.",
    "I'm waiting for your answer.",
    "Raj handles it.",
    "Everyone handles their own tests.",
    # a thing taken somewhere is carried, not taken on as work
    "Oskar took the cat to the vet for a check-up.",
    "Ana will pick up the cake from the bakery.",
    "Tom is taking the kids to his mum's for the weekend.",
    "No.",
    "ok",
    "",
    "   ",
    "Это тест. Радж — ведущий архитектор.",
    "这是一个测试。",
]


@pytest.mark.parametrize("text", NEGATIVES)
def test_small_talk_and_questions_yield_nothing(text):
    assert facts(text) == []


@pytest.mark.parametrize("text", ["Anna took a job in Denver.", "Raj took a new job at Stripe."])
def test_a_job_taken_is_no_task_assigned(text):
    assert all(f.category is not FactCategory.ASSIGNMENT for f in facts(text))


def test_assistant_statements_rank_below_the_users():
    found = facts("", assistant="Got it - Raj is the Lead Architect. Priya handles QA.")
    assert keys(found) == [("lead architect", "holder", "raj"), ("priya", "handles", "qa")]
    assert all(f.confidence <= 0.6 and not f.is_correction for f in found)


def test_assistant_echo_does_not_duplicate_the_user():
    found = facts("Raj is the CTO.", assistant="Noted: Raj is the CTO. I'll remember that.")
    assert keys(found) == [("cto", "holder", "raj")]
    assert found[0].confidence == 0.95


def test_assistant_first_person_is_not_the_users_commitment_or_preference():
    assert facts("", assistant="I'll send you the report tomorrow. I prefer short answers.") == []


@pytest.mark.parametrize(
    ("text", "confidence"),
    [
        ("I think Raj is the PM.", 0.65),
        ("Raj is probably the PM.", 0.65),
        ("Maybe Priya handles QA.", 0.65),
        ("Priya handles QA, I think.", 0.65),
        ("Sarah said Raj is the PM.", 0.7),
    ],
)
def test_hedged_statements_get_less_confidence(text, confidence):
    assert only(text).confidence == confidence


CORRECTIONS = [
    ("No, Raj is the Lead Architect.", ("lead architect", "holder", "raj"), ()),
    ("Actually, Raj is the Lead Architect.", ("lead architect", "holder", "raj"), ()),
    ("Raj is actually the lead architect.", ("lead architect", "holder", "raj"), ()),
    (
        "Raj is the lead architect, not Sarah.",
        ("lead architect", "holder", "raj"),
        (("lead architect", "holder", "sarah"),),
    ),
    (
        "Raj, not Sarah, is the lead architect.",
        ("lead architect", "holder", "raj"),
        (("lead architect", "holder", "sarah"),),
    ),
    (
        "Raj is not the PM, he's the lead architect.",
        ("lead architect", "holder", "raj"),
        (("pm", "holder", "raj"),),
    ),
    (
        "Sarah isn't the lead architect, it's Raj.",
        ("lead architect", "holder", "raj"),
        (("lead architect", "holder", "sarah"),),
    ),
    (
        "The lead architect is not Sarah, it's Raj.",
        ("lead architect", "holder", "raj"),
        (("lead architect", "holder", "sarah"),),
    ),
    ("Priya is not on frontend; Priya handles backend.", ("priya", "handles", "backend"), ()),
    (
        "Priya doesn't handle frontend, she handles backend.",
        ("priya", "handles", "backend"),
        (("priya", "handles", "frontend"),),
    ),
    (
        "The deadline is March 20, not March 27.",
        ("alpha", "deadline", "2027-03-20"),
        (("alpha", "deadline", "2027-03-27"),),
    ),
    (
        "Actually, we'll use MySQL instead of Postgres.",
        ("alpha", "decision:database", "mysql"),
        (("alpha", "decision:database", "postgres"),),
    ),
    (
        "Assign the migration to Raj, not Sarah.",
        ("migration", "assignee", "raj"),
        (("migration", "assignee", "sarah"),),
    ),
]


@pytest.mark.parametrize(("text", "key", "retracted"), CORRECTIONS)
def test_corrections(text, key, retracted):
    fact = only(text)
    assert (fact.subject, fact.slot, fact.value) == key
    assert fact.is_correction and fact.confidence == 1.0
    assert tuple((r.subject, r.slot, r.value) for r in fact.retracts) == retracted


def test_a_bare_no_marks_the_next_sentence_as_a_correction():
    fact = only("No. Raj is the lead architect.")
    assert fact.is_correction and fact.value == "raj"


def test_a_bare_denial_retracts_without_replacing():
    fact = only("Priya doesn't handle frontend anymore.")
    assert fact.is_correction and fact.subject == "priya"
    assert fact.slot != "handles"  # it must not supersede what Priya does handle
    assert fact.retracts == (SlotRef(subject="priya", slot="handles", value="frontend"),)
    denial = only("Raj is not the PM.")
    assert denial.retracts == (SlotRef(subject="pm", slot="holder", value="raj"),)


def test_a_later_decision_on_the_same_topic_shares_the_slot():
    first, second = only("We decided to use Postgres."), only("We decided to use MySQL instead.")
    assert first.slot == second.slot == "decision:database"
    assert (first.value, second.value) == ("postgres", "mysql")


def test_pronoun_resolves_to_the_previous_person():
    found = facts("Priya is our PM. She handles hiring.")
    assert keys(found) == [("pm", "holder", "priya"), ("priya", "handles", "hiring")]
    assert found[1].text == "Priya handles hiring."


def test_appositive_role():
    found = facts("Raj, the CTO, handles hiring.")
    assert keys(found) == [("cto", "holder", "raj"), ("raj", "handles", "hiring")]


def test_global_stream_deadline_has_a_subject():
    fact = only("The deadline is tomorrow.", stream="global")
    assert (fact.subject, fact.value) == ("global", "2026-11-06")
    assert fact.text == "The deadline is November 6, 2026 (2026-11-06)."


def test_assignment_text_carries_the_resolved_due_date():
    fact = only("Raj will take the onboarding docs by Friday.")
    assert fact.subject == "onboarding docs" and "2026-11-06" in fact.text


@pytest.mark.parametrize(
    ("phrase", "expected"),
    [
        ("March 27", date(2027, 3, 27)),
        ("on November 5", date(2026, 11, 5)),  # the turn's own day, not next year
        ("November 4", date(2027, 11, 4)),
        ("Dec 1st", date(2026, 12, 1)),
        ("27 March 2026", date(2026, 3, 27)),
        ("2027-02-01", date(2027, 2, 1)),
        ("tomorrow", date(2026, 11, 6)),
        ("today", date(2026, 11, 5)),
        ("the day after tomorrow", date(2026, 11, 7)),
        ("Friday", date(2026, 11, 6)),
        ("this Friday", date(2026, 11, 6)),
        ("next Friday", date(2026, 11, 13)),
        ("next Monday", date(2026, 11, 9)),
        ("Thursday", date(2026, 11, 5)),
        ("in 3 days", date(2026, 11, 8)),
        ("in two weeks", date(2026, 11, 19)),
        ("in a month", date(2026, 12, 5)),
        ("end of the month", date(2026, 11, 30)),
        ("end of the week", date(2026, 11, 6)),
        ("end of the quarter", date(2026, 12, 31)),
        ("on the 14th", date(2026, 11, 14)),  # a day of this month still ahead
        ("the 5th.", date(2026, 11, 5)),
        ("pushed to the 2nd", date(2026, 12, 2)),  # past this month's: next month's
        ("the 31st at noon", date(2026, 12, 31)),  # November has none
    ],
)
def test_dates_resolve_against_the_turn(phrase, expected):
    hit = find_date(phrase, AT)
    assert hit is not None and hit.day == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("yesterday", date(2026, 11, 4)),
        ("the day before yesterday", date(2026, 11, 3)),
        ("last night", date(2026, 11, 4)),
        ("last Friday", date(2026, 10, 30)),
        ("last Thursday", date(2026, 10, 29)),  # said on a Thursday: a week ago, not today
        ("this past Monday", date(2026, 11, 2)),
        ("two days ago", date(2026, 11, 3)),
        ("3 weeks ago", date(2026, 10, 15)),
        # A bare day in a sentence about what already happened lies behind the turn.
        ("I went hiking on Friday.", date(2026, 10, 30)),
        ("On Friday, I got great news.", date(2026, 10, 30)),
        ("We finally finished the migration on Monday.", date(2026, 11, 2)),
        ("I got married on June 5.", date(2026, 6, 5)),
        ("We met on March 3", date(2026, 3, 3)),
        # Plans, targets and states stay ahead, whatever verb came before.
        ("We moved it to Friday.", date(2026, 11, 6)),
        ("As we discussed, the demo is Friday.", date(2026, 11, 6)),
        ("I'll go on Friday.", date(2026, 11, 6)),
        ("We're having a party on Saturday.", date(2026, 11, 7)),
        ("I am excited about Friday.", date(2026, 11, 6)),
        ("We need it done on Friday.", date(2026, 11, 6)),
        ("We meet on March 3", date(2027, 3, 3)),
    ],
)
def test_days_behind_the_turn_resolve_backward(text, expected):
    hit = find_date(text, AT)
    assert hit is not None and hit.day == expected and hit.relative


@pytest.mark.parametrize(
    "phrase",
    [
        "March 20",
        "mar. 20",
        "20 March",
        "the 3rd of May",
        "Sept 9th, 2023",
        "Dec 31st",
        "January 1",
        "1 Jan 2027",
        "Feb 28",
        "Feb 29",
        "June 31",
        "November 4",
        "5th November",
    ],
)
@pytest.mark.parametrize("day", ["2026-11-05", "2024-02-29", "2025-12-31", "2026-01-01"])
def test_month_days_read_as_dateparser_reads_them(phrase, day):
    # Month-day phrases skip dateparser, which takes milliseconds each; they must come out
    # as dateparser (with the next-year correction for past days) has them.
    today = date.fromisoformat(day)
    expected = dates._dateparser(phrase.removeprefix("the "), today)
    if expected is not None and expected < today and not phrase[-4:].isdigit():
        expected = dates._next_year(expected)
    hit = find_date(phrase, datetime.fromisoformat(day).replace(hour=9, tzinfo=UTC))
    assert (hit.day if hit else None) == expected


@pytest.mark.parametrize(
    "text",
    [
        "soon",
        "next week",
        "may 3x our revenue",
        "sun",
        "later",
        "the 3rd time I asked",  # an ordinal a noun follows counts, it names no day
        "on the 2nd floor",
        "the 20th century",
        "I came 3rd.",
    ],
)
def test_vague_or_false_dates_are_ignored(text):
    assert find_date(text, AT) is None


def test_naive_and_aware_times_agree():
    naive = facts("The deadline is tomorrow.", at=datetime(2026, 11, 5, 23, 30))
    aware = facts("The deadline is tomorrow.", at=datetime(2026, 11, 5, 23, 30, tzinfo=UTC))
    assert naive == aware


def test_annotate_pins_relative_dates():
    assert annotate("Send it by Friday.", AT) == "Send it by Friday (2026-11-06)."
    assert annotate("Due 2027-01-01.", AT) == "Due 2027-01-01."


def test_deterministic():
    text = "Sarah is the Lead Architect, and Priya handles frontend. The deadline is Friday."
    assert facts(text) == facts(text)


@pytest.mark.slow
@pytest.mark.parametrize(
    "text",
    [
        "Raj is the CTO. " * 700_000,  # ~10 MB
        "x" * 10_000_000,
        "a. " * 3_500_000,
        "Priya handles " + "backend and " * 900_000,
        "No, Raj is not the PM, he's the lead architect. " * 200_000,
    ],
)
def test_huge_turns_are_read_only_as_far_as_their_bounded_prefix(text):
    """What a 10 MB turn costs is bounded: only its first MAX_SIDE_CHARS are read, so a
    fact stated after them is not found (benchmarks/huge_turns.py times these inputs)."""
    late = "Zoe is the CFO."
    found = MODEL.extract_facts(
        TurnInput(stream="project:alpha", user=f"{text} {late}", assistant=text, at=AT)
    )
    assert not any("Zoe" in f.text for f in found)
    assert len(found) <= MAX_SIDE_CHARS // 10


def test_control_characters_do_not_break_extraction():
    found = facts("\x00\x01Raj is the\x00 CTO.\x00\u200b")
    assert keys(found) == [("cto", "holder", "raj")]
    assert all("\x00" not in f.text for f in found)


@pytest.mark.parametrize(
    "text",
    [
        "I'll never forget the day my youngest took her first steps.",
        "I'll always remember our camping trip last year.",
        "I'll do my best to make sure these kids have a safe home.",
        "I'll check them out.",
        "I've never been to something like that.",
        "I like how art lets us get our emotions out.",
        "Always staying filled with self-belief.",
    ],
)
def test_chat_small_talk_is_not_a_fact(text):
    assert facts(text) == []


def test_facts_about_the_user_are_told_in_the_third_person():
    fact = only("I will show my paintings at the fair on Friday.")
    assert "their paintings" in fact.text and "my" not in fact.text.split()


def test_a_topic_lead_in_is_not_the_subject():
    fact = only("About the CI pipeline: We are blocked on the flaky migration test.")
    assert fact.category.value == "blocker" and "about" not in fact.slot


@pytest.mark.parametrize(
    "text",
    [
        "Never give up.",
        "Always believe in yourself!",
        "Never let the bumps in the road get you",
        "We'll rock the dance floor and teach others to chase their dreams.",
        # talk, not instructions: the assistant does none of these
        "don't age me",
        "Don't tell my brother.",
        "please do not make me older than I am",
        "Don't agree wi' me.",
        "don't let Tavita feed me 5 pani popo",
        # a subject or a preposition after always/never: how things are
        "Always I mix them and my boss laughs.",
        "never in my life",
        "Don't ask.",  # a verb with no object
        "Dayo and I are done.",  # a couple, not a task
    ],
)
def test_encouragement_is_not_a_preference_or_commitment(text):
    assert facts(text) == []


@pytest.mark.parametrize(
    "text,category",
    [
        ("Please always reply in British English.", "preference"),
        ("Never cc me on the vendor threads.", "preference"),
        ("Never suggest beef recipes to me.", "preference"),
        ("ALWAYS remind me before birthday parties", "preference"),
        ("Please do not buy eggs on my share.", "preference"),
        ("I'll send the budget report to finance.", "commitment"),
        ("We will hold the retro on Friday.", "commitment"),
    ],
)
def test_instructions_and_promises_still_count(text, category):
    assert only(text).category.value == category


@pytest.mark.parametrize(
    ("said", "slot"),
    [
        ("Please keep your answers short.", "response length"),
        ("Answer me in German, please.", "language"),
        ("Keep your replies friendly and casual.", "tone"),
        ("Use bullet points in your answers.", "format"),
    ],
)
def test_a_standing_request_about_answers_is_a_preference(said: str, slot: str) -> None:
    found = only(said, stream="chat:1")
    assert (found.category, found.subject, found.slot) == (FactCategory.PREFERENCE, "user", slot)


@pytest.mark.parametrize(
    "said",
    [
        "Please answer the email from Bob.",
        "Reply to Sarah with the numbers.",
        "Respond with a table.",
        "Write in the doc, please.",
    ],
)
def test_a_request_for_one_answer_or_a_task_is_no_preference(said: str) -> None:
    assert facts(said, stream="chat:1") == []


def test_where_someone_moved_from_is_not_where_they_live() -> None:
    found = only("I relocated to Lisbon from Warsaw.", stream="chat:1")
    assert (found.slot, found.value) == ("home", "lisbon")


@pytest.mark.parametrize(
    ("word", "article"),
    [
        ("used", "a"), ("university", "a"), ("European", "a"), ("one-off", "a"),
        ("unusual", "an"), ("uninsured", "an"), ("umbrella", "an"), ("owl", "an"),
        ("hour", "an"), ("heir", "an"), ("house", "a"),
        ("MBA", "an"), ("SUV", "an"), ("BMW", "a"), ("UX", "a"), ("X-ray", "an"),
    ],
)  # fmt: skip
def test_a_or_an_goes_by_how_the_word_is_said(word, article):
    assert indefinite_article(word) == article


@pytest.mark.parametrize(
    "text",
    [
        "Geoffrey actually died in 2018, not 2019, it was the winter before the grandkids came.",
        "I play the cello, not especially well, in the Stroud Symphony Orchestra.",
        "I write also in Python a bit, not only Golang, if you show examples.",
    ],
)
def test_a_contrast_set_off_by_commas_denies_nothing(text):
    """ ", not 2019," contrasts a word; the clause before it is not denied."""
    assert not [f for f in facts(text) if ":not:" in f.slot or "not true" in f.text]
