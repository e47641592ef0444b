"""A fact hit the reader doubts says which newer message may have changed it (issue 36).

Through the public API, with the offline reader and real SQLite (or PostgreSQL): after "I
live in Leeds", a move the reader half-believes ("so we're kinda in Perth now I guess")
stores nothing but doubts the Leeds fact; a search for it names that turn in
`doubted_by`, as the context writes "(possibly outdated: see turn:N)", until the fact is
stated again."""

from datetime import UTC, datetime, timedelta

from threefold import SearchHit

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)
CHAT = "chat:home"
QUESTION = "where does the user live"
LEEDS = "I live in Leeds."
HALF_BELIEVED_MOVE = "so we're kinda in Perth now I guess"
RESTATED = "I live in Leeds still, the move fell through."


def talk(mem, said: list[str], start: int = 0, **options) -> None:
    for n, user in enumerate(said, start):
        mem.add_turn(CHAT, user, "Noted.", at=T0 + timedelta(hours=3 * n), **options)
    mem.process_pending()


def leeds_hit(mem, **options) -> SearchHit:
    found = [h for h in mem.search(QUESTION, CHAT, kinds=["fact"], **options) if "Leeds" in h.text]
    assert found, mem.facts(CHAT, **options)
    return found[0]


def test_a_doubted_fact_names_the_message_that_may_have_changed_it(open_memory):
    mem = open_memory()
    talk(mem, [LEEDS, "whats the capital of mongolia again", HALF_BELIEVED_MOVE])
    moved = mem.turns(CHAT)[-1]
    hit = leeds_hit(mem)
    assert hit.doubted_by is not None and hit.doubted_by.label() == f"turn:{moved.id}"
    context = mem.context(CHAT, QUESTION, budget=2000).text
    assert f"(possibly outdated: see turn:{moved.id})" in context  # the same judgement
    turns = [h for h in mem.search(QUESTION, CHAT) if h.kind != "fact"]
    assert all(h.doubted_by is None for h in turns)  # a doubt is a fact's


def test_a_fact_stated_again_after_the_doubt_is_not_marked(open_memory):
    mem = open_memory()
    talk(mem, [LEEDS, HALF_BELIEVED_MOVE])
    assert leeds_hit(mem).doubted_by is not None
    talk(mem, [RESTATED], start=2)
    assert leeds_hit(mem).doubted_by is None


def test_another_tenants_doubt_never_marks_ours(open_memory):
    mem = open_memory()
    talk(mem, [LEEDS, HALF_BELIEVED_MOVE], tenant="other")
    talk(mem, [LEEDS, "whats the capital of mongolia again"])
    assert leeds_hit(mem).doubted_by is None
    assert leeds_hit(mem, tenant="other").doubted_by is not None
