"""`threefold check` says who reads facts when the model is heuristic: the rules alone, or
the trained reader beside them, as `model.options.reader` chose."""

import json

import pytest
from typer.testing import CliRunner

from threefold import Memory, load_settings
from threefold.extras import has_extra
from threefold.faces.cli import app

runner = CliRunner()


def check(db: str, reader: str, *args: str):
    env = {"COLUMNS": "200", "THREEFOLD_MODEL__OPTIONS__READER": reader}
    return runner.invoke(app, ["--db", db, "check", *args], env=env)


def test_the_rules_alone_are_named(tmp_path) -> None:
    db = str(tmp_path / "m.db")

    text = check(db, "rules")
    as_json = check(db, "rules", "--format", "json")

    assert text.exit_code == 0, text.output
    assert "model heuristic (facts read by the rules alone: reader rules)" in text.output
    assert json.loads(as_json.output)["fact_reader"] == "rules"


@pytest.mark.skipif(not has_extra("local"), reason="the trained reader needs the local extra")
@pytest.mark.parametrize(("reader", "named"), [("auto", "tuned"), ("trained", "trained")])
def test_the_trained_reader_beside_the_rules_is_named(tmp_path, reader: str, named: str) -> None:
    result = check(str(tmp_path / "m.db"), reader)

    assert result.exit_code == 0, result.output
    assert f"the rules and the trained reader: reader {named})" in result.output


def test_memory_names_its_fact_reader(tmp_path) -> None:
    settings = load_settings(db=tmp_path / "m.db", model={"options": {"reader": "rules"}})
    with Memory.open(settings=settings) as memory:
        assert memory.fact_reader == "rules"
