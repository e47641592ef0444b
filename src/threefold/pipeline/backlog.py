"""The work an import or live source left for the workers, and how fast it goes.

An import returns once its text is searchable; vectors and digests follow in the workers.
`Backlog` counts what waits; `BacklogWatch` keeps the last samples of it, so that the CLI's
`stats --watch` and the inspector can say how fast it drains and when it will be done.
"""

import time
from collections import deque
from dataclasses import dataclass, field

__all__ = ["Backlog", "BacklogWatch", "Drain"]


@dataclass(frozen=True)
class Backlog:
    """What waits for a worker, at one moment."""

    unembedded: int
    """Items that recall would search by vector and that have none yet."""
    undigested: int
    """Messages not summarized and read for facts yet."""
    jobs: dict[str, int] = field(default_factory=dict)
    """Pending jobs by kind (embed, digest, ...)."""
    inbox: int = 0
    """Live events received and not yet handed to the job queue."""
    at: float = field(default_factory=time.time)

    @property
    def empty(self) -> bool:
        return not (self.unembedded or self.undigested or self.inbox or any(self.jobs.values()))


@dataclass(frozen=True)
class Drain:
    """How fast the backlog went down over the samples kept; None until two are."""

    vectors_per_s: float | None
    digests_per_s: float | None
    seconds: float

    def eta(self, backlog: Backlog) -> float | None:
        """Seconds until the vectors are done at this rate, None when it is unknown or 0."""
        if not backlog.unembedded:
            return 0.0
        if not self.vectors_per_s or self.vectors_per_s <= 0:
            return None
        return backlog.unembedded / self.vectors_per_s


class BacklogWatch:
    """The last samples of a backlog over `window` seconds; the drain rate is the drop from
    the oldest to the newest. New work arriving meanwhile lowers it: it is the net rate."""

    def __init__(self, window: float = 60.0, keep: int = 120) -> None:
        if window <= 0:
            raise ValueError(f"window must be positive, got {window!r}")
        self.window = window
        self._samples: deque[Backlog] = deque(maxlen=keep)

    def add(self, backlog: Backlog) -> Drain:
        self._samples.append(backlog)
        while len(self._samples) > 2 and backlog.at - self._samples[0].at > self.window:
            self._samples.popleft()
        return self.drain()

    def drain(self) -> Drain:
        if len(self._samples) < 2:
            return Drain(None, None, 0.0)
        first, last = self._samples[0], self._samples[-1]
        seconds = last.at - first.at
        if seconds <= 0:
            return Drain(None, None, 0.0)
        return Drain(
            vectors_per_s=(first.unembedded - last.unembedded) / seconds,
            digests_per_s=(first.undigested - last.undigested) / seconds,
            seconds=seconds,
        )
