"""The fenced code blocks of the README and the documentation site, as the docs test runs
them.

A block's fence language says what it is: `python` and `bash` blocks run; `text` is
output shown for illustration; `toml` and `json` are files, checked to parse. A block
that cannot run in a test says why in an HTML comment on the line before its fence, which
the site does not show:

    <!-- docs-test: skip: it runs until stopped; the test starts the same server -->

`<!-- docs-test: serve -->` before a block starts `threefold serve` on the page's
database first, and `<!-- docs-test: output -->` before a `text` block says it is what the
block before it printed (see test_code_blocks.py).
"""

import re
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUN = {"python", "bash"}
PARSE = {"toml", "json"}
SHOWN = {"text"}
LANGUAGES = RUN | PARSE | SHOWN

_FENCE = re.compile(r"^(?P<indent> *)(?P<fence>```+)(?P<info>.*)$")
_DIRECTIVE = re.compile(r"^ *<!-- docs-test: (?P<what>[a-z]+)(?::(?P<why>.*))? -->\s*$")


@dataclass(frozen=True)
class Block:
    page: str
    line: int
    language: str
    code: str
    directive: str = ""
    reason: str = ""

    @property
    def where(self) -> str:
        return f"{self.page}:{self.line}"

    @property
    def runs(self) -> bool:
        return self.language in RUN and self.directive != "skip"


def pages() -> list[Path]:
    """The README and every page of the site, in a stable order."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def blocks(path: Path) -> list[Block]:
    """The page's fenced blocks in order, each with the directive before it, if any."""
    found: list[Block] = []
    lines = path.read_text(encoding="utf-8").splitlines()
    page = str(path.relative_to(ROOT))
    directive, reason = "", ""
    number = 0
    while number < len(lines):
        line = lines[number]
        if marked := _DIRECTIVE.match(line):
            directive, reason = marked["what"], (marked["why"] or "").strip()
        elif opened := _FENCE.match(line):
            end = _closing(lines, number, opened["indent"], opened["fence"])
            indent = len(opened["indent"])
            code = "\n".join(text[indent:] for text in lines[number + 1 : end])
            language = opened["info"].strip().split(" ")[0]
            found.append(Block(page, number + 1, language, code + "\n", directive, reason))
            directive, reason = "", ""
            number = end
        elif line.strip():
            directive, reason = "", ""
        number += 1
    return found


def _closing(lines: list[str], start: int, indent: str, fence: str) -> int:
    for number in range(start + 1, len(lines)):
        if lines[number].strip() == fence and lines[number].startswith(indent):
            return number
    raise ValueError(f"a fence opened at line {start + 1} is never closed")
