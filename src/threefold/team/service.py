"""Team: rebuilds profiles and actions, reads them for a trust level, writes digests, and
finds what a question about people, projects or a period should add to a context."""

import logging
import re
from dataclasses import dataclass, field
from datetime import date, datetime

from threefold.domain import (
    GLOBAL_STREAM,
    USER_WORDS,
    SearchHit,
    SourceRef,
    Visibility,
    as_utc,
    project_subject,
    utcnow,
)
from threefold.errors import InvalidInput
from threefold.models.base import MemoryModel
from threefold.models.heuristic.text import STOPWORDS
from threefold.recall.presets import PRESETS
from threefold.recall.search import Recall
from threefold.settings import ActionRule, Settings
from threefold.store.base import ItemFilter, Store, TenantNames
from threefold.team import digests, periods, profiles, webhooks
from threefold.team.model import Action, ActionStatus, Digest, Profile
from threefold.team.snapshot import Snapshot, data_time, load

log = logging.getLogger("threefold.team")
PROJECT_HITS = 6
"""Items retrieved from each project a question names, when it names several."""


@dataclass(frozen=True)
class RebuildReport:
    profiles: int
    actions: int
    """Actions found by this rebuild (new ones included)."""
    new: int
    closed: int
    """Open actions whose cause is gone, marked done."""
    webhooks: int
    """New actions a webhook accepted."""


@dataclass
class TeamMaterial:
    """What a context adds for a question: lines with their sources, by section."""

    profiles: list[tuple[str, SourceRef | None]] = field(default_factory=list)
    digest: list[tuple[str, SourceRef | None]] = field(default_factory=list)
    projects: list[tuple[str, SourceRef | None]] = field(default_factory=list)


class Team:
    def __init__(
        self, store: Store, model: MemoryModel, settings: Settings, recall: Recall
    ) -> None:
        self.store, self.model, self.settings, self.recall = store, model, settings, recall

    # -- rebuilding -----------------------------------------------------------------

    def rebuild(self, tenant: str, now: datetime | None = None) -> RebuildReport:
        now = as_utc(now) if now else utcnow()
        streams = self.store.streams(tenant)
        snapshot = load(self.store, tenant, now, streams)
        built = profiles.build_all(snapshot, self.settings, streams, self._project_names(tenant))
        with self.store.transaction():
            for data in built:
                self.store.put_profile(tenant, data["entity"], data["kind"], data["name"], data)
        return self._judge(tenant, snapshot, len(built))

    def refresh_actions(self, tenant: str, now: datetime | None = None) -> RebuildReport:
        """The rules alone, run when new material arrives (a digested batch of messages, a
        tracker import), so that what it causes is raised, and what it finishes is closed,
        then rather than at the next rebuild. Judged at `now`, else at the time of the
        data, and never before the moment the open actions were last judged at: an older
        export read later must not close what a later judgement found."""
        streams = self.store.streams(tenant)
        moment = as_utc(now) if now else data_time(self.store, tenant, streams, utcnow())
        judged = [
            datetime.fromisoformat(row["judged_at"])
            for row in self.store.action_rows(tenant, ActionStatus.OPEN.value)
            if row.get("judged_at")
        ]
        moment = max([moment, *judged])
        return self._judge(tenant, load(self.store, tenant, moment, streams), 0)

    def _judge(self, tenant: str, snapshot: Snapshot, built: int) -> RebuildReport:
        """Run every enabled rule on `snapshot`: store what they find, close open actions
        whose cause is gone, and tell each rule's webhook or channel of its new ones."""
        from threefold.team import actions as rules  # its cues compile slowly; a context needs none

        found = [
            (rule, item)
            for rule in self.settings.team.rules
            if rule.enabled
            for item in rules.find(snapshot, rule)
        ]
        judged_at = snapshot.now.isoformat()
        fresh = []
        with self.store.transaction():
            for rule, item in found:
                action_id, new = self.store.upsert_action(
                    tenant,
                    item.key,
                    rule.label,
                    item.stream,
                    {**item.data(rule), "judged_at": judged_at},
                    item.visibility(),
                )
                if new and (rule.webhook or rule.slack_channel):
                    fresh.append((rule, action_id))
            closed = self.store.close_missing_actions(tenant, [i.key for _, i in found])
        told = self._tell(tenant, fresh)
        return RebuildReport(built, len(found), len(fresh), closed, told)

    def _tell(self, tenant: str, fresh: list[tuple[ActionRule, int]]) -> int:
        """Tell each rule's webhook and Slack channel of its new actions; how many were
        heard. A failure is logged, not raised: an action stands whether or not it was told."""
        if not fresh:
            return 0
        actions = {a.id: a for a in self.actions(tenant, tuple(Visibility))}
        team = self.settings.team
        heard = 0
        for rule, action_id in fresh:
            action = actions[action_id]
            if rule.webhook:
                heard += webhooks.post(
                    rule.webhook,
                    {"tenant": tenant, "action": action.model_dump(mode="json")},
                    allow_networks=team.webhook_allow_networks,
                    timeout=team.webhook_timeout_seconds,
                )
            if rule.slack_channel:
                heard += webhooks.to_slack(self.settings, rule.slack_channel, action)
        return heard

    # -- reading --------------------------------------------------------------------

    def profile(
        self,
        tenant: str,
        entity: str,
        visibilities: tuple[Visibility, ...],
        now: datetime | None = None,
    ) -> Profile:
        """The stored profile, or one built now for an entity none is stored for."""
        if entity.lower().removeprefix("@").removeprefix("person:") in USER_WORDS:
            # What each stream's user says of themselves is about "user": one profile of
            # them all would mix every user of the tenant.
            raise InvalidInput(
                f"{entity!r} is the speaker of each stream, not one person: ask for that "
                "user's stream (profile('user:alice')), or name them"
            )
        keys = self._project_keys(self.store.jira_projects(tenant))
        key, name = profiles.entity_key(entity, keys)
        data = self.store.profile_data(tenant, key)
        meant: list[tuple[str, str]] = []
        if data is None and key.startswith("person:"):
            meant = self._people_meant(tenant, key)
            if len(meant) == 1:
                key, name = meant[0]
                data = self.store.profile_data(tenant, key)
        if data is None:
            moment = as_utc(now) if now else utcnow()
            streams = self.store.streams(tenant)
            snapshot = load(self.store, tenant, moment, streams)
            data = profiles.build_one(snapshot, key, name, self._project_names(tenant))
        if len(meant) > 1:  # two people share the name: say so rather than pick one
            data = {**data, "note": f"{name} may mean {' or '.join(n for _, n in meant)}."}
        return profiles.shown(data, visibilities)

    def _people_meant(self, tenant: str, key: str) -> list[tuple[str, str]]:
        """The stored people a name may mean: "Kofi" is "Kofi Mensah" when the memory knows
        them by that alias, or by that first name among the profiles."""
        asked = key.removeprefix("person:")
        stored = {e: n for e, kind, n in self.store.profile_names(tenant) if kind == "person"}
        known = [f"person:{k}" for k in self.store.entities_named(tenant, asked)]
        found = [k for k in known if k in stored]
        if len(found) != 1:
            found = [e for e, n in stored.items() if (n.lower().split() or [""])[0] == asked]
        return sorted((k, stored[k]) for k in found)

    def _project_names(self, tenant: str) -> dict[str, str]:
        """Project stream -> the name its tracker gives it, with its key: "Warehouse Core
        (WMS)"."""
        streams = {p.key.upper(): p.stream for p in self.settings.projects if p.key}
        return {
            streams.get(key.upper(), f"project:{key.lower()}"): f"{' '.join(name.split())} ({key})"
            for key, name in self.store.jira_projects(tenant)
            if name and name.strip()
        }

    def actions(
        self,
        tenant: str,
        visibilities: tuple[Visibility, ...],
        *,
        status: str | None = None,
        stream: str | None = None,
        rule: str | None = None,
    ) -> list[Action]:
        if status is not None:
            status = _status(status).value
        rows = self.store.action_rows(tenant, status)
        allowed = {v.value for v in visibilities}
        return [
            _action(row)
            for row in rows
            if row["visibility"] in allowed
            and (stream is None or row["stream"] == stream)
            and (rule is None or row["rule"] == rule)
        ]

    def set_status(self, tenant: str, action_id: int, status: str) -> Action:
        row = self.store.set_action_status(tenant, action_id, _status(status).value)
        return _action(row)

    def digest(
        self,
        tenant: str,
        stream: str,
        period: str | tuple[date, date],
        timezone: str | None,
        now: datetime | None,
        visibilities: tuple[Visibility, ...],
    ) -> Digest:
        zone = timezone or self.settings.team.timezone
        days = periods.resolve(period, zone, as_utc(now) if now else utcnow())
        return digests.period_digest(
            self.store, self.model, tenant, stream, days, zone, visibilities
        )

    # -- contexts -------------------------------------------------------------------

    def material(
        self,
        tenant: str,
        stream: str,
        query: str,
        visibilities: tuple[Visibility, ...],
        timezone: str | None = None,
        names: TenantNames | None = None,
    ) -> TeamMaterial:
        """`names`: the tenant's stream and profile names, where the caller read them
        already; else they are read here."""
        found = TeamMaterial()
        if not query.strip() or not visibilities:
            return found
        if names is None:
            names = TenantNames(
                self.store.streams(tenant),
                self.store.profile_names(tenant),
                self.store.jira_projects(tenant),
            )
        named_projects = self._projects_named(names, query)
        if not named_projects and stream == GLOBAL_STREAM:
            named_projects = self._routed(names.streams, query)
        for entity in [*named_projects, *_people_named(names.profiles, query)]:
            data = self.store.profile_data(tenant, entity)
            if data is not None:
                shown = profiles.shown(data, visibilities)
                found.profiles += [(t, s or _profile_ref(shown)) for t, s in shown.lines()]
        if (period := periods.asked_period(query)) is not None:
            # "What did Beta learn this week?" asked anywhere is about Beta's stream.
            for source in named_projects or [stream]:
                digest = self.digest(tenant, source, period, timezone, None, visibilities)
                lines = digests.lines(digest)
                if len(named_projects) > 1:
                    lines = [(f"[{source}] {text}", ref) for text, ref in lines]
                found.digest += lines
        if len(named_projects) >= 2 or any(p != stream for p in named_projects):
            # Asked elsewhere, or across projects: recall reads only the asking stream.
            queries = (self._topic(names, query), query)
            found.projects = self._from_each(tenant, named_projects, queries, visibilities)
        return found

    def _from_each(
        self,
        tenant: str,
        streams: list[str],
        queries: tuple[str, str],
        visibilities: tuple[Visibility, ...],
    ) -> list[tuple[str, SourceRef | None]]:
        """The best few items of each project, labelled with the project they came from,
        taken in turns so that no project crowds out another. `queries`: the question
        without the projects' names, and whole, for a project the first finds nothing in
        (a comparison shows something of each)."""
        per_project = []
        for stream in streams:
            where = ItemFilter(tenant=tenant, streams=(stream,), visibilities=visibilities)
            hits: list[SearchHit] = []
            for query in dict.fromkeys(queries):
                hits = hits or self.recall.search(query, where, PRESETS["default"], PROJECT_HITS)
            per_project.append([(f"[{stream}] {' '.join(h.text.split())}", h.source) for h in hits])
        out: list[tuple[str, SourceRef | None]] = []
        for rank in range(PROJECT_HITS):
            out += [hits[rank] for hits in per_project if rank < len(hits)]
        return out

    def _project_keys(self, imported: list[tuple[str, str | None]]) -> dict[str, str]:
        """Project keys and names, in upper case, to their streams: those configured, and
        every Jira project `imported` (Store.jira_projects: under its key and its name),
        which is a project whether or not it is configured."""
        found = {p.key.upper(): p.stream for p in self.settings.projects if p.key}
        for key, name in imported:
            stream = found.setdefault(key.upper(), f"project:{key.lower()}")
            if name:
                found.setdefault(" ".join(name.upper().split()), stream)
        return found

    def _projects_named(self, tenant_names: TenantNames, query: str) -> list[str]:
        """Project streams the query names, in its order: by stream id, configured key or
        name, a channel routed to the project, or an imported tracker project's key or
        name. A name that is also a common word ("it", "el") counts only written in
        capitals, as a key is ("IT", "EL")."""
        names, words = self._names_of_projects(tenant_names)
        found = _named_in(query, {n: s for n, s in names.items() if n not in words})
        capitals = {n.upper(): names[n] for n in words}
        found += [capitals[w] for w in re.findall(r"\b[A-Z]{2,}\b", query) if w in capitals]
        return list(dict.fromkeys(found))

    def _names_of_projects(self, tenant_names: TenantNames) -> tuple[dict[str, str], set[str]]:
        """Every name of a project (lowercase) -> its stream; and those names that are
        common words."""
        names: dict[str, str] = {}
        for stream in tenant_names.streams:
            if subject := project_subject(stream):
                names.setdefault(subject, stream)
        for project in self.settings.projects:
            for name in (project.key, *project.names, project_subject(project.stream)):
                if name:
                    names.setdefault(name.lower(), project.stream)
            for channel in project.channels:
                names.setdefault(channel.lower().removeprefix("#"), project.stream)
        for name, stream in self._project_keys(tenant_names.projects).items():
            names.setdefault(" ".join(name.lower().split()), stream)
        return names, {n for n in names if n in STOPWORDS}

    def _topic(self, tenant_names: TenantNames, query: str) -> str:
        """The query without the names of projects: within a project its own name says
        nothing ("what was decided in Gamma" would find every GAMMA-12 row first)."""
        names, words = self._names_of_projects(tenant_names)
        tokens = re.findall(r"[\w'-]+", query)
        kept, i = [], 0
        while i < len(tokens):
            for length in range(min(_MAX_NAME_WORDS, len(tokens) - i), 0, -1):
                run = " ".join(t.strip("'-").lower() for t in tokens[i : i + length])
                if run in names and (run not in words or tokens[i].isupper()):
                    i += length
                    break
            else:
                kept.append(tokens[i])
                i += 1
        return " ".join(kept) or query

    def _routed(self, streams: list[str], query: str) -> list[str]:
        """The project the model routes a question to that names none, as it routes a
        message of a general channel; none when it is unsure."""
        from threefold.routing import MODEL_MIN_CONFIDENCE

        projects = sorted({s for s in streams if project_subject(s)})
        projects += [p.stream for p in self.settings.projects if p.stream not in projects]
        if not projects or len(query.split()) < _ROUTED_MIN_WORDS:
            return []
        decision = self.model.route(query, projects)
        sure = decision.stream in projects and decision.confidence >= MODEL_MIN_CONFIDENCE
        return [decision.stream] if sure else []


_ROUTED_MIN_WORDS = 4
"""A shorter question is chatter to the router too (routing.py)."""


def _people_named(profiles: list[tuple[str, str, str]], query: str) -> list[str]:
    """The people of `profiles` (entity, kind, name) whom the query names."""
    names: dict[str, str] = {}
    for entity, kind, name in profiles:
        if kind != "person":
            continue
        full = " ".join(name.lower().split())
        names.setdefault(full, entity)
        first = full.split()[0] if full else ""
        if len(first) > 2 and first not in STOPWORDS:
            names.setdefault(first, entity)
    return _named_in(query, names)


def _named_in(query: str, names: dict[str, str]) -> list[str]:
    """The entities whose names appear in `query` as whole words, in its order, each once.
    The query's runs of up to four words are looked up, so the cost does not grow with the
    number of names."""
    tokens = [word.strip("'-") for word in re.findall(r"[\w'-]+", query.lower())]
    ordered: list[str] = []
    for i in range(len(tokens)):
        for length in range(_MAX_NAME_WORDS, 0, -1):
            run = " ".join(tokens[i : i + length])
            entity = names.get(run)
            if entity is not None and entity not in ordered:
                ordered.append(entity)
                break
    return ordered


_MAX_NAME_WORDS = 4


def _profile_ref(profile: Profile) -> SourceRef:
    return SourceRef(kind="profile", id=profile.entity, at=profile.built_at)


def _status(value: str) -> ActionStatus:
    try:
        return ActionStatus(value)
    except ValueError:
        known = ", ".join(s.value for s in ActionStatus)
        raise InvalidInput(f"unknown action status {value!r}; use one of {known}") from None


def _action(row: dict) -> Action:
    fields = {k: v for k, v in row.items() if k in Action.model_fields}
    return Action.model_validate(fields)
