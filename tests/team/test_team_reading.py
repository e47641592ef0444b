"""Team reading in general form (issue 39, deliverable 4): dated offers are promises, a
harm a condition could bring is a risk, a negated ability until something is a blocker and
whose it is, "someone has to ..." asks for an owner, a claim takes what its thread asked,
each half of a compound decision is a decision, and a blocker clears when what it awaited
is done. Each through the public API on a real SQLite file."""

from datetime import UTC, datetime, timedelta
from pathlib import Path

from tests.team.qa_room import qa_memory, say
from threefold import Memory
from threefold.domain import FactCategory

DAY = datetime(2026, 4, 7, 9, tzinfo=UTC)  # a Tuesday
LATER = DAY + timedelta(days=9)


def _kinds(mem: Memory) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for action in mem.actions():
        out.setdefault(action.kind, []).append(action.title)
    return out


def _facts(mem: Memory, category: FactCategory) -> list[str]:
    return [f.text for f in mem.facts("project:qg") if f.category is category]


def test_a_dated_offer_is_a_promise_and_a_report_of_the_past_is_not(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(mem, "Ola", "I can get the vendor contract signed by Friday", DAY)
        say(
            mem,
            "Ines",
            "I can confirm the lab booking went out on Monday",
            DAY + timedelta(hours=1),
        )
        mem.process_pending()
        mem.rebuild_team(now=LATER)
        overdue = _kinds(mem).get("overdue_commitment", [])
        promised = _facts(mem, FactCategory.COMMITMENT)
    assert len(overdue) == 1 and "vendor contract" in overdue[0], overdue
    assert not any("lab booking" in text for text in promised), promised


def test_work_one_will_have_done_is_done_when_its_participle_is_said(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(mem, "Ola", "I'll have the audit report filed by Thursday", DAY)
        say(mem, "Ola", "audit report filed, it's with finance now", DAY + timedelta(days=1))
        mem.process_pending()
        mem.rebuild_team(now=LATER)
        assert "overdue_commitment" not in _kinds(mem)


def test_a_harm_a_condition_could_bring_is_a_risk(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(
            mem,
            "Ola",
            "fyi the lab scanners keep dropping off the wifi. if it keeps up it "
            "could sink the pilot on the 21st",
            DAY,
        )
        say(
            mem,
            "Ines",
            "if we could lose the old test rig that would be lovely",
            DAY + timedelta(minutes=1),
        )
        say(mem, "Tariq", "we might miss lunch today", DAY + timedelta(minutes=5))
        mem.process_pending()
        mem.rebuild_team(now=DAY + timedelta(days=1))
        risks = _kinds(mem).get("risk_signal", [])
    assert len(risks) == 1 and "pilot" in risks[0], risks


def test_a_negated_ability_until_something_is_a_blocker_of_its_author(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(mem, "Ola", "can't finish the audit chart until finance sends the outturn figures", DAY)
        say(mem, "Ines", "I can't come in until Monday", DAY + timedelta(minutes=1))
        say(
            mem,
            "Tariq",
            "the importer is stuck, need the schema from the data team",
            DAY + timedelta(minutes=2),
        )
        mem.process_pending()
        mem.rebuild_team(now=LATER)
        blocked = _kinds(mem).get("stale_blocker", [])
        profile = [item.text for item in mem.profile("Ola").blockers]
    assert len(blocked) == 2, blocked
    assert any("outturn" in title for title in blocked)
    assert any("schema" in title for title in blocked)
    assert any("outturn" in text for text in profile), profile


def test_a_blocker_clears_when_its_awaited_step_is_done_or_its_person_is_told(
    tmp_path: Path,
) -> None:
    with qa_memory(tmp_path) as mem:
        say(mem, "Ola", "the results map is blocked on the infra team whitelisting our domain", DAY)
        say(
            mem,
            "Ines",
            "can't start the scanner pairing until IT sends the enrolment token",
            DAY + timedelta(minutes=1),
        )
        say(mem, "Tariq", "infra whitelisted our domain this morning", DAY + timedelta(days=1))
        say(
            mem,
            "Tariq",
            "enrolment token is in the vault now @Ines, go wild",
            DAY + timedelta(days=1, minutes=1),
        )
        mem.process_pending()
        mem.rebuild_team(now=LATER)
        assert "stale_blocker" not in _kinds(mem)
        assert not mem.profile("Ines").blockers
        assert not mem.profile("Ola").blockers


def test_a_blocker_stays_when_the_message_after_it_asks_or_denies(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(mem, "Ines", "can't start the scanner pairing until IT sends the enrolment token", DAY)
        say(mem, "Tariq", "@Ines is the enrolment token in the vault yet?", DAY + timedelta(days=1))
        say(mem, "Tariq", "enrolment token still not there @Ines", DAY + timedelta(days=2))
        mem.process_pending()
        mem.rebuild_team(now=LATER)
        assert len(_kinds(mem).get("stale_blocker", [])) == 1


def test_someone_has_to_asks_for_an_owner_and_having_a_thing_does_not(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(
            mem,
            "Ola",
            "I'm away next week - someone needs to keep an eye on the nightly "
            "import while I'm gone",
            DAY,
        )
        say(
            mem,
            "Ines",
            "does anyone have the wifi password for the lab?",
            DAY + timedelta(minutes=1),
        )
        mem.process_pending()
        mem.rebuild_team(now=LATER)
        handoffs = _kinds(mem).get("unowned_handoff", [])
    assert handoffs == [
        "No owner for keep an eye on the nightly import (asked by Ola on 2026-04-07)"
    ]


def test_a_claim_in_a_thread_takes_what_the_thread_asked_for(tmp_path: Path) -> None:
    asked = DAY
    with qa_memory(tmp_path) as mem:
        say(mem, "Ines", "who wants to own the flaky test triage this sprint?", asked)
        say(mem, "Ola", "I can take it", asked + timedelta(minutes=5), thread=asked)
        mem.process_pending()
        mem.rebuild_team(now=DAY + timedelta(days=2))
        promised = [item.text for item in mem.profile("Ola").commitments]
        handoffs = _kinds(mem).get("unowned_handoff", [])
    assert any("flaky test triage" in text for text in promised), promised
    assert not any(text.endswith("will take it.") for text in promised)
    assert handoffs == []


def test_each_half_of_a_compound_decision_is_a_decision(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(
            mem,
            "Ines",
            "standup notes: we agreed QG-5 goes into sprint 7 and QG-7 gets parked till Q3",
            DAY,
        )
        say(
            mem,
            "Ola",
            "we've agreed to drop the legacy suite and put the spare hours on "
            "the load tests instead",
            DAY + timedelta(minutes=1),
        )
        say(mem, "Tariq", "We decided to go with salt and pepper.", DAY + timedelta(minutes=2))
        mem.process_pending()
        decided = _facts(mem, FactCategory.DECISION)
        digest = mem.digest("project:qg", "2026-04-07", timezone="UTC", now=LATER).text
    assert any("QG-5" in text and "QG-7" not in text for text in decided), decided
    assert any("QG-7" in text and "QG-5" not in text for text in decided), decided
    assert any("legacy suite" in text for text in decided), decided
    assert any("load tests" in text and "legacy" not in text for text in decided), decided
    assert any("salt and pepper" in text for text in decided), decided
    assert "QG-5" in digest and "parked" in digest, digest


def test_being_swamped_is_a_mood_and_a_drained_battery_is_not(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(mem, "Ola", "honestly I'm feeling swamped, three late pages and no second sub", DAY)
        say(mem, "Ines", "the lab laptop battery drained overnight", DAY + timedelta(minutes=1))
        mem.process_pending()
        moods = _facts(mem, FactCategory.MOOD_SIGNAL)
    assert moods == ["Ola sounds overwhelmed."], moods


def test_a_promise_reported_done_leaves_the_profile(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(mem, "Ola", "I'll have the audit report filed by Thursday", DAY)
        say(mem, "Ola", "I'll book the load test rig by Friday", DAY + timedelta(minutes=1))
        say(mem, "Ola", "audit report filed, it's with finance now", DAY + timedelta(days=1))
        mem.process_pending()
        mem.rebuild_team(now=DAY + timedelta(days=2))
        promised = [item.text for item in mem.profile("Ola").commitments]
    assert len(promised) == 1 and "load test rig" in promised[0], promised


def test_a_profile_tells_one_blocker_per_message_in_the_third_person(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(mem, "Ola", "I'm blocked on QG-1 until the vendor replies", DAY)
        mem.process_pending()
        mem.rebuild_team(now=DAY + timedelta(days=1))
        blockers = [item.text for item in mem.profile("Ola").blockers]
    assert len(blockers) == 1 and "QG-1" in blockers[0], blockers
    assert "I'm" not in blockers[0] and "Ola" in blockers[0], blockers


def test_what_has_to_be_done_by_a_day_is_the_thing_due(tmp_path: Path) -> None:
    with qa_memory(tmp_path) as mem:
        say(mem, "Ola", "the release checklist has to be signed off by Friday", DAY)
        mem.process_pending()
        mem.rebuild_team(now=DAY + timedelta(days=2))
        due = _kinds(mem).get("deadline_soon", [])
    assert len(due) == 1 and "checklist" in due[0].lower(), due
