"""An event time far ahead (`at` in 2099) is refused from every writer, the owner too, on
every face: a fact dated then would win every later correction of its slot. The error
names the limit, `writes.max_future_seconds`, and nothing is stored."""

import math
from datetime import timedelta
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.security.faces import faces
from threefold import Memory, load_settings
from threefold.domain import Trust, utcnow
from threefold.errors import InvalidInput
from threefold.faces.cli import app

STREAM = "user:ola"
FAR = "2099-01-01T00:00:00+00:00"


def _nothing_stored(mem: Memory) -> None:
    assert mem.turns(STREAM) == [] and mem.facts(STREAM, include_inactive=True) == []
    assert mem.job_counts()["pending"] == 0


def test_the_owner_is_refused_a_far_future_time_in_python(tmp_path: Path) -> None:
    with Memory.open(tmp_path / "m.db", background_worker=False) as mem:
        far = utcnow().replace(year=2099)
        with pytest.raises(InvalidInput, match=r"writes\.max_future_seconds"):
            mem.add_turn(STREAM, "I live in Oslo.", at=far)
        with pytest.raises(InvalidInput, match=r"86400 seconds"):
            mem.write_fact(STREAM, "The user lives in Oslo.", at=far)
        _nothing_stored(mem)
        # Within the skew (clocks differ), a time ahead is taken.
        mem.add_turn(STREAM, "I live in Oslo.", at=utcnow() + timedelta(hours=23))
        assert len(mem.turns(STREAM)) == 1


def test_a_full_key_is_refused_a_far_future_time_over_http(tmp_path: Path) -> None:
    with faces(tmp_path) as f:
        turn = {"stream": STREAM, "user": "I live in Oslo.", "at": FAR}
        fact = {"stream": STREAM, "text": "The user lives in Oslo.", "at": FAR}
        for path, body in (("/v1/turns", turn), ("/v1/facts", fact)):
            answer = f.post(Trust.FULL, path, body)
            assert answer.status_code == 422, answer.text
            error = answer.json()["error"]
            assert error["code"] == "invalid_input"
            assert "writes.max_future_seconds" in error["message"]
        f.memory.process_pending()
        _nothing_stored(f.memory)


def test_add_turn_on_the_command_line_refuses_a_far_future_time(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    done = runner.invoke(app, ["--db", db, "add-turn", STREAM, "--user", "Hi.", "--at", FAR])
    assert done.exit_code == 2, done.output
    assert "writes.max_future_seconds" in done.output and "Traceback" not in done.output
    with Memory.open(db, background_worker=False) as mem:
        _nothing_stored(mem)


def test_a_planned_timeline_raises_the_setting(tmp_path: Path, monkeypatch) -> None:
    settings = load_settings(db=tmp_path / "m.db", writes={"max_future_seconds": math.inf})
    with Memory.open(settings=settings, background_worker=False) as mem:
        mem.add_turn(STREAM, "Launch day.", at=utcnow().replace(year=2099))
        assert len(mem.turns(STREAM)) == 1
    monkeypatch.setenv("THREEFOLD_WRITES__MAX_FUTURE_SECONDS", "inf")
    db = str(tmp_path / "cli.db")
    done = CliRunner().invoke(app, ["--db", db, "add-turn", STREAM, "--user", "Hi.", "--at", FAR])
    assert done.exit_code == 0, done.output
