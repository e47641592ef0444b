"""The Python API's argument checks: every wrong call is InvalidInput naming the argument,
whether or not its arguments are of the plain types that skip pydantic's validation."""

import pytest

from tests.scripted_model import ScriptedModel
from threefold import InvalidInput
from threefold.domain import Trust

STREAM = "chat:1"


@pytest.fixture
def mem(open_memory):
    memory = open_memory(ScriptedModel())
    memory.add_turn(STREAM, "We picked Postgres for the ledger.", "Noted.")
    memory.process_pending()
    return memory


class Text(str):
    """A str subclass: not exactly str, so it takes the validated path."""


@pytest.mark.parametrize(
    "call, named",
    [
        (lambda m: m.context(STREAM, "q", True), "budget must be a valid integer"),
        (lambda m: m.context(STREAM, "q", "500"), "budget must be a valid integer"),
        (lambda m: m.context(STREAM, 5), "query must be a valid string"),
        (lambda m: m.context(STREAM, "q", 500, trust=3), "trust"),
        (lambda m: m.context(STREAM, "q", 500, tenant=b"t"), "tenant"),
        (lambda m: m.context(STREAM, "q", 500, 7), "Unexpected positional argument"),
        (lambda m: m.context(STREAM, "q", budgett=500), "budgett Unexpected keyword"),
        (lambda m: m.context(STREAM, stream=STREAM), "stream Got multiple values"),
        (lambda m: m.context(), "stream Missing required argument"),
        (lambda m: m.context(STREAM, "q", 2**64), "out of range for a whole number"),
        (lambda m: m.search("q", limit=1.0), "limit must be a valid integer"),
        (lambda m: m.add_turn(STREAM, "hi", 7), "assistant must be a valid string"),
    ],
)
def test_a_wrong_call_is_invalid_input_naming_the_argument(mem, call, named):
    with pytest.raises(InvalidInput, match=named):
        call(mem)


def test_plain_and_validated_arguments_give_the_same_context(mem):
    plain = mem.context(STREAM, "What database?", 500, trust=Trust.FULL, tenant=None)
    assert mem.context(STREAM, "What database?", 500, trust="full").text == plain.text
    # A str subclass goes through pydantic, which reads it as the text it holds.
    validated = mem.context(Text(STREAM), Text("What database?"), 500)
    assert validated.text == plain.text
    assert "Postgres" in plain.text
