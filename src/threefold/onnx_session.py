"""Opening onnxruntime sessions, one at a time in a process.

onnxruntime's set-up of a session is not safe in two threads at once (its logging and its
registries race: onnxruntime issue 27089): a server's worker thread loading the reader
while a request's thread loaded the embedder crashed the process, in the suite of session
37 and again in session 40. Sessions are opened under one lock; running them needs none.
"""

import threading
from typing import Any

_OPENING = threading.Lock()


def open_session(model: str | bytes, options: Any) -> Any:
    """An onnxruntime session on the CPU for `model` (a file's path or the model's bytes),
    opened while no other thread opens one."""
    import onnxruntime

    with _OPENING:
        return onnxruntime.InferenceSession(
            model, sess_options=options, providers=["CPUExecutionProvider"]
        )
