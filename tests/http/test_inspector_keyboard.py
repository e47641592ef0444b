"""Every inspector page by keyboard alone, in a real browser: a skip link first, every
control named, Tab reaching each control once in reading order with a visible focus
ring, and the main forms working with the keyboard only.

axe-core is not shipped, so the checks are our own, run in the page: they cover what a
keyboard or screen-reader user meets first, not contrast or every ARIA rule."""

from datetime import UTC, datetime, timedelta
from urllib.parse import urlencode

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.http.conftest import Live, client
from tests.http.inspector_browser import PHONE, browser, open_context, owner, sign_in
from tests.http.test_sources import jira_csv, upload
from threefold.pipeline.jobs import DIGEST

__all__ = ["browser", "client", "owner"]  # shared fixtures, used as arguments

STREAM = "project:keys"
TALK = [
    ("Mia owns the onboarding checklist.", "Noted: Mia owns onboarding."),
    ("We decided to ship the beta on May 4.", "May 4 for the beta."),
    ("The staging database is slow after midnight.", "I will watch staging at night."),
]

NAMELESS = """() => {
    // Controls a screen reader would announce without a name.
    const named = e => (e.labels && e.labels.length) || e.getAttribute('aria-label')
        || e.getAttribute('aria-labelledby') || e.getAttribute('title')
        || (['BUTTON', 'A', 'SUMMARY'].includes(e.tagName) && e.textContent.trim());
    return [...document.querySelectorAll(
        'input:not([type=hidden]), select, textarea, button, a[href], summary, progress, meter')]
        .filter(e => !named(e)).map(e => e.outerHTML.slice(0, 120));
}"""

TAB_STOPS = """() => {
    // What Tab should reach, in document order: visible, enabled, not taken out of the
    // order; of a group of radio buttons only the checked one (arrows move within it).
    const seen = new Set();
    return [...document.querySelectorAll(
        'a[href], button, input:not([type=hidden]), select, textarea, summary, [tabindex]')]
        .filter(e => !e.disabled && e.tabIndex >= 0 && e.getClientRects().length
                     && getComputedStyle(e).visibility !== 'hidden')
        .filter(e => {
            if (e.type !== 'radio') return true;
            if (seen.has(e.name)) return false;
            seen.add(e.name);
            return true;
        }).map(e => e.outerHTML.slice(0, 120));
}"""

FOCUSED = """() => {
    const e = document.activeElement;
    if (!e || e === document.body) return null;
    const style = getComputedStyle(e);
    const ring = (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0)
        || style.boxShadow !== 'none';
    const box = e.getBoundingClientRect();
    const onScreen = box.width > 0 && box.height > 0 && box.right > 0 && box.bottom > 0
        && box.left < innerWidth && box.top < innerHeight;
    return {html: e.outerHTML.slice(0, 120), ring, onScreen,
            positive: e.tabIndex > 0};
}"""


@pytest.fixture(scope="module")
def seeded(live: Live, client: httpx.Client, tmp_path_factory: pytest.TempPathFactory) -> Live:
    for user, assistant in TALK:
        live.memory.add_turn(STREAM, user, assistant, tenant="tenant-a")
    live.memory.end_session(STREAM, tenant="tenant-a")
    blocked = "APOLLO-3 is blocked on the vendor's API key."
    at = f"{(datetime.now(UTC) - timedelta(days=10)).timestamp():.6f}"  # a stale blocker
    live.memory.ingest_message(
        channel="apollo-eng", user="Mia", ts=at, text=blocked, tenant="tenant-a"
    )
    live.memory.store.schedule("tenant-a", "project:apollo", DIGEST, 0.0)  # not the idle wait
    live.settle()
    live.memory.rebuild_team(tenant="tenant-a")
    issues = jira_csv(tmp_path_factory.mktemp("keys") / "issues.csv")
    IMPORTS.append(upload(client, live.headers("a"), "jira", issues).json()["id"])
    return live


IMPORTS: list[str] = []
"""The id of the import the fixture started, for its page."""


def _pages(seeded: Live) -> list[str]:
    fact = seeded.memory.facts(STREAM, tenant="tenant-a")[0]
    stream = {"stream": STREAM}
    return [
        "/ui/streams",
        "/ui/context?" + urlencode({**stream, "q": "when is the beta?", "budget": 800}),
        "/ui/facts?" + urlencode(stream),
        f"/ui/facts/{fact.id}",
        "/ui/summaries?" + urlencode(stream),
        "/ui/turns?" + urlencode(stream),
        "/ui/records?" + urlencode({"stream": "project:apollo"}),
        "/ui/search?" + urlencode({"q": "beta", **stream}),
        "/ui/timeline?entity=Mia",
        "/ui/actions?status=",  # with an action and its buttons
        "/ui/imports",
        f"/ui/imports/{IMPORTS[0]}",
        "/ui/erase?" + urlencode(stream),
        "/ui/context?" + urlencode({"stream": "project:nowhere"}),  # the 404 page
    ]


def _walk(page: Page, stops: int) -> list[dict[str, object]]:
    """Press Tab once per expected stop, and once more; what got focus each time."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    reached = []
    for _ in range(stops + 1):
        page.keyboard.press("Tab")
        reached.append(page.evaluate(FOCUSED))
    return reached


def test_every_page_is_named_and_walkable_by_tab(owner: BrowserContext, seeded: Live) -> None:
    assert seeded.memory.actions(tenant="tenant-a"), "the actions page would have no buttons"
    page = owner.new_page()
    problems: list[str] = []
    for path in _pages(seeded):
        page.goto(path)
        problems += [f"{path}: no name: {html}" for html in page.evaluate(NAMELESS)]
        if page.locator("h1").count() != 1 or not page.title():
            problems.append(f"{path}: wants one h1 and a title")
        expected = page.evaluate(TAB_STOPS)
        reached = _walk(page, len(expected))
        print(
            "DEBUG", path, len(expected), reached[-1], [r and r["html"][:40] for r in reached[:4]]
        )
        first = reached[0] or {}
        if "Skip to content" not in str(first.get("html")):
            problems.append(f"{path}: Tab does not reach the skip link first: {first}")
        order = [r["html"] if r else None for r in reached[: len(expected)]]
        if order != expected:
            problems.append(f"{path}: Tab order {order} is not the page order {expected}")
        for stop in filter(None, reached[: len(expected)]):
            if not (stop["ring"] and stop["onScreen"]) or stop["positive"]:
                problems.append(f"{path}: focus not shown on screen: {stop}")
    assert not problems, "\n".join(problems)
    page.close()


def test_the_skip_link_moves_focus_into_the_page(owner: BrowserContext) -> None:
    page = owner.new_page()
    page.goto("/ui/streams")
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator("main")).to_be_focused()
    page.keyboard.press("Tab")  # the next stop is inside the page, past the navigation
    assert page.evaluate("document.querySelector('main').contains(document.activeElement)")
    page.close()


def test_sign_in_build_a_context_and_forget_a_fact_by_keyboard(
    browser: Browser, seeded: Live
) -> None:
    context = open_context(browser, seeded)
    page = context.new_page()
    page.goto("/ui/signin")
    expect(page.get_by_label("API key")).to_be_focused()  # autofocus: type at once
    page.keyboard.type(seeded.keys["a"])
    page.keyboard.press("Enter")
    page.wait_for_url("**/ui/streams")
    page.goto("/ui/context?" + urlencode({"stream": STREAM}))
    page.get_by_label("Question", exact=True).focus()
    page.keyboard.type("who owns onboarding?")
    page.keyboard.press("Tab")
    expect(page.get_by_label("Budget (tokens)")).to_be_focused()
    page.keyboard.press("Control+A")
    page.keyboard.type("600")
    page.keyboard.press("Enter")
    expect(page.locator("#budget-used")).to_contain_text("of 600 tokens")
    fact = seeded.memory.write_fact(STREAM, "The kettle is in room 4", tenant="tenant-a")
    page.goto(f"/ui/facts/{fact.id}")
    page.get_by_label("Reason for forgetting (kept in the history)").focus()
    page.keyboard.type("moved")
    page.keyboard.press("Tab")
    expect(page.get_by_role("button", name="Forget this fact")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator(".tag").first).to_have_text("retracted")
    context.close()


def test_summaries_open_and_close_by_keyboard(owner: BrowserContext) -> None:
    page = owner.new_page()
    page.goto("/ui/summaries?" + urlencode({"stream": STREAM}))
    folded = page.locator("details:not([open])").first.get_attribute("id")
    details = page.locator(f"#{folded}")
    expect(details.locator("p.text")).to_be_hidden()
    details.locator("summary").focus()
    page.keyboard.press("Enter")
    expect(details.locator("p.text")).to_be_visible()
    page.keyboard.press("Space")
    expect(details.locator("p.text")).to_be_hidden()
    page.close()


def test_a_phone_keeps_every_control_reachable(browser: Browser, seeded: Live) -> None:
    context = open_context(browser, seeded, viewport=PHONE)
    page = sign_in(context, seeded.keys["a"])
    page.goto("/ui/actions?status=")
    expected = page.evaluate(TAB_STOPS)
    reached = _walk(page, len(expected))
    assert all(r and r["onScreen"] for r in reached[: len(expected)])
    context.close()
