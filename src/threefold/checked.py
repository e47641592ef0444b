"""The Python API's argument checks: a wrong type or value is the caller's mistake, and
comes back as InvalidInput naming the argument, never as a TypeError, an OverflowError
or a sqlite3 error from deep inside.

`checked_api` wraps every public method of a class in pydantic's `validate_call`, strict
(no "5" for 5, no True for 1), against the method's own annotations, so the checks cannot
drift from the signatures. A call whose arguments are all of exactly the plain types the
annotations name (str, int, bool, an enum, None), as most are, skips pydantic: strict
validation would pass those unchanged, and it costs more than a small context's
assembly of facts.
"""

import functools
import inspect
import types
from collections.abc import Callable, Sequence
from enum import Enum
from typing import Any, TypeVar, Union, get_args, get_origin

from pydantic import ConfigDict, ValidationError, validate_call

from threefold.errors import InvalidInput

_C = TypeVar("_C", bound=type)

SQLITE_INT = (-(2**63), 2**63 - 1)
"""Whole numbers a query can bind: larger ones are refused before they reach the store."""

_STRICT = ConfigDict(strict=True, arbitrary_types_allowed=True)


def checked_api(cls: _C) -> _C:
    """Check the arguments of every public method defined on `cls`."""
    for name, member in list(vars(cls).items()):
        if not name.startswith("_") and inspect.isfunction(member):
            setattr(cls, name, _checked(member))
    return cls


def _checked(method: Callable[..., Any]) -> Callable[..., Any]:
    validated = _LazyValidator(method)
    parameters = inspect.signature(method).parameters
    names = list(parameters)
    lists = {name for name, p in parameters.items() if _takes_list_not_text(p.annotation)}
    plain = _PlainCall.of(parameters)

    @functools.wraps(method)
    def call(*args: Any, **kwargs: Any) -> Any:
        args, kwargs = _one_item_lists(names, lists, args, kwargs)
        given = [*zip(names[1:], args[1:], strict=False), *kwargs.items()]
        for name, value in given:
            for item in value if isinstance(value, list | tuple) else (value,):
                _check_scalar(item, name)
        if plain is not None and plain.passes(len(args), given):
            return method(*args, **kwargs)
        try:
            return validated(*args, **kwargs)
        except ValidationError as exc:
            raise InvalidInput(describe(exc, names)) from None

    return call


class _LazyValidator:
    """pydantic's strict validation of `method`'s arguments, built on the first call that
    needs it: building all of Memory's at import took longer than a CLI command's work.

    It checks the arguments only, so the return annotation is left out of what pydantic
    reads: a method may name its result type in quotes, imported only for type checkers,
    and the module that defines it loads when the method runs."""

    def __init__(self, method: Callable[..., Any]) -> None:
        self.method = method
        self.built: Callable[..., Any] | None = None

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if self.built is None:
            self.built = validate_call(config=_STRICT)(_without_return(self.method))
        return self.built(*args, **kwargs)


def _without_return(method: Callable[..., Any]) -> Callable[..., Any]:
    """A copy of the function `method` with no return annotation, and with `Any` for an
    argument whose type is named in quotes and imported only for type checkers (a client
    of an outside service, say, whose module loads only with the method that uses it)."""
    annotations = getattr(method, "__annotations__", {})
    loaded = {
        name: _loaded(kind, method.__globals__)
        for name, kind in annotations.items()
        if name != "return"
    }
    if loaded == annotations:
        return method
    copy = types.FunctionType(
        method.__code__,
        method.__globals__,
        method.__name__,
        method.__defaults__,
        method.__closure__,
    )
    copy.__kwdefaults__ = method.__kwdefaults__
    copy.__qualname__, copy.__module__ = method.__qualname__, method.__module__
    copy.__annotations__ = loaded
    return copy


def _loaded(kind: Any, names: dict[str, Any]) -> Any:
    """An annotation as it is, or Any where it names a type not loaded at run time."""
    if not isinstance(kind, str):
        return kind
    try:
        eval(kind, names)  # noqa: S307 - the package's own annotations, not input
    except NameError:
        return Any
    return kind


_Exact = frozenset[type]
"""The types an argument may have exactly, for strict validation to pass it unchanged."""


class _PlainCall:
    """Which calls of a method strict validation would pass unchanged: every argument's
    type is exactly one its annotation names, and they bind to the signature."""

    def __init__(self, positional: list[str], exact: dict[str, _Exact], required: set[str]) -> None:
        self.positional, self.exact, self.required = positional, exact, required

    @classmethod
    def of(cls, parameters: Any) -> "_PlainCall | None":
        """None where some annotation is not plain: every call is validated."""
        listed = list(parameters.values())[1:]  # self
        exact: dict[str, _Exact] = {}
        for p in listed:
            kinds = _exact_types(p.annotation)
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or kinds is None:
                return None
            exact[p.name] = kinds
        positional = [p.name for p in listed if p.kind != p.KEYWORD_ONLY]
        required = {p.name for p in listed if p.default is p.empty}
        return cls(positional, exact, required)

    def passes(self, arg_count: int, given: list[tuple[str, Any]]) -> bool:
        if arg_count - 1 > len(self.positional) or len(given) < len(self.required):
            return False
        named = {name for name, _ in given}
        if len(named) < len(given) or not self.required <= named:
            return False  # an argument given twice, or one missing: validation says which
        exact = self.exact
        return all(name in exact and type(value) in exact[name] for name, value in given)


def _exact_types(annotation: object) -> _Exact | None:
    """The types `annotation` passes unchanged in strict mode, if it is made only of str,
    int, bool, None and enums; else None. (Strict float takes an int and makes it a float;
    a list is copied; a str subclass may be refused: those always go to pydantic.)"""
    members = (
        get_args(annotation)
        if get_origin(annotation) in (Union, types.UnionType)
        else (annotation,)
    )
    exact: set[type] = set()
    for member in members:
        if member is None or member is type(None):
            exact.add(type(None))
        elif member in (str, int, bool) or (isinstance(member, type) and issubclass(member, Enum)):
            exact.add(member)
        else:
            return None
    return frozenset(exact)


def _takes_list_not_text(annotation: object) -> bool:
    """Whether an argument takes a list of texts and not a text: there a text given alone
    is one item, not a list of its characters (kinds="fact" means ["fact"])."""
    members = (
        get_args(annotation)
        if get_origin(annotation) in (Union, types.UnionType)
        else (annotation,)
    )
    if str in members:
        return False
    return any(get_origin(m) in (list, tuple, Sequence) and str in get_args(m) for m in members)


def _one_item_lists(
    names: list[str], lists: set[str], args: tuple[Any, ...], kwargs: dict[str, Any]
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    if not lists:
        return args, kwargs
    args = tuple(
        [value] if i < len(names) and names[i] in lists and isinstance(value, str) else value
        for i, value in enumerate(args)
    )
    kwargs = {k: [v] if k in lists and isinstance(v, str) else v for k, v in kwargs.items()}
    return args, kwargs


def _check_scalar(value: object, name: str) -> None:
    """Refuse what no argument may be and the store cannot hold: whole numbers beyond 64
    bits, and text that is not Unicode (lone surrogates, as from a bad decode)."""
    low, high = SQLITE_INT
    if isinstance(value, int) and not isinstance(value, bool) and not low <= value <= high:
        raise InvalidInput(f"{name} {value} is out of range for a whole number ({low}..{high})")
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError as exc:
            raise InvalidInput(
                f"{name} holds a character that is not valid Unicode text at {exc.start}"
            ) from None


def describe(exc: ValidationError, names: list[str]) -> str:
    """One clause per bad argument: its name, what was wrong, and what it was given.

    A union reports once per member; the first says enough."""
    said: dict[str, str] = {}
    for error in exc.errors(include_url=False):
        head = error["loc"][0] if error["loc"] else "arguments"
        name = names[head] if isinstance(head, int) and head < len(names) else str(head)
        given = repr(error.get("input"))
        given = given if len(given) <= 60 else given[:57] + "..."
        wrong = error["msg"].replace("Input should be", "must be")
        said.setdefault(name, f"{name} {wrong} (got {given})")
    return f"invalid arguments to {exc.title}: " + "; ".join(said.values())
