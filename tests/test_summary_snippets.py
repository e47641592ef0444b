"""A summary found by recall is shown as the sentences it holds, under the day they were
said: through the public API, offline, on real SQLite."""

from datetime import UTC, datetime, timedelta

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)
CHAT = "chat:wedding"
SMALL_TALK = [
    ("how long should I boil an egg for a runny yolk", "Six minutes."),
    ("how many grams in a cup of flour roughly", "About 125 grams."),
    ("whats the capital of mongolia again", "Ulaanbaatar."),
    ("give me a haiku about rain", "Grey roofs drink the sky."),
    ("how do i undo the last git commit but keep the changes", "git reset --soft HEAD~1."),
    ("how long do cooked rice leftovers keep", "Up to four days in the fridge."),
]


def retrieved_summaries(mem, query: str):
    ctx = mem.context(CHAT, query, budget=1000)
    return [
        item
        for section in ctx.sections
        if section.name == "retrieved"
        for item in section.items
        if item.source is not None and item.source.kind.startswith("summary")
    ]


def test_a_retrieved_summary_says_its_lines_apart_under_the_day_they_were_said(open_memory):
    mem = open_memory(recent_turns=4, session_turns=4)
    said = [("Wedding's booked!! Hawkstone Hall, 14 June, 90 guests", "Congratulations!")]
    said += SMALL_TALK * 3
    for n, (user, assistant) in enumerate(said):
        mem.add_turn(CHAT, user, assistant, at=T0 + timedelta(hours=3 * n))
    mem.end_session(CHAT)
    mem.process_pending()

    found = retrieved_summaries(mem, "How many guests are coming to the wedding?")
    assert found, "the month's summary is retrieved"
    for item in found:
        text = item.text.split("] ", 1)[1]
        assert "guests how" not in text and "yolk how" not in text
        assert text.endswith(".")
        # The month's lines were said from 4 to 6 May; its period ends 31 May.
        assert T0.date() <= item.source.at.date() < datetime(2026, 5, 31, tzinfo=UTC).date()
