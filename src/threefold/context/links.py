"""Links written short where a token budget pays for them.

A bot's post (a commit notice, a CI run, a shared document) carries URLs of 80-150
characters, 30-60 tokens each, whose hashes and ids a reader of the context seldom needs
whole: a context that shows them whole shows fewer messages. The store keeps every text
verbatim and searchable, and each item in a context names its source, which leads back
to the full link; only renderings cut to a budget go through `compact`.

What is kept: Slack's `<url|label>` shows its label (what the channel showed); a URL
loses its scheme and "www."; a long one keeps its host and its last path parts, the parts
that name a file, a pull request or a commit, and a long hex run in it (a commit) keeps
its first few digits, as git shows a commit. A hash in prose stays whole: a checksum cut
short would be a wrong one. Code (`...` and fenced blocks) is left as it
was written: a URL there may be the very string to copy. Lengths: context/data/links.json.
"""

import json
import re
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

_CODE = re.compile(r"(```.*?```|`[^`\n]*`)", re.DOTALL)
"""Split by code, so code comes at odd places; a backtick left open is text."""
_SLACK_LINK = re.compile(r"<(https?://[^\s<>|]+)(?:\|([^<>\n]*))?>", re.IGNORECASE)
_MARKDOWN_LINK = re.compile(r"\[([^\[\]\n]+)\]\((https?://[^\s()<>]+)\)", re.IGNORECASE)
_CITED_URL = re.compile(r"(?<=\S )\((https?://[^\s()<>|]+)\)", re.IGNORECASE)
"""A link in brackets after text, "e33cd45 (https://...)", as an import writes `<url|label>`
and prose cites a page: the words before say what it is, its host (if it is long) where."""
_URL = re.compile(r"https?://[^\s<>|\"'`]+", re.IGNORECASE)
_SCHEME = re.compile(r"^https?://(?:www\.)?", re.IGNORECASE)
_TRAILING = ".,;:!?'\"*"
"""Punctuation after a URL in prose ends the sentence, not the link."""


@dataclass(frozen=True)
class _Lengths:
    kept_chars: int
    tail_chars: int
    part_chars: int
    hash_chars: int
    hash_shown: int


@cache
def _lengths() -> _Lengths:
    data = json.loads(files("threefold.context").joinpath("data/links.json").read_text())
    return _Lengths(**{k: v for k, v in data.items() if not k.startswith("_")})


@cache
def _hashes() -> re.Pattern[str]:
    """A run of hex digits as long as a commit id, not inside a longer word."""
    return re.compile(rf"(?<![0-9A-Za-z])[0-9a-f]{{{_lengths().hash_chars},}}(?![0-9A-Za-z])")


def compact(text: str) -> str:
    """`text` with its links written short; code left whole."""
    if "://" not in text:
        return text  # most messages: one scan, no copy
    parts = _CODE.split(text)
    parts[::2] = [_compact_prose(part) for part in parts[::2]]
    return "".join(parts)


def _compact_prose(text: str) -> str:
    text = _SLACK_LINK.sub(lambda m: (m[2] or "").strip() or m[1], text)
    text = _MARKDOWN_LINK.sub(lambda m: m[1], text)
    text = _CITED_URL.sub(_cited_url, text)
    return _URL.sub(_bare_url, text)


def _cited_url(found: re.Match[str]) -> str:
    url = found[1]
    return found[0] if len(url) <= _lengths().kept_chars else f"({_host(url)})"


def _short_hash(found: re.Match[str]) -> str:
    run = found[0]
    # Only a run with both digits and letters is a hash; all digits is a number.
    if run.isdigit() or not any(c.isdigit() for c in run):
        return run
    return run[: _lengths().hash_shown]


def _bare_url(found: re.Match[str]) -> str:
    url = found[0].rstrip(_TRAILING)
    # "(see https://x.org/a)": the closing bracket is the prose's unless the URL opened one.
    while url.endswith(")") and url.count(")") > url.count("("):
        url = url[:-1]
    return short_url(url) + found[0][len(url) :]


def short_url(url: str) -> str:
    """`url` as a context shows it: "github.com/…/commit/1a2b3c4"."""
    lengths = _lengths()
    if len(url) <= lengths.kept_chars:
        return url  # as written: a short link costs little, and a command may be copied
    rest = _hashes().sub(_short_hash, _SCHEME.sub("", url))
    if len(rest) <= lengths.kept_chars:
        return rest
    # A long link's query and fragment are mostly views and tracking: the path names it.
    rest = re.split(r"[?#]", rest, maxsplit=1)[0].rstrip("/")
    host, _, path = rest.partition("/")
    if len(rest) <= lengths.kept_chars or not path:
        return rest[: lengths.kept_chars]
    return f"{host}/…/{_tail(path.split('/'), lengths)}"


def _host(url: str) -> str:
    return _SCHEME.sub("", url).split("/", 1)[0][: _lengths().kept_chars]


def _tail(parts: list[str], lengths: _Lengths) -> str:
    """The last path parts that fit in the tail's room; the last one alone if none do."""
    room = lengths.tail_chars
    kept = [parts[-1][: lengths.part_chars]]
    for part in reversed(parts[:-1]):
        if len(part) + 1 + sum(len(p) + 1 for p in kept) > room:
            break
        kept.insert(0, part)
    return "/".join(kept)
