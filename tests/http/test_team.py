"""Profiles, actions and digests over HTTP: the key's tenant and trust decide what is seen."""

from datetime import UTC, datetime, timedelta

import httpx

from tests.http.conftest import Live
from threefold.pipeline.jobs import DIGEST

DAY = (datetime.now(UTC) - timedelta(days=10)).replace(hour=9, minute=0, second=0, microsecond=0)


def _seed(live: Live) -> None:
    mem = live.memory
    for offset, (user, text) in enumerate(
        [
            ("Priya", "I will finish the billing migration by Friday."),
            ("Marco", "APOLLO-7 is blocked on the auth token from legal."),
        ]
    ):
        at = DAY + timedelta(hours=offset)
        mem.ingest_message(
            channel="apollo-eng",
            user=user,
            ts=f"{at.timestamp():.6f}",
            text=text,
            tenant="tenant-a",
        )
    mem.store.schedule("tenant-a", "project:apollo", DIGEST, 0.0)  # not the idle wait
    live.settle()


def test_team_endpoints_keep_tenant_and_trust(live: Live, client: httpx.Client) -> None:
    _seed(live)
    rebuilt = client.post("/v1/team/rebuild", headers=live.headers("a"))
    assert rebuilt.status_code == 200, rebuilt.text
    assert client.post("/v1/team/rebuild", headers=live.headers("a_inner")).status_code == 403
    actions = client.get("/v1/actions", headers=live.headers("a")).json()["actions"]
    assert {a["kind"] for a in actions} >= {"overdue_commitment", "stale_blocker"}
    assert client.get("/v1/actions", headers=live.headers("b")).json()["actions"] == []
    public = client.get("/v1/actions", headers=live.headers("a_public")).json()
    assert public["actions"] == []
    blocker = next(a for a in actions if a["kind"] == "stale_blocker")
    done = client.post(
        f"/v1/actions/{blocker['id']}", json={"status": "done"}, headers=live.headers("a")
    )
    assert done.json()["status"] == "done"
    other = client.post(
        f"/v1/actions/{blocker['id']}", json={"status": "open"}, headers=live.headers("b")
    )
    assert other.status_code == 404
    bad = client.post(
        f"/v1/actions/{blocker['id']}", json={"status": "finished"}, headers=live.headers("a")
    )
    assert bad.status_code == 422
    profile = client.get("/v1/profiles/Priya", headers=live.headers("a")).json()
    assert "billing migration" in profile["commitments"][0]["text"]
    hidden = client.get("/v1/profiles/Priya", headers=live.headers("a_public")).json()
    assert hidden["commitments"] == []
    higher = client.get("/v1/profiles/Priya?trust=full", headers=live.headers("a_inner"))
    assert higher.status_code == 403
    week = client.get(
        "/v1/digest",
        params={"stream": "project:apollo", "period": f"{DAY:%Y-%m-%d}"},
        headers=live.headers("a"),
    ).json()
    assert week["empty"] is False and week["days"][0]["day"] == f"{DAY:%Y-%m-%d}"
    quiet = client.get(
        "/v1/digest",
        params={"stream": "project:apollo", "period": "2026-02-02"},
        headers=live.headers("a"),
    ).json()
    assert quiet["empty"] is True and "No activity" in quiet["text"]
    wrong = client.get(
        "/v1/digest",
        params={"stream": "project:apollo", "period": "soonish"},
        headers=live.headers("a"),
    )
    assert wrong.status_code == 422


def test_context_reads_period_questions_in_the_callers_time_zone(
    live: Live, client: httpx.Client
) -> None:
    asked = {"stream": "project:apollo", "query": "What did we learn today?", "budget": 2000}
    found = client.post(
        "/v1/context", json={**asked, "timezone": "Pacific/Kiritimati"}, headers=live.headers("a")
    )
    assert found.status_code == 200
    assert any(s["name"] == "digest" for s in found.json()["sections"])
    wrong = client.post(
        "/v1/context", json={**asked, "timezone": "Atlantis/Capital"}, headers=live.headers("a")
    )
    assert wrong.status_code == 422 and "time zone" in wrong.text
