"""Our fact annotations of LoCoMo's dialogue lines (benchmarks/data/locomo_facts/) and the
benchmark that joins them to LoCoMo's text at run time (benchmarks/locomo_facts.py).
LoCoMo itself is never needed here: the conversations below are written for these tests
in LoCoMo's JSON layout. Every shipped file is well formed, and a file that does not fit
its format or its conversation is named with the line or dialogue id at fault."""

import json
import re
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from tests.benchmark_modules import load_benchmark

ROOT = Path(__file__).resolve().parents[2]
BENCHMARKS = ROOT / "benchmarks"
ANNOTATIONS = BENCHMARKS / "data" / "locomo_facts"
DIA_ID = re.compile(r"D(\d+):(\d+)")


@pytest.fixture
def bench(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """benchmarks/locomo_facts.py, with its siblings (frozen_sets, locomo) importable."""
    monkeypatch.syspath_prepend(str(BENCHMARKS))
    return load_benchmark("locomo_facts")


def annotation_files() -> list[Path]:
    return sorted(ANNOTATIONS.glob("*.jsonl"))


def test_there_are_annotations_for_development_and_held_out() -> None:
    assert {"conv-26", "conv-30"} <= {path.stem for path in annotation_files()}


@pytest.mark.parametrize("path", annotation_files(), ids=lambda p: p.stem)
def test_an_annotation_file_is_well_formed(bench: ModuleType, path: Path) -> None:
    header, rows = bench.load_annotation(path)
    # a file is named by its sample, or by its sample and a part ("conv-42-later")
    assert path.stem == header["sample"] or path.stem.startswith(f"{header['sample']}-")
    assert header["set"] == f"locomo-{path.stem}"
    # LoCoMo numbers a session's lines from 1 without gaps: every line is here, in order.
    expected = [(s, i) for s in header["sessions"] for i in range(1, _count(rows, s) + 1)]
    said = [tuple(map(int, DIA_ID.fullmatch(row["dia_id"]).groups())) for row in rows]
    assert said == expected
    assert any(row.get("expects") for row in rows) and any(row.get("nothing") for row in rows)


def _count(rows: list[dict[str, Any]], session: int) -> int:
    return sum(row["dia_id"].startswith(f"D{session}:") for row in rows)


# -- a conversation written for these tests, in LoCoMo's layout ---------------------------

CHAT = {
    "sample_id": "conv-t1",
    "conversation": {
        "speaker_a": "Ines",
        "speaker_b": "Tomas",
        "session_1_date_time": "9:15 am on 4 March, 2024",
        "session_1": [
            {"speaker": "Ines", "dia_id": "D1:1", "text": "Morning! Did the rain stop there?"},
            {"speaker": "Tomas", "dia_id": "D1:2", "text": "I live in Porto, it never stops."},
        ],
        "session_2_date_time": "6:40 pm on 11 March, 2024",
        "session_2": [
            {
                "speaker": "Ines",
                "dia_id": "D2:1",
                "text": "I am allergic to peanuts, so no satay for me.",
                "blip_caption": "a photo of a bowl of noodles",
            },
        ],
    },
    "qa": [],
}
HEADER = {
    "header": True,
    "set": "locomo-conv-t1",
    "sample": "conv-t1",
    "sessions": [1, 2],
    "written": "for a test",
    "frozen": False,
}
ROWS = [
    {"dia_id": "D1:1", "nothing": True},
    {"dia_id": "D1:2", "expects": [{"category": "location", "value": "porto", "subject": "tomas"}]},
    {"dia_id": "D2:1", "expects": [{"category": "diet", "value": "peanut", "subject": "ines"}]},
]


def write(folder: Path, name: str, rows: list[Any]) -> Path:
    path = folder / f"{name}.jsonl"
    text = "\n".join(row if isinstance(row, str) else json.dumps(row) for row in rows)
    path.write_text(text + "\n", encoding="utf-8")
    return path


@pytest.fixture
def locomo_file(tmp_path: Path) -> Path:
    path = tmp_path / "locomo_test.json"
    path.write_text(json.dumps([CHAT]), encoding="utf-8")
    return path


def test_the_text_speaker_and_time_come_from_locomo(
    bench: ModuleType, tmp_path: Path, locomo_file: Path
) -> None:
    header, rows = bench.load_annotation(write(tmp_path, "conv-t1", [HEADER, *ROWS]))
    chat = bench.conversations(locomo_file, {"conv-t1"})["conv-t1"]
    lines = bench.annotated_lines("conv-t1", header, rows, chat)
    assert [line["speaker"] for line in lines] == ["Ines", "Tomas", "Ines"]
    # The text alone: a photo's caption is not the speaker's words.
    assert lines[2]["user"] == "I am allergic to peanuts, so no satay for me."
    assert lines[2]["at"].date().isoformat() == "2024-03-11"
    assert lines[0]["nothing"] is True and lines[1]["expects"] == ROWS[1]["expects"]


def test_a_run_scores_every_expect_and_every_nothing_line(
    bench: ModuleType, tmp_path: Path, locomo_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = write(tmp_path, "conv-t1", [HEADER, *ROWS])
    score = bench.run(locomo_file, [path], "rules", show_misses=True)["conv-t1"]
    assert (score.statements, score.silent_lines) == (2, 1)
    # Each plain statement is stored under its speaker's name, as the expects say.
    assert (score.captured, score.wrong, score.silent_kept) == (2, 0, 1)
    assert "conv-t1" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("rows", "names"),
    [
        ([ROWS[1], ROWS[0], ROWS[2]], "D1:2 where D1:1 comes"),
        (ROWS[:2], "2 lines for 3, from D2:1"),
        ([*ROWS, {"dia_id": "D2:2", "nothing": True}], "4 lines for 3, from D2:2"),
    ],
)
def test_lines_that_do_not_match_the_conversation_are_named(
    bench: ModuleType, tmp_path: Path, locomo_file: Path, rows: list[Any], names: str
) -> None:
    header, loaded = bench.load_annotation(write(tmp_path, "conv-t1", [HEADER, *rows]))
    chat = bench.conversations(locomo_file, {"conv-t1"})["conv-t1"]
    with pytest.raises(bench.AnnotationError, match=f"conv-t1: {names}"):
        bench.annotated_lines("conv-t1", header, loaded, chat)


def test_a_session_the_conversation_lacks_is_named(
    bench: ModuleType, tmp_path: Path, locomo_file: Path
) -> None:
    header, rows = bench.load_annotation(
        write(tmp_path, "conv-t1", [HEADER | {"sessions": [1, 2, 7]}, *ROWS])
    )
    chat = bench.conversations(locomo_file, {"conv-t1"})["conv-t1"]
    with pytest.raises(bench.AnnotationError, match=r"has no session \[7\]"):
        bench.annotated_lines("conv-t1", header, rows, chat)


def _expect(**changes: Any) -> dict[str, Any]:
    expect = {"category": "location", "value": "porto", "subject": "tomas"} | changes
    return {"dia_id": "D1:2", "expects": [{k: v for k, v in expect.items() if v is not None}]}


@pytest.mark.parametrize(
    ("line", "names"),
    [
        ("{not json", "not JSON"),
        ('["a list"]', "not a JSON object"),
        ({"expects": []}, "no dia_id"),
        ({"dia_id": "D1:2"}, "D1:2 needs a list of expects or nothing"),
        ({"dia_id": "D1:2", "expects": []}, "D1:2 needs a list of expects or nothing"),
        ({"nothing": True, **_expect()}, "D1:2 needs a list of expects or nothing"),
        ({"dia_id": "D1:2", "expects": "porto"}, "D1:2 needs a list of expects or nothing"),
        ({"dia_id": "D1:2", "expects": ["porto"]}, "D1:2: an expect is not an object"),
        (_expect(category="hobby"), "D1:2: category 'hobby' is not one of ours"),
        (_expect(category="deadline"), "D1:2: category 'deadline' is not one of ours"),
        (_expect(subject=None), "D1:2: subject must be lowercase words"),
        (_expect(value="Porto"), "D1:2: value must be lowercase words"),
        (_expect(value=" "), "D1:2: value must be lowercase words"),
        (_expect(correction=True), "D1:2: a correction is true and names the old value"),
        (_expect(old=3), "D1:2: old must be words"),
    ],
)
def test_a_malformed_line_is_named_by_file_and_line(
    bench: ModuleType, tmp_path: Path, line: Any, names: str
) -> None:
    path = write(tmp_path, "conv-t1", [HEADER, ROWS[0], "", line])
    with pytest.raises(bench.AnnotationError, match=f"conv-t1.jsonl:4: {re.escape(names)}"):
        bench.load_annotation(path)


@pytest.mark.parametrize(
    ("header", "names"),
    [
        (ROWS[0], "the first line is the header"),
        ({k: v for k, v in HEADER.items() if k != "frozen"}, "the first line is the header"),
        (HEADER | {"sessions": []}, "sessions must list session numbers"),
        (HEADER | {"sessions": ["1"]}, "sessions must list session numbers"),
        (HEADER | {"frozen": "no"}, "frozen must be true or false"),
    ],
)
def test_a_malformed_header_is_named(
    bench: ModuleType, tmp_path: Path, header: dict[str, Any], names: str
) -> None:
    path = write(tmp_path, "conv-t1", [header, *ROWS])
    with pytest.raises(bench.AnnotationError, match=f"conv-t1.jsonl:1: {names}"):
        bench.load_annotation(path)


def test_an_empty_file_is_named(bench: ModuleType, tmp_path: Path) -> None:
    path = tmp_path / "conv-t1.jsonl"
    path.write_text("\n", encoding="utf-8")
    with pytest.raises(bench.AnnotationError, match="conv-t1.jsonl: empty"):
        bench.load_annotation(path)


def test_without_the_locomo_file_the_run_says_what_it_needs(
    bench: ModuleType, tmp_path: Path
) -> None:
    with pytest.raises(SystemExit, match="no LoCoMo file at .*hold no text"):
        bench.conversations(tmp_path / "absent.json", {"conv-26"})


def test_a_sample_the_locomo_file_lacks_is_named(bench: ModuleType, locomo_file: Path) -> None:
    with pytest.raises(SystemExit, match="has no sample conv-99"):
        bench.conversations(locomo_file, {"conv-t1", "conv-99"})


def test_unknown_annotation_names_are_refused(bench: ModuleType) -> None:
    with pytest.raises(SystemExit, match="no annotations for conv-99"):
        bench.annotation_paths(frozen=False, only=("conv-99",))


def test_development_and_frozen_files_are_chosen_apart(bench: ModuleType) -> None:
    dev = bench.annotation_paths(frozen=False)
    frozen = bench.annotation_paths(frozen=True)
    assert {p.stem for p in dev} >= {"conv-26", "conv-30"}
    assert not {p.stem for p in dev} & {p.stem for p in frozen}
