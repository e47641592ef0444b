"""What a tracker's workflow status says: whether the work is over. Apart from the Jira
reader so that a context reading stored issues does not load the CSV reader."""

# Statuses and resolutions that mean "finished" when the export has no Status Category.
DONE_WORDS = frozenset(
    {
        "done",
        "closed",
        "resolved",
        "complete",
        "completed",
        "fixed",
        "won't do",
        "won't fix",
        "duplicate",
        "cancelled",
        "canceled",
    }
)


def finished_status(status: str | None) -> bool:
    """Whether a workflow status means the work is over, when Jira's category is unknown."""
    return status_word(status) in DONE_WORDS


def status_word(text: str | None) -> str:
    return "" if text is None else text.strip().casefold().replace("\u2019", "'")
