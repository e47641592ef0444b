"""Every reader sees the message a turn answers, read-only, with the side of that turn it
replied to; an erased one is not shown."""

import json
from datetime import UTC, datetime

from tests.openai_fake import FakeOpenAIServer
from threefold import Memory, load_settings
from threefold.models.heuristic import HeuristicModel
from threefold.models.llm import LLMModel

AT = datetime(2026, 6, 10, 12, 0, tzinfo=UTC)


def _extraction_prompts(server: FakeOpenAIServer) -> list[str]:
    return [
        r["messages"][-1]["content"]
        for r in server.requests
        if r["response_format"]["json_schema"]["name"] == "extract_facts"
    ]


def _memory(tmp_path, server: FakeOpenAIServer, batch_turns: int = 1) -> Memory:
    """A memory whose model reads each turn in its own request (unless `batch_turns`),
    so that each prompt shows what one turn is read with."""
    model = LLMModel(server.client(timeout=5.0), "fake", HeuristicModel(), backoff=0)
    settings = load_settings(model={"batch_turns": batch_turns})
    return Memory.open(
        tmp_path / "m.db", settings=settings, background_worker=False, embedder=None, model=model
    )


def _no_facts(request: dict) -> str:
    return json.dumps({"facts": []})


def test_a_terse_reply_is_shown_with_the_question_it_answers(tmp_path):
    with FakeOpenAIServer(default=_no_facts) as server, _memory(tmp_path, server) as mem:
        mem.add_turn("chat:1", "Can you help me plan a birthday?", "Sure. How old are you?", at=AT)
        mem.add_turn("chat:1", "42", at=AT.replace(minute=1))
        mem.process_pending()
        first, second = _extraction_prompts(server)
    assert "<previous" not in first  # a stream's first turn answers nothing
    assert '<previous speaker="assistant">\nSure. How old are you?\n</previous>' in second
    assert second.index("<previous") < second.index("<user>\n42\n</user>")


def test_a_reply_read_alone_is_shown_what_the_question_was_about(tmp_path):
    # "67" answers "how old is he?", which answers "a gift for my dad": one request per
    # turn, the model would not know who "he" is without the side before the question
    with FakeOpenAIServer(default=_no_facts) as server, _memory(tmp_path, server) as mem:
        mem.add_turn("chat:1", "help me pick a gift for my dad", "How old is he?", at=AT)
        mem.add_turn("chat:1", "67", at=AT.replace(minute=1))
        mem.process_pending()
        second = _extraction_prompts(server)[1]
    asked = '<previous speaker="user">\nhelp me pick a gift for my dad\n</previous>'
    answered = '<previous speaker="assistant">\nHow old is he?\n</previous>'
    assert asked in second and second.index(asked) < second.index(answered)


def test_a_long_opening_side_is_cut_to_its_end(tmp_path):
    opening = "word " * 300 + "and my sister Ana lives in Porto"
    with FakeOpenAIServer(default=_no_facts) as server, _memory(tmp_path, server) as mem:
        mem.add_turn("chat:1", opening, "Since when?", at=AT)
        mem.add_turn("chat:1", "2019", at=AT.replace(minute=1))
        mem.process_pending()
        second = _extraction_prompts(server)[1]
    shown = second.split('<previous speaker="user">\n', 1)[1].split("\n</previous>", 1)[0]
    assert shown.startswith("…") and shown.endswith("my sister Ana lives in Porto")
    assert 390 <= len(shown) <= 402  # OPENING_CHARS, and the mark that it was cut


def test_a_group_chat_reply_names_who_asked(tmp_path):
    with FakeOpenAIServer(default=_no_facts) as server, _memory(tmp_path, server) as mem:
        mem.add_turn("chat:g", "Tomás aren't you allergic to dogs?", speaker="Maria", at=AT)
        mem.add_turn(
            "chat:g",
            "yeah pretty badly, I'll take a cetirizine before",
            speaker="Tomás",
            at=AT.replace(minute=1),
        )
        mem.process_pending()
        second = _extraction_prompts(server)[1]
    assert '<previous speaker="Maria">\nTomás aren\'t you allergic to dogs?\n</previous>' in second


def test_a_turn_whose_previous_was_erased_reads_nothing_of_it(tmp_path):
    with FakeOpenAIServer(default=_no_facts) as server, _memory(tmp_path, server, 8) as mem:
        mem.add_turn("chat:g", "Dana, how old is your mum now?", speaker="Ola", at=AT)
        mem.add_turn("chat:g", "she turned 70 in May", speaker="Dana", at=AT.replace(minute=1))
        mem.erase(entity="Ola")
        mem.process_pending()
        prompts = _extraction_prompts(server)
    assert prompts and all("how old is your mum" not in p for p in prompts)
    assert all("<previous" not in p for p in prompts)


def test_a_more_private_previous_turn_is_not_shown_to_a_shared_reply(tmp_path):
    # batching is on: the two turns differ in visibility, so they are read apart
    with FakeOpenAIServer(default=_no_facts) as server, _memory(tmp_path, server, 8) as mem:
        mem.add_turn("chat:1", "My salary is 81k.", "Noted.", at=AT, visibility="private")
        mem.add_turn("chat:1", "Moving on.", at=AT.replace(minute=1), visibility="social")
        mem.process_pending()
        second = _extraction_prompts(server)[1]
    assert "<previous" not in second and "81k" not in second


def test_a_pronoun_is_hinted_only_when_the_turn_names_nobody_before_it(tmp_path):
    with FakeOpenAIServer(default=_no_facts) as server, _memory(tmp_path, server) as mem:
        for stream, reply in (
            ("chat:1", "He says rest the knee."),
            ("chat:2", "My 2-year-old was up all night. He has a cold."),
        ):
            mem.add_turn(stream, "I saw my physio.", "How is your physio?", at=AT)
            mem.add_turn(stream, reply, at=AT.replace(minute=1))
        mem.process_pending()
        prompts = _extraction_prompts(server)
    unnamed = next(p for p in prompts if "He says rest" in p)
    named_here = next(p for p in prompts if "My 2-year-old" in p)
    assert '<hint>an opening "he" or "she" may mean my physio</hint>' in unnamed
    assert "<hint>" not in named_here
