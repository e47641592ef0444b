"""Structured trace events, as JSON lines, to the file named by THREEFOLD_TRACE_FILE.

Events go through the `threefold.trace` logger, so they cost one disabled-logger check
when tracing is off. Values that look like secrets are masked before they are written.
"""

import json
import logging
import os
import re
import threading
from pathlib import Path
from typing import Any

from threefold.domain import utcnow

_log = logging.getLogger("threefold.trace")
_SECRET = re.compile(r"(?:tf|ms|sk)[-_][A-Za-z0-9_\-]{8,}")
_lock = threading.Lock()
_files: dict[Path, logging.Handler] = {}


def enable(path: Path | str) -> None:
    """Write trace events to `path` (appending). Idempotent per path."""
    target = Path(path).resolve()
    with _lock:
        if target in _files:
            return
        target.parent.mkdir(parents=True, exist_ok=True)
        handler = logging.FileHandler(target, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(message)s"))
        _log.addHandler(handler)
        _log.setLevel(logging.INFO)
        _log.propagate = False
        _files[target] = handler


def disable() -> None:
    with _lock:
        for handler in _files.values():
            _log.removeHandler(handler)
            handler.close()
        _files.clear()


def on() -> bool:
    """Whether events are written: callers check first when a field is costly to build."""
    return _log.isEnabledFor(logging.INFO) and bool(_log.handlers)


def event(name: str, **fields: Any) -> None:
    """One trace event: a name, a UTC time, the process (several server processes may
    write to one file) and JSON-able fields."""
    if not on():
        return
    record = {"event": name, "at": utcnow().isoformat(), "pid": os.getpid(), **fields}
    _log.info(_SECRET.sub("***", json.dumps(record, default=str, ensure_ascii=False)))
