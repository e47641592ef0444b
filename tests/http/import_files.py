"""A Slack export big enough that its import takes a while, for tests that watch an
import's progress while it runs."""

import json
import zipfile
from datetime import date, timedelta
from pathlib import Path

from tests.http.test_sources import CHANNELS, message

USERS = [
    {"id": "U7", "name": "quinn", "profile": {"display_name": "Quinn"}},
    {"id": "U8", "name": "noor", "profile": {"display_name": "Noor"}},
]
"""People no other test talks about, so their thousands of messages crowd no one's timeline."""

SENTENCES = (
    "Noor will finish the billing migration before the release.",
    "We decided to keep the weekly demo on Thursdays.",
    "The dashboard still loads slowly for the Berlin office.",
    "Quinn asked for the staging credentials to be rotated.",
    "The vendor contract renews at the end of the quarter.",
)


def long_slack_zip(path: Path, days: int = 120, per_day: int = 8) -> Path:
    """`days` day files of #apollo-eng, compressed: small to upload, long to import."""
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("users.json", json.dumps(USERS))
        archive.writestr("channels.json", json.dumps(CHANNELS))
        for day in range(days):
            minutes = day * 24 * 60
            talk = [
                message(minutes + n, ("U7", "U8")[n % 2], f"Day {day}: {SENTENCES[n % 5]}")
                for n in range(per_day)
            ]
            when = date(2026, 3, 2) + timedelta(days=day)
            archive.writestr(f"apollo-eng/{when.isoformat()}.json", json.dumps(talk))
    return path
