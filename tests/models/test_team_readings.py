"""What the rules read as a team's (a decision, a commitment) is not also the writer's own."""

import pytest

from tests.conftest import MemoryFactory
from threefold.domain import FactCategory
from threefold.extras import has_extra
from threefold.models.base import ExtractedFact
from threefold.models.heuristic import build
from threefold.models.heuristic.blend import blend
from threefold.settings import ModelSettings


def _fact(text: str, category: FactCategory, slot: str, value: str) -> ExtractedFact:
    return ExtractedFact(
        text=text, category=category, subject="user", slot=slot, value=value, confidence=0.9
    )


DECISION = _fact(
    "We decided to use Postgres for the billing service.",
    FactCategory.DECISION,
    "decision:database",
    "Postgres",
)


def test_the_readers_reading_of_a_decisions_words_gives_way() -> None:
    uses = _fact("The user uses Postgres.", FactCategory.POSSESSION, "uses:postgres", "Postgres")
    home = _fact("The user lives in Leeds.", FactCategory.LOCATION, "home", "Leeds")
    assert blend([DECISION], [uses, home]) == [DECISION, home]


def test_a_value_counts_only_as_whole_words_of_the_decision() -> None:
    post = _fact("The user uses Post.", FactCategory.POSSESSION, "uses:post", "Post")
    assert blend([DECISION], [post]) == [DECISION, post]


@pytest.mark.skipif(not has_extra("local"), reason="needs the local extra")
def test_a_project_decision_stores_no_personal_fact(open_memory: MemoryFactory) -> None:
    mem = open_memory(build(ModelSettings(options={"reader": "tuned"})))
    mem.add_turn("project:billing", "We decided to use Postgres for the billing service.", "OK.")
    mem.process_pending()
    kinds = [f.category for f in mem.facts("project:billing")]
    assert kinds == [FactCategory.DECISION]


def test_a_role_the_rules_read_is_not_read_again_as_a_job() -> None:
    role = _fact("Raj is the Lead Architect.", FactCategory.ROLE, "holder", "Lead Architect")
    job = _fact("Raj works as a Lead Architect.", FactCategory.WORK, "job title", "Lead Architect")
    assert blend([role], [job]) == [role]
