"""BPE ranks as a hash table in a file, looked up in place instead of loaded.

A short command (the CLI's `context`) counts a few thousand pieces of text. Loading the
200,000 o200k ranks into a dict, even back from marshal, cost more than all of that
counting; a lookup here reads only the bucket of the key asked for, from a memory-mapped
file that the operating system keeps in its page cache between processes.

The file: a header (magic, bucket bits, length and CRC-32 of the rest), then one 4-byte
offset per bucket and one past the end, then the records of each bucket in turn, each a
2-byte key length, the key and its 4-byte rank. A key's bucket is the low bits of its
CRC-32. The header's CRC covers everything after it, so a damaged or cut file is refused
whole and built again by the caller.
"""

import mmap
import struct
import zlib
from collections.abc import Mapping
from pathlib import Path

_MAGIC = b"TFRANKS1"
_HEADER = struct.Struct("<8sIII")  # magic, bucket bits, body length, body CRC-32
_OFFSET = struct.Struct("<I")
_LENGTH = struct.Struct("<H")
_RANK = struct.Struct("<I")
_BUCKET_BITS = 18
"""262,144 buckets for about 200,000 keys: most buckets hold zero or one key."""


class DamagedTable(ValueError):
    """The file is not a whole rank table of this format."""


def table_bytes(ranks: Mapping[bytes, int], bucket_bits: int = _BUCKET_BITS) -> bytes:
    """The file's content for `ranks`."""
    mask = (1 << bucket_bits) - 1
    buckets: list[list[bytes]] = [[] for _ in range(mask + 1)]
    for key, rank in ranks.items():
        buckets[zlib.crc32(key) & mask].append(_LENGTH.pack(len(key)) + key + _RANK.pack(rank))
    offsets, records, at = [], [], 0
    for bucket in buckets:
        offsets.append(at)
        for record in bucket:
            records.append(record)
            at += len(record)
    offsets.append(at)
    body = struct.pack(f"<{len(offsets)}I", *offsets) + b"".join(records)
    return _HEADER.pack(_MAGIC, bucket_bits, len(body), zlib.crc32(body)) + body


class RankTable:
    """The `in`, `[]` and `get` of a dict of ranks, over a table file made by
    table_bytes. Raises DamagedTable if the file is not one whole."""

    def __init__(self, path: Path) -> None:
        with path.open("rb") as file:
            try:
                self._map = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
            except ValueError:  # an empty file cannot be mapped
                raise DamagedTable(f"{path} is empty") from None
        try:
            magic, bits, length, crc = _HEADER.unpack_from(self._map, 0)
            body = memoryview(self._map)[_HEADER.size :]
            whole = magic == _MAGIC and len(body) == length and zlib.crc32(body) == crc
            body.release()
        except struct.error:
            whole = False
        if not whole:
            self._map.close()
            raise DamagedTable(f"{path} is not a whole rank table")
        self._mask = (1 << bits) - 1
        self._records = _HEADER.size + (self._mask + 2) * _OFFSET.size

    def get(self, key: bytes, default: int | None = None) -> int | None:
        table = self._map
        at, end = struct.unpack_from(
            "<II", table, _HEADER.size + (zlib.crc32(key) & self._mask) * 4
        )
        at, end, size = at + self._records, end + self._records, len(key)
        while at < end:
            (length,) = _LENGTH.unpack_from(table, at)
            if length == size and table[at + 2 : at + 2 + size] == key:
                return int(_RANK.unpack_from(table, at + 2 + size)[0])
            at += 6 + length
        return default

    def __getitem__(self, key: bytes) -> int:
        rank = self.get(key)
        if rank is None:
            raise KeyError(key)
        return rank

    def __contains__(self, key: object) -> bool:
        return isinstance(key, bytes) and self.get(key) is not None
