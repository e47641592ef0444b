"""Tenant x trust matrix (issue 15, measured 3): every key of two tenants at each of the
four trust levels reads every stream, fact and history over HTTP and MCP, and writes onto
every fact of its tenant (exact repeats, the same value in other words, supersession);
no answer may hold another tenant's or a hidden visibility's content, fact id or link."""

from pathlib import Path

from tests.security.campaign import bench, run_matrix, seed
from threefold.domain import Trust


def test_no_read_or_write_answer_leaks(tmp_path: Path) -> None:
    with bench(tmp_path, session_turns=2) as b:
        seed(b, per_stream=1)
        matrix = run_matrix(b)
    assert sum(matrix.calls.values()) > 500
    assert {trust for _, _, trust in matrix.calls} == set(Trust)
    assert sum(matrix.leaks.values()) == 0, "\n".join(matrix.examples)


def test_stats_list_nothing_to_a_public_key(tmp_path: Path) -> None:
    # Hostile input: a public key asks for the tenant's stream names and counts.
    with bench(tmp_path) as b:
        seed(b, per_stream=1)
        public = b.call("acme", Trust.PUBLIC, "GET", "/v1/stats").json()
        familiar = b.call("acme", Trust.FAMILIAR, "GET", "/v1/stats").json()
    assert public["streams"] == [] and public["totals"]["facts"] == 0
    assert {s["stream"] for s in familiar["streams"]} == {"project:mk-acme-social", "project:chain"}
    assert familiar["totals"]["turns"] == 1


def test_a_repeat_of_a_hidden_fact_answers_without_content(tmp_path: Path) -> None:
    # Hostile input: a familiar key repeats a private fact's (subject, slot, value) in
    # other words, to read its text back from the answer.
    with bench(tmp_path) as b:
        seed(b, per_stream=1)
        (private,) = b.memory.facts("project:mk-acme-private", tenant="acme")
        answer = b.call(
            "acme",
            Trust.FAMILIAR,
            "POST",
            "/v1/facts",
            json={
                "stream": private.stream,
                "text": "guess",
                "subject": private.subject,
                "slot": private.slot,
                "value": private.value,
            },
        )
    assert answer.status_code == 201
    assert set(answer.json()) == {"accepted", "detail"}


def test_a_readable_fact_does_not_name_the_hidden_fact_it_superseded(tmp_path: Path) -> None:
    with bench(tmp_path) as b:
        seed(b, per_stream=1)
        (social,) = b.memory.facts("project:chain", tenant="acme")
        assert social.supersedes is not None
        shown = b.call("acme", Trust.FAMILIAR, "GET", f"/v1/facts/{social.id}").json()
        history = b.call("acme", Trust.FAMILIAR, "GET", f"/v1/facts/{social.id}/history").json()
    assert shown["supersedes"] is None
    assert [f["id"] for f in history["chain"]] == [social.id]
    assert all(c["related_fact_id"] is None for c in history["changes"])


def test_other_keys_ids_are_shown_to_full_keys_only(tmp_path: Path) -> None:
    # Hostile input: a familiar key lists turns to learn which keys wrote them.
    with bench(tmp_path) as b:
        b.call(
            "acme",
            Trust.INNER,
            "POST",
            "/v1/turns",
            json={
                "stream": "project:alpha",
                "user": "Lunch at noon.",
                "visibility": "social",
            },
        )
        seen = {
            trust: b.call(
                "acme", trust, "GET", "/v1/turns", params={"stream": "project:alpha"}
            ).json()["turns"][0]["writer_key"]
            for trust in (Trust.FULL, Trust.INNER, Trust.FAMILIAR)
        }
        inner_key = b.keys["acme", Trust.INNER][0]
    assert seen == {Trust.FULL: inner_key, Trust.INNER: inner_key, Trust.FAMILIAR: None}
