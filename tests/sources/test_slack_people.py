"""Slack authors are people of the tenant: their user id and name mean the same person,
and "I" in a message is its author."""

from pathlib import Path

from tests.conftest import MemoryFactory
from tests.sources.exports import DAY, msg, write_export
from threefold import Memory


def _imported(open_memory: MemoryFactory, tmp_path: Path, *messages: dict) -> Memory:
    mem = open_memory()
    mem.import_slack(write_export(tmp_path / "export", {"general": {DAY: list(messages)}}))
    mem.process_pending()
    return mem


def test_an_author_is_known_by_name_and_by_slack_id(
    open_memory: MemoryFactory, tmp_path: Path
) -> None:
    mem = _imported(open_memory, tmp_path, msg("1490000000.000100", "I live in Oslo.", "U1"))
    assert mem.store.entities_named("default", "u1") == ["annie"]
    assert mem.store.entities_named("default", "annie") == ["annie"]


def test_i_in_a_message_is_its_author(open_memory: MemoryFactory, tmp_path: Path) -> None:
    mem = _imported(
        open_memory,
        tmp_path,
        msg("1490000000.000100", "I live in Oslo.", "U1"),
        msg("1490000001.000100", "I'm allergic to peanuts.", "U2"),
    )
    facts = {(f.subject, f.slot): f.value for f in mem.facts("global")}
    assert facts.get(("annie", "home")) == "oslo"
    assert facts.get(("bob stone", "allergy:peanut")) == "peanuts"
    assert not any(subject == "user" for subject, _ in facts)
