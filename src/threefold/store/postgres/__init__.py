"""The PostgreSQL store (the `postgres` extra: psycopg, psycopg-pool and pgvector)."""

try:
    from threefold.store.postgres.store import PostgresStore
except ImportError as exc:  # the extra is not installed
    from threefold.errors import StoreError

    raise StoreError(
        f"a postgresql:// database needs the postgres extra ({exc.name} is missing):"
        " pip install 'threefold[postgres]'"
    ) from exc

__all__ = ["PostgresStore"]
