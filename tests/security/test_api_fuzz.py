"""The Python API raises only threefold's own errors (issue 15, measured 9): each public
Memory method is fuzzed with hypothesis, good and hostile arguments mixed."""

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.security.fuzz import FUZZED, call
from threefold import Memory, load_settings
from threefold.errors import ThreefoldError

# slow: see pyproject.toml; reliability: the CI profile of issue 40 (`make reliability`)
pytestmark = [pytest.mark.slow, pytest.mark.reliability]


@pytest.mark.parametrize("name", FUZZED)
def test_only_threefold_errors_come_out(tmp_path: Path, name: str) -> None:
    mem = Memory.open(
        tmp_path / "fuzz.db",
        settings=load_settings(embed={"kind": "hashing"}),
        background_worker=False,
    )
    mem.add_turn("project:alpha", "Raj is the Lead Architect.", "Noted.")
    mem.write_fact("project:alpha", "The deadline is Friday.")

    @settings(
        max_examples=40, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
    )
    @given(data=st.data())
    def fuzz(data: st.DataObject) -> None:
        raised = call(mem, name, data)
        assert raised is None or isinstance(raised, ThreefoldError), repr(raised)

    try:
        fuzz()
    finally:
        mem.close()
