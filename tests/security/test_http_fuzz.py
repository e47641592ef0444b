"""The HTTP API survives schemathesis (issue 15, deliverable 9): generated requests, valid
and invalid, to every operation of the OpenAPI spec; no 5xx, no traceback."""

from pathlib import Path

import pytest

from tests.security.campaign import bench, seed
from tests.security.http_fuzz import fuzz_http
from threefold.domain import Trust

# slow: see pyproject.toml; reliability: the CI profile of issue 40 (`make reliability`)
pytestmark = [pytest.mark.slow, pytest.mark.reliability]


def test_no_server_errors_under_fuzzing(tmp_path: Path) -> None:
    with bench(tmp_path) as b:
        seed(b, per_stream=1)
        outcomes, failures = fuzz_http(b.http.app, b.headers("acme", Trust.FULL), examples=6)
    assert outcomes["2xx"] + outcomes["4xx"] > 100
    assert failures == []
