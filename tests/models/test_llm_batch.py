"""Turns that wait together are read in one extraction request, through a real local
OpenAI-compatible server; an answer that cannot be used loses no turn."""

import json
import logging
import re
from datetime import UTC, datetime, timedelta

import pytest

from tests.openai_fake import FakeOpenAIServer, Reply, Status
from threefold import Memory, load_settings
from threefold.domain import Fact
from threefold.models.heuristic import HeuristicModel
from threefold.models.heuristic.personal import FACETS, TABLE
from threefold.models.llm import LLMModel
from threefold.models.prompts import extract_facts

AT = datetime(2026, 3, 4, 10, 0, tzinfo=UTC)
STREAM = "chat:b1"
TURNS = ("I live in Oslo.", "I work at Equinor.", "My dog is called Rex.")
KEYS = {  # what a model reads in each turn: (slot, value, category)
    "Oslo": ("home", "oslo", "location"),
    "Equinor": ("employer", "equinor", "work"),
    "Rex": ("dog:rex", "rex", "relationship"),
}


def _turns_in(request: dict) -> list[str]:
    """The user texts of the turns a request holds, in order."""
    told = request["messages"][-1]["content"]
    return re.findall(r"<user[^>]*>\n(.*?)\n</user>", told, re.DOTALL)


def _fact(n: int, said: str) -> dict:
    name = next(word for word in KEYS if word in said)
    slot, value, category = KEYS[name]
    return {
        "turn": n,
        "text": f"The user: {said}",
        "category": category,
        "subject": "user",
        "slot": slot,
        "value": value,
        "confidence": 0.95,
        "is_correction": False,
        "retracts": [],
    }


def careful(request: dict) -> str:
    """A model that reads every turn it is given right."""
    if request["response_format"]["json_schema"]["name"] != "extract_facts":
        return json.dumps({"facts": []})
    facts = [_fact(n, said) for n, said in enumerate(_turns_in(request), start=1)]
    return json.dumps({"facts": facts})


def bad_batches(bad: Reply | str):
    """A model that answers `bad` whenever it is given several turns at once."""

    def answer(request: dict) -> Reply | str:
        if len(_turns_in(request)) > 1:
            return bad
        return careful(request)

    return answer


def _remember(tmp_path, server: FakeOpenAIServer, batch_turns: int = 8, attempts: int = 2):
    model = LLMModel(server.client(timeout=5.0), "small", HeuristicModel(), backoff=0.01)
    model.attempts = attempts
    settings = load_settings(model={"batch_turns": batch_turns})
    tmp_path.mkdir(exist_ok=True)  # Memory.open makes no missing folder
    with Memory.open(
        tmp_path / "m.db", settings=settings, model=model, embedder=None, background_worker=False
    ) as mem:
        for n, said in enumerate(TURNS):
            mem.add_turn(STREAM, said, "Noted.", at=AT + timedelta(minutes=n))
        mem.process_pending()
        facts = mem.facts(STREAM)
        turns = {t.id: t.user for t in mem.turns(STREAM)}
    return facts, turns, model


def _by_turn(facts: list[Fact], turns: dict[int, str]) -> dict[str, str]:
    return {turns[int(f.source.id)]: f.value for f in facts if f.source.kind == "turn"}


def _extractions(server: FakeOpenAIServer) -> list[dict]:
    return [
        r for r in server.requests if r["response_format"]["json_schema"]["name"] == "extract_facts"
    ]


def test_waiting_turns_are_read_in_one_request_and_each_fact_keeps_its_turn(tmp_path):
    with FakeOpenAIServer(default=careful) as server:
        facts, turns, model = _remember(tmp_path, server)
        (request,) = _extractions(server)
    assert _turns_in(request) == list(TURNS)
    assert _by_turn(facts, turns) == dict(zip(TURNS, ("oslo", "equinor", "rex"), strict=True))
    told = request["messages"][-1]["content"]
    # the second turn answers the first, which the request shows whole: no <previous> copy
    assert "<previous" not in told and told.count("<turn n=") == 3
    assert model.stats["extract_facts"].requests == 1


def test_with_batch_turns_1_each_turn_has_its_own_request(tmp_path):
    with FakeOpenAIServer(default=careful) as server:
        facts, turns, _ = _remember(tmp_path, server, batch_turns=1)
        requests = _extractions(server)
    assert [_turns_in(r) for r in requests] == [[said] for said in TURNS]
    assert len(_by_turn(facts, turns)) == 3


def test_the_prefix_is_the_same_for_one_turn_and_for_many(tmp_path):
    with FakeOpenAIServer(default=careful) as server:
        _remember(tmp_path / "a", server)
        _remember(tmp_path / "b", server, batch_turns=1)
        systems = {r["messages"][0]["content"] for r in _extractions(server)}
        schemas = {
            json.dumps(r["response_format"]["json_schema"]["schema"]) for r in _extractions(server)
        }
    assert len(systems) == 1 and len(schemas) == 1  # one cacheable prefix per stream kind


@pytest.mark.parametrize(
    "bad",
    [
        "Sure! Here are the facts: {'facts': [",  # malformed
        Reply('{"facts": [{"turn": 1, "text": "The user lives in Os', finish_reason="length"),
        json.dumps({"facts": [dict(_fact(1, "Oslo"), turn=7)]}),  # a turn not offered
        "x" * 40_000,  # far too long
    ],
    ids=["malformed", "truncated", "turn-not-offered", "too-long"],
)
def test_an_unusable_batch_answer_is_read_again_one_turn_at_a_time(tmp_path, caplog, bad):
    caplog.set_level(logging.WARNING, logger="threefold.models.llm")
    with FakeOpenAIServer(default=bad_batches(bad)) as server:
        facts, turns, model = _remember(tmp_path, server)
        requests = [_turns_in(r) for r in _extractions(server)]
    assert requests == [list(TURNS), *([said] for said in TURNS)]  # no retry of the batch
    assert _by_turn(facts, turns) == dict(zip(TURNS, ("oslo", "equinor", "rex"), strict=True))
    stats = model.stats["extract_facts"]
    assert (stats.split, stats.fallbacks) == (1, 0)
    assert "the answer for 3 turns could not be used" in caplog.text
    assert "reading them one at a time" in caplog.text


def test_when_every_answer_is_bad_each_turn_falls_back_to_the_rules(tmp_path, caplog):
    caplog.set_level(logging.WARNING, logger="threefold.models.llm")
    with FakeOpenAIServer(default="not json at all") as server:
        facts, turns, model = _remember(tmp_path, server, attempts=1)
    stats = model.stats["extract_facts"]
    assert (stats.split, stats.fallbacks) == (1, 3)
    # the rules read what they can of each turn: nothing is lost to the bad answers
    assert _by_turn(facts, turns)["I live in Oslo."] == "oslo"
    assert caplog.text.count("fell back to the heuristic model") == 3


def test_a_rate_limited_batch_is_retried_whole_not_split(tmp_path):
    limited = Status(429, "slow down", "rate_limit_error")
    with FakeOpenAIServer([limited], default=careful) as server:
        facts, turns, model = _remember(tmp_path, server)
        requests = [_turns_in(r) for r in _extractions(server)]
    assert requests == [list(TURNS), list(TURNS)]
    assert model.stats["extract_facts"].split == 0 and len(_by_turn(facts, turns)) == 3


def test_turns_of_different_writers_are_not_read_together(tmp_path):
    """A shared key's turn must not be read beside the owner's: its words could be taken
    for the owner's, and the owner's facts could be credited to it."""
    with FakeOpenAIServer(default=careful) as server:
        model = LLMModel(server.client(timeout=5.0), "small", HeuristicModel(), backoff=0)
        with Memory.open(
            tmp_path / "m.db", model=model, embedder=None, background_worker=False
        ) as mem:
            mem.add_turn(STREAM, TURNS[0], at=AT)
            mem.add_turn(STREAM, TURNS[1], at=AT + timedelta(minutes=1), trust="inner")
            mem.add_turn(STREAM, TURNS[2], at=AT + timedelta(minutes=2), trust="inner")
            mem.process_pending()
        requests = [_turns_in(r) for r in _extractions(server)]
    assert requests == [[TURNS[0]], [TURNS[1], TURNS[2]]]


def test_the_keys_the_prompt_names_are_the_rules_keys():
    """The prompt's usual slots are slots the heuristic model writes, so that either
    model's update supersedes the other's."""
    facet_slots = {f.slot.replace("{key}", "*").replace("{kind}", "*") for f in FACETS.values()}
    shown = {example[1] for row in TABLE for example in row.examples}  # tested readings
    known_slots = facet_slots | shown
    heads = {slot.split(":")[0] for slot in known_slots if ":" in slot}
    named = re.findall(r"\(([^)]*)\)", extract_facts._SLOTS)
    for slot in (s.strip() for group in named for s in group.split(",")):
        known = slot in known_slots or (slot.endswith(":*") and slot.split(":")[0] in heads)
        assert known, f"{slot!r} is not a key the heuristic model writes"


def test_turns_read_ahead_are_read_again_after_an_erasure(tmp_path):
    """What a batch read is kept for the later turns' jobs, unless the stream was erased
    in between: the request had shown what is now erased."""
    with FakeOpenAIServer(default=careful) as server:
        model = LLMModel(server.client(timeout=5.0), "small", HeuristicModel(), backoff=0)
        with Memory.open(
            tmp_path / "m.db", model=model, embedder=None, background_worker=False
        ) as mem:
            for n, said in enumerate(TURNS):
                mem.add_turn(STREAM, said, at=AT + timedelta(minutes=n))
            asked = []  # asked before the claim, before the first job, then after it

            def one_job() -> bool:
                asked.append(1)
                return len(asked) > 2

            mem.runner.run_pending(stopping=one_job)
            (first,) = mem.facts(STREAM)  # the first job ran: its turn's fact is stored
            mem.erase(fact_id=first.id)
            mem.process_pending()
            values = sorted(f.value for f in mem.facts(STREAM))
        requests = [_turns_in(r) for r in _extractions(server)]
    assert requests == [list(TURNS), list(TURNS[1:])]
    assert values == ["equinor", "rex"]


def test_reading_a_stream_again_batches_its_turns_as_the_first_reading_did(tmp_path):
    with FakeOpenAIServer(default=careful) as server:
        model = LLMModel(server.client(timeout=5.0), "small", HeuristicModel(), backoff=0)
        with Memory.open(
            tmp_path / "m.db", model=model, embedder=None, background_worker=False
        ) as mem:
            for n, said in enumerate(TURNS):
                mem.add_turn(STREAM, said, at=AT + timedelta(minutes=n), trust="inner")
            mem.add_turn(STREAM, "I live in Oslo.", at=AT + timedelta(minutes=5))
            mem.process_pending()
            before = sorted(f.value for f in mem.facts(STREAM))
            mem.reextract(STREAM)
            after = sorted(f.value for f in mem.facts(STREAM))
        requests = [_turns_in(r) for r in _extractions(server)]
    # the owner's turn is read apart from the shared key's, in the first reading and again
    read = [list(TURNS), ["I live in Oslo."]]
    assert requests == read + read
    assert after == before == ["equinor", "oslo", "rex"]
