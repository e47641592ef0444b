"""The HTTP API and the inspector as their clients call them: a fact written with a category
takes that category's slot, and the question is `query` everywhere (the inspector still
reads its old `q`)."""

import httpx
import pytest

from tests.http.conftest import Live

STREAM = "chat:fit"


@pytest.fixture(scope="module")
def a(live: Live) -> dict[str, str]:
    return live.headers("a")


def test_a_diet_fact_takes_the_users_diet_slot_and_a_later_turn_supersedes_it(
    live: Live, client: httpx.Client, a: dict
) -> None:
    written = client.post(
        "/v1/facts",
        headers=a,
        json={"stream": STREAM, "text": "The user is vegetarian.", "category": "diet"},
    )
    assert written.status_code == 201, written.text
    fact = written.json()
    assert (fact["subject"], fact["slot"], fact["category"]) == ("user", "diet", "diet")

    said = client.post("/v1/turns", headers=a, json={"stream": STREAM, "user": "I eat meat again."})
    assert said.status_code == 201, said.text
    live.settle()

    old = client.get(f"/v1/facts/{fact['id']}", headers=a).json()
    assert old["status"] == "superseded" and old["superseded_by"], old
    active = client.get("/v1/facts", headers=a, params={"stream": STREAM}).json()["facts"]
    assert [f["text"] for f in active if f["category"] == "diet"] == ["The user eats meat again."]


def test_a_category_keeps_its_own_slot_when_it_holds_many_or_names_someone_else(
    client: httpx.Client, a: dict
) -> None:
    def slot(text: str, category: str) -> tuple[str, str]:
        body = {"stream": "chat:fit-2", "text": text, "category": category}
        fact = client.post("/v1/facts", headers=a, json=body).json()
        return fact["subject"], fact["slot"]

    # A person has many preferences: two must not supersede each other.
    first = slot("The user likes quiet mornings.", "preference")
    second = slot("The user likes long walks.", "preference")
    assert first != second
    # Not about the user: no slot of the user's.
    assert slot("The office went fully plant-based.", "diet")[0] != "user"


def test_an_unknown_category_is_refused(client: httpx.Client, a: dict) -> None:
    body = {"stream": STREAM, "text": "The user is vegetarian.", "category": "diett"}
    answer = client.post("/v1/facts", headers=a, json=body)
    assert answer.status_code == 422 and "category" in answer.text


def test_the_inspector_takes_query_and_still_reads_q(live: Live, client: httpx.Client) -> None:
    client.post(
        "/v1/turns",
        headers=live.headers("a"),
        json={"stream": STREAM, "user": "The badge vendor is Acme Badges."},
    )
    live.settle()
    client.cookies.set("threefold_ui_key", live.keys["a"], path="/ui")
    try:
        pages = {
            name: client.get("/ui/search", params={name: "badge vendor", "stream": STREAM})
            for name in ("query", "q")
        }
        context = client.get("/ui/context", params={"stream": STREAM, "query": "badge vendor"})
    finally:
        client.cookies.clear()
    for name, page in pages.items():
        assert page.status_code == 200, (name, page.text[:300])
        assert "Acme Badges" in page.text, name
        assert 'name="query"' in page.text  # the form asks by the one name
    assert context.status_code == 200 and 'value="badge vendor"' in context.text
