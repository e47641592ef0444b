"""One queue for the writers of a SQLite file, across threads and processes.

SQLite lets one writer in at a time and makes the others poll: a writer that finds the
file locked sleeps 1, 2, 5 ... up to 100 ms between tries, and whoever tries at the right
moment gets in. Under steady writing from several processes a writer can lose that race
again and again (issue 40 measured write p99 of 0.7-1.9 s under 4 writers). Here every
write transaction first takes an exclusive `flock` on a file beside the database
(`memory.db-queue`, see queue_path). The kernel parks
a waiter until the lock is free and wakes it at once, so writers take turns instead of
racing a timer, and SQLite's own lock is then free for the one that holds this one.

The lock is only about fairness: SQLite's locking still keeps writes apart, and its busy
handler still serves a writer that does not queue here (another program, an older
threefold).

A waiter gives up after the store's busy timeout, as SQLite would, with StoreUnavailable.
Without `fcntl` (Windows) there is no queue and SQLite's own locking does everything.
"""

import os
import threading
from pathlib import Path

from threefold.errors import StoreUnavailable

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


def queue_path(database: Path) -> Path:
    """The file whose flock is the queue, beside the database as its -wal and -shm are.

    Never the database file itself: closing any descriptor of a file drops every POSIX
    lock the process holds on it, SQLite's included. A writer whose shared lock on the
    database went with a closed queue descriptor looks gone to the others, and the last of
    them to close removes the WAL its next commit would go to."""
    return Path(f"{database}-queue")


class WriteQueue:
    """An exclusive flock on the queue file (queue_path), taken around each write transaction.

    The file is opened per WriteQueue (per store), so two stores in one process queue
    against each other as two processes do: flock belongs to the open file, not to the
    process. The store's own lock keeps its threads to one transaction at a time.
    """

    def __init__(self, database: Path, timeout: float, *, writable: bool = True) -> None:
        self.path = queue_path(database)
        self.timeout = timeout
        self._fd: int | None = None
        self._held: int | None = None
        """The descriptor that holds the lock now, if any."""
        if fcntl is not None and writable:
            try:
                self._fd = self._open()
            except OSError:
                self._fd = None  # SQLite's locking alone

    def _open(self) -> int:
        return os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)

    def acquire(self) -> None:
        if self._fd is None or fcntl is None:
            return
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            self._held = self._fd
        except BlockingIOError:
            self._held = self._wait_in_line()

    def release(self) -> None:
        held, self._held = self._held, None
        if held is None or fcntl is None:
            return
        fcntl.flock(held, fcntl.LOCK_UN)
        if held != self._fd:
            os.close(held)

    def close(self) -> None:
        self.release()
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _wait_in_line(self) -> int:
        """Block in the kernel's queue for the lock, for at most `timeout` seconds, and
        return the descriptor that holds it.

        flock has no timeout, so a helper thread does the blocking wait on a descriptor of
        its own; if the caller gives up first, the helper lets the lock go as soon as it
        gets it, and closes its descriptor, which nothing else uses."""
        assert fcntl is not None
        fd = self._open()
        got, state = threading.Event(), threading.Lock()
        abandoned: list[bool] = []

        def wait() -> None:
            assert fcntl is not None
            fcntl.flock(fd, fcntl.LOCK_EX)
            with state:
                if abandoned:
                    os.close(fd)  # closing lets the lock go
                    return
                got.set()

        threading.Thread(target=wait, name="threefold-write-queue", daemon=True).start()
        if got.wait(self.timeout):
            return fd
        with state:
            if got.is_set():  # it came just as the wait ended
                return fd
            abandoned.append(True)
        raise StoreUnavailable(
            f"the database is busy: no turn to write within {self.timeout:g} s ({self.path})"
        )
