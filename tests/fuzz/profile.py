"""How hard the property tests of tests/fuzz push: a quick profile in the normal suite, the
campaign when THREEFOLD_FUZZ=campaign (or `make fuzz`).

    THREEFOLD_FUZZ=campaign python -m pytest tests/fuzz -p no:cacheprovider

The quick profile is derandomized, so the suite sees the same examples every run and a
failure there is a failure of the change, not of luck; the campaign draws fresh examples
and runs 300 times as many: 6,000 for each of the seven properties, 42,000 in all, of which
the deep-JSON property sends two requests each (48,000 calls and requests).
"""

import os

from hypothesis import HealthCheck, settings

PROFILES = {
    "quick": settings(
        max_examples=20,
        deadline=None,
        database=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    ),
}
PROFILES["campaign"] = settings(PROFILES["quick"], max_examples=6000, derandomize=False)

NAME = os.environ.get("THREEFOLD_FUZZ", "quick")
if NAME not in PROFILES:
    raise SystemExit(f"THREEFOLD_FUZZ must be one of {sorted(PROFILES)}, not {NAME!r}")
FUZZ = PROFILES[NAME]
"""Decorate each property with this."""
