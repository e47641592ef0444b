"""Row-level security as a second guard at run time: a memory served by a role that owns
its tables but is no superuser (so the forced policies bind it) works for every tenant,
and a statement that leaves out the tenant filter still sees only the acting tenant."""

import uuid
from collections.abc import Iterator

import psycopg
import pytest

from tests.postgres.server import EmbeddedPostgres
from threefold import Memory, load_settings
from threefold.store.postgres import PostgresStore

TENANTS = ("acme", "globex")


@pytest.fixture
def owner_url(postgres_server: EmbeddedPostgres) -> Iterator[str]:
    """A database owned by a new role with neither SUPERUSER nor BYPASSRLS; only the
    extension is made by a superuser, as a hosted PostgreSQL's admin would."""
    role, database = f"owner_{uuid.uuid4().hex[:8]}", f"rls_{uuid.uuid4().hex[:8]}"
    postgres_server.psql(f"CREATE ROLE {role} LOGIN PASSWORD 'owner-pw' NOSUPERUSER NOBYPASSRLS")
    postgres_server.psql(f'CREATE DATABASE "{database}" OWNER {role}')
    postgres_server.psql("CREATE EXTENSION vector", database)
    yield f"postgresql://{role}:owner-pw@127.0.0.1:{postgres_server.port}/{database}"
    postgres_server.psql(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
    postgres_server.psql(f"DROP ROLE IF EXISTS {role}")


def _fill(mem: Memory) -> None:
    for tenant in TENANTS:
        name = tenant.capitalize()
        mem.add_turn(
            "chat:plan", f"{name} ships the rollout plan on Friday.", "Noted.", tenant=tenant
        )
        mem.add_turn("chat:plan", f"No, {name}'s deadline is Monday.", "Corrected.", tenant=tenant)
        mem.add_turn("chat:plan", f"{name} picked Kafka for the event bus.", "OK.", tenant=tenant)
    mem.process_pending()


def test_the_owner_role_is_bound_by_the_policies(owner_url: str) -> None:
    with psycopg.connect(owner_url) as conn:
        row = conn.execute(
            "SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = current_user"
        ).fetchone()
    assert row == (False, False)


def test_every_tenant_reads_and_writes_its_own_rows_through_the_policies(owner_url: str) -> None:
    settings = load_settings(embed={"kind": "hashing"})
    with Memory.open(owner_url, settings=settings, background_worker=False) as mem:
        _fill(mem)
        for tenant in TENANTS:
            name = tenant.capitalize()
            text = mem.context("chat:plan", "When is the rollout deadline?", tenant=tenant).text
            assert f"{name}'s deadline is Monday" in text
            assert all(other.capitalize() not in text for other in TENANTS if other != tenant)
            hits = mem.search("Kafka event bus", tenant=tenant)
            assert hits and all(name in hit.text for hit in hits)
            assert mem.facts("chat:plan", tenant=tenant)
        assert not mem.store.jobs(status="failed")


def test_a_call_across_tenants_sees_only_the_acting_tenant(owner_url: str) -> None:
    settings = load_settings(embed={"kind": "hashing"})
    with Memory.open(owner_url, settings=settings, background_worker=False) as mem:
        _fill(mem)
        store = mem.store
        assert isinstance(store, PostgresStore)
        # streams_with_items() reads every tenant's streams: it has no tenant filter.
        assert {tenant for tenant, _ in store.streams_with_items()} == set(TENANTS)
        with store.acting_for("acme"):
            assert store.streams_with_items() == [("acme", "chat:plan")]
            assert {job.tenant for job in store.jobs()} == {"acme"}
        with store.acting_for("nobody"):
            assert store.streams_with_items() == []


def test_a_bare_statement_sees_only_the_tenant_it_is_set_to(owner_url: str) -> None:
    settings = load_settings(embed={"kind": "hashing"})
    with Memory.open(owner_url, settings=settings, background_worker=False) as mem:
        _fill(mem)
    with psycopg.connect(owner_url, autocommit=True) as conn:
        every = conn.execute("SELECT DISTINCT tenant FROM turns ORDER BY tenant").fetchall()
        assert [r[0] for r in every] == list(TENANTS)
        with conn.transaction():
            conn.execute("SELECT set_config('threefold.tenant', 'globex', true)")
            for table in ("turns", "facts", "vectors", "streams", "jobs"):
                seen = conn.execute(f"SELECT DISTINCT tenant FROM {table}").fetchall()
                assert [r[0] for r in seen] == ["globex"], table
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                conn.execute(
                    "INSERT INTO streams (tenant, name, created_at) VALUES ('acme', 'x', now())"
                )
