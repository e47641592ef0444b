"""The web inspector in a real browser: sign-in, tenants, the context view, forgetting,
corrections, erasure, imports and a phone-sized window. The same tests make the docs'
screenshots (THREEFOLD_SCREENSHOTS=1)."""

import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, BrowserContext, expect

from tests.http.conftest import Live
from tests.http.import_files import long_slack_zip
from tests.http.inspector_browser import (
    PHONE,
    browser,
    fits_width,
    open_context,
    owner,
    shoot,
    sign_in,
)
from tests.http.test_sources import jira_csv

__all__ = ["browser", "owner"]  # shared fixtures, used as arguments

ATLAS = "project:atlas"
BRAVO = "project:bravo"
START = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
TALK = [
    ("Priya is the lead architect for Atlas.", "Noted: Priya leads the architecture."),
    ("We decided to use PostgreSQL for the event store.", "Recorded the PostgreSQL decision."),
    ("The beta deadline is March 20.", "March 20 it is."),
    ("Raj will own the billing migration.", "Raj owns billing."),
    ("The dashboard loads slowly on Mondays.", "I will keep an eye on Monday loads."),
    ("Let's keep the weekly demo on Thursdays.", "Thursday demos, noted."),
    ("What did we say about the cache?", "You chose a write-through cache last week."),
    ("Please draft the release notes tomorrow.", "Drafting them tomorrow."),
]


@pytest.fixture(scope="module")
def seeded(live: Live) -> Live:
    for n, (user, assistant) in enumerate(TALK):
        at = START + timedelta(hours=n)
        live.memory.add_turn(ATLAS, user, assistant, at=at, tenant="tenant-a")
    live.memory.write_fact(ATLAS, "Atlas ships with the blue logo", tenant="tenant-a")
    live.memory.end_session(ATLAS, tenant="tenant-a")
    live.memory.add_turn(BRAVO, "Bravo's secret acquisition target is Initech.", tenant="tenant-b")
    live.settle()
    return live


def _context_url(query: str = "", budget: int = 1200) -> str:
    return "/ui/context?" + urlencode({"stream": ATLAS, "query": query, "budget": budget})


def test_sign_in_with_a_key_shows_the_tenants_streams(browser: Browser, seeded: Live) -> None:
    context = open_context(browser, seeded)
    page = context.new_page()
    page.goto("/ui/streams")
    expect(page).to_have_url(f"{seeded.url}/ui/signin?next=%2Fui%2Fstreams")
    page.get_by_label("API key").fill("tf_not-a-key")
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("alert")).to_contain_text("unknown or revoked")
    shoot(page, "signin")
    page.get_by_label("API key").fill(seeded.keys["a"])
    page.get_by_role("button", name="Sign in").click()
    expect(page.get_by_role("heading", name="Streams")).to_be_visible()
    row = page.get_by_role("row", name=ATLAS)
    expect(row.get_by_role("cell").first).to_have_text(str(len(TALK)))
    expect(page.get_by_text(BRAVO)).to_have_count(0)
    shoot(page, "streams")
    cookie = next(c for c in context.cookies() if c["name"] == "threefold_ui_key")
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    context.close()


def test_another_tenants_stream_is_a_404_page(owner: BrowserContext) -> None:
    page = owner.new_page()
    answer = page.goto("/ui/context?" + urlencode({"stream": BRAVO}))
    assert answer is not None and answer.status == 404
    expect(page.get_by_role("heading", name="Not found")).to_be_visible()
    expect(page.get_by_text("Initech")).to_have_count(0)
    page.close()


def test_the_context_view_shows_the_last_turns_and_the_budget(owner: BrowserContext) -> None:
    page = owner.new_page()
    page.goto(_context_url("what is the beta deadline?", 1200))
    expect(page.locator("#budget-used")).to_contain_text("of 1200 tokens")
    expect(page.get_by_label("Question", exact=True)).to_have_value("what is the beta deadline?")
    recent = page.locator("section[data-section=recent_turns]")
    expect(recent).to_contain_text(TALK[-1][0])
    expect(recent.get_by_role("meter")).to_have_attribute("max", "1200")
    expect(recent.get_by_role("link", name="turn:").first).to_be_visible()
    page.get_by_label("Budget (tokens)").fill("300")
    page.get_by_label("Budget (tokens)").press("Enter")
    expect(page.locator("#budget-used")).to_contain_text("of 300 tokens")
    expect(page.locator("ul.reasons li").first).to_contain_text("×")  # what went, and why
    page.goto(_context_url("what is the beta deadline?", 1200))
    shoot(page, "context")
    page.close()


def test_forgetting_a_fact_removes_it_from_the_next_context(
    owner: BrowserContext, seeded: Live
) -> None:
    page = owner.new_page()
    page.goto(_context_url("which logo does Atlas ship with?"))
    facts = page.locator("section[data-section=stream_facts]")
    expect(facts).to_contain_text("blue logo")
    page.goto("/ui/facts?" + urlencode({"stream": ATLAS}))
    shoot(page, "facts")
    page.get_by_role("link", name="Atlas ships with the blue logo").click()
    page.get_by_label("Reason for forgetting").fill("the logo changed")
    page.get_by_role("button", name="Forget this fact").click()
    expect(page.locator(".tag").first).to_have_text("retracted")
    shoot(page, "fact")
    page.goto(_context_url("which logo does Atlas ship with?"))
    expect(page.locator("section[data-section=stream_facts]")).not_to_contain_text("blue logo")
    page.close()


def test_a_correction_supersedes_and_an_erasure_names_what_goes(
    owner: BrowserContext, seeded: Live
) -> None:
    fact = seeded.memory.write_fact(ATLAS, "The demo day is Friday", tenant="tenant-a")
    page = owner.new_page()
    page.goto(f"/ui/facts/{fact.id}")
    page.get_by_label("Write what is true instead").fill("The demo day is Thursday")
    page.get_by_role("button", name="Save correction").click()
    expect(page.locator("#fact-text")).to_have_text("The demo day is Thursday")
    expect(page.locator("ol.chain")).to_contain_text("The demo day is Friday")
    page.get_by_role("link", name="Erase this fact for good").click()
    expect(page.locator("#erase-list")).to_contain_text("The demo day is Thursday")
    page.get_by_role("button", name="Erase fact").click()
    expect(page.get_by_role("status")).to_contain_text("1 facts")
    page.close()


def test_an_import_shows_its_progress_until_done(owner: BrowserContext, tmp_path: Path) -> None:
    page = owner.new_page()
    page.goto("/ui/imports")
    page.get_by_label("Jira CSV").check()
    page.get_by_label("File to import").set_input_files(str(jira_csv(tmp_path / "issues.csv")))
    page.get_by_role("button", name="Start import").click()
    expect(page.locator("#import-status")).to_have_text("done", timeout=30_000)
    expect(page.locator("#import-report")).to_contain_text("Kept")
    page.close()


def test_a_source_link_lands_on_its_turn_however_old(owner: BrowserContext, seeded: Live) -> None:
    long = "project:long"
    first = seeded.memory.add_turn(long, "Raj is the release manager.", "Noted.", tenant="tenant-a")
    for n in range(60):  # more than a page of turns after it
        seeded.memory.add_turn(long, f"Status check {n}.", "All green.", tenant="tenant-a")
    seeded.settle()
    page = owner.new_page()
    page.goto("/ui/facts?" + urlencode({"stream": long}))
    fact = page.locator("ol.facts li", has_text="release manager")
    fact.get_by_role("link", name=f"turn:{first.id}").click()
    cited = page.locator(f"#turn-{first.id}")
    expect(cited).to_have_attribute("aria-current", "true")
    expect(cited).to_contain_text("Raj is the release manager.")
    expect(page.locator("ol.items > li")).to_have_count(11)  # itself and 10 newer ones
    page.goto("/ui/turns?" + urlencode({"stream": long}))
    expect(page.locator(f"#turn-{first.id}")).to_have_count(0)  # not on the newest page
    answer = page.goto(f"/ui/turns/{first.id + 10_000}")
    assert answer is not None and answer.status == 404
    page.close()


WATCH_PROGRESS = """() => {
    const seen = window.progressSeen = [];
    const step = document.querySelector('#import-step');
    const bar = document.querySelector('#import-progress');
    const note = () => seen.push([document.querySelector('#import-status').textContent,
                                  step.textContent, bar.getAttribute('value')]);
    note();
    new MutationObserver(note).observe(step, {childList: true, characterData: true,
                                              subtree: true});
}"""


RUNNING_SHOWN = """() => window.progressSeen.some(
    ([status, text]) => status === 'running' && / of \\d+ .*%/.test(text))"""


def test_a_running_import_shows_its_percentage_as_it_goes(
    owner: BrowserContext, tmp_path: Path
) -> None:
    page = owner.new_page()
    page.goto("/ui/imports")
    page.get_by_label("Slack export (.zip)").check()
    export = long_slack_zip(tmp_path / "long.zip", days=100, per_day=30)
    page.get_by_label("File to import").set_input_files(str(export))
    page.get_by_role("button", name="Start import").click()
    page.wait_for_url("**/ui/imports/*")
    page.evaluate(WATCH_PROGRESS)
    page.wait_for_function(RUNNING_SHOWN, timeout=120_000)
    shoot(page, "import-progress", full_page=False)
    expect(page.locator("#import-status")).to_have_text("done", timeout=120_000)
    expect(page.locator("#import-step")).to_have_text("Finished (100%).")
    expect(page.locator("#import-progress")).to_have_attribute("value", "100")
    seen = page.evaluate("window.progressSeen")
    running = [
        (text, value)
        for status, text, value in seen
        if status == "running" and re.search(r" of \d+ (day files|messages) \(\d+%\)", text)
    ]
    assert running, f"no percentage was shown while the import ran: {seen}"
    for text, value in running:  # the bar and the words agree
        assert text.endswith(f"({value}%).")
    job_id = page.url.rsplit("/", 1)[-1]
    page.goto("/ui/imports")
    listed = page.locator("ol.imports li").first
    expect(listed.get_by_role("link")).to_have_attribute("href", f"/ui/imports/{job_id}")
    expect(listed).to_contain_text("Finished (100%). Kept 3000 of 3000.")
    page.close()


def test_another_tenant_sees_no_import_of_ours(browser: Browser, seeded: Live) -> None:
    context = open_context(browser, seeded)
    page = sign_in(context, seeded.keys["b"])
    page.goto("/ui/imports")
    expect(page.locator("ol.imports")).to_have_count(0)
    context.close()


def test_a_persons_timeline_opens_with_their_profile(owner: BrowserContext) -> None:
    page = owner.new_page()
    page.goto("/ui/timeline?" + urlencode({"entity": "Priya"}))
    profile = page.get_by_role("region", name="Profile: Priya")
    expect(profile).to_contain_text("Role")
    expect(profile).to_contain_text("lead architect")
    expect(page.get_by_role("heading", name="Timeline", exact=True)).to_be_visible()
    shoot(page, "profile")
    page.close()


def test_a_search_hit_lists_the_facts_read_from_it(owner: BrowserContext) -> None:
    page = owner.new_page()
    page.goto("/ui/search?" + urlencode({"query": "deadline", "stream": ATLAS}))
    hit = page.locator("ol.items > li").filter(has_text="The beta deadline is March 20.").first
    riders = hit.get_by_role("list", name="Facts read from it")
    expect(riders.get_by_role("link")).to_contain_text(["The beta deadline is March 20"])
    riders.get_by_role("link").first.click()
    expect(page).to_have_url(re.compile(r"/ui/facts/\d+$"))
    page.close()


def _told(seeded: Live, stream: str, *said: str) -> None:
    """The user says each line in `stream` of tenant-a, a day apart, and it is all read."""
    for n, line in enumerate(said):
        seeded.memory.add_turn(
            stream, line, "Noted.", at=START + timedelta(days=n), tenant="tenant-a"
        )
    seeded.settle()


def test_a_search_hit_that_states_a_superseded_value_is_tagged(
    owner: BrowserContext, seeded: Live
) -> None:
    jobs = "chat:jobs"
    _told(seeded, jobs, "I work at Stripe as a backend engineer.", "I work at Figma now.")
    page = owner.new_page()
    page.goto("/ui/search?" + urlencode({"query": "where do I work", "stream": jobs}))
    old = page.locator("ol.items > li").filter(has_text="I work at Stripe")
    expect(old.locator(".outdated")).to_contain_text("outdated now: The user works at Figma.")
    expect(
        page.locator("ol.items > li").filter(has_text="Figma now").locator(".outdated")
    ).to_have_count(0)
    old.locator(".outdated").get_by_role("link").click()
    expect(page).to_have_url(re.compile(r"/ui/facts/\d+$"))
    expect(page.get_by_text("The user works at Figma.").first).to_be_visible()
    page.close()


def test_a_doubted_fact_hit_is_tagged_with_the_doubting_turn(
    owner: BrowserContext, seeded: Live
) -> None:
    home = "chat:home"
    _told(seeded, home, "I live in Leeds.", "so we're kinda in Perth now I guess")
    moved = seeded.memory.turns(home, tenant="tenant-a")[-1]
    page = owner.new_page()
    page.goto("/ui/search?" + urlencode({"query": "where does the user live", "stream": home}))
    leeds = page.locator("ol.items > li").filter(has_text="The user lives in Leeds.")
    expect(leeds.locator(".outdated")).to_contain_text(f"possibly outdated see turn:{moved.id}")
    leeds.locator(".outdated").get_by_role("link").click()
    expect(page).to_have_url(re.compile(rf"/ui/turns/{moved.id}#turn-{moved.id}$"))
    page.close()


@pytest.mark.parametrize(
    "path",
    [
        "/ui/streams",
        _context_url("deadline"),
        "/ui/facts?" + urlencode({"stream": ATLAS, "status": ""}),
        "/ui/summaries?" + urlencode({"stream": ATLAS}),
        "/ui/turns?" + urlencode({"stream": ATLAS}),
        "/ui/search?query=deadline",
        "/ui/timeline?entity=priya",
        "/ui/imports",
    ],
)
def test_pages_fit_a_phone(browser: Browser, seeded: Live, path: str) -> None:
    context = open_context(browser, seeded, viewport=PHONE)
    page = sign_in(context, seeded.keys["a"])
    answer = page.goto(path)
    assert answer is not None and answer.status == 200
    assert fits_width(page), f"{path} scrolls sideways at {PHONE['width']} px"
    if path.startswith("/ui/context"):
        shoot(page, "phone-context", full_page=False)
    context.close()


def test_every_control_has_a_label_and_the_page_has_landmarks(owner: BrowserContext) -> None:
    page = owner.new_page()
    for path in (_context_url(), "/ui/facts?" + urlencode({"stream": ATLAS}), "/ui/search"):
        page.goto(path)
        unlabelled = page.evaluate(
            """[...document.querySelectorAll('input:not([type=hidden]), select, textarea')]
                .filter(e => !e.labels.length && !e.getAttribute('aria-label')).length"""
        )
        assert unlabelled == 0, path
        expect(page.get_by_role("main")).to_have_count(1)
        expect(page.get_by_role("navigation", name="Main")).to_have_count(1)
    page.keyboard.press("Tab")
    expect(page.get_by_role("link", name="Skip to content")).to_be_focused()
    page.close()
