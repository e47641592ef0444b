"""The llm MemoryModel: every task done by a chat model behind an OpenAI-compatible server.

One client serves OpenAI, OpenRouter, Ollama, vLLM and llama.cpp's server. Prompts live in
``threefold.models.prompts``, one module per task, next to the typed response model.

How an answer is obtained, per task call:

1. The request asks for JSON through ``response_format``: a ``json_schema`` built from the
   task's response model. A server that rejects it (HTTP 400 or 422) is asked again at once
   with ``json_object``, then with no ``response_format`` at all, the schema then being
   spelled out in the system prompt. The first format the server accepts is remembered for
   the rest of this instance's life. A 4xx that persists on every format is a real error.
2. The answer is parsed strictly with ``Response.model_validate_json``. The leniencies,
   for what small local models do even in JSON mode: one code fence around the answer
   (```` ```json ... ``` ````) is removed; one JSON object inside prose is cut out of it;
   a confidence written as a word ("high") and an unknown category (read as "note") are
   accepted in facts. Several objects, or none, are invalid, and so is an answer over
   ``MAX_ANSWER_CHARS``. A parsed answer that does not fit the inputs (a
   reconcile target that was not offered, a stream that was not offered, an empty or far
   too long summary) is invalid too.
3. Invalid answers, timeouts, connection errors, 5xx and the transient 4xx (408, 409, 429)
   are retried with exponential backoff, ``attempts`` tries in all, waiting at least what
   a Retry-After header asks (up to ``MAX_RETRY_AFTER``). Any other 4xx is not retried.
4. When no try succeeds, the task is answered by ``fallback`` (the heuristic model) for
   that item, and a warning on the ``threefold.models.llm`` logger names the task, the
   model and the reason (never the key, never the answer: that is logged at DEBUG only).
   Nothing is silently dropped. An exception from the fallback itself propagates.

Inputs with nothing to think about (no similar facts, no streams, no turns, a blank turn or
text) go straight to the fallback without a request, so both models agree on them; they
count as ``delegated``, not as fallbacks.
"""

from __future__ import annotations

import functools
import json
import logging
import re
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any, TypeVar, cast

import openai
from openai.types.chat import ChatCompletion, ChatCompletionMessageParam
from pydantic import BaseModel, ValidationError

from threefold import tracing
from threefold.domain import GLOBAL_STREAM
from threefold.errors import InvalidInput, SettingsError
from threefold.models.base import (
    DatedSummary,
    ExtractedFact,
    KnownFact,
    MemoryModel,
    MessageInput,
    ReconcileDecision,
    RouteDecision,
    SessionDigest,
    TurnInput,
)
from threefold.models.prompts import (
    InvalidAnswer,
    compact_summary,
    extract_facts,
    extract_messages,
    merge_summary,
    reconcile,
    roll_up,
    route,
    summarize_session,
)
from threefold.openai_client import OwnsClient, client_from_settings
from threefold.settings import LLM_TASKS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from threefold.settings import ModelSettings, TaskModelSettings

__all__ = ["LLMModel", "PerTaskModel", "TaskStats", "TASKS", "FORMATS"]

log = logging.getLogger("threefold.models.llm")

TASKS = LLM_TASKS

FORMATS = ("json_schema", "json_object", "text")
"""The ways of asking for JSON, most precise first; a server that rejects one gets the next."""

"""Sent when the key variable is set but empty: servers without auth ignore it, and the
openai client refuses an empty key."""

MAX_ANSWER_CHARS = 32_000
"""An answer longer than this is refused unread: no task needs it, and a runaway or
hostile answer must not become hundreds of facts."""
_RETRY_STATUSES = frozenset({408, 409, 429})
_FORMAT_REJECTED_STATUSES = frozenset({400, 422})
_FENCE = re.compile(r"\A\s*```[A-Za-z]*[ \t]*\n(.*?)\n?[ \t]*```\s*\Z", re.DOTALL)

R = TypeVar("R")


@dataclass
class TaskStats:
    """What one task cost and how often it failed, for tracing."""

    calls: int = 0
    """Task calls made to this model."""
    requests: int = 0
    """HTTP requests sent (retries and format probes included)."""
    failures: int = 0
    """Tries that did not produce a usable answer."""
    fallbacks: int = 0
    """Calls finally answered by the fallback model."""
    delegated: int = 0
    """Calls with trivial inputs handed to the fallback without a request."""
    split: int = 0
    """Batched calls (several turns in one request) whose answer could not be used:
    their turns were then read one request at a time."""


class _Retry(Exception):
    """A try failed in a way worth trying again; `after`: seconds the server asked for."""

    def __init__(self, reason: str, after: float = 0.0) -> None:
        super().__init__(reason)
        self.after = after


class _GiveUp(Exception):
    """A try failed in a way retrying cannot fix."""


class _Invalid(_Retry):
    """The server answered, but the answer cannot be used (malformed, truncated, off the
    inputs): worth another try for one item, not for a batch, which is split instead."""


_UNSTRICT_KEYWORDS = frozenset(
    {"title", "description", "default", "minLength", "maxLength", "minimum", "maximum"}
)


@functools.cache
def wire_schema(response_type: type[BaseModel]) -> dict[str, Any]:
    """The response model's JSON schema as sent: in the strict subset that OpenAI's
    structured outputs accept (every property required, no others allowed, no titles or
    bounds), with its definitions inlined, which also makes it shorter. The answer is
    still checked against the full model, bounds and defaults included."""
    schema = response_type.model_json_schema()
    return cast("dict[str, Any]", _strict(_inlined(schema, schema.get("$defs", {}))))


def _inlined(node: Any, defs: dict[str, Any], depth: int = 0) -> Any:
    """`node` with each "$ref" replaced by the definition it names, and "$defs" dropped:
    the same schema in fewer tokens, since every definition here is used once or twice.
    A recursive model (none is) would keep its references past a few levels."""
    if isinstance(node, list):
        return [_inlined(item, defs, depth) for item in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref", "")
    if ref.startswith("#/$defs/") and depth < 8:
        return _inlined(defs[ref.removeprefix("#/$defs/")], defs, depth + 1)
    return {key: _inlined(value, defs, depth) for key, value in node.items() if key != "$defs"}


def _strict(node: Any) -> Any:
    if isinstance(node, list):
        return [_strict(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _strict(value) for key, value in node.items() if key not in _UNSTRICT_KEYWORDS}
    if "properties" in node:  # "properties" maps names to schemas: keep each name
        out["properties"] = {name: _strict(sub) for name, sub in node["properties"].items()}
        out["required"] = list(node["properties"])
        out["additionalProperties"] = False
    return out


def strip_fence(content: str) -> str:
    """`content` without one code fence around all of it; anything else is left alone."""
    match = _FENCE.match(content)
    return match.group(1) if match else content


def the_object(content: str) -> str:
    """The one JSON object an answer holds: unfenced, and cut out of prose around it
    ("Here are the facts: {...} Hope this helps!"), which small models add even when asked
    for JSON alone. Text that is no JSON object is returned as is, to fail validation."""
    content = strip_fence(content).strip()
    if content.startswith("{"):
        return content
    start, end = content.find("{"), content.rfind("}")
    if start < 0 or end < start:
        return content
    try:
        json.loads(content[start : end + 1])
    except ValueError:
        return content
    return content[start : end + 1]


def _name_of(model: MemoryModel) -> str:
    return str(getattr(model, "name", type(model).__name__))


def _short(text: str, limit: int = 200) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


MAX_RETRY_AFTER = 30.0
"""The longest wait a server's Retry-After may ask for; a longer one is cut to this."""


def _retry_after(exc: openai.APIStatusError) -> float:
    """The seconds a 429 or 503 asks to wait (Retry-After, in seconds), within reason."""
    try:
        seconds = float(exc.response.headers.get("retry-after", "0"))
    except ValueError:  # an HTTP date: rare from model servers, and the backoff still applies
        return 0.0
    return min(max(seconds, 0.0), MAX_RETRY_AFTER)


def _status_reason(exc: openai.APIStatusError) -> str:
    message = exc.message
    if isinstance(exc.body, dict):
        message = exc.body.get("message", message)
    return f"HTTP {exc.status_code}: {_short(message)}"


class LLMModel(OwnsClient):
    """MemoryModel whose tasks are answered by a chat model through the openai client.

    `client` should be built with ``max_retries=0``: this class does its own retries, so
    that a bad answer and a failed request are retried alike. `fallback` answers any item
    the chat model cannot. The instance is thread-safe; ``stats`` maps each task name to
    its :class:`TaskStats`.
    """

    name = "llm"

    def __init__(
        self,
        client: openai.OpenAI,
        model: str,
        fallback: MemoryModel,
        *,
        attempts: int = 3,
        backoff: float = 0.5,
        logger: logging.Logger | None = None,
        temperature: float | None = None,
    ) -> None:
        if not model or not model.strip():
            raise InvalidInput("model name must not be empty")
        if attempts < 1:
            raise InvalidInput(f"attempts must be at least 1, got {attempts}")
        if backoff < 0:
            raise InvalidInput(f"backoff must not be negative, got {backoff}")
        self.client = client
        self.model = model
        self.fallback = fallback
        self.attempts = attempts
        self.backoff = backoff
        self.temperature = temperature
        self.log = logger or log
        self.stats: dict[str, TaskStats] = {task: TaskStats() for task in TASKS}
        self._format = 0
        self._lock = threading.Lock()

    @classmethod
    def from_settings(
        cls,
        base_url: str,
        model: str,
        api_key_env: str | None,
        fallback: MemoryModel,
        timeout: float = 30.0,
        **options: Any,
    ) -> LLMModel:
        """A model with its own client, which :meth:`close` closes.

        The API key is read from the environment variable named `api_key_env`, never from
        settings files. A variable that is not set is a :class:`SettingsError` naming it.
        A variable set to the empty string, or `api_key_env` None, means a local server
        that needs no key (Ollama, llama.cpp, vLLM without ``--api-key``): the placeholder
        ``EMPTY`` is sent, because the openai client refuses an empty key.
        `options` go to the constructor (attempts, backoff, logger, temperature).
        """
        client = client_from_settings(
            base_url, model, api_key_env, timeout, max_retries=0, purpose="llm"
        )
        return cls.adopt(client, lambda c: cls(c, model, fallback, **options))

    @property
    def response_format(self) -> str:
        """How JSON is currently asked for: one of :data:`FORMATS`."""
        return FORMATS[self._format]

    def stats_dict(self) -> dict[str, dict[str, int]]:
        with self._lock:
            return {task: asdict(stats) for task, stats in self.stats.items()}

    def __repr__(self) -> str:
        return f"LLMModel(model={self.model!r}, fallback={getattr(self.fallback, 'name', '?')!r})"

    # -- tasks ------------------------------------------------------------------------

    def extract_facts(self, turn: TurnInput) -> list[ExtractedFact]:
        fallback = lambda: self.fallback.extract_facts(turn)  # noqa: E731
        if not (turn.user.strip() or turn.assistant.strip()):
            return self._delegate("extract_facts", fallback)
        return self._run(
            "extract_facts",
            extract_facts.build_messages(turn),
            extract_facts.Response,
            lambda response: extract_facts.to_result(response, turn),
            fallback,
        )

    def extract_turns(self, turns: Sequence[TurnInput]) -> list[list[ExtractedFact]]:
        """The facts of consecutive turns of one stream, one list per turn, from one
        request. An answer that cannot be used (malformed, cut off at max_tokens, naming a
        turn not offered) is not retried as a whole: each turn is then read on its own,
        with its own retries and fallback, so no turn is lost. The caller batches only
        turns of one writer and one visibility (see threefold.pipeline.handlers)."""
        if len(turns) <= 1 or sum(bool(t.user.strip() or t.assistant.strip()) for t in turns) <= 1:
            return [self.extract_facts(turn) for turn in turns]
        one_by_one = lambda: [self.extract_facts(turn) for turn in turns]  # noqa: E731
        return self._run(
            "extract_facts",
            extract_facts.build_batch(turns),
            extract_facts.Response,
            lambda response: extract_facts.to_batch_result(response, turns),
            one_by_one,
            batch=len(turns),
        )

    def extract_from_messages(self, batch: Sequence[MessageInput]) -> list[list[ExtractedFact]]:
        fallback = lambda: self.fallback.extract_from_messages(batch)  # noqa: E731
        if not any(m.text.strip() for m in batch):
            return self._delegate("extract_from_messages", fallback)
        return self._run(
            "extract_from_messages",
            extract_messages.build_messages(batch),
            extract_messages.Response,
            lambda response: extract_messages.to_result(response, batch),
            fallback,
        )

    def summarize_session(self, turns: Sequence[TurnInput], target_tokens: int) -> SessionDigest:
        def fallback() -> SessionDigest:
            digest = self.fallback.summarize_session(turns, target_tokens)
            # The summary's record names who wrote it: the fallback, not this model.
            return digest.model_copy(update={"written_by": _name_of(self.fallback)})

        if not turns:
            return self._delegate("summarize_session", fallback)
        return self._run(
            "summarize_session",
            summarize_session.build_messages(turns, target_tokens),
            summarize_session.Response,
            lambda response: summarize_session.to_result(response, target_tokens),
            fallback,
        )

    def merge_summary(
        self, active: DatedSummary | None, new: DatedSummary, open_items: Sequence[str]
    ) -> str:
        return self._run(
            "merge_summary",
            merge_summary.build_messages(active, new, open_items),
            merge_summary.Response,
            merge_summary.to_result,
            lambda: self.fallback.merge_summary(active, new, open_items),
        )

    def compact_summary(self, text: str, known_facts: Sequence[str], target_tokens: int) -> str:
        fallback = lambda: self.fallback.compact_summary(text, known_facts, target_tokens)  # noqa: E731
        if not text.strip():
            return self._delegate("compact_summary", fallback)
        return self._run(
            "compact_summary",
            compact_summary.build_messages(text, known_facts, target_tokens),
            compact_summary.Response,
            lambda response: compact_summary.to_result(response, target_tokens),
            fallback,
        )

    def roll_up(self, summaries: Sequence[DatedSummary], target_tokens: int) -> str:
        fallback = lambda: self.fallback.roll_up(summaries, target_tokens)  # noqa: E731
        if not summaries:
            return self._delegate("roll_up", fallback)
        return self._run(
            "roll_up",
            roll_up.build_messages(summaries, target_tokens),
            roll_up.Response,
            lambda response: roll_up.to_result(response, target_tokens),
            fallback,
        )

    def route(self, text: str, streams: Sequence[str]) -> RouteDecision:
        fallback = lambda: self.fallback.route(text, streams)  # noqa: E731
        if not text.strip() or not [s for s in streams if s != GLOBAL_STREAM]:
            return self._delegate("route", fallback)
        return self._run(
            "route",
            route.build_messages(text, streams),
            route.Response,
            lambda response: route.to_result(response, streams),
            fallback,
        )

    def reconcile(self, new: ExtractedFact, similar: Sequence[KnownFact]) -> ReconcileDecision:
        fallback = lambda: self.fallback.reconcile(new, similar)  # noqa: E731
        if not similar:
            return self._delegate("reconcile", fallback)
        return self._run(
            "reconcile",
            reconcile.build_messages(new, similar),
            reconcile.Response,
            lambda response: reconcile.to_result(response, similar),
            fallback,
        )

    # -- machinery --------------------------------------------------------------------

    def _count(self, task: str, field: str) -> None:
        with self._lock:
            stats = self.stats[task]
            setattr(stats, field, getattr(stats, field) + 1)

    def _delegate(self, task: str, fallback: Callable[[], R]) -> R:
        self._count(task, "calls")
        self._count(task, "delegated")
        return fallback()

    def _run(
        self,
        task: str,
        messages: list[dict],
        response_type: type[BaseModel],
        convert: Callable[[Any], R],
        fallback: Callable[[], R],
        batch: int = 0,
    ) -> R:
        """The converted answer, or `fallback()`. With `batch` (the items of a batched
        request), an unusable answer goes straight to `fallback`, which reads the items
        one by one: asking again for the same long answer would likely fail alike."""
        self._count(task, "calls")
        reason = "no attempt made"
        started = time.perf_counter()
        asked_wait = 0.0
        for attempt in range(1, self.attempts + 1):
            if attempt > 1 and (self.backoff or asked_wait):
                time.sleep(max(self.backoff * 2 ** (attempt - 2), asked_wait))
            try:
                content = self._complete(task, messages, response_type)
                result = self._parse(content, response_type, convert)
                tracing.event(
                    "model_call",
                    task=task,
                    model=self.model,
                    attempts=attempt,
                    ms=round((time.perf_counter() - started) * 1000, 1),
                    fallback=False,
                )
                return result
            except _Retry as exc:
                reason, asked_wait = str(exc), exc.after
                self._count(task, "failures")
                if batch and isinstance(exc, _Invalid):
                    break
                self.log.info("llm %s: try %d/%d failed: %s", task, attempt, self.attempts, reason)
            except _GiveUp as exc:
                reason = str(exc)
                self._count(task, "failures")
                break
        tracing.event(
            "model_call",
            task=task,
            model=self.model,
            attempts=self.attempts,
            ms=round((time.perf_counter() - started) * 1000, 1),
            fallback=True,
            reason=reason,
        )
        if batch:
            self._count(task, "split")
            self.log.warning(
                "llm %s (model %s): the answer for %d turns could not be used (%s); "
                "reading them one at a time",
                task,
                self.model,
                batch,
                reason,
            )
            return fallback()
        self._count(task, "fallbacks")
        self.log.warning(
            "llm %s (model %s) fell back to the %s model: %s",
            task,
            self.model,
            getattr(self.fallback, "name", type(self.fallback).__name__),
            reason,
        )
        return fallback()

    def _request_messages(
        self, messages: list[dict], response_type: type[BaseModel], fmt: str
    ) -> list[ChatCompletionMessageParam]:
        # The prompts build plain role/content dicts, which is what these params are.
        if fmt == "json_schema":
            return cast("list[ChatCompletionMessageParam]", messages)
        schema = json.dumps(wire_schema(response_type), separators=(",", ":"))
        hint = (
            "\n\nAnswer with a single JSON object, and nothing else, that matches this JSON "
            f"schema:\n{schema}"
        )
        first, *rest = messages
        return cast(
            "list[ChatCompletionMessageParam]",
            [{**first, "content": first["content"] + hint}, *rest],
        )

    def _create(
        self, task: str, messages: list[dict], response_type: type[BaseModel], fmt: str
    ) -> ChatCompletion:
        kwargs: dict[str, Any] = {}
        if fmt == "json_schema":
            kwargs["response_format"] = {
                "type": "json_schema",
                "json_schema": {"name": task, "schema": wire_schema(response_type), "strict": True},
            }
        elif fmt == "json_object":
            kwargs["response_format"] = {"type": "json_object"}
        if self.temperature is not None:
            kwargs["temperature"] = self.temperature
        self._count(task, "requests")
        return self.client.chat.completions.create(
            model=self.model,
            messages=self._request_messages(messages, response_type, fmt),
            **kwargs,
        )

    def _complete(self, task: str, messages: list[dict], response_type: type) -> str:
        """The answer's text, or _Retry/_GiveUp. Steps down the formats on 400/422."""
        index = self._format
        while True:
            fmt = FORMATS[index]
            try:
                completion = self._create(task, messages, response_type, fmt)
            except openai.APIStatusError as exc:
                if exc.status_code in _FORMAT_REJECTED_STATUSES and index + 1 < len(FORMATS):
                    self.log.info(
                        "llm %s: server refused response_format %s (%s); trying %s",
                        task,
                        fmt,
                        _status_reason(exc),
                        FORMATS[index + 1],
                    )
                    index += 1
                    continue
                raise self._classify(exc) from exc
            except openai.OpenAIError as exc:
                raise self._classify(exc) from exc
            break
        if index != self._format:
            with self._lock:
                if index > self._format:
                    self._format = index
                    self.log.warning(
                        "llm: the server at %s refuses stricter JSON formats; asking for "
                        "%s from now on",
                        self.client.base_url,
                        fmt,
                    )
        if not completion.choices:
            raise _Retry("invalid answer: no choices")
        choice = completion.choices[0]
        message = choice.message
        if refusal := getattr(message, "refusal", None):
            raise _Retry(f"model refused: {_short(refusal)}")
        if not message.content:
            raise _Retry(f"invalid answer: empty content (finish_reason {choice.finish_reason})")
        if choice.finish_reason == "length":
            raise _Invalid(f"answer cut off at max_tokens after {len(message.content)} characters")
        return message.content

    @staticmethod
    def _classify(exc: openai.OpenAIError) -> Exception:
        if isinstance(exc, openai.APITimeoutError):
            return _Retry("timeout")
        if isinstance(exc, openai.APIConnectionError):
            return _Retry(f"connection error: {_short(exc.message)}")
        if isinstance(exc, openai.APIStatusError):
            if exc.status_code >= 500 or exc.status_code in _RETRY_STATUSES:
                return _Retry(_status_reason(exc), _retry_after(exc))
            return _GiveUp(_status_reason(exc))
        if isinstance(exc, openai.APIResponseValidationError):
            return _Retry(f"malformed response: {_short(exc.message)}")
        return _GiveUp(f"{type(exc).__name__}: {_short(str(exc))}")

    def _parse(
        self, content: str, response_type: type[BaseModel], convert: Callable[[Any], R]
    ) -> R:
        if len(content) > MAX_ANSWER_CHARS:
            raise _Invalid(f"invalid answer: {len(content)} characters, over {MAX_ANSWER_CHARS}")
        try:
            response = response_type.model_validate_json(the_object(content))
            return convert(response)
        except ValidationError as exc:
            errors = exc.errors(include_url=False, include_input=False)
            where = "; ".join(
                f"{'.'.join(map(str, error['loc'])) or '(root)'}: {error['msg']}"
                for error in errors[:3]
            )
            self.log.debug("llm invalid answer: %s", _short(content, 500))
            raise _Invalid(f"invalid answer: {_short(where)}") from exc
        except InvalidAnswer as exc:
            raise _Invalid(f"invalid answer: {_short(str(exc))}") from exc


class PerTaskModel:
    """The llm model with a chat model per task: each task goes to its own LLMModel, the
    others to `default`. Closing it closes every client it was built with."""

    name = "llm"

    def __init__(self, default: LLMModel, by_task: dict[str, LLMModel]) -> None:
        self.default, self.by_task = default, by_task

    def _for(self, task: str) -> LLMModel:
        return self.by_task.get(task, self.default)

    def extract_facts(self, turn: TurnInput) -> list[ExtractedFact]:
        return self._for("extract_facts").extract_facts(turn)

    def extract_turns(self, turns: Sequence[TurnInput]) -> list[list[ExtractedFact]]:
        return self._for("extract_facts").extract_turns(turns)

    def extract_from_messages(self, batch: Sequence[MessageInput]) -> list[list[ExtractedFact]]:
        return self._for("extract_from_messages").extract_from_messages(batch)

    def summarize_session(self, turns: Sequence[TurnInput], target_tokens: int) -> SessionDigest:
        return self._for("summarize_session").summarize_session(turns, target_tokens)

    def merge_summary(
        self, active: DatedSummary | None, new: DatedSummary, open_items: Sequence[str]
    ) -> str:
        return self._for("merge_summary").merge_summary(active, new, open_items)

    def compact_summary(self, text: str, known_facts: Sequence[str], target_tokens: int) -> str:
        return self._for("compact_summary").compact_summary(text, known_facts, target_tokens)

    def roll_up(self, summaries: Sequence[DatedSummary], target_tokens: int) -> str:
        return self._for("roll_up").roll_up(summaries, target_tokens)

    def route(self, text: str, streams: Sequence[str]) -> RouteDecision:
        return self._for("route").route(text, streams)

    def reconcile(self, new: ExtractedFact, similar: Sequence[KnownFact]) -> ReconcileDecision:
        return self._for("reconcile").reconcile(new, similar)

    def stats_dict(self) -> dict[str, dict[str, int]]:
        """Each task's stats, from the model that does it."""
        return {task: self._for(task).stats_dict()[task] for task in TASKS}

    def close(self) -> None:
        for model in (self.default, *self.by_task.values()):
            model.close()


def build(settings: ModelSettings) -> LLMModel | PerTaskModel:
    """The ``llm`` entry point: a chat model at `settings.base_url`, with the heuristic
    model as the fallback for answers it cannot use. A provider fills the URL and name."""
    from threefold.models.heuristic import HeuristicModel

    if not settings.base_url:
        raise SettingsError("model.base_url must be set for the llm model (or a model.provider)")
    if not settings.name:
        raise SettingsError("model.name must be set for the llm model (or a model.provider)")
    default = _chat_model(settings, None, HeuristicModel())
    if not settings.tasks:
        return default
    by_task: dict[str, LLMModel] = {}
    try:
        for task, override in settings.tasks.items():
            by_task[task] = _chat_model(settings, override, HeuristicModel())
    except BaseException:
        for model in (default, *by_task.values()):
            model.close()
        raise
    return PerTaskModel(default, by_task)


def _chat_model(
    settings: ModelSettings, override: TaskModelSettings | None, fallback: MemoryModel
) -> LLMModel:
    """An LLMModel from the model's settings, with one task's overrides applied."""
    chosen = override.model_dump(exclude_none=True) if override else {}
    api_key_env = chosen.get("api_key_env", settings.api_key_env)
    return LLMModel.from_settings(
        base_url=str(chosen.get("base_url", settings.base_url)),
        model=str(chosen.get("name", settings.name)),
        api_key_env=api_key_env or None,
        fallback=fallback,
        timeout=chosen.get("timeout_seconds", settings.timeout_seconds),
        attempts=settings.attempts,
        backoff=settings.backoff_seconds,
        temperature=chosen.get("temperature"),
    )
