"""The PostgreSQL store (the `postgres` extra: psycopg, psycopg-pool and pgvector)."""

try:
    from memstrata.store.postgres.store import PostgresStore
except ImportError as exc:  # the extra is not installed
    from memstrata.errors import StoreError

    raise StoreError(
        f"a postgresql:// database needs the postgres extra ({exc.name} is missing):"
        " pip install 'memstrata[postgres]'"
    ) from exc

__all__ = ["PostgresStore"]
