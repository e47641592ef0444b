"""Fuzzing of the public Python API (issue 15, measured 9): every public Memory method is
called with a mix of good arguments and hostile ones (wrong types, huge and negative
numbers, NaN, surrogates, NUL bytes, naive and extreme datetimes, stray objects).

The only errors allowed out are threefold's own (ThreefoldError); `call` returns what
came out so the test can assert it and the benchmark can count it.
"""

import inspect
from collections.abc import Callable
from datetime import UTC, datetime, timedelta, timezone
from typing import Any

from hypothesis import strategies as st

from threefold import Memory
from threefold.domain import FactCategory, SummaryKind, Trust, Visibility
from threefold.errors import ThreefoldError

FUZZED = (
    "add_turn",
    "write_fact",
    "search",
    "context",
    "timeline",
    "records",
    "facts",
    "fact",
    "fact_history",
    "summaries",
    "turns",
    "streams",
    "end_session",
    "ingest_message",
    "process_pending",
    "prepare_query",
    "import_jira",
    "import_slack",
    "refresh",
)
"""Every public method but close() and reembed(), which end or redo the whole memory."""

EDGE_TIMES = [
    datetime.max,
    datetime.min,
    datetime.max.replace(tzinfo=timezone(timedelta(hours=-12))),
    datetime.min.replace(tzinfo=timezone(timedelta(hours=12))),
    datetime(2099, 1, 1, tzinfo=UTC),
]
EDGE_INTS = [0, -1, 2**31, 2**63 - 1, 2**63, -(2**63) - 1, 2**64, 10**30]
EDGE_TEXT = ["", " ", "\x00", "a\x00b", "\udce9", "global", "project:", "::", "a" * 300]

HOSTILE = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(2**70), max_value=2**70),
    st.sampled_from(EDGE_INTS),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=40),
    st.sampled_from(EDGE_TEXT),
    st.binary(max_size=16),
    st.lists(st.text(max_size=6), max_size=3),
    st.dictionaries(st.text(max_size=4), st.integers(), max_size=2),
    st.datetimes(timezones=st.none() | st.just(UTC)),
    st.sampled_from(EDGE_TIMES),
    st.builds(object),
    st.just(Trust.PUBLIC),
)

STREAMS = st.sampled_from(["project:alpha", "global", "chat:8812"])
WORDS = st.sampled_from(["Raj is the Lead Architect.", "No, Lena is.", "deadline Friday"])
VALID: dict[str, st.SearchStrategy[Any]] = {
    "stream": STREAMS,
    "user": WORDS,
    "assistant": WORDS,
    "text": WORDS,
    "query": WORDS,
    "entity": st.sampled_from(["raj", "#general", "project:alpha", "@lena"]),
    "limit": st.integers(1, 20),
    "budget": st.integers(1, 3000),
    "fact_id": st.integers(1, 30),
    "trust": st.sampled_from(list(Trust)),
    "tenant": st.sampled_from(["default", "other"]),
    "kind": st.sampled_from(list(SummaryKind)),
    "kinds": st.lists(st.sampled_from(["fact", "turn", "summary", "record"]), max_size=2),
    "category": st.sampled_from(list(FactCategory)),
    "categories": st.lists(st.sampled_from(["role", "deadline"]), max_size=2),
    "confidence": st.floats(0.0, 1.0),
    "visibility": st.sampled_from(list(Visibility)),
    "at": st.datetimes(datetime(2020, 1, 1), datetime(2026, 1, 1), timezones=st.just(UTC)),
    "since": st.datetimes(datetime(2020, 1, 1), datetime(2026, 1, 1)),
    "until": st.datetimes(datetime(2020, 1, 1), datetime(2026, 1, 1)),
    "channel": st.sampled_from(["C1", "general"]),
    "ts": st.sampled_from(["1767000000.000100", 1767000001.5]),
    "thread_ts": st.none(),
    "channel_kind": st.sampled_from(["public", "private"]),
    "people": st.lists(st.sampled_from(["raj", "lena"]), max_size=2),
    "include_inactive": st.booleans(),
    "preset": st.sampled_from(["default", "facts_only"]),
    "key_id": st.none() | st.integers(1, 9),
}


def arguments(method: Callable[..., Any], data: st.DataObject) -> dict[str, Any]:
    """Keyword arguments for `method`: each required one and some optional ones, good
    but for one or two hostile ones, so that calls get past the first check too."""
    params = {n: p for n, p in inspect.signature(method).parameters.items() if n != "self"}
    hostile = data.draw(st.sets(st.sampled_from(sorted(params)), max_size=2), label="hostile")
    chosen = {}
    for name, param in params.items():
        optional = param.default is not inspect.Parameter.empty
        if name not in hostile and optional and not data.draw(st.booleans(), label=name):
            continue
        good = VALID.get(name, st.none())
        chosen[name] = data.draw(HOSTILE if name in hostile else good, label=name)
    return chosen


def call(mem: Memory, name: str, data: st.DataObject) -> BaseException | None:
    """Call `mem.<name>` with fuzzed arguments; what it raised, or None."""
    method = getattr(mem, name)
    try:
        method(**arguments(getattr(Memory, name), data))
    except Exception as exc:  # noqa: BLE001 - the caller judges what came out
        return exc
    return None


def campaign(mem: Memory, names: tuple[str, ...], examples: int) -> dict[str, dict[str, int]]:
    """{method: {outcome: count}} over `examples` fuzzed calls per method; an outcome is
    'ok', 'threefold' or the foreign exception's type name."""
    counts: dict[str, dict[str, int]] = {}
    for name in names:
        seen = counts.setdefault(name, {})
        _fuzzer(mem, name, seen, examples)()
    return counts


def _fuzzer(mem: Memory, name: str, seen: dict[str, int], examples: int) -> Callable[[], None]:
    from hypothesis import HealthCheck, given, settings

    @settings(
        max_examples=examples, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        raised = call(mem, name, data)
        outcome = "ok" if raised is None else type(raised).__name__
        if isinstance(raised, ThreefoldError):
            outcome = "threefold"
        seen[outcome] = seen.get(outcome, 0) + 1

    return fuzz
