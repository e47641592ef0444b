"""The inspector's pages under /ui. Each is a thin, synchronous read of the Memory façade
for the signed-in viewer; forms that change data need a CSRF token and trust `full`.

Errors render as pages: a stream or fact the viewer may not see is a 404 page, whether it
belongs to another tenant, is above the viewer's trust, or does not exist at all.
"""

from collections import Counter
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlencode, urlsplit

import anyio
from fastapi import APIRouter, FastAPI, File, Form, Query, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from fastapi.routing import APIRoute
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader

from threefold.domain import FactCategory
from threefold.errors import InvalidInput, NotFound
from threefold.faces.http.errors import ApiError
from threefold.faces.http.imports import Imports
from threefold.faces.http.schemas import ImportKind, ImportStatus
from threefold.faces.web import views
from threefold.faces.web.session import (
    Forbidden,
    SignInNeeded,
    Viewer,
    check_csrf,
    drop_key,
    keep_key,
    require_owner,
    require_writer,
    resolve_viewer,
)
from threefold.memory import Memory
from threefold.pipeline.backlog import BacklogWatch
from threefold.team import ActionStatus

HERE = Path(__file__).parent
# Every template escapes what it prints, whatever its file name ends with.
templates = Jinja2Templates(
    env=Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=True)
)
templates.env.globals["source_link"] = views.source_link
templates.env.globals["progress_line"] = views.progress_line

SECURITY_HEADERS = {
    # No inline script or style at all: markup that slips into a page cannot run.
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",  # no-referrer would make form posts say Origin: null
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",  # pages hold private memories
}
MAX_BUDGET = 200_000
DROPPED_SHOWN = 50
"""Dropped items listed one by one; the rest are counted by reason (a big stream drops
thousands of facts, and listing them all would make the page slow to build and to read)."""


class PageRoute(APIRoute):
    """A route whose errors are HTML pages (or a redirect to sign in), not the API's JSON."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def guarded(request: Request) -> Response:
            if request.method == "POST" and not _same_origin(request):
                return await _error(request, 403, "Not allowed", "a form from another site")
            try:
                return await handler(request)
            except SignInNeeded:
                target = urlencode({"next": request.url.path})
                return RedirectResponse(f"/ui/signin?{target}", status_code=303)
            except Forbidden as exc:
                return await _error(request, 403, "Not allowed", str(exc))
            except NotFound as exc:
                return await _error(request, 404, "Not found", str(exc) or "not found")
            except (InvalidInput, RequestValidationError) as exc:
                return await _error(request, 400, "Bad request", _reason(exc))
            except ApiError as exc:
                return await _error(request, exc.status_code, "Not possible", str(exc.detail))

        return guarded


def _same_origin(request: Request) -> bool:
    """False for a post a browser says came from another site; the CSRF token is the main
    guard, this is a second one (and the only one for the sign-in form)."""
    origin = request.headers.get("origin")
    if origin is None:
        return True
    return urlsplit(origin).netloc == request.headers.get("host")


async def _error(request: Request, status: int, title: str, message: str) -> HTMLResponse:
    """An error page, with the navigation if the browser is signed in."""
    viewer = await anyio.to_thread.run_sync(_viewer_or_none, request)
    return page(request, "error.html", status, title=title, message=message, viewer=viewer)


def _viewer_or_none(request: Request) -> Viewer | None:
    try:
        return resolve_viewer(_memory(request), request)
    except SignInNeeded:
        return None


def _reason(exc: Exception) -> str:
    if isinstance(exc, RequestValidationError):
        return "; ".join(str(e.get("msg", "")) for e in exc.errors()) or "invalid request"
    return str(exc)


router = APIRouter(prefix="/ui", route_class=PageRoute, include_in_schema=False)


def page(request: Request, template: str, code: int = 200, **values: Any) -> HTMLResponse:
    response = templates.TemplateResponse(
        request, template, {"request": request, **values}, status_code=code
    )
    response.headers.update(SECURITY_HEADERS)
    return response


def _memory(request: Request) -> Memory:
    return request.app.state.memory


def _viewer(request: Request) -> tuple[Memory, Viewer]:
    memory = _memory(request)
    return memory, resolve_viewer(memory, request)


def _back(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


PageNumber = Annotated[int, Query(ge=1, le=10_000)]


# -- sign-in ------------------------------------------------------------------


@router.get("")
@router.get("/")
def home() -> RedirectResponse:
    return _back("/ui/streams")


@router.get("/signin")
def signin_form(request: Request, next: str = "/ui/streams") -> HTMLResponse:
    return page(request, "signin.html", viewer=None, next=_local(next), failed=False)


@router.post("/signin")
def signin(
    request: Request, key: Annotated[str, Form(max_length=200)], next: Annotated[str, Form()] = ""
) -> Response:
    secret = key.strip()
    if _memory(request).api_key(secret) is None:
        return page(request, "signin.html", 401, viewer=None, next=_local(next), failed=True)
    response = _back(_local(next))
    keep_key(response, request, secret)
    return response


@router.post("/signout")
def signout(request: Request, csrf: Annotated[str, Form()] = "") -> Response:
    _, viewer = _viewer(request)
    check_csrf(viewer, csrf)
    response = _back("/ui/signin")
    drop_key(response)
    return response


def _local(target: str) -> str:
    """Only a path inside the inspector: never a redirect to another site."""
    if target.startswith("/ui") and not target.startswith("//") and "\\" not in target:
        return target
    return "/ui/streams"


# -- streams ------------------------------------------------------------------


@router.get("/streams")
def streams(request: Request, p: PageNumber = 1) -> HTMLResponse:
    memory, viewer = _viewer(request)
    listed = views.page_of(memory.streams(tenant=viewer.tenant), p)
    rows = [views.stream_row(memory, viewer, s.name, s.turn_count) for s in listed.items]  # type: ignore[attr-defined]
    return page(request, "streams.html", viewer=viewer, rows=rows, pages=listed)


Question = Annotated[str, Query(max_length=2000)]
"""The question, named `query` as in the HTTP API's GET /v1/context and /v1/search."""
OldQuestion = Annotated[str, Query(max_length=2000, include_in_schema=False)]
"""`q`, the name pages used before: old links and bookmarks keep working."""


@router.get("/context")
def context(
    request: Request,
    stream: str,
    query: Question = "",
    q: OldQuestion = "",
    budget: Annotated[int | None, Query(ge=1, le=MAX_BUDGET)] = None,
) -> HTMLResponse:
    memory, viewer = _viewer(request)
    views.known_stream(memory, viewer, stream)
    q = query or q
    built = memory.context(stream, q, budget, trust=viewer.trust, tenant=viewer.tenant)
    return page(
        request,
        "context.html",
        viewer=viewer,
        stream=stream,
        ctx=built,
        q=q,
        reasons=Counter(d.reason for d in built.dropped).most_common(),
        dropped_shown=DROPPED_SHOWN,
    )


@router.get("/turns")
def turns(request: Request, stream: str, p: PageNumber = 1) -> HTMLResponse:
    memory, viewer = _viewer(request)
    views.known_stream(memory, viewer, stream)
    listed = views.newest_page(lambda n: memory.turns(stream, n, tenant=viewer.tenant), p)
    shown = [t for t in listed.items if viewer.reads(t.visibility)]  # type: ignore[attr-defined]
    return page(request, "turns.html", viewer=viewer, stream=stream, turns=shown, pages=listed)


@router.get("/turns/{turn_id}")
def turn(request: Request, turn_id: int) -> HTMLResponse:
    """A cited turn among its neighbours, however old: where a source link lands."""
    memory, viewer = _viewer(request)
    cited, around = views.turns_around(memory, viewer, turn_id)
    return page(
        request, "turns.html", viewer=viewer, stream=cited.stream, turns=around, cited=cited
    )


@router.get("/records/{record_id}")
def record(request: Request, record_id: int) -> HTMLResponse:
    """One cited record: where a source link lands, however old the record is."""
    memory, viewer = _viewer(request)
    found = views.readable_record(memory, viewer, record_id)
    return page(
        request, "records.html", viewer=viewer, stream=found.stream, records=[found], cited=found
    )


@router.get("/records")
def records(request: Request, stream: str, p: PageNumber = 1) -> HTMLResponse:
    memory, viewer = _viewer(request)
    views.known_stream(memory, viewer, stream)
    listed = views.newest_page(lambda n: memory.records(stream, n, tenant=viewer.tenant), p)
    shown = [r for r in listed.items if viewer.reads(r.visibility)]  # type: ignore[attr-defined]
    return page(request, "records.html", viewer=viewer, stream=stream, records=shown, pages=listed)


MESSAGES_PER_PAGE = 50
Filter = Annotated[str, Query(max_length=200)]


@router.get("/messages")
def messages(
    request: Request,
    channel: Filter = "",
    author: Filter = "",
    stream: Filter = "",
    before: Annotated[int | None, Query(ge=1)] = None,
) -> HTMLResponse:
    """Slack messages of every stream, newest first, filtered by channel, author and
    stream; the next page starts after the last one shown."""
    memory, viewer = _viewer(request)
    if stream:
        views.known_stream(memory, viewer, stream)
    shown = memory.browse(
        source="slack",
        stream=stream or None,
        channel=channel or None,
        author=author or None,
        before=before,
        limit=MESSAGES_PER_PAGE,
        trust=viewer.trust,
        tenant=viewer.tenant,
    )
    filters = {"channel": channel, "author": author, "stream": stream}
    following = shown[-1].id if len(shown) == MESSAGES_PER_PAGE else None
    return page(
        request, "messages.html", viewer=viewer, messages=shown, filters=filters, next=following
    )


# -- facts --------------------------------------------------------------------


@router.get("/facts")
def facts(
    request: Request,
    stream: str,
    status: Annotated[str, Query(pattern=r"^[a-z]*$")] = "active",
    category: Annotated[str, Query(pattern=r"^[a-z_]*$")] = "",
    p: PageNumber = 1,
) -> HTMLResponse:
    memory, viewer = _viewer(request)
    views.known_stream(memory, viewer, stream)
    listed = views.facts_page(memory, viewer, stream, status, category, p)
    return page(
        request,
        "facts.html",
        viewer=viewer,
        stream=stream,
        facts=listed.items,
        pages=listed,
        status=status,
        category=category,
        statuses=views.FACT_STATUSES,
        categories=[c.value for c in FactCategory],
    )


@router.get("/facts/{fact_id}")
def fact(request: Request, fact_id: int) -> HTMLResponse:
    memory, viewer = _viewer(request)
    history = views.fact_history(memory, viewer, fact_id)
    return page(request, "fact.html", viewer=viewer, history=history, stream=history.fact.stream)


@router.post("/facts/{fact_id}/forget")
def forget(
    request: Request,
    fact_id: int,
    csrf: Annotated[str, Form()] = "",
    reason: Annotated[str, Form(max_length=1000)] = "",
) -> Response:
    memory, viewer = _owner_with_csrf(request, csrf)
    views.readable_fact(memory, viewer, fact_id)
    memory.forget(fact_id, reason=reason or "forgotten in the inspector", tenant=viewer.tenant)
    return _back(f"/ui/facts/{fact_id}")


@router.post("/facts/{fact_id}/correct")
def correct(
    request: Request,
    fact_id: int,
    text: Annotated[str, Form(min_length=1, max_length=4000)],
    csrf: Annotated[str, Form()] = "",
) -> Response:
    memory, viewer = _owner_with_csrf(request, csrf)
    old = views.readable_fact(memory, viewer, fact_id)
    # Into the same (subject, slot) at a correction's confidence: it supersedes the old one.
    new = memory.write_fact(
        old.stream,
        text,
        category=old.category,
        confidence=1.0,
        subject=old.subject,
        slot=old.slot,
        value=text,
        visibility=old.visibility,
        tenant=viewer.tenant,
        trust=viewer.trust,
        key_id=viewer.key.id,
    )
    return _back(f"/ui/facts/{new.id}")


def _owner_with_csrf(request: Request, csrf: str) -> tuple[Memory, Viewer]:
    memory, viewer = _viewer(request)
    check_csrf(viewer, csrf)
    require_owner(viewer)
    return memory, viewer


# -- summaries, timeline, search ----------------------------------------------


@router.get("/summaries")
def summaries(request: Request, stream: str, p: PageNumber = 1) -> HTMLResponse:
    memory, viewer = _viewer(request)
    views.known_stream(memory, viewer, stream)
    tree = views.summary_tree(memory, viewer, stream, p)
    return page(request, "summaries.html", viewer=viewer, stream=stream, tree=tree)


@router.get("/timeline")
def timeline(request: Request, entity: Annotated[str, Query(max_length=200)] = "") -> HTMLResponse:
    memory, viewer = _viewer(request)
    events, profile = [], None
    if entity.strip():
        found = memory.timeline(
            entity, limit=views.PAGE_SIZE, trust=viewer.trust, tenant=viewer.tenant
        )
        events = list(reversed(found))
        profile = memory.profile(entity, trust=viewer.trust, tenant=viewer.tenant)
    return page(
        request, "timeline.html", viewer=viewer, entity=entity, events=events, profile=profile
    )


@router.get("/search")
def search(
    request: Request,
    query: Question = "",
    q: OldQuestion = "",
    stream: str = "",
) -> HTMLResponse:
    memory, viewer = _viewer(request)
    q = query or q
    if stream:
        views.known_stream(memory, viewer, stream)
    hits = []
    if q.strip():
        hits = memory.search(q, stream or None, limit=25, trust=viewer.trust, tenant=viewer.tenant)
    return page(request, "search.html", viewer=viewer, q=q, stream=stream, hits=hits)


# -- actions ------------------------------------------------------------------


@router.get("/actions")
def actions(
    request: Request,
    status: Annotated[str, Query(pattern=r"^[a-z]*$")] = "open",
    stream: str = "",
    p: PageNumber = 1,
) -> HTMLResponse:
    memory, viewer = _viewer(request)
    if stream:
        views.known_stream(memory, viewer, stream)
    listed = views.actions_page(memory, viewer, status, stream, p)
    return page(
        request,
        "actions.html",
        viewer=viewer,
        actions=listed.items,
        pages=listed,
        status=status,
        stream=stream,
        statuses=[s.value for s in ActionStatus],
    )


@router.post("/actions/{action_id}")
def set_action_status(
    request: Request,
    action_id: int,
    status: Annotated[ActionStatus, Form()],
    csrf: Annotated[str, Form()] = "",
    back: Annotated[str, Form()] = "",
) -> Response:
    memory, viewer = _viewer(request)
    check_csrf(viewer, csrf)
    require_writer(viewer)
    views.readable_action(memory, viewer, action_id)
    memory.set_action_status(action_id, status.value, tenant=viewer.tenant)
    return _back(_local(back or "/ui/actions") + f"#action-{action_id}")


# -- imports ------------------------------------------------------------------


def _imports(request: Request) -> Imports:
    return request.app.state.imports


RECENT_IMPORTS = 10


@router.get("/imports")
def imports_page(request: Request) -> HTMLResponse:
    _, viewer = _viewer(request)
    recent = _imports(request).recent(viewer.tenant, RECENT_IMPORTS)
    return page(request, "imports.html", viewer=viewer, job=None, recent=recent)


@router.post("/imports")
def start_import(
    request: Request,
    kind: Annotated[ImportKind, Form()],
    file: Annotated[UploadFile, File()],
    csrf: Annotated[str, Form()] = "",
) -> Response:
    _, viewer = _viewer(request)
    check_csrf(viewer, csrf)
    require_writer(viewer)
    job = _imports(request).submit(viewer.tenant, kind, file.file, file.filename)
    return _back(f"/ui/imports/{job.id}")


@router.get("/imports/{import_id}")
def import_page(request: Request, import_id: str) -> HTMLResponse:
    _, viewer = _viewer(request)
    job = _import_status(request, viewer, import_id)
    recent = _imports(request).recent(viewer.tenant, RECENT_IMPORTS)
    return page(request, "imports.html", viewer=viewer, job=job, recent=recent)


@router.get("/imports/{import_id}/status")
def import_status(request: Request, import_id: str) -> JSONResponse:
    """For the page's polling script: the status as JSON, with its progress in words."""
    _, viewer = _viewer(request)
    job = _import_status(request, viewer, import_id)
    shown = {**job.model_dump(mode="json"), "progress_line": views.progress_line(job)}
    return JSONResponse(shown, headers={"Cache-Control": "no-store"})


def _import_status(request: Request, viewer: Viewer, import_id: str) -> ImportStatus:
    job = _imports(request).status(viewer.tenant, import_id[:64])
    if job is None:
        raise NotFound(f"no import {import_id!r}")
    return job


# -- backlog ------------------------------------------------------------------


@router.get("/backlog")
def backlog(request: Request) -> HTMLResponse:
    """What waits for the workers, and how fast it went down over the last minute of
    visits (the page reloads itself while anything waits)."""
    memory, viewer = _viewer(request)
    now = memory.backlog(tenant=viewer.tenant)
    drain = _backlog_watch(request, viewer.tenant).add(now)
    return page(
        request, "backlog.html", viewer=viewer, backlog=now, drain=drain, eta=drain.eta(now)
    )


def _backlog_watch(request: Request, tenant: str) -> BacklogWatch:
    """This server's samples of the tenant's backlog, one list per tenant."""
    state = request.app.state
    watches: dict[str, BacklogWatch] | None = getattr(state, "backlog_watches", None)
    if watches is None:
        watches = state.backlog_watches = {}
    return watches.setdefault(tenant, BacklogWatch())


# -- erase --------------------------------------------------------------------


@router.get("/erase")
def erase_confirm(
    request: Request, stream: str = "", entity: str = "", fact_id: int | None = None
) -> HTMLResponse:
    memory, viewer = _viewer(request)
    require_owner(viewer)
    target = views.erase_target(memory, viewer, stream, entity, fact_id)
    return page(request, "erase.html", viewer=viewer, target=target, report=None)


@router.post("/erase")
def erase(
    request: Request,
    csrf: Annotated[str, Form()] = "",
    stream: Annotated[str, Form()] = "",
    entity: Annotated[str, Form()] = "",
    fact_id: Annotated[int | None, Form()] = None,
) -> HTMLResponse:
    memory, viewer = _owner_with_csrf(request, csrf)
    target = views.erase_target(memory, viewer, stream, entity, fact_id)
    report = memory.erase(**target.argument, tenant=viewer.tenant)
    return page(request, "erase.html", viewer=viewer, target=target, report=report)


# Last of the routes, so that it matches only what no page does.
@router.get("/{unknown:path}")
def no_such_page(request: Request, unknown: str) -> HTMLResponse:
    """An unknown /ui path is the inspector's not-found page, not the API's JSON 404."""
    raise NotFound(f"no page {request.url.path}")


def mount(app: FastAPI) -> None:
    """Serve the inspector's pages at /ui and its assets at /ui/static."""
    app.mount("/ui/static", StaticFiles(directory=HERE / "static"), name="ui-static")
    app.include_router(router)
