"""Digests through the llm model: the day's text is the server's summary, written once."""

from datetime import UTC, datetime

from tests.openai_fake import FakeOpenAIServer
from tests.test_llm_memory import by_task, llm_settings  # noqa: F401 - a fixture
from threefold import Memory

DAY = datetime(2026, 3, 3, 10, 0, tzinfo=UTC)


def test_a_digest_is_the_llm_summary_and_is_kept(tmp_path, llm_settings) -> None:  # noqa: F811
    answers = {
        "extract_facts": {"facts": []},
        "summarize_session": {"text": "- The team chose a vendor for badges.", "open_items": []},
        "merge_summary": {"text": "- The team chose a vendor for badges."},
    }
    with (
        FakeOpenAIServer(default=by_task(answers)) as server,
        Memory.open(
            tmp_path / "llm.db",
            settings=llm_settings(server, embed={"kind": "none"}),
            background_worker=False,
        ) as mem,
    ):
        mem.add_turn("project:badges", "We picked Acme as the badge vendor.", at=DAY)
        mem.process_pending()
        asked = len(server.requests)
        first = mem.digest("project:badges", "2026-03-03")
        assert first.days[0].text == "- The team chose a vendor for badges."
        assert len(server.requests) == asked + 1
        again = mem.digest("project:badges", "2026-03-03")
        assert again.days == first.days
        assert len(server.requests) == asked + 1  # kept, not asked again
        mem.add_turn("project:badges", "Acme delivers on Friday.", at=DAY)
        mem.process_pending()
        asked = len(server.requests)
        mem.digest("project:badges", "2026-03-03")
        assert len(server.requests) == asked + 1  # the day changed: written again
