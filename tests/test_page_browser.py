"""The table page in real headless Chromium, driven by roles and accessible names as a player would.

The server is uvicorn in a thread on a socket bound to port 0; the browser is
Debian's chromium-headless-shell (or chromium), never one Playwright downloads.
Without a browser these tests fail and say how to install one. Every request
the page makes is recorded and must go to the server itself. Screenshots of
each state go to test-artifacts/ (git-ignored).
"""

from __future__ import annotations

import json
import re
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
import uvicorn
from playwright.sync_api import Browser, Locator, Page, Playwright, expect, sync_playwright

from taihu.api.app import app
from taihu.scorer import score_hand, settle_table

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
HAND_56 = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"
LUOSHAN_500 = "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E"
EXAMPLE_TABLE: dict[str, Any] = json.loads((ROOT / "examples/tables/normal-win.json").read_text(encoding="utf-8"))
EXAMPLE_NET = {"E": "-120", "S": "+224", "W": "-52", "N": "-52"}
NO_BROWSER = (
    "no Chromium found for the browser tests: run `make browser`, or as root "
    "`apt-get install -y --no-install-recommends chromium-headless-shell`"
)


def browser_path() -> str:
    """Debian's headless Chromium; without one the tests fail (never skip) and say how to get it."""
    path = shutil.which("chromium-headless-shell") or shutil.which("chromium")
    if path is None:
        pytest.fail(NO_BROWSER, pytrace=False)
    return path


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    """uvicorn in-process on a free port; stopped (and its thread joined) after the module."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    web = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=web.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not web.started:
        assert thread.is_alive() and time.monotonic() < deadline, "uvicorn did not start within 10 s"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        web.should_exit = True
        thread.join(timeout=10)
        sock.close()


@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="module")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = playwright.chromium.launch(executable_path=browser_path())
    yield chromium
    chromium.close()


class Visit:
    """One page in a fresh context; records every request it makes."""

    def __init__(self, browser: Browser, base: str, width: int = 360, height: int = 640, locale: str = "en-US"):
        self.base = base
        self.context = browser.new_context(viewport={"width": width, "height": height}, locale=locale)
        self.page = self.context.new_page()
        self.requests: list[str] = []
        self.page.on("request", lambda request: self.requests.append(request.url))

    def open(self, path: str = "/") -> Page:
        self.page.goto(self.base + path)
        expect(self.page.locator("body[data-ready=true]")).to_have_count(1)
        return self.page

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)

    def outside_requests(self) -> list[str]:
        return [url for url in self.requests if not (url.startswith(self.base + "/") or url.startswith("data:"))]


@pytest.fixture
def visit(browser: Browser, server: str) -> Iterator[Visit]:
    seen = Visit(browser, server)
    yield seen
    outside = seen.outside_requests()
    seen.context.close()
    assert not outside, f"the page asked for something outside the server: {outside}"


def score(page: Page, rules: str, hand: str) -> None:
    page.get_by_role("combobox", name="Rules").select_option(rules)
    page.get_by_role("textbox", name="Hand").fill(hand)
    page.get_by_role("button", name="Score").click()


def nets(page: Page) -> Locator:
    """The settlement is one table: a row group of nets, then one of payments."""
    return page.get_by_role("table", name="Nets").get_by_role("rowgroup", name="Nets")


def payments(page: Page) -> Locator:
    return page.get_by_role("table", name="Payments").get_by_role("rowgroup", name="Payments")


def no_horizontal_scroll(page: Page) -> bool:
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_without_a_browser_the_tests_fail_and_say_how_to_install_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    with pytest.raises(pytest.fail.Exception, match=r"make browser.*apt-get install -y --no-install-recommends"):
        browser_path()


# -- score a hand -----------------------------------------------------------------------------


def test_a_typed_hand_shows_its_breakdown(visit: Visit) -> None:
    page = visit.open()
    score(page, "lingxi", HAND_56)
    result = page.get_by_role("status")
    expect(result).to_contain_text("Total: 56")
    for shown in ("财神", "Wildcards held", "对对胡", "All pungs", "财神汇", "5m ×3", "= 28", "× 2", "5m5m5m", "99m"):
        expect(result).to_contain_text(shown)
    expect(page.get_by_role("alert")).to_have_count(0)
    assert no_horizontal_scroll(page)
    visit.shot("score-lingxi-56-en")


def test_a_wildcard_is_shown_as_what_it_stood_for(visit: Visit) -> None:
    page = visit.open()
    score(page, "lingxi", "CC 5m (FFFF) 123p 456p 12s 99s +3s self wild:5m,E seat:W")
    result = page.get_by_role("status")
    expect(result).to_contain_text("Total: 9")
    expect(result).to_contain_text("5m=C")


def test_other_rule_sets_show_their_arithmetic(visit: Visit) -> None:
    page = visit.open()
    score(page, "luoshan", LUOSHAN_500)
    expect(page.get_by_role("status")).to_contain_text("Total: 500")
    expect(page.get_by_role("status")).to_contain_text("62 × 2^3 = 496 → 500")
    tai_item = page.get_by_role("status").get_by_role("listitem").filter(has_text="tai: no chows")
    expect(tai_item).to_contain_text("1 tai")
    visit.shot("score-luoshan-500-en")
    score(page, "jinhua", "1122m 3344p 5566s 7s +7s last-tile wild:9m")
    expect(page.get_by_role("status")).to_contain_text("1 × 4 × 2 = 8")
    expect(page.get_by_role("status")).to_contain_text("Total: 8 bei")
    score(page, "putian", "123m 456m 789p 234s 9s9s9s 5p +5p wild:9s seat:W")
    expect(page.get_by_role("status")).to_contain_text("1 + 3 = 4; ×9 in settlement")


EXAMPLE_HANDS = [
    (path.stem, line.split("#")[0].strip())
    for path in sorted((ROOT / "examples/hands").glob("*.txt"))
    for line in path.read_text(encoding="utf-8").splitlines()
    if line.split("#")[0].strip()
]


def test_every_example_hand_scores_as_the_library_does(visit: Visit) -> None:
    """The page shows the library's total, items and arrangement for each hand of examples/hands/."""
    page = visit.open()
    result = page.get_by_role("status")
    for rules, hand in EXAMPLE_HANDS:
        expected = score_hand(hand, rules=rules)
        score(page, rules, hand)
        expect(result).to_contain_text(f"Read as: {expected.hand}")  # this hand's answer, not the last one's
        expect(result.locator(".total")).to_contain_text(f"Total: {expected.total} ")
        expect(result.locator(".items li")).to_have_count(len(expected.items))
        for group in expected.arrangement:
            expect(result.get_by_role("list", name="Arrangement")).to_contain_text(group)


def test_tapping_tiles_builds_the_hand(visit: Visit) -> None:
    page = visit.open()
    page.get_by_role("combobox", name="Rules").select_option("lingxi")
    tap = {name: page.get_by_role("button", name=name, exact=True) for name in ("5m", "2p", "7p", "3s", "8s", "9m")}
    for name in ("5m", "2p", "7p", "3s", "8s"):
        for _ in range(3):
            tap[name].click()
    tap["9m"].click()
    for flower in ("f1", "f2", "P", "P"):
        page.get_by_role("button", name=flower, exact=True).click()
    page.get_by_role("button", name="Winning tile").click()
    tap["9m"].click()
    page.get_by_role("button", name="Wildcard").click()
    tap["5m"].click()
    page.get_by_role("button", name="E", exact=True).click()
    page.get_by_role("combobox", name="Seat").select_option("S")
    expect(page.get_by_role("textbox", name="Hand")).to_have_value(
        "555m 222777p 333888s 9m f1 f2 P P +9m wild:5m,E seat:S"
    )
    visit.shot("tiles-tapped-en")
    page.get_by_role("button", name="Score").click()
    expect(page.get_by_role("status")).to_contain_text("Total: 56")


def test_melds_and_conditions_from_buttons(visit: Visit) -> None:
    page = visit.open()
    page.get_by_role("combobox", name="Rules").select_option("luoshan")
    page.get_by_role("button", name="Exposed meld").click()
    for _ in range(3):
        page.get_by_role("button", name="E", exact=True).click()
    page.get_by_role("button", name="Concealed kong").click()  # closes [EEE], opens (
    for _ in range(4):
        page.get_by_role("button", name="C", exact=True).click()
    page.get_by_role("button", name="Exposed meld").click()
    for _ in range(3):
        page.get_by_role("button", name="9m", exact=True).click()
    page.get_by_role("button", name="Exposed meld").click()  # closes it
    for tile in ("1p", "1p", "F", "F"):
        page.get_by_role("button", name=tile, exact=True).click()
    page.get_by_role("button", name="Winning tile").click()
    page.get_by_role("button", name="1p", exact=True).click()
    page.get_by_role("button", name="Self-drawn").click()
    expect(page.get_by_role("button", name="Self-drawn")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Flipped tile").click()
    page.get_by_role("button", name="5s", exact=True).click()
    expect(page.get_by_role("textbox", name="Hand")).to_have_value("[EEE] (CCCC) [999m] 11p F F +1p self flip:5s")
    page.get_by_role("button", name="Score").click()
    expect(page.get_by_role("status")).to_contain_text("Total: 500")


def test_the_palette_follows_the_rule_set(visit: Visit) -> None:
    page = visit.open()
    page.get_by_role("combobox", name="Rules").select_option("lingxi")
    expect(page.get_by_role("button", name="f8", exact=True)).to_be_visible()
    page.get_by_role("combobox", name="Rules").select_option("guannan")
    expect(page.get_by_role("button", name="f8", exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name="C", exact=True)).to_have_count(0)
    expect(page.get_by_role("button", name="N", exact=True)).to_be_visible()
    page.get_by_role("combobox", name="Rules").select_option("putian")
    expect(page.get_by_role("button", name="P", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="E", exact=True)).to_have_count(0)


def test_an_error_is_shown_with_its_place(visit: Visit) -> None:
    page = visit.open()
    score(page, "lingxi", "555m 222p 7x7p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S")
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("'7x' at column 11")
    expect(alert.locator("mark")).to_have_text("7x")
    expect(page.get_by_role("status")).to_have_text("")
    visit.shot("error-place-en")


def test_the_column_of_the_error_body_marks_the_place(visit: Visit) -> None:
    """A 422 may carry `column` (API.md, 2026-11-30); the page uses it over the message's "column N"."""
    body = {"detail": "something is wrong at column 2", "code": "unknown_tile", "column": 6}
    visit.page.route(
        "**/score", lambda route: route.fulfill(status=422, content_type="application/json", body=json.dumps(body))
    )
    page = visit.open()
    score(page, "lingxi", "123m 456p")
    expect(page.get_by_role("alert").locator("mark")).to_have_text("4")


def test_a_server_that_does_not_answer_is_said_so(visit: Visit) -> None:
    visit.page.route("**/score", lambda route: route.abort())
    page = visit.open()
    score(page, "lingxi", HAND_56)
    expect(page.get_by_role("alert")).to_contain_text("The server does not answer")


# -- settle a deal ----------------------------------------------------------------------------


def fill_table(page: Page, table: dict[str, Any]) -> None:
    page.get_by_role("combobox", name="Rules").select_option(table["rules"])
    for seat, player in table["players"].items():
        page.get_by_role("textbox", name=seat, exact=True).fill(
            player if isinstance(player, str) else str(player["total"])
        )
    page.get_by_role("textbox", name="Wildcards").fill(",".join(table.get("wild") or []))
    page.get_by_role("combobox", name="Winner").select_option(table["winner"] or "")
    page.get_by_role("combobox", name="Discarder").select_option(table["discarder"] or "")


def test_settling_the_example_table_shows_the_nets(visit: Visit) -> None:
    page = visit.open()
    fill_table(page, EXAMPLE_TABLE)
    page.get_by_role("button", name="Settle").click()
    expect(page.get_by_role("table")).to_have_count(1)
    for seat, net in EXAMPLE_NET.items():
        expect(nets(page).get_by_role("row", name=re.compile(rf"^{seat}\b"))).to_contain_text(net)
    expect(payments(page).get_by_role("row")).to_have_count(6)  # the header and five payments
    expect(payments(page).get_by_role("row", name="E → S 112")).to_contain_text("winner; dealer x2")
    assert no_horizontal_scroll(page)
    visit.shot("settle-example-en")


def test_the_dealer_may_sit_at_any_place(visit: Visit) -> None:
    """With S dealing, S plays as E, W as S, N as W, E as N: the same deal, the nets by place."""
    page = visit.open()
    plays_as = {"S": "E", "W": "S", "N": "W", "E": "N"}
    page.get_by_role("combobox", name="Dealer").select_option("S")
    rotated = {
        **EXAMPLE_TABLE,
        "players": {place: EXAMPLE_TABLE["players"][wind] for place, wind in plays_as.items()},
        "winner": "W",
        "discarder": "N",
    }
    fill_table(page, rotated)
    page.get_by_role("button", name="Settle").click()
    for place, wind in plays_as.items():
        expect(nets(page).get_by_role("row", name=re.compile(rf"^{place}\b"))).to_contain_text(EXAMPLE_NET[wind])
    expect(nets(page).get_by_role("row", name=re.compile(r"^S\b"))).to_contain_text("dealer")
    expect(page.get_by_text("Next dealer: W")).to_be_visible()


def test_a_scored_hand_can_be_put_at_a_seat(visit: Visit) -> None:
    page = visit.open()
    score(page, "lingxi", HAND_56)
    page.get_by_role("button", name="Put this hand at seat S").click()
    expect(page.get_by_role("textbox", name="S", exact=True)).to_have_value(HAND_56)
    expect(page.get_by_role("combobox", name="Winner")).to_have_value("S")
    expect(page.get_by_role("textbox", name="Wildcards")).to_have_value("5m,E")


def test_a_settle_error_marks_the_seat_hand(visit: Visit) -> None:
    page = visit.open()
    table = json.loads(json.dumps(EXAMPLE_TABLE))
    table["players"]["E"] = "[CCC] 123p 456p 7x8s 11s 34p 9s f3"
    fill_table(page, table)
    page.get_by_role("button", name="Settle").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("players.E")
    expect(alert.locator("mark")).to_have_text("7x")


def test_events_are_sent_with_the_table(visit: Visit) -> None:
    page = visit.open()
    table = json.loads((ROOT / "examples/tables/jinhua-liable.json").read_text(encoding="utf-8"))
    fill_table(page, table)
    page.get_by_role("button", name="Add event").click()
    page.get_by_role("combobox", name="Event type").select_option("liable")
    page.get_by_role("combobox", name="Event by").select_option("N")
    page.get_by_role("button", name="Settle").click()
    expect(payments(page)).to_be_visible()
    expected = settle_table(table).net
    for seat, net in expected.items():
        shown = f"+{net}" if net > 0 else str(net)
        expect(nets(page).get_by_role("row", name=re.compile(rf"^{seat}\b"))).to_contain_text(shown)


# -- share a dispute --------------------------------------------------------------------------


def test_a_shared_link_fills_the_page_and_scores(visit: Visit) -> None:
    page = visit.open()
    score(page, "luoshan", LUOSHAN_500)
    expect(page.get_by_role("status")).to_contain_text("Total: 500")
    page.get_by_role("button", name="Copy link").click()
    link = page.get_by_role("textbox", name="Link").input_value()
    assert link.startswith(visit.base + "/#") and "rules=luoshan" in link
    expect(page.get_by_text("Copy the link above.").or_(page.get_by_text("Copied."))).to_be_visible()
    other = visit.context.new_page()
    other.goto(link)
    expect(other.get_by_role("status")).to_contain_text("Total: 500")
    expect(other.get_by_role("textbox", name="Hand")).to_have_value(LUOSHAN_500)
    expect(other.get_by_role("combobox", name="Rules")).to_have_value("luoshan")
    visit.page = other
    visit.shot("shared-link-en")


def test_a_link_carries_house_options(visit: Visit) -> None:
    hand = "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W"
    page = visit.open("/#" + urlencode({"rules": "lingxi", "hand": hand, "o.double_at": 20}))
    expect(page.get_by_role("status")).to_contain_text("Total: 13")  # 平胡 13, not doubled under 20
    page.goto(visit.base + "/#" + urlencode({"rules": "lingxi", "hand": hand, "options": '{"double_at": 10}'}))
    expect(page.get_by_role("status")).to_contain_text("Total: 26")  # options as JSON too
    page.goto(visit.base + "/#" + urlencode({"rules": "lingxi", "hand": hand}))  # the fragment changes: scored again
    expect(page.get_by_role("status")).to_contain_text("Total: 26")
    page.get_by_text("House options", exact=True).click()
    expect(page.get_by_role("combobox", name="double_at")).to_have_value("13")


# -- phone size, languages, no outside requests --------------------------------------------------


def test_controls_are_big_enough_to_tap_and_nothing_scrolls_sideways(visit: Visit) -> None:
    page = visit.open()
    score(page, "lingxi", HAND_56)
    expect(page.get_by_role("status")).to_contain_text("Total: 56")
    fill_table(page, EXAMPLE_TABLE)
    page.get_by_role("button", name="Settle").click()
    expect(nets(page)).to_be_visible()
    assert no_horizontal_scroll(page)
    assert too_small_to_tap(page) == []
    page.get_by_text("House options", exact=True).click()  # Lingxi's options and events
    page.get_by_role("button", name="Add event").click()
    expect(page.get_by_role("combobox", name="double_at")).to_be_visible()
    assert too_small_to_tap(page) == []
    assert no_horizontal_scroll(page)
    visit.shot("options-and-event-en")
    page.get_by_role("combobox", name="Rules").select_option("luoshan")  # flip and wild
    expect(page.get_by_role("button", name="Flipped tile")).to_be_visible()
    assert too_small_to_tap(page) == []
    assert no_horizontal_scroll(page)


def too_small_to_tap(page: Page) -> list[str]:
    """Every visible control is at least 44 × 44 CSS pixels."""
    return list(
        page.evaluate(
            """() => [...document.querySelectorAll('button, select, input, textarea, summary, a')]
                 .filter((e) => e.offsetParent !== null)
                 .map((e) => [e.getAttribute('aria-label') || e.textContent.trim(), e.getBoundingClientRect()])
                 .filter(([, r]) => r.width < 44 || r.height < 44)
                 .map(([name, r]) => `${name} ${Math.round(r.width)}x${Math.round(r.height)}`)"""
        )
    )


def test_chinese_by_the_browser_language(browser: Browser, server: str) -> None:
    seen = Visit(browser, server, locale="zh-CN")
    try:
        page = seen.open()
        expect(page.get_by_role("button", name="Score")).to_have_text("计分 Score")
        score(page, "lingxi", HAND_56)
        expect(page.get_by_role("status")).to_contain_text("合计: 56 台")
        seen.shot("score-lingxi-56-zh")
        fill_table(page, EXAMPLE_TABLE)
        page.get_by_role("button", name="Settle").click()
        expect(nets(page)).to_contain_text("+224")
        assert no_horizontal_scroll(page)
        assert too_small_to_tap(page) == []
        seen.shot("settle-example-zh")
        page.get_by_role("button", name="中文 / English").click()
        expect(page.get_by_role("button", name="Score")).to_have_text("Score")
        assert seen.outside_requests() == []
    finally:
        seen.context.close()


def test_the_language_toggle_and_desktop_width(browser: Browser, server: str) -> None:
    seen = Visit(browser, server, width=1280, height=900)
    try:
        page = seen.open()
        page.get_by_role("button", name="中文 / English").click()
        expect(page.get_by_role("heading", name="算一手牌")).to_be_visible()
        score(page, "luoshan", LUOSHAN_500)
        expect(page.get_by_role("status")).to_contain_text("合计: 500 胡")
        assert no_horizontal_scroll(page)
        seen.shot("score-luoshan-desktop-zh")
    finally:
        seen.context.close()


def test_docs_work_offline(visit: Visit) -> None:
    page = visit.page
    page.goto(visit.base + "/docs")
    expect(page.get_by_text("/score").first).to_be_visible()
    visit.shot("docs")


# -- what wins: the button appears once the server offers POST /waits ---------------------------


def test_waits_lists_the_winning_tiles_with_their_totals(visit: Visit) -> None:
    """A hand without a winning tile: the Waits button asks the server, the table shows each tile's totals."""
    page = visit.open()
    page.get_by_role("textbox", name="Hand").fill("123m 456m 789p 234s 678s 5p wild:9s,N seat:W")
    page.get_by_role("button", name="Waits").click()
    waits = page.get_by_role("status").get_by_role("table")
    five_pin = waits.get_by_role("row", name=re.compile(r"^5p"))
    expect(five_pin).to_contain_text("26")  # 平胡 13, doubled, on a discard
    expect(five_pin).to_contain_text("28")  # self-drawn
    expect(waits.get_by_role("row", name=re.compile(r"^9s"))).to_contain_text("3")
    visit.shot("waits-lingxi-en")


def test_copy_link_puts_the_link_on_the_clipboard(browser: Browser, server: str) -> None:
    seen = Visit(browser, server)
    try:
        seen.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
        page = seen.open()
        score(page, "lingxi", HAND_56)
        page.get_by_role("button", name="Copy link").click()
        expect(page.get_by_text("Copied.")).to_be_visible()
        link = page.evaluate("navigator.clipboard.readText()")
        assert link == page.get_by_role("textbox", name="Link").input_value() == page.url
        assert "hand=555m" in link
    finally:
        seen.context.close()


def test_the_place_is_marked_in_what_the_player_typed(visit: Visit) -> None:
    page = visit.open()
    score(page, "lingxi", "   123m x")
    expect(page.get_by_role("alert").locator("mark")).to_have_text("x")
    expect(page.get_by_role("textbox", name="Hand")).to_have_value("123m x")
