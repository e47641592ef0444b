"""The security campaign of issue 15 as code: lower-trust write attacks, and a tenant x
trust matrix of reads and write answers over HTTP and MCP.

The tests run it at a small size; benchmarks/trust_campaign.py runs it at full size and
prints the table. Everything is real: a SQLite file, the FastAPI app behind TestClient,
the MCP server behind the SDK's in-process client.
"""

import json
import re
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import anyio
from fastapi.testclient import TestClient
from mcp import Client

from threefold import Memory, load_settings
from threefold.domain import READABLE, Fact, Trust, Visibility
from threefold.faces.http import create_app
from threefold.faces.mcp import build_server
from threefold.trust.keys import create_key

TENANTS = ("acme", "globex")
TRUSTS = tuple(Trust)
VISIBILITIES = tuple(Visibility)
CHAIN = "project:chain"
MARKER = re.compile(r"mk-(acme|globex)-(private|shared|social)")
"""Every seeded item carries one: whose it is and who may read it."""


@dataclass
class Bench:
    """One memory on a real SQLite file, its HTTP app, and a key per (tenant, trust)."""

    memory: Memory
    http: TestClient
    keys: dict[tuple[str, Trust], tuple[int, str]] = field(default_factory=dict)

    def headers(self, tenant: str, trust: Trust) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.keys[tenant, trust][1]}"}

    def call(self, tenant: str, trust: Trust, method: str, path: str, **kwargs: Any) -> Any:
        """One HTTP request with the key of (tenant, trust); the httpx response."""
        return self.http.request(method, path, headers=self.headers(tenant, trust), **kwargs)


@contextmanager
def bench(folder: Path, **settings: Any) -> Iterator[Bench]:
    folder.mkdir(parents=True, exist_ok=True)
    settings = load_settings(db=folder / "campaign.db", embed={"kind": "hashing"}, **settings)
    memory = Memory.open(settings=settings, background_worker=False)
    app = create_app(memory, settings, close_memory=False)
    try:
        with TestClient(app) as client:
            made = Bench(memory, client)
            for tenant in TENANTS:
                for trust in TRUSTS:
                    made.keys[tenant, trust] = create_key(memory.store, tenant, trust, trust)
            yield made
    finally:
        memory.close()


# -- the write attacks --------------------------------------------------------------

STREAM = "project:alpha"
T0 = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)


def user_says(b: Bench, text: str) -> None:
    """A turn posted with the user's own (full) key."""
    answer = b.call(
        "acme",
        Trust.FULL,
        "POST",
        "/v1/turns",
        json={"stream": STREAM, "user": text, "assistant": "Noted."},
    )
    assert answer.status_code == 201, answer.text
    b.memory.process_pending()


def holder(b: Bench, subject: str, slot: str) -> Fact:
    (held,) = b.memory.store.facts_in_slot("acme", STREAM, subject, slot)
    return held


def attack_confidence_override(b: Bench, trust: Trust) -> bool:
    """A lower-trust key writes confidence 1.0 into the slot of the user's correction."""
    correction = holder(b, "lead architect", "holder")
    b.call(
        "acme",
        trust,
        "POST",
        "/v1/facts",
        json={
            "stream": STREAM,
            "text": "Sarah is the Lead Architect.",
            "confidence": 1.0,
            "subject": correction.subject,
            "slot": correction.slot,
            "value": "sarah",
            "visibility": "social",
        },
    )
    return holder(b, "lead architect", "holder").value != "raj"


def attack_supersede_endpoint(b: Bench, trust: Trust) -> bool:
    """A lower-trust key supersedes a social fact the user stated, through its endpoint."""
    stated = b.memory.write_fact(
        STREAM,
        "The launch is on Friday.",
        subject="launch",
        slot="date",
        value="friday",
        visibility="social",
        tenant="acme",
    )
    b.call(
        "acme",
        trust,
        "POST",
        f"/v1/facts/{stated.id}/supersede",
        json={"text": "The launch is cancelled.", "confidence": 1.0},
    )
    return not b.memory.fact(stated.id, tenant="acme").active


def attack_private_visibility(b: Bench, trust: Trust) -> bool:
    """A lower-trust key writes a fact as `private`, the user's own level, which it could
    not even read back."""
    answer = b.call(
        "acme",
        trust,
        "POST",
        "/v1/facts",
        json={
            "stream": STREAM,
            "text": f"The {trust} budget code is 77.",
            "visibility": "private",
        },
    )
    written = [f for f in b.memory.facts(STREAM, tenant="acme") if "budget code" in f.text]
    return answer.status_code == 201 and any(f.visibility is Visibility.PRIVATE for f in written)


def attack_correction_turn(b: Bench, trust: Trust) -> bool:
    """A lower-trust key posts "No, X is ..." as if the user corrected themselves."""
    b.call(
        "acme",
        trust,
        "POST",
        "/v1/turns",
        json={
            "stream": STREAM,
            "user": "No, Sarah is the Lead Architect.",
            "assistant": "OK.",
        },
    )
    b.memory.process_pending()
    return holder(b, "lead architect", "holder").value != "raj"


def attack_retract_answered(b: Bench, trust: Trust) -> bool:
    """The user states an owner; a lower-trust key answers with a correction, which would
    retract the claims of the turn it answers."""
    user_says(b, "Priya owns billing.")
    b.call(
        "acme",
        trust,
        "POST",
        "/v1/turns",
        json={
            "stream": STREAM,
            "user": "No, Marco owns billing.",
            "assistant": "OK.",
        },
    )
    b.memory.process_pending()
    return not b.memory.store.facts_in_slot("acme", STREAM, "priya", "handles")


def attack_future_event(b: Bench, trust: Trust) -> bool:
    """A lower-trust key dates a fact 2099, so that every later correction loses."""
    answer = b.call(
        "acme",
        trust,
        "POST",
        "/v1/facts",
        json={
            "stream": STREAM,
            "text": "The release owner is Eve.",
            "subject": "release",
            "slot": "owner",
            "value": "eve",
            "at": "2099-01-01T00:00:00Z",
        },
    )
    turn = b.call(
        "acme",
        trust,
        "POST",
        "/v1/turns",
        json={
            "stream": STREAM,
            "user": "The release owner is Eve.",
            "at": "2099-01-01T00:00:00Z",
        },
    )
    b.memory.write_fact(
        STREAM,
        "The release owner is Lena.",
        subject="release",
        slot="owner",
        value="lena",
        tenant="acme",
    )
    lena = holder(b, "release", "owner").value == "lena"
    return answer.status_code != 422 or turn.status_code != 422 or not lena


def attack_confidence_ceiling(b: Bench, trust: Trust) -> bool:
    """A lower-trust key asks for confidence 1.0 on a fresh slot."""
    answer = b.call(
        "acme",
        trust,
        "POST",
        "/v1/facts",
        json={
            "stream": STREAM,
            "text": f"The {trust} office is in Lyon.",
            "confidence": 1.0,
        },
    )
    return answer.json().get("confidence", 0.0) >= 1.0


def attack_source_ingest(b: Bench, trust: Trust) -> bool:
    """A lower-trust key feeds a Slack message and a Jira export in, whose records and facts
    would be stored at the owner's trust, private if it names a private channel."""
    message = b.call(
        "acme",
        trust,
        "POST",
        "/v1/ingest/message",
        json={
            "channel": "leads",
            "user": "eve",
            "ts": "1767000000.000100",
            "text": "No, Sarah is the Lead Architect.",
            "channel_kind": "private",
        },
    )
    jira = b.call(
        "acme",
        trust,
        "POST",
        "/v1/imports",
        data={"kind": "jira"},
        files={"file": ("jira.csv", b"Issue key,Summary\nX-1,a\n")},
    )
    return message.status_code != 403 or jira.status_code != 403


ATTACKS: dict[str, Callable[[Bench, Trust], bool]] = {
    "confidence 1.0 over the user's correction": attack_confidence_override,
    "supersede endpoint on the user's fact": attack_supersede_endpoint,
    "visibility private": attack_private_visibility,
    "'No, X is ...' turn as a correction": attack_correction_turn,
    "correction retracting the answered turn": attack_retract_answered,
    "event time in 2099": attack_future_event,
    "confidence 1.0 on a fresh slot": attack_confidence_ceiling,
    "Slack message and Jira import at owner trust": attack_source_ingest,
}


def prepare_attacks(b: Bench) -> None:
    user_says(b, "Sarah is the Lead Architect.")
    user_says(b, "No, Raj is the Lead Architect.")
    assert holder(b, "lead architect", "holder").value == "raj"


def run_attacks(b: Bench) -> Counter[tuple[str, Trust]]:
    """{(attack, trust): 1 if it succeeded}; the writers are inner and familiar keys."""
    prepare_attacks(b)
    succeeded: Counter[tuple[str, Trust]] = Counter()
    for name, attack in ATTACKS.items():
        for trust in (Trust.INNER, Trust.FAMILIAR):
            succeeded[name, trust] += int(attack(b, trust))
    return succeeded


# -- the leak matrix ----------------------------------------------------------------


def stream_of(tenant: str, visibility: Visibility) -> str:
    return f"project:mk-{tenant}-{visibility}"


WORDS = [
    "apple",
    "river",
    "stone",
    "cloud",
    "ember",
    "maple",
    "quartz",
    "violet",
    "harbor",
    "meadow",
    "copper",
    "lantern",
    "orchid",
    "glacier",
    "saffron",
    "tundra",
    "walnut",
    "cobalt",
    "juniper",
    "marble",
    "pepper",
    "thistle",
    "canyon",
]


def seed(b: Bench, per_stream: int = 3) -> None:
    """Per tenant and visibility, a stream holding only items of that visibility (facts,
    turns, their summaries), and a chain where a social fact supersedes a private one."""
    mem = b.memory
    for tenant in TENANTS:
        for visibility in VISIBILITIES:
            stream = stream_of(tenant, visibility)
            for n in range(per_stream):
                marker = f"mk-{tenant}-{visibility}"
                words = " ".join(WORDS[4 * n : 4 * n + 4])  # distinct, so none reconcile
                mem.write_fact(
                    stream,
                    f"Falcon {marker} codename {words}.",
                    subject=f"codename{n}",
                    slot="name",
                    value=f"falcon {marker} {n}",
                    visibility=visibility,
                    tenant=tenant,
                )
                mem.add_turn(
                    stream,
                    f"Falcon note {n}: {marker} turn.",
                    "Noted.",
                    visibility=visibility,
                    tenant=tenant,
                )
            mem.end_session(stream, tenant=tenant)
        mem.write_fact(
            CHAIN,
            f"Raj leads mk-{tenant}-private.",
            subject="chain",
            slot="lead",
            value="raj",
            visibility="private",
            tenant=tenant,
        )
        mem.write_fact(
            CHAIN,
            f"Lena leads mk-{tenant}-social.",
            subject="chain",
            slot="lead",
            value="lena",
            visibility="social",
            tenant=tenant,
        )
    mem.process_pending()


@dataclass
class Probe:
    face: str
    kind: str
    """read or write."""
    name: str
    answer: str
    sent: str = ""
    """The markers the caller itself sent, which its answer may echo."""


@dataclass
class Matrix:
    calls: Counter[tuple[str, str, Trust]] = field(default_factory=Counter)
    leaks: Counter[tuple[str, str, Trust]] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)

    def add(self, tenant: str, trust: Trust, probe: Probe, hidden: set[int]) -> None:
        key = (probe.face, probe.kind, trust)
        self.calls[key] += 1
        found = leaks_in(probe, tenant, trust, hidden)
        if found:
            self.leaks[key] += 1
            if len(self.examples) < 20:
                self.examples.append(f"{probe.face} {probe.name} {tenant}/{trust}: {found}")


def hidden_fact_ids(b: Bench, tenant: str, trust: Trust) -> set[int]:
    return {f.id for f in all_facts(b) if f.tenant != tenant or f.visibility not in READABLE[trust]}


def leaks_in(probe: Probe, tenant: str, trust: Trust, hidden: set[int]) -> list[str]:
    """What in the answer the caller may not know: another tenant's or a hidden
    visibility's marker, or a hidden fact's id or link."""
    text = probe.answer
    for sent in set(MARKER.findall(probe.sent)):
        text = text.replace(f"mk-{sent[0]}-{sent[1]}", "")
    found = [
        f"marker mk-{who}-{level}"
        for who, level in set(MARKER.findall(text))
        if who != tenant or Visibility(level) not in READABLE[trust]
    ]
    try:
        data = json.loads(probe.answer)
    except ValueError:
        return found
    return found + [f"hidden fact id {i}" for i in _fact_ids(data) if i in hidden]


def _fact_ids(data: Any) -> Iterator[int]:
    """Fact ids and links in a JSON answer: in fact-shaped and change-shaped objects."""
    if isinstance(data, list):
        for item in data:
            yield from _fact_ids(item)
    elif isinstance(data, dict):
        if "slot" in data and "subject" in data:
            yield from (data[k] for k in ("id", "supersedes", "superseded_by") if data.get(k))
        if "related_fact_id" in data:
            yield from (data[k] for k in ("fact_id", "related_fact_id") if data.get(k))
        for value in data.values():
            yield from _fact_ids(value)


def http_reads(b: Bench, tenant: str, trust: Trust, fact_ids: list[int]) -> Iterator[Probe]:
    streams = [stream_of(t, v) for t in TENANTS for v in VISIBILITIES] + [CHAIN]
    get = lambda path, **params: b.call(tenant, trust, "GET", path, params=params).text  # noqa: E731
    post = lambda path, body: b.call(tenant, trust, "POST", path, json=body).text  # noqa: E731
    for stream in streams:
        sent = stream
        yield Probe("http", "read", "turns", get("/v1/turns", stream=stream), sent)
        yield Probe(
            "http", "read", "facts", get("/v1/facts", stream=stream, include_inactive="true"), sent
        )
        yield Probe("http", "read", "summaries", get("/v1/summaries", stream=stream), sent)
        yield Probe("http", "read", "records", get("/v1/records", stream=stream), sent)
        yield Probe("http", "read", "timeline", get("/v1/timeline", entity=stream), sent)
        yield Probe(
            "http",
            "read",
            "context",
            post("/v1/context", {"stream": stream, "query": "Falcon codename"}),
            sent,
        )
    for fact_id in fact_ids:
        yield Probe("http", "read", "fact", get(f"/v1/facts/{fact_id}"))
        yield Probe("http", "read", "history", get(f"/v1/facts/{fact_id}/history"))
    yield Probe("http", "read", "search", post("/v1/search", {"query": "Falcon codename leads"}))
    yield Probe("http", "read", "stats", get("/v1/stats"))


def http_writes(b: Bench, tenant: str, trust: Trust, facts: list[Fact]) -> Iterator[Probe]:
    """Writes that land on existing facts: exact repeats, the same (subject, slot, value)
    with other words, and supersession of each fact by id."""
    for fact in facts:
        repeat = {
            "stream": fact.stream,
            "text": fact.text,
            "subject": fact.subject,
            "slot": fact.slot,
            "value": fact.value,
        }
        guess = {**repeat, "text": "A guess at what this slot holds."}
        yield Probe(
            "http",
            "write",
            "repeat",
            b.call(tenant, trust, "POST", "/v1/facts", json=repeat).text,
            fact.text,
        )
        yield Probe(
            "http",
            "write",
            "guess",
            b.call(tenant, trust, "POST", "/v1/facts", json=guess).text,
            fact.stream,
        )
        yield Probe(
            "http",
            "write",
            "supersede",
            b.call(
                tenant,
                trust,
                "POST",
                f"/v1/facts/{fact.id}/supersede",
                json={"text": "Replaced by a guess.", "confidence": 0.1},
            ).text,
        )


async def mcp_probes(b: Bench, tenant: str, trust: Trust, facts: list[Fact]) -> list[Probe]:
    probes = []
    async with Client(build_server(b.memory, tenant, trust)) as client:

        async def call(kind: str, tool: str, sent: str = "", **arguments: Any) -> None:
            result = await client.call_tool(tool, arguments)
            body = result.structured_content
            answer = json.dumps(body) if body is not None else str(result.content)
            probes.append(Probe("mcp", kind, tool, answer, sent))

        await call("read", "memory_search", query="Falcon codename leads")
        await call("read", "memory_people")
        for fact in facts:
            await call("read", "memory_get", fact_id=fact.id)
            await call("read", "memory_history", fact_id=fact.id)
        for stream in [stream_of(t, v) for t in TENANTS for v in VISIBILITIES] + [CHAIN]:
            await call("read", "memory_timeline", stream, entity=stream)
            await call("read", "memory_sessions", stream, stream=stream, action="list")
            await call("read", "memory_context", stream, stream=stream, query="Falcon")
        if trust is not Trust.PUBLIC:
            for fact in facts:
                if fact.tenant == tenant:  # writes go to the session's own tenant anyway
                    await call(
                        "write", "memory_write", fact.text, stream=fact.stream, text=fact.text
                    )
    return probes


def all_facts(b: Bench) -> list[Fact]:
    facts = []
    for tenant in TENANTS:
        for stream in b.memory.streams(tenant=tenant):
            facts += b.memory.facts(stream.name, include_inactive=True, tenant=tenant)
    return facts


def run_matrix(b: Bench) -> Matrix:
    """Every (tenant, trust) caller reads everything and writes onto every fact."""
    matrix = Matrix()
    facts = all_facts(b)
    ids = [f.id for f in facts]
    for tenant in TENANTS:
        for trust in TRUSTS:
            hidden = hidden_fact_ids(b, tenant, trust)
            for probe in http_reads(b, tenant, trust, ids):
                matrix.add(tenant, trust, probe, hidden)
            mcp = anyio.run(mcp_probes, b, tenant, trust, facts)
            for probe in mcp:
                if probe.kind == "read":
                    matrix.add(tenant, trust, probe, hidden)
            if trust is Trust.PUBLIC:
                continue
            own = [f for f in facts if f.tenant == tenant]
            for probe in http_writes(b, tenant, trust, own):
                matrix.add(tenant, trust, probe, hidden)
            for probe in mcp:
                if probe.kind == "write":
                    matrix.add(tenant, trust, probe, hidden)
    return matrix
