"""Sentence splitting (models/heuristic/text.py): pysbd finds the sentences, and each is
placed in the text as written, after the one before, whatever repeats."""

from threefold.models.heuristic.text import sentences


def test_an_abbreviation_does_not_end_a_sentence():
    assert sentences("Dr. Lee moved to Leeds. I work at Sage.") == [
        "Dr. Lee moved to Leeds.",
        "I work at Sage.",
    ]


def test_a_title_the_splitter_does_not_know_ends_no_sentence():
    assert sentences("Kindly do so. My wife is Smt. Sunita Awasthi; she teaches.") == [
        "Kindly do so.",
        "My wife is Smt. Sunita Awasthi; she teaches.",
    ]


def test_a_word_that_is_a_title_only_before_a_name_still_ends_one():
    assert sentences("Thank you, sir. I live in Leeds. That was wild fr. Anyway") == [
        "Thank you, sir.",
        "I live in Leeds.",
        "That was wild fr.",
        "Anyway",
    ]


def test_a_sentence_said_twice_is_kept_twice_in_order():
    assert sentences("Yes. Yes. I moved to Hull. Yes.") == [
        "Yes.",
        "Yes.",
        "I moved to Hull.",
        "Yes.",
    ]


def test_the_spaces_between_sentences_are_no_part_of_them():
    assert sentences("I moved.   Now in York!\tBye?  ok") == [
        "I moved.",
        "Now in York!",
        "Bye?",
        "ok",
    ]


def test_a_sentence_holding_pattern_characters_is_placed_as_written():
    said = "It costs $5 (or so). Call me at +44 7700 900123? [ok] *sure*."
    assert sentences(said) == [
        "It costs $5 (or so).",
        "Call me at +44 7700 900123?",
        "[ok] *sure*.",
    ]
