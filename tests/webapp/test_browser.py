"""The web companion in a real browser: a scenario a user would do on each page, driven by
Playwright in the system's Chromium against the real server (tests/webapp/browser.py).

Every scenario also checks what the user does not see: no console error, no uncaught exception,
no failed request, no answer of 400 or more it did not ask for, no dialog. The pages are found by
their accessible names (roles and labels), as a screen reader would.

They need Playwright (the ``test`` extra) and the system's Chromium (``apt-get install
chromium``; never a browser Playwright downloads): without either they are skipped, saying what
to install, unless ``WEB_BROWSER_TESTS=required`` (CI) makes that an error. ``WEB_SCREENSHOTS=1``
also writes the README's phone screenshots to docs/images/ (``make screenshots``).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from packing import SAMPLE_DECK
from tests.webapp.browser import CHROMIUM_ARGS, LiveServer, Watch, chromium, missing
from webapp import contract
from webapp.app import PAGES

_MISSING = missing()
if _MISSING is not None:
    # CI (.ci/run) installs Chromium and requires these tests: there, a skip would hide them.
    if os.environ.get("WEB_BROWSER_TESTS") == "required":
        raise RuntimeError(f"WEB_BROWSER_TESTS=required, but {__name__} {_MISSING}")
    pytest.skip(f"tests/webapp/test_browser.py {_MISSING}", allow_module_level=True)

from playwright.sync_api import (  # noqa: E402 - only once Playwright is known to be installed
    Browser,
    FilePayload,
    Locator,
    Page,
    Playwright,
    Response,
    expect,
    sync_playwright,
)

ROOT = Path(__file__).resolve().parents[2]
IMAGES = ROOT / "docs" / "images"
PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 800}
#: How long a scenario waits for an answer the server computes (a solve, a grade, a bot's move).
ANSWER_MS = 30_000


#: The accessible name of an element as the page gives it: aria-labelledby, aria-label, its
#: <label>s, title, alt, the text inside (or a value for an input button). Empty: no name.
ACCESSIBLE_NAME = """
(node) => {
  const text = (n) => (n ? (n.textContent || "").replace(/\\s+/g, " ").trim() : "");
  const byIds = (node.getAttribute("aria-labelledby") || "").split(/\\s+/).filter(Boolean)
    .map((id) => text(document.getElementById(id))).join(" ").trim();
  if (byIds) return byIds;
  const aria = (node.getAttribute("aria-label") || "").trim();
  if (aria) return aria;
  const labels = node.labels ? [...node.labels].map(text).join(" ").trim() : "";
  if (labels) return labels;
  const title = (node.getAttribute("title") || "").trim();
  if (title) return title;
  const alts = [...node.querySelectorAll("img[alt], [role=img][aria-label]")]
    .map((n) => n.getAttribute("alt") || n.getAttribute("aria-label")).join(" ").trim();
  if (["INPUT"].includes(node.tagName) && ["button", "submit", "reset"].includes(node.type)) {
    return (node.value || "").trim();
  }
  return text(node) || alts;
}
"""

UNNAMED = f"""
() => {{
  const name = {ACCESSIBLE_NAME};
  const describe = (n) => n.outerHTML.slice(0, 160);
  return [...document.querySelectorAll("button, input, select, textarea, a, summary")]
    .filter((n) => !(n.tagName === "INPUT" && n.type === "hidden") && !n.closest("[hidden]"))
    .filter((n) => !name(n))
    .map(describe);
}}
"""

FOCUSED = f"""
() => {{
  const node = document.activeElement;
  if (!node || node === document.body) return "";
  return ({ACCESSIBLE_NAME})(node);
}}
"""


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """The web companion on a free port, with a database of its own (one per xdist worker)."""
    live = LiveServer(tmp_path_factory.mktemp("web"))
    live.start()
    yield live
    live.stop()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    """The system's Chromium (never a downloaded one), headless, one per test process."""
    launched = playwright.chromium.launch(executable_path=chromium(), args=CHROMIUM_ARGS)
    yield launched
    launched.close()


@dataclass
class Tab:
    """A fresh browser context and page on the server, watched for problems."""

    page: Page
    watch: Watch
    url: str

    def goto(self, path: str) -> Response:
        self.watch.quiet(self.page)
        response = self.page.goto(self.url + path)
        assert response is not None and response.status == 200, path
        return response

    def viewport(self, size: dict[str, int]) -> None:
        self.page.set_viewport_size({"width": size["width"], "height": size["height"]})


@pytest.fixture
def tab(browser: Browser, server: LiveServer) -> Iterator[Tab]:
    """A phone-sized page (390 x 844) in a new context; after the test, nothing went wrong."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    context.set_default_timeout(ANSWER_MS)
    page = context.new_page()
    watch = Watch()
    watch.attach(page)
    yield Tab(page, watch, server.url)
    watch.quiet(page)
    # what the scenario left on the page is labelled too (the controls drawn from answers)
    unnamed = [f"unnamed control on {page.url}: {html}" for html in page.evaluate(UNNAMED)]
    context.close()
    assert not watch.problems + unnamed, "\n".join(watch.problems + unnamed)


def screenshot(tab: Tab, tmp_path: Path, name: str, top: Locator, *, readme: bool = False) -> Path:
    """A full-page screenshot into the test's folder. With ``WEB_SCREENSHOTS=1``, a README
    picture (``readme``) is also written to docs/images/: one phone screen from ``top`` down."""
    shot = tmp_path / name
    tab.page.screenshot(path=shot, full_page=True)
    if readme and os.environ.get("WEB_SCREENSHOTS") == "1":
        IMAGES.mkdir(parents=True, exist_ok=True)
        top.evaluate("node => node.scrollIntoView({block: 'start', behavior: 'instant'})")
        tab.page.screenshot(path=IMAGES / name)
    return shot


def no_horizontal_scroll(page: Page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    viewport = page.viewport_size
    assert viewport is not None
    assert width <= viewport["width"], f"{page.url} scrolls sideways: {width} px wide"


def button(page: Page, name: str) -> Locator:
    return page.get_by_role("button", name=name, exact=True)


def truck_name(name: str) -> str:
    """The accessible name of a sample-deck truck's button on the grab helper: the truck with
    its capacity and height, which the button also writes beside its picture."""
    truck = next(t for t in SAMPLE_DECK if t.name == name)
    return f"truck {name}, capacity {truck.capacity}, height {truck.height}"


def truck(page: Page, name: str) -> Locator:
    return button(page, truck_name(name))


# --- the front page ------------------------------------------------------------------------------


def test_front_page_links_every_page_on_a_phone(tab: Tab) -> None:
    response = tab.goto("/")
    policy = response.headers.get("content-security-policy", "")
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    main = tab.page.get_by_role("main")
    hrefs = main.get_by_role("link").evaluate_all("links => links.map(a => a.getAttribute('href'))")
    assert sorted(hrefs) == sorted(f"/{page}" for page in PAGES)
    assert len(PAGES) == 8
    no_horizontal_scroll(tab.page)
    for page in PAGES:  # and each page answers, with the same policy
        answer = tab.page.request.get(f"{tab.url}/{page}")
        assert answer.status == 200, page
        assert "unsafe-inline" not in answer.headers["content-security-policy"]


# --- the grab helper -----------------------------------------------------------------------------

ROLL = [3, 2, 3, 0, 1]


def rods(length: int, face: int) -> str:
    """The accessible name of a die's face button on the grab helper."""
    return f"length {length}: {face} rod{'' if face == 1 else 's'}"


def grab_answer() -> Any:
    """``packing grab --json`` for the scenario's roll and trucks: run as a command, and checked
    equal to the contract's answer (what the API serves)."""
    argv = ["grab", "--roll", "3,2,3,0,1", "--revealed", "S03,S17", "--json"]
    printed = subprocess.run(
        [sys.executable, "-m", "packing", *argv],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    answered = contract.answer("packing", "grab", {"roll": "3,2,3,0,1", "revealed": "S03,S17"})
    assert answered.status == 200
    assert answered.data == json.loads(printed)
    return answered.data


def shown_choices(page: Page) -> list[tuple[str, str]]:
    rows = page.locator("#choices tbody tr")
    return [
        (row.locator("th").inner_text(), row.locator("td.num").first.inner_text())
        for row in rows.all()
    ]


def test_grab_helper_agrees_with_the_command_line(tab: Tab, tmp_path: Path) -> None:
    page = tab.page
    tab.goto("/grab")
    expect(truck(page, "S03")).to_be_visible()
    for length, face in enumerate(ROLL, start=1):
        button(page, rods(length, face)).click()
        expect(button(page, rods(length, face))).to_have_attribute("aria-pressed", "true")
    for name in ("S03", "S17"):
        truck(page, name).click()
        expect(truck(page, name)).to_have_attribute("aria-pressed", "true")
    button(page, "Advise").click()
    expect(page.locator("#plan svg")).to_be_visible()

    answer = grab_answer()
    expected = [
        (choice["choice"] + (" (best)" if i == 0 else ""), f"{choice['expected_penalty']:.2f}")
        for i, choice in enumerate(answer["choices"])
    ]
    assert shown_choices(page) == expected
    best = answer["choices"][0]["choice"]
    expect(page.locator("#verdict")).to_contain_text(f"Best: take {best}")
    expect(page.get_by_role("img", name=re.compile(r"^load plan of "))).to_be_visible()
    no_horizontal_scroll(page)
    screenshot(tab, tmp_path, "grab-phone.png", page.locator("#decision"), readme=True)


def test_grab_helper_refuses_a_half_roll_in_one_line(tab: Tab) -> None:
    page = tab.page
    tab.goto("/grab")
    expect(truck(page, "S03")).to_be_visible()
    button(page, rods(1, 3)).click()
    button(page, "Advise").click()
    expect(page.get_by_role("alert")).to_have_text(re.compile(r"^tap a face for each die"))
    expect(page.locator("#decision")).to_be_hidden()


# --- the loader ----------------------------------------------------------------------------------


def test_loader_solves_a_drawn_truck(tab: Tab, tmp_path: Path) -> None:
    page = tab.page
    tab.goto("/loader")
    cargo = [4, 1, 2, 1, 0]
    for length, count in enumerate(cargo, start=1):
        page.get_by_label(f"Length {length} rods").fill(str(count))
    # A 3 x 5 truck whose middle row ends in two cells that cannot be loaded.
    for cell in ("row 2, column 4", "row 2, column 5"):
        button(page, cell).click()
        expect(button(page, cell)).to_have_attribute("aria-pressed", "false")
    page.get_by_label("Height cap").select_option("3")
    button(page, "Solve").click()
    expect(page.locator("#plan svg")).to_be_visible()

    answer = contract.answer(
        "packing", "solve", {"cargo": cargo, "truck": "#####/###../#####", "height": 3}
    )
    assert answer.status == 200
    facts = page.locator("#facts")
    expect(facts.locator("dt", has_text="Penalty").locator("+ dd")).to_have_text(
        str(answer.data["penalty"])
    )
    expect(facts).to_contain_text("optimal (proven)")
    assert answer.data["status"] == "optimal"
    no_horizontal_scroll(page)
    screenshot(tab, tmp_path, "loader-phone.png", page.locator("#result"))


def test_loader_shows_a_refused_truck_in_one_line(tab: Tab) -> None:
    page = tab.page
    tab.goto("/loader")
    for size in ("Rows", "Columns"):
        page.get_by_label(size).fill("1")
        page.get_by_label(size).blur()
    expect(
        page.get_by_role("group", name="truck cells: pressed is loadable").get_by_role("button")
    ).to_have_count(1)
    button(page, "row 1, column 1").click()  # no loadable cell left: the server refuses it
    tab.watch.expect(422)
    button(page, "Solve").click()
    expect(page.get_by_role("alert")).not_to_be_empty()
    assert "\n" not in page.get_by_role("alert").inner_text()
    expect(page.locator("#result")).to_be_hidden()


# --- the Express advisor -------------------------------------------------------------------------


def test_advisor_marks_the_best_play_of_the_example(tab: Tab, tmp_path: Path) -> None:
    page = tab.page
    tab.goto("/advisor")
    button(page, "Load example").click()
    expect(page.locator("#hand-chosen")).to_contain_text("B2|B2")
    with page.expect_response(re.compile(r"/api/express/advise$"), timeout=ANSWER_MS) as asked:
        button(page, "Advise").click()
    answered = asked.value.json()
    body = asked.value.request.post_data_json
    expect(page.locator("#advice")).to_be_visible()

    # The play the page marks best is the server's, and the server's is the command line's.
    assert contract.answer("express", "advise", body).data["recommended"] == answered["recommended"]
    best = page.locator("#plays tbody tr.best")
    expect(best).to_have_count(1)
    expect(best.locator(".badge")).to_have_text("best")
    expect(best.locator(".play-code")).to_have_text(answered["recommended"])
    expect(page.locator("#plays tbody tr").first).to_have_class(re.compile(r"\bbest\b"))
    codes = page.locator("#plays tbody .play-code").all_inner_texts()
    assert codes == [play["play"] for play in answered["plays"]]
    expect(page.locator("#verdict")).to_contain_text("Play")
    expect(page.locator("#advice-train svg")).to_be_visible()
    no_horizontal_scroll(page)
    screenshot(tab, tmp_path, "advisor-phone.png", page.locator("#advice"), readme=True)


def test_advice_from_one_world_shows_no_interval(tab: Tab) -> None:
    page = tab.page
    tab.goto("/advisor")
    button(page, "Load example").click()
    page.get_by_text("Search options").click()
    page.get_by_label("Worlds (optional)").fill("1")
    with page.expect_response(re.compile(r"/api/express/advise$"), timeout=ANSWER_MS) as asked:
        button(page, "Advise").click()
    assert asked.value.json()["worlds"] == 1
    expect(page.locator("#measure")).to_contain_text("no interval")
    intervals = page.locator("#plays tbody .interval").all_inner_texts()
    assert intervals and set(intervals) == {"none"}  # not "0.00 … 0.00"


def test_advice_in_the_last_turns_says_it_is_exact(tab: Tab, tmp_path: Path) -> None:
    # A two-player position three turns from the end, sent in place of the example's (the
    # form's card pickers are tested above): the server answers exactly, the page says so.
    page = tab.page
    tab.goto("/advisor")
    button(page, "Load example").click()
    endgame = {
        "players": 2,
        "seat": 1,
        "round": 6,
        "hand": "R2|R2,R3|G3,Y3|G3",
        "train": ["B4|G4,G4|Y4,Y3|B3,B3|Y3,Y4|R4,~", "R4|B4,~G2|G2,G2|G3,~B2|B2,B2|B3"],
        "seen": "G4|Y4,Y3|B3,Y4|R4",
        "start_player": 0,
        "pass": "left",
        "seed": 1,
    }
    page.route(
        re.compile(r"/api/express/advise$"),
        lambda route: route.continue_(post_data=json.dumps(endgame)),
    )
    with page.expect_response(re.compile(r"/api/express/advise$"), timeout=ANSWER_MS) as asked:
        button(page, "Advise").click()
    answered = asked.value.json()
    assert answered["expectation"] is True and answered["worlds"] == 0
    assert (
        contract.answer("express", "advise", endgame).data["recommended"] == answered["recommended"]
    )
    expect(page.locator("#measure")).to_contain_text("exact: every card still to come")
    cells = page.locator("#plays tbody tr td:last-child").all_inner_texts()
    assert cells and set(cells) == {"exact"}
    assert set(page.locator("#plays tbody .interval").all_inner_texts()) == {"none"}
    no_horizontal_scroll(page)
    screenshot(tab, tmp_path, "advisor-exact-phone.png", page.locator("#advice"))


# --- the API page --------------------------------------------------------------------------------


def test_api_page_lists_every_endpoint_and_its_fields(tab: Tab) -> None:
    page = tab.page
    tab.goto("/api")
    contents = page.get_by_role("navigation", name="endpoints")
    expect(contents.get_by_role("link", name="POST /api/packing/grab")).to_be_visible()
    expect(contents.get_by_role("link", name="GET /api/health")).to_be_visible()
    spec = page.request.get(f"{tab.url}/openapi.json").json()
    operations = sum(len(methods) for methods in spec["paths"].values())
    expect(contents.get_by_role("link")).to_have_count(operations)
    fields = page.get_by_label("request fields of POST /api/packing/grab")
    expect(fields.locator("dt code", has_text=re.compile(r"^roll$"))).to_have_count(1)
    expect(fields.locator("dt code", has_text=re.compile(r"^revealed$"))).to_have_count(1)


# --- practice ------------------------------------------------------------------------------------


def graded(count: int) -> re.Pattern[str]:
    return re.compile(rf"in {count} graded decisions?\.")


def play_on(page: Page, done: int, *, stop_after: int | None = None) -> int:
    """Click choices until the game ends (or ``stop_after`` decisions in all); each click is
    graded on the page. The number of decisions made."""
    status = page.locator("#status")
    while "The game is over." not in status.inner_text():
        if stop_after is not None and done >= stop_after:
            break
        choices = page.locator("#choices button")
        count = choices.count()
        assert count > 0, "the game waits for a decision but offers no choice"
        choices.nth(done % count).click()
        done += 1
        expect(status).to_contain_text(graded(done), timeout=ANSWER_MS)
        expect(page.locator("#last-grade")).to_be_visible()
        expect(page.locator("#last-grade .grade-line")).to_have_text(
            re.compile(r"^(Best play!|This cost )")
        )
    return done


def choice_labels(page: Page) -> list[str]:
    return page.locator("#choices .choice-label").all_inner_texts()


def test_practice_express_to_its_end_with_a_reload(tab: Tab, tmp_path: Path) -> None:
    page = tab.page
    tab.goto("/practice")
    page.get_by_label("Game to play").select_option("express")
    expect(page.get_by_label("Seat 1")).to_have_value("you")
    while page.locator("#seats select").count() > 2:
        button(page, "Remove a seat").click()
    page.get_by_label("Seat 2").select_option("greedy")
    page.get_by_label("Caboose").select_option("")
    page.get_by_label("Seed (optional)").fill("7")
    button(page, "Start the game").click()
    expect(
        page.get_by_role("heading", name=re.compile(r"^Yardmaster Express, round 1"))
    ).to_be_visible()
    assert page.locator("#play-heading").is_visible()

    done = play_on(page, 0, stop_after=3)
    assert done == 3, "the game ended before the reload"
    before = choice_labels(page)
    assert "game=" in page.url
    page.reload()
    expect(page.locator("#status")).to_contain_text(graded(3))
    assert choice_labels(page) == before
    done = play_on(page, done)

    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(result.get_by_role("heading", level=3)).to_have_text(
        re.compile(r"^(You won!|The game is over)$")
    )
    expect(result.locator(".result-line")).to_contain_text("Winner")
    expect(result.get_by_role("heading", name="Review")).to_be_visible()
    expect(page.locator("#decide")).to_be_hidden()
    assert page.locator("#grades tbody tr").count() == done
    # the end says so, not "round 8 of 7", and shows how each score was made
    expect(page.locator("#play-heading")).to_have_text("Yardmaster Express: the game is over")
    expect(page.locator("#facts")).not_to_contain_text("not your turn")
    expect(
        result.get_by_role("table", name="How each score was made").locator("tbody tr")
    ).to_have_count(2)
    expect(result.get_by_role("img", name=re.compile(r"^train of you: "))).to_be_visible()
    no_horizontal_scroll(page)
    screenshot(tab, tmp_path, "practice-express-phone.png", page.locator("#play"))


def test_practice_pack_and_stack_to_its_end(tab: Tab) -> None:
    page = tab.page
    tab.goto("/practice")
    page.get_by_label("Game to play").select_option("packing")
    while page.locator("#seats select").count() > 2:
        button(page, "Remove a seat").click()
    page.get_by_label("Seat 2").select_option("capacity")
    # The shortest game the page offers with more than one round (it has no 2-round game).
    page.get_by_label("Rounds").select_option("3")
    page.get_by_label("Seed (optional)").fill("2")
    button(page, "Start the game").click()
    expect(page.get_by_role("heading", name=re.compile(r"^Pack & Stack, round"))).to_be_visible()
    done = play_on(page, 0)
    assert done >= 2
    expect(page.locator("#result")).to_be_visible()
    expect(page.locator("#result .result-line")).to_contain_text("Winner")
    expect(page.get_by_role("heading", name="Review")).to_be_visible()
    # the log calls the user "you", never by a seat number
    expect(page.locator("#log")).to_contain_text("you roll")
    expect(page.locator("#log")).not_to_contain_text("P0")
    # the game is listed among the recent ones, finished
    expect(
        page.get_by_role("button", name=re.compile(r"^Review the Pack & Stack game"))
    ).to_be_visible()


# --- the trainer and the progress page ----------------------------------------------------------


def test_trainer_grades_and_times_then_progress_draws_charts(tab: Tab) -> None:
    page = tab.page
    tab.goto("/trainer")
    page.get_by_label("Revealed trucks").select_option("3")
    button(page, "Deal").click()
    trucks = page.get_by_role(
        "button", name=re.compile(r"^Grab \S+, capacity \d+, height \d+(, variant)? \(key \d\)$")
    )
    expect(trucks).to_have_count(3)
    trucks.first.click()
    line = page.locator("#grade-box .grade-line")
    expect(line).to_have_text(
        re.compile(r"(Best grab!.* in [\d.]+ s|cost [\d.]+ expected points.*Time: [\d.]+ s)")
    )
    expect(page.locator("#session tbody tr")).to_have_count(1)
    # a second answer, by the pile this time
    button(page, "Next").click()
    expect(page.get_by_role("button", name="Draw from the pile (key 0 or P)")).to_be_enabled()
    page.get_by_role("button", name="Draw from the pile (key 0 or P)").click()
    expect(page.locator("#session tbody tr")).to_have_count(2)
    expect(page.locator("#summary")).to_contain_text("expected points lost")

    tab.goto("/progress")
    for chart in ("#trainer-loss", "#trainer-seconds", "#practice-packing", "#practice-express"):
        expect(page.locator(f"{chart} svg")).to_be_visible()
    answers = page.locator("#trainer-summary dt", has_text="answers").locator("+ dd")
    assert int(answers.inner_text()) >= 2
    expect(page.locator("#loading")).to_be_empty()
    no_horizontal_scroll(page)


# --- the designer --------------------------------------------------------------------------------


def test_designer_draws_a_truck_into_a_deck(tab: Tab) -> None:
    page = tab.page
    tab.goto("/designer")
    button(page, "row 1, column 5").click()
    button(page, "row 3, column 5").click()
    page.get_by_label("Truck name").fill("X01")
    page.get_by_label("Truck height").select_option("3")
    button(page, "Add to deck").click()
    expect(page.locator("#deck-count")).to_have_text("1 truck")
    expect(page.get_by_role("img", name="truck X01", exact=True).locator("svg")).to_be_visible()
    deck = page.get_by_label("Deck file text").input_value()
    assert "X01 height 3\n####.\n#####\n####.\n" in deck
    # A one-truck deck's analysis takes seconds: its table against the sample deck's.
    page.get_by_label("Deck name").fill("one truck")
    button(page, "Analyse").click()
    results = page.locator("#results")
    expect(results).to_be_visible(timeout=3 * ANSWER_MS)
    expect(page.locator("#summary thead th")).to_have_text(["Measure", "one truck", "sample deck"])
    # the comparison fits a phone (no column cut off) and says what each measure means
    assert page.locator("#summary").evaluate("t => t.scrollWidth <= t.parentElement.clientWidth")
    for row in page.locator("#summary tbody th").all_inner_texts():
        expect(page.locator(".legend dt", has_text=row)).to_be_visible()
    expect(page.locator("#stats tbody th")).to_have_text(["X01"])
    expect(page.locator("#charts svg").first).to_be_visible()
    assert_readable(page, pictures="#charts")


# --- keyboard only -------------------------------------------------------------------------------


def focus_by_keyboard(page: Page, name: str, key: str = "Tab", most: int = 150) -> None:
    """Press ``key`` (Tab or Shift+Tab) until the element named ``name`` has the focus."""
    for _ in range(most):
        if page.evaluate(FOCUSED) == name:
            return
        page.keyboard.press(key)
    raise AssertionError(f"{name!r} cannot be reached with {key} ({most} presses)")


def test_grab_helper_by_keyboard_only(tab: Tab) -> None:
    page = tab.page
    tab.goto("/grab")
    expect(truck(page, "S17")).to_be_visible()
    page.locator("body").focus()
    # The dice from the last to the first with Shift+Tab, then forward with Tab: Space and Enter
    # both press a button.
    focus_by_keyboard(page, truck_name("S03"), "Tab")
    for length in (5, 4, 3, 2, 1):
        focus_by_keyboard(page, rods(length, ROLL[length - 1]), "Shift+Tab")
        page.keyboard.press("Space" if length % 2 else "Enter")
        expect(button(page, rods(length, ROLL[length - 1]))).to_have_attribute(
            "aria-pressed", "true"
        )
        # The pressed button keeps the focus: a keyboard user goes on from where they were.
        assert page.evaluate(FOCUSED) == rods(length, ROLL[length - 1])
    for name in (truck_name("S03"), truck_name("S17")):
        focus_by_keyboard(page, name, "Tab")
        page.keyboard.press("Enter")
        expect(button(page, name)).to_have_attribute("aria-pressed", "true")
        assert page.evaluate(FOCUSED) == name
    focus_by_keyboard(page, "Advise", "Tab")
    page.keyboard.press("Enter")
    expect(page.locator("#plan svg")).to_be_visible()
    answer = grab_answer()
    assert [label for label, _ in shown_choices(page)][0] == answer["choices"][0][
        "choice"
    ] + " (best)"


@pytest.mark.parametrize("size", [PHONE, DESK], ids=["phone", "desk"])
def test_every_control_of_every_page_is_named_and_fits(tab: Tab, size: dict[str, int]) -> None:
    page = tab.page
    tab.viewport(size)
    problems = []
    for path in ["/", *(f"/{name}" for name in PAGES)]:
        tab.goto(path)
        page.wait_for_load_state("networkidle")
        problems += [f"{path}: unnamed control {html}" for html in page.evaluate(UNNAMED)]
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > size["width"]:
            problems.append(f"{path}: {width} px wide at {size['width']} px: scrolls sideways")
        headings = page.get_by_role("heading", level=1).count()
        if headings != 1:
            problems.append(f"{path}: {headings} level-1 headings")
    assert not problems, "\n".join(problems)


# --- escaping ------------------------------------------------------------------------------------

EVIL = "<img/src=x/onerror=alert(1)>"
EVIL_DECK = (
    f"{EVIL} height 2\n#####\n###..\n#####\n\n<script>alert(2)</script> height 3\n####\n####\n"
)


def test_a_truck_named_like_markup_shows_as_text(tab: Tab) -> None:
    page = tab.page
    tab.goto("/grab")
    expect(truck(page, "S03")).to_be_visible()
    page.get_by_label("Deck file (optional)").set_input_files(
        files=FilePayload(name="evil.txt", mimeType="text/plain", buffer=EVIL_DECK.encode())
    )
    expect(button(page, f"truck {EVIL}, capacity 26, height 2")).to_be_visible()
    expect(
        button(page, f"truck {EVIL}, capacity 26, height 2").locator(".truck-name")
    ).to_have_text(EVIL)
    expect(button(page, "truck <script>alert(2)</script>, capacity 24, height 3")).to_be_visible()
    assert page.locator("img[src=x], main script").count() == 0
    # the designer: the name typed into its field
    tab.goto("/designer")
    page.get_by_label("Truck name").fill(EVIL)
    button(page, "Add to deck").click()
    expect(page.locator("#deck .name")).to_have_text(EVIL)
    expect(page.locator("#deck .truck-facts")).to_have_text("capacity 30 · height 2")
    assert page.locator("img[src=x]").count() == 0
    page.wait_for_timeout(200)  # an onerror would have fired by now
    assert not tab.watch.dialogs


def test_saved_decks_are_renamed_and_deleted_and_a_name_is_never_saved_twice(tab: Tab) -> None:
    page = tab.page
    tab.goto("/designer")
    button(page, "Start from the sample deck").click()
    expect(page.locator("#deck-count")).to_have_text("30 trucks")
    page.get_by_label("Deck name").fill("Table deck")
    button(page, "Save deck").click()
    expect(page.locator("#saved-note")).to_have_text("Saved as “Table deck”.")
    # the same name again: refused, and replacing it is offered
    tab.watch.expect(409)
    page.get_by_label("Deck name").fill("table DECK")
    button(page, "Save deck").click()
    expect(page.get_by_role("alert")).to_contain_text("is saved already")
    button(page, "Replace the saved deck of that name").click()
    expect(page.locator("#saved-note")).to_have_text("Saved as “table DECK”.")
    expect(page.locator("#saved li")).to_have_count(1)
    # renamed, by the keyboard as much as by taps
    button(page, "Rename table DECK").click()
    page.get_by_label("New name for table DECK").fill("Sunday deck")
    button(page, "Save the name").click()
    expect(button(page, "Load Sunday deck")).to_be_visible()
    # deleted after a second tap that says what it deletes
    button(page, "Delete Sunday deck").click()
    button(page, "Keep it").click()
    expect(button(page, "Load Sunday deck")).to_be_visible()
    button(page, "Delete Sunday deck").click()
    expect(page.get_by_text("Delete Sunday deck for good?")).to_be_visible()
    page.get_by_role("button", name="Delete Sunday deck", exact=True).click()
    expect(page.locator("#saved li")).to_have_text(["none yet"])


# --- errors in the page's words ------------------------------------------------------------------


def test_errors_name_the_fields_as_the_page_does(tab: Tab) -> None:
    page = tab.page
    tab.watch.expect(422)
    tab.goto("/grab")
    expect(truck(page, "S03")).to_be_visible()
    page.get_by_label("Deck file (optional)").set_input_files(
        files=FilePayload(name="bad.txt", mimeType="text/plain", buffer=b"A1 height 2\n##\n#x\n")
    )
    alert = page.get_by_role("alert")
    expect(alert).to_have_text("Deck file, line 3: invalid mask row '#x' (use '#' and '.')")
    tab.goto("/loader")
    page.get_by_label("Length 1 rods").fill("-2")
    button(page, "Solve").click()
    expect(alert).to_have_text(re.compile(r"^The cargo: invalid cargo '-2,"))
    for words in ("argument", "--"):
        assert words not in alert.inner_text()


# --- readable on a phone -------------------------------------------------------------------------

#: The smallest text a picture may show on a phone, in CSS pixels: the pictures' own smallest
#: size (10 units: level and column numbers, colour letters) shown at 100 % or more.
SMALLEST_PICTURE_TEXT = 10.0
#: The smallest text of the pages themselves: the stylesheet's .75rem (a card's count, a die's
#: length), 12 pixels; body text is 16 and tables and notes 13.6.
SMALLEST_PAGE_TEXT = 12.0

#: Every visible text on the page with the size it renders at: an SVG <text>'s computed font
#: size times the scale its picture is drawn at (getScreenCTM), an HTML text node's parent's
#: computed font size; and each with the id of the nearest element that has one.
TEXT_SIZES = """
() => {
  const where = (node) => (node.closest("[id]") || {}).id || "";
  const svg = [];
  for (const node of document.querySelectorAll("svg text")) {
    if (!node.checkVisibility() || !node.textContent.trim()) continue;
    const m = node.getScreenCTM();
    const size = parseFloat(getComputedStyle(node).fontSize) * Math.hypot(m.a, m.b);
    svg.push({ size, text: node.textContent.trim(), where: where(node) });
  }
  const html = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!node.textContent.trim() || parent.closest("svg, option") || !parent.checkVisibility()) {
      continue;
    }
    html.push({ size: parseFloat(getComputedStyle(parent).fontSize),
                text: node.textContent.trim().slice(0, 40), where: where(parent) });
  }
  return { svg, html };
}
"""


def assert_readable(page: Page, *, pictures: str) -> None:
    """Every visible text of ``page`` renders at the sizes above; the SVG texts of the
    pictures in ``pictures`` (a CSS selector) are among them, so the check saw them drawn."""
    expect(page.locator(pictures).first).to_be_visible()
    sizes = page.evaluate(TEXT_SIZES)
    drawn = page.locator(f"{pictures} text").evaluate_all(
        "nodes => nodes.filter((n) => n.checkVisibility()).length"
    )
    assert drawn > 0 or page.locator(f"{pictures} svg").count() > 0, pictures
    small = sorted(
        (round(t["size"], 2), t["text"], t["where"])
        for t in sizes["svg"]
        if t["size"] < SMALLEST_PICTURE_TEXT - 1e-6
    )
    assert not small, f"{page.url}: {len(small)} picture texts under 10 px, e.g. {small[:3]}"
    small = sorted(
        (round(t["size"], 2), t["text"], t["where"])
        for t in sizes["html"]
        if t["size"] < SMALLEST_PAGE_TEXT - 1e-6
    )
    assert not small, f"{page.url}: {len(small)} page texts under 12 px, e.g. {small[:3]}"
    no_horizontal_scroll(page)


def advise_grab(page: Page, revealed: tuple[str, ...]) -> None:
    for length, face in enumerate(ROLL, start=1):
        button(page, rods(length, face)).click()
    for name in revealed:
        page.get_by_role("button", name=re.compile(rf"^truck {name}\b")).click()
    button(page, "Advise").click()
    expect(page.locator("#decision")).to_be_visible()
    expect(page.locator("#ranking-panel")).to_be_visible()


def test_grab_helper_shows_the_plan_of_the_truck_it_names_readable_on_a_phone(tab: Tab) -> None:
    page = tab.page
    tab.goto("/grab")
    advise_grab(page, ("S03", "S17"))
    expect(page.locator("#plan svg")).to_be_visible()
    assert_readable(page, pictures="#plan")
    # every truck button says its capacity and height, in its name and in words beside it
    for entry in SAMPLE_DECK:
        facts = f"capacity {entry.capacity} · height {entry.height}"
        expect(truck(page, entry.name).locator(".truck-facts")).to_have_text(facts)
    answer = grab_answer()
    best = answer["choices"][0]
    assert best["choice"] == "S17" and best["choice"] not in ("S15", "the pile")
    expect(page.locator("#verdict")).to_contain_text("Best: take S17")
    # the plan shown is the named truck's, solved for the roll, at its expected penalty
    plan = page.get_by_role("img", name=re.compile(r"^load plan of "))
    expect(plan).to_have_count(1)
    expect(plan).to_have_attribute("aria-label", re.compile(r"^load plan of S17:"))
    expect(plan.locator("svg > title")).to_have_text(re.compile(r"^Truck S17 "))
    expect(page.locator("#plan-heading")).to_have_text("The load plan of S17, the truck to take")
    expect(page.locator("#plan-summary")).to_contain_text(f"penalty {best['exact']} ")
    link = page.get_by_role("link", name="Open S17 in the loader")
    expect(link).to_have_attribute("href", re.compile(r"[?&]name=S17(&|$)"))
    # the deck's best truck shows only under its label, as the extra it is
    extra = page.locator("#deck-best")
    expect(extra.get_by_role("heading", name="Not on the table: S15")).to_be_visible()
    expect(extra).to_contain_text("not among the revealed trucks")
    expect(page.get_by_role("img", name=re.compile(r"^load plan of S15"))).to_be_hidden()
    extra.get_by_text("The load plan of S15 (not on the table)").click()
    expect(extra.get_by_role("img", name=re.compile(r"^load plan of S15:"))).to_be_visible()
    assert_readable(page, pictures="#deck-best-plan")


def test_grab_helper_says_plainly_when_the_pile_is_best(tab: Tab) -> None:
    page = tab.page
    tab.goto("/grab")
    advise_grab(page, ("S01",))
    decision = contract.answer("packing", "grab", {"roll": "3,2,3,0,1", "revealed": "S01"}).data
    pile = decision["choices"][0]
    assert pile["choice"] == "the pile"
    expect(page.locator("#verdict")).to_contain_text("Best: draw from the pile")
    expect(page.locator("#plan-heading")).to_have_text("No single truck: draw from the pile")
    expect(page.locator("#plan-summary")).to_contain_text(
        f"The pile's expected penalty is {pile['expected_penalty']:.2f}"
    )
    expect(page.locator("#plan svg")).to_have_count(0)
    expect(page.get_by_role("link", name=re.compile(r"in the loader$"))).to_be_hidden()
    expect(page.locator("#deck-best").get_by_role("heading")).to_have_text("Not on the table: S15")


def test_loader_and_its_deck_read_on_a_phone(tab: Tab) -> None:
    page = tab.page
    tab.goto("/loader")
    page.get_by_text("Open a truck from the deck").click()
    page.get_by_role("button", name=re.compile(r"^open S17\b")).click()
    button(page, "Solve").click()
    assert_readable(page, pictures="#plan")
    open_s17 = button(page, f"open {truck_name('S17').removeprefix('truck ')}")
    expect(open_s17).to_contain_text("capacity 26 · height 2")


def test_trainer_and_progress_read_on_a_phone(tab: Tab) -> None:
    page = tab.page
    tab.goto("/trainer")
    page.get_by_label("Revealed trucks").select_option("8")
    button(page, "Deal").click()
    trucks = page.locator("#trucks button")
    expect(trucks).to_have_count(8)
    assert_readable(page, pictures="#trucks")
    for index in range(8):
        expect(trucks.nth(index)).to_have_attribute(
            "aria-label", re.compile(rf"^Grab \S+, capacity \d+, height \d+ \(key {index + 1}\)$")
        )
        expect(trucks.nth(index).locator(".truck-facts")).to_have_text(
            re.compile(r"^capacity \d+ · height \d+$")
        )
    trucks.first.click()
    expect(page.locator("#grade-box .grade-line")).to_be_visible()
    tab.goto("/progress")  # its charts, with an answer in them
    expect(page.locator("#loading")).to_be_empty()
    assert_readable(page, pictures="#trainer-loss")


def test_designer_deck_reads_on_a_phone(tab: Tab) -> None:
    page = tab.page
    tab.goto("/designer")
    button(page, "Start from the sample deck").click()
    expect(page.locator("#deck .deck-card")).to_have_count(len(SAMPLE_DECK))
    assert_readable(page, pictures="#deck")
    expect(page.locator("#deck .truck-facts").first).to_have_text("capacity 9 · height 1")


def test_advisor_and_a_long_best_train_read_on_a_phone(tab: Tab) -> None:
    page = tab.page
    tab.goto("/advisor")
    button(page, "Load example").click()
    expect(page.locator("#hand-chosen")).to_contain_text("B2|B2")
    button(page, "Advise").click()
    expect(page.locator("#advice-train svg")).to_be_visible(timeout=ANSWER_MS)
    assert_readable(page, pictures="#advice-train")
    page.get_by_label("Cards", exact=True).select_option("deck")
    page.get_by_label("Train length (cards)").fill("12")
    button(page, "Find the best train").click()
    best = page.locator("#best-picture svg")
    expect(best).to_be_visible(timeout=ANSWER_MS)
    assert_readable(page, pictures="#best-picture")
    # twelve cards in rows inside the picture, each card whole on one row
    boxes = best.locator(".card").evaluate_all(
        "cards => cards.map((c) => { const b = c.getBoundingClientRect(); "
        "return [b.left, b.top, b.right, b.bottom]; })"
    )
    frame = best.bounding_box()
    assert frame is not None and len(boxes) == 12
    assert all(
        frame["x"] <= left and right <= frame["x"] + frame["width"] for left, _, right, _ in boxes
    )
    rows = sorted({round(top) for _, top, _, _ in boxes})
    assert len(rows) >= 4, rows
    height = boxes[0][3] - boxes[0][1]
    assert all(abs((bottom - top) - height) < 1 for _, top, _, bottom in boxes)  # none cut


def test_practice_of_both_games_reads_on_a_phone(tab: Tab) -> None:
    page = tab.page
    for game, bot, seed in (("express", "greedy", "7"), ("packing", "capacity", "2")):
        tab.goto("/practice")
        page.get_by_label("Game to play").select_option(game)
        while page.locator("#seats select").count() > 2:
            button(page, "Remove a seat").click()
        page.get_by_label("Seat 2").select_option(bot)
        page.get_by_label("Seed (optional)").fill(seed)
        button(page, "Start the game").click()
        expect(page.locator("#choices button").first).to_be_visible(timeout=ANSWER_MS)
        if game == "express":  # trains of a few cards
            play_on(page, 0, stop_after=3)
        assert_readable(page, pictures="#pictures")
        if game == "packing":  # every truck choice says its capacity and height
            for choice in page.locator("#choices button").all()[:-1]:
                expect(choice).to_contain_text(re.compile(r"capacity \d+, height \d+"))


# --- pairing a phone (a server shared with --host 0.0.0.0) ----------------------------------------
# The unpaired page, the pairing link's cookie and the front page's QR code at phone size; the
# screenshots go to the test's folder (pytest --basetemp DIR keeps them where you look).

from playwright.sync_api import BrowserContext  # noqa: E402 - beside the tests that use it

from webapp.access import Access, load_token  # noqa: E402
from webapp.sharing import pairing_link  # noqa: E402


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
    """A new phone (390 x 844): its own cookies, a watch for console errors and failed
    requests."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True)
    page = context.new_page()
    watch = Watch()
    watch.attach(page)
    yield context, page, watch
    watch.quiet(page)
    context.close()
    assert not watch.problems, "\n".join(watch.problems)


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
    no_horizontal_scroll(page)
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
    no_horizontal_scroll(page)
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
        no_horizontal_scroll(page)
        page.screenshot(path=tmp_path / "front-local-phone.png", full_page=True)
    finally:
        server.stop()
