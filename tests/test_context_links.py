"""Links in a context are written short; the store keeps them whole (context/links.py)."""

from datetime import UTC, datetime, timedelta

from threefold.tokens import count_tokens

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
STREAM = "chat:team"
HASH = "1a2b3c4d5e6f708192a3b4c5d6e7f80912a3b4c5"
COMMIT = f"https://github.com/acme/rocket-engine/commit/{HASH}"
NOTICE = f"[rocket-engine:main] 1 new commit by dana: 1a2b3c4 ({COMMIT}): tune the fuel pump"


def _items(context, section: str) -> list:
    return [i for s in context.sections if s.name == section for i in s.items]


def _recent(mem, text: str, query: str = "what changed?", budget: int = 2000):
    mem.add_turn(STREAM, text, at=T0, speaker="github", source="bot")
    return mem.context(STREAM, query, budget=budget)


def test_a_recent_turn_shows_its_link_short_and_names_its_source(open_memory):
    mem = open_memory()
    context = _recent(mem, NOTICE)
    [item] = _items(context, "recent_turns")
    assert "(github.com)" in item.text and HASH not in context.text
    assert "1a2b3c4" in item.text and "tune the fuel pump" in item.text
    # The source leads back to the stored turn, which holds the link whole.
    assert item.source.kind == "turn"
    assert COMMIT in mem.turn(int(item.source.id)).user


def test_a_turns_count_is_of_what_the_context_shows(open_memory):
    mem = open_memory()
    [item] = _items(_recent(mem, NOTICE), "recent_turns")
    assert item.tokens <= count_tokens(item.text) + 8
    assert item.tokens < count_tokens(NOTICE)


def test_the_chat_messages_show_the_short_form_too(open_memory):
    mem = open_memory()
    context = _recent(mem, NOTICE)
    said = [m["content"] for m in context.messages if m["role"] == "user"]
    assert any("tune the fuel pump" in text and HASH not in text for text in said)


def test_an_older_turn_found_by_its_repository_shows_short_and_stays_whole(open_memory):
    mem = open_memory(recent_turns=2)
    mem.add_turn(STREAM, NOTICE, at=T0, speaker="github", source="bot")
    for i in range(12):
        mem.add_turn(STREAM, f"lunch plan number {i}", at=T0 + timedelta(hours=i + 1))
    mem.process_pending()
    context = mem.context(STREAM, "which commit touched rocket-engine's fuel pump?", budget=600)
    shown = [i for i in _items(context, "retrieved") if "fuel pump" in i.text]
    assert shown and HASH not in context.text
    hits = mem.search("rocket-engine fuel pump", stream=STREAM, kinds=["turn"])
    assert any(COMMIT in hit.text for hit in hits)


def test_slack_markup_shows_its_label(open_memory):
    mem = open_memory()
    context = _recent(mem, f"see <{COMMIT}|1a2b3c4> for the pump")
    assert "see 1a2b3c4 for the pump" in context.text and "github.com" not in context.text


def test_a_bare_long_link_keeps_host_and_tail(open_memory):
    mem = open_memory()
    review = "https://gitlab.example.com/platform/infrastructure/rocket-engine/-/merge_requests"
    context = _recent(mem, f"{review}/1234/diffs?view=parallel#note_{HASH}")
    assert "gitlab.example.com/…/-/merge_requests/1234/diffs" in context.text
    assert "parallel" not in context.text


def test_a_short_link_is_shown_as_written(open_memory):
    mem = open_memory()
    context = _recent(mem, "PR: https://github.com/acme/rocket-engine/pull/42.")
    assert "PR: https://github.com/acme/rocket-engine/pull/42." in context.text


def test_a_link_a_little_too_long_loses_only_its_scheme(open_memory):
    mem = open_memory()
    url = "https://www.example.com/docs/guides/getting-started/installing-on-linux"
    context = _recent(mem, f"see {url}, then reboot")
    assert "see example.com/docs/guides/getting-started/installing-on-linux, then" in context.text


def test_malformed_markup_is_left_readable(open_memory):
    mem = open_memory()
    text = f"broken <{COMMIT}| and <https://| and <|x>"
    context = _recent(mem, text)
    [item] = _items(context, "recent_turns")
    assert "broken <github.com/acme/rocket-engine/commit/1a2b3c4| and <https://|" in item.text
    assert mem.turns(STREAM)[-1].user == text


def test_a_url_of_five_thousand_characters_costs_little(open_memory):
    mem = open_memory()
    url = "https://example.org/files/" + "x" * 4980
    context = _recent(mem, f"the dump: {url}", budget=400)
    [item] = _items(context, "recent_turns")
    assert item.tokens < 80 and "example.org/" in item.text
    assert context.tokens <= 400
    assert mem.turns(STREAM)[-1].user == f"the dump: {url}"


def test_a_message_that_is_only_a_url(open_memory):
    mem = open_memory()
    context = _recent(mem, COMMIT)
    [item] = _items(context, "recent_turns")
    assert item.text.endswith("\ngithub: github.com/acme/rocket-engine/commit/1a2b3c4")


def test_a_url_inside_code_is_left_whole(open_memory):
    mem = open_memory()
    context = _recent(mem, f"run `curl -sL {COMMIT}` then\n```\ngit fetch {COMMIT}\n```")
    assert context.text.count(COMMIT) == 2


def test_a_hash_in_prose_stays_whole(open_memory):
    # a checksum cut to seven digits would be a wrong checksum; only links lose theirs
    mem = open_memory()
    context = _recent(mem, f"the sha is {HASH}, see https://example.org/c/{HASH}/{'x' * 60}")
    assert f"the sha is {HASH}," in context.text
    assert f"/{HASH}/" not in context.text
