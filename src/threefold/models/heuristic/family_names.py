"""Parents and grandparents named by what their family calls them.

"Mum turns 70 on 2 Aug", "Papa is diabetic", "Mama lives in Tarnów": a family calls a
parent or grandparent by a relation word, capitalised as a name, and either reader may take
that word for a person of its own ("mum"). Such a word (relations.json ``said_as_names``) as
a fact's whole subject is the writer's relative: "user's mother", or "dana's mother" in a
group where Dana writes, the key every other fact about that relative has.
"""

from collections.abc import Sequence
from functools import cache

from threefold.models.base import ExtractedFact, TurnInput
from threefold.models.reader.labels import relations


@cache
def _said_as_names() -> dict[str, str]:
    data = relations()
    return {word: data["words"][word] for word in data["said_as_names"]}


def as_relatives(facts: Sequence[ExtractedFact], turn: TurnInput) -> list[ExtractedFact]:
    """`facts`, each whose subject is a parent's or grandparent's family name ("mum") said
    of the writer's relative of that kind."""
    out = []
    for fact in facts:
        relation = _said_as_names().get(fact.subject)
        if relation is not None:
            fact = fact.model_copy(update={"subject": f"{turn.writer}'s {relation}"})
        out.append(fact)
    return out
