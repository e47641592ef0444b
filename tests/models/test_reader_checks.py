"""The trained reader's precision checks (models/reader/checks.py): types, not phrases."""

import numpy as np
import pytest

from tests.models.marks import unmarked
from threefold.domain import FactCategory
from threefold.models.base import ExtractedFact
from threefold.models.heuristic.text import third_person
from threefold.models.reader.checks import refusal
from threefold.models.reader.facts import sentence_facts
from threefold.models.reader.heads import Heads, ReaderModelError, Span


def reading(sentence: str, value: str, label: str, subject: str = "user", confidence=0.99):
    start = sentence.index(value)
    span = Span(start, start + len(value), label, "cur", "self", confidence)
    fact = ExtractedFact(
        text="t", category=FactCategory.IDENTITY, subject=subject, slot=label, value=value,
        confidence=0.95,
    )  # fmt: skip
    return sentence, span, fact


@pytest.mark.parametrize(
    ("sentence", "value", "label", "why"),
    [
        ("Checked build 461; the pipeline ran green.", "461", "age", "not a plausible number"),
        ("I am 0 today.", "0", "age", "not a plausible number"),
        ("I'm 5 months pregnant.", "5", "age", "a measure, not an age"),
        ("she's 6 weeks tomorrow", "6", "age", "a measure, not an age"),
        ("Since I was 17 or so, it's been my outlet.", "17", "age", "an age in the past"),
        ("we moved here when i was about 4", "4", "age", "an age in the past"),
        ("im in the cardiac unit now", "the", "employer", "no content word"),
        ("I work in one pharmacy of the centre.", "centre", "employer", "no content word"),
        ("my birthday is soon", "soon", "birthday", "no month or day"),
        ("It's managed with diet for now.", "diet", "diet", "only names its kind"),
        (
            "In the ad, the mum says 'I still love pasta night'. Is that odd?",
            "pasta",
            "likes",
            "in quotation marks",
        ),
        ('Translate: "I live in Seville with my brother"', "Seville", "home", "in quotation marks"),
        ("Hey Caroline, hope all's good!", "Caroline", "name", "the person addressed"),
        ("Thanks, Mel! It was a gift.", "Mel", "name", "the person addressed"),
        ("good morning Sam", "Sam", "name", "the person addressed"),
        ("The kids look so cute, Mel!", "Mel", "relation", "the person addressed"),
        ("How did they handle it, Caroline?", "Caroline", "relation", "the person addressed"),
        (  # set off by commas after an interjection
            "Yeah, Caroline, my family's been great.",
            "Caroline",
            "relation",
            "the person addressed",
        ),
        ("lol ok, Dev, my brother says hi", "Dev", "relation", "the person addressed"),
        ("doc upped my sertraline to 100mg", "100mg", "medication", "only a dose"),
        ("now it's 2 puffs twice a day", "2 puffs twice a day", "medication", "only a dose"),
        # said of the one addressed, not of the writer
        (
            "You're gonna do great with your new job",
            "do great",
            "plan",
            "said of the one addressed",
        ),
        (
            "You should move to Leeds, honestly.",
            "move to Leeds",
            "plan",
            "said of the one addressed",
        ),
        ("u r going to love lisbon", "lisbon", "home", "said of the one addressed"),
        ("I think you're vegan now?", "vegan", "diet", "said of the one addressed"),
        # asked after someone, in a question that names no writer
        ("fair. how's sam? still at the bbc?", "bbc", "employer", "asked, of no one it names"),
        ("any good vegan places in Leeds?", "vegan", "diet", "asked, of no one it names"),
        # a number after a school year's word
        ("im yr 11 at mt roskill grammar", "11", "age", "a school year, not an age"),
        ("she's in grade 5 now", "5", "age", "a school year, not an age"),
        # a thing named only by the words of a time
        ("The car is a Nissan Micra, a 2011, red.", "2011", "owns", "names no thing"),
        ("We have summer cottage near Savonlinna.", "summer", "owns", "names no thing"),
        # a title is nobody's name
        ("My wife's name is Smt. Sunita Awasthi", "Smt", "relation", "only a title"),
        ("I am Dr.", "Dr", "name", "only a title"),
    ],
)
def test_a_reading_of_the_wrong_type_is_refused(sentence, value, label, why) -> None:
    assert refusal(*reading(sentence, value, label)) == why


@pytest.mark.parametrize(
    ("sentence", "value", "label"),
    [
        ("I'm 44 btw", "44", "age"),
        ("I'm 44 years old", "44", "age"),
        ("I was 30 when we met and I'm 41 now", "41", "age"),
        ("bday is oct 3", "oct 3", "birthday"),
        ("my birthday is the 21st", "21st", "birthday"),
        ("I moved to Cape Town", "Cape Town", "home"),
        ("I'm the user's friend, I don't use 'like' much", "friend", "relation"),
        ("I'm Dr. Okafor's patient", "Okafor", "name"),
        ("Hi, I'm Sam from accounts", "Sam", "name"),
        ("Hi Sam, Dana here.", "Dana", "name"),
        ("Hi, I'm Kumari", "Kumari", "name"),  # a title elsewhere, a name here
        ("my daughter is not Lily, Lila!", "Lila", "relation"),
        # after an interjection, a name with no comma after it may be the answer itself
        ("Yes, Lila.", "Lila", "relation"),
        ("Yes, Laila, born on the 9th of February.", "Laila", "relation"),
        ("Well, Caroline is my cousin.", "Caroline", "relation"),
        ("I went with my sister, Jane.", "Jane", "relation"),
        ("I take sertraline 50mg", "sertraline 50mg", "medication"),
        ("I take 20mg of citalopram", "20mg of citalopram", "medication"),
        # "you" said before the writer's own words
        ("you can call me Sam", "Sam", "name"),
        ("did you know I'm vegan?", "vegan", "diet"),
        ("Thank you! I'm moving to Leeds in June.", "moving to Leeds", "plan"),
        ("love you, moving to leeds next week", "moving to leeds", "plan"),
        ("you won't believe it but I got into Oxford", "Oxford", "studies"),
        ("told you we'd move to Leeds", "move to Leeds", "plan"),
        # a question that names the writer, or a statement before a question
        ("am I still on the list at Monzo?", "Monzo", "employer"),
        ("my mum turns 60 in May, gift ideas?", "May", "birthday"),
        ("vegan here, any tips for Lisbon?", "vegan", "diet"),
        # a model's number, or a year beside the name
        ("got a prebuilt w a 4060", "4060", "owns"),
        ("I drive a 2019 Honda Civic", "2019 Honda Civic", "owns"),
    ],
)
def test_a_reading_of_its_type_is_kept(sentence, value, label) -> None:
    assert refusal(*reading(sentence, value, label)) == ""


def test_a_value_that_is_its_own_subject_is_refused() -> None:
    sentence, span, fact = reading("Gus, you said you're vegan?", "Gus", "home", subject="gus")
    assert refusal(sentence, span, fact) == "its own subject"


def test_a_label_needs_its_calibrated_confidence() -> None:
    sentence, span, fact = reading("I live in Tromso", "Tromso", "home", confidence=0.9)
    assert refusal(sentence, span, fact, {"home": 0.95}) == "below its label's confidence"
    assert refusal(sentence, span, fact, {"home": 0.85}) == ""


def test_a_named_relation_gives_its_facts_to_the_name() -> None:
    text = "My wife Ines is a doctor."
    spans = [
        Span(3, 7, "REL", "cur", "self", 0.99),
        Span(8, 12, "relation", "cur", "self", 0.99),
        Span(18, 24, "job", "cur", "rel", 0.99),
    ]
    facts = {(f.subject, f.slot, f.value) for f in sentence_facts(text, spans, "user")}
    assert facts == {("user", "spouse", "Ines"), ("ines", "job title", "doctor")}


def test_an_unnamed_relation_keeps_the_relation_word() -> None:
    text = "My wife is a doctor."
    spans = [Span(3, 7, "REL", "cur", "self", 0.99), Span(13, 19, "job", "cur", "rel", 0.99)]
    facts = [(f.subject, f.value) for f in sentence_facts(text, spans, "user")]
    assert facts == [("user's spouse", "doctor")]


@pytest.mark.parametrize(
    ("marked", "expected"),
    [
        # "'s" for "is" after a relation word or a name: the fact is Dad's, not "dad's"'s
        ("[[REL|Dad's]] allergic to [[allergy@rel|peanuts]]", ("user's father", "peanuts")),
        ("[[PER|Dawn's]] a [[job@per|nurse]] now", ("dawn", "nurse")),
        ("[[PER|Dawn’s]] new job is at the [[employer@per|council]]", ("dawn", "council")),
        # a possessive of the writer's relation stays the relation's
        ("my [[REL|sister's]] allergic to [[allergy@rel|cats]]", ("user's sister", "cats")),
    ],
)
def test_a_possessive_or_contracted_is_is_no_part_of_the_subject(
    marked: str, expected: tuple[str, str]
) -> None:
    text, spans = unmarked(marked)
    facts = [(f.subject, f.value) for f in sentence_facts(text, spans, "user")]
    assert facts == [expected]


def test_heads_of_the_wrong_shape_are_a_reader_error() -> None:
    onnx = pytest.importorskip("onnxruntime")
    assert onnx is not None
    w = {
        "w1": np.zeros((6, 4), np.float32), "b1": np.zeros(4, np.float32),
        "w_tag": np.zeros((4, 3), np.float32), "b_tag": np.zeros(3, np.float32),
        "w_mod": np.zeros((4, 5), np.float32), "b_mod": np.zeros(5, np.float32),
        "w_subj": np.zeros((4, 3), np.float32), "b_subj": np.zeros(3, np.float32),
    }  # fmt: skip
    heads = Heads(w)
    assert [p.shape for p in heads.predict(np.ones((2, 6), np.float32))] == [(2, 3), (2, 5), (2, 3)]
    with pytest.raises(ReaderModelError, match="cannot run"):
        heads.predict(np.ones((2, 7), np.float32))


@pytest.mark.parametrize(
    ("marked", "age"),
    [
        ("im [[age|seventy]] three years old", "73"),  # the unit the span cut off
        ("i turned [[age|seventy]]-four on tuesday", "74"),
        ("im [[age|seventy three]] years old", "73"),  # read whole
        ("im [[age|seventy]] years old", "70"),
        ("im [[age|seventy]] ten times over", "70"),  # no unit of a tens: "seventy ten"
        ("im [[age|seventy]] three", "73"),
    ],
)
def test_an_age_in_words_cut_after_its_tens_takes_its_unit(marked: str, age: str) -> None:
    text, spans = unmarked(marked)
    assert [f.value for f in sentence_facts(text, spans, "user")] == [age]


@pytest.mark.parametrize(
    ("marked", "date"),
    [
        ("OUR ANNIVERSARY WAS [[anniversary|JUNE]] 18 AND I GO OUT", "JUNE 18"),
        ("my birthday's the 3rd of [[birthday|May]], pub", "the 3rd of May"),
        ("my birthday is [[birthday|june the 8th]]", "june the 8th"),  # read whole
        ("my birthday is in [[birthday|June]] 2026", "June"),  # a year is no day
        ("my birthday is in [[birthday|May]], 5 of us going", "May"),
    ],
)
def test_a_date_cut_before_its_day_takes_it(marked: str, date: str) -> None:
    text, spans = unmarked(marked)
    assert [f.value for f in sentence_facts(text, spans, "user")] == [date]


@pytest.mark.parametrize(
    ("marked", "value"),
    [
        (
            "I hold a [[degree|degree in Computer]] Science from Leiden",
            "degree in Computer Science",
        ),
        ("I finally got a [[owns|MacBook]] Air M2, so fast", "MacBook Air M2"),
        ("I work at [[employer|Deutsche]] Bank now", "Deutsche Bank"),
        ("I started at [[employer|Stripe]] Monday", "Stripe"),  # a weekday is no name's
        ("I joined [[employer|Stripe]] in May", "Stripe"),
        ("I joined [[employer|Stripe]] I think in May", "Stripe"),
        ("I USE A [[owns|CANE]] NOW", "CANE"),  # in capitals every word looks like a name's
        ("I have a [[owns|red bike]] Tom gave me", "red bike"),  # a value of no name
        ("[[religion|Church of]] England, but not been since", "Church of England"),
        ("I work at [[employer|Banco]] do Brasil", "Banco do Brasil"),
        ("I study at the [[studies|University]] of Toronto", "University of Toronto"),
        ("we moved to [[home|Leeds]] of course", "Leeds"),  # no name goes on after "of"
    ],
)
def test_a_value_cut_inside_a_name_takes_the_rest_of_it(marked: str, value: str) -> None:
    text, spans = unmarked(marked)
    assert [f.value for f in sentence_facts(text, spans, "user")] == [value]


def test_a_plan_read_from_its_date_says_it_has_plans_for_it() -> None:
    text, spans = unmarked("[[plan|14th January at the Coventry test centre]], pray for me")
    assert [f.text for f in sentence_facts(text, spans, "user")] == [
        "The user has plans for 14th January at the Coventry test centre."
    ]


def test_the_writers_own_words_are_said_of_them() -> None:
    """ "my" in a value the writer said of themselves is theirs, whoever writes it."""
    text, spans = unmarked("I'm going to [[plan|sell my car]] next month")
    [fact] = sentence_facts(text, spans, "jon")
    assert (fact.value, fact.text) == ("sell their car", "Jon plans to sell their car.")


@pytest.mark.parametrize(
    ("said", "told"),
    [
        ("visit my mum and me", "visit their mum and them"),
        ("I'm moving", "they're moving"),
        ("carving out some me-time", "carving out some me-time"),  # a word of its own
    ],
)
def test_the_third_person_changes_whole_words_only(said: str, told: str) -> None:
    assert third_person(said) == told


def test_a_dislike_says_its_verb_once() -> None:
    """The value keeps "dislikes" (a like and a dislike of one thing are one slot's
    values); the sentence says it once."""
    text, spans = unmarked("i cant stand [[dislikes|that rap music]] the grandkids play")
    [fact] = sentence_facts(text, spans, "user")
    assert (fact.text, fact.value) == (
        "The user dislikes that rap music.",
        "dislikes that rap music",
    )


@pytest.mark.parametrize(
    ("marked", "said"),
    [
        ("I own [[owns|some 12 acres]] off the Nsukka road", "The user has some 12 acres."),
        ("we keep [[owns|two kayaks]] at the lake", "The user has two kayaks."),
        ("I drive a [[owns|2014 Silverado]]", "The user has a 2014 Silverado."),  # a year
        ("I have a [[owns|red bike]]", "The user has a red bike."),
    ],
)
def test_a_value_that_counts_itself_takes_no_article(marked: str, said: str) -> None:
    text, spans = unmarked(marked)
    assert [f.text for f in sentence_facts(text, spans, "user")] == [said]


@pytest.mark.parametrize(
    ("marked", "said"),
    [
        ("Greta will be late [[plan|to the swimming pool]] on Thursday", "go to the swimming pool"),
        ("now we just goin [[plan|home for the reunion]]", "go home for the reunion"),
        ("going [[plan|back to Cork]] in May", "go back to Cork"),
        ("I plan to [[plan|run the Lisbon half marathon]]", "run the Lisbon half marathon"),
    ],
)
def test_a_plan_read_as_where_someone_goes_says_its_verb(marked: str, said: str) -> None:
    """A trip's verb is "go": "plans to to the swimming pool" said nothing."""
    text, spans = unmarked(marked)
    facts = sentence_facts(text, spans, "user")
    assert [(f.value, f.text) for f in facts] == [(said, f"The user plans to {said}.")]


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("ok i have news. moving to leeds in june", "moving to leeds"),
        ("rafa and i are doing porto in april!!", "doing porto"),
        ("i'm getting the train to shrewsbury on the 23rd", "getting the train to shrewsbury"),
        ("we're flying to Lisbon next friday", "flying to Lisbon"),
        ("Don and I are driving up to Ruidoso the first week of June", "driving up to Ruidoso"),
        ("Diego and I are doing Mexico City jan 4-11", "doing Mexico City"),
    ],
)
def test_a_plan_in_its_ing_form_set_at_a_time_ahead_is_kept(sentence, value) -> None:
    assert refusal(*reading(sentence, value, "plan")) == ""


@pytest.mark.parametrize(
    ("sentence", "value"),
    [
        ("I'm taking a pottery class at the community centre", "taking a pottery class"),
        ("I've been running the parkrun since March", "running the parkrun"),
        ("been doing pilates on tuesdays for years", "doing pilates"),
        ("I may be moving to Leeds, who knows", "moving to Leeds"),  # "may" is no month here
        ("we're getting in may", "getting"),  # the verb alone says nothing of what
    ],
)
def test_a_plan_in_its_ing_form_with_no_time_ahead_is_what_one_does_now(sentence, value) -> None:
    assert refusal(*reading(sentence, value, "plan")) == "no verb's base form"


def test_a_plan_kept_in_its_ing_form_is_said_as_it_was() -> None:
    """ "The user plans to moving to leeds." said nothing; the value ends where it ends,
    not at the word that led on to the time ("Toowoomba in")."""
    text, spans = unmarked("[[plan|moving the family up to Toowoomba in]] march")
    facts = sentence_facts(text, spans, "user")
    assert [(f.value, f.text) for f in facts] == [
        (
            "moving the family up to Toowoomba",
            "The user is moving the family up to Toowoomba.",
        )
    ]


@pytest.mark.parametrize(
    ("marked", "ages"),
    [
        (
            "my kids are [[PER|kojo]] he's [[age@per|9]] and [[PER|adjoa]] she's [[age@per|6]]",
            {"kojo": "9", "adjoa": "6"},
        ),
        ("[[PER|Tom]] is [[age@per|25]]; [[PER|Jane]] turns 30", {"tom": "25"}),
        ("[[age@per|9]]-year-old [[PER|Ava]] and her friend", {"ava": "9"}),  # before it
    ],
)
def test_a_value_belongs_to_the_name_of_its_own_clause(marked: str, ages: dict) -> None:
    """The nearest name across "and" or a full stop speaks of another clause."""
    text, spans = unmarked(marked)
    facts = sentence_facts(text, spans, "user")
    assert {f.subject: f.value for f in facts if f.slot == "age"} == ages
