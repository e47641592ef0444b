"""The reader's development sets (benchmarks/data/reader_dev/): conversations in voices the
training lines never used, on which training/calibrate.py chooses the tuned reader's bars
and benchmarks/frozen_sets.py --dir prints its table. Here: every set is well formed (what
the scorer and the calibration rely on), and a malformed line is named by file and line."""

from pathlib import Path
from types import ModuleType

import pytest

from tests.benchmark_modules import load_benchmark
from threefold.domain import FactCategory

ROOT = Path(__file__).resolve().parents[2]
DEV_SETS = ROOT / "benchmarks" / "data" / "reader_dev"
CATEGORIES = {c.value for c in FactCategory}


def frozen_sets() -> ModuleType:
    """benchmarks/frozen_sets.py, the scorer the development sets share with the frozen ones."""
    return load_benchmark("frozen_sets")


def dev_set_paths() -> list[Path]:
    return sorted(DEV_SETS.glob("*.jsonl"))


def test_there_are_development_sets() -> None:
    assert len(dev_set_paths()) >= 6


@pytest.mark.parametrize("path", dev_set_paths(), ids=lambda p: p.stem)
def test_a_development_set_is_well_formed(path: Path) -> None:
    header, lines = frozen_sets().load(path)
    assert header.get("frozen") is False, "a development set is not frozen"
    said: dict[str, str] = {}
    for line in lines:
        chat = str(line.get("chat", path.stem))
        said[chat] = said.get(chat, "") + " " + line.get("asked", "") + " " + line["user"]
        assert bool(line.get("nothing")) != bool(line.get("expects")), line["user"]
        for expect in line.get("expects", ()):
            assert expect["category"] in CATEGORIES, expect
            assert expect["value"] == expect["value"].lower(), expect
            if "old" in expect:  # an update names a value said before in its chat
                assert expect["old"].lower() in said[chat].lower(), expect


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("{not json", "not JSON"),
        ('["a list"]', "not a JSON object"),
        ('{"chat": "c1", "expects": []}', "no 'user' text"),
        ('{"user": "hi", "expects": [{"value": "x"}]}', "an expect without category and value"),
    ],
)
def test_a_malformed_line_is_named_by_file_and_line(tmp_path: Path, text: str, names: str) -> None:
    path = tmp_path / "broken.jsonl"
    header = '{"header": true, "set": "broken", "frozen": false}'
    path.write_text(f'{header}\n{{"user": "I live in Leeds."}}\n\n{text}\n', encoding="utf-8")
    module = frozen_sets()
    with pytest.raises(module.SetFormatError, match=f"broken.jsonl:4: {names}"):
        module.load(path)


@pytest.mark.parametrize(
    ("stored", "expected", "says"),
    [
        ("march 12", "12 march", True),  # the same date, day and month the other way
        ("october 2", "second of october", True),
        ("june 8", "june the eighth", True),
        ("november 22", "22 nov", True),
        ("73", "seventy three", True),  # a number said in words
        ("74", "seventy-four", True),
        ("june 21", "14 june", False),  # another day of the month
        ("june 1", "june 18", False),  # a day is a whole number, not its first digit
        ("1", "eleven", False),
        ("march 12", "march", True),  # the words alone, as before
    ],
)
def test_the_judge_reads_dates_and_numbers_by_meaning(stored, expected, says) -> None:
    assert frozen_sets()._says(stored, expected) is says


def test_the_literal_judge_compares_words_alone() -> None:
    module = frozen_sets()
    module.BY_MEANING = False
    assert not module._says("march 12", "12 march")
    assert module._says("march 12", "march")
