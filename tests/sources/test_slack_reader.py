"""The Slack export reader: markup, names, kinds, threads, broken files and streaming."""

import zipfile
from datetime import UTC, datetime
from pathlib import Path
from types import GeneratorType
from typing import Any

import pytest

from tests.sources.exports import CHANNELS, DAY, USERS, msg, write_export, write_json, zip_folder
from threefold.errors import InvalidInput
from threefold.sources.slack import (
    Channel,
    ChannelKind,
    MessageKind,
    Problem,
    SlackExport,
    SlackMessage,
    clean_markup,
)


def read_all(root: Path) -> tuple[list[SlackMessage], list[Problem]]:
    with SlackExport.open(root) as export:
        return list(export.messages()), export.problems


def one(root: Path, message: dict[str, Any]) -> SlackMessage:
    messages, problems = read_all(write_export(root, {"general": {DAY: [message]}}))
    assert problems == []
    [only] = messages
    return only


NAMES = {"U1": "annie", "U2": "Bob Stone"}
ROOMS = {"C1": "general"}


@pytest.mark.parametrize(
    "raw,clean",
    [
        ("plain words", "plain words"),
        ("<@U1> look", "@annie look"),
        ("<@U7>", "@U7"),
        ("<@U1|ann>", "@annie"),
        ("<@U7|seven>", "@seven"),
        ("<#C1|general>", "#general"),
        ("<#C1>", "#general"),
        ("<#C9>", "#C9"),
        ("<!here> now", "@here now"),
        ("<!channel>", "@channel"),
        ("<!everyone>", "@everyone"),
        ("<!here|here>", "@here"),
        ("<!subteam^S1|@team>", "@team"),
        ("<!date^1392734382^{date}|Feb 18th>", "Feb 18th"),
        ("see <https://x.io/a|the doc>", "see the doc (https://x.io/a)"),
        ("<https://x.io/a>", "https://x.io/a"),
        ("<http://x.io|x.io>", "http://x.io"),
        ("<mailto:a@b.io|a@b.io>", "a@b.io"),
        ("<https://x.io/?a=1&amp;b=2|q&amp;a>", "q&a (https://x.io/?a=1&b=2)"),
        ("a &lt;b&gt; &amp; c", "a <b> & c"),
        ("&amp;lt;", "&lt;"),
        ("&lt;@U1&gt;", "<@U1>"),
        ("<@U1> and <@U2>", "@annie and @Bob Stone"),
        # Emoji codes become the emoji Slack shows; codes it has no emoji for stay.
        ("shipped :rocket:", "shipped \N{ROCKET}"),
        (":+1::skin-tone-3: agreed", "\N{THUMBS UP SIGN} agreed"),
        (":white_check_mark: done", "\N{WHITE HEAVY CHECK MARK} done"),
        (":tada::tada:", "\N{PARTY POPPER}\N{PARTY POPPER}"),
        ("so good :partyparrot:", "so good :partyparrot:"),
        ("at 10:30:45 sharp", "at 10:30:45 sharp"),
        ("<https://x.io/a:tada:b|doc> :fire:", "doc (https://x.io/a:tada:b) \N{FIRE}"),
        ("&lt;:fire:&gt;", "<\N{FIRE}>"),
    ],
)
def test_clean_markup(raw: str, clean: str) -> None:
    assert clean_markup(raw, NAMES, ROOMS) == clean


def test_user_names_prefer_display_name_then_real_name_then_handle(tmp_path: Path) -> None:
    export = SlackExport.open(write_export(tmp_path, {}))
    assert export.users == {"U1": "annie", "U2": "Bob Stone", "U3": "Cat Moss", "U4": "dan"}
    assert export.channels[0].members == ("annie", "Bob Stone", "U9")


def test_authors_and_mentions_resolve_and_unknown_ids_stay_ids(tmp_path: Path) -> None:
    days = {
        "general": {
            DAY: [
                msg("100.000001", "hi <@U2>, <@U4> and <@U8>; again <@U2>", user="U1"),
                msg("100.000002", "who am I", user="U8"),
            ]
        }
    }
    [first, second], _ = read_all(write_export(tmp_path, days))
    assert (first.author, first.user_id) == ("annie", "U1")
    assert first.text == "hi @Bob Stone, @dan and @U8; again @Bob Stone"
    assert first.mentions == ("Bob Stone", "dan", "U8")
    assert (second.author, second.user_id) == ("U8", "U8")


def test_channel_kinds_come_from_their_metadata_files(tmp_path: Path) -> None:
    days = {
        "general": {DAY: [msg("1.1", "public")]},
        "secret": {DAY: [msg("1.2", "private")]},
        "D1": {DAY: [msg("1.3", "direct")]},
        "mpdm-annie--bob-1": {DAY: [msg("1.4", "group dm")]},
        "stray": {DAY: [msg("1.5", "no metadata")]},
    }
    root = write_export(
        tmp_path,
        days,
        groups=[{"id": "G1", "name": "secret", "members": ["U1"]}],
        dms=[{"id": "D1", "members": ["U1", "U2"]}],
        mpims=[{"id": "G2", "name": "mpdm-annie--bob-1", "members": ["U1", "U2", "U3"]}],
    )
    with SlackExport.open(root) as export:
        assert export.channels == [
            Channel("C1", "general", ChannelKind.PUBLIC, ("annie", "Bob Stone", "U9")),
            Channel("G1", "secret", ChannelKind.PRIVATE, ("annie",)),
            Channel("D1", "D1", ChannelKind.DM, ("annie", "Bob Stone")),
            Channel(
                "G2", "mpdm-annie--bob-1", ChannelKind.MPIM, ("annie", "Bob Stone", "Cat Moss")
            ),
            Channel("stray", "stray", ChannelKind.PUBLIC, ()),
        ]
        by_text = {m.text: m.channel.kind for m in export.messages()}
        assert export.problems == []
    assert by_text == {
        "public": ChannelKind.PUBLIC,
        "private": ChannelKind.PRIVATE,
        "direct": ChannelKind.DM,
        "group dm": ChannelKind.MPIM,
        "no metadata": ChannelKind.PUBLIC,
    }


def test_day_files_by_date_then_in_metadata_order_ignoring_other_json(tmp_path: Path) -> None:
    days = {
        "zeta": {"2017-01-02": [], "2017-01-01": [], "2017-02-01": []},
        "general": {"2017-02-01": [], "2016-12-31": [], "notes": [], "2017-2-1": []},
    }
    root = write_export(tmp_path, days, channels=[{"id": "C2", "name": "zeta"}, *CHANNELS])
    write_json(root / "integration_logs.json", {"logs": []})
    write_json(root / "general" / "sub.json", [])
    with SlackExport.open(root) as export:
        assert export.day_files() == [
            "general/2016-12-31.json",
            "zeta/2017-01-01.json",
            "zeta/2017-01-02.json",
            "zeta/2017-02-01.json",
            "general/2017-02-01.json",
        ]
        assert list(export.messages()) == []
        assert export.problems == []


def test_threads_keep_thread_ts_and_plain_messages_have_none(tmp_path: Path) -> None:
    parent = msg("200.000001", "question", thread_ts="200.000001", reply_count=2)
    reply = msg("200.000005", "answer", user="U2", thread_ts="200.000001", parent_user_id="U1")
    broadcast = msg(
        "200.000009", "answer for all", thread_ts="200.000001", subtype="thread_broadcast"
    )
    alone = msg("200.000002", "unrelated")
    days = {"general": {DAY: [parent, reply, broadcast, alone]}}
    messages, _ = read_all(write_export(tmp_path, days))
    assert [(m.text, m.thread_ts) for m in messages] == [
        ("question", "200.000001"),
        ("unrelated", None),
        ("answer", "200.000001"),
        ("answer for all", "200.000001"),
    ]
    assert messages[0].thread_ts == messages[0].ts
    assert messages[3].kind is MessageKind.MESSAGE


@pytest.mark.parametrize(
    "extra,kind",
    [
        ({"subtype": "channel_join", "text": "<@U1> has joined the channel"}, MessageKind.JOIN),
        ({"subtype": "group_join", "text": "<@U1> has joined the group"}, MessageKind.JOIN),
        ({"subtype": "channel_leave", "text": "<@U1> has left the channel"}, MessageKind.LEAVE),
        ({"subtype": "group_leave", "text": "<@U1> has left the group"}, MessageKind.LEAVE),
        ({"subtype": "channel_topic", "text": "set the topic: x"}, MessageKind.OTHER),
        ({"subtype": "channel_purpose", "text": "set the purpose: x"}, MessageKind.OTHER),
        ({"subtype": "channel_name", "text": "renamed the channel"}, MessageKind.OTHER),
        ({"subtype": "pinned_item", "text": "pinned a message"}, MessageKind.OTHER),
        ({"subtype": "tombstone", "text": "This message was deleted."}, MessageKind.OTHER),
        ({"text": "   "}, MessageKind.OTHER),
        ({"text": ""}, MessageKind.OTHER),
        ({"subtype": "me_message", "text": "waves"}, MessageKind.MESSAGE),
        ({"text": "just talking"}, MessageKind.MESSAGE),
    ],
)
def test_message_kinds(tmp_path: Path, extra: dict[str, Any], kind: MessageKind) -> None:
    message = one(tmp_path, {"type": "message", "ts": "300.1", "user": "U1", **extra})
    assert message.kind is kind
    assert message.subtype == extra.get("subtype")


@pytest.mark.parametrize(
    "extra,author",
    [
        (
            {"subtype": "bot_message", "bot_id": "B1", "bot_profile": {"name": "deploybot"}},
            "deploybot",
        ),
        ({"subtype": "bot_message", "bot_id": "B1", "username": "github"}, "github"),
        ({"subtype": "bot_message", "bot_id": "B1"}, "B1"),
        ({"bot_id": "B2", "user": "U5", "bot_profile": {"name": "standup"}}, "standup"),
    ],
)
def test_bot_messages_are_named_by_the_bot(
    tmp_path: Path, extra: dict[str, Any], author: str
) -> None:
    message = one(tmp_path, {"type": "message", "ts": "400.1", "text": "build passed", **extra})
    assert (message.kind, message.author, message.text) == (MessageKind.BOT, author, "build passed")


def test_file_shares_name_their_files(tmp_path: Path) -> None:
    new_style = msg(
        "500.1",
        "here is the plan",
        files=[{"name": "roadmap.pdf", "title": "roadmap.pdf"}, {"name": "q3.xlsx", "title": "Q3"}],
    )
    old_style = msg(
        "500.2",
        "<@U1> uploaded a file: <https://t.slack.com/files/U1/F1/notes.txt|notes>",
        subtype="file_share",
        file={"name": "notes.txt", "title": "notes"},
    )
    days = {"general": {DAY: [new_style, old_style]}}
    first, second = read_all(write_export(tmp_path, days))[0]
    assert first.kind is second.kind is MessageKind.FILE_SHARE
    assert first.text == "here is the plan\n[file: roadmap.pdf]\n[file: Q3 (q3.xlsx)]"
    assert second.text == (
        "@annie uploaded a file: notes (https://t.slack.com/files/U1/F1/notes.txt)\n"
        "[file: notes (notes.txt)]"
    )
    assert second.subtype == "file_share"


def test_attachments_are_appended_and_their_links_collected(tmp_path: Path) -> None:
    unfurl = {
        "title": "Cities DB",
        "title_link": "https://db.example/cities",
        "text": "Free &amp; open",
        "fallback": "Cities DB",
        "from_url": "https://db.example/cities",
    }
    only_fallback = {"fallback": "deploy <https://ci.example/7|#7> ok"}
    message = one(
        tmp_path,
        msg("600.1", "see <https://db.example/cities>", attachments=[unfurl, only_fallback]),
    )
    assert message.text == (
        "see https://db.example/cities\n"
        "[attachment: Cities DB — Free & open]\n"
        "[attachment: deploy #7 (https://ci.example/7) ok]"
    )
    assert message.links == ("https://db.example/cities", "https://ci.example/7")


def test_links_are_unique_and_in_order(tmp_path: Path) -> None:
    text = "<https://b.io|b> then <https://a.io> and <https://b.io> <mailto:x@y.io|x@y.io>"
    message = one(tmp_path, msg("650.1", text))
    assert message.links == ("https://b.io", "https://a.io")
    assert message.text == "b (https://b.io) then https://a.io and https://b.io x@y.io"


def test_ts_becomes_an_exact_utc_datetime(tmp_path: Path) -> None:
    message = one(tmp_path, msg("1490000000.123456"))
    assert message.ts == "1490000000.123456"
    assert message.at == datetime(2017, 3, 20, 8, 53, 20, 123456, tzinfo=UTC)
    assert message.path == f"general/{DAY}.json"
    assert one(tmp_path / "b", msg("1490000000")).at == datetime(2017, 3, 20, 8, 53, 20, tzinfo=UTC)


def test_messages_come_out_in_ts_order_within_a_day(tmp_path: Path) -> None:
    days = {"general": {DAY: [msg("1000.000010", "later"), msg("999.000001", "earlier")]}}
    messages, _ = read_all(write_export(tmp_path, days))
    assert [m.text for m in messages] == ["earlier", "later"]


def test_a_malformed_day_file_is_reported_and_the_rest_still_reads(tmp_path: Path) -> None:
    days = {
        "general": {
            "2017-03-19": [msg("1.1", "before")],
            "2017-03-20": b'[\n  {"ts": "1.2",\n    oops\n]',
            "2017-03-21": b"\xff\xfe\x00garbage",
            "2017-03-22": {"ts": "1.3", "text": "an object, not a list"},
            "2017-03-23": [msg("1.4", "after")],
        }
    }
    messages, problems = read_all(write_export(tmp_path, days))
    assert [m.text for m in messages] == ["before", "after"]
    assert [p.path for p in problems] == [
        "general/2017-03-20.json",
        "general/2017-03-21.json",
        "general/2017-03-22.json",
    ]
    assert problems[0].error.startswith("not valid JSON: Expecting property name")
    assert "line 3 column 5" in problems[0].error
    assert problems[1].error.startswith("not UTF-8 text")
    assert problems[2].error == "expected a JSON list of messages, got an object"


def test_malformed_messages_are_skipped_with_a_reason(tmp_path: Path) -> None:
    day = [
        msg("1.1", "fine"),
        {"type": "message", "user": "U1", "text": "no ts"},
        msg("yesterday", "bad ts"),
        "just a string",
        msg("1.2", "also fine"),
    ]
    messages, problems = read_all(write_export(tmp_path, {"general": {DAY: day}}))
    assert [m.text for m in messages] == ["fine", "also fine"]
    path = f"general/{DAY}.json"
    assert problems == [
        Problem(path, "message 2: ts is missing or not a Slack timestamp: None"),
        Problem(path, "message 3: ts is missing or not a Slack timestamp: 'yesterday'"),
        Problem(path, "message 4: not a JSON object but a string"),
    ]


def test_messages_stream_one_day_file_at_a_time(tmp_path: Path) -> None:
    days = {"general": {"2017-03-19": [msg("1.1", "first")], "2017-03-20": b"not json"}}
    with SlackExport.open(write_export(tmp_path, days)) as export:
        stream = export.messages()
        assert isinstance(stream, GeneratorType)
        assert next(stream).text == "first"
        assert export.problems == []  # the broken later file has not been opened yet
        assert list(stream) == []
        assert [p.path for p in export.problems] == ["general/2017-03-20.json"]
        list(export.messages())
        assert len(export.problems) == 1  # each pass reports afresh, not cumulatively


@pytest.mark.parametrize("inside", ["", "acme Slack export Mar 20 2017/"])
def test_zip_exports_read_like_folders(tmp_path: Path, inside: str) -> None:
    days = {"general": {DAY: [msg("1.1", "zipped <@U2>")]}, "D1": {DAY: [msg("1.2", "dm")]}}
    folder = write_export(tmp_path / "export", days, dms=[{"id": "D1", "members": ["U1"]}])
    write_json(folder / "integration_logs.json", [])
    archive = zip_folder(folder, tmp_path / "export.zip", inside)
    with SlackExport.open(archive) as export:
        assert export.day_files() == [f"general/{DAY}.json", f"D1/{DAY}.json"]
        messages = list(export.messages())
        assert export.problems == []
    assert [(m.text, m.channel.kind, m.path) for m in messages] == [
        ("zipped @Bob Stone", ChannelKind.PUBLIC, f"general/{DAY}.json"),
        ("dm", ChannelKind.DM, f"D1/{DAY}.json"),
    ]


def test_a_folder_holding_the_unpacked_export_is_found(tmp_path: Path) -> None:
    write_export(tmp_path / "outer" / "acme export", {"general": {DAY: [msg("1.1", "deep")]}})
    messages, _ = read_all(tmp_path / "outer")
    assert [m.text for m in messages] == ["deep"]


def test_closing_a_zip_export_ends_reading(tmp_path: Path) -> None:
    folder = write_export(tmp_path / "export", {"general": {DAY: [msg("1.1")]}})
    export = SlackExport.open(zip_folder(folder, tmp_path / "export.zip"))
    export.close()
    with pytest.raises(InvalidInput, match="closed"):
        list(export.messages())


def test_only_private_metadata_is_still_an_export(tmp_path: Path) -> None:
    root = write_export(
        tmp_path, {"D1": {DAY: [msg("1.1", "dm only")]}}, channels=None, dms=[{"id": "D1"}]
    )
    messages, _ = read_all(root)
    assert [(m.text, m.channel.kind) for m in messages] == [("dm only", ChannelKind.DM)]


def test_not_an_export_is_refused_clearly(tmp_path: Path) -> None:
    with pytest.raises(InvalidInput, match="not found"):
        SlackExport.open(tmp_path / "missing")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "readme.txt").write_text("hello")
    write_json(tmp_path / "docs" / "users.json", USERS)
    with pytest.raises(InvalidInput, match=r"not a Slack export: it has no channels\.json"):
        SlackExport.open(tmp_path / "docs")
    with pytest.raises(InvalidInput, match="neither a folder nor a .zip"):
        SlackExport.open(tmp_path / "docs" / "readme.txt")
    with zipfile.ZipFile(tmp_path / "other.zip", "w") as archive:
        archive.writestr("photos/cat.jpg", b"\x00")
    with pytest.raises(InvalidInput, match="not a Slack export"):
        SlackExport.open(tmp_path / "other.zip")


@pytest.mark.parametrize(
    "name,content,reason",
    [
        ("users.json", b"[{", "users.json .* is malformed: not valid JSON"),
        ("channels.json", b'{"id": "C1"}', "channels.json .* got an object"),
        ("channels.json", b"\xff\xff", "channels.json .* not UTF-8"),
    ],
)
def test_broken_metadata_is_refused(tmp_path: Path, name: str, content: bytes, reason: str) -> None:
    root = write_export(tmp_path, {"general": {DAY: [msg("1.1")]}})
    (root / name).write_bytes(content)
    with pytest.raises(InvalidInput, match=reason):
        SlackExport.open(root)


def test_metadata_entries_without_ids_are_reported_not_fatal(tmp_path: Path) -> None:
    root = write_export(
        tmp_path, {}, users=[*USERS, {"name": "ghost"}], channels=[*CHANNELS, "junk"]
    )
    with SlackExport.open(root) as export:
        assert [c.name for c in export.channels] == ["general"]
        assert export.problems == [
            Problem("users.json", "entry 5 has no user id"),
            Problem("channels.json", "entry 2 has no channel id"),
        ]
        list(export.messages())
        assert len(export.problems) == 2


def test_a_bot_known_only_by_its_id_takes_the_name_it_was_added_under(tmp_path: Path) -> None:
    """Older exports give a bot's posts only its id; the notice that added it to a channel
    (before its first post, maybe on an earlier day or in another channel) names it."""
    added = msg(
        "100.1",
        "added an integration to this channel: <https://t.slack.com/services/B0JL6|github>",
        subtype="bot_add",
        bot_id="B0JL6",
    )
    post = {"type": "message", "subtype": "bot_message", "bot_id": "B0JL6", "ts": "200.1"}
    other = {"type": "message", "subtype": "bot_message", "bot_id": "B9", "ts": "200.2"}
    days = {
        "general": {"2016-01-16": [added]},
        "random": {DAY: [{**post, "text": "2 new commits"}, {**other, "text": "ping"}]},
    }
    messages, problems = read_all(write_export(tmp_path, days))
    assert problems == []
    assert [(m.author, m.text) for m in messages if m.kind is MessageKind.BOT] == [
        ("github", "2 new commits"),
        ("B9", "ping"),  # never added in the export: its id is all there is
    ]
