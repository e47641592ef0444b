"""The heuristic model reads a terse reply with the question it answers (the turn before),
through Memory: a question put to "you" is turned back into the statement it completes."""

from datetime import UTC, datetime, timedelta

import pytest

from threefold import Memory
from threefold.models.heuristic import HeuristicModel
from threefold.models.heuristic.answers import read_reply

AT = datetime(2026, 6, 1, 9, 0, tzinfo=UTC)


def facts_after(tmp_path, asked: str, reply: str, speaker: str | None = None) -> set[tuple]:
    with Memory.open(tmp_path / "m.db", model=HeuristicModel(), embedder=None) as mem:
        mem.add_turn("chat:1", "Can you help me with something?", asked, at=AT)
        mem.add_turn("chat:1", reply, at=AT + timedelta(minutes=1), speaker=speaker)
        mem.process_pending()
        return {(f.subject, f.slot, f.value) for f in mem.facts("chat:1")}


@pytest.mark.parametrize(
    ("asked", "reply", "fact"),
    [
        ("Sure. How old are you?", "42", ("user", "age", "42")),
        ("What's your name, by the way?", "Priya", ("user", "name", "priya")),
        ("So you're 45?", "yeah", ("user", "age", "45")),
        ("Happy to. Are you vegetarian?", "yes", ("user", "diet", "vegetarian")),
        ("How many kids do you have?", "three", ("user", "count:child", "three kids")),
        # a question about someone it names
        ("How old is Lukas now?", "6", ("lukas", "age", "6")),
        ("When's Renee's birthday? I can remind you.", "june 12", ("renee", "birthday", "june 12")),
        ("Where does Priya live these days?", "Leeds", ("priya", "home", "leeds")),
        # a longer reply answers with its short first clause; an aside does not ask
        (
            "How old are you, if you don't mind me asking?",
            "36. feel about 60 some days",
            ("user", "age", "36"),
        ),
        ("How old is Lukas now?", "6, he is the youngest in his class.", ("lukas", "age", "6")),
    ],
)
def test_a_terse_reply_completes_the_question(tmp_path, asked, reply, fact):
    assert fact in facts_after(tmp_path, asked, reply)


@pytest.mark.parametrize(
    ("asked", "reply"),
    [
        ("Are you vegetarian?", "nope"),  # a denial states no diet
        ("How old is he?", "42"),  # whom "he" means is not guessed
        ("How old are you?", "not telling you that today, sorry"),  # says enough itself
        ("How old is Lukas?", "no idea, ask his mum, she keeps track of all that"),
    ],
)
def test_no_statement_is_made_up(tmp_path, asked, reply):
    assert not {f for f in facts_after(tmp_path, asked, reply) if f[1] in ("age", "diet")}


def test_a_long_reply_keeps_what_follows_its_answer(tmp_path):
    found = facts_after(tmp_path, "How old are you?", "42. my husband Dev is a chef")
    assert ("user", "age", "42") in found
    assert any(subject == "dev" for subject, _, _ in found)


@pytest.mark.parametrize(
    ("asked", "reply"),
    [
        ("How old is Arnab?", "He is 41. Married to Sreeparna, and they have one son."),
        ("How old is your daughter?", "she is 9"),
        # a clause that opens a reply without answering (LoCoMo's real chats)
        ("What's your plan to pitch in?", "Thanks, Mell! I'm still looking into counseling."),
        ("What's your fave?", "Yeah, me too! Contemporary dance is so expressive and graceful."),
    ],
)
def test_a_reply_that_says_itself_is_read_as_said(asked: str, reply: str) -> None:
    assert read_reply(reply, asked) is None
