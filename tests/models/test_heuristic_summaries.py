"""Summaries by the heuristic model: session digests, the block format, merging,
compaction under a hard token limit, roll-ups, routing and reconciliation."""

from datetime import UTC, date, datetime, timedelta

import pytest

from threefold.domain import FactCategory
from threefold.models.base import (
    DatedSummary,
    ExtractedFact,
    KnownFact,
    Period,
    ReconcileAction,
    TurnInput,
)
from threefold.models.heuristic import HeuristicModel
from threefold.models.heuristic.blocks import Block, parse, render
from threefold.tokens import count_tokens

AT = datetime(2026, 11, 5, 15, 0, tzinfo=UTC)
MODEL = HeuristicModel()


def turn(user: str, assistant: str = "", hours: int = 0) -> TurnInput:
    return TurnInput(
        stream="project:alpha", user=user, assistant=assistant, at=AT + timedelta(hours=hours)
    )


SESSION = [
    turn("Hi! Let's talk about the marketing site redesign.", "Sure, happy to help.", 0),
    turn(
        "The CI pipeline keeps failing on the integration tests, that's a blocker for the release.",
        "Flaky tests are often caused by shared state between tests.",
        1,
    ),
    turn("We decided to use Postgres for the database.", "Postgres has good JSON support.", 2),
    turn("I need to send the budget to finance by Friday.", "Noted.", 3),
    turn("Thanks!", "You're welcome!", 4),
    turn("What do you think about the weather?", "I can't check the weather.", 5),
    turn("Raj is the lead architect.", "Got it.", 6),
    turn("I'm worried the vendor contract won't be signed before launch.", "", 7),
]


def dated(text: str, start: date, end: date | None = None) -> DatedSummary:
    begin = datetime(start.year, start.month, start.day, 9, tzinfo=UTC)
    stop = end or start
    finish = datetime(stop.year, stop.month, stop.day, 17, tzinfo=UTC)
    return DatedSummary(text=text, period=Period(start=begin, end=finish))


# --- summarize_session -----------------------------------------------------------------


def test_summary_keeps_what_matters_in_order():
    digest = MODEL.summarize_session(SESSION, 120)
    lines = digest.text.splitlines()
    assert count_tokens(digest.text) <= 120
    assert all(line.startswith("- ") for line in lines)
    text = digest.text
    assert "Open: The CI pipeline keeps failing" in text
    assert "We decided to use Postgres" in text
    assert "Open: I need to send the budget to finance by Friday (2026-11-06)." in text
    assert "Open: I'm worried the vendor contract" in text
    assert "weather" not in text and "Thanks" not in text and "welcome" not in text
    assert text.index("CI pipeline") < text.index("Postgres") < text.index("vendor")


def test_summary_pins_days_behind_the_session_to_the_past():
    digest = MODEL.summarize_session(
        [turn("I passed the licence exam last Friday and we celebrated yesterday.")], 60
    )
    assert "last Friday (2026-10-30)" in digest.text
    assert "yesterday (2026-11-04)" in digest.text


def test_a_day_behind_is_no_schedule_worth_keeping_over_one_ahead():
    session = [
        turn("We watched a film at the cinema last Friday."),
        turn("The contract renewal is on Friday."),
    ]
    digest = MODEL.summarize_session(session, 24)  # room for one of the two
    assert "renewal" in digest.text and "film" not in digest.text


def test_summary_open_items_are_also_in_the_text():
    digest = MODEL.summarize_session(SESSION, 200)
    assert digest.open_items
    for item in digest.open_items:
        assert f"- Open: {item}" in digest.text
    assert not any("Assistant" in item for item in digest.open_items)


def test_small_budget_keeps_concerns_over_facts():
    digest = MODEL.summarize_session(SESSION, 45)
    assert count_tokens(digest.text) <= 45
    assert "Open:" in digest.text and "Raj is the lead architect" not in digest.text


@pytest.mark.parametrize("target", [0, 1, 5, 17, 60, 300, 5000])
def test_summary_respects_the_budget(target):
    assert count_tokens(MODEL.summarize_session(SESSION, target).text) <= target


def test_summary_drops_near_duplicates():
    turns = [turn("The CI pipeline is failing again."), turn("The CI pipeline is failing again!")]
    assert MODEL.summarize_session(turns, 200).text.count("CI pipeline") == 1


def test_summary_keeps_the_speaker_on_every_sentence_and_drops_labelled_small_talk():
    turns = [
        turn("Caroline: Hey Mel!"),
        turn("Melanie: Thanks, Caroline!"),
        turn("hamza (in thread): The deploy failed twice. We are blocked on the API keys."),
        turn("Melanie: I painted that lake sunrise last year! Painting relaxes me after work."),
    ]
    lines = MODEL.summarize_session(turns, 200).text.splitlines()
    assert lines == [
        "- Open: hamza (in thread): The deploy failed twice.",
        "- Open: hamza (in thread): We are blocked on the API keys.",
        # The year is resolved against the turn's own time, so the line never rots.
        "- Melanie: I painted that lake sunrise last year (2025)!",
        "- Melanie: Painting relaxes me after work.",
    ]


def test_a_label_that_is_no_speaker_stays_on_its_own_sentence():
    text = "Error: the nightly build failed on the migration step. Retrying it with logs on."
    lines = MODEL.summarize_session([turn(text)], 200).text.splitlines()
    assert lines[0].startswith("- Open: Error: the nightly build failed")
    assert lines[1:] == ["- Retrying it with logs on."]


@pytest.mark.parametrize(
    "turns",
    [
        [],
        [turn("")],
        [turn("", "")],
        [turn("\x00" * 1000, "\x00\x01\x02")],
        [turn("Это тест. Мы решили использовать Postgres. 这是测试。我们被阻止了。")],
        [turn("We are blocked on the API keys. " * 400_000)],
        [turn("x" * 5_000_000, "y" * 5_000_000)],
    ],
)
def test_summary_survives_odd_input(turns):
    digest = MODEL.summarize_session(turns, 100)
    assert count_tokens(digest.text) <= 100
    assert "\x00" not in digest.text


def test_summary_is_deterministic():
    assert MODEL.summarize_session(SESSION, 80) == MODEL.summarize_session(SESSION, 80)


# --- the block format and merge_summary ------------------------------------------------


def test_blocks_round_trip():
    text = "### 2026-11-01 – 2026-11-03\n- a\n- Open: b\n\n### 2026-11-09\n- c"
    blocks = parse(text)
    assert [(b.start, b.end, b.lines) for b in blocks] == [
        (date(2026, 11, 1), date(2026, 11, 3), ["- a", "- Open: b"]),
        (date(2026, 11, 9), date(2026, 11, 9), ["- c"]),
    ]
    assert render(blocks) == text


def test_foreign_text_is_one_undated_block():
    prose = "The team met to discuss things.\n\nThey agreed on a plan. ### not a header"
    blocks = parse(prose)
    assert len(blocks) == 1 and blocks[0].start is None
    assert (
        render(blocks) == "The team met to discuss things.\nThey agreed on a plan. ### not a header"
    )


def test_merge_into_nothing_dates_the_block_and_adds_open_items():
    new = dated("- We chose Postgres.", date(2026, 11, 5))
    merged = MODEL.merge_summary(None, new, ["Vendor contract unsigned."])
    assert merged == "### 2026-11-05\n- We chose Postgres.\n- Open: Vendor contract unsigned."


def test_merge_appends_a_new_period_and_merges_the_same_one():
    first = dated("- We chose Postgres.", date(2026, 11, 2), date(2026, 11, 3))
    active = dated(MODEL.merge_summary(None, first, []), date(2026, 11, 2), date(2026, 11, 3))
    same = MODEL.merge_summary(active, dated("- Raj owns the migration.", date(2026, 11, 3)), [])
    assert same == "### 2026-11-02 – 2026-11-03\n- We chose Postgres.\n- Raj owns the migration."
    later = MODEL.merge_summary(active, dated("Launch moved.", date(2026, 11, 9)), [])
    assert later.endswith("\n\n### 2026-11-09\n- Launch moved.")


def test_merge_keeps_foreign_text_and_moves_restated_open_items_forward():
    active = dated("Some prose an LLM wrote.\n- Open: CI is failing.", date(2026, 11, 1))
    new = dated("- Decided to ship.", date(2026, 11, 8))
    merged = MODEL.merge_summary(active, new, ["CI is failing."])
    assert merged.startswith("Some prose an LLM wrote.")
    assert merged.count("CI is failing") == 1
    assert merged.endswith("### 2026-11-08\n- Decided to ship.\n- Open: CI is failing.")


def test_merge_marks_a_plain_line_open_instead_of_repeating_it():
    new = dated("- The CI is failing on main.", date(2026, 11, 8))
    merged = MODEL.merge_summary(None, new, ["The CI is failing on main."])
    assert merged == "### 2026-11-08\n- Open: The CI is failing on main."


# --- compact_summary -------------------------------------------------------------------


def _history(weeks: int = 8) -> str:
    blocks = []
    for week in range(weeks):
        start = date(2026, 9, 1) + timedelta(weeks=week)
        lines = [
            f"- Week {week}: we decided to move service {week} to the new cluster.",
            f"- Week {week}: the team discussed the onboarding flow and its copy at length.",
            f"- Week {week}: someone mentioned the office coffee machine again.",
            f"- Week {week}: the deadline for milestone {week} is set for the end of the month.",
        ]
        blocks.append(Block(start, start + timedelta(days=4), lines))
    blocks[min(2, weeks - 1)].lines.append("- Open: the vendor contract is still unsigned.")
    blocks[-1].lines.append("- Open: the CI pipeline is failing on main.")
    return render(blocks)


@pytest.mark.parametrize("target", [0, 1, 10, 25, 40, 80, 120, 200, 300, 1000])
def test_compaction_never_exceeds_the_target(target):
    assert count_tokens(MODEL.compact_summary(_history(), [], target)) <= target


def test_compaction_keeps_open_items_and_squeezes_older_periods_first():
    text = _history()
    result = MODEL.compact_summary(text, [], count_tokens(text) * 6 // 10)
    assert "- Open: the vendor contract is still unsigned." in result
    assert "- Open: the CI pipeline is failing on main." in result
    sizes = [len(block.lines) for block in parse(result)]
    assert len(sizes) == 8 and sizes[0] <= 2  # the oldest week keeps its best line or two
    assert sizes[-1] >= 4 and all(size <= sizes[-1] for size in sizes)
    assert result.index("Week 0") < result.index("Week 7")


def test_compaction_keeps_the_newest_open_items_when_they_alone_overflow():
    text = _history()
    result = MODEL.compact_summary(text, [], 40)
    assert "CI pipeline is failing" in result and "vendor contract" not in result
    assert "Week" not in result
    squeezed = MODEL.compact_summary(text, [], 20)
    assert count_tokens(squeezed) <= 20 and "- Open" in squeezed


def test_compaction_drops_lines_that_repeat_known_facts_first():
    text = "### 2026-11-01\n- We decided to use Postgres for the database.\n- Tests are slow."
    result = MODEL.compact_summary(text, ["We decided to use Postgres for the database."], 100)
    assert result == "### 2026-11-01\n- Tests are slow."


def test_compaction_leaves_small_text_alone():
    text = _history(2)
    assert MODEL.compact_summary(text, [], 10_000) == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\x00\x00",
        "One long paragraph an LLM wrote. " * 300,
        "Это краткое содержание. " * 200,
        "### 2026-13-45\n- bad header date",
        "- Open: " + "endless open item " * 500,
    ],
)
def test_compaction_survives_odd_input(text):
    assert count_tokens(MODEL.compact_summary(text, ["x"], 50)) <= 50


# --- roll_up ---------------------------------------------------------------------------


def test_roll_up_covers_the_period_within_budget():
    summaries = [
        dated("- Decided to use Postgres.\n- Chatted about lunch.", date(2026, 11, 2)),
        dated(
            "### 2026-11-04\n- Open: CI is failing.\n- Raj will own the migration.",
            date(2026, 11, 4),
        ),
        dated("- Decided to use Postgres.", date(2026, 11, 6)),
    ]
    result = MODEL.roll_up(summaries, 60)
    assert result.startswith("### 2026-11-02 – 2026-11-06\n")
    assert count_tokens(result) <= 60
    assert result.count("Postgres") == 1 and "- Open: CI is failing." in result
    assert count_tokens(MODEL.roll_up(summaries, 12)) <= 12


def test_roll_up_of_nothing_is_empty():
    assert MODEL.roll_up([], 100) == ""


# --- route -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "stream"),
    [
        ("How is Alpha doing?", "project:alpha"),
        ("alpha, beta, BETA", "project:beta"),
        ("The acme web app is down", "client:acme-web"),
        ("alphabet soup", "global"),
        ("nothing to see", "global"),
    ],
)
def test_route(text, stream):
    decision = MODEL.route(text, ["project:alpha", "project:beta", "client:acme-web", "global"])
    assert decision.stream == stream
    assert (decision.confidence < 0.5) == (stream == "global")


# --- reconcile -------------------------------------------------------------------------


def new_fact(value: str, confidence: float = 0.95, text: str = "") -> ExtractedFact:
    return ExtractedFact(
        text=text or f"{value.title()} is the Lead Architect.",
        category=FactCategory.ROLE,
        subject="lead architect",
        slot="holder",
        value=value,
        confidence=confidence,
    )


def known(id: int, value: str, confidence: float = 0.95, slot: str = "holder") -> KnownFact:
    return KnownFact(
        id=id,
        text=f"{value.title()} is the Lead Architect.",
        subject="lead architect",
        slot=slot,
        value=value,
        confidence=confidence,
    )


@pytest.mark.parametrize(
    ("fact", "similar", "action", "target"),
    [
        (new_fact("raj"), [], ReconcileAction.ADD, None),
        (new_fact("Raj"), [known(1, "raj")], ReconcileAction.NONE, 1),
        (new_fact("raj", 1.0), [known(1, "sarah")], ReconcileAction.SUPERSEDE, 1),
        (new_fact("raj", 0.95), [known(1, "sarah", 0.95)], ReconcileAction.SUPERSEDE, 1),
        (new_fact("raj", 0.55), [known(1, "sarah", 0.95)], ReconcileAction.NONE, 1),
        (
            new_fact("raj", text="Raj is the Lead Architect on Alpha since May."),
            [known(3, "raj", slot="other")],
            ReconcileAction.UPDATE,
            3,
        ),
        (new_fact("raj"), [known(4, "raj", slot="other")], ReconcileAction.NONE, 4),
        (
            new_fact("raj", text="Completely different words here."),
            [known(5, "sarah", slot="other")],
            ReconcileAction.ADD,
            None,
        ),
    ],
)
def test_reconcile(fact, similar, action, target):
    decision = MODEL.reconcile(fact, similar)
    assert (decision.action, decision.target_id) == (action, target)


def test_a_chat_between_two_people_says_who_said_what() -> None:
    def said(user: str, assistant: str, hours: int) -> TurnInput:
        return TurnInput(
            stream="chat:friends",
            user=user,
            assistant=assistant,
            speaker="Imogen",
            assistant_speaker="Bartek",
            at=AT + timedelta(hours=hours),
        )

    digest = MODEL.summarize_session(
        [
            said("I signed the lease on a flat in Kraków yesterday.", "Wow, Imogen!", 0),
            said("Bartek, thanks!", "My sister is teaching me to bake sourdough bread.", 1),
        ],
        200,
    )
    lines = digest.text.splitlines()
    assert any(line.startswith("- Imogen: I signed the lease") for line in lines)
    assert any(line.startswith("- Bartek: My sister is teaching me") for line in lines)
    # Saying someone's name is addressing them, not news: neither greeting is a line.
    assert not any("Wow" in line or "thanks" in line for line in lines)


def test_requests_to_the_assistant_give_way_to_the_users_news() -> None:
    """In a chat with an assistant most turns ask for something, often without a question
    mark: with room for a few lines, the summary keeps what the user told of their life."""
    said = [
        "how much water should I drink a day",
        "the landlord is selling the flat so we have to be out by end of April",
        "can you give me a quick recipe idea for dinner tonight, eggs and spinach",
        "recommend a podcast about sleep",
        "we're thinking a weekend in Seville for the hen do, maybe 8 people",
        "what's a good stretch for lower back pain",
        "write a haiku about mondays",
    ]
    turns = [turn(user, "Sure, here you go.", hours) for hours, user in enumerate(said)]
    digest = MODEL.summarize_session(turns, target_tokens=60)
    assert "landlord" in digest.text and "Seville" in digest.text, digest.text
    for request in ("water", "recipe", "podcast", "stretch", "haiku"):
        assert request not in digest.text, digest.text
