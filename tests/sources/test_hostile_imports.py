"""Hostile exports and CSVs: each test names the attack it tries. The limits are set small so
that the real limit triggers on files of a few MiB; benchmarks/campaign.py runs the full size."""

import csv
import json
import os
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from tests.sources.exports import CHANNELS, DAY, USERS, msg, write_export, zip_folder
from threefold.errors import InvalidInput
from threefold.settings import ImportLimits
from threefold.sources.slack import SlackExport
from threefold.tokens import count_tokens

MIB = 1024 * 1024
SMALL = {"max_file_bytes": MIB, "max_total_bytes": 8 * MIB, "max_files": 50}


def bomb_export(target: Path, bomb_bytes: int) -> Path:
    """A zip with one good day and one day file that inflates to `bomb_bytes` of spaces
    (valid JSON whitespace, so only a size limit can stop it)."""
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        archive.writestr("users.json", json.dumps(USERS))
        archive.writestr("channels.json", json.dumps(CHANNELS))
        archive.writestr(f"general/{DAY}.json", json.dumps([msg("1490000000.000100", "kept")]))
        with archive.open("general/2017-03-21.json", "w", force_zip64=True) as member:
            member.write(b"[")
            block = b" " * MIB
            for _ in range(bomb_bytes // MIB):
                member.write(block)
            member.write(b"]")
    return target


def test_zip_bomb_member_is_refused_before_it_is_inflated(tmp_path: Path, open_memory) -> None:
    # Attack: a 64 MiB day file packed into a zip of about 64 KiB (1000:1), against a 1 MiB cap.
    archive = bomb_export(tmp_path / "bomb.zip", 64 * MIB)
    assert archive.stat().st_size < MIB
    mem = open_memory(imports=SMALL)
    count_tokens("load the tokenizer's tables before measuring")
    tracemalloc.start()
    try:
        report = mem.import_slack(archive, process=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert report.kept == 1
    [problem] = report.problems
    assert problem.path == "general/2017-03-21.json"
    assert "refused" in problem.error and "imports.max_file_bytes" in problem.error
    assert peak < 4 * MIB  # nothing near the 64 MiB the member would inflate to


def test_zip_member_lying_about_its_size_is_stopped(tmp_path: Path) -> None:
    # Attack: the zip's headers claim the 8 MiB member is 100 bytes, to slip past the check.
    archive = bomb_export(tmp_path / "liar.zip", 8 * MIB)
    data = bytearray(archive.read_bytes())
    _rewrite_sizes(data, b"general/2017-03-21.json", 100)
    archive.write_bytes(bytes(data))
    with SlackExport.open(archive, ImportLimits(**SMALL)) as export:
        kept = list(export.messages())
        problems = export.problems
    assert [m.text for m in kept] == ["kept"]
    # zipfile inflates no more than the size a header declares, then finds the CRC wrong.
    assert [(p.path, "Bad CRC" in p.error) for p in problems] == [("general/2017-03-21.json", True)]


def _rewrite_sizes(data: bytearray, name: bytes, size: int) -> None:
    """Set the uncompressed size in the local and central headers naming `name`."""
    for signature, size_at, name_at in ((b"PK\x03\x04", 22, 30), (b"PK\x01\x02", 24, 46)):
        start = 0
        while (start := data.find(signature, start)) >= 0:
            if data[start + name_at : start + name_at + len(name)] == name:
                data[start + size_at : start + size_at + 4] = size.to_bytes(4, "little")
            start += 4


def test_export_inflating_past_the_total_is_refused_whole(tmp_path: Path) -> None:
    # Attack: twelve day files each under the file cap, together over the 8 MiB total.
    days = {"general": {f"2017-03-{n:02}": b"[" + b" " * (MIB - 10) + b"]" for n in range(1, 13)}}
    archive = zip_folder(write_export(tmp_path / "x", days), tmp_path / "wide.zip")
    with pytest.raises(InvalidInput, match="imports.max_total_bytes"):
        SlackExport.open(archive, ImportLimits(**SMALL))


def test_export_with_too_many_files_is_refused(tmp_path: Path) -> None:
    # Attack: 60 tiny members against a 50-file cap (a central directory meant to eat memory).
    days = {"general": {f"2017-{m:02}-{d:02}": [] for m in range(1, 4) for d in range(1, 21)}}
    archive = zip_folder(write_export(tmp_path / "x", days), tmp_path / "many.zip")
    with pytest.raises(InvalidInput, match="imports.max_files"):
        SlackExport.open(archive, ImportLimits(**SMALL))


def test_folder_symlinks_out_of_the_export_are_refused(tmp_path: Path, open_memory) -> None:
    # Attack: a day file and a whole channel folder that are symlinks to files outside.
    secret = tmp_path / "secret.json"
    secret.write_text(json.dumps([msg("1490000000.000200", "outside secret")]))
    root = write_export(tmp_path / "export", {"general": {DAY: [msg("1490000000.000100")]}})
    os.symlink(secret, root / "general" / "2017-03-21.json")
    outside = tmp_path / "outside-channel"
    outside.mkdir()
    os.symlink(secret, outside / "2017-03-22.json")
    os.symlink(outside, root / "random")
    inside = root / "general" / "2017-03-23.json"
    os.symlink(root / "general" / f"{DAY}.json", inside)  # inside the export: allowed
    report = open_memory().import_slack(root)
    assert sorted(p.path for p in report.problems) == [
        "general/2017-03-21.json",
        "random/2017-03-22.json",
    ]
    assert all("symlink to outside" in p.error for p in report.problems)
    assert report.read == 2  # the day and its in-export link (the same message, once stored)


def test_metadata_symlinked_out_of_the_export_refuses_it(tmp_path: Path) -> None:
    # Attack: channels.json pointing at a file elsewhere on the machine.
    elsewhere = tmp_path / "elsewhere.json"
    elsewhere.write_text(json.dumps(CHANNELS))
    root = write_export(tmp_path / "export", {}, channels=None)
    os.symlink(elsewhere, root / "channels.json")
    with pytest.raises(InvalidInput, match="symlink to outside"):
        SlackExport.open(root)


def test_deeply_nested_json_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    # Attack: a day file of 200,000 nested lists, to exhaust the parser's recursion.
    nested = b"[" * 200_000 + b"]" * 200_000
    root = write_export(tmp_path / "export", {"general": {DAY: nested}})
    with SlackExport.open(root) as export:
        assert list(export.messages()) == []
        [problem] = export.problems
    assert "nested too deeply" in problem.error


def test_many_bad_messages_make_a_short_report(tmp_path: Path, open_memory) -> None:
    # Attack: a day file of 100,000 messages without a ts, each one a problem to report.
    root = write_export(tmp_path / "export", {"general": {DAY: b"[" + b"{}," * 99_999 + b"{}]"}})
    report = open_memory().import_slack(root, process=False)
    assert len(report.problems) == 101
    assert report.problems[-1].error == "and 99,900 more problems, not listed"


def test_message_over_max_turn_chars_is_skipped(tmp_path: Path, open_memory) -> None:
    # Attack: one 300,000-character message in an export, against max_turn_chars 100,000.
    day = [msg("1490000000.000100", "x" * 300_000), msg("1490000001.000100", "short")]
    root = write_export(tmp_path / "export", {"general": {DAY: day}})
    mem = open_memory(max_turn_chars=100_000)
    report = mem.import_slack(root, process=False)
    assert report.kept == 1
    [problem] = report.problems
    assert "over max_turn_chars" in problem.error
    assert [r.text for r in mem.records("global", source="slack")] == ["short"]


# --- Jira CSVs -----------------------------------------------------------------------------

HEADER = ["Issue key", "Summary", "Description"]


def write_rows(path: Path, rows: list[list[str]]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(HEADER)
        writer.writerows(rows)
    return path


def test_cell_over_the_csv_field_limit_costs_only_its_row(tmp_path: Path, open_memory) -> None:
    # Attack: a 200,000-character multi-line description (csv's own limit is 131,072) at row
    # 600, after the first transaction of 500 rows has been committed.
    rows = [[f"ALPHA-{n}", f"task {n}", "ok"] for n in range(1, 801)]
    rows[599][2] = "line\n" * 40_000
    path = write_rows(tmp_path / "jira.csv", rows)
    mem = open_memory(projects=[{"stream": "project:alpha", "key": "ALPHA"}])
    report = mem.import_jira(path)
    assert report.kept == 799
    [problem] = report.problems
    assert problem.path.startswith("row 601") and "field larger than field limit" in problem.error
    stored = {r.external_id.split("@")[0] for r in mem.records("project:alpha", source="jira")}
    assert "ALPHA-601" in stored and "ALPHA-800" in stored and "ALPHA-600" not in stored


def test_row_over_max_row_bytes_is_skipped_unread(tmp_path: Path, open_memory) -> None:
    # Attack: a 3 MiB single-line row, against a 64 KiB row cap; and an unclosed quote at the
    # end that swallows the rest of the file into one record.
    rows = [["ALPHA-1", "a", "ok"], ["ALPHA-2", "b", "y" * (3 * MIB)], ["ALPHA-3", "c", "ok"]]
    path = write_rows(tmp_path / "jira.csv", rows)
    with path.open("a", encoding="utf-8") as handle:
        handle.write('ALPHA-4,"never closed\n' + "z" * 100_000 + "\n")
    mem = open_memory(imports={"max_row_bytes": 64 * 1024})
    report = mem.import_jira(path)
    assert report.kept == 2
    assert [(p.path, "max_row_bytes" in p.error) for p in report.problems] == [
        ("row 3", True),
        ("row 5", True),
    ]


def test_issue_text_over_max_turn_chars_is_skipped(tmp_path: Path, open_memory) -> None:
    # Attack: a 60,000-character summary, against max_turn_chars 10,000.
    rows = [["ALPHA-1", "s" * 60_000, ""], ["ALPHA-2", "fine", ""]]
    mem = open_memory(max_turn_chars=10_000)
    report = mem.import_jira(write_rows(tmp_path / "jira.csv", rows))
    assert report.kept == 1
    [problem] = report.problems
    assert "ALPHA-1" in problem.error and "over max_turn_chars" in problem.error
