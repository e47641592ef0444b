"""Live sources over HTTP: Slack's Events API receiver, and the reads of Slack's history
and of Google Drive that run as imports do (queued, with a status URL).

Slack sends no API key: `POST /v1/slack/events` is authenticated by its signature (see
threefold.sources.slack_events), and its events go to the tenant settings.slack.tenant
names. The receiver only checks the request and keeps the event on disk (a SQLite memory
in its inbox file, where no worker's write holds it up), on a lane of its own, so that
Slack has its answer well within its 3 seconds; a worker queues and applies it after.
"""

import functools
import time
from collections.abc import Callable
from datetime import datetime
from typing import Annotated, Any

import httpx
from fastapi import APIRouter, Depends, Request, Response
from fastapi.responses import JSONResponse
from pydantic import Field

from threefold.domain import ImportReport
from threefold.errors import InvalidInput
from threefold.faces.http.auth import Owner
from threefold.faces.http.errors import ApiError, error_response
from threefold.faces.http.imports import Imports
from threefold.faces.http.schemas import ErrorResponse, ImportStarted, _In, _Out
from threefold.memory import Memory
from threefold.settings import Settings
from threefold.sources.drive import drive_api
from threefold.sources.slack_api import slack_api
from threefold.sources.slack_events import EventAction, Unsigned, read_envelope, read_event, verify

EVENTS_PATH = "/v1/slack/events"

router = APIRouter(prefix="/v1", responses={401: {"model": ErrorResponse}})


class SlackAnswer(_Out):
    ok: bool = True
    outcome: str = Field(description="queued, duplicate (a retry) or ignored")
    detail: str = ""


class BackfillIn(_In):
    since: datetime | None = Field(
        default=None, description="read nothing older (default: all, or where the last stopped)"
    )
    channels: list[str] = Field(
        default_factory=list, max_length=1000, description="names or ids; empty: every one"
    )


async def _settings(request: Request) -> Settings:
    return request.app.state.settings


async def _imports(request: Request) -> Imports:
    return request.app.state.imports


AppSettings = Annotated[Settings, Depends(_settings)]
ImportQueue = Annotated[Imports, Depends(_imports)]


@router.post(
    "/slack/events",
    tags=["slack"],
    response_model=SlackAnswer,
    responses={400: {"model": ErrorResponse}, 404: {"model": ErrorResponse}},
)
async def slack_events(request: Request, settings: AppSettings) -> Any:
    """Slack's Events API: answers `url_verification`, and queues each `event_callback`
    once (a retry, X-Slack-Retry-Num, of an event taken before changes nothing). Needs no
    API key: a request must carry Slack's signature, made with slack.signing_secret within
    the replay window (5 minutes), or it is refused with a 401."""
    secret = settings.slack.signing_secret
    if secret is None:
        # A 404, not a 5xx: the server is well; it has no receiver until it is given one.
        return error_response(
            404, "slack_not_configured", "set slack.signing_secret to receive Slack's events"
        )
    body = await request.body()
    try:
        verify(
            secret.get_secret_value(),
            request.headers.get("x-slack-request-timestamp"),
            request.headers.get("x-slack-signature"),
            body,
            now=time.time(),
            window_seconds=settings.slack.replay_window_seconds,
        )
    except Unsigned as exc:
        return error_response(401, exc.code, str(exc))
    try:
        envelope = read_envelope(body)
    except InvalidInput as exc:
        return error_response(400, "invalid_json", str(exc))
    kind = envelope.get("type")
    if kind == "url_verification":
        challenge = envelope.get("challenge")
        if not isinstance(challenge, str):
            raise ApiError(400, "bad_request", "url_verification needs its challenge")
        return JSONResponse({"challenge": challenge})
    if kind != "event_callback":
        return SlackAnswer(outcome="ignored", detail=f"requests of type {kind!r} are not read")
    event = read_event(envelope.get("event"))
    if event.action is EventAction.IGNORE:
        return SlackAnswer(outcome="ignored", detail=event.reason)
    # Events that arrive while a batch is synced are taken together, with one sync.
    outcome = await request.app.state.receiver_lane.run_grouped(_taker(request), envelope)
    return SlackAnswer(outcome=outcome)


def _taker(request: Request) -> Callable[[list[dict[str, Any]]], list[Any]]:
    """The one function the receiver's lane groups events for (it groups by function)."""
    state = request.app.state
    take = getattr(state, "take_slack_events", None)
    if take is None:
        memory: Memory = state.memory
        tenant = state.settings.slack.tenant
        take = state.take_slack_events = functools.partial(memory.take_slack_events, tenant=tenant)
    return take


@router.post(
    "/slack/backfill", status_code=202, tags=["slack"], responses={403: {"model": ErrorResponse}}
)
def slack_backfill(
    body: BackfillIn,
    key: Owner,
    imports: ImportQueue,
    settings: AppSettings,
    request: Request,
    response: Response,
) -> ImportStarted:
    """Start reading Slack's history through its Web API (slack.bot_token), as an import
    without an upload: poll `status_url`. A backfill stopped midway goes on from where it
    was when started again, and stores nothing twice. Needs a full key."""
    memory: Memory = request.app.state.memory
    if settings.slack.bot_token is None:
        raise ApiError(404, "slack_not_configured", "set slack.bot_token to read Slack's history")

    def work(progress: Callable[[int, int], None]) -> ImportReport:
        with httpx.Client(timeout=settings.slack.timeout_seconds) as client:
            return memory.backfill_slack(
                slack_api(settings, client),
                since=body.since,
                channels=body.channels,
                progress=progress,
                tenant=key.tenant,
            )

    return _started(imports.start(key.tenant, "slack-backfill", work).id, response)


@router.post(
    "/drive/sync", status_code=202, tags=["drive"], responses={403: {"model": ErrorResponse}}
)
def drive_sync(
    key: Owner, imports: ImportQueue, settings: AppSettings, request: Request, response: Response
) -> ImportStarted:
    """Start reading the Google Drive folders of settings (drive.folders) into their
    streams, as an import without an upload: poll `status_url`. Needs a full key."""
    memory: Memory = request.app.state.memory
    if settings.drive.token is None or not settings.drive.folders:
        raise ApiError(404, "drive_not_configured", "set drive.token and drive.folders first")

    def work(progress: Callable[[int, int], None]) -> ImportReport:
        with httpx.Client(timeout=settings.drive.timeout_seconds) as client:
            return memory.sync_drive(
                drive_api(settings, client), progress=progress, tenant=key.tenant
            )

    return _started(imports.start(key.tenant, "drive-sync", work).id, response)


def _started(job_id: str, response: Response) -> ImportStarted:
    url = f"/v1/imports/{job_id}"
    response.headers["Location"] = url
    return ImportStarted(id=job_id, status_url=url)
