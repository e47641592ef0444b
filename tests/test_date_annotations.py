"""How a relative date is written beside its words in summaries and lines: the ISO day, or
the span of days a range names ("2-4 May" is 2 to 4 May, not the 4th alone), placed after
the date and before the sentence's full stop; unannotated() gives back what was said."""

from datetime import UTC, datetime

import pytest

from threefold.dates import annotate, unannotated

SAID = datetime(2026, 3, 17, 10, tzinfo=UTC)


@pytest.mark.parametrize(
    ("said", "written"),
    [
        (
            "Looking at 2-4 May for Ines's hen weekend",
            "Looking at 2-4 May (2026-05-02 – 2026-05-04) for Ines's hen weekend",
        ),
        ("away 12th–14th June", "away 12th–14th June (2026-06-12 – 2026-06-14)"),
        ("The MRI is on 9 March.", "The MRI is on 9 March (2027-03-09)."),
        (
            "I'm booked in for the MRI on 27 March.",
            "I'm booked in for the MRI on 27 March (2026-03-27).",
        ),
        ("Mar. 20 works", "Mar. 20 (2026-03-20) works"),
    ],
)
def test_a_date_is_written_beside_its_words(said: str, written: str) -> None:
    assert annotate(said, SAID) == written
    assert unannotated(written) == said
