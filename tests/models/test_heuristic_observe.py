"""Observations in team chat messages: table-driven positives per category, calibrated
confidences around each category's threshold, questions, hedges and negations, relative
dates, and robustness on huge and hostile input."""

import time
from datetime import UTC, datetime

import pytest

from threefold.dates import find_date
from threefold.domain import FactCategory
from threefold.models.base import ExtractedFact
from threefold.models.heuristic.observe import observe

C = FactCategory
AT = datetime(2024, 3, 12, 10, 0, tzinfo=UTC)  # a Tuesday
THRESHOLD = {
    C.COMMITMENT: 0.85,
    C.BLOCKER: 0.7,
    C.HANDOFF: 0.75,
    C.DEADLINE_MENTION: 0.8,
    C.RISK_SIGNAL: 0.7,
    C.MOOD_SIGNAL: 0.7,
    C.STATUS_UPDATE: 0.5,
    C.REFERENCE: 0.7,
}


def of(text: str, category: FactCategory, at: datetime = AT) -> ExtractedFact | None:
    found = [f for f in observe(text, "Priya", at) if f.category is category]
    assert len(found) <= 1, found
    return found[0] if found else None


def confidence(text: str, category: FactCategory) -> float:
    found = of(text, category)
    return found.confidence if found else 0.0


POSITIVES = [
    # commitments: keyed by the promised work, so a repeated promise lands on one slot
    (
        "I will ship the API docs by Friday",
        C.COMMITMENT,
        "priya",
        "commitment:ship api doc",
        "ship the api docs by friday (2024-03-15)",
    ),
    (
        "I'm going to write the postmortem tomorrow",
        C.COMMITMENT,
        "priya",
        "commitment:write postmortem",
        "write the postmortem tomorrow (2024-03-13)",
    ),
    (
        "I can take the billing ticket",
        C.COMMITMENT,
        "priya",
        "commitment:take billing ticket",
        "take the billing ticket",
    ),
    (
        "Sure, will have the migration script ready by EOD",
        C.COMMITMENT,
        "priya",
        "commitment:migration script ready",
        "have the migration script ready by eod (2024-03-12)",
    ),
    (
        "On it, I'll fix the flaky login test",
        C.COMMITMENT,
        "priya",
        "commitment:fix flaky login",
        "fix the flaky login test",
    ),
    (
        "I promise to send the invoice by March 20",
        C.COMMITMENT,
        "priya",
        "commitment:send invoice",
        "send the invoice by march 20 (2024-03-20)",
    ),
    # blockers
    (
        "I'm blocked on the security review",
        C.BLOCKER,
        "priya",
        "blocker:security review",
        "security review",
    ),
    ("The release is blocked by ALPHA-12", C.BLOCKER, "release", "blocker:alpha-12", "alpha-12"),
    (
        "Still waiting on legal for the contract sign-off",
        C.BLOCKER,
        "priya",
        "blocker:legal contract sign-off",
        "legal for the contract sign-off",
    ),
    ("Can't merge until CI is green", C.BLOCKER, "priya", "blocker:ci green", "ci is green"),
    (
        "Blocker: no staging credentials",
        C.BLOCKER,
        "priya",
        "blocker:staging credential",
        "no staging credentials",
    ),
    (
        "Stuck on the OAuth callback bug",
        C.BLOCKER,
        "priya",
        "blocker:oauth callback bug",
        "oauth callback bug",
    ),
    (
        "Legal review is blocking the launch",
        C.BLOCKER,
        "launch",
        "blocker:legal review",
        "legal review",
    ),
    (
        "Blockers: waiting on design for the new onboarding screens",
        C.BLOCKER,
        "priya",
        "blocker:design new onboarding",
        "design for the new onboarding screens",
    ),
    (
        "We can't launch without legal sign-off",
        C.BLOCKER,
        "priya",
        "blocker:legal sign-off",
        "legal sign-off",
    ),
    # handoffs: the work item owns an "owner" slot, so the next handoff supersedes
    (
        "Sam will take over the billing migration from Raj",
        C.HANDOFF,
        "billing migration",
        "owner",
        "sam",
    ),
    ("Handing off the onboarding flow to Maria.", C.HANDOFF, "onboarding flow", "owner", "maria"),
    ("Passing the release notes to @tom", C.HANDOFF, "release notes", "owner", "tom"),
    ("Ana now owns the payments service", C.HANDOFF, "payments service", "owner", "ana"),
    ("I'm taking over QA from Tom", C.HANDOFF, "qa", "owner", "priya"),
    (
        "Maria Lopez is taking over the on-call rotation",
        C.HANDOFF,
        "on-call rotation",
        "owner",
        "maria lopez",
    ),
    # deadline mentions, resolved against the message's own time
    ("The API docs are due Friday", C.DEADLINE_MENTION, "api docs", "due:api doc", "2024-03-15"),
    ("Code freeze is March 20", C.DEADLINE_MENTION, "code freeze", "due:code freeze", "2024-03-20"),
    (
        "Deadline for the Q2 report is next Monday",
        C.DEADLINE_MENTION,
        "q2 report",
        "due:q2 report",
        "2024-03-18",
    ),
    (
        "Release freeze starts Thursday",
        C.DEADLINE_MENTION,
        "release freeze",
        "due:release freeze",
        "2024-03-14",
    ),
    (
        "Heads up: the API deadline moved to 2024-04-02",
        C.DEADLINE_MENTION,
        "api",
        "due:api",
        "2024-04-02",
    ),
    (
        "The beta launch is on March 28",
        C.DEADLINE_MENTION,
        "beta launch",
        "due:beta launch",
        "2024-03-28",
    ),
    (
        "The report is due on the 3rd of May",
        C.DEADLINE_MENTION,
        "report",
        "due:report",
        "2024-05-03",
    ),
    # risk signals
    ("The launch is at risk", C.RISK_SIGNAL, "launch", "risk:launch", "launch is at risk"),
    (
        "The Q3 migration might slip",
        C.RISK_SIGNAL,
        "q3 migration",
        "risk:q3 migration",
        "q3 migration might slip",
    ),
    (
        "I'm worried about the vendor contract",
        C.RISK_SIGNAL,
        "vendor contract",
        "risk:vendor contract",
        "i'm worried about the vendor contract",
    ),
    (
        "We're behind schedule",
        C.RISK_SIGNAL,
        "priya",
        "risk:behind schedule",
        "we're behind schedule",
    ),
    ("The timeline is tight", C.RISK_SIGNAL, "timeline", "risk:timeline", "timeline is tight"),
    (
        "we're at risk of missing the Q2 deadline",
        C.RISK_SIGNAL,
        "q2 deadline",
        "risk:q2 deadline",
        "we're at risk of missing the q2 deadline",
    ),
    # mood signals: about the author, or about the person praised
    ("I'm so frustrated with the flaky CI", C.MOOD_SIGNAL, "priya", "mood", "frustrated"),
    ("honestly burned out this week", C.MOOD_SIGNAL, "priya", "mood", "burned out"),
    ("fed up with these pages", C.MOOD_SIGNAL, "priya", "mood", "fed up"),
    ("Great job Sam!", C.MOOD_SIGNAL, "sam", "mood", "positive"),
    ("Sam did a great job on the migration", C.MOOD_SIGNAL, "sam", "mood", "positive"),
    ("Kudos to @maria for the release", C.MOOD_SIGNAL, "maria", "mood", "positive"),
    ("thanks so much Raj, that saved my week", C.MOOD_SIGNAL, "raj", "mood", "positive"),
    ("Thanks so much team, amazing work on the launch!", C.MOOD_SIGNAL, "team", "mood", "positive"),
    # status updates: an issue key owns a "status" slot, so a later status supersedes
    ("ALPHA-142 is merged", C.STATUS_UPDATE, "alpha-142", "status", "merged"),
    ("ALPHA-142: PR is up", C.STATUS_UPDATE, "alpha-142", "status", "in review"),
    ("Deployed ALPHA-7 to production", C.STATUS_UPDATE, "alpha-7", "status", "deployed"),
    ("ALPHA-9 is not merged yet", C.STATUS_UPDATE, "alpha-9", "status", "not merged"),
    ("The login fix is deployed to prod", C.STATUS_UPDATE, "priya", "status:login fix", "deployed"),
    (
        "Fixed the flaky checkout test",
        C.STATUS_UPDATE,
        "priya",
        "status:flaky checkout test",
        "fixed",
    ),
    (
        "Yesterday: fixed the flaky test. Today: more tests",
        C.STATUS_UPDATE,
        "priya",
        "status:flaky test",
        "fixed",
    ),
    (
        "Rolled back the payments deploy",
        C.STATUS_UPDATE,
        "priya",
        "status:payment deploy",
        "rolled back",
    ),
    (
        "Started on the export feature",
        C.STATUS_UPDATE,
        "priya",
        "status:export feature",
        "in progress",
    ),
    ("Fixed the UTF-8 bug in the importer", C.STATUS_UPDATE, "priya", "status:utf-8 bug", "fixed"),
]


@pytest.mark.parametrize(("text", "category", "subject", "slot", "value"), POSITIVES)
def test_positives(text, category, subject, slot, value):
    found = of(text, category)
    assert found is not None, observe(text, "Priya", AT)
    assert (found.subject, found.slot, found.value) == (subject, slot, value)
    assert found.confidence >= THRESHOLD[category], found


# Questions, hedges, negations, conditionals and vague forms: nothing, or below threshold.
WEAK = [
    ("I'll try to look at it", C.COMMITMENT),
    ("I'll take a look", C.COMMITMENT),
    ("Will you finish by Friday?", C.COMMITMENT),
    ("will you finish the report by Friday", C.COMMITMENT),
    ("Maybe I'll refactor the auth module", C.COMMITMENT),
    ("If I have time I'll review the PR", C.COMMITMENT),
    ("I'll probably ship it Friday", C.COMMITMENT),
    ("I think I'll grab a coffee", C.COMMITMENT),
    ("I'll be in the office tomorrow", C.COMMITMENT),
    ("I'll rock the dance floor at the party", C.COMMITMENT),
    ("I could look at it tomorrow", C.COMMITMENT),
    ("On it!", C.COMMITMENT),
    ("I won't be able to finish the report", C.COMMITMENT),
    ("I'll never use that library again", C.COMMITMENT),
    ("Are we blocked on the API keys?", C.BLOCKER),
    ("are we blocked", C.BLOCKER),
    ("We're not blocked anymore", C.BLOCKER),
    ("Not blocked anymore, thanks!", C.BLOCKER),
    ("I'm no longer blocked on the API keys", C.BLOCKER),
    ("We were blocked on legal but it's resolved", C.BLOCKER),
    ("can't wait for the offsite!", C.BLOCKER),
    ("I might be blocked on the DB migration", C.BLOCKER),
    ("Waiting for the build to finish", C.BLOCKER),
    ("Is anyone waiting on me?", C.BLOCKER),
    ("Blockers: none", C.BLOCKER),
    ("Yesterday: fixed the login bug. Blockers: n/a", C.BLOCKER),
    ("Can Sam take over billing?", C.HANDOFF),
    ("Sam might take over billing", C.HANDOFF),
    ("Sam is not taking over billing", C.HANDOFF),
    ("Who owns the payments service?", C.HANDOFF),
    ("Will you finish by Friday?", C.DEADLINE_MENTION),
    ("I'm out until Monday", C.DEADLINE_MENTION),
    ("We shipped on Monday", C.DEADLINE_MENTION),
    ("Maybe we launch on Friday", C.DEADLINE_MENTION),
    ("Is the launch at risk?", C.RISK_SIGNAL),
    ("no worries!", C.RISK_SIGNAL),
    ("no risk there", C.RISK_SIGNAL),
    ("I'm not worried about the release", C.RISK_SIGNAL),
    ("the risk review is at 3pm", C.RISK_SIGNAL),
    ("sit tight, the build is running", C.RISK_SIGNAL),
    ("I'm not frustrated at all", C.MOOD_SIGNAL),
    ("are you burned out?", C.MOOD_SIGNAL),
    ("the connection pool is exhausted", C.MOOD_SIGNAL),
    ("thanks!", C.MOOD_SIGNAL),
    ("well done!", C.MOOD_SIGNAL),
    ("Wow great job", C.MOOD_SIGNAL),
    ("Is ALPHA-142 merged?", C.STATUS_UPDATE),
    ("The fix will be deployed tomorrow", C.STATUS_UPDATE),
    ("Done!", C.STATUS_UPDATE),
    ("done for the day, see you tomorrow", C.STATUS_UPDATE),
    ("The office is closed on Monday", C.STATUS_UPDATE),
]


@pytest.mark.parametrize(("text", "category"), WEAK)
def test_weak_forms_stay_below_threshold(text, category):
    assert confidence(text, category) < THRESHOLD[category]


@pytest.mark.parametrize(
    ("strong", "weak", "category"),
    [
        ("I will ship the API docs by Friday", "I'll try to look at it", C.COMMITMENT),
        ("I'm blocked on the API keys", "Are we blocked on the API keys?", C.BLOCKER),
        ("The launch is at risk", "Is the launch at risk?", C.RISK_SIGNAL),
        ("Sam will take over billing", "Sam might take over billing", C.HANDOFF),
    ],
)
def test_calibration_orders_plain_over_hedged(strong, weak, category):
    assert confidence(strong, category) >= 0.85
    assert confidence(weak, category) < THRESHOLD[category]


def test_weak_commitment_is_about_point_six():
    assert confidence("I'll try to look at it", C.COMMITMENT) == pytest.approx(0.6, abs=0.05)
    assert confidence("I will ship the API docs by Friday", C.COMMITMENT) == pytest.approx(
        0.9, abs=0.05
    )


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   ",
        "\n\t \n",
        "lol",
        "good morning team!",
        "anyone up for lunch?",
        "standup in 5",
        "+1",
        "ok sounds good",
        "brb",
        ":tada: :tada:",
        "I think the issue is with the cache invalidation logic in the worker",
        "the new dashboard looks nice, the charts load much faster now",
    ],
)
def test_small_talk_yields_nothing(text):
    assert observe(text, "Priya", AT) == []


def test_commitment_text_names_the_author_and_resolves_the_date():
    found = of("I will ship the API docs by Friday", C.COMMITMENT)
    assert found is not None
    assert found.text == "Priya will ship the API docs by Friday (2024-03-15)."


def test_repeated_promise_keeps_its_slot():
    first = of("I'll ship the API docs by Friday", C.COMMITMENT)
    again = of("I will ship the API docs tomorrow", C.COMMITMENT)
    assert first is not None and again is not None
    assert (first.subject, first.slot) == (again.subject, again.slot)
    assert first.value != again.value


@pytest.mark.parametrize(
    ("at", "text", "expected"),
    [
        (datetime(2024, 3, 14, 9, tzinfo=UTC), "The report is due Friday", "2024-03-15"),
        (datetime(2024, 3, 16, 9, tzinfo=UTC), "The report is due Friday", "2024-03-22"),
        (datetime(2024, 3, 15, 9, tzinfo=UTC), "The report is due Friday", "2024-03-15"),
        (datetime(2024, 12, 31, 9, tzinfo=UTC), "The report is due tomorrow", "2025-01-01"),
        (datetime(2024, 3, 12, 9, tzinfo=UTC), "The report is due next Monday", "2024-03-18"),
        (datetime(2024, 3, 12, 9, tzinfo=UTC), "The report is due in 3 days", "2024-03-15"),
        (datetime(2024, 5, 2, 9, tzinfo=UTC), "The report is due March 20", "2025-03-20"),
        (datetime(2024, 3, 12, 9), "The report is due tomorrow", "2024-03-13"),  # naive = UTC
    ],
)
def test_relative_dates_resolve_against_the_message_time(at, text, expected):
    found = of(text, C.DEADLINE_MENTION, at=at)
    assert found is not None
    assert (found.subject, found.value) == ("report", expected)
    assert expected in found.text


@pytest.mark.parametrize(
    "phrase",
    [
        "Friday",
        "next Monday",
        "tomorrow",
        "March 20",
        "20 March 2025",
        "the 3rd of May",
        "Feb 29",
        "Dec 31st",
        "January 1",
        "2024-04-02",
        "end of the month",
        "in 2 weeks",
        "Sept 9th, 2023",
        "June 31",
    ],
)
@pytest.mark.parametrize("day", ["2024-03-12", "2024-12-31", "2025-02-28", "2024-02-29"])
def test_dates_agree_with_find_date(phrase, day):
    at = datetime.fromisoformat(day).replace(hour=9, tzinfo=UTC)
    expected = find_date(phrase, at)
    found = of(f"The report is due {phrase}", C.DEADLINE_MENTION, at=at)
    if expected is None:
        assert found is None
    else:
        assert found is not None and found.value == expected.day.isoformat()


def test_commitment_date_follows_the_message_time():
    found = of("I'll send the invoice tomorrow", C.COMMITMENT, at=datetime(2024, 2, 28, tzinfo=UTC))
    assert found is not None
    assert found.value == "send the invoice tomorrow (2024-02-29)"


def test_later_status_of_an_issue_supersedes():
    first = of("ALPHA-142 is in progress", C.STATUS_UPDATE)
    later = of("ALPHA-142 is merged", C.STATUS_UPDATE)
    assert first is not None and later is not None
    assert (first.subject, first.slot) == (later.subject, later.slot) == ("alpha-142", "status")
    assert (first.value, later.value) == ("in progress", "merged")
    assert later.confidence > first.confidence


def test_handoff_names_new_and_previous_owner():
    found = of("Sam will take over the billing migration from Raj", C.HANDOFF)
    assert found is not None and found.value == "sam"
    assert "Sam" in found.text and "Raj" in found.text
    giver = of("I'm handing off the onboarding flow to @maria", C.HANDOFF)
    assert giver is not None and giver.value == "maria"
    assert "from Priya" in giver.text


def test_references_one_per_url():
    text = (
        "Here's the design doc (https://docs.google.com/document/d/1AbC/edit) and the PR "
        "https://github.com/acme/api/pull/42. Again: https://github.com/acme/api/pull/42"
    )
    refs = [f for f in observe(text, "Priya", AT) if f.category is C.REFERENCE]
    assert [(f.subject, f.slot, f.value, f.confidence) for f in refs] == [
        (
            "docs.google.com",
            "ref:https://docs.google.com/document/d/1abc/edit",
            "https://docs.google.com/document/d/1AbC/edit",
            0.8,
        ),
        (
            "github.com",
            "ref:https://github.com/acme/api/pull/42",
            "https://github.com/acme/api/pull/42",
            0.8,
        ),
    ]
    assert refs[0].text == (
        "Link shared by Priya: https://docs.google.com/document/d/1AbC/edit (design doc)"
    )
    assert refs[1].text == "Link shared by Priya: https://github.com/acme/api/pull/42"


def test_links_without_a_host_are_skipped():
    assert observe("see http:// and https://[::1 and ftp://files.example.com", "Priya", AT) == []


def test_one_message_can_carry_several_observations():
    text = (
        "ALPHA-142 is merged. I'll ship the API docs by Friday, but I'm blocked on the "
        "security review. Great job Sam! Design: https://example.com/design"
    )
    categories = [f.category for f in observe(text, "Priya", AT)]
    assert sorted(categories) == sorted(
        [C.STATUS_UPDATE, C.COMMITMENT, C.BLOCKER, C.DEADLINE_MENTION, C.MOOD_SIGNAL, C.REFERENCE]
    )


def test_keys_are_lowercase_and_confidences_bounded():
    text = "ALPHA-142 is MERGED. I'll Ship The API Docs by Friday. Kudos @Maria!"
    found = observe(text, "Priya Patel", AT)
    assert found
    for fact in found:
        assert fact.subject == fact.subject.lower() and fact.slot == fact.slot.lower()
        assert 0.0 <= fact.confidence <= 1.0
    commitment = next(f for f in found if f.category is C.COMMITMENT)
    assert commitment.subject == "priya patel"
    assert commitment.text.startswith("Priya Patel will ")


def test_lowercase_author_and_curly_apostrophes():
    found = of("I\u2019ll ship the API docs by Friday", C.COMMITMENT)
    assert found is not None and found.slot == "commitment:ship api doc"
    lower = observe("I'll ship the API docs by Friday", "priya", AT)[0]
    assert (lower.subject, lower.text[:6]) == ("priya", "Priya ")
    assert observe("I'll ship the API docs by Friday", "  ", AT)[0].subject == "someone"


def test_deterministic():
    text = "I'll ship the API docs by Friday. The launch is at risk."
    assert observe(text, "Priya", AT) == observe(text, "Priya", AT)


@pytest.mark.parametrize(
    "text",
    [
        "I'll ship the API docs by Friday. " * 300_000,  # ~10 MB
        "x" * 10_000_000,
        "a. " * 3_500_000,
        "blocked on " * 1_000_000,
        "hand over the " * 800_000,
        "https://example.com/" + "a" * 10_000_000,
        "http://a.b " * 1_000_000,
        ("(" * 50 + "I'll " + "[" * 50 + " by Friday " + "*" * 50 + "\n") * 80_000,
    ],
)
def test_huge_messages_are_capped_and_fast(text):
    start = time.perf_counter()
    found = observe(text, "Priya", AT)
    assert time.perf_counter() - start < 1.0
    assert len([f for f in found if f.category is not C.REFERENCE]) <= 7


@pytest.mark.parametrize(
    "text",
    [
        "((((((((((",
        "))))]]]]",
        "\\",
        "[a-z]+*?{2,}",
        "(?P<x>.*)",
        "$^|.*+?",
        "\x00\x01\x02",
        "I'll (((( ship [[[ the ]]] docs *** by Friday ???",
        "blocked on ((((((((((((((((",
        "take over \\ from \\",
        "ALPHA-1 is merged ))))",
        "http://[::1]:99999/x",
        "https://exa mple.com",
        "I’ll \u202e\u200b ship \ud83d\ude80 docs by Friday",
        "due " + "?" * 5000,
        "@" * 5000 + " will take over " + "@" * 5000,
        "I'll " * 5000,
        "Great job " * 3000 + "Sam",
        ". " * 10_000,
    ],
)
def test_regex_hostile_text_does_not_break(text):
    for fact in observe(text, "Priya", AT):
        assert isinstance(fact, ExtractedFact)
        assert fact.subject and fact.slot and fact.value
