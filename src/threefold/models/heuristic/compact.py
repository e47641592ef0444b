"""merge_summary, compact_summary and roll_up over the block format of blocks.py.

Compaction squeezes older periods harder: every block first keeps its most salient line,
then the rest of the budget is shared with weights that grow with recency, and whatever
an old block cannot use flows on to newer ones. Open items are kept ahead of all that.
"""

import re
from collections.abc import Sequence
from datetime import date

from threefold.domain import as_utc
from threefold.models.base import DatedSummary, Period
from threefold.models.heuristic.blocks import (
    OPEN_PREFIX,
    Block,
    body,
    bullet,
    is_open,
    parse,
    render,
    same_item,
)
from threefold.models.heuristic.summarize import salience
from threefold.models.heuristic.text import content_words, coverage, jaccard, sentences
from threefold.tokens import count_tokens, truncate_to_tokens

_MAX_INPUT_CHARS = 400_000  # the newest part of a runaway summary; compaction drops the rest
_LONG_LINE_TOKENS = 120
_MAX_ROLLUP_LINES = 2_000  # the newest lines of a roll-up's inputs; dedupe is quadratic
_SPEAKER_RE = re.compile(r"^(?:assistant|user)\s*:\s*", re.IGNORECASE)


def _day(moment: Period) -> tuple[date, date]:
    return as_utc(moment.start).date(), as_utc(moment.end).date()


# --- merging ---------------------------------------------------------------------------


def _incoming(new: DatedSummary, open_items: Sequence[str]) -> list[Block]:
    """`new` as dated blocks, with every open item present as an '- Open:' line."""
    start, end = _day(new.period)
    blocks = parse(new.text) or [Block(start, end)]
    for block in blocks:
        if not block.dated:
            block.start, block.end = start, end
        block.lines = [bullet(line) for line in block.lines]
    last = blocks[-1]
    for item in open_items:
        line = OPEN_PREFIX + body(item)
        if not body(item):
            continue
        match = next((i for i, old in enumerate(last.lines) if same_item(old, line)), None)
        if match is None:
            last.lines.append(line)
        else:
            last.lines[match] = line  # the digest said it plainly; mark it open
    return [b for b in blocks if b.lines]


def _overlaps(block: Block, start: date, end: date) -> bool:
    """A period that only touches the block's last day and runs on past it stays apart;
    otherwise a chat of back-to-back sessions would fold into a single block."""
    if block.start is None or block.end is None:
        return False
    return block.start <= end and start <= block.end and (start < block.end or end <= block.end)


def _fold(blocks: list[Block], new: Block) -> None:
    """Merge `new` into an overlapping period, or insert it in date order."""
    start, end = new.start or date.min, new.end or date.max
    for block in reversed(blocks):
        if _overlaps(block, start, end):
            block.start, block.end = min(block.start or start, start), max(block.end or end, end)
            fresh = [line for line in new.lines if not any(same_item(line, o) for o in block.lines)]
            block.lines += fresh
            return
    position = len(blocks)
    while position and (blocks[position - 1].start or date.min) > start:
        position -= 1
    blocks.insert(position, new)


_NEAR_DUPLICATE = 0.6
"""Content-word overlap at which an older plain line says what a new one says again."""
_NEAR_MIN_WORDS = 3


def merge_summary(active: DatedSummary | None, new: DatedSummary, open_items: Sequence[str]) -> str:
    blocks = parse(active.text) if active else []
    incoming = _incoming(new, open_items)
    fresh = [line for block in incoming for line in block.lines]
    fresh_open = [line for line in fresh if is_open(line)]
    fresh_words = [w for w in map(_words, fresh) if len(w) >= _NEAR_MIN_WORDS]
    for block in blocks:
        # An open item restated now lives in the newest block; older copies are stale. A
        # plain line said again in other words is kept once, in its newest wording.
        block.lines = [
            line
            for line in block.lines
            if not (is_open(line) and any(same_item(line, f) for f in fresh_open))
            and not (not is_open(line) and _said_again(line, fresh_words))
        ]
    blocks = [b for b in blocks if b.lines]
    for block in incoming:
        _fold(blocks, block)
    return render(blocks)


def _said_again(line: str, fresh_words: list[frozenset[str]]) -> bool:
    words = _words(line)
    if len(words) < _NEAR_MIN_WORDS:
        return False
    return any(jaccard(words, fresh) >= _NEAR_DUPLICATE for fresh in fresh_words)


# --- compaction ------------------------------------------------------------------------


def _split_long(block: Block) -> Block:
    """Long lines (an LLM's paragraph) become one line per sentence, each bounded."""
    lines: list[str] = []
    for line in block.lines:
        if count_tokens(line) <= _LONG_LINE_TOKENS:
            lines.append(line)
        elif is_open(line):
            lines.append(truncate_to_tokens(line, _LONG_LINE_TOKENS))
        else:
            for sentence in sentences(body(line)):
                lines.append(truncate_to_tokens(f"- {sentence}", _LONG_LINE_TOKENS))
    return Block(block.start, block.end, lines)


def _words(line: str) -> frozenset[str]:
    return content_words(_SPEAKER_RE.sub("", body(line)))


def _repeats_fact(line: str, facts: list[frozenset[str]]) -> bool:
    words = _words(line)
    if len(words) < 2:
        return False
    return any(coverage(words, fact) >= 0.8 or jaccard(words, fact) >= 0.6 for fact in facts)


def _cost(line: str) -> int:
    return count_tokens(line) + 1


class _Ranker:
    """Salience per line, computed once; ties go to the later (newer) line."""

    def __init__(self) -> None:
        self._cache: dict[str, float] = {}

    def score(self, line: str) -> float:
        if line not in self._cache:
            self._cache[line] = salience(_SPEAKER_RE.sub("", body(line)))
        return self._cache[line]

    def ranked(self, lines: list[str]) -> list[str]:
        order = sorted(range(len(lines)), key=lambda i: (-self.score(lines[i]), -i))
        return [lines[i] for i in order]


def _open_only(blocks: list[Block], target: int) -> list[Block]:
    """When open items alone overflow: the newest ones that fit, in their blocks."""
    budget = target
    keep: list[list[str]] = [[] for _ in blocks]
    for i in reversed(range(len(blocks))):
        header = count_tokens(blocks[i].header()) + 2
        for line in reversed([line for line in blocks[i].lines if is_open(line)]):
            cost = _cost(line) + (0 if keep[i] else header)
            if cost <= budget:
                keep[i].insert(0, line)
                budget -= cost
    if not any(keep) and blocks:
        # Nothing fits whole: the newest open item, which _enforce will truncate.
        newest = next(b for b in reversed(blocks) if any(is_open(x) for x in b.lines))
        return [Block(newest.start, newest.end, [[x for x in newest.lines if is_open(x)][-1]])]
    return [Block(b.start, b.end, keep[i]) for i, b in enumerate(blocks) if keep[i]]


def _allocate(blocks: list[Block], target: int, ranker: _Ranker) -> list[Block]:
    fixed = sum(count_tokens(b.header()) + 2 for b in blocks)
    fixed += sum(_cost(line) for b in blocks for line in b.lines if is_open(line))
    if fixed > target:
        return _open_only(blocks, target)
    budget = target - fixed
    pools = [ranker.ranked([line for line in b.lines if not is_open(line)]) for b in blocks]
    kept: list[set[str]] = [set() for _ in blocks]
    for i in reversed(range(len(blocks))):  # every period keeps its best line if it can
        if pools[i] and _cost(pools[i][0]) <= budget:
            best = pools[i].pop(0)
            kept[i].add(best)
            budget -= _cost(best)
    weights = [2**i for i in range(len(blocks))]  # each period gets twice its elder's share
    for i, pool in enumerate(pools):  # oldest first: what it leaves flows to newer blocks
        share = budget * weights[i] // sum(weights[i:])
        for line in pool:
            if _cost(line) > share:
                break  # a shorter, duller line must not jump the queue
            kept[i].add(line)
            share -= _cost(line)
            budget -= _cost(line)
    for i in reversed(range(len(blocks))):  # what rounding left over, newest periods first
        for line in (line for line in pools[i] if line not in kept[i]):
            if _cost(line) > budget:
                break
            kept[i].add(line)
            budget -= _cost(line)
    return [
        Block(b.start, b.end, [line for line in b.lines if is_open(line) or line in kept[i]])
        for i, b in enumerate(blocks)
    ]


def _enforce(blocks: list[Block], target: int, ranker: _Ranker) -> str:
    """Drop lines, oldest and least salient first, until the render fits exactly."""
    blocks = [b for b in blocks if b.lines]
    text = render(blocks)
    while sum(len(b.lines) for b in blocks) > 1 and count_tokens(text) > target:
        plain = next((b for b in blocks if any(not is_open(line) for line in b.lines)), None)
        if plain is not None:
            candidates = [line for line in plain.lines if not is_open(line)]
            plain.lines.remove(ranker.ranked(candidates)[-1])
        else:
            blocks[0].lines.pop(0)
        blocks = [b for b in blocks if b.lines]
        text = render(blocks)
    return text if count_tokens(text) <= target else truncate_to_tokens(text, target)


def compact_summary(text: str, known_facts: Sequence[str], target_tokens: int) -> str:
    if target_tokens <= 0 or not text.strip():
        return ""
    blocks = [_split_long(b) for b in parse(text[-_MAX_INPUT_CHARS:])]
    facts = [w for w in (content_words(f) for f in known_facts) if w]
    for block in blocks:
        block.lines = [x for x in block.lines if is_open(x) or not _repeats_fact(x, facts)]
    blocks = [b for b in blocks if b.lines]
    ranker = _Ranker()
    if count_tokens(render(blocks)) > target_tokens:
        blocks = _coalesce(blocks, target_tokens // 2)
        blocks = _allocate(blocks, target_tokens, ranker)
    return _enforce(blocks, target_tokens, ranker)


def _coalesce(blocks: list[Block], header_budget: int) -> list[Block]:
    """Fold the oldest periods together until the headers cost at most `header_budget`,
    so that a long history keeps a line per era instead of losing its old blocks."""
    blocks = list(blocks)
    while len(blocks) > 2 and sum(count_tokens(b.header()) + 2 for b in blocks) > header_budget:
        first, second = blocks[0], blocks[1]
        starts = [d for d in (first.start, second.start) if d]
        ends = [d for d in (first.end, second.end) if d]
        lines = list(first.lines)
        lines += [x for x in second.lines if not any(same_item(x, y) for y in lines)]
        merged = Block(min(starts, default=None), max(ends, default=None), lines)
        blocks[:2] = [merged]
    return blocks


# --- roll-ups --------------------------------------------------------------------------


def roll_up(summaries: Sequence[DatedSummary], target_tokens: int) -> str:
    """One block for the whole period: open items first, then the most salient lines."""
    if target_tokens <= 0 or not summaries:
        return ""
    ordered = sorted(summaries, key=lambda s: (s.period.start, s.period.end))
    spans = [_day(s.period) for s in ordered]
    lines: list[str] = []
    for summary in ordered:
        for block in parse(summary.text[-_MAX_INPUT_CHARS:]):
            lines.extend(bullet(line) for line in _split_long(block).lines)
    lines = lines[-_MAX_ROLLUP_LINES:]
    unique: list[str] = []
    for line in reversed(lines):  # the newest wording of a repeated item wins
        if not any(same_item(line, kept) for kept in unique):
            unique.insert(0, line)
    block = Block(min(s for s, _ in spans), max(e for _, e in spans), unique)
    ranker = _Ranker()
    return _enforce([_fill(block, target_tokens, ranker)], target_tokens, ranker)


def _fill(block: Block, target: int, ranker: _Ranker) -> Block:
    """The block's best lines within `target`; open items get a head start, no more."""
    budget = target - count_tokens(block.header()) - 2
    order = sorted(
        range(len(block.lines)),
        key=lambda i: (-(ranker.score(block.lines[i]) + 3 * is_open(block.lines[i])), -i),
    )
    chosen: set[int] = set()
    for i in order:
        if _cost(block.lines[i]) <= budget:
            chosen.add(i)
            budget -= _cost(block.lines[i])
    return Block(
        block.start, block.end, [line for i, line in enumerate(block.lines) if i in chosen]
    )
