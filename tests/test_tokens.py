"""Token counts: counted line by line from the cache, exactly as the tokenizer counts the
whole text."""

import random
import subprocess
import sys

import pytest

from threefold import tokens
from threefold.tokens import count_in_python, count_tokens, encoding, keep_last_tokens

TRICKY = [
    "## Facts\n- Raj is the Lead Architect. [turn:12, 2026-03-02]\n### 2026-03-02\n[x] y",
    "ends with a dot.\nNext line\n\n## Header\n",
    "a /path\n/starts with a slash\n //twice\n",
    "spaces before   \n   and after\n\tTab\r\nWindows\r\n",
    "numbers 1234567\n89 and 'll contractions\n's at a line start",
    "unicode\xa0nbsp\n\u3000ideographic space\n\u2028line sep\n\x1cfile sep\n\x85nel",
    "emoji 😀\n日本語の文\néclair\n",
    "\n\n\nleading newlines\n\n\n",
]
PIECES = [
    "word",
    "Word",
    "42",
    "1999",
    ".",
    "!?",
    "/",
    "#",
    "[",
    "]",
    "'s",
    " ",
    "  ",
    "\t",
    "\n",
    "\n",
    "\r\n",
    "\xa0",
    "é",
    "日本",
    "😀",
    "-",
    ":",
    "User:",
    "Assistant:",
]


def exact(text: str) -> int:
    return len(encoding().encode_ordinary(text))


def test_tricky_texts_count_as_a_whole() -> None:
    for text in TRICKY:
        assert count_tokens(text) == exact(text), repr(text)


def test_random_lines_count_as_a_whole() -> None:
    rng = random.Random(7)
    for _ in range(3000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 40)))
        assert count_tokens(text) == exact(text), repr(text)


def test_a_context_sized_text_counts_as_a_whole() -> None:
    rng = random.Random(8)
    lines = [" ".join(rng.choice(PIECES) for _ in range(12)) for _ in range(400)]
    text = "\n".join(lines)
    assert len(text) > 4000 and count_tokens(text) == exact(text)
    assert count_tokens(text + "\nmore") == exact(text + "\nmore")


def test_a_line_and_its_line_breaks_count_as_a_whole() -> None:
    """A rendered line is its item's text (counted before) and a line break."""
    rng = random.Random(9)
    endings = ["a", "Z", "7", "123", ")", ".", "é", "日本", " ", "\t", "'s", "/", "\r"]
    for _ in range(3000):
        line = "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 12)))
        line += rng.choice(endings)
        count_tokens(line)
        text = line + rng.choice(["\n", "\n\n", "\r\n", "\n\n\n", "\n \n"])
        assert count_tokens(text) == exact(text), repr(text)


def test_the_pure_python_count_is_tiktokens() -> None:
    """A short command counts in Python rather than build tiktoken's encoder: the same
    counts, on every tricky text and on random ones."""
    rng = random.Random(11)
    randoms = [
        "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 60))) for _ in range(2000)
    ]
    for text in [*TRICKY, *randoms, "x" * 63, "😀" * 63, " " * 63 + "x"]:
        assert count_in_python(text) == exact(text), repr(text)


def test_a_fresh_process_builds_tiktoken_only_for_long_pieces() -> None:
    """Short texts are counted in Python until the process has counted many; a hash or a
    base64 blob is one piece, whose merging is quadratic in its length, so it goes to
    tiktoken at once. Run in a fresh process: this one has built the encoder already."""
    probe = (
        "from threefold.tokens import count_tokens, encoding\n"
        "count_tokens('Raj is the Lead Architect.\\n- a fact [turn:3]')\n"
        "print(encoding.cache_info().currsize)\n"
        "count_tokens('QUJD' * 5000)\n"
        "print(encoding.cache_info().currsize)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["0", "1"]
    blob = "QUJD" * 5000
    assert count_tokens(blob) == exact(blob)


def test_the_kept_end_of_a_text_starts_at_a_whole_word() -> None:
    text = " ".join(f"relocated{n} Ωmega日本" for n in range(200))
    for limit in range(5, 60):
        kept = keep_last_tokens(text, limit, marker="")
        assert count_tokens(kept) <= limit
        assert text.endswith(kept) and kept
        assert text[len(text) - len(kept) - 1].isspace() and not kept[0].isspace(), kept


def test_kept_piece_counts_stay_exact_when_the_store_of_them_fills(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pieces counted before are not counted again; when too many are kept they are let
    go, and the counts stay tiktoken's."""
    monkeypatch.setattr(tokens, "_PIECES_KEPT", 8)
    monkeypatch.setattr(tokens, "_piece_counts", {})
    rng = random.Random(5)
    for _ in range(300):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 30)))
        assert count_in_python(text) == exact(text), repr(text)
        assert len(tokens._piece_counts) <= 8
