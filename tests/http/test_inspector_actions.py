"""The inspector's actions page in a real browser: what the team rules found, with the
facts and messages that show it, marked done by a writer, hidden above a key's trust."""

from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests.http.conftest import PROJECT, Live
from tests.http.inspector_browser import browser, open_context, owner, shoot, sign_in
from threefold.pipeline.jobs import DIGEST

__all__ = ["browser", "owner"]  # shared fixtures, used as arguments

APOLLO = PROJECT["stream"]
DAY = (datetime.now(UTC) - timedelta(days=10)).replace(hour=9, minute=0, second=0, microsecond=0)
SAID = [
    ("Priya", "I will finish the billing migration by Friday."),
    ("Marco", "APOLLO-7 is blocked on the auth token from legal."),
]


@pytest.fixture(scope="module")
def seeded(live: Live) -> Live:
    for offset, (user, text) in enumerate(SAID):
        at = DAY + timedelta(hours=offset)
        live.memory.ingest_message(
            channel="apollo-eng",
            user=user,
            ts=f"{at.timestamp():.6f}",
            text=text,
            tenant="tenant-a",
        )
    live.memory.store.schedule("tenant-a", APOLLO, DIGEST, 0.0)  # not the idle wait
    live.settle()
    live.memory.rebuild_team(tenant="tenant-a")
    return live


def test_actions_show_their_evidence_and_a_writer_marks_one_done(
    owner: BrowserContext, seeded: Live
) -> None:
    blocker = next(a for a in seeded.memory.actions(tenant="tenant-a") if "blocked" in a.title)
    page = owner.new_page()
    page.goto("/ui/actions")
    item = page.locator(f"#action-{blocker.id}")
    expect(item).to_contain_text(blocker.title)
    expect(item.locator(".tag")).to_have_text("open")
    expect(item.get_by_role("link", name=APOLLO)).to_have_attribute(
        "href", "/ui/context?" + urlencode({"stream": APOLLO})
    )
    evidence = item.get_by_role("link", name="slack.message:").first
    expect(evidence).to_have_attribute(
        "href", f"/ui/records/{blocker.record_ids[0]}#record-{blocker.record_ids[0]}"
    )
    shoot(page, "actions")
    item.get_by_role("button", name=f"Mark “{blocker.title}” done").click()
    expect(page).to_have_url(f"{seeded.url}/ui/actions?stream=&status=open&p=1#action-{blocker.id}")
    expect(page.locator(f"#action-{blocker.id}")).to_have_count(0)
    # Among the done: the seeded "by Friday" deadline may be closed too, on the weekdays
    # when it fell in its window at the messages' time and has passed by now.
    assert blocker.id in [a.id for a in seeded.memory.actions(status="done", tenant="tenant-a")]
    page.get_by_label("Status").select_option("done")
    page.get_by_role("button", name="Filter").click()
    expect(page.locator(f"#action-{blocker.id} .tag")).to_have_text("done")
    evidence = page.locator(f"#action-{blocker.id}").get_by_role("link", name="slack.message:")
    evidence.first.click()
    expect(page.locator(f"#record-{blocker.record_ids[0]}")).to_contain_text("auth token")
    page.close()


def test_a_public_key_sees_no_private_action_and_cannot_change_one(
    browser: Browser, seeded: Live
) -> None:
    action = seeded.memory.actions(status=None, tenant="tenant-a")[0]
    context = open_context(browser, seeded)
    page = sign_in(context, seeded.keys["a_public"])
    page.goto("/ui/actions?status=")
    expect(page.locator("ol.actions > li")).to_have_text(
        ["No actions. A rebuild of the team (nightly, or POST /v1/team/rebuild) runs the rules."]
    )
    token = page.locator("form.who input[name=csrf]").input_value()
    answer = context.request.post(
        f"/ui/actions/{action.id}", form={"csrf": token, "status": "done"}
    )
    assert answer.status == 403
    context.close()


def test_a_forged_or_foreign_action_post_is_refused(
    browser: Browser, owner: BrowserContext, seeded: Live
) -> None:
    action = seeded.memory.actions(status=None, tenant="tenant-a")[0]
    before = action.status
    forged = owner.request.post(f"/ui/actions/{action.id}", form={"status": "dismissed"})
    assert forged.status == 403 and "CSRF" in forged.text()
    context = open_context(browser, seeded)
    page = sign_in(context, seeded.keys["b"])  # another tenant, full trust
    token = page.locator("form.who input[name=csrf]").input_value()
    foreign = context.request.post(
        f"/ui/actions/{action.id}", form={"csrf": token, "status": "dismissed"}
    )
    assert foreign.status == 404
    bad = context.request.post(f"/ui/actions/{action.id}", form={"csrf": token, "status": "gone"})
    assert bad.status == 400
    context.close()
    assert seeded.memory.actions(status=None, tenant="tenant-a")[0].status == before
