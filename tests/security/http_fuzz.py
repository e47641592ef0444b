"""Fuzzing of the HTTP API against its own OpenAPI spec with schemathesis: every
operation gets generated requests, valid and invalid (negative mode), with a full key so
they reach the handlers. No answer may be a 5xx or carry a traceback."""

from collections import Counter
from collections.abc import Callable

import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode

SKIPPED_PATHS = r"^/v1/imports"
"""Uploads queue background imports, which have their own hostile-archive tests."""


def fuzz_http(
    app: FastAPI, headers: dict[str, str], examples: int
) -> tuple[Counter[str], list[str]]:
    """({outcome: count}, failures) over `examples` requests per operation and mode; an
    outcome is '2xx', '4xx', '5xx', or 'no invalid form' for an operation whose requests
    cannot be made invalid."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", app).exclude(path_regex=SKIPPED_PATHS)
    outcomes: Counter[str] = Counter()
    failures: list[str] = []
    for result in schema.get_all_operations():
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            try:
                _runner(operation, mode, headers, examples, outcomes, failures)()
            except Unsatisfiable:  # no parameters to make invalid, as for GET /v1/stats
                outcomes["no invalid form"] += 1
    return outcomes, failures


def _runner(
    operation: schemathesis.APIOperation,
    mode: GenerationMode,
    headers: dict[str, str],
    examples: int,
    outcomes: Counter[str],
    failures: list[str],
) -> Callable[[], None]:
    @settings(
        max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(case=operation.as_strategy(generation_mode=mode))
    def run(case: schemathesis.Case) -> None:
        response = case.call(headers=headers)
        outcomes[f"{response.status_code // 100}xx"] += 1
        if response.status_code >= 500 or "Traceback" in response.text:
            failures.append(
                f"{operation.label} {mode.value}: {response.status_code} {response.text[:200]}"
            )

    return run
