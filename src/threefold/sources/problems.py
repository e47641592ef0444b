"""A list of import problems that stops growing: a hostile export can hold millions of bad
messages or rows, and a report listing each of them would cost more memory than the
export itself. The first `cap` are kept; the rest are only counted."""

from typing import Generic, SupportsIndex, TypeVar

T = TypeVar("T")

LISTED = 100
"""Problems listed per import; enough to see what is wrong, small enough to show."""


class CappedList(list[T], Generic[T]):
    def __init__(self, cap: int = LISTED) -> None:
        super().__init__()
        self.cap = cap
        self.unlisted = 0
        """Problems counted but not kept."""

    def append(self, item: T) -> None:
        if len(self) < self.cap:
            super().append(item)
        else:
            self.unlisted += 1

    def clear(self) -> None:
        super().clear()
        self.unlisted = 0

    def truncate(self, keep: SupportsIndex) -> None:
        """Drop all but the first `keep`, and the count of the unlisted."""
        del self[keep:]
        self.unlisted = 0

    def summary(self) -> str | None:
        """What to add at the end of a report, or None if every problem is listed."""
        if not self.unlisted:
            return None
        return f"and {self.unlisted:,} more problems, not listed"
