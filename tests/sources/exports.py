"""Small Slack exports written for tests: metadata files plus day files."""

import json
import zipfile
from pathlib import Path
from typing import Any

USERS = [
    {"id": "U1", "name": "ann", "real_name": "Ann Lee", "profile": {"display_name": "annie"}},
    {"id": "U2", "name": "bob", "profile": {"display_name": "", "real_name": "Bob Stone"}},
    {"id": "U3", "name": "cat", "real_name": "Cat Moss", "profile": {}},
    {"id": "U4", "name": "dan"},
]
CHANNELS = [{"id": "C1", "name": "general", "members": ["U1", "U2", "U9"]}]
DAY = "2017-03-20"


def msg(ts: str, text: str = "hello", user: str | None = "U1", **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"type": "message", "ts": ts, "text": text, **extra}
    if user is not None:
        message["user"] = user
    return message


def write_export(
    root: Path,
    days: dict[str, dict[str, Any]],
    *,
    users: Any = USERS,
    channels: Any = CHANNELS,
    **metadata: Any,
) -> Path:
    """An export folder: metadata files plus `days[folder][date]` day files (bytes kept raw)."""
    root.mkdir(parents=True, exist_ok=True)
    files = {"users.json": users, "channels.json": channels}
    files.update({f"{name}.json": value for name, value in metadata.items()})
    for name, value in files.items():
        if value is not None:
            write_json(root / name, value)
    for folder, by_date in days.items():
        (root / folder).mkdir(exist_ok=True)
        for date, content in by_date.items():
            write_json(root / folder / f"{date}.json", content)
    return root


def write_json(path: Path, value: Any) -> None:
    if isinstance(value, bytes):
        path.write_bytes(value)
    else:
        path.write_text(json.dumps(value), encoding="utf-8")


def zip_folder(folder: Path, target: Path, inside: str = "") -> Path:
    with zipfile.ZipFile(target, "w") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.write(path, inside + path.relative_to(folder).as_posix())
    return target
