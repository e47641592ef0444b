"""PostgreSQL as many processes share it, and the ways it can be wrong: down, gone
mid-request, the wrong password, a schema from a newer threefold."""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import psycopg
import pytest

from tests.http.test_serve import CLI, _running, until
from tests.postgres.server import EmbeddedPostgres, without_pgvector
from threefold import Memory, load_settings
from threefold.errors import StoreError, StoreUnavailable
from threefold.store import open_store
from threefold.trust.keys import create_key


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _cli_refuses(url: str, *, secret: str, saying: str) -> None:
    """`threefold check` on `url` exits 3 with `saying`, and never shows `secret`."""
    cli = subprocess.run(
        [sys.executable, "-c", CLI, "--db", url, "check"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert cli.returncode == 3, cli.stderr
    assert secret not in cli.stdout + cli.stderr
    assert saying in " ".join(cli.stderr.split())


def test_a_server_that_is_down_is_named_without_its_password() -> None:
    url = f"postgresql://ana:hunter2-secret@127.0.0.1:{_free_port()}/memory"
    with pytest.raises(StoreUnavailable) as failed:
        open_store(url)
    assert "hunter2-secret" not in str(failed.value)
    assert "postgresql://ana:***@127.0.0.1" in str(failed.value)
    _cli_refuses(url, secret="hunter2-secret", saying="cannot be reached")


def test_a_wrong_password_is_refused_clearly(
    postgres_server: EmbeddedPostgres, fresh_postgres: Callable[[], str]
) -> None:
    database = fresh_postgres().rsplit("/", 1)[1]
    url = postgres_server.url(database, password="not-the-password")
    with pytest.raises(StoreUnavailable) as failed:
        open_store(url)
    assert "refused the login" in str(failed.value)
    assert "not-the-password" not in str(failed.value)
    _cli_refuses(url, secret="not-the-password", saying="refused the login")


def test_a_schema_from_a_newer_threefold_is_refused(
    postgres_server: EmbeddedPostgres, fresh_postgres: Callable[[], str]
) -> None:
    url = fresh_postgres()
    open_store(url).close()
    database = url.rsplit("/", 1)[1]
    postgres_server.psql("INSERT INTO schema_migrations VALUES ('9999_future', now())", database)
    with pytest.raises(StoreError, match="newer threefold"):
        open_store(url)


def test_the_url_picks_the_backend_for_every_face(
    fresh_postgres: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    url = fresh_postgres()
    monkeypatch.setenv("THREEFOLD_DB", url)
    assert load_settings().db == url  # not folded into a path as 'postgresql:/…'
    with Memory.open(background_worker=False) as mem:
        mem.add_turn("chat:a", "Hello from the environment.")
    added = subprocess.run(
        [sys.executable, "-c", CLI, "--db", url, "add-turn", "chat:a", "--user", "From the CLI."],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert added.returncode == 0, added.stderr
    with Memory.open(url, background_worker=False) as mem:
        assert [t.user for t in mem.turns("chat:a")] == [
            "Hello from the environment.",
            "From the CLI.",
        ]
    assert not os.path.exists("postgresql:")


def test_two_servers_and_their_workers_share_one_truth(
    postgres_server: EmbeddedPostgres, fresh_postgres: Callable[[], str]
) -> None:
    url = fresh_postgres()
    with Memory.open(url, background_worker=False) as owner:
        _, secret = create_key(owner.store, "acme", "full", label="both")
        revoked_id, revoked = create_key(owner.store, "acme", "full", label="revoked")
    env = {**os.environ, "THREEFOLD_DB": url, "THREEFOLD_SESSION_TURNS": "2"}
    args = ["-c", CLI, "serve", "--port", "{port}"]
    auth = {"Authorization": f"Bearer {secret}"}
    with _running(args, env) as first, _running(args, env) as second:
        for n in range(6):
            server = (first, second)[n % 2]
            added = httpx.post(
                f"{server.url}/v1/turns",
                headers=auth,
                timeout=30,
                json={"stream": f"project:p{n % 3}", "user": f"Person{n} owns module {n}."},
            )
            assert added.status_code == 201, added.text
        read = httpx.get(f"{second.url}/v1/turns?stream=project:p0", headers=auth, timeout=30)
        assert [t["user"] for t in read.json()["turns"]] == [
            "Person0 owns module 0.",
            "Person3 owns module 3.",
        ]
        with Memory.open(url, background_worker=False) as look:

            def settled() -> bool:
                jobs = look.store.jobs("acme")
                return bool(jobs) and all(j.status == "done" for j in jobs)

            until(settled, 60, lambda: f"jobs left: {look.store.jobs('acme')}")
            jobs = look.store.jobs("acme")
            # Each job ran once: none was retried, and each turn's fact exists once.
            assert all(j.attempts == 0 for j in jobs)
            facts = [
                f.text
                for s in ("project:p0", "project:p1", "project:p2")
                for f in look.facts(s, tenant="acme")
            ]
            assert len(facts) == len(set(facts)) == 6
            assert look.store.revoke_api_key(revoked_id)
        for server in (first, second):
            refused = httpx.get(
                f"{server.url}/v1/turns?stream=project:p0",
                headers={"Authorization": f"Bearer {revoked}"},
                timeout=30,
            )
            assert refused.status_code == 401

        postgres_server.stop()
        try:
            down = httpx.get(f"{first.url}/v1/turns?stream=project:p0", headers=auth, timeout=60)
            assert down.status_code == 503
            assert down.json()["error"]["code"] == "store_unavailable"
            assert "s3cret" not in down.text
        finally:
            postgres_server.start()
        deadline = time.monotonic() + 60
        while True:
            again = httpx.get(f"{first.url}/v1/turns?stream=project:p0", headers=auth, timeout=60)
            if again.status_code == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        assert again.status_code == 200 and len(again.json()["turns"]) == 2


def test_a_job_queued_in_one_process_wakes_the_workers_of_another(
    fresh_postgres: Callable[[], str],
) -> None:
    url = fresh_postgres()
    listening, writing = open_store(url), open_store(url)
    woken = threading.Event()
    try:
        listening.on_new_jobs(woken.set)
        time.sleep(1.5)  # the listener connects and LISTENs
        writing.enqueue("t1", "chat:a", "extract", {})
        assert woken.wait(10)
    finally:
        listening.close()
        writing.close()


HANGING_WORKER = """
import sys, time
from threefold import Memory, load_settings

mem = Memory.open(sys.argv[1], settings=load_settings(stream_lease_seconds=1),
                  background_worker=False)

def hang(job):
    print("running", job.id, flush=True)
    time.sleep(3600)

for kind in list(mem.runner.handlers):
    mem.runner.handlers[kind] = hang
mem.process_pending()
"""


def test_a_worker_killed_mid_job_has_its_job_finished_by_another(
    fresh_postgres: Callable[[], str],
) -> None:
    url = fresh_postgres()
    settings = load_settings(stream_lease_seconds=1)
    with Memory.open(url, settings=settings, background_worker=False) as mem:
        mem.add_turn("project:k", "No, Raj is the Lead Architect.")
    worker = subprocess.Popen(
        [sys.executable, "-c", HANGING_WORKER, url], stdout=subprocess.PIPE, text=True
    )
    try:
        assert worker.stdout is not None
        assert worker.stdout.readline().startswith("running")
    finally:
        worker.kill()
        worker.wait(30)
        worker.stdout.close()
    with Memory.open(url, settings=settings, background_worker=False) as look:
        assert any(j.status == "pending" for j in look.store.jobs())
    with Memory.open(url, settings=settings, background_worker=True) as other:

        def settled() -> bool:
            return all(j.status == "done" for j in other.store.jobs())

        until(settled, 60, lambda: f"jobs left: {other.store.jobs()}")
        assert [f.text for f in other.facts("project:k")] == ["Raj is the Lead Architect."]
        assert all(j.attempts == 0 for j in other.store.jobs())


def test_a_server_without_pgvector_says_how_to_install_it() -> None:
    folder = Path(tempfile.mkdtemp(prefix="threefold-no-vector-"))
    try:
        (folder / "server").mkdir()
        server = EmbeddedPostgres(folder / "server", install=without_pgvector(folder))
        try:
            with pytest.raises(StoreError) as failed:
                open_store(server.url())
            assert "pgvector" in str(failed.value) and "apt-get install" in str(failed.value)
            assert "s3cret" not in str(failed.value)
        finally:
            server.stop()
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def test_row_level_security_hides_other_tenants_from_a_scoped_session(
    postgres_server: EmbeddedPostgres, fresh_postgres: Callable[[], str]
) -> None:
    url = fresh_postgres()
    with Memory.open(url, background_worker=False) as mem:
        mem.add_turn("chat:a", "Acme's plan.", tenant="acme")
        mem.add_turn("chat:a", "Globex's plan.", tenant="globex")
    database = url.rsplit("/", 1)[1]
    # Superusers bypass row-level security; an application's role does not.
    postgres_server.psql(
        "CREATE ROLE app LOGIN PASSWORD 'app-pw';"
        " GRANT SELECT ON ALL TABLES IN SCHEMA public TO app;",
        database,
    )
    app_url = url.replace("threefold:s3cret-pw@", "app:app-pw@")
    with psycopg.connect(app_url, autocommit=True) as conn:
        every = conn.execute("SELECT user_text FROM turns ORDER BY id").fetchall()
        assert [r[0] for r in every] == ["Acme's plan.", "Globex's plan."]
        conn.execute("SET threefold.tenant = 'acme'")
        scoped = conn.execute("SELECT user_text FROM turns ORDER BY id").fetchall()
        assert [r[0] for r in scoped] == ["Acme's plan."]
        assert conn.execute("SELECT count(*) FROM streams").fetchone()[0] == 1
