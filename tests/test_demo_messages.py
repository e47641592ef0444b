"""`threefold demo`: its options are checked, and what it says of the story, the turns it
wrote and what it left out is true for any --turns."""

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from threefold.faces.cli import app

runner = CliRunner()


def demo(*args: str):
    return runner.invoke(app, ["demo", *args], env={"COLUMNS": "200"})


@pytest.mark.parametrize("option", [["--turns", "-3"], ["--budget", "0"]])
def test_a_negative_count_or_an_empty_budget_is_refused(tmp_path: Path, option) -> None:
    done = demo("--db", str(tmp_path / "d.db"), *option)
    assert done.exit_code == 2 and "Invalid value" in done.output
    assert not (tmp_path / "d.db").exists()


def test_a_short_story_says_what_is_still_recent(tmp_path: Path) -> None:
    said = demo("--db", str(tmp_path / "d.db"), "--turns", "5").output
    assert "Then 5 more about other work follow" in said
    assert "turn 40 is still among the last 10 turns" in said
    # a count of -3 turns, not the "-3" of a temporary folder's name ("pytest-39")
    assert "all four have left" not in said and not re.search(r"(?<![\w/])-3\b", said)
    assert "45 turns written" in said and "(the story's 40 and 5 more)" in said


def test_a_longer_story_says_the_key_turns_left_the_recent_ones(tmp_path: Path) -> None:
    said = demo("--db", str(tmp_path / "d.db"), "--turns", "12").output
    assert "all four have left the last 10 turns" in said
    assert "52 turns written" in said and "(the story's 40 and 12 more)" in said


@pytest.mark.parametrize("budget", ["6000", "400"])
def test_left_out_is_titled_and_named_only_when_printed(tmp_path: Path, budget: str) -> None:
    said = demo("--db", str(tmp_path / "d.db"), "--turns", "0", "--budget", budget).output
    lines = said.splitlines()
    printed = "== Left out, and why ==" in lines
    if printed:
        under = lines[lines.index("== Left out, and why ==") + 1]
        assert under == "section\tsource\ttokens\twhy"
    assert ('"Left out" says' in said) == printed
    assert ("nothing was kept out of the context" in said) == (not printed)
    if budget == "400":
        assert printed
