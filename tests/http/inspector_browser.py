"""A real browser for the inspector's tests: Debian's Chromium driven by Playwright.

The browser is the machine's own /usr/bin/chromium (.ci/run installs it from Debian's
packages); nothing is downloaded. One browser serves a whole test module. With
THREEFOLD_SCREENSHOTS=1 the tests also write the PNGs the docs show.
"""

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from tests.http.conftest import Live

CHROMIUM = Path(os.environ.get("THREEFOLD_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
# Read now: the server fixture clears every THREEFOLD_* variable while a module runs.
WANT_SCREENSHOTS = os.environ.get("THREEFOLD_SCREENSHOTS") == "1"
DESKTOP = {"width": 1100, "height": 800}
PHONE = {"width": 375, "height": 740}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (as .ci/run does)")
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        launched.close()


def open_context(
    browser: Browser, live: Live, viewport: dict[str, int] = DESKTOP
) -> BrowserContext:
    context = browser.new_context(base_url=live.url, viewport=viewport)  # type: ignore[arg-type]
    context.set_default_timeout(10_000)
    return context


def sign_in(context: BrowserContext, secret: str) -> Page:
    page = context.new_page()
    page.goto("/ui/signin")
    page.get_by_label("API key").fill(secret)
    page.get_by_role("button", name="Sign in").click()
    page.wait_for_url("**/ui/streams")
    return page


@pytest.fixture(scope="module")
def owner(browser: Browser, seeded: Live) -> Iterator[BrowserContext]:
    """Signed in with tenant-a's full key, over the module's own `seeded` memory."""
    context = open_context(browser, seeded)
    sign_in(context, seeded.keys["a"]).close()
    yield context
    context.close()


def shoot(page: Page, name: str, *, full_page: bool = True) -> None:
    """Save the page for the docs, only when asked: the PNGs are committed."""
    if WANT_SCREENSHOTS:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SCREENSHOTS / f"{name}.png"), full_page=full_page)


def fits_width(page: Page) -> bool:
    """No horizontal scroll: nothing is wider than the window."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))
