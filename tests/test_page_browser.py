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
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
import uvicorn
from api_app import app as taihu_app
from playwright.sync_api import Browser, Locator, Page, Playwright, expect, sync_playwright

from taihu.scorer import score_hand, settle_table
from taihu.scorer.arithmetic_lines import arithmetic
from taihu.scorer.rulesets import REGISTRY, RULESETS

ROOT = Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "test-artifacts"
HAND_56 = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"
LUOSHAN_500 = "[EEE] (CCCC) [999m] 11p FF +1p self flip:5s seat:E"
SCORE_URL = re.compile(r"/score(\?|$)")  # what the page posts a hand to (it asks for `?arithmetic=true`)
RIICHI_13000 = "234567m 234p 88p 67s +8s seat:S round:E self riichi dora:1p ura:7s sticks:1"
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
    web = uvicorn.Server(uvicorn.Config(taihu_app, log_level="warning", lifespan="off"))
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
        self.refused: list[str] = []  # what the security policy blocked
        self.page.on("console", self.watch)

    def watch(self, message: Any) -> None:
        if message.type == "error" and "Content Security Policy" in message.text:
            self.refused.append(message.text)

    def open(self, path: str = "/") -> Page:
        self.page.goto(self.base + path)
        expect(self.page.locator("body[data-ready=true]")).to_have_count(1)
        return self.page

    def shot(self, name: str, of: Locator | None = None) -> None:
        """The whole page, or only the part `of` shows (a section is easier to read than a long page)."""
        ARTIFACTS.mkdir(exist_ok=True)
        if of is not None:
            of.screenshot(path=str(ARTIFACTS / f"{name}.png"))
        else:
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
    assert not seen.refused, f"the security policy blocked part of the page: {seen.refused}"


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


def arithmetic_lines(page: Page) -> Locator:
    return page.get_by_role("status").get_by_role("list", name="Arithmetic").get_by_role("listitem")


def test_the_page_shows_the_core_s_arithmetic(visit: Visit) -> None:
    """The lines are the core's (`?arithmetic=true`), one step a line: the page computes none of them."""
    page = visit.open()
    score(page, "luoshan", LUOSHAN_500)
    expect(page.get_by_role("status")).to_contain_text("Total: 500")
    expect(arithmetic_lines(page)).to_have_text(
        ["hu: 4 + 4 + 32 + 2 + 10 + 10 = 62", "tai: 1 + 1 + 1 = 3", "62 hu × 2³ = 496 → 500 hu"]
    )
    tai_item = page.get_by_role("status").get_by_role("listitem").filter(has_text="tai: no chows")
    expect(tai_item).to_contain_text("1 tai")
    visit.shot("score-luoshan-500-en")
    for rules, hand in (
        ("jinhua", "1122m 3344p 5566s 7s +7s last-tile wild:9m"),
        ("putian", "123m 456m 789p 234s 9s9s9s 5p +5p wild:9s seat:W"),
        ("lingxi", HAND_56),
    ):
        score(page, rules, hand)
        expect(arithmetic_lines(page)).to_have_text(arithmetic(score_hand(hand, rules=rules)))
        assert no_horizontal_scroll(page)  # a long line (Putian's payers) wraps on a phone
    expect(arithmetic_lines(page)).to_have_text(
        ["3 + 3 + 8 + 7 + 7 = 28 tai", "doubled (≥ double_at): 28 × 2 = 56 tai"]
    )


def test_riichi_items_count_han_in_either_language(visit: Visit) -> None:
    page = visit.open()
    score(page, "riichi", RIICHI_13000)
    expect(page.get_by_role("status").locator(".items .value").first).to_have_text(re.compile(r"^\d+ han$"))
    page.get_by_role("button", name="中文 / English").click()
    page.get_by_role("button", name="Score").click()
    expect(page.get_by_role("status").locator(".items .value").first).to_have_text(re.compile(r"^\d+ 番$"))


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
        headline = "Base" if rules == "putian" and expected.winner and expected.legal else "Total"  # the base, paid ×N
        expect(result.locator(".total").last).to_contain_text(f"{headline}: {expected.total} ")
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
    """A 422 may carry `column` (docs/api.md); the page uses it over the message's "column N"."""
    body = {"detail": "something is wrong at column 2", "code": "unknown_tile", "column": 6}
    visit.page.route(
        SCORE_URL, lambda route: route.fulfill(status=422, content_type="application/json", body=json.dumps(body))
    )
    page = visit.open()
    score(page, "lingxi", "123m 456p")
    expect(page.get_by_role("alert").locator("mark")).to_have_text("4")


def test_the_page_asks_in_its_language_and_shows_the_message_and_hint(browser: Browser, server: str) -> None:
    """Each request names the page's language; an error shows its `message` (not the older `detail`) and its
    `hint`; switching the language asks for the shown score again, in the other language."""
    body = {"code": "tile_count", "message": "手牌有 9 张", "detail": "hand has 9 tiles", "column": None}
    body |= {"seat": None, "player": None, "field": None, "hint": "写 16 张牌"}
    asked: list[str] = []

    def answer(route: Any) -> None:
        asked.append(route.request.url)
        route.fulfill(status=422, content_type="application/json", body=json.dumps(body, ensure_ascii=False))

    seen = Visit(browser, server, locale="zh-CN")
    try:
        seen.page.route(SCORE_URL, answer)
        page = seen.open()
        score(page, "lingxi", "123m 456p 789s")
        alert = page.get_by_role("alert")
        expect(alert).to_contain_text("手牌有 9 张")
        expect(alert).to_contain_text("写 16 张牌")
        expect(alert).not_to_contain_text("hand has 9 tiles")
        with page.expect_request(SCORE_URL) as again:
            page.get_by_role("button", name="中文 / English").click()
        assert again.value.url.endswith("&lang=en")  # after `?arithmetic=true`
        assert asked[0].endswith("&lang=zh")
        assert [url for url in seen.requests if "/rules" in url][0].endswith("?lang=zh")
    finally:
        seen.context.close()


def test_a_server_that_does_not_answer_is_said_so(visit: Visit) -> None:
    visit.page.route(SCORE_URL, lambda route: route.abort())
    page = visit.open()
    score(page, "lingxi", HAND_56)
    expect(page.get_by_role("alert")).to_contain_text("The server does not answer")


# -- the rules reference (规则速查) -------------------------------------------------------------

PING_HU = "123m 456m 789p 234s 678s 5p +5p wild:9s,N seat:W"  # Lingxi's 平胡, which excludes 硬打硬


def rules_reference(page: Page) -> Locator:
    return page.get_by_role("dialog", name="Rules reference")


def dialog_fits(page: Page) -> bool:
    """Nothing in the open dialog is wider than it (a phone's 360 px)."""
    return bool(page.evaluate("(d => d.scrollWidth <= d.clientWidth)(document.querySelector('dialog[open]'))"))


def test_a_scored_item_opens_its_entry_in_the_rules_reference_in_either_language(browser: Browser, server: str) -> None:
    """Tap 平胡 in the breakdown: the reference opens at 平胡, in view and marked, with its value, unit and whom
    it counts for (the rules answer's), what it excludes (硬打硬) and the rule's sentence; 硬打硬's entry says
    what excludes it. In Chinese, then in English."""
    zh = next(i for i in RULESETS["lingxi"].info().to_dict("zh")["items"] if i["key"] == "ping_hu")
    info = RULESETS["lingxi"].info()
    at = next(n for n, keys in enumerate(info.exclusion_keys) if keys.present == ["ping_hu"])
    assert info.exclusion_keys[at].removes == ["ying_da_ying"]
    rule = info.exclusion_rules[at]
    seen = Visit(browser, server, locale="zh-CN")
    try:
        page = seen.open()
        score(page, "lingxi", PING_HU)
        expect(page.get_by_role("status")).to_contain_text("合计: 26 台")
        page.get_by_role("status").get_by_role("button", name=re.compile(r"^平胡")).click()
        reference = rules_reference(page)
        expect(reference).to_be_visible()
        expect(reference.get_by_role("heading", name="规则速查 Rules reference")).to_be_visible()
        entry = reference.get_by_role("article", name="平胡", exact=True)
        expect(entry).to_have_attribute("aria-current", "true")
        expect(entry).to_be_in_viewport()
        expect(entry).to_be_focused()
        expect(entry.get_by_role("definition")).to_have_text([zh["value"], "台", zh["scope"]])
        expect(entry).to_contain_text("不再计：硬打硬")
        expect(entry).to_contain_text(f"规则原文：{rule}")
        assert dialog_fits(page) and too_small_to_tap(page) == []
        seen.shot("rules-reference-ping-hu-zh", of=reference)

        entry.get_by_role("button", name="硬打硬", exact=True).click()  # what it excludes, followed
        excluded = reference.get_by_role("article", name="硬打硬", exact=True)
        expect(excluded).to_have_attribute("aria-current", "true")
        expect(entry).not_to_have_attribute("aria-current", "true")
        expect(excluded).to_be_in_viewport()
        expect(excluded).to_contain_text("有以下时不计：平胡")
        expect(excluded).to_contain_text(rule)

        reference.get_by_role("button", name="Close").click()
        expect(reference).to_be_hidden()
        page.get_by_role("button", name="中文 / English").click()  # the shown score is asked for again, in English
        expect(page.get_by_role("status")).to_contain_text("Total: 26 tai")
        page.get_by_role("status").get_by_role("button", name=re.compile(r"^平胡")).click()
        entry = reference.get_by_role("article", name="平胡 Plain hand", exact=True)
        expect(entry).to_have_attribute("aria-current", "true")
        expect(entry).to_be_in_viewport()
        expect(entry).to_contain_text("ping_hu")
        expect(entry.get_by_role("definition")).to_have_text([zh["value"], "tai", "the winner"])
        expect(entry).to_contain_text("Excludes: 硬打硬 No wildcard held")
        expect(entry).to_contain_text(f"The rule: {rule}")
        assert dialog_fits(page) and too_small_to_tap(page) == []
        seen.shot("rules-reference-ping-hu-en", of=reference)
        assert seen.outside_requests() == []
    finally:
        seen.context.close()


def test_each_rule_set_s_reference_lists_every_item_and_option_of_the_rules_answer(visit: Visit) -> None:
    """The Rules button opens the chosen rule set's reference: an entry per item of GET /v1/rules, in its order
    (a key twice where a rule set has it twice) and named by its names, and one per house option."""
    answer = {r["name"]: r for r in json.loads(served(visit.base, "/v1/rules?lang=en"))}
    page = visit.open()
    reference = rules_reference(page)
    for name in REGISTRY:
        info = answer[name]
        page.get_by_role("combobox", name="Rules").select_option(name)
        page.get_by_role("button", name="Rules", exact=True).click()
        expect(reference).to_contain_text(f"{name[0].upper()}{name[1:]} {info['chinese']}")
        items = reference.get_by_role("list", name="Items").get_by_role("article")
        expect(items).to_have_count(len(info["items"]))
        assert [entry.get_attribute("data-key") for entry in items.all()] == [i["key"] for i in info["items"]]
        for entry, item in zip(items.all(), info["items"], strict=True):
            expect(entry).to_have_accessible_name(f"{item['name']} {item['name_en']}")
        options = reference.get_by_role("list", name="House options").get_by_role("article")
        expect(options).to_have_count(len(info["options"]))
        assert [o.get_attribute("data-option") for o in options.all()] == [o["name"] for o in info["options"]]
        assert dialog_fits(visit.page)
        reference.get_by_role("button", name="Close").click()
        expect(reference).to_be_hidden()


# -- settle a deal ----------------------------------------------------------------------------


def fill_table(page: Page, table: dict[str, Any]) -> None:
    """The table's seats are the form's places (its boxes in order, E S W N), whoever deals: each box's name is
    the wind it plays this deal, so the boxes are found by place."""
    page.get_by_role("combobox", name="Rules").select_option(table["rules"])
    for seat, player in table["players"].items():
        page.locator(f"#seat-{seat}").fill(player if isinstance(player, str) else str(player["total"]))
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
    expect(payments(page).get_by_role("row", name="E 东 → S 南 112")).to_contain_text("winner; dealer x2")
    assert no_horizontal_scroll(page)
    visit.shot("settle-example-en")


def test_the_dealer_may_sit_at_any_place(visit: Visit) -> None:
    """With S dealing, S plays as E, W as S, N as W, E as N: the same deal; every box, option and row is named
    by the wind it plays (the dealer is E 东), in the places' order."""
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
    expect(page.locator("label[for=seat-S]")).to_have_text("E 东 (dealer)")
    expect(page.locator("label[for=seat-E]")).to_have_text("N 北")
    expect(page.get_by_role("textbox", name="E 东 (dealer)")).to_have_value(EXAMPLE_TABLE["players"]["E"])
    expect(page.get_by_role("combobox", name="Winner").locator("option:checked")).to_have_text("S 南")
    page.get_by_role("button", name="Settle").click()
    rows = nets(page).get_by_role("row")
    expect(rows).to_have_text([re.compile(r"^Seat"), *(re.compile(rf"^{plays_as[place]} ") for place in "ESWN")])
    for wind in plays_as.values():
        expect(nets(page).get_by_role("row", name=re.compile(rf"^{wind}\b"))).to_contain_text(EXAMPLE_NET[wind])
    expect(nets(page).get_by_role("row", name=re.compile(r"^E\b"))).to_contain_text("dealer")
    expect(page.get_by_text("Next dealer: S 南")).to_be_visible()


def test_a_scored_hand_can_be_put_at_a_seat(visit: Visit) -> None:
    page = visit.open()
    score(page, "lingxi", HAND_56)
    page.get_by_role("button", name="Put this hand at seat S").click()
    expect(page.get_by_role("textbox", name="S 南", exact=True)).to_have_value(HAND_56)
    expect(page.get_by_role("combobox", name="Winner")).to_have_value("S")
    expect(page.get_by_role("textbox", name="Wildcards")).to_have_value("5m,E")


def test_a_settle_error_marks_the_seat_hand(visit: Visit) -> None:
    page = visit.open()
    table = json.loads(json.dumps(EXAMPLE_TABLE))
    table["players"]["E"] = "[CCC] 123p 456p 7x8s 11s 34p 9s f3"
    fill_table(page, table)
    page.get_by_role("button", name="Settle").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("E 东: tiles '7x'")  # the seat as its box is labelled
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


def test_redoc_works_offline(browser: Browser, server: str) -> None:
    """ReDoc runs under its policy; the one thing refused is its logo from its CDN (an outside request)."""
    seen = Visit(browser, server)
    try:
        seen.page.goto(seen.base + "/redoc")
        expect(seen.page.get_by_text("Score one hand line").first).to_be_visible()
        seen.shot("redoc")
    finally:
        seen.context.close()
    assert all("cdn.redoc.ly" in refused for refused in seen.refused), seen.refused
    assert [url for url in seen.outside_requests() if not url.startswith("blob:")] == [
        "https://cdn.redoc.ly/redoc/logo-mini.svg"
    ]


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


# -- the evening's ledger ------------------

PLAYERS = ("甲", "乙", "丙", "丁")
# 丁 (at place N) wins on 甲's (place E) discard: docs/ledger.md's deal 3, seated as after deal 1.
SECOND_DEAL = {
    "rules": "lingxi",
    "wild": ["5m", "E"],
    "winner": "N",
    "discarder": "E",
    "players": {
        "E": {"total": 3},
        "S": {"total": 0},
        "W": {"total": 5},
        "N": "555m 222p 777p 333s 888s 9m f1 f2 P P +9m",
    },
}


def ledger_region(page: Page) -> Locator:
    return page.get_by_role("region", name="Ledger")


def start_ledger(page: Page, players: tuple[str, ...] = PLAYERS) -> str:
    """Types the four names, presses New ledger; answers the id the read-only link carries."""
    region = ledger_region(page)
    for number, name in enumerate(players, start=1):
        region.get_by_role("textbox", name=f"Player {number}").fill(name)
    region.get_by_role("button", name="New ledger").click()
    link = region.get_by_role("link", name=re.compile(r"#ledger="))
    expect(link).to_be_visible()
    return str(link.get_attribute("href")).split("#ledger=")[1]


def served(base: str, path: str) -> str:
    """What the server answers a plain GET, outside the browser."""
    with urllib.request.urlopen(base + path, timeout=10) as reply:
        return str(reply.read().decode("utf-8"))


def shown_totals(page: Page) -> dict[str, int]:
    """The totals row of the deals table, by the players named in its header."""
    deals = ledger_region(page).get_by_role("table", name="Deals")
    names = deals.locator("thead th").all_inner_texts()[1:]
    totals = deals.get_by_role("row", name=re.compile(r"^Total")).get_by_role("cell").all_inner_texts()
    return {name: int(total) for name, total in zip(names, totals, strict=True)}


def test_an_evening_ledger_kept_from_the_page(visit: Visit, browser: Browser, ledger_db: Path) -> None:
    page = visit.open()
    region = ledger_region(page)
    expect(region.get_by_role("button", name="Add deal")).to_have_count(0)  # no ledger yet
    ledger_id = start_ledger(page)
    assert ledger_db.exists(), "the test server must write the test's own ledger database"
    token = page.evaluate("JSON.parse(localStorage.getItem('taihu.ledgerTokens'))")[ledger_id]
    assert page.evaluate("JSON.parse(localStorage.getItem('taihu.ledger'))") == ledger_id
    assert token not in str(region.get_by_role("link", name=re.compile(r"#ledger=")).get_attribute("href"))
    expect(region).to_contain_text("Next to deal: 甲")

    fill_table(page, EXAMPLE_TABLE)
    region.get_by_role("button", name="Add deal").click()
    expect(region).to_contain_text("Deal 1 added: 乙 won on 丙's discard.")
    assert shown_totals(page) == {"甲": -120, "乙": 224, "丙": -52, "丁": -52}
    expect(page.get_by_role("combobox", name="Dealer")).to_have_value("S")  # 乙 deals deal 2
    expect(page.get_by_role("textbox", name="E 东 · 乙 (dealer)", exact=True)).to_be_visible()
    expect(page.locator("label[for=seat-S]")).to_have_text("E 东 · 乙 (dealer)")  # 乙 sits at place S, plays E

    fill_table(page, SECOND_DEAL)
    region.get_by_role("button", name="Add deal").click()
    expect(region).to_contain_text("Deal 2 added: 丁 won on 甲's discard.")
    assert shown_totals(page) == {"甲": -172, "乙": 96, "丙": -96, "丁": 172}
    expect(region.get_by_role("row", name=re.compile(r"^2 "))).to_contain_text("N -52")  # 甲 sat N in deal 2
    assert no_horizontal_scroll(page)
    assert too_small_to_tap(page) == []
    visit.shot("ledger-two-deals-en")
    visit.shot("ledger-two-deals-en-section", of=region)
    assert_trend_drawn(region, {"甲": -172, "乙": 96, "丙": -96, "丁": 172}, deals=2)
    visit.shot("ledger-trend-en", of=region.get_by_role("img", name="Running totals"))

    region.get_by_role("button", name="Undo last deal").click()
    asked = page.get_by_role("dialog", name="Undo deal 2 (丁 won on 甲's discard)?")
    asked.get_by_role("button", name="Undo it").click()
    expect(region).to_contain_text("Deal 2 removed: 丁 won on 甲's discard.")
    served_ledger = json.loads(served(visit.base, f"/ledgers/{ledger_id}"))
    assert len(served_ledger["deals"]) == 1
    assert shown_totals(page) == served_ledger["totals"] == {"甲": -120, "乙": 224, "丙": -52, "丁": -52}
    expect(region).to_contain_text(f"Next to deal: {served_ledger['next_dealer']}")
    csv_link = region.get_by_role("link", name="Download CSV")
    assert csv_link.get_attribute("href") == f"ledgers/{ledger_id}.csv"
    assert served(visit.base, f"/ledgers/{ledger_id}.csv").splitlines()[1].startswith("1,甲,E,甲,-120,-120,乙,")

    # The link carries only the id: another phone, without the token, reads the ledger and cannot change it.
    reader = Visit(browser, visit.base, locale="zh-CN")
    try:
        other = reader.open(f"/#ledger={ledger_id}")
        shared = ledger_region(other)
        expect(shared).to_contain_text("只读")
        for button in ("Add deal", "Undo last deal"):
            expect(shared.get_by_role("button", name=button)).to_have_count(0)
        totals = shared.get_by_role("table").get_by_role("row", name=re.compile(r"^合计 Total"))
        expect(totals).to_have_text(re.compile(r"-120\s*\+224\s*-52\s*-52"))
        assert no_horizontal_scroll(other)
        chart = shared.get_by_role("img", name="累计走势 Running totals")
        expect(chart).to_have_accessible_description(re.compile(r"1 局.*甲 -120, 乙 \+224, 丙 -52, 丁 -52"))
        reader.shot("ledger-read-only-zh", of=shared)
        assert reader.outside_requests() == []
    finally:
        reader.context.close()


def assert_trend_drawn(region: Locator, totals: dict[str, int], deals: int) -> None:
    """The running totals as a picture: named and described, a line a player from 0 through each deal,
    a higher total drawn higher, and as wide as the page."""
    chart = region.get_by_role("img", name="Running totals")
    expect(chart).to_be_visible()
    described = ", ".join(f"{p} {n:+d}" if n else f"{p} 0" for p, n in totals.items())
    expect(chart).to_have_accessible_description(
        f"Each player's running total after each of {deals} deals. After the last: {described}."
    )
    lines = {
        line.get_attribute("data-player"): line.get_attribute("points") for line in chart.locator("polyline").all()
    }
    assert set(lines) == set(totals)
    ends = {}
    for player, points in lines.items():
        pairs = [tuple(map(float, xy.split(","))) for xy in str(points).split()]
        assert len(pairs) == deals + 1  # before the first deal, then after each
        ends[player] = pairs[-1][1]
    assert len({pairs for pairs in lines.values()}) == len(totals)  # no two lines drawn as one
    by_total = sorted(totals, key=lambda p: totals[p])
    by_height = sorted(ends, key=lambda p: -ends[p])  # SVG's y grows downwards
    assert [totals[p] for p in by_total] == [totals[p] for p in by_height]
    box = chart.bounding_box()
    assert box is not None and box["width"] >= 300  # readable on a 360 px phone: the page's width, not a thumbnail


def test_a_refused_deal_changes_nothing_and_says_why(visit: Visit) -> None:
    page = visit.open()
    region = ledger_region(page)
    ledger_id = start_ledger(page)
    typo = json.loads(json.dumps(EXAMPLE_TABLE))
    typo["players"]["E"] = "[CCC] 123p 456p 7x8s 11s 34p 9s f3"
    fill_table(page, typo)
    region.get_by_role("button", name="Add deal").click()
    alert = page.get_by_role("alert")
    expect(alert).to_contain_text("players.甲")  # the page names the players: the message names 甲, who sat at E
    expect(alert.locator("mark")).to_have_text("7x")  # the place, in the seat's hand as for Settle
    visit.shot("ledger-refused-en", of=region)

    fill_table(page, EXAMPLE_TABLE)
    page.get_by_role("combobox", name="Dealer").select_option("W")  # but the ledger says 甲 (at E) deals
    region.get_by_role("button", name="Add deal").click()
    expect(alert).to_contain_text("the ledger says 甲 deals this deal (place E)")
    expect(page.get_by_role("combobox", name="Dealer")).to_have_value("E")

    page.evaluate(f"localStorage.setItem('taihu.ledgerTokens', JSON.stringify({{'{ledger_id}': 'not-the-token'}}))")
    page.reload()
    expect(page.locator("body[data-ready=true]")).to_have_count(1)
    fill_table(page, EXAMPLE_TABLE)
    region.get_by_role("button", name="Add deal").click()
    expect(alert).to_contain_text("this ledger is read-only here: you don't have its edit token")
    expect(region.get_by_role("table", name="Deals")).to_contain_text("No deals yet.")
    assert json.loads(served(visit.base, f"/ledgers/{ledger_id}"))["deals"] == []


def test_names_that_cannot_be_players_are_refused(visit: Visit) -> None:
    page = visit.open()
    region = ledger_region(page)
    region.get_by_role("textbox", name="Player 2").fill("E")
    region.get_by_role("button", name="New ledger").click()
    expect(page.get_by_role("alert")).to_contain_text("'E' is a wind")
    expect(region.get_by_role("button", name="Add deal")).to_have_count(0)


def test_a_deal_goes_to_the_players_named_even_if_another_phone_added_one(visit: Visit) -> None:
    """The page sends players' names, so each hand lands with its player whoever the ledger says deals."""
    page = visit.open()
    ledger_id = start_ledger(page)
    token = page.evaluate("JSON.parse(localStorage.getItem('taihu.ledgerTokens'))")[ledger_id]
    deal1 = {**EXAMPLE_TABLE, "players": dict(zip(PLAYERS, EXAMPLE_TABLE["players"].values(), strict=True))}
    deal1 |= {"winner": "乙", "discarder": "丙"}
    meanwhile = urllib.request.Request(
        f"{visit.base}/ledgers/{ledger_id}/deals",
        data=json.dumps(deal1).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    urllib.request.urlopen(meanwhile, timeout=10).close()  # 乙 won: 乙 deals next, the page does not know yet
    fill_table(page, EXAMPLE_TABLE)  # the page still shows 甲 dealing: 乙 (place S) wins on 丙's (place W) discard
    ledger_region(page).get_by_role("button", name="Add deal").click()
    expect(ledger_region(page)).to_contain_text("Deal 2 added: 乙 won on 丙's discard.")
    deal2 = json.loads(served(visit.base, f"/ledgers/{ledger_id}"))["deals"][1]
    assert deal2["dealer"] == "乙" and deal2["seats"][deal2["table"]["winner"]] == "乙"
    assert shown_totals(page) == json.loads(served(visit.base, f"/ledgers/{ledger_id}"))["totals"]
    expect(nets(page).get_by_role("row", name=re.compile(r"^E 东 · 乙"))).to_contain_text("dealer")  # as it was settled


def test_a_keeper_reads_another_ledger_and_comes_back_to_their_own(visit: Visit) -> None:
    page = visit.open()
    region = ledger_region(page)
    mine = start_ledger(page, ("Ann", "Bo", "Cy", "Di"))
    new = urllib.request.Request(
        f"{visit.base}/ledgers",
        data=json.dumps({"rules": "lingxi", "players": list(PLAYERS)}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(new, timeout=10) as reply:
        theirs = json.loads(reply.read())["id"]
    page.goto(f"{visit.base}/#ledger={theirs}")  # the hash changes: their ledger, read-only here
    expect(region.get_by_role("table", name="Deals")).to_contain_text("甲")
    expect(region.get_by_role("button", name="Add deal")).to_have_count(0)
    region.get_by_role("button", name="Back to my ledger").click()
    expect(region.get_by_role("table", name="Deals")).to_contain_text("Ann")
    expect(region.get_by_role("button", name="Add deal")).to_be_visible()
    expect(page.locator("label[for=seat-E]")).to_have_text("E 东 · Ann (dealer)")

    page.goto(f"{visit.base}/#ledger={'x' * 24}")  # a link to a ledger this server does not have
    expect(page.get_by_role("alert")).to_contain_text(f"no ledger with id '{'x' * 24}'")
    assert page.evaluate("localStorage.getItem('taihu.ledger')") is None  # forgotten; the form to start one stays
    expect(region.get_by_role("button", name="New ledger")).to_be_visible()
    assert mine in page.evaluate("localStorage.getItem('taihu.ledgerTokens')")
