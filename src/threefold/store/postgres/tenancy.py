"""Row-level security at run time: each statement runs with `threefold.tenant` set to the
tenant its store call is for, so the policies hide every other tenant's rows even from a
statement that forgot its own tenant filter.

The store's public methods name their tenant (a `tenant` argument, or the tenant of a row
or filter they are given); `for_tenant_calls` wraps each so the call acts for it. Before
a statement runs, its connection's setting is brought in line with the acting tenant.
The setting is kept on the connection and changed only when the acting tenant changes,
so a server that serves one tenant pays no round trip for it; a transaction that rolls
back undoes the change, so the connection then forgets what it had.
"""

import functools
import inspect
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

import psycopg

from threefold.store.postgres.migrations import TENANT_SETTING

EVERY_TENANT = ""
"""The setting's value for calls across tenants (maintenance, workers, keys): the
policies then let every row through, and the store's filters are the guard. A call that
names no tenant inside `acting_for` stays within the tenant acted for: a guard narrows,
never widens."""

_acting: ContextVar[str] = ContextVar("threefold_acting_tenant", default=EVERY_TENANT)
_ROW_ARGUMENTS = ("where", "turn", "fact", "summary")
"""Arguments whose `tenant` is the call's: a search filter, or a new row."""

Cls = TypeVar("Cls", bound=type)


@contextmanager
def acting_for(tenant: str | None) -> Iterator[None]:
    """Statements in this block (on this thread) see only `tenant`'s rows; None: all."""
    token = _acting.set(tenant or EVERY_TENANT)
    try:
        yield
    finally:
        _acting.reset(token)


def acting_tenant() -> str:
    return _acting.get()


def align(conn: psycopg.Connection[Any]) -> None:
    """Set the connection's tenant to the acting one, unless it is that already."""
    wanted = _acting.get()
    if getattr(conn, "_threefold_tenant", None) != wanted:
        conn.execute("SELECT set_config(%s, %s, false)", (TENANT_SETTING, wanted))
        conn._threefold_tenant = wanted  # type: ignore[attr-defined]


def forget(conn: psycopg.Connection[Any]) -> None:
    """After a rollback: the setting may be back to what it was before the transaction."""
    conn._threefold_tenant = None  # type: ignore[attr-defined]


def for_tenant_calls(cls: Cls) -> Cls:
    """Make every public method of `cls` (and of its mixins) that names a tenant act
    for that tenant."""
    for name in dir(cls):
        method = getattr(cls, name)
        if name.startswith("_") or not inspect.isfunction(method):
            continue
        where = _tenant_argument(method)
        if where is not None:
            setattr(cls, name, _acting_for_call(method, *where))
    return cls


def _tenant_argument(method: Callable[..., Any]) -> tuple[int, str, bool] | None:
    """(position after self, name, holds a row) of the argument naming the tenant."""
    for position, parameter in enumerate(list(inspect.signature(method).parameters)[1:]):
        if parameter == "tenant":
            return position, parameter, False
        if parameter in _ROW_ARGUMENTS:
            return position, parameter, True
    return None


def _acting_for_call(
    method: Callable[..., Any], position: int, name: str, row: bool
) -> Callable[..., Any]:
    @functools.wraps(method)
    def call(self: Any, *args: Any, **kwargs: Any) -> Any:
        given = args[position] if position < len(args) else None
        value = kwargs.get(name, given)
        tenant = getattr(value, "tenant", None) if row else value
        if not isinstance(tenant, str):  # every tenant's, unless a caller narrowed it
            return method(self, *args, **kwargs)
        with acting_for(tenant):
            return method(self, *args, **kwargs)

    return call
