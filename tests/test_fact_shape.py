"""A fact that is a piece of a sentence is not stored (issue 36): the test is on the
shape of the stored sentence, so it holds for any reader and any wording."""

import pytest

from tests.conftest import fact
from tests.scripted_model import ScriptedModel
from threefold.layers.shape import is_fragment, is_misshapen
from threefold.models.base import ExtractedFact

PIECES = [
    ("The user enjoys what she said.", "user"),  # a reported line's tail
    ("Omar prefers we did.", "omar"),
    ("Let us book the cabin and leave early.", "user"),  # a suggestion, no subject
    ("Please bring the charger tomorrow.", "user"),
    ("Should we move the standup to ten?", "user"),  # a question
    ("The user wants to try something like that.", "user"),  # placeholders only
    ("Priya loves everything.", "priya"),
    ("Tomasz will do it later.", "tomasz"),
    ("The user is into that.", "user"),
    ("Greta plans to to the swimming pool.", "greta"),  # two pieces joined
    ("Dev goes to the the gym on Mondays.", "dev"),
    ("The user my husband.", "user"),  # no verb after the subject
    ("My coworker asked me what douhua is (not my cat XD).", "user"),  # the writer's words
    ("Wait mom is not a nurse.", "user's mother"),  # an interjection opens it
]
STATEMENTS = [
    ("The user is vegan.", "user"),
    ("Priya loves sourdough baking.", "priya"),
    ("Tomasz will send the contract on Friday.", "tomasz"),
    ("The user has two dogs.", "user"),
    ("Max is 12.", "max"),
    ("The user no longer works at Sage.", "user"),
    ("Omar believes they should hire a designer.", "omar"),
    ("The user's sister is called Maya.", "user"),  # opens with another subject: not judged
    ("Lena Ortiz leads the billing team.", "lena ortiz"),
    ("The user's brother does payroll.", "user's brother"),  # "does" as the verb itself
    ("Kofi had pneumonia.", "kofi"),
    ("We're going with Redis for the cache.", "cache"),  # a team's decision in its words
    ("The user had had enough of night shifts.", "user"),  # "had had" is English
    ("The user hangs out with Sam on Fridays.", "user"),
    ("The user plans to travel in May.", "user"),  # a month spelt as a modal verb
    ("The billing rewrite ships in May.", "billing rewrite"),
    ("The user moved to 20 Baker Street.", "user"),
]


@pytest.mark.parametrize(("text", "subject"), PIECES)
def test_pieces_of_sentences_are_fragments(text, subject):
    assert is_fragment(text, subject)


@pytest.mark.parametrize(("text", "subject"), STATEMENTS)
def test_statements_are_not(text, subject):
    assert not is_fragment(text, subject)


def test_a_fragment_from_the_reader_is_not_stored_and_the_rest_is(open_memory):
    def read(turn):
        return [
            fact("user", "likes", "said", text="The user likes they said.", category="preference"),
            fact("user", "diet", "vegan", text="The user is vegan.", category="preference"),
        ]

    mem = open_memory(ScriptedModel(read))
    mem.add_turn("chat:shape", "I like, they said. And I'm vegan.")
    mem.process_pending()
    assert [f.text for f in mem.facts("chat:shape")] == ["The user is vegan."]
    assert len(mem.turns("chat:shape")) == 1  # the turn itself is kept


@pytest.mark.parametrize(
    ("text", "subject", "fragment"),
    [
        ("Does the user still keep bees?", "user", True),
        ("Marta's favourite season is.", "marta", True),
        ("The user bought a.", "user", True),
        ("The user keeps bees on the garage roof.", "user", False),
        ("Marta's favourite season is autumn.", "marta", False),
    ],
)
def test_a_question_or_a_sentence_cut_after_its_copula_or_article_is_a_fragment(
    text: str, subject: str, fragment: bool
) -> None:
    assert is_fragment(text, subject) is fragment


def read(category: str, slot: str, value: str, text: str) -> ExtractedFact:
    return fact("user", slot, value, 0.9, category=category, text=text)


@pytest.mark.parametrize(
    ("item", "misshapen"),
    [
        # a name-like value made of a clause: a reader's span ran on past the value
        (
            read(
                "health",
                "allergy",
                "doctor wrote it big",
                "The user is allergic to doctor wrote it big.",
            ),
            True,
        ),
        (
            read(
                "health",
                "allergy",
                "penicillin they found out",
                "The user is allergic to penicillin they found out.",
            ),
            True,
        ),
        (read("health", "allergy", "penicillin", "The user is allergic to penicillin."), False),
        # names that hold a pronoun's letters, not a pronoun of a clause
        (read("work", "employer", "US Foods", "The user works at US Foods."), False),
        # a plan or a liking is a verb phrase, where a pronoun belongs
        (
            read(
                "plan",
                "plan:berlin",
                "visit her in Berlin",
                "The user plans to visit her in Berlin.",
            ),
            False,
        ),
        (
            read(
                "preference",
                "likes",
                "books they can dog-ear",
                "The user likes books they can dog-ear.",
            ),
            False,
        ),
    ],
)
def test_a_name_like_value_holds_no_clause(item: ExtractedFact, misshapen: bool) -> None:
    assert is_misshapen(item) is misshapen
