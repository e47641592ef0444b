"""The rules' facts and the trained reader's, as one list.

The rules stay the precision layer: where they read a slot (or the same value), their fact
stands, with its corrections, dates and denials. The trained reader adds what they missed:
wordings no rule knows, answers that need the question before them, facts inside long
messages and questions. How much it adds is a policy, chosen by measurement on
development text (training/choose_threshold.py prints each):

- ``union``: every fact of a slot and value the rules did not read;
- ``new kinds``: only facts of categories the rules read nothing of in the turn;
- ``silent``: only in turns where the rules read nothing at all.
"""

from threefold.models.base import ExtractedFact

POLICIES = ("union", "new kinds", "silent")


def blend(
    rules: list[ExtractedFact], read: list[ExtractedFact], policy: str = "union"
) -> list[ExtractedFact]:
    if policy == "silent" and rules:
        return rules
    kinds = {f.category for f in rules}
    taken = {(f.subject, f.slot) for f in rules}
    said = [(f.subject, f.category, f.value.lower()) for f in rules]
    added = [
        f
        for f in read
        if (f.subject, f.slot) not in taken
        and not any(_same(f, s) for s in said)
        and (policy != "new kinds" or f.category not in kinds)
    ]
    return [*rules, *added]


def _same(fact: ExtractedFact, said: tuple[str, object, str]) -> bool:
    subject, category, value = said
    mine = fact.value.lower()
    return (
        subject == fact.subject and category == fact.category and (mine in value or value in mine)
    )
