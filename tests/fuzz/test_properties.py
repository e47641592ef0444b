"""Properties of the public API's input surfaces, checked with hypothesis (issue 40,
deliverable 6): stream names, turn text, event times and dates in text, budgets, and JSON
bodies over HTTP. Each holds for every input, good or hostile: what is accepted comes back
as it was given, what is refused is refused with threefold's own error (a 4xx over HTTP),
and nothing else comes out. tests/fuzz/profile.py says how many examples each property
gets: a quick, fixed set in the normal suite, the campaign on request.

Everything is real: one SQLite file per module, the FastAPI app behind TestClient.
"""

import json
from collections.abc import Iterator
from datetime import UTC, date, datetime, timedelta, timezone
from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import given
from hypothesis import strategies as st

from tests.fuzz.profile import FUZZ
from threefold import Memory, load_settings
from threefold.dates import annotate, find_dates
from threefold.errors import InvalidInput, ThreefoldError
from threefold.faces.http import create_app
from threefold.trust.keys import create_key

# In the CI profile of issue 40 (`make reliability`), see pyproject.toml.
pytestmark = pytest.mark.reliability

STREAM = "project:fuzz"


@pytest.fixture(scope="module")
def mem(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Memory]:
    folder = tmp_path_factory.mktemp("fuzz")
    settings = load_settings(embed={"kind": "hashing"})
    memory = Memory.open(folder / "fuzz.db", settings=settings, background_worker=False)
    memory.add_turn(STREAM, "Raj is the Lead Architect and the freeze is on Thursday.", "Noted.")
    memory.write_fact(STREAM, "The release deadline is 2026-04-30.")
    yield memory
    memory.close()


@pytest.fixture(scope="module")
def http(mem: Memory) -> Iterator[tuple[TestClient, dict[str, str]]]:
    app = create_app(mem, mem.settings, close_memory=False)
    _, secret = create_key(mem.store, mem.tenant, "full", label="fuzz")
    with TestClient(app, raise_server_exceptions=False) as client:
        yield client, {"Authorization": f"Bearer {secret}"}


# -- what the strategies draw -------------------------------------------------------------

STREAM_NAMES = st.one_of(
    st.text(max_size=40),
    st.builds(
        lambda kind, ident: f"{kind}:{ident}",
        st.from_regex(r"[a-z0-9_-]{0,12}", fullmatch=True),
        st.text(max_size=30),
    ),
    st.sampled_from(["global", "project:", ":x", "chat:a b", "chat:\x00", "x" * 500]),
)
TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)) | st.sampled_from("\x00\n\r\t\u202e"),
    max_size=300,
)
EDGE_DAYS = [date.min, date.max, date(2024, 2, 29), date(1970, 1, 1), date(2000, 12, 31)]
DAYS = st.dates() | st.sampled_from(EDGE_DAYS)
DAY_WRITINGS = st.sampled_from(
    [
        "{d:%Y-%m-%d}",
        "{d:%B} {d.day}, {d.year}",
        "{d.day} {d:%B} {d.year}",
        "{d:%B} {d.day}",
        "the {d.day}th",
        "{d:%A}",
        "since {d:%A}",
        "by {d:%A}",
        "last {d:%A}",
        "next {d:%A}",
        "{d.year}-02-29",
        "the 32nd",
        "10000-01-01",
    ]
)
SENTENCES = st.builds(
    lambda lead, writing, day, tail: f"{lead} {writing.format(d=day)}{tail}",
    st.sampled_from(["We shipped it", "The freeze is", "Let's meet", "It has been red", ""]),
    DAY_WRITINGS,
    DAYS,
    st.sampled_from([".", "?", " and we will see.", ", then nothing."]),
)
EVENT_TIMES = st.one_of(
    st.datetimes(timezones=st.just(UTC)),
    st.datetimes(),  # naive
    st.sampled_from(
        [
            datetime.max,
            datetime.min,
            datetime.max.replace(tzinfo=timezone(timedelta(hours=-12))),
            datetime.min.replace(tzinfo=timezone(timedelta(hours=14))),
        ]
    ),
)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=12,
)


def _deep(depth: int) -> str:
    return "[" * depth + "]" * depth


# -- the Python API -----------------------------------------------------------------------


@FUZZ
@given(stream=STREAM_NAMES, text=TEXT)
def test_a_turn_is_stored_verbatim_or_refused_as_invalid(mem: Memory, stream: str, text: str):
    try:
        turn = mem.add_turn(stream, text, "Noted.")
    except InvalidInput:
        return
    assert mem.turns(stream, limit=1)[0].user == text == turn.user
    assert stream in [s.name for s in mem.streams()]


@FUZZ
@given(at=EVENT_TIMES, text=SENTENCES)
def test_any_event_time_and_any_named_day_store_or_refuse(mem: Memory, at: datetime, text: str):
    try:
        turn = mem.add_turn(STREAM, text, "Noted.", at=at)
    except ThreefoldError:
        return
    assert mem.turns(STREAM, limit=1)[0].id == turn.id
    assert mem.process_pending() >= 0  # extraction reads the named days without failing


@FUZZ
@given(
    text=SENTENCES,
    at=st.datetimes(timezones=st.just(UTC))
    | st.sampled_from([datetime.min.replace(tzinfo=UTC), datetime.max.replace(tzinfo=UTC)]),
)
def test_dates_in_text_resolve_inside_the_calendar(text: str, at: datetime) -> None:
    for hit in find_dates(text, at):
        assert date.min <= hit.day <= date.max
        assert text[hit.start : hit.end] == hit.phrase
    assert annotate(text, at).startswith(text.split(" ", 1)[0])


@FUZZ
@given(query=TEXT | SENTENCES, budget=st.integers(-5, 10**6) | st.sampled_from([0, 1, 2**63]))
def test_context_fits_its_budget_or_refuses_it(mem: Memory, query: str, budget: int) -> None:
    try:
        context = mem.context(STREAM, query, budget)
    except InvalidInput:
        assert budget < 1 or budget > 10**6
        return
    assert context.budget == budget
    assert context.tokens <= budget, (budget, context.tokens)


@FUZZ
@given(query=TEXT | SENTENCES, limit=st.integers(-3, 200))
def test_search_answers_or_refuses_with_its_own_error(mem: Memory, query: str, limit: int):
    try:
        hits = mem.search(query, stream=STREAM, limit=limit)
    except InvalidInput:
        return
    assert all(hit.stream == STREAM for hit in hits)


# -- JSON bodies over HTTP ----------------------------------------------------------------

ROUTES = ["/v1/turns", "/v1/facts", "/v1/context", "/v1/search"]
SHAPED = {
    "/v1/turns": st.fixed_dictionaries(
        {"stream": STREAM_NAMES, "user": TEXT},
        optional={"at": st.sampled_from(["0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z"])},
    ),
    "/v1/facts": st.fixed_dictionaries(
        {"stream": STREAM_NAMES, "text": TEXT},
        optional={"slot": TEXT, "subject": TEXT, "confidence": st.floats()},
    ),
    "/v1/context": st.fixed_dictionaries(
        {"stream": STREAM_NAMES, "query": TEXT | SENTENCES},
        optional={"budget": st.integers(-5, 2**64), "timezone": TEXT},
    ),
    "/v1/search": st.fixed_dictionaries(
        {"query": TEXT | SENTENCES},
        optional={"limit": st.integers(-5, 500), "since": st.sampled_from(["0001-01-01", "x"])},
    ),
}


def _answered_well(response: Any) -> None:
    assert response.status_code < 500, response.text[:300]
    assert "Traceback" not in response.text
    if response.status_code >= 400:
        assert isinstance(response.json(), dict)  # an error body, never a bare page


@FUZZ
@given(route=st.sampled_from(ROUTES), data=st.data())
def test_every_post_route_answers_any_json_body_without_a_server_error(http, route, data):
    client, headers = http
    body = data.draw(JSON | SHAPED[route], label="body")
    _answered_well(client.post(route, content=json.dumps(body), headers=headers))


@FUZZ
@given(route=st.sampled_from(ROUTES), depth=st.integers(900, 100_000), raw=st.binary(max_size=64))
def test_deep_or_broken_json_is_refused_as_a_client_error(http, route, depth, raw) -> None:
    client, headers = http
    for body in (_deep(depth).encode(), raw):
        response = client.post(route, content=body, headers=headers)
        _answered_well(response)
        assert response.status_code != 201
