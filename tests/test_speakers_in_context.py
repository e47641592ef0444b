"""A chat of two people: an older turn found by the search names both of its writers,
not "Assistant" for the second (a context that misnames who said a thing misleads)."""

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path

from threefold import Memory, load_settings

STREAM = "chat:two-friends"


def test_a_retrieved_turn_names_both_of_its_speakers(
    backend_db: Callable[[], str | Path],
) -> None:
    settings = load_settings(db=backend_db(), embed={"kind": "hashing"})
    start = datetime(2026, 3, 2, 18, 0, tzinfo=UTC)
    with Memory.open(settings=settings, background_worker=False) as mem:
        mem.add_turn(
            STREAM,
            "Did you ever finish the pottery course?",
            "Yes, I fired my first glazed teapot in the kiln last week.",
            speaker="Caroline",
            assistant_speaker="Melanie",
            at=start,
        )
        for n in range(40):  # the teapot leaves the recent turns
            mem.add_turn(
                STREAM,
                f"Weather check {n}: still raining here.",
                "Same here, grey all day.",
                speaker="Caroline",
                assistant_speaker="Melanie",
                at=start + timedelta(hours=n + 1),
            )
        mem.process_pending()
        context = mem.context(STREAM, "What did Melanie make in the kiln?", budget=1500)
    retrieved = [
        i.text
        for s in context.sections
        if s.title == "Retrieved from older memory"
        for i in s.items
    ]
    teapot = [line for line in retrieved if "teapot" in line]
    assert teapot, context.text
    assert "Melanie: Yes, I fired my first glazed teapot" in teapot[0]
    assert "Assistant:" not in teapot[0]
