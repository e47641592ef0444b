"""How the `threefold` commands print: for a person on a terminal, for a pipe, or as JSON.

Every command that prints data takes `--format text|json` (`FormatOption`) and hands its
result to `emit`: JSON is one document on stdout, the result's own fields; text is for
people. Text on a terminal gets boxed tables; piped, the same tables are tab-separated
lines under a header, and no line is wrapped, so `cut`, `grep` and `awk` work.
"""

import dataclasses
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from functools import cache
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from rich.console import Console


@cache
def console(stderr: bool = False) -> "Console":
    """rich's Console for stdout (data and results) or stderr (errors, prompts, progress),
    made on first use: rich costs a fifth of a command's start-up, and `facts` or `context`
    into a pipe print plain lines without it. soft_wrap: a long line stays one line."""
    from rich.console import Console

    return Console(stderr=stderr, soft_wrap=True)


def on_terminal() -> bool:
    """Whether stdout is a person's terminal (asked of rich only when it may be)."""
    return sys.stdout.isatty() and console().is_terminal


class Format(StrEnum):
    TEXT = "text"
    JSON = "json"


FormatOption = Annotated[
    Format, typer.Option("--format", help="text for people, or json for scripts")
]


def emit(fmt: Format, data: Any, text: Callable[[], None]) -> None:
    """Print `data` as one JSON document, or call `text` to print it for people."""
    if fmt is Format.JSON:
        print(json.dumps(jsonable(data), ensure_ascii=False, indent=2))
    else:
        text()


def jsonable(data: Any) -> Any:
    """`data` as plain JSON values: models and dataclasses become objects of their fields."""
    from pydantic import BaseModel  # here: `--help` and `--version` never need it

    if isinstance(data, BaseModel):
        return data.model_dump(mode="json")
    if dataclasses.is_dataclass(data) and not isinstance(data, type):
        return jsonable(dataclasses.asdict(data))
    if isinstance(data, dict):
        return {str(key): jsonable(value) for key, value in data.items()}
    if isinstance(data, list | tuple):
        return [jsonable(item) for item in data]
    return data if data is None or isinstance(data, str | int | float | bool) else str(data)


def table(columns: Sequence[str], rows: Iterable[Sequence[object]], title: str = "") -> None:
    """Rows under a header: a boxed table on a terminal, tab-separated lines in a pipe."""
    if on_terminal():
        from rich.table import Table

        boxed = Table(*columns, title=title or None)
        for row in rows:
            boxed.add_row(*(str(cell) for cell in row))
        console().print(boxed)
        return
    print("\t".join(columns))
    for row in rows:
        print("\t".join(" ".join(str(cell).split()) for cell in row))


def heading(text: str) -> None:
    """A section's title: a rule on a terminal, a plain line in a pipe."""
    if on_terminal():
        console().rule(text)
    else:
        print(f"== {text} ==" if text else "==")


def say(text: str) -> None:
    """A line for people, printed as it is (no markup read from it)."""
    if on_terminal():
        console().print(text, markup=False, highlight=False)
    else:
        print(text)


def error(text: str, label: str = "error") -> None:
    """One line on stderr, however many lines `text` had."""
    from rich.text import Text

    console(stderr=True).print(
        Text.assemble((f"{label}: ", "red"), " ".join(text.split())), highlight=False
    )
