"""Cassettes: a chat model's real answers to the real prompts, replayed offline.

A cassette is a JSONL file, one request and its answer a line:
``{"key", "task", "messages", "answer"}``. The key is a hash of the task and the exact
messages, so a prompt that changes no longer finds its answer: the request is *stale*,
and the replaying server answers it with HTTP 500 (the llm model then falls back) and
lists it in ``stale``.

Recording (see docs/llm-cassettes.md): :class:`CassetteServer` with ``answers_dir`` set
writes each request it has no answer for to ``<dir>/<n>-<task>.request.json`` and waits
for ``<dir>/<n>-<task>.answer.json``, written by whoever answers (a person, or a script
calling a real model); the answer is appended to the cassette and sent.

    with CassetteServer(Path("tests/cassettes/eval.jsonl")) as server:
        model = LLMModel(server.client(), "recorded", HeuristicModel())
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.openai_fake import FakeOpenAIServer, Status


def task_of(request: dict) -> str:
    """The task a request asks for: the name of its JSON schema, else 'text'."""
    response_format = request.get("response_format") or {}
    return str((response_format.get("json_schema") or {}).get("name") or "text")


def request_key(request: dict) -> str:
    """What identifies a request across runs: its task and its exact messages."""
    shown = json.dumps(
        {"task": task_of(request), "messages": request.get("messages", [])},
        sort_keys=True,
        ensure_ascii=False,
    )
    return hashlib.sha256(shown.encode()).hexdigest()[:24]


@dataclass
class Cassette:
    path: Path
    answers: dict[str, str] = field(default_factory=dict)
    entries: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def load(cls, path: Path) -> Cassette:
        cassette = cls(path)
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    entry = json.loads(line)
                    cassette.entries.append(entry)
                    cassette.answers[entry["key"]] = entry["answer"]
        return cassette

    def add(self, request: dict, answer: str) -> None:
        entry = {
            "key": request_key(request),
            "task": task_of(request),
            "messages": request.get("messages", []),
            "answer": answer,
        }
        self.entries.append(entry)
        self.answers[entry["key"]] = answer
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(entry, ensure_ascii=False) + "\n")


class CassetteServer(FakeOpenAIServer):
    """A local OpenAI-compatible server answering from a cassette; with `answers_dir`,
    it records: an unknown request waits for its answer file (at most `wait` seconds)."""

    def __init__(
        self, path: Path, *, answers_dir: Path | None = None, wait: float = 3600.0
    ) -> None:
        super().__init__(default=self._answer)
        self.cassette = Cassette.load(path)
        self.answers_dir = answers_dir
        self.wait = wait
        self.stale: list[dict] = []
        """Requests the cassette holds no answer for (when not recording)."""
        self.replayed = 0
        self._recording = threading.Lock()

    def _answer(self, request: dict) -> str | Status:
        key = request_key(request)
        if key in self.cassette.answers:
            self.replayed += 1
            return self.cassette.answers[key]
        if self.answers_dir is None:
            self.stale.append(request)
            return Status(500, f"no recorded answer for this {task_of(request)} request")
        with self._recording:  # one question at a time, numbered in order
            return self._ask(request)

    def _ask(self, request: dict) -> str | Status:
        assert self.answers_dir is not None
        self.answers_dir.mkdir(parents=True, exist_ok=True)
        n = len(self.cassette.entries) + 1
        stem = f"{n:03d}-{task_of(request)}"
        asked = self.answers_dir / f"{stem}.request.json"
        asked.write_text(json.dumps(request, indent=1, ensure_ascii=False), encoding="utf-8")
        answer_file = self.answers_dir / f"{stem}.answer.json"
        deadline = time.monotonic() + self.wait
        while not answer_file.exists():
            if time.monotonic() > deadline:
                return Status(504, f"no answer written to {answer_file}")
            time.sleep(0.5)
        time.sleep(0.2)  # let the writer finish
        answer = answer_file.read_text(encoding="utf-8").strip()
        self.cassette.add(request, answer)
        return answer
