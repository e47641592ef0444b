"""How the `threefold` commands print: for a person on a terminal, for a pipe, or as JSON.

Every command that prints data takes `--format text|json` (`FormatOption`) and hands its
result to `emit`: JSON is one document on stdout, the result's own fields; text is for
people. Text on a terminal gets boxed tables; piped, the same tables are tab-separated
lines under a header, and no line is wrapped, so `cut`, `grep` and `awk` work.
"""

import dataclasses
import json
from collections.abc import Callable, Iterable, Sequence
from enum import StrEnum
from typing import Annotated, Any

import typer
from pydantic import BaseModel
from rich.console import Console
from rich.table import Table
from rich.text import Text

out = Console(soft_wrap=True)
"""stdout: data and results. soft_wrap: a long line stays one line."""
err = Console(stderr=True, soft_wrap=True)
"""stderr: errors, warnings, prompts and progress."""


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
    if out.is_terminal:
        boxed = Table(*columns, title=title or None)
        for row in rows:
            boxed.add_row(*(str(cell) for cell in row))
        out.print(boxed)
        return
    print("\t".join(columns))
    for row in rows:
        print("\t".join(" ".join(str(cell).split()) for cell in row))


def heading(text: str) -> None:
    """A section's title: a rule on a terminal, a plain line in a pipe."""
    if out.is_terminal:
        out.rule(text)
    else:
        print(f"== {text} ==" if text else "==")


def say(text: str) -> None:
    """A line for people, printed as it is (no markup read from it)."""
    out.print(text, markup=False, highlight=False)


def error(text: str, label: str = "error") -> None:
    """One line on stderr, however many lines `text` had."""
    err.print(Text.assemble((f"{label}: ", "red"), " ".join(text.split())), highlight=False)
