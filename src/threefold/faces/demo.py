"""The acceptance story as data: a long Project Alpha chat with corrections buried early.

Used by `threefold demo`, the acceptance tests and the benchmarks.
"""

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from importlib import resources

STREAM = "project:alpha"
QUESTION = "How is Project Alpha doing?"
START = datetime(2026, 10, 5, 9, 0, tzinfo=UTC)

KEY_TURNS = {
    1: (
        "Sarah is the Lead Architect on Alpha, and Priya handles frontend.",
        "Got it: Sarah leads architecture and Priya is on frontend.",
    ),
    3: (
        "No, Raj is the Lead Architect. He's been with us 4 years.",
        "Thanks for correcting me. Raj is the Lead Architect.",
    ),
    9: ("Priya handles backend, not frontend.", "Understood, Priya is on backend."),
    40: ("The Alpha deadline moved to March 27.", "Noted, the new deadline for Alpha is March 27."),
}

KEY_TURNS_TOTAL = 40
"""The story's own turns: the four key statements among turns about other work. `--turns`
counts the turns after them."""


def about(filler: int, recent: int) -> str:
    """What the story is, true for any number of `filler` turns after its 40 and for the
    `recent` turns a context quotes verbatim."""
    if filler >= recent:
        where = f"so all four have left the last {recent} turns, which the context quotes"
    else:
        where = f"so turn 40 is still among the last {recent} turns, which the context quotes"
    then = f"Then {filler} more about other work follow" if filler else "No other turns follow"
    return (
        f"The story: a chat about Project Alpha in {KEY_TURNS_TOTAL} turns. Turn 1 names"
        ' Sarah Lead Architect; turn 3 corrects it ("No, Raj is the Lead Architect"); turn 9'
        f" moves Priya to backend; turn 40 moves the deadline to March 27. {then} ({where}),"
        f' and the question is asked: "{QUESTION}"'
    )


def look_for(recent: int, left_out: bool) -> str:
    """What the output shows; "Left out" is named only when it is printed."""
    budget = (
        '"Left out" says what was kept out of the context and why'
        if left_out
        else "nothing was kept out of the context"
    )
    return (
        "What it shows: the Facts section still holds Raj (turn:3), Priya on backend (turn:9)"
        " and the March 27 deadline (turn:40), each naming its turn, while Sarah's corrected"
        " role is not among them; the summary holds the older periods, the recent turns the"
        f" last {recent}, and {budget}."
    )


_OTHER_WORK = json.loads(
    resources.files("threefold.faces").joinpath("data", "demo_story.json").read_text("utf-8")
)
TOPICS = [(topic["theme"], topic["said"]) for topic in _OTHER_WORK["topics"]]
"""Topics of the other turns: (theme, statements the user makes about it)."""
REPLIES: list[str] = _OTHER_WORK["replies"]


@dataclass(frozen=True)
class StoryTurn:
    number: int
    user: str
    assistant: str
    at: datetime


def story(filler_after: int = 500, seed: int = 7) -> Iterator[StoryTurn]:
    """Turns 1-40 hold the key statements among filler; then `filler_after` more turns."""
    rng = random.Random(seed)
    total = KEY_TURNS_TOTAL + filler_after
    for number in range(1, total + 1):
        at = START + timedelta(hours=3 * (number - 1))
        if number in KEY_TURNS:
            user, assistant = KEY_TURNS[number]
        else:
            theme, lines = TOPICS[(number // 12) % len(TOPICS)]
            user = f"About {theme}: {rng.choice(lines)}"
            assistant = rng.choice(REPLIES)
        yield StoryTurn(number, user, assistant, at)
