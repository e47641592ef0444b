"""Slack workspace exports (a folder or its .zip): stream the messages out, cleaned for reading.

Pure code: nothing here touches a store. Day files are opened one at a time so memory stays flat
however big the export is; a malformed day file or message lands in `SlackExport.problems` and is
skipped, so one bad file never stops an import.

Exports come from outside, so every file is read as a stream under `ImportLimits`: a file over
max_file_bytes (a zip bomb's member, say) is refused after at most that many bytes, before any
parsing, and an export over max_total_bytes or max_files is refused whole. A folder export's
symlinks are read only when they point inside it. Zips inside the export are never opened.
"""

import errno
import json
import os
import re
import stat
import zipfile
import zlib
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from operator import attrgetter
from pathlib import Path
from types import TracebackType
from typing import IO, Any, Self

from threefold.errors import InvalidInput
from threefold.settings import ImportLimits
from threefold.sources.problems import CappedList

__all__ = [
    "Channel",
    "ChannelKind",
    "MessageKind",
    "Problem",
    "SlackExport",
    "SlackMessage",
    "clean_markup",
    "parse_ts",
    "read_markup",
    "read_message",
]


class ChannelKind(StrEnum):
    PUBLIC = "public"
    PRIVATE = "private"
    DM = "dm"
    MPIM = "mpim"


class MessageKind(StrEnum):
    """What a message is for an importer: join, leave and other carry nothing worth keeping."""

    MESSAGE = "message"
    BOT = "bot"
    FILE_SHARE = "file_share"
    JOIN = "join"
    LEAVE = "leave"
    OTHER = "other"


# Frozen slotted dataclasses rather than pydantic models: an import builds one per message and
# the values are already checked here, so validation would only cost time.
@dataclass(frozen=True, slots=True)
class Channel:
    """A conversation. DMs have no name in an export, so theirs is the DM id; see `members`."""

    id: str
    name: str
    kind: ChannelKind
    members: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class SlackMessage:
    """One message, its markup resolved to plain text. `ts` is kept verbatim: it is Slack's id."""

    channel: Channel
    ts: str
    at: datetime
    thread_ts: str | None
    user_id: str | None
    author: str
    text: str
    kind: MessageKind
    subtype: str | None
    mentions: tuple[str, ...]
    links: tuple[str, ...]
    path: str


@dataclass(frozen=True, slots=True)
class Problem:
    """Something skipped, by its path inside the export."""

    path: str
    error: str


# --- markup ------------------------------------------------------------------------------------

# One pass handles markup, entities and emoji codes, so a name that itself holds "&amp;" is
# left alone, an escaped "&lt;b&gt;" in the text never turns into markup, and a URL's
# ":tada:" stays in the URL.
_TOKEN = re.compile(
    r"<([^<>|]+)(?:\|([^<>]*))?>|&(amp|lt|gt);|:([a-z0-9_+'-]+):(?::skin-tone-[2-6]:)?"
)
_ENTITIES = {"amp": "&", "lt": "<", "gt": ">"}
_BROADCASTS = frozenset({"here", "channel", "everyone"})


def _unescape(text: str) -> str:
    if "&" not in text:
        return text
    # &amp; last, so "&amp;lt;" becomes the literal "&lt;" it stood for.
    return text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _special(command: str, label: str) -> str:
    """`<!here>`, `<!subteam^S1|@team>`, `<!date^...|fallback>`..."""
    if command in _BROADCASTS:
        return "@" + command
    head, _, rest = command.partition("^")
    if head == "subteam":
        name = label or rest
        return name if name.startswith("@") else "@" + name
    return label or "@" + head


def _render(
    match: re.Match[str],
    users: Mapping[str, str],
    channels: Mapping[str, str],
    mentions: list[str],
    links: list[str],
) -> str:
    entity = match.group(3)
    if entity:
        return _ENTITIES[entity]
    code = match.group(4)
    if code:
        return _emoji(code, match.group(0))
    target = match.group(1)
    label = _unescape(match.group(2) or "")
    sigil = target[0]
    if sigil == "@":
        user_id = target[1:]
        name = users.get(user_id) or label.lstrip("@") or user_id
        if name not in mentions:
            mentions.append(name)
        return "@" + name
    if sigil == "#":
        channel_id = target[1:]
        return "#" + (label or channels.get(channel_id) or channel_id)
    if sigil == "!":
        return _special(target[1:], label)
    url = _unescape(target)
    if url.startswith("mailto:"):
        return label or url[7:]
    if "://" not in url:
        return label or url
    if url not in links:
        links.append(url)
    # Auto-linked text is the URL again (often without the scheme); saying it twice adds nothing.
    if not label or label == url or url.partition("://")[2] == label:
        return url
    return f"{label} ({url})"


def _emoji(code: str, written: str) -> str:
    """Slack's emoji code (`:tada:`, `:+1::skin-tone-3:`) as the emoji it shows; a code
    that is no standard emoji (a workspace's own, or "10:30:45"'s ":30:") stays as written.
    The skin tone is left out: it changes no meaning."""
    import emoji  # its tables take a fifth of a second to load: only for text with codes

    shown = emoji.emojize(f":{code}:", language="alias")
    return written if shown == f":{code}:" else shown


def _clean(
    text: str,
    users: Mapping[str, str],
    channels: Mapping[str, str],
    mentions: list[str],
    links: list[str],
) -> str:
    if "<" not in text and "&" not in text and ":" not in text:
        return text

    def render(match: re.Match[str]) -> str:
        return _render(match, users, channels, mentions, links)

    return _TOKEN.sub(render, text)


def clean_markup(text: str, users: Mapping[str, str], channels: Mapping[str, str]) -> str:
    """Slack's `<@U1>`, `<#C1|x>`, `<!here>`, `<url|label>` markup, escapes and emoji codes
    (`:tada:`), as plain text.

    `users` and `channels` map ids to names; unknown ids are shown as themselves.
    """
    return _clean(text, users, channels, [], [])


def read_markup(
    text: str, users: Mapping[str, str], channels: Mapping[str, str]
) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """`clean_markup`'s text, with the names it mentions and the URLs it links."""
    mentions: list[str] = []
    links: list[str] = []
    cleaned = _clean(text, users, channels, mentions, links)
    return cleaned, tuple(mentions), tuple(links)


# --- messages ----------------------------------------------------------------------------------

_TS = re.compile(r"(\d{1,10})(?:\.(\d{1,9}))?")
_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_JOINS = frozenset({"channel_join", "group_join"})
_LEAVES = frozenset({"channel_leave", "group_leave"})
# Subtypes that carry what someone said. Any other subtype (topic, purpose, rename, pins,
# tombstones, archiving, edits...) is an event about the channel, not content.
_SAYING = frozenset(
    {
        "thread_broadcast",
        "reply_broadcast",
        "me_message",
        "file_comment",
        "file_mention",
        "slackbot_response",
    }
)
_SKIPPED_KINDS = frozenset({MessageKind.JOIN, MessageKind.LEAVE, MessageKind.OTHER})
_by_time = attrgetter("at")


class _Malformed(Exception):
    """Internal: carries the human-readable reason something was skipped."""


def parse_ts(value: str) -> datetime:
    """The UTC time of Slack's ts ('1490000000.123456'); ValueError if it is not one."""
    match = _TS.fullmatch(value)
    if match is None:
        raise ValueError(f"not a Slack timestamp: {value!r}")
    seconds, fraction = match.groups()
    # Integer arithmetic: a float would round the microseconds of present-day timestamps.
    micros = int(fraction[:6].ljust(6, "0")) if fraction else 0
    return _EPOCH + timedelta(seconds=int(seconds), microseconds=micros)


def _timestamp(value: object, what: str) -> tuple[str, datetime]:
    try:
        return value, parse_ts(value)  # type: ignore[return-value, arg-type]
    except (ValueError, TypeError):
        raise _Malformed(f"{what} is missing or not a Slack timestamp: {value!r}") from None


def _text_field(data: Mapping[str, Any], key: str) -> str:
    value = data.get(key)
    return value.strip() if isinstance(value, str) else ""


def _dicts(value: object) -> list[dict[str, Any]]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, dict)]


def _files(raw: Mapping[str, Any]) -> list[str]:
    """Labels of the shared files; old exports hold one `file`, newer ones a `files` list."""
    files = _dicts(raw.get("files"))
    single = raw.get("file")
    if isinstance(single, dict):
        files.append(single)
    labels = []
    for item in files:
        name, title = _text_field(item, "name"), _text_field(item, "title")
        if name and title and title != name:
            labels.append(f"{title} ({name})")
        elif name or title:
            labels.append(name or title)
    return labels


def _attachment(
    item: Mapping[str, Any],
    users: Mapping[str, str],
    channels: Mapping[str, str],
    mentions: list[str],
    links: list[str],
) -> str:
    """Pretext, title and text; the fallback only when there is none, as it repeats them."""
    parts: list[str] = []
    for key in ("pretext", "title", "text"):
        part = _clean(_text_field(item, key), users, channels, mentions, links).strip()
        if part and part not in parts:
            parts.append(part)
    if not parts:
        fallback = _clean(_text_field(item, "fallback"), users, channels, mentions, links)
        if fallback.strip():
            parts.append(fallback.strip())
    for key in ("title_link", "from_url", "original_url"):
        url = _text_field(item, key)
        if url and url not in links:
            links.append(url)
    return " — ".join(parts)


def _kind(raw: Mapping[str, Any], subtype: str | None, has_files: bool) -> MessageKind:
    if subtype in _JOINS:
        return MessageKind.JOIN
    if subtype in _LEAVES:
        return MessageKind.LEAVE
    if raw.get("hidden") is True:
        return MessageKind.OTHER
    if subtype == "file_share" or (subtype is None and has_files):
        return MessageKind.FILE_SHARE
    saying = subtype is None or subtype in _SAYING
    if subtype == "bot_message" or (saying and raw.get("bot_id")):
        return MessageKind.BOT
    return MessageKind.MESSAGE if saying else MessageKind.OTHER


def _author(
    raw: Mapping[str, Any],
    kind: MessageKind,
    user_id: str | None,
    users: Mapping[str, str],
    bots: Mapping[str, str],
) -> str:
    if kind is MessageKind.BOT:
        profile = raw.get("bot_profile")
        name = _text_field(profile, "name") if isinstance(profile, dict) else ""
        bot_id = _text_field(raw, "bot_id")
        name = name or _text_field(raw, "username") or bots.get(bot_id, "") or bot_id
        if name:
            return name
    if user_id:
        known = users.get(user_id)
        if known:
            return known
        # Newer exports embed the author's profile, which helps when users.json lacks them.
        profile = raw.get("user_profile")
        if isinstance(profile, dict):
            for key in ("display_name", "real_name", "name"):
                if name := _text_field(profile, key):
                    return name
        return user_id
    return _text_field(raw, "username") or _text_field(raw, "bot_id") or "unknown"


def _message(
    raw: object,
    channel: Channel,
    path: str,
    users: Mapping[str, str],
    channels: Mapping[str, str],
    bots: Mapping[str, str] | None = None,
) -> SlackMessage:
    if not isinstance(raw, dict):
        raise _Malformed(f"not a JSON object but {_json_type(raw)}")
    ts, at = _timestamp(raw.get("ts"), "ts")
    thread_ts = raw.get("thread_ts")
    if not (isinstance(thread_ts, str) and _TS.fullmatch(thread_ts)):
        thread_ts = None
    subtype = raw.get("subtype")
    subtype = subtype if isinstance(subtype, str) and subtype else None
    user_id = raw.get("user")
    user_id = user_id if isinstance(user_id, str) and user_id else None

    mentions: list[str] = []
    links: list[str] = []
    parts: list[str] = []
    text = raw.get("text")
    if isinstance(text, str) and text:
        cleaned = _clean(text, users, channels, mentions, links).strip()
        if cleaned:
            parts.append(cleaned)
    files = _files(raw)
    parts.extend(f"[file: {label}]" for label in files)
    for item in _dicts(raw.get("attachments")):
        body = _attachment(item, users, channels, mentions, links)
        if body:
            parts.append(f"[attachment: {body}]")

    kind = _kind(raw, subtype, bool(files))
    if not parts and kind not in _SKIPPED_KINDS:
        kind = MessageKind.OTHER  # nothing to say
    return SlackMessage(
        channel=channel,
        ts=ts,
        at=at,
        thread_ts=thread_ts,
        user_id=user_id,
        author=_author(raw, kind, user_id, users, bots or {}),
        text="\n".join(parts),
        kind=kind,
        subtype=subtype,
        mentions=tuple(mentions),
        links=tuple(links),
        path=path,
    )


# "added an integration to this channel: <https://team.slack.com/services/B0JL6RASU|github>"
_ADDED_BOT = re.compile(r"<https?://[^|>\s]*/services/(B\w+)\|([^>]+)>")


def _bots_added(raws: Iterable[object]) -> dict[str, str]:
    """The names bots were added under in a day's notices (subtype ``bot_add``), by bot id."""
    named: dict[str, str] = {}
    for raw in raws:
        if isinstance(raw, dict) and raw.get("subtype") == "bot_add":
            text = raw.get("text")
            found = _ADDED_BOT.findall(text if isinstance(text, str) else "")
            named |= {bot_id: name.strip() for bot_id, name in found if name.strip()}
    return named


def read_message(
    raw: object,
    channel: Channel,
    users: Mapping[str, str],
    channels: Mapping[str, str],
    path: str,
) -> SlackMessage:
    """One message as Slack's APIs and exports both give it (a JSON object), read the way
    an export is read; raises InvalidInput saying what is wrong with it."""
    try:
        return _message(raw, channel, path, users, channels)
    except _Malformed as exc:
        raise InvalidInput(str(exc)) from None
    except (TypeError, ValueError, AttributeError, KeyError) as exc:
        raise InvalidInput(f"unreadable message ({exc!r})") from None


# --- reading the export ------------------------------------------------------------------------

_DAY_FILE = re.compile(r"\d{4}-\d{2}-\d{2}\.json")
_CHANNEL_FILES = (
    ("channels.json", ChannelKind.PUBLIC),
    ("groups.json", ChannelKind.PRIVATE),
    ("dms.json", ChannelKind.DM),
    ("mpims.json", ChannelKind.MPIM),
)
_CHANNEL_FILE_NAMES = frozenset(name for name, _ in _CHANNEL_FILES)
# Zip members can fail in many ways (truncation, bad CRC, encryption, odd compression).
_READ_ERRORS = (
    OSError,
    EOFError,
    RuntimeError,
    NotImplementedError,
    zipfile.BadZipFile,
    zlib.error,
)


def _json_type(value: object) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return "a string"
    if value is None:
        return "null"
    return f"a {type(value).__name__}"


def _json_list(data: bytes, what: str) -> list[Any]:
    try:
        value = json.loads(data.decode("utf-8-sig"))
    except UnicodeDecodeError as exc:
        raise _Malformed(f"not UTF-8 text: {exc}") from exc
    except RecursionError:
        raise _Malformed("nested too deeply to be a Slack export file") from None
    except json.JSONDecodeError as exc:
        # json's messages may end in "at" ("Unterminated string starting at"), hence the ':'.
        raise _Malformed(
            f"not valid JSON: {exc.msg}: line {exc.lineno} column {exc.colno}"
        ) from exc
    if not isinstance(value, list):
        raise _Malformed(f"expected a JSON list of {what}, got {_json_type(value)}")
    return value


def _skipped_folder(name: str) -> bool:
    return name.startswith((".", "__MACOSX"))


class _Refused(_Malformed):
    """A file the limits forbid reading (too big, or a symlink out of the export)."""


_CHUNK_BYTES = 1024 * 1024
_NO_FOLLOW = getattr(os, "O_NOFOLLOW", 0) if os.open in os.supports_dir_fd else 0
"""Where files can be opened relative to a folder's descriptor without following a link
(not on Windows), day files are opened so; elsewhere each path is resolved."""
_HELD_FOLDERS = 64
"""Folder descriptors an export keeps open at most (the oldest is closed first), far
below the usual limit of 1,024 open files however many channels there are."""


def _mib(size: int) -> str:
    return f"{size / 1024**2:,.1f} MiB"


class _Source:
    """An export's files, whatever holds them: top-level names and day files per folder.

    `read` streams a file in chunks and stops as soon as it is over the limits, whatever
    its header or directory entry claimed.
    """

    def __init__(self, limits: ImportLimits) -> None:
        self.top: set[str] = set()
        self.days: dict[str, list[str]] = {}
        self.limits = limits
        self._total = 0
        """Bytes read so far, over every file."""

    def read(self, path: str) -> bytes:
        with self._stream(path) as stream:
            return self._capped(stream, path)

    def _stream(self, path: str) -> IO[bytes]:
        raise NotImplementedError

    def _capped(self, stream: IO[bytes], path: str) -> bytes:
        limit = self.limits.max_file_bytes
        buffer = bytearray()
        while chunk := stream.read(min(_CHUNK_BYTES, limit + 1 - len(buffer))):
            buffer += chunk
            self._total += len(chunk)
            if len(buffer) > limit:
                raise _Refused(f"refused: expands past {_mib(limit)} (imports.max_file_bytes)")
            if self._total > self.limits.max_total_bytes:
                raise _Refused(
                    f"refused: the export expands past {_mib(self.limits.max_total_bytes)}"
                    " (imports.max_total_bytes)"
                )
        return bytes(buffer)

    def check_count(self, count: int, label: str) -> None:
        if count > self.limits.max_files:
            raise InvalidInput(
                f"{label} holds {count:,} files, over imports.max_files "
                f"({self.limits.max_files:,}); refused"
            )

    def close(self) -> None:
        """Nothing to release unless a source holds files open."""


def _day_names(folder: str) -> list[str]:
    with os.scandir(folder) as entries:
        return sorted(e.name for e in entries if _DAY_FILE.fullmatch(e.name) and e.is_file())


class _FolderSource(_Source):
    def __init__(self, root: Path, limits: ImportLimits) -> None:
        super().__init__(limits)
        self._root = root
        self._real_root = root.resolve()
        self._folder_fds: dict[str, int] = {}
        """Folders of the export held open by descriptor, "" the root (see _stream)."""
        with os.scandir(root) as entries:
            for entry in entries:
                if entry.is_file() and entry.name.endswith(".json"):
                    self.top.add(entry.name)
                elif entry.is_dir() and not _skipped_folder(entry.name):
                    days = _day_names(entry.path)
                    if days:
                        self.days[entry.name] = days
        self.check_count(len(self.top) + sum(map(len, self.days.values())), str(root))

    def _stream(self, path: str) -> IO[bytes]:
        fd = self._open_unlinked(path) if _NO_FOLLOW else None
        if fd is not None:
            try:
                self._check_size(os.fstat(fd).st_size)
            except _Refused:
                os.close(fd)
                raise
            return os.fdopen(fd, "rb")
        # Resolved at read time, so a link swapped in after the scan is caught too.
        real = (self._root / path).resolve()
        if not real.is_relative_to(self._real_root):
            raise _Refused("refused: a symlink to outside the export")
        self._check_size(real.stat().st_size)
        return real.open("rb")

    def _open_unlinked(self, path: str) -> int | None:
        """The file at `path` opened through folders held open, when no part of the path
        is a symlink (else None, for the resolving check): a day file costs one open,
        where resolving it costs a look at every folder above it."""
        folder, _, name = path.rpartition("/")
        try:
            parent = self._folder_fd(folder)
            fd = os.open(name, os.O_RDONLY | _NO_FOLLOW, dir_fd=parent)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                return None  # a symlink somewhere on the way
            raise
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            return None
        return fd

    def _folder_fd(self, folder: str) -> int:
        """A descriptor of `folder` ("" the root), each folder opened without following a
        link, from its parent's descriptor: what it holds stays inside the export."""
        fd = self._folder_fds.get(folder)
        if fd is None:
            above, _, name = folder.rpartition("/")
            if folder:
                flags = os.O_RDONLY | os.O_DIRECTORY | _NO_FOLLOW
                fd = os.open(name, flags, dir_fd=self._folder_fd(above))
            else:
                fd = os.open(self._real_root, os.O_RDONLY | os.O_DIRECTORY)
            self._folder_fds[folder] = fd
            if len(self._folder_fds) > _HELD_FOLDERS:  # a workspace of thousands of channels
                oldest = next(name for name in self._folder_fds if name)
                os.close(self._folder_fds.pop(oldest))
        return fd

    def _check_size(self, size: int) -> None:
        if size > self.limits.max_file_bytes:
            raise _Refused(
                f"refused: {_mib(size)}, over {_mib(self.limits.max_file_bytes)}"
                " (imports.max_file_bytes)"
            )

    def close(self) -> None:
        for fd in self._folder_fds.values():
            os.close(fd)
        self._folder_fds.clear()


class _ZipSource(_Source):
    def __init__(self, archive: zipfile.ZipFile, limits: ImportLimits, label: str) -> None:
        super().__init__(limits)
        self._archive = archive
        self._members: dict[str, zipfile.ZipInfo] = {}
        infos = archive.infolist()
        self.check_count(len(infos), label)
        names = {
            info.filename.replace("\\", "/"): info
            for info in infos
            if not info.is_dir() and not info.filename.startswith("__MACOSX")
        }
        prefix = self._prefix(names.keys())
        for name, member in names.items():
            if not name.startswith(prefix):
                continue
            path = name[len(prefix) :]
            parts = path.split("/")
            if len(parts) == 1 and path.endswith(".json"):
                self.top.add(path)
            elif len(parts) == 2 and _DAY_FILE.fullmatch(parts[1]):
                if _skipped_folder(parts[0]):
                    continue
                self.days.setdefault(parts[0], []).append(parts[1])
            else:
                continue
            self._members[path] = member
        for days in self.days.values():
            days.sort()
        self._check_declared(label)

    def _check_declared(self, label: str) -> None:
        """Refuse up front an export whose directory already admits it is too big; members
        that lie about their size are stopped while they are read. Members over the file
        limit do not count: they are refused one by one without being inflated."""
        declared = sum(
            info.file_size
            for info in self._members.values()
            if info.file_size <= self.limits.max_file_bytes
        )
        if declared > self.limits.max_total_bytes:
            raise InvalidInput(
                f"{label} would expand to {_mib(declared)}, over "
                f"{_mib(self.limits.max_total_bytes)} (imports.max_total_bytes); refused"
            )

    @staticmethod
    def _prefix(names: Iterable[str]) -> str:
        """The one folder the export sits in, if it is zipped with its folder ("" if not)."""
        folders = set()
        for name in names:
            folder, _, rest = name.partition("/")
            if not rest:
                if name in _CHANNEL_FILE_NAMES:
                    return ""
            elif rest in _CHANNEL_FILE_NAMES:
                folders.add(folder + "/")
        return folders.pop() if len(folders) == 1 else ""

    def _stream(self, path: str) -> IO[bytes]:
        info = self._members[path]
        if info.file_size > self.limits.max_file_bytes:
            ratio = info.file_size / max(info.compress_size, 1)
            raise _Refused(
                f"refused: expands to {_mib(info.file_size)} ({ratio:,.0f} times its packed"
                f" size), over {_mib(self.limits.max_file_bytes)} (imports.max_file_bytes)"
            )
        return self._archive.open(info)

    def close(self) -> None:
        self._archive.close()


_END_RECORD = b"PK\x05\x06"
_ZIP64_LOCATOR = b"PK\x06\x07"
_END_SEARCH = 22 + 65_535  # the end record, and the longest comment that may follow it


def _declared_members(path: Path) -> int | None:
    """How many members the zip's end record says it has, read before zipfile builds an
    object for each of them; None if the record cannot be found (zipfile will say why)."""
    with path.open("rb") as handle:
        size = handle.seek(0, os.SEEK_END)
        start = max(0, size - _END_SEARCH)
        handle.seek(start)
        tail = handle.read()
        at = tail.rfind(_END_RECORD)
        if at < 0 or len(tail) < at + 22:
            return None
        count = int.from_bytes(tail[at + 10 : at + 12], "little")
        locator = at - 20
        if count != 0xFFFF or locator < 0 or tail[locator : locator + 4] != _ZIP64_LOCATOR:
            return count
        # Zip64: the locator gives where the zip64 end record (and its 8-byte count) is.
        handle.seek(int.from_bytes(tail[locator + 8 : locator + 16], "little") + 32)
        return int.from_bytes(handle.read(8), "little")


def _zip_source(path: Path, limits: ImportLimits) -> _ZipSource:
    declared = _declared_members(path)
    if declared is not None and declared > limits.max_files:
        raise InvalidInput(
            f"{path} holds {declared:,} files, over imports.max_files ({limits.max_files:,});"
            " refused"
        )
    archive = zipfile.ZipFile(path)
    try:
        return _ZipSource(archive, limits, str(path))
    except BaseException:
        archive.close()
        raise


def _folder_root(path: Path) -> Path:
    """The export itself, or the single folder it was unpacked into."""
    if any((path / name).is_file() for name in _CHANNEL_FILE_NAMES):
        return path
    inside = [
        entry
        for entry in path.iterdir()
        if entry.is_dir() and any((entry / name).is_file() for name in _CHANNEL_FILE_NAMES)
    ]
    return inside[0] if len(inside) == 1 else path


def display_name(user: Mapping[str, Any]) -> str:
    profile = user.get("profile")
    profile = profile if isinstance(profile, dict) else {}
    return (
        _text_field(profile, "display_name")
        or _text_field(profile, "real_name")
        or _text_field(user, "real_name")
        or _text_field(user, "name")
    )


def other_names(user: Mapping[str, Any]) -> tuple[str, ...]:
    """A user's handle and full name, where they are not the name shown."""
    profile = user.get("profile")
    profile = profile if isinstance(profile, dict) else {}
    names = (
        _text_field(user, "name"),
        _text_field(profile, "real_name") or _text_field(user, "real_name"),
    )
    shown = display_name(user)
    return tuple(dict.fromkeys(n for n in names if n and n != shown))


class SlackExport:
    """An opened export. `messages()` streams from disk on each call; `problems` holds what
    opening skipped plus what the latest pass skipped (it fills while you iterate)."""

    def __init__(self, source: _Source, label: str, max_text_chars: int | None = None) -> None:
        self._source = source
        self._label = label
        self._max_text_chars = max_text_chars
        self._closed = False
        self.problems: CappedList[Problem] = CappedList()
        if not source.top & _CHANNEL_FILE_NAMES:
            raise InvalidInput(
                f"{label} is not a Slack export: it has no channels.json, groups.json, "
                "dms.json or mpims.json at its top level"
            )
        self.aliases: dict[str, tuple[str, ...]] = {}
        """User id -> the user's other names: their handle and their full name."""
        self.users: dict[str, str] = self._read_users() if "users.json" in source.top else {}
        self.bots: dict[str, str] = {}
        """Bot id -> the name its integration was added under, learnt while reading (the
        notices that add one come before its posts): older exports name a bot's posts by
        its id alone."""
        self.channels: list[Channel] = []
        # Folder -> channel, in metadata order; the first entry claiming a folder keeps it.
        self._folders: dict[str, Channel] = {}
        self._read_channels()
        self._channel_names = {channel.id: channel.name for channel in self.channels}
        self._opening_problems = len(self.problems)

    @classmethod
    def open(
        cls, path: str | Path, limits: ImportLimits | None = None, max_text_chars: int | None = None
    ) -> Self:
        """Open an export folder or .zip; raises InvalidInput if it is not a readable export
        or is over `limits`. Messages longer than `max_text_chars` are skipped as problems."""
        path = Path(path)
        limits = limits or ImportLimits()
        try:
            found = path.exists()
        except OSError as exc:  # a name too long for the file system
            raise InvalidInput(f"cannot read the Slack export {path!r}: {exc.strerror}") from None
        if not found:
            raise InvalidInput(f"Slack export not found: {path}")
        source: _Source
        try:
            if path.is_dir():
                source = _FolderSource(_folder_root(path), limits)
            elif zipfile.is_zipfile(path):
                source = _zip_source(path, limits)
            else:
                raise InvalidInput(f"{path} is neither a folder nor a .zip: not a Slack export")
        except (OSError, zipfile.BadZipFile) as exc:
            raise InvalidInput(f"cannot read the Slack export {path}: {exc}") from exc
        try:
            return cls(source, str(path), max_text_chars)
        except BaseException:
            source.close()
            raise

    def _metadata(self, name: str) -> list[Any]:
        """A metadata file's entries; a broken one makes the whole export unreadable."""
        try:
            return _json_list(self._source.read(name), "entries")
        except (*_READ_ERRORS, _Refused) as exc:
            raise InvalidInput(f"cannot read {name} in {self._label}: {exc}") from exc
        except _Malformed as exc:
            raise InvalidInput(f"{name} in {self._label} is malformed: {exc}") from exc

    def _read_users(self) -> dict[str, str]:
        users: dict[str, str] = {}
        for number, entry in enumerate(self._metadata("users.json"), 1):
            user_id = _text_field(entry, "id") if isinstance(entry, dict) else ""
            if not user_id:
                self.problems.append(Problem("users.json", f"entry {number} has no user id"))
                continue
            users[user_id] = display_name(entry) or user_id
            self.aliases[user_id] = other_names(entry)
        return users

    def _read_channels(self) -> None:
        seen: set[str] = set()
        for file_name, kind in _CHANNEL_FILES:
            if file_name not in self._source.top:
                continue
            for number, entry in enumerate(self._metadata(file_name), 1):
                channel_id = _text_field(entry, "id") if isinstance(entry, dict) else ""
                if not channel_id:
                    self.problems.append(Problem(file_name, f"entry {number} has no channel id"))
                    continue
                if channel_id in seen:
                    continue
                seen.add(channel_id)
                # DM folders are named by id; every other folder by the channel's name.
                name = channel_id if kind is ChannelKind.DM else _text_field(entry, "name")
                members = entry.get("members")
                channel = Channel(
                    id=channel_id,
                    name=name or channel_id,
                    kind=kind,
                    members=tuple(
                        self.users.get(member, member)
                        for member in (members if isinstance(members, list) else ())
                        if isinstance(member, str)
                    ),
                )
                self.channels.append(channel)
                self._folders.setdefault(channel.name, channel)
        # Folders no metadata names are still conversations; public is the least surprising.
        for folder in sorted(self._source.days.keys() - self._folders.keys()):
            channel = Channel(id=folder, name=folder, kind=ChannelKind.PUBLIC)
            self.channels.append(channel)
            self._folders[folder] = channel

    def day_files(self) -> list[str]:
        """Every day file, by date, then by channel in metadata order."""
        return [f"{folder}/{day}" for day, folder, _ in self._by_day()]

    def messages(self) -> Iterator[SlackMessage]:
        """Each day file's messages in ts order, reading one file at a time, day by day
        across channels, so that what comes out is close to time order."""
        if self._closed:
            raise InvalidInput(f"the Slack export {self._label} is closed")
        self.problems.truncate(self._opening_problems)
        for day, folder, channel in self._by_day():
            yield from self._read_day(f"{folder}/{day}", channel)

    def _by_day(self) -> list[tuple[str, str, Channel]]:
        days = self._source.days
        rank = {folder: n for n, folder in enumerate(self._folders)}
        found = [
            (day, folder, channel)
            for folder, channel in self._folders.items()
            for day in days.get(folder, ())
        ]
        return sorted(found, key=lambda entry: (entry[0], rank[entry[1]]))

    def _read_day(self, path: str, channel: Channel) -> list[SlackMessage]:
        try:
            raws = _json_list(self._source.read(path), "messages")
        except _READ_ERRORS as exc:
            self.problems.append(Problem(path, f"cannot read: {exc}"))
            return []
        except _Malformed as exc:
            self.problems.append(Problem(path, str(exc)))
            return []
        users, channels, bots = self.users, self._channel_names, self.bots
        bots.update(_bots_added(raws))
        messages = []
        for number, raw in enumerate(raws, 1):
            try:
                message = _message(raw, channel, path, users, channels, bots)
                messages.append(self._within_limit(message))
            except _Malformed as exc:
                self.problems.append(Problem(path, f"message {number}: {exc}"))
            except (TypeError, ValueError, AttributeError, KeyError) as exc:
                # A shape nobody foresaw must not end the import; say what broke instead.
                self.problems.append(Problem(path, f"message {number}: unreadable ({exc!r})"))
        messages.sort(key=_by_time)
        return messages

    def _within_limit(self, message: SlackMessage) -> SlackMessage:
        limit = self._max_text_chars
        if limit is not None and len(message.text) > limit:
            raise _Malformed(
                f"{len(message.text):,} characters, over max_turn_chars ({limit:,}); skipped"
            )
        return message

    def close(self) -> None:
        self._closed = True
        self._source.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()
