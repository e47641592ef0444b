"""Forget and erase over real HTTP: only a full key of the tenant may, and others get 404."""

import httpx

from tests.http.conftest import Live


def _fact_id(live: Live, client: httpx.Client, key: str, stream: str, text: str) -> int:
    client.post("/v1/turns", headers=live.headers(key), json={"stream": stream, "user": text})
    live.settle()
    facts = client.get("/v1/facts", headers=live.headers(key), params={"stream": stream}).json()
    return next(f["id"] for f in facts["facts"] if f["text"] == text)


def test_delete_a_fact_forgets_it(live: Live, client: httpx.Client) -> None:
    fact_id = _fact_id(live, client, "a", "chat:forget", "Raj is the Lead Architect.")
    inner = client.delete(f"/v1/facts/{fact_id}", headers=live.headers("a_inner"))
    assert inner.status_code == 403
    other = client.delete(f"/v1/facts/{fact_id}", headers=live.headers("b"))
    assert other.status_code == 404  # another tenant's id is no id
    gone = client.delete(
        f"/v1/facts/{fact_id}", headers=live.headers("a"), params={"reason": "asked"}
    )
    assert gone.status_code == 200, gone.text
    assert gone.json()["status"] == "retracted"
    history = client.get(f"/v1/facts/{fact_id}/history", headers=live.headers("a")).json()
    assert history["changes"][-1]["action"] == "FORGET"
    assert client.delete("/v1/facts/999999", headers=live.headers("a")).status_code == 404


def test_erase_a_fact_a_person_and_a_stream(live: Live, client: httpx.Client) -> None:
    a = live.headers("a")
    fact_id = _fact_id(live, client, "a", "chat:erase", "Priya is the CFO.")
    erased = client.delete(f"/v1/facts/{fact_id}", headers=a, params={"erase": "true"})
    assert erased.status_code == 200 and erased.json()["facts"] == 1
    assert client.get(f"/v1/facts/{fact_id}", headers=a).status_code == 404

    turn = {"stream": "chat:erase", "user": "I love hiking.", "speaker": "Gwen"}
    client.post("/v1/turns", headers=a, json=turn)
    assert client.delete("/v1/entities/Gwen", headers=live.headers("b")).status_code == 404
    person = client.delete("/v1/entities/Gwen", headers=a)
    assert person.status_code == 200 and person.json()["turns"] == 1

    assert client.delete("/v1/streams/chat:erase", headers=live.headers("b")).status_code == 404
    assert (
        client.delete("/v1/streams/chat:erase", headers=live.headers("a_inner")).status_code == 403
    )
    stream = client.delete("/v1/streams/chat:erase", headers=a)
    assert stream.status_code == 200, stream.text
    turns = client.get("/v1/turns", headers=a, params={"stream": "chat:erase"}).json()
    assert turns["turns"] == []
