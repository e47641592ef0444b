"""The work that follows a turn, as job handlers: extraction, summaries, compaction."""

from collections.abc import Callable

from memstrata import summaries
from memstrata.facts import record_fact
from memstrata.jobs import COMPACT, EXTRACT, REFRESH, ROLLUP, SUMMARIZE, Apply, Handler
from memstrata.models.base import MemoryModel
from memstrata.settings import Settings
from memstrata.store.base import Job, Store
from memstrata.summaries import turn_input


def pinned_fact_texts(store: Store, settings: Settings, tenant: str, stream: str) -> list[str]:
    return [
        f.text for f in store.facts(tenant, stream) if f.confidence >= settings.pin_min_confidence
    ]


def handlers(store: Store, model: MemoryModel, settings: Settings) -> dict[str, Handler]:
    def extract(job: Job) -> Apply:
        turn = store.turn(job.tenant, int(job.payload["turn_id"]))
        found = model.extract_facts(turn_input(turn))

        def apply() -> None:
            for item in found:
                record_fact(store, job.tenant, job.stream, item, turn.ref())

        return apply

    def summarize(job: Job) -> Apply:
        through = int(job.payload["through"])
        return summaries.summarize_chunk(store, model, settings, job.tenant, job.stream, through)

    def compact(job: Job) -> Apply:
        known = pinned_fact_texts(store, settings, job.tenant, job.stream)
        return summaries.compact(store, model, settings, job.tenant, job.stream, known)

    def rollup(job: Job) -> Apply:
        return summaries.roll_up(store, model, settings, job.tenant, job.stream)

    def refresh(job: Job) -> Apply:
        rolled = summaries.roll_up(store, model, settings, job.tenant, job.stream, everything=True)
        with store.transaction():
            rolled()
        known = pinned_fact_texts(store, settings, job.tenant, job.stream)
        return summaries.rebuild(store, model, settings, job.tenant, job.stream, known)

    table: dict[str, Callable[[Job], Apply]] = {
        EXTRACT: extract,
        SUMMARIZE: summarize,
        COMPACT: compact,
        ROLLUP: rollup,
        REFRESH: refresh,
    }
    return table
