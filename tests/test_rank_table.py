"""The rank table file (rank_table.py) answers as the dict of ranks it was made from, and a
damaged or cut file is refused whole, then made again by the token counter."""

from pathlib import Path

import pytest

from threefold import tokens
from threefold.rank_table import DamagedTable, RankTable, table_bytes


def test_every_rank_and_some_absent_keys_read_as_from_the_dict(tmp_path: Path) -> None:
    ranks = tokens._ranks()
    path = tmp_path / "o200k.ranks"
    path.write_bytes(table_bytes(ranks))
    table = RankTable(path)
    assert all(table[key] == rank for key, rank in ranks.items())
    for absent in (b"", b"\xff\xfe\xfd\xfc-not-a-token", b"x" * 300):
        assert absent not in table and table.get(absent, -1) == -1
        with pytest.raises(KeyError):
            table[absent]


@pytest.mark.parametrize(
    "damage",
    [
        lambda content: content[: len(content) // 2],  # cut short
        lambda content: content[:100] + b"\x00" + content[101:],  # one byte changed
        lambda content: b"",
        lambda content: b"not a table at all",
    ],
)
def test_a_damaged_table_is_refused_and_made_again(tmp_path: Path, monkeypatch, damage) -> None:
    monkeypatch.setattr(tokens, "_cache_folder", lambda: tmp_path)
    tokens._lookup_ranks.cache_clear()
    try:
        assert isinstance(tokens._lookup_ranks(), dict)  # none there: made from the dict
        (made,) = tmp_path.glob("*.ranks")
        whole = made.read_bytes()
        made.write_bytes(damage(whole))
        with pytest.raises(DamagedTable):
            RankTable(made)
        tokens._lookup_ranks.cache_clear()
        assert isinstance(tokens._lookup_ranks(), dict)  # refused, so made again
        assert made.read_bytes() == whole
        tokens._lookup_ranks.cache_clear()
        assert isinstance(tokens._lookup_ranks(), RankTable)
        text = "Raj is the Lead Architect, since 2026-03-27. 😀"
        assert tokens.count_in_python(text) == len(tokens.encoding().encode_ordinary(text))
    finally:
        tokens._lookup_ranks.cache_clear()
