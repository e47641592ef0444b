"""A denial of a fact is a newer statement, not a better wording of the fact: the fact it
denies is retracted and kept, and the denial stands on the turn that said it (issue 36's
"the chain is kept"). Offline model, real SQLite, through the public API."""

from threefold.domain import FactStatus


def test_a_denial_retracts_the_fact_and_stands_on_its_own_turn(open_memory, monkeypatch):
    # MiniLM finds the fact a denial's words share (the reconcile candidate), as it does
    # for a user of the default install.
    monkeypatch.setenv("THREEFOLD_EMBED__KIND", "minilm")
    mem = open_memory()
    first = mem.add_turn("chat:1", "I'm allergic to nuts.", "Noted.")
    second = mem.add_turn(
        "chat:1", "I'm not allergic to nuts after all, the test was negative.", "Good news."
    )
    mem.process_pending()

    facts = mem.facts("chat:1", include_inactive=True)
    allergic = [f for f in facts if f.text == "The user is allergic to nuts."]
    assert [f.status for f in allergic] == [FactStatus.RETRACTED]
    assert allergic[0].source.id == str(first.id)
    current = [f for f in facts if f.active]
    assert [f.source.id for f in current] == [str(second.id)]
    assert "not" in current[0].text
