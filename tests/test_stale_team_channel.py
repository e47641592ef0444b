"""In a team channel, a mark of "possibly outdated" is right (issue 36).

A channel says "new", "now" and "moved" of everything: another person's news about
another thing, or a line that says something stays as it was, must not make a true
statement look doubtful, while an update worded without any change word still marks the
line it replaces. Through the public API, with the offline reader and real SQLite."""

from datetime import UTC, datetime, timedelta

T0 = datetime(2026, 5, 4, 8, 0, tzinfo=UTC)
CHANNEL = "project:wedding"
FLORIST = (
    "Flowers are with Bloomhouse, they're doing the arch, the table centrepieces"
    " and the bridal bouquet."
)
CHATTER = [
    ("Callum", "Chef wants final numbers by Tuesday."),
    ("Priti", "Marquee supplier confirmed the 12x24 with clear sides."),
    ("Dom", "Band's rider came through, they need a 32A supply near the dance floor."),
    ("Priti", "We've only got 16A on that side. Generator?"),
    ("Dom", "I'll price a silent one."),
]


def said_in_channel(open_memory, later: list[tuple[str, str]], **last) -> list[str]:
    """The lines of a context that state the florist, after `later` (the last message of
    which is added with `last`, a bot's source for one): Imogen's own, not a summary that
    tells what others said too (a mark there may be for their part)."""
    mem = open_memory(recent_turns=4, session_turns=50)
    turns = [("Imogen", FLORIST), *CHATTER, *later]
    for n, (speaker, text) in enumerate(turns):
        extra = last if n == len(turns) - 1 else {}
        mem.add_turn(CHANNEL, text, "", at=T0 + timedelta(hours=3 * n), speaker=speaker, **extra)
    mem.end_session(CHANNEL)
    mem.process_pending()
    ctx = mem.context(CHANNEL, "Which florist is doing the flowers?", budget=2000)
    return [
        line
        for section in ctx.sections
        if section.name != "recent_turns"
        for item in section.items
        for line in item.text.splitlines()
        if "Bloomhouse" in line and not any(f"{who}:" in line for who, _ in CHATTER)
    ]


def marked(lines: list[str]) -> list[str]:
    return [line for line in lines if "outdated" in line]


def test_another_persons_news_about_another_thing_marks_nothing(open_memory):
    """Dom's "new" and "moved" are about the generator; sharing "arch" and "table" with
    the florist's line does not make it doubtful."""
    news = ("Dom", "New generator moved by the arch, next to the cake table.")
    lines = said_in_channel(open_memory, [news])
    assert lines, "the florist's line is in the context"
    assert not marked(lines), lines


def test_a_line_that_says_its_value_stays_marks_nothing(open_memory):
    """ "we're keeping Bloomhouse" with "now" elsewhere in it confirms the florist."""
    kept = (
        "Imogen",
        "Couple asked about other florists - we're keeping Bloomhouse for the arch,"
        " deposit is paid now.",
    )
    lines = said_in_channel(open_memory, [kept])
    assert lines and not marked(lines), lines


def test_an_update_without_a_change_word_marks_the_line_it_replaces(open_memory):
    """ "Flowers sorted: Wildroot are doing the arch..." says no "now" nor "changed", but
    it is the florist's own author stating the arch and centrepieces' florist anew."""
    update = (
        "Imogen",
        "Flowers sorted: Wildroot are doing the arch and all the centrepieces, deposit paid"
        " this morning. The first florist's van is off the road till the autumn.",
    )
    lines = said_in_channel(open_memory, [update])
    older = [line for line in lines if "Wildroot" not in line]
    assert older and older == marked(older), lines


def test_the_same_update_from_a_bot_marks_nothing(open_memory):
    """An integration's post (a supplier portal's notice) says no one changed their mind."""
    notice = ("portal", "Flowers sorted: Wildroot are doing the arch and all the centrepieces.")
    lines = said_in_channel(open_memory, [notice], source="bot")
    assert lines and not marked(lines), lines


def test_the_author_restating_the_line_marks_nothing(open_memory):
    restated = ("Imogen", "Reminder: Bloomhouse are doing the arch and the table centrepieces.")
    lines = said_in_channel(open_memory, [restated])
    assert lines and not marked(lines), lines


def test_an_empty_message_marks_nothing(open_memory):
    """A person's side left empty (only an answer to it was stored) says nothing."""
    mem = open_memory(recent_turns=4, session_turns=50)
    mem.add_turn(CHANNEL, FLORIST, "", at=T0, speaker="Imogen")
    mem.add_turn(
        CHANNEL, "   ", "Flowers moved to Wildroot?", at=T0 + timedelta(hours=3), speaker="Dom"
    )
    mem.process_pending()
    ctx = mem.context(CHANNEL, "Which florist is doing the flowers?", budget=2000)
    lines = [line for line in ctx.text.splitlines() if "Bloomhouse" in line]
    assert lines and not marked(lines), lines


def test_another_ticket_of_the_same_series_marks_nothing(open_memory):
    """ "SEC-202 fixed too" is news of another ticket, not of SEC-201: words with digits
    are compared whole."""
    mem = open_memory(recent_turns=2, session_turns=50)
    said = ["SEC-201 fixed (CSP header), deploying Monday.", *(t for _, t in CHATTER)]
    said.append("SEC-202 fixed too, rate limiting on the reset endpoint.")
    for n, text in enumerate(said):
        mem.add_turn("project:soc2", text, "", at=T0 + timedelta(hours=3 * n), speaker="Pedro")
    mem.end_session("project:soc2")
    mem.process_pending()
    ctx = mem.context("project:soc2", "When does the SEC-201 fix deploy?", budget=2000)
    lines = [line for line in ctx.text.splitlines() if "SEC-201" in line]
    assert lines and not marked(lines), lines
