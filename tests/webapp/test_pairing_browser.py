"""Pairing a phone, in a real browser at phone size (390 × 844): an unpaired phone gets a short
page that says how to pair; the pairing link sets an HttpOnly, SameSite=Strict cookie and lands
on the front page without the token in the address bar, and the front page shows the QR code of
the link; a server of this machine says how to share it. Screenshots of both pages are written
to the test's folder (``pytest --basetemp DIR`` keeps them where you look).

Like tests/webapp/test_browser.py, these need Playwright and the system's Chromium, and are
skipped without them unless ``WEB_BROWSER_TESTS=required``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.webapp.browser import CHROMIUM_ARGS, LiveServer, Watch, chromium, missing
from webapp.access import Access, load_token
from webapp.sharing import pairing_link

_MISSING = missing()
if _MISSING is not None:
    if os.environ.get("WEB_BROWSER_TESTS") == "required":
        raise RuntimeError(f"WEB_BROWSER_TESTS=required, but {__name__} {_MISSING}")
    pytest.skip(f"tests/webapp/test_pairing_browser.py {_MISSING}", allow_module_level=True)

from playwright.sync_api import (  # noqa: E402 - only once Playwright is known to be installed
    Browser,
    BrowserContext,
    Page,
    ViewportSize,
    expect,
    sync_playwright,
)

PHONE: ViewportSize = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as driver:
        launched = driver.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, str]]:
    """A shared server and its token. Its pairing link names 127.0.0.1 (where this test's
    browser reaches it); a real one names the machine's address on the network."""
    folder = tmp_path_factory.mktemp("shared")
    token = load_token(folder)
    server = LiveServer(
        folder,
        access_for=lambda port: Access(
            token=token, links=(pairing_link("127.0.0.1", port, token),)
        ),
    )
    server.start()
    yield server, token
    server.stop()


@pytest.fixture
def phone(browser: Browser) -> Iterator[tuple[BrowserContext, Page, Watch]]:
    """A new phone: its own cookies, a watch for console errors and failed requests."""
    context = browser.new_context(viewport=PHONE, has_touch=True)
    page = context.new_page()
    watch = Watch()
    watch.attach(page)
    yield context, page, watch
    watch.quiet(page)
    context.close()
    assert not watch.problems, "\n".join(watch.problems)


def fits(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"{page.url} scrolls sideways: {width} px wide"


def test_an_unpaired_phone_is_told_how_to_pair(
    shared: tuple[LiveServer, str], phone: tuple[BrowserContext, Page, Watch], tmp_path: Path
) -> None:
    server, _ = shared
    _, page, watch = phone
    watch.expect(401)
    response = page.goto(server.url + "/")
    assert response is not None and response.status == 401
    expect(page.get_by_role("heading", level=1)).to_have_text("Pair this device")
    expect(page.get_by_text("scan the QR code tabletop-web printed")).to_be_visible()
    fits(page)
    page.screenshot(path=tmp_path / "unpaired-phone.png", full_page=True)
    assert page.request.get(server.url + "/api/health").status == 401


def test_the_pairing_link_pairs_a_phone_whose_front_page_shows_the_qr_code(
    shared: tuple[LiveServer, str], phone: tuple[BrowserContext, Page, Watch], tmp_path: Path
) -> None:
    server, token = shared
    context, page, _ = phone
    response = page.goto(pairing_link("127.0.0.1", server.port, token))
    assert response is not None and response.status == 200
    assert page.url == server.url + "/"  # the token left the address bar
    cookie = next(c for c in context.cookies() if c["name"].startswith("tabletop-pairing-"))
    assert cookie["value"] == token and cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    box = page.get_by_role("complementary", name="Use it from a phone")
    expect(box).to_be_visible()
    expect(box.get_by_role("img", name="QR code of the pairing link")).to_be_visible()
    expect(box.locator("code.link")).to_have_text(pairing_link("127.0.0.1", server.port, token))
    size = box.locator("figure.qr svg").bounding_box()
    assert size is not None and 150 <= size["width"] <= 390  # large enough to scan from a desk
    fits(page)
    page.screenshot(path=tmp_path / "front-paired-phone.png", full_page=True)
    # paired: the pages and their answers work as on this machine's own server
    page.goto(server.url + "/trainer")
    expect(page.get_by_role("heading", level=1)).to_be_visible()
    assert page.request.get(server.url + "/api/health").json() == {"status": "ok"}


def test_a_server_of_this_machine_says_how_to_share_it(
    tmp_path: Path, phone: tuple[BrowserContext, Page, Watch]
) -> None:
    server = LiveServer(tmp_path)
    server.start()
    try:
        _, page, _ = phone
        page.goto(server.url + "/")
        box = page.get_by_role("complementary", name="Use it from a phone")
        expect(box).to_contain_text("tabletop-web --host 0.0.0.0")
        assert box.get_by_role("img").count() == 0
        fits(page)
        page.screenshot(path=tmp_path / "front-local-phone.png", full_page=True)
    finally:
        server.stop()
