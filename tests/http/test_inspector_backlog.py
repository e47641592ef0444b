"""The inspector's backlog and messages pages in a real browser: what waits for the
workers, seen going down as they drain it, each tenant's own; messages of every stream,
newest first, filtered."""

from datetime import UTC, datetime

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests.http.conftest import PROJECT, Live
from tests.http.inspector_browser import browser, open_context, owner, shoot, sign_in
from threefold.pipeline.jobs import DIGEST

__all__ = ["browser", "owner"]  # shared fixtures, used as arguments

APOLLO = PROJECT["stream"]
SAID = [
    ("Priya", "The crane certificate for dock four arrives on Monday."),
    ("Marco", "Dock four stays closed until the certificate is filed."),
    ("Priya", "Night shift moves to dock two meanwhile."),
]


@pytest.fixture(scope="module")
def seeded(live: Live) -> Live:
    # Said now: the channel is not quiet yet, so the digest waits and the backlog stays.
    now = datetime.now(UTC).timestamp()
    for n, (user, text) in enumerate(SAID):
        live.memory.ingest_message(
            channel="apollo-eng", user=user, ts=f"{now + n:.6f}", text=text, tenant="tenant-a"
        )
    return live


def test_the_backlog_page_shows_the_work_waiting_and_then_draining(
    owner: BrowserContext, seeded: Live
) -> None:
    page = owner.new_page()
    page.goto("/ui/streams")
    page.get_by_role("link", name="Backlog").click()
    expect(page).to_have_url(f"{seeded.url}/ui/backlog")
    expect(page.locator("#backlog-undigested")).to_have_text("3")
    expect(page.locator("#backlog-unembedded")).to_have_text("3")
    expect(page.locator("#backlog-jobs")).to_have_text("digest 1")
    expect(page.locator("#backlog-rate")).to_contain_text("from the next visit")
    assert page.locator('meta[http-equiv="refresh"]').count() == 1  # reloads while work waits
    shoot(page, "backlog")

    seeded.memory.store.schedule("tenant-a", APOLLO, DIGEST, 0.0)  # not the idle wait
    seeded.settle()
    page.reload()
    expect(page.locator("#backlog-undigested")).to_have_text("0")
    expect(page.locator("#backlog-unembedded")).to_have_text("0")
    expect(page.locator("#backlog-jobs")).to_have_text("none")
    expect(page.locator("#backlog-rate")).to_contain_text("messages digested a second")
    expect(page.locator("#backlog-rate")).to_contain_text("no vectors owed")
    assert page.locator('meta[http-equiv="refresh"]').count() == 0
    page.close()


def test_another_tenant_sees_its_own_backlog(browser: Browser, seeded: Live) -> None:
    context = open_context(browser, seeded)
    page = sign_in(context, seeded.keys["b"])
    page.goto("/ui/backlog")
    expect(page.locator("#backlog-undigested")).to_have_text("0")
    expect(page.locator("#backlog-jobs")).to_have_text("none")
    context.close()


def test_the_backlog_page_needs_a_signed_in_viewer(browser: Browser, seeded: Live) -> None:
    context = open_context(browser, seeded)
    page = context.new_page()
    page.goto("/ui/backlog")
    expect(page).to_have_url(f"{seeded.url}/ui/signin?next=%2Fui%2Fbacklog")
    context.close()


def test_messages_are_browsed_newest_first_and_filtered(
    owner: BrowserContext, seeded: Live
) -> None:
    page = owner.new_page()
    page.goto("/ui/streams")
    page.get_by_role("link", name="Messages").click()
    texts = page.locator("ol.messages > li .text")
    expect(texts).to_have_text([text for _, text in reversed(SAID)])
    page.get_by_label("Author").fill("marco")
    page.get_by_role("button", name="Filter").click()
    expect(texts).to_have_text([SAID[1][1]])
    item = page.locator("ol.messages > li").first
    expect(item).to_contain_text("#apollo-eng")
    item.get_by_role("link", name=APOLLO).click()
    expect(page.locator("h1")).to_contain_text(f"Source records of {APOLLO}")
    page.goto("/ui/messages?channel=nowhere")
    expect(page.locator("ol.messages > li")).to_have_text(["No messages match these filters."])
    unknown = page.goto("/ui/messages?stream=project:nothing-here")
    assert unknown is not None and unknown.status == 404
    page.close()
