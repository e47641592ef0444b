"""Settings from a TOML file plus THREEFOLD_* environment variables.

Nothing is read at import time: call `load_settings()`.
"""

import ipaddress
import json
import os
import re
import types
from pathlib import Path
from typing import Annotated, Any, Literal, NamedTuple, Self, Union, get_args, get_origin
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from platformdirs import user_data_dir
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainSerializer,
    SecretStr,
    SerializationInfo,
    ValidationError,
    ValidatorFunctionWrapHandler,
    field_validator,
    model_validator,
)

from threefold.domain import check_stream
from threefold.errors import InvalidInput, SettingsError
from threefold.locations import database_location, default_db_path

OLD_NAME = "memstrata"
"""The project's name before threefold; settings that still use it are refused, not ignored."""


def _refuse_old_names() -> None:
    """Settings named for memstrata would be ignored silently; say what they are called now."""
    prefix = OLD_NAME.upper() + "_"
    old = sorted(name for name in os.environ if name.upper().startswith(prefix))
    if old:
        renamed = ", ".join(f"{name} -> THREEFOLD_{name[len(prefix) :]}" for name in old)
        raise SettingsError(f"memstrata is now threefold; rename these variables: {renamed}")


def _refuse_old_default_db(settings: "Settings") -> None:
    old_db = Path(user_data_dir(OLD_NAME, appauthor=False)) / "memory.db"
    new_db = default_db_path()
    if settings.db == new_db and old_db.is_file() and not new_db.exists():
        raise SettingsError(
            f"memstrata is now threefold: move the old default database ({old_db}) to"
            f" {default_db_path()}; it opens unchanged"
        )


Provider = Literal["openai", "ollama", "openai-compatible"]


class ProviderPreset(NamedTuple):
    base_url: str | None
    model: str | None
    embed_model: str | None
    api_key_env: str | None
    """None: the server needs no key."""


PROVIDERS: dict[str, ProviderPreset] = {
    "openai": ProviderPreset(
        "https://api.openai.com/v1", "gpt-4o-mini", "text-embedding-3-small", "OPENAI_API_KEY"
    ),
    "ollama": ProviderPreset("http://127.0.0.1:11434/v1", "llama3.1", "nomic-embed-text", None),
    "openai-compatible": ProviderPreset(None, None, None, None),
}
"""What `provider` fills in for the keys not given. openai-compatible (vLLM, llama.cpp,
OpenRouter...) names no server or model, and needs a key only if `api_key_env` is set."""


def _with_preset(data: object, provider: str | None, keys: dict[str, str]) -> object:
    """`data` with each of `keys` (setting -> preset field) that is missing taken from
    the provider's preset; an api_key_env of "" means no key."""
    if not isinstance(data, dict):
        return data
    preset = PROVIDERS.get(provider or "openai")
    if preset is None:  # an unknown provider: the field's own check names it
        return data
    filled = dict(data)
    for setting, field in keys.items():
        if filled.get(setting) is None:
            filled[setting] = getattr(preset, field)
    if filled.get("api_key_env") == "":
        filled["api_key_env"] = None
    return filled


LLM_TASKS = (
    "extract_facts",
    "extract_from_messages",
    "summarize_session",
    "merge_summary",
    "compact_summary",
    "roll_up",
    "route",
    "reconcile",
)
"""The tasks of a MemoryModel, each of which an llm model may send to its own chat model."""
SUMMARY_TASKS = ("summarize_session", "merge_summary", "compact_summary", "roll_up")
"""The tasks that write summaries: the seed design gives them a standard model."""


class TaskModelSettings(BaseModel):
    """One task's chat model, where it differs from the model's: a fast model for routing
    and extraction, a standard one for summaries. Unset fields are the model's own."""

    model_config = ConfigDict(extra="forbid")

    name: str | None = None
    base_url: str | None = None
    api_key_env: str | None = None
    timeout_seconds: float | None = Field(default=None, gt=0)
    temperature: float | None = Field(default=None, ge=0.0, le=2.0)


class ModelSettings(BaseModel):
    """The thinking model: `kind` is heuristic (offline rules), llm (a chat model) or a
    plugin's name. For llm, `provider` fills base_url, name and api_key_env; any of them
    given explicitly wins. Setting a provider alone selects kind llm."""

    kind: str = "heuristic"
    provider: Provider | None = None
    base_url: str | None = None
    name: str | None = None
    api_key_env: str | None = None
    """The variable holding the API key (never the key itself); None or "": no key."""
    timeout_seconds: float = Field(default=30.0, gt=0)
    attempts: int = Field(default=3, ge=1, le=10)
    backoff_seconds: float = Field(default=0.5, ge=0.0)
    options: dict[str, Any] = {}
    """For a plugin model: its own options."""
    batch_turns: int = Field(default=8, ge=1, le=32)
    """At most this many turns of one stream read in one extraction request, when they
    are waiting together (a backfill, an import, a burst faster than the worker): one
    request instead of several, the instructions sent once. A turn is never held back to
    fill a batch, so a live chat still reads each turn as it comes. 1: one per turn."""
    tasks: dict[str, TaskModelSettings] = {}
    """For llm: a chat model per task (`[model.tasks.summarize_session] name = "gpt-4o"`)."""
    standard_name: str | None = None
    """For llm, the seed design's split in one key: the summary tasks (SUMMARY_TASKS) use
    this standard model, the others (extraction, routing, reconciling) the fast `name`. A
    task's own table still wins."""

    @field_validator("tasks")
    @classmethod
    def _known_tasks(cls, value: dict[str, TaskModelSettings]) -> dict[str, TaskModelSettings]:
        unknown = sorted(set(value) - set(LLM_TASKS))
        if unknown:
            raise ValueError(f"unknown tasks {unknown}; the tasks are {', '.join(LLM_TASKS)}")
        return value

    @model_validator(mode="after")
    def _split_by_standard_name(self) -> "ModelSettings":
        if self.standard_name:
            for task in SUMMARY_TASKS:
                own = self.tasks.get(task, TaskModelSettings())
                if own.name is None:
                    self.tasks[task] = own.model_copy(update={"name": self.standard_name})
        return self

    @model_validator(mode="before")
    @classmethod
    def _fill_from_provider(cls, data: object) -> object:
        if isinstance(data, dict) and data.get("provider") and "kind" not in data:
            data = {**data, "kind": "llm"}
        provider = data.get("provider") if isinstance(data, dict) else None
        keys = {"base_url": "base_url", "name": "model", "api_key_env": "api_key_env"}
        return _with_preset(data, provider, keys)


class EmbedSettings(BaseModel):
    """The embedder: `kind` is auto, minilm, static, openai, hashing, none or a plugin's name.

    auto is minilm when the ``local`` extra is installed, else hashing (logged once per
    memory opened); set the kind to make it explicit. For openai, `provider` fills
    base_url, model and api_key_env (explicit values win), and setting a provider alone
    selects kind openai.
    """

    kind: str = "auto"
    provider: Provider | None = None
    model: str | None = None
    """For openai: the embedding model name."""
    base_url: str | None = None
    api_key_env: str | None = None
    """The variable holding the API key (never the key itself); None or "": no key."""
    dimensions: int | None = Field(default=None, ge=1)
    """For openai: ask for vectors of this size (text-embedding-3 models can shorten theirs)."""
    timeout_seconds: float = Field(default=30.0, gt=0)
    options: dict[str, Any] = {}
    """For a plugin embedder: its own options."""

    @model_validator(mode="before")
    @classmethod
    def _fill_from_provider(cls, data: object) -> object:
        if isinstance(data, dict) and data.get("provider") and "kind" not in data:
            data = {**data, "kind": "openai"}
        if not isinstance(data, dict) or str(data.get("kind", "")).strip().lower() != "openai":
            return data
        keys = {"base_url": "base_url", "model": "embed_model", "api_key_env": "api_key_env"}
        return _with_preset(data, data.get("provider"), keys)


class HttpSettings(BaseModel):
    host: str = "127.0.0.1"
    port: int = Field(default=8420, ge=0, le=65535)
    max_body_bytes: int = Field(default=16 * 1024 * 1024, ge=1024)
    """Uploads (Slack zips, Jira CSVs) may be large; everything else is far smaller."""
    workers: int = Field(default=1, ge=1, le=64, description="server processes on one port")
    job_processes: int | None = Field(
        default=None,
        ge=0,
        le=64,
        description="processes of their own for the jobs (digests, events); 0: a thread in"
        " each server process; unset: 1 under `threefold serve`",
    )
    """With 1 or more, the server processes only answer requests, and the jobs run in
    these processes at a lower priority: a digest then takes no time from an answer that a
    sender (Slack's Events API) waits for. Unset, `serve` starts one (see
    threefold.faces.http.server.DEFAULT_JOB_PROCESSES), and an app built without `serve`
    (uvicorn --factory) runs them in a thread, as nothing else would."""
    access_log: bool = False
    """A line on stdout for every request. Off by default: it costs a sixth of a millisecond
    of CPU per request, and the query string of a GET holds the user's question."""


class ProxySettings(BaseModel):
    upstream: str = "http://127.0.0.1:11434/v1"
    host: str = "127.0.0.1"
    port: int = Field(default=8421, ge=0, le=65535)
    budget: int = Field(default=2000, ge=1, description="memory tokens added per request")
    timeout_seconds: float = Field(default=120.0, gt=0)
    api_key_env: str = "OPENAI_API_KEY"
    """The variable holding the upstream's key. It is sent unless the client sends its own
    `Authorization` for the upstream (with its threefold key in `X-API-Key`)."""


class McpSettings(BaseModel):
    tenant: str = "default"
    trust: Literal["full", "inner", "familiar", "public"] = "full"


class WriteSettings(BaseModel):
    """How far a writer below `full` trust is believed, and how far ahead an event may be."""

    inner_max_confidence: float = Field(default=0.9, ge=0.0, le=1.0)
    familiar_max_confidence: float = Field(default=0.8, ge=0.0, le=1.0)
    max_future_seconds: float = Field(
        default=86400.0,
        ge=0.0,
        description="event times (`at`) further ahead are refused from writers below full",
    )


class ProjectSettings(BaseModel):
    """A project stream and the ways outside messages name it, for routing."""

    stream: str
    key: str | None = None
    """The tracker key: ALPHA routes ALPHA-142 here, and Jira issues of ALPHA."""
    names: tuple[str, ...] = ()
    """Names that mention the project in text, e.g. "Project Alpha"."""
    channels: tuple[str, ...] = ()
    """Slack channels (without '#') whose every message belongs here."""

    @field_validator("stream")
    @classmethod
    def _valid_stream(cls, value: str) -> str:
        try:
            return check_stream(value)
        except InvalidInput as exc:
            raise ValueError(str(exc)) from None

    @field_validator("key")
    @classmethod
    def _upper_key(cls, value: str | None) -> str | None:
        if value is not None and not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]{0,19}", value):
            raise ValueError(f"a project key is letters, digits or _, like ALPHA; got {value!r}")
        return value.upper() if value else None

    @field_validator("channels")
    @classmethod
    def _bare_channels(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(c.removeprefix("#").lower() for c in value)


OBSERVATION_THRESHOLDS: dict[str, float] = {
    "commitment": 0.85,
    "blocker": 0.7,
    "handoff": 0.75,
    "deadline_mention": 0.8,
    "risk_signal": 0.7,
    "mood_signal": 0.7,
    "status_update": 0.5,
    "reference": 0.7,
}


class SourceSettings(BaseModel):
    """Slack, Jira and web pages: batching, confidence and fetching."""

    batch_messages: int = Field(default=20, ge=1, description="digest a stream at this many")
    batch_idle_minutes: float = Field(
        default=30.0, ge=0.0, description="or this long after its last live message"
    )
    import_batch_messages: int = Field(
        default=200, ge=1, description="messages per digest when importing history"
    )
    observation_thresholds: dict[str, float] = Field(
        default_factory=lambda: dict(OBSERVATION_THRESHOLDS),
        description="per category: observations below this confidence are not stored",
    )
    fetch_hosts: tuple[str, ...] = ()
    """Hosts whose linked pages are fetched and summarised ('*.example.com' allowed).
    Empty: links are stored as references, and nothing is fetched."""
    fetch_timeout_seconds: float = Field(default=10.0, gt=0)
    fetch_max_bytes: int = Field(default=2_000_000, ge=1024)
    fetch_allow_networks: tuple[str, ...] = ()
    """Networks a fetched host may resolve to although they are not public, e.g.
    '10.20.0.0/16' for an intranet wiki. Empty: loopback, private, link-local and every other
    non-global address is refused, so an allowed name cannot be pointed at internal services."""

    @field_validator("fetch_allow_networks")
    @classmethod
    def _valid_networks(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for network in value:
            try:
                ipaddress.ip_network(network, strict=False)
            except ValueError:
                raise ValueError(f"not a network like '10.0.0.0/8': {network!r}") from None
        return value


REVEAL_SECRETS = "reveal_secrets"
"""Serialization context key: `model_dump_json(context={REVEAL_SECRETS: True})` writes
secrets out, for handing settings to a process of one's own (serve's workers); any other
JSON dump shows them masked."""


def _secret_json(value: SecretStr, info: SerializationInfo) -> str:
    context = info.context if isinstance(info.context, dict) else {}
    return value.get_secret_value() if context.get(REVEAL_SECRETS) else str(value)


Secret = Annotated[SecretStr, PlainSerializer(_secret_json, when_used="json")]


def _http_base(value: str) -> str:
    parts = urlsplit(value)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"an API base is an http(s) URL with a host; got {value!r}")
    return value.rstrip("/")


class SlackSettings(BaseModel):
    """Slack as it happens: the Events API receiver and the Web API backfill.

    Slack signs its events with the app's signing secret and sends no API key, so the
    signature is the receiver's authentication; what it receives goes to `tenant`.
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    signing_secret: Secret | None = None
    """The app's signing secret; None: POST /v1/slack/events answers 503."""
    bot_token: Secret | None = None
    """A bot token (xoxb-...) with channels:history, channels:read and users:read."""
    tenant: str = "default"
    api_base: str = "https://slack.com/api"
    replay_window_seconds: float = Field(
        default=300.0, gt=0, description="events signed longer ago (or ahead) are refused"
    )
    keep_bot_messages: bool = True
    """Store what bots say (CI, deploys, Jira): who did what often lives there."""
    timeout_seconds: float = Field(default=30.0, gt=0)
    max_rate_limit_waits: int = Field(
        default=5, ge=0, description="429 answers waited out in a row before a backfill stops"
    )
    max_retry_after_seconds: float = Field(
        default=120.0, ge=0, description="the longest Retry-After a backfill waits"
    )
    page_size: int = Field(default=200, ge=1, le=1000)

    @field_validator("api_base")
    @classmethod
    def _http(cls, value: str) -> str:
        return _http_base(value)


class DriveFolder(BaseModel):
    """A Drive folder whose documents belong to a stream."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    folder_id: str = Field(min_length=1)
    stream: str

    @field_validator("stream")
    @classmethod
    def _valid_stream(cls, value: str) -> str:
        return ProjectSettings._valid_stream(value)


class DriveSettings(BaseModel):
    """Google Drive documents, read through the Drive API v3."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    token: Secret | None = None
    """An OAuth access token (a service account's, or a user's) with drive.readonly."""
    tenant: str = "default"
    api_base: str = "https://www.googleapis.com/drive/v3"
    folders: tuple[DriveFolder, ...] = ()
    max_file_bytes: int = Field(
        default=5 * 1024 * 1024, ge=1024, description="larger documents are skipped, and said"
    )
    timeout_seconds: float = Field(default=30.0, gt=0)
    max_rate_limit_waits: int = Field(default=5, ge=0)
    max_retry_after_seconds: float = Field(default=120.0, ge=0)

    @field_validator("api_base")
    @classmethod
    def _http(cls, value: str) -> str:
        return _http_base(value)


RULE_KINDS = (
    "overdue_commitment",
    "stale_blocker",
    "deadline_soon",
    "unanswered",
    "unowned_handoff",
    "mood_drop",
    "overdue_issue",
    "unassigned_work",
    "risk_signal",
)
RULE_DAYS: dict[str, float] = {
    "overdue_commitment": 0.0,
    "stale_blocker": 3.0,
    "deadline_soon": 3.0,
    "unanswered": 1.0,
    "unowned_handoff": 1.0,
    "mood_drop": 7.0,
    "overdue_issue": 0.0,
    "unassigned_work": 14.0,
    "risk_signal": 7.0,
}
"""Each rule kind's N days: past the due date, open longer than, within, left for, the
mood window compared with the one before it, how soon an unassigned issue is due, or how
recent a risk was raised."""


class ActionRule(BaseModel):
    """One proactive rule, as data: what to look for, after how many days, whom to tell."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal[
        "overdue_commitment",
        "stale_blocker",
        "deadline_soon",
        "unanswered",
        "unowned_handoff",
        "mood_drop",
        "overdue_issue",
        "unassigned_work",
        "risk_signal",
    ]
    name: str = ""
    """What actions of this rule are called (default: the kind); unique among the rules."""
    days: float | None = Field(default=None, ge=0.0, le=3650.0)
    """N for the kind (RULE_DAYS); None: the kind's default."""
    drop: float = Field(default=0.5, gt=0.0, le=2.0)
    """mood_drop: how far the mean mood (-1 to 1) must fall between the two windows."""
    enabled: bool = True
    webhook: str | None = None
    """An http(s) URL that is POSTed each new action of this rule as JSON."""
    slack_channel: str | None = Field(default=None, min_length=1, max_length=80)
    """A Slack channel (its id, or a name the bot is in) told of each new action of this
    rule by chat.postMessage, with slack.bot_token (scope chat:write)."""

    @field_validator("webhook")
    @classmethod
    def _http_url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise ValueError(f"a webhook is an http(s) URL with a host; got {value!r}")
        return value

    @property
    def label(self) -> str:
        return self.name or self.kind

    @property
    def window_days(self) -> float:
        return RULE_DAYS[self.kind] if self.days is None else self.days


def _default_rules() -> list[ActionRule]:
    return [ActionRule(kind=kind) for kind in RULE_KINDS]  # type: ignore[arg-type]


class TeamSettings(BaseModel):
    """Profiles, proactive actions and daily digests (threefold.team)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rules: list[ActionRule] = Field(default_factory=_default_rules)
    rebuild_hours: float = Field(
        default=24.0, gt=0.0, description="maintenance rebuilds profiles and actions this often"
    )
    timezone: str = Field(default="UTC", description="the day boundaries of stored digests")
    actions_on_arrival: bool = Field(
        default=True,
        description="run the rules when messages are digested or a tracker is imported",
    )
    webhook_timeout_seconds: float = Field(default=5.0, gt=0.0)
    webhook_allow_networks: tuple[str, ...] = ()
    """Non-public networks a webhook host may resolve to ('127.0.0.0/8' for a local relay);
    otherwise loopback, private and link-local addresses are refused, as for fetching."""
    profile_share: float = Field(
        default=0.15, ge=0.0, le=1.0, description="the most of a context profiles may take"
    )
    digest_share: float = Field(
        default=0.25, ge=0.0, le=1.0, description="the most of a context digests may take"
    )
    projects_share: float = Field(
        default=0.3,
        ge=0.0,
        le=1.0,
        description="the most of a context the items of several named projects may take",
    )

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, value: str) -> str:
        try:
            ZoneInfo(value)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {value!r}; use an IANA name") from None
        return value

    @field_validator("rules")
    @classmethod
    def _unique_names(cls, value: list[ActionRule]) -> list[ActionRule]:
        labels = [rule.label for rule in value]
        twice = sorted({label for label in labels if labels.count(label) > 1})
        if twice:
            raise ValueError(f"rule names must be unique; repeated: {', '.join(twice)}")
        return value

    @field_validator("webhook_allow_networks")
    @classmethod
    def _valid_networks(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return SourceSettings._valid_networks(value)


class ImportLimits(BaseModel):
    """Bounds on what one import may read, so that a hostile export is refused, not obeyed.

    Python holds parsed JSON in 10 to 30 times its size, so max_file_bytes is what bounds
    memory: at 8 MiB the worst file measured (millions of tiny objects) peaks an import at
    about 300 MB. Raise it for channels of more than about 8,000 messages a day, or a
    users.json of more than about 5,000 people.
    """

    max_file_bytes: int = Field(
        default=8 * 1024 * 1024, ge=1024, description="one file of an export, uncompressed"
    )
    max_total_bytes: int = Field(
        default=4 * 1024**3, ge=1024, description="all the files of one export, uncompressed"
    )
    max_files: int = Field(default=200_000, ge=1, description="files in one export")
    max_row_bytes: int = Field(
        default=4 * 1024 * 1024, ge=1024, description="one CSV record (a Jira issue), all cells"
    )


class Settings(BaseModel):
    """Every knob, with its default. Env: THREEFOLD_RECENT_TURNS=12, THREEFOLD_MODEL__KIND=llm.

    load_settings() reads them from a TOML file and the environment; Settings() alone
    takes only its arguments."""

    # As pydantic-settings configured it: defaults validated too, and the validated db (a
    # Path) taken back as it is when settings are handed to a worker as JSON.
    model_config = ConfigDict(
        extra="forbid", frozen=True, validate_default=True, arbitrary_types_allowed=True
    )

    db: Path | str = Field(default_factory=default_db_path)
    """A SQLite file, or a postgresql:// URL (see threefold.store.open_store)."""
    recent_turns: int = Field(default=10, ge=0, description="K: raw turns always in the context")
    session_turns: int = Field(default=20, ge=1, description="N: a session summary every N turns")
    chunk_summarize_tokens: int = Field(
        default=6000, ge=100, description="also summarize once the unsummarized turns reach this"
    )
    summary_max_tokens: int = Field(default=2000, ge=100)
    compaction_target: float = Field(
        default=0.7, gt=0.2, lt=1.0, description="compact to this share of summary_max_tokens"
    )
    session_summary_tokens: int = Field(default=300, ge=20)
    rollup_tokens: int = Field(default=400, ge=20)
    prompt_budget: int = Field(default=6000, ge=1, description="default context() budget")
    pin_min_confidence: float = Field(
        default=0.7, ge=0.0, le=1.0, description="the user's own facts pin at or above this"
    )
    observation_sources: tuple[str, ...] = Field(
        default=("slack.", "jira.", "web.", "drive."),
        description="facts whose source kind starts so are recall material, unless of a "
        "pinned_observation_categories category at or above pin_observation_confidence",
    )
    pinned_observation_categories: tuple[str, ...] = Field(
        default=("decision", "role"),
        description="what outside messages may pin: decisions and who holds which role",
    )
    pin_observation_confidence: float = Field(
        default=0.85, ge=0.0, le=1.0, description="a plain Slack statement is stored at 0.85"
    )
    global_pinned_categories: tuple[str, ...] = Field(
        default=("role", "decision", "preference", "recurring"),
        description="pinned global facts shown in every stream (who holds which role, what "
        "was decided, how the owner and the organisation's people like things done, what "
        "recurs); other global facts only when they share words with the query",
    )
    unpinned_categories: tuple[str, ...] = Field(
        default=("deadline_mention", "risk_signal", "mood_signal", "status_update", "reference"),
        description="facts of these categories are recall material, never pinned",
    )
    unpinned_sources: tuple[str, ...] = Field(
        default=("jira.issue",),
        description="nor are facts from these sources (Jira fields: see structured data)",
    )
    max_turn_chars: int = Field(default=20_000_000, ge=1)
    """Also the longest Slack message, Jira issue text or fetched page that is stored."""
    background_worker: bool = True
    job_attempts: int = Field(default=5, ge=1)
    job_backoff_seconds: float = Field(default=2.0, ge=0.0)
    job_backoff_max_seconds: float = Field(default=300.0, ge=0.0)
    stream_lease_seconds: float = Field(
        default=10.0, ge=1.0, description="renewed every third of it while a job runs"
    )
    durability: Literal["full", "normal", "off"] = Field(
        default="full",
        description="SQLite synchronous: full survives a power cut, normal a process crash",
    )
    model: ModelSettings = ModelSettings()
    embed: EmbedSettings = EmbedSettings()
    http: HttpSettings = HttpSettings()
    proxy: ProxySettings = ProxySettings()
    mcp: McpSettings = McpSettings()
    projects: list[ProjectSettings] = []
    sources: SourceSettings = SourceSettings()
    team: TeamSettings = Field(default_factory=TeamSettings)
    imports: ImportLimits = ImportLimits()
    slack: SlackSettings = SlackSettings()
    drive: DriveSettings = DriveSettings()
    trace_file: Path | None = None
    """JSON-lines trace events go here (THREEFOLD_TRACE_FILE)."""
    maintenance_interval_seconds: float = Field(default=3600.0, gt=0)
    max_rows_per_run: int = Field(default=10_000, ge=1)
    retention_days: float = Field(
        default=90.0, gt=0, description="unpinned facts older than this may be compressed"
    )
    raw_retention_days: float | None = Field(
        default=None,
        gt=0,
        description="delete raw turns and messages older than this once summarized "
        "(facts, summaries and the last K turns stay); None: keep them (seed 004: 7)",
    )
    raw_retention_sources: tuple[str, ...] = Field(
        default=("slack",), description="the record sources whose messages expire so"
    )
    archive_after_days: float = Field(
        default=30.0, ge=0, description="deadlines and dates this far past are archived"
    )
    archive_cleanup_days: float | None = Field(
        default=None, description="delete archived summaries older than this (default: never)"
    )
    reconcile_similarity: float = Field(
        default=0.85, gt=0.0, le=1.0, description="facts this similar go to the reconcile task"
    )
    recent_verbatim_turns: int = Field(
        default=3,
        ge=0,
        description="of the last K turns, the newest this many are guaranteed; the rest "
        "yield to the summary's and retrieved material's floors when the budget is tight",
    )
    turn_max_share: float = Field(
        default=0.25,
        gt=0.0,
        le=1.0,
        description="the most of the budget one of the last K turns may take; a longer "
        "turn is cut and marked, so it cannot push the others out",
    )
    summary_floor_share: float = Field(
        default=0.05,
        ge=0.0,
        le=1.0,
        description="the summary keeps its newest whole lines within this share of the "
        "budget ahead of retrieved material and the last K turns beyond the newest few; it "
        "takes the room retrieved material leaves besides",
    )
    retrieved_floor_share: float = Field(
        default=0.6,
        ge=0.0,
        le=1.0,
        description="retrieved material keeps this share of the budget (if it has that "
        "much) ahead of the last K turns beyond the newest few, so that older memory "
        "relevant to the question has room: chosen on LoCoMo at 1,000-6,000 tokens "
        "(benchmarks/recall_locomo.py, dev conversations)",
    )
    facts_floor_share: float = Field(
        default=0.1,
        ge=0.0,
        le=1.0,
        description="pinned facts keep this share of the budget ahead of every turn, "
        "condensed to a profile line per subject when needed",
    )
    facts_ceiling_share: float = Field(
        default=0.25,
        ge=0.0,
        le=1.0,
        description="pinned facts (stream plus global) take at most this share of the budget",
    )
    retrieved_share: float = Field(
        default=1.0,
        ge=0.0,
        le=1.0,
        description="share of the room left after turns, the summary floor and facts that "
        "retrieved material may take before the rest of the summary",
    )
    index_budget: int = Field(
        default=0, ge=0, description="tokens for the memory index section (0: no index)"
    )
    index_recent_days: float = Field(default=7.0, ge=0.0)
    writes: WriteSettings = Field(default_factory=WriteSettings)

    @field_validator("db", mode="wrap")
    @classmethod
    def _database(cls, value: object, handler: ValidatorFunctionWrapHandler) -> Path | str:
        # A URL stays the string it was written as: validated as the union, a JSON string
        # (settings handed to a worker) became a Path and "postgresql://" a folder.
        return database_location(value if isinstance(value, str) else handler(value))

    @model_validator(mode="after")
    def _target_below_cap(self) -> Self:
        if int(self.summary_max_tokens * self.compaction_target) < 50:
            raise ValueError("summary_max_tokens * compaction_target must leave at least 50 tokens")
        return self

    @property
    def compaction_target_tokens(self) -> int:
        return int(self.summary_max_tokens * self.compaction_target)


ENV_PREFIX = "THREEFOLD_"
ENV_NESTING = "__"
"""THREEFOLD_MODEL__KIND=llm sets model.kind."""


def load_settings(config: Path | None = None, **overrides: object) -> Settings:
    """Settings from `config` (or $THREEFOLD_CONFIG), the environment, then `overrides`,
    each over the one before, nested tables merged key by key.

    Raises SettingsError naming each invalid key.
    """
    _refuse_old_names()
    path = config or os.environ.get("THREEFOLD_CONFIG")
    merged: dict[str, Any] = {}
    if path:
        if not Path(path).is_file():
            raise SettingsError(f"config file not found: {path}")
        merged = _from_toml(Path(path))
    merged = _merged(merged, _from_env(os.environ))
    merged = _merged(merged, overrides)
    try:
        settings = Settings.model_validate(merged)
    except ValidationError as exc:
        raise SettingsError(_describe(exc)) from None
    _refuse_old_default_db(settings)
    return settings


def _from_toml(path: Path) -> dict[str, Any]:
    import tomllib  # only a settings file needs it: its import is ~2% of a short CLI call

    try:
        with path.open("rb") as file:
            return tomllib.load(file)
    except (OSError, ValueError) as exc:  # unreadable or malformed TOML
        raise SettingsError(f"cannot read settings: {path}: {exc}") from None


def _from_env(environ: "os._Environ[str] | dict[str, str]") -> dict[str, Any]:
    """The settings named by THREEFOLD_* variables, names matched in any case. A variable
    naming no setting is another tool's (THREEFOLD_CONFIG) and is left alone; a value for
    a list, table or section is JSON; the rest are strings, which validation converts."""
    found: dict[str, Any] = {}
    for name, value in sorted(environ.items()):
        if not name.upper().startswith(ENV_PREFIX):
            continue
        path = name[len(ENV_PREFIX) :].lower().split(ENV_NESTING)
        if path[0] not in Settings.model_fields or not all(path):
            continue
        annotation: Any = Settings
        for key in path:
            fields = _model_fields(annotation)
            annotation = fields[key].annotation if fields and key in fields else None
        read: Any = value
        if _is_complex(annotation):
            try:
                read = json.loads(value)
            except ValueError as exc:
                raise SettingsError(f"cannot read settings: {name} is not JSON: {exc}") from None
        nested = {path[-1]: read}
        for key in reversed(path[:-1]):
            nested = {key: nested}
        found = _merged(found, nested)
    return found


def _model_fields(annotation: Any) -> dict[str, Any] | None:
    """The fields of a settings section (a model, or an optional one), else None."""
    for candidate in (annotation, *get_args(annotation)):
        if isinstance(candidate, type) and issubclass(candidate, BaseModel):
            return dict(candidate.model_fields)
    return None


def _is_complex(annotation: Any) -> bool:
    """Whether an environment value for `annotation` is written as JSON: a section, a
    list, a tuple, a set or a table (or an optional one)."""
    if annotation is None:
        return False
    origin = get_origin(annotation)
    if origin in (Union, types.UnionType):
        return any(_is_complex(arg) for arg in get_args(annotation) if arg is not type(None))
    if origin in (list, tuple, set, frozenset, dict):
        return True
    return isinstance(annotation, type) and issubclass(annotation, (BaseModel, list, tuple, dict))


def _merged(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """`over` on `base`; where both hold a table, merged key by key."""
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merged(out[key], value)
        else:
            out[key] = value
    return out


def _describe(exc: ValidationError) -> str:
    lines = []
    for error in exc.errors():
        key = ".".join(str(part) for part in error["loc"]) or "settings"
        message = error["msg"].removeprefix("Value error, ")  # pydantic's, for a ValueError
        lines.append(f"{key}: {message} (got {error.get('input')!r})")
    return "invalid settings:\n  " + "\n  ".join(lines)
