"""Paraphrase retrieval: does an embedder find a statement from a question worded otherwise?

    python benchmarks/paraphrase_recall.py [--embedders minilm,static,hashing]
                                           [--names 5] [--distractors 3000] [--seed 11]

The set is generated here. Each topic has a statement ("Ines brought home a beagle from
the shelter") and a question that shares no content word with it but the person's name
("What animal did Ines adopt?"). Every topic is stated for several people, so the name
alone does not find the answer, and thousands of distractor lines about the same people
doing other things (some close: walking a neighbour's dog) fill the store. Each question
is ranked against every line by cosine; prints recall@1/5/10, MRR and the CPU cost of
encoding, per embedder. Asserts nothing.
"""

import argparse
import random
import time
from dataclasses import dataclass

import numpy as np
from rich.console import Console
from rich.table import Table

from threefold.embed import build_embedder

NAMES = [
    "Ines",
    "Marlow",
    "Tobias",
    "Priya",
    "Keanu",
    "Oksana",
    "Dmitri",
    "Leilani",
    "Farid",
    "Greta",
    "Hamish",
    "Yusuf",
    "Camila",
    "Rowan",
    "Anneke",
    "Bashir",
    "Solveig",
    "Tariq",
    "Maren",
    "Obinna",
    "Zofia",
    "Lucan",
    "Esme",
    "Ravi",
    "Delphine",
]

# (statements, questions): a statement is filled with a person and one of the topic's
# options; the question asks for it in other words.
TOPICS: tuple[tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]], ...] = (
    (
        ("{n} brought home a {o} from the animal shelter last weekend.",),
        ("beagle puppy", "tabby kitten", "rescue greyhound", "pair of rabbits"),
        ("What pet did {n} adopt?", "Did {n} take in an animal recently?"),
    ),
    (
        ("{n} accepted the offer and starts as a {o} in March.",),
        ("ward nurse", "bus driver", "data analyst", "primary school teacher"),
        ("What new job is {n} taking?", "Where will {n} be employed next?"),
    ),
    (
        ("{n} signed the lease on a flat in {o} yesterday.",),
        ("Lisbon", "Montreal", "Osaka", "Edinburgh"),
        ("Which city is {n} relocating to?", "Where is {n} moving?"),
    ),
    (
        ("{n} breaks out in hives whenever {o} get anywhere near the plate.",),
        ("peanuts", "shellfish", "strawberries", "sesame seeds"),
        ("What food is {n} allergic to?",),
    ),
    (
        ("{n} practises chords on a {o} every evening after dinner.",),
        ("secondhand acoustic guitar", "ukulele", "banjo", "mandolin"),
        ("What instrument is {n} learning to play?",),
    ),
    (
        ("{n} traded in the old sedan for {o}.",),
        ("an electric hatchback", "a pickup truck", "a motorbike", "a camper van"),
        ("What vehicle does {n} drive now?", "Did {n} buy a new car?"),
    ),
    (
        ("{n} and {o} tied the knot in a small ceremony by the lake.",),
        ("Sam", "Jordan", "Alexis", "Morgan"),
        ("Who did {n} marry?", "Is {n} married?"),
    ),
    (
        ("{n} spent two weeks hiking around {o} in January.",),
        ("Patagonia", "Iceland", "the Dolomites", "Nepal"),
        ("Where did {n} travel for the holidays?", "What trip did {n} take?"),
    ),
    (
        ("{n} fractured a wrist falling off {o}.",),
        ("a skateboard", "a ladder", "a horse", "an icy step"),
        ("How did {n} get injured?", "Did {n} break a bone?"),
    ),
    (
        ("{n} stopped eating meat entirely after {o}.",),
        ("a documentary about farms", "a heart scare", "a trip to India", "a bet with a friend"),
        ("What diet does {n} follow?", "Is {n} a vegetarian?"),
    ),
    (
        ("{n} is halfway through {o} for the reading group.",),
        ("a thick Russian novel", "a biography of Lincoln", "a space opera", "a poetry anthology"),
        ("What book is {n} currently reading?",),
    ),
    (
        ("{n} has an older {o} who lives in Toronto.",),
        ("brother", "sister", "half-brother", "stepsister"),
        ("Does {n} have any siblings?", "Who in {n}'s family is in Canada?"),
    ),
    (
        ("{n} passed {o} on the first attempt.",),
        ("the bar exam", "the driving test", "the nursing boards", "the CPA exam"),
        ("Did {n} qualify after the test?", "What certification did {n} earn?"),
    ),
    (
        ("{n} planted {o} in raised beds out back.",),
        ("tomatoes and basil", "potatoes and leeks", "squash and beans", "carrots and kale"),
        ("What vegetables is {n} growing in the garden?",),
    ),
    (
        ("{n} refuses to board a plane, even for {o}.",),
        ("short trips", "work conferences", "family weddings", "free tickets"),
        ("Is {n} scared of flying?",),
    ),
    (
        ("{n} baked {o} from scratch with a homemade starter.",),
        ("a sourdough loaf", "rye rolls", "a focaccia", "bagels"),
        ("What bread did {n} make?",),
    ),
    (
        ("{n} takes {o} classes twice a week at the community college.",),
        ("Japanese", "Portuguese", "Arabic", "Swahili"),
        ("Which language is {n} studying?",),
    ),
    (
        ("{n} left the firm after thirty-five years and now spends mornings {o}.",),
        ("fishing", "painting", "golfing", "sailing"),
        ("Has {n} retired?", "What does {n} do since stopping work?"),
    ),
    (
        ("{n}'s notebook computer {o}.",),
        (
            "shows a black screen when powered on",
            "overheats within minutes",
            "lost its keyboard to spilled tea",
            "won't charge anymore",
        ),
        ("What's wrong with {n}'s laptop?",),
    ),
    (
        ("{n} serves meals at {o} every Sunday.",),
        ("the soup kitchen", "the homeless shelter", "the church hall", "the food bank"),
        ("Where does {n} volunteer?",),
    ),
    (
        ("{n} has watched {o} probably twenty times.",),
        ("Casablanca", "Spirited Away", "The Godfather", "Amelie"),
        ("What is {n}'s favourite film?", "Which movie does {n} love?"),
    ),
    (
        ("{n}'s grandmother passed away {o}.",),
        ("on Thursday night", "after a long illness", "in her sleep", "at ninety-four"),
        ("Did someone in {n}'s family die?", "Is {n} grieving?"),
    ),
    (
        ("{n} got promoted to {o} this quarter.",),
        ("engineering manager", "head of sales", "senior editor", "lead designer"),
        ("What is {n}'s new title at work?", "Did {n} move up at the company?"),
    ),
    (
        ("{n} quit smoking {o}.",),
        ("cold turkey in June", "with nicotine patches", "after twenty years", "for the baby"),
        ("Does {n} still have cigarettes?", "How did {n} give up tobacco?"),
    ),
    (
        ("{n} sprained an ankle {o} and is on crutches.",),
        ("playing basketball", "on a trail run", "dancing at a party", "stepping off a curb"),
        ("Why is {n} limping?", "What happened to {n}'s foot?"),
    ),
)

FILLER = (
    "{n} said the standup ran long again this morning.",
    "{n} is stuck in traffic on the ring road.",
    "{n} thinks the quarterly numbers look fine.",
    "{n} walked the neighbour's dog around the block.",
    "{n} asked whether anyone has the spare projector cable.",
    "{n} picked up groceries on the way home.",
    "{n} watched the football with friends at the pub.",
    "{n} complained that the office heating is broken.",
    "{n} shared a photo of the sunset from the balcony.",
    "{n} booked a dentist appointment for next Tuesday.",
    "{n} is reviewing the pull request for the billing service.",
    "{n} forgot an umbrella and got soaked.",
    "{n} recommended a podcast about economics.",
    "{n} will join the call ten minutes late.",
    "{n} moved the sprint planning to Thursday.",
    "{n} found a cheap flight deal but did not buy it.",
    "{n} fixed the flaky test in the payment module.",
    "{n} cooked pasta for the whole team on Friday.",
    "{n} is tired after a long week of interviews.",
    "{n} lent a bicycle to a cousin for the summer.",
    "{n} says the coffee machine on floor three works again.",
    "{n} wants to try the new ramen place downtown.",
    "{n} cleaned out the garage over the weekend.",
    "{n} has a cold and is working from home.",
    "{n} ordered new running shoes online.",
)
TIMES = ("", " Today.", " Yesterday.", " Last week.", " Again, apparently.", " Before lunch.")


@dataclass(frozen=True)
class Case:
    question: str
    target: int  # index of the statement in the corpus


def generate(names_per_topic: int, distractors: int, seed: int) -> tuple[list[str], list[Case]]:
    """The corpus (statements, then distractors, shuffled) and one case per question."""
    rng = random.Random(seed)
    lines: list[str] = []
    asked: list[tuple[str, int]] = []
    for statements, options, questions in TOPICS:
        for name in rng.sample(NAMES, names_per_topic):
            lines.append(rng.choice(statements).format(n=name, o=rng.choice(options)))
            asked.append((rng.choice(questions).format(n=name), len(lines) - 1))
    for _ in range(distractors):
        lines.append(rng.choice(FILLER).format(n=rng.choice(NAMES)) + rng.choice(TIMES))
    order = list(range(len(lines)))
    rng.shuffle(order)
    position = {old: new for new, old in enumerate(order)}
    corpus = [lines[old] for old in order]
    return corpus, [Case(question, position[target]) for question, target in asked]


def evaluate(kind: str, corpus: list[str], cases: list[Case]) -> dict[str, float]:
    embedder = build_embedder(kind)
    embedder.embed(["warm up: load the model before the clock starts"])
    cpu = time.process_time()
    stored = embedder.embed(corpus)
    stored_cpu = time.process_time() - cpu
    cpu = time.process_time()
    asked = np.vstack([embedder.embed([case.question]) for case in cases])
    query_cpu = time.process_time() - cpu
    scores = asked @ stored.T
    targets = np.array([case.target for case in cases])
    target_scores = scores[np.arange(len(cases)), targets]
    ranks = 1 + (scores > target_scores[:, None]).sum(axis=1)
    return {
        "r@1": float(np.mean(ranks <= 1)),
        "r@5": float(np.mean(ranks <= 5)),
        "r@10": float(np.mean(ranks <= 10)),
        "mrr": float(np.mean(1.0 / ranks)),
        "stored_ms": 1000 * stored_cpu / len(corpus),
        "query_ms": 1000 * query_cpu / len(cases),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--embedders", default="minilm,static,hashing")
    parser.add_argument("--names", type=int, default=5, help="people per topic")
    parser.add_argument("--distractors", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    corpus, cases = generate(args.names, args.distractors, args.seed)
    table = Table(
        title=f"paraphrase retrieval: {len(cases)} questions, {len(corpus):,} lines "
        f"(ranked by cosine against every line)"
    )
    for column in ("embedder", "recall@1", "recall@5", "recall@10", "MRR"):
        table.add_column(column, justify="right")
    table.add_column("CPU ms / stored line", justify="right")
    table.add_column("CPU ms / question", justify="right")
    for kind in args.embedders.split(","):
        result = evaluate(kind.strip(), corpus, cases)
        table.add_row(
            kind,
            *(f"{result[key]:.3f}" for key in ("r@1", "r@5", "r@10", "mrr")),
            f"{result['stored_ms']:.3f}",
            f"{result['query_ms']:.3f}",
        )
    Console().print(table)


if __name__ == "__main__":
    main()
