"""Which stream an outside message, or a turn sent without one, belongs to.

Rules, in order, for a message:
0. a thread's reply lives where the thread's first message lives (see SlackIngest);
1. its channel is mapped to a project in settings, by name or by Slack id;
2. it names an issue key (ALPHA-142 goes to the project whose key is ALPHA; a key counts
   only written as KEY-123, so the word "el" is not project EL);
3. it names a project;
4. (a direct message naming a project is routed by 2 and 3, and says so);
5. in a general channel, the model's route task decides;
6. otherwise it goes to the global stream.
A message naming several projects goes to the one it names most; the others keep a
cross-reference. Each route says which rule made it and how sure it is.
"""

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from threefold.domain import GLOBAL_STREAM
from threefold.models.base import MemoryModel
from threefold.settings import ProjectSettings

PROJECT_KIND = "project"
_DIRECT = frozenset({"dm", "mpim"})
_MODEL_MIN_WORDS = 4
"""Shorter messages in general channels are chatter; asking the model costs more than it
finds."""
MODEL_MIN_CONFIDENCE = 0.5
"""A model's route below this is a guess: the text stays where it is."""


class Route(BaseModel):
    model_config = ConfigDict(frozen=True)

    stream: str
    method: str
    """channel, thread, issue_key, project_name, dm_mention, model, page_context, mention or
    default."""
    confidence: float
    also: tuple[str, ...] = ()
    """Other streams the text names, which get a cross-reference."""


@dataclass(frozen=True)
class _Project:
    stream: str
    key: str | None
    names: tuple[str, ...]
    channels: tuple[str, ...]


class Router:
    """Routes for one tenant: the projects in settings plus its existing project streams."""

    def __init__(
        self,
        projects: Sequence[ProjectSettings],
        model: MemoryModel,
        streams: Iterable[str] = (),
        jira_projects: Iterable[tuple[str, str | None]] = (),
    ) -> None:
        """`jira_projects` are the (key, name) of imported Jira projects: their keys and
        names route like configured ones."""
        self.model = model
        self.projects = _projects(projects, streams, jira_projects)
        self.by_channel = {c: p.stream for p in self.projects for c in p.channels}
        self.by_key = {p.key: p.stream for p in self.projects if p.key}
        self.by_name = {
            _spelling(n): p.stream for p in self.projects for n in p.names if len(n) >= 3
        }
        self.key_pattern = _alternation(self.by_key, r"(?<![\w-])({})-\d+\b", 0)
        self.name_pattern = _alternation(self.by_name, r"(?<![\w-])({})(?![\w-])", re.I)

    def stream_of_key(self, key: str) -> str:
        """The project stream of an issue key's project, e.g. ALPHA -> project:alpha."""
        return self.by_key.get(key.upper(), f"{PROJECT_KIND}:{key.lower()}")

    def message(
        self, text: str, channel: str, channel_kind: str = "public", channel_id: str = ""
    ) -> Route:
        mapped = self.channel_stream(channel) or self.channel_stream(channel_id)
        keys, names = self._mentions(text)
        if mapped:
            return Route(
                stream=mapped, method="channel", confidence=1.0, also=_others(keys + names, mapped)
            )
        named = self._by_mentions(keys, names, direct=channel_kind in _DIRECT)
        if named:
            return named
        if channel_kind not in _DIRECT and len(text.split()) >= _MODEL_MIN_WORDS:
            guessed = self._ask_model(text)
            if guessed:
                return guessed
        return Route(stream=GLOBAL_STREAM, method="default", confidence=0.5)

    def channel_stream(self, channel: str) -> str | None:
        """The project a channel belongs to, by its name or its Slack id."""
        return self.by_channel.get(channel.lower().removeprefix("#")) if channel else None

    def turn(self, text: str, page_context: str | None) -> Route:
        """A stream for a turn sent without one: what the page shows, then what the text
        names, then the global stream."""
        for source, method, confidence in (
            (page_context or "", "page_context", 0.9),
            (text, "mention", 0.8),
        ):
            keys, names = self._mentions(source)
            ranked = _ranked(keys, names)
            if ranked:
                best = ranked[0][0]
                return Route(
                    stream=best,
                    method=method,
                    confidence=confidence,
                    also=_others(keys + names, best),
                )
        return Route(stream=GLOBAL_STREAM, method="default", confidence=0.5)

    def _mentions(self, text: str) -> tuple[Counter[str], Counter[str]]:
        keys: Counter[str] = Counter()
        names: Counter[str] = Counter()
        if self.key_pattern:
            keys.update(self.by_key[m] for m in self.key_pattern.findall(text))
        if self.name_pattern:
            names.update(self.by_name[_spelling(m)] for m in self.name_pattern.findall(text))
        return keys, names

    def _by_mentions(self, keys: Counter[str], names: Counter[str], direct: bool) -> Route | None:
        ranked = _ranked(keys, names)
        if not ranked:
            return None
        best, score = ranked[0]
        tied = len(ranked) > 1 and ranked[1][1] == score
        method, confidence = (
            ("dm_mention", 0.75)
            if direct
            else ("issue_key", 0.9)
            if keys[best]
            else ("project_name", 0.8)
        )
        return Route(
            stream=best,
            method=method,
            confidence=confidence - (0.1 if tied else 0.0),
            also=_others(keys + names, best),
        )

    def _ask_model(self, text: str) -> Route | None:
        streams = list(dict.fromkeys(p.stream for p in self.projects))
        if not streams:
            return None
        decision = self.model.route(text, streams)
        if decision.stream in streams and decision.confidence >= MODEL_MIN_CONFIDENCE:
            return Route(stream=decision.stream, method="model", confidence=decision.confidence)
        return None


def _projects(
    configured: Sequence[ProjectSettings],
    streams: Iterable[str],
    jira: Iterable[tuple[str, str | None]],
) -> list[_Project]:
    """Projects in settings, then imported Jira projects by their key and name, then
    project streams that exist but are neither, known by the id in their name."""
    found = [
        _Project(p.stream, p.key, p.names or (_id_of(p.stream),), p.channels) for p in configured
    ]
    keys = {p.key for p in found if p.key}
    for key, name in jira:
        if key.upper() not in keys:
            keys.add(key.upper())
            stream = f"{PROJECT_KIND}:{key.lower()}"
            found.append(_Project(stream, key.upper(), (name,) if name else (), ()))
    known = {p.stream for p in found}
    for stream in streams:
        if stream.startswith(f"{PROJECT_KIND}:") and stream not in known:
            found.append(_Project(stream, None, (_id_of(stream),), ()))
    return found


def _id_of(stream: str) -> str:
    return stream.split(":", 1)[1].replace("-", " ").replace("_", " ")


def _spelling(name: str) -> str:
    return " ".join(re.split(r"[\s_-]+", name.lower().strip()))


def _alternation(names: dict[str, str], template: str, flags: int) -> re.Pattern[str] | None:
    if not names:
        return None
    # Longest first, so "project alpha" wins over "alpha" where both are names.
    spelled = sorted(names, key=len, reverse=True)
    choices = "|".join(r"[\s_-]+".join(map(re.escape, n.split())) for n in spelled)
    return re.compile(template.format(choices), flags)


def _ranked(keys: Counter[str], names: Counter[str]) -> list[tuple[str, int]]:
    """Streams by how much the text names them, most first. An issue key counts double: it
    names one project unambiguously."""
    return (keys + keys + names).most_common()


def _others(mentions: Counter[str], primary: str) -> tuple[str, ...]:
    return tuple(sorted(s for s in mentions if s != primary))
