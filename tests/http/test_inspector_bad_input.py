"""The inspector against hostile input, in a real browser: markup in a stream id or a fact
is shown as text and never runs, forged forms are refused, and a key never sees past its
trust, whatever URL it opens."""

from urllib.parse import urlencode

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.http.conftest import Live
from tests.http.inspector_browser import browser, open_context, owner, sign_in

__all__ = ["browser", "owner"]  # shared fixtures, used as arguments

STREAM = "project:hostile"
PAYLOAD = "<img src=x onerror=window.__pwned=1><script>window.__pwned=1</script>"
SCRIPT_FACT = "<script>window.__pwned=1</script> Priya prefers tea"


@pytest.fixture(scope="module")
def seeded(live: Live) -> Live:
    live.add_key("a_familiar", "tenant-a", "familiar")
    live.memory.add_turn(STREAM, "Priya prefers tea in the mornings.", "Noted.", tenant="tenant-a")
    live.settle()
    return live


def _pwned(page: Page) -> bool:
    return bool(page.evaluate("window.__pwned === 1"))


def test_a_stream_id_with_html_is_shown_as_text(owner: BrowserContext) -> None:
    page = owner.new_page()
    for view in ("context", "facts", "summaries", "turns", "records"):
        answer = page.goto(f"/ui/{view}?" + urlencode({"stream": PAYLOAD}))
        assert answer is not None and answer.status in (400, 404)
        expect(page.get_by_role("alert")).to_contain_text(PAYLOAD)
        assert page.locator("main img, main script").count() == 0
        assert not _pwned(page)
    page.close()


def test_a_fact_with_a_script_tag_is_shown_as_text(owner: BrowserContext, seeded: Live) -> None:
    fact = seeded.memory.write_fact(STREAM, SCRIPT_FACT, tenant="tenant-a")
    page = owner.new_page()
    for path in (
        "/ui/facts?" + urlencode({"stream": STREAM}),
        f"/ui/facts/{fact.id}",
        "/ui/context?" + urlencode({"stream": STREAM, "q": "tea"}),
        "/ui/search?q=tea",
    ):
        page.goto(path)
        expect(page.get_by_text(SCRIPT_FACT).first).to_be_visible()
        assert page.locator("main script").count() == 0
        assert not _pwned(page), path
    page.close()


def test_a_form_post_without_the_csrf_token_is_refused(owner: BrowserContext, seeded: Live) -> None:
    fact = seeded.memory.write_fact(STREAM, "The office cat is Miso", tenant="tenant-a")
    # The browser's own cookie goes with these posts, as it would with a forged form's.
    for form in ({"reason": "forged"}, {"reason": "forged", "csrf": "0" * 64}):
        answer = owner.request.post(f"/ui/facts/{fact.id}/forget", form=form)
        assert answer.status == 403
        assert "CSRF" in answer.text()
    erase = owner.request.post("/ui/erase", form={"stream": STREAM})
    assert erase.status == 403
    page = owner.new_page()
    page.goto("/ui/streams")
    token = page.locator("form.who input[name=csrf]").input_value()
    page.close()
    cross_site = owner.request.post(
        f"/ui/facts/{fact.id}/forget",
        form={"csrf": token},
        headers={"Origin": "http://evil.example"},
    )
    assert cross_site.status == 403
    assert seeded.memory.fact(fact.id, tenant="tenant-a").active
    assert seeded.memory.turns(STREAM, tenant="tenant-a")


def test_a_familiar_key_opening_a_private_fact_by_url_gets_a_404(
    browser: Browser, seeded: Live
) -> None:
    private = seeded.memory.write_fact(STREAM, "Priya's salary is 90k", tenant="tenant-a")
    social = seeded.memory.write_fact(
        STREAM, "Priya likes the Thursday demo", visibility="social", tenant="tenant-a"
    )
    context = open_context(browser, seeded)
    page = sign_in(context, seeded.keys["a_familiar"])
    answer = page.goto(f"/ui/facts/{private.id}")
    assert answer is not None and answer.status == 404
    expect(page.get_by_text("salary")).to_have_count(0)
    answer = page.goto(f"/ui/facts/{social.id}")
    assert answer is not None and answer.status == 200
    expect(page.get_by_role("button", name="Forget this fact")).to_have_count(0)
    page.goto("/ui/facts?" + urlencode({"stream": STREAM}))
    expect(page.get_by_text("salary")).to_have_count(0)
    context.close()


def test_a_cited_turn_or_record_by_url_keeps_to_the_keys_tenant_and_trust(
    browser: Browser, seeded: Live
) -> None:
    private = seeded.memory.add_turn(STREAM, "My PIN is 4471.", "Noted.", tenant="tenant-a")
    seeded.memory.ingest_message(
        channel="apollo-eng", user="Mia", ts="1772442000.000100", text="Hi", tenant="tenant-a"
    )
    [record] = seeded.memory.records("project:apollo", 1, tenant="tenant-a")
    for key in ("a_familiar", "b"):
        context = open_context(browser, seeded)
        page = sign_in(context, seeded.keys[key])
        answer = page.goto(f"/ui/turns/{private.id}")
        assert answer is not None and answer.status == 404, key
        expect(page.get_by_text("4471")).to_have_count(0)
        if key == "b":
            answer = page.goto(f"/ui/records/{record.id}")
            assert answer is not None and answer.status == 404
        context.close()
    answer = browser.new_page().goto(f"{seeded.url}/ui/turns/{private.id}")
    assert answer is not None and answer.url.startswith(f"{seeded.url}/ui/signin")


def test_only_a_full_key_may_forget_even_with_a_valid_token(browser: Browser, seeded: Live) -> None:
    fact = seeded.memory.write_fact(
        STREAM, "The team lunch is on Fridays", visibility="shared", tenant="tenant-a"
    )
    context = open_context(browser, seeded)
    page = sign_in(context, seeded.keys["a_inner"])
    token = page.locator("form.who input[name=csrf]").input_value()
    answer = context.request.post(f"/ui/facts/{fact.id}/forget", form={"csrf": token})
    assert answer.status == 403
    assert seeded.memory.fact(fact.id, tenant="tenant-a").active
    context.close()


def test_sign_in_never_redirects_to_another_site(browser: Browser, seeded: Live) -> None:
    context = open_context(browser, seeded)
    form = {"key": seeded.keys["a"], "next": "//evil.example/steal"}
    answer = context.request.post("/ui/signin", form=form, max_redirects=0)
    assert answer.status == 303
    assert answer.headers["location"] == "/ui/streams"
    context.close()
