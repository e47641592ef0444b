"""Team intelligence: entity profiles, proactive actions and daily digests."""

from threefold.team.model import (
    Action,
    ActionStatus,
    DailyDigest,
    Digest,
    MoodTrend,
    Profile,
    ProfileItem,
)
from threefold.team.service import RebuildReport, Team

__all__ = [
    "Action",
    "ActionStatus",
    "DailyDigest",
    "Digest",
    "MoodTrend",
    "Profile",
    "ProfileItem",
    "RebuildReport",
    "Team",
]
