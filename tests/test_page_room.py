"""The table's room on the page, in headless Chromium: four phones keep one ledger (the owner invites by a
join link and its QR code, the others join as scorers), each sees the others' deals live, one records two
deals offline that wait in a queue and go in once, in order; a waiting deal another phone got in before is
sent as the next or dropped, as its phone says; a private ledger is live too (the stream read with the
phone's token in a header), the owner's devices and read links follow the stream, and a revoked phone's
stream ends; the page installs (manifest, icons, a service worker) and opens with the server stopped.
Driven by role and accessible name, as tests/test_page_browser.py does, on its server and browser.
"""

from __future__ import annotations

import json
import re
import struct
import time
import urllib.request
from pathlib import Path
from typing import Any

from live_server import live_server
from playwright.sync_api import Browser, Locator, Page, expect
from qr_read import read_qr
from test_page_browser import (  # noqa: F401  (the module's fixtures: its server and browser)
    Visit,
    browser,
    fill_table,
    ledger_region,
    no_horizontal_scroll,
    playwright,
    served,
    server,
    shown_totals,
    start_ledger,
    too_small_to_tap,
)

from taihu.scorer import settle_table

LIVE_S = 1.0  # a deal recorded on one phone shows on the others within this, without a tap
NAMES = ("甲", "乙", "丙", "丁")


def deal_at(winner: str, discarder: str | None, totals: tuple[int, int, int, int]) -> dict[str, Any]:
    """A deal by the form's places (E S W N: the ledger's players in table order), each hand a total."""
    players = {place: {"total": n} for place, n in zip("ESWN", totals, strict=True)}
    return {"rules": "lingxi", "players": players, "winner": winner, "discarder": discarder}


# who wins on whose discard, by place: 甲, 乙, 丙, 丁 each record one, then 丁's phone two more offline
DEALS = [
    deal_at("S", "W", (0, 6, 2, 0)),
    deal_at("W", "E", (1, 0, 5, 0)),
    deal_at("N", None, (0, 3, 0, 8)),
    deal_at("E", "N", (7, 0, 0, 2)),
    deal_at("S", None, (0, 4, 0, 0)),
    deal_at("W", "S", (2, 0, 9, 0)),
]


def deal_rows(page: Page) -> Locator:
    return ledger_region(page).get_by_role("table", name="Deals").locator("tbody tr")


def modules(path: str) -> list[list[bool]]:
    """The QR code's dark modules from its SVG path (`M x y h1v1h-1z` a module, offset by the quiet zone)."""
    spots = [(int(x), int(y)) for x, y in re.findall(r"M(\d+) (\d+)h1v1h-1z", path)]
    size = max(max(x, y) for x, y in spots) - 3  # the finder patterns reach the last row and column
    grid = [[False] * size for _ in range(size)]
    for x, y in spots:
        grid[y - 4][x - 4] = True
    return grid


def api(base: str, path: str) -> Any:
    return json.loads(served(base, path))


def expected_totals(ledger: dict[str, Any]) -> dict[str, int]:
    """Each stored deal settled again by the library, its nets summed by player."""
    totals = dict.fromkeys(ledger["players"], 0)
    for deal in ledger["deals"]:
        for wind, net in settle_table(deal["table"]).net.items():
            totals[deal["seats"][wind]] += net
    return totals


def record(page: Page, deal: dict[str, Any]) -> None:
    fill_table(page, deal)
    ledger_region(page).get_by_role("button", name="Add deal").click()


def test_four_phones_keep_one_ledger_live_and_offline(browser: Browser, server: str) -> None:  # noqa: F811
    sizes = [(360, 640), (390, 844), (360, 640), (390, 844)]
    phones = [Visit(browser, server, width=w, height=h) for w, h in sizes]
    try:
        owner = phones[0].open()
        ledger_id = start_ledger(owner, NAMES)
        room = ledger_region(owner)
        room.get_by_role("button", name="Invite").click()
        link = str(room.get_by_role("link", name=re.compile(r"#join=")).get_attribute("href"))
        assert link.startswith(f"{server}/#join={ledger_id}:")
        code = room.get_by_role("img", name="QR code of the join link")
        expect(code).to_be_visible()
        assert read_qr(modules(str(code.locator("path").get_attribute("d")))) == link  # a scanner reads the link
        assert no_horizontal_scroll(owner)
        phones[0].shot("room-invite-en", of=room)

        pages = [owner]
        for visit, name in zip(phones[1:], NAMES[1:], strict=True):
            page = visit.open(link.removeprefix(server))
            ledger_region(page).get_by_role("textbox", name="Phone's name").fill(f"{name}的手机")
            ledger_region(page).get_by_role("button", name="Join").click()
            expect(ledger_region(page)).to_contain_text("This phone records deals in this ledger now.")
            expect(ledger_region(page).get_by_role("button", name="Add deal")).to_be_visible()
            assert f"#ledger={ledger_id}" in page.url  # the code is not left in the address
            pages.append(page)
        for name in NAMES[1:]:  # the owner sees the three phones (each join an event of its stream)
            expect(room.get_by_role("button", name=f"Revoke {name}的手机")).to_be_visible(timeout=LIVE_S * 1000)
        expect(ledger_region(pages[1]).get_by_role("button", name="Invite")).to_have_count(0)  # owner only

        for number, (page, deal) in enumerate(zip(pages, DEALS, strict=False), start=1):
            record(page, deal)
            expect(ledger_region(page)).to_contain_text(f"Deal {number} added:")
            started = time.monotonic()
            for other in pages:
                expect(deal_rows(other)).to_have_count(number, timeout=LIVE_S * 1000)
            assert time.monotonic() - started < LIVE_S * 2  # every phone, one after the other, within the second
        phones[1].shot("room-live-en-scorer", of=ledger_region(pages[1]))

        offline = phones[3]
        offline.context.set_offline(True)
        record(pages[3], DEALS[4])
        queue = ledger_region(pages[3]).get_by_text(re.compile(r"^Waiting to send"))
        expect(queue).to_have_text("Waiting to send: 1 deal")
        record(pages[3], DEALS[5])
        expect(queue).to_have_text("Waiting to send: 2 deals")
        offline.shot("room-offline-queue-en", of=ledger_region(pages[3]))
        assert len(api(server, f"/ledgers/{ledger_id}")["deals"]) == 4
        offline.context.set_offline(False)
        expect(queue).to_have_count(0, timeout=15_000)
        for page in pages:
            expect(deal_rows(page)).to_have_count(6, timeout=5_000)

        ledger = api(server, f"/ledgers/{ledger_id}")
        assert [deal["number"] for deal in ledger["deals"]] == [1, 2, 3, 4, 5, 6]  # each once, in order
        winners = [deal["seats"][deal["table"]["winner"]] for deal in ledger["deals"]]
        assert winners == [NAMES["ESWN".index(deal["winner"])] for deal in DEALS]
        assert ledger["totals"] == expected_totals(ledger)
        for page in pages:
            assert shown_totals(page) == ledger["totals"]
            assert no_horizontal_scroll(page)
            assert too_small_to_tap(page) == []

        # undo asks first, names the deal, and says which deal it removes
        last = ledger["deals"][-1]
        asked = f"Undo deal 6 ({last['seats'][last['table']['winner']]} won on "
        room.get_by_role("button", name="Undo last deal").click()
        dialog = owner.get_by_role("dialog", name=re.compile(re.escape(asked)))
        expect(dialog).to_be_visible()
        phones[0].shot("room-undo-ask-en")
        dialog.get_by_role("button", name="Keep it").click()
        expect(dialog).to_have_count(0)
        assert len(api(server, f"/ledgers/{ledger_id}")["deals"]) == 6
        room.get_by_role("button", name="Undo last deal").click()
        with owner.expect_request(re.compile(r"/deals/last\?deal=6")) as sent:
            dialog.get_by_role("button", name="Undo it").click()
        assert sent.value.headers.get("idempotency-key")
        for page in pages:
            expect(deal_rows(page)).to_have_count(5, timeout=LIVE_S * 1000)

        # a revoked phone records nothing more
        room.get_by_role("button", name="Revoke 乙的手机").click()
        expect(room.get_by_role("button", name="Revoke 乙的手机")).to_have_count(0)
        record(pages[1], DEALS[0])
        expect(pages[1].get_by_role("alert")).to_contain_text("read-only here")
        assert len(api(server, f"/ledgers/{ledger_id}")["deals"]) == 5
    finally:
        for visit in phones:
            outside = visit.outside_requests()
            visit.context.close()
            assert not outside, f"a phone asked for something outside the server: {outside}"
            assert not visit.refused, f"the security policy blocked part of the page: {visit.refused}"


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_the_page_installs_and_opens_with_the_server_stopped(browser: Browser) -> None:  # noqa: F811
    with live_server() as (host, port):
        base = f"http://{host}:{port}"
        manifest = api(base, "/manifest.webmanifest")
        assert manifest["display"] == "standalone" and manifest["start_url"] and manifest["short_name"]
        for icon in manifest["icons"]:
            with urllib.request.urlopen(f"{base}/{icon['src']}", timeout=10) as reply:
                width, height = png_size(reply.read())
            assert icon["sizes"] == f"{width}x{height}"
        assert {icon["sizes"] for icon in manifest["icons"]} == {"192x192", "512x512"}
        with urllib.request.urlopen(f"{base}/favicon.ico", timeout=10) as reply:
            assert reply.read()[:4] == b"\x00\x00\x01\x00"
        with urllib.request.urlopen(f"{base}/sw.js", timeout=10) as reply:
            assert "worker-src 'self'" in reply.headers["content-security-policy"]

        seen = Visit(browser, base)
        page = seen.open()
        assert page.locator("link[rel=manifest]").get_attribute("href") == "manifest.webmanifest"
        ledger_id = start_ledger(page, NAMES)
        assert page.evaluate("navigator.serviceWorker.ready.then((r) => Boolean(r.active))")
        page.reload()
        expect(page.locator("body[data-ready=true]")).to_have_count(1)
        assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
        expect(ledger_region(page)).to_contain_text("No deals yet.")  # read once through the worker: kept
    try:
        page.reload()  # the server is gone
        expect(page.locator("body[data-ready=true]")).to_have_count(1)
        assert page.evaluate("Boolean(navigator.serviceWorker.controller)")
        expect(page.get_by_role("combobox", name="Rules")).to_have_value("lingxi")
        record(page, DEALS[0])
        expect(ledger_region(page).get_by_text("Waiting to send: 1 deal")).to_be_visible()
        assert page.evaluate("JSON.parse(localStorage.getItem('taihu.queue'))")[0]["ledger"] == ledger_id
        assert no_horizontal_scroll(page)
        seen.shot("installed-offline-queue-en")
    finally:
        seen.context.close()


def test_putian_s_headline_is_what_the_winner_is_paid(browser: Browser, server: str) -> None:  # noqa: F811
    for locale, paid, base in (
        ("en-US", "The winner is paid: +18 fen", "Base: 2 fen"),
        ("zh-CN", "和牌的人收: +18 分", "底分: 2 分"),
    ):
        seen = Visit(browser, server, locale=locale)
        try:
            page = seen.open()
            page.get_by_role("combobox", name="Rules").select_option("putian")
            page.get_by_role("textbox", name="Hand").fill("1234569m 789p 234567s seat:W wild:9m declare:you-jin")
            page.get_by_role("button", name="Score").click()
            result = page.get_by_role("status")
            expect(result.locator(".total").first).to_have_text(paid)
            expect(result.locator(".total").last).to_have_text(base)
        finally:
            seen.context.close()


def owner_token(page: Page, ledger_id: str) -> str:
    return str(page.evaluate("JSON.parse(localStorage.getItem('taihu.ledgerTokens'))")[ledger_id])


def as_owner(base: str, method: str, path: str, token: str, body: dict[str, Any] | None = None) -> Any:
    """What the server answers the owner's request, outside the browser (a change another device makes)."""
    data = json.dumps(body).encode() if body is not None else None
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    with urllib.request.urlopen(urllib.request.Request(base + path, data, headers, method=method), timeout=10) as r:
        text = r.read()
    return json.loads(text) if text else None


def join_by_link(visit: Visit, link: str, name: str) -> Page:
    page = visit.open(link.removeprefix(visit.base))
    ledger_region(page).get_by_role("textbox", name="Phone's name").fill(name)
    ledger_region(page).get_by_role("button", name="Join").click()
    expect(ledger_region(page)).to_contain_text("This phone records deals in this ledger now.")
    return page


def invite_link(owner: Page) -> str:
    ledger_region(owner).get_by_role("button", name="Invite").click()
    return str(ledger_region(owner).get_by_role("link", name=re.compile(r"#join=")).get_attribute("href"))


class Sent:
    """Each request a page makes: its address and its headers."""

    def __init__(self, page: Page) -> None:
        self.requests: list[tuple[str, str, dict[str, str]]] = []
        page.on("request", lambda r: self.requests.append((r.method, r.url, r.headers)))

    def to(self, method: str, pattern: str) -> list[tuple[str, dict[str, str]]]:
        return [(url, headers) for m, url, headers in self.requests if m == method and re.search(pattern, url)]


def test_a_private_ledger_is_live_and_the_owner_s_room_follows_its_stream(browser: Browser, server: str) -> None:  # noqa: F811
    phones = [Visit(browser, server), Visit(browser, server, width=390, height=844)]
    try:
        owner = phones[0].open()
        seen = Sent(owner)
        ledger_id = start_ledger(owner, NAMES)
        token = owner_token(owner, ledger_id)
        as_owner(server, "PATCH", f"/ledgers/{ledger_id}", token, {"private": True})
        owner.reload()  # the page learns the ledger is private as it reads it: with its token from then on
        expect(ledger_region(owner)).to_contain_text("No deals yet.")
        room = ledger_region(owner)

        watched = Sent(phones[1].page)
        scorer = join_by_link(phones[1], invite_link(owner), "乙的手机")
        started = time.monotonic()
        revoke = room.get_by_role("button", name="Revoke 乙的手机")
        expect(revoke).to_be_visible(timeout=LIVE_S * 1000)  # the join is an event of the owner's stream
        assert time.monotonic() - started < LIVE_S * 2
        listed = len(seen.to("GET", r"/devices\?"))
        scorer.wait_for_timeout(4500)  # longer than the page once polled its devices: it asks no more
        assert len(seen.to("GET", r"/devices\?")) == listed

        for page, other, deal, number in ((owner, scorer, DEALS[0], 1), (scorer, owner, DEALS[1], 2)):
            record(page, deal)
            expect(ledger_region(page)).to_contain_text(f"Deal {number} added:")
            expect(deal_rows(other)).to_have_count(number, timeout=LIVE_S * 1000)  # no tap, on a private ledger
        assert no_horizontal_scroll(scorer) and no_horizontal_scroll(owner)

        # the streams carry the tokens in the header alone, never in an address
        device_token = str(scorer.evaluate("JSON.parse(localStorage.getItem('taihu.ledgerTokens'))")[ledger_id])
        for sent, key in ((seen, token), (watched, device_token)):
            streams = sent.to("GET", rf"/ledgers/{ledger_id}/events")
            assert streams and all(headers.get("authorization") == f"Bearer {key}" for _, headers in streams)
            assert not [url for _, url, _ in sent.requests if token in url or device_token in url]

        # a private ledger's CSV, which a plain link could not fetch without the token
        with owner.expect_download() as download:
            owner.get_by_role("link", name="Download CSV").click()
        rows = Path(download.value.path()).read_text(encoding="utf-8").splitlines()
        assert rows[0].lstrip("\ufeff").startswith("deal,player,")
        assert [row.split(",")[0] for row in rows[1:]] == ["1"] * 4 + ["2"] * 4  # a row a player a deal

        # revoked by another of the owner's devices: the list follows, and the scorer's stream ends
        device = as_owner(server, "GET", f"/ledgers/{ledger_id}/devices", token)["devices"][0]["id"]
        started = time.monotonic()
        as_owner(server, "DELETE", f"/ledgers/{ledger_id}/devices/{device}", token)
        expect(revoke).to_have_count(0, timeout=LIVE_S * 1000)
        expect(room).to_contain_text("No other phone yet.")
        expect(scorer.get_by_role("alert")).to_contain_text("no longer follows this ledger live")
        assert time.monotonic() - started < LIVE_S * 3
        phones[1].shot("room-stream-revoked-en", of=ledger_region(scorer))
    finally:
        for visit in phones:
            visit.context.close()
            assert not visit.refused, f"the security policy blocked part of the page: {visit.refused}"


def test_the_owner_lists_and_revokes_read_links_in_either_language(browser: Browser, server: str) -> None:  # noqa: F811
    visit = Visit(browser, server)
    try:
        owner = visit.open()
        ledger_id = start_ledger(owner, NAMES)
        token = owner_token(owner, ledger_id)
        room = ledger_region(owner)
        links = room.get_by_role("list", name="Read links")
        expect(room.get_by_role("heading", name="Read links")).to_be_visible()
        expect(room).to_contain_text("No read links.")
        path = f"/ledgers/{ledger_id}/read-links"
        screen = as_owner(server, "POST", path, token, {"name": "the club's screen"})
        unnamed = as_owner(server, "POST", path, token, {})
        screen_revoke = room.get_by_role("button", name="Revoke read link the club's screen")
        expect(screen_revoke).to_be_visible(timeout=LIVE_S * 1000)  # made elsewhere: the list follows the stream
        expect(room.get_by_role("button", name="Revoke read link (no name)")).to_be_visible()
        expect(links.get_by_role("listitem")).to_have_count(2)
        named = links.get_by_role("listitem").filter(has_text="the club's screen")
        expect(named).to_contain_text(re.compile(r"^the club's screen made \S"))  # its label, and when it was made
        assert no_horizontal_scroll(owner)
        assert too_small_to_tap(owner) == []
        visit.shot("room-read-links-en", of=room)

        screen_revoke.click()
        expect(screen_revoke).to_have_count(0)
        expect(room).to_contain_text("The read link the club's screen no longer reads this ledger.")
        assert [link["id"] for link in as_owner(server, "GET", path, token)["read_links"]] == [unnamed["id"]]
        request = urllib.request.Request(f"{server}/ledgers/{ledger_id}?read={screen['code']}")
        try:
            urllib.request.urlopen(request, timeout=10)
            raise AssertionError("a revoked read link still reads")
        except urllib.error.HTTPError as refused:
            assert refused.code == 403

        owner.get_by_role("button", name="中文").click()
        expect(room.get_by_role("heading", name="只读链接")).to_be_visible()
        chinese = room.get_by_role("button", name="撤销权限 Revoke 只读链接 read link （没有名字）")
        expect(chinese).to_be_visible()
        assert no_horizontal_scroll(owner)
        assert too_small_to_tap(owner) == []
        visit.shot("room-read-links-zh", of=room)
        chinese.click()
        expect(room).to_contain_text("没有只读链接。")
        expect(room).to_contain_text("只读链接 （没有名字） 不能再看这本账了。")
        assert as_owner(server, "GET", path, token)["read_links"] == []
    finally:
        visit.context.close()
        assert not visit.refused, f"the security policy blocked part of the page: {visit.refused}"


# what the phone offline does with its waiting deal when another phone recorded that deal first, and how many
# deals the ledger then has (the other phone's, and the waiting one's if it is sent as the next)
CONFLICT_CHOICES = [("Send as the next deal", 2), ("Drop the waiting deals", 1)]


def test_a_waiting_deal_another_phone_got_in_before_is_sent_as_next_or_dropped(browser: Browser, server: str) -> None:  # noqa: F811
    for choice, count in CONFLICT_CHOICES:
        phones = [Visit(browser, server), Visit(browser, server)]
        try:
            owner = phones[0].open()
            ledger_id = start_ledger(owner, NAMES)
            scorer = join_by_link(phones[1], invite_link(owner), "丁的手机")
            phones[1].context.set_offline(True)
            record(scorer, DEALS[2])  # 丁 wins by self-draw: waits as deal 1
            expect(ledger_region(scorer).get_by_text("Waiting to send: 1 deal")).to_be_visible()
            record(owner, DEALS[0])  # 乙 wins: deal 1 is the owner's
            expect(ledger_region(owner)).to_contain_text("Deal 1 added:")
            phones[1].context.set_offline(False)
            asked = ledger_region(scorer)
            expect(asked).to_contain_text(
                "Deal 1 was not sent: another phone recorded deal 1 first (the ledger has 1 deals now).",
                timeout=15_000,
            )
            expect(asked.get_by_role("button", name="Send as the next deal")).to_be_visible()
            expect(asked.get_by_role("button", name="Drop the waiting deals")).to_be_visible()
            assert no_horizontal_scroll(scorer)
            assert len(api(server, f"/ledgers/{ledger_id}")["deals"]) == 1  # nothing sent before the phone says
            phones[1].shot(f"room-queue-conflict-{count}-en", of=asked)

            asked.get_by_role("button", name=choice).click()
            expect(asked.get_by_text(re.compile(r"^Waiting to send"))).to_have_count(0)
            for page in (owner, scorer):
                expect(deal_rows(page)).to_have_count(count, timeout=LIVE_S * 1000 * 2)
            ledger = api(server, f"/ledgers/{ledger_id}")
            winners = [deal["seats"][deal["table"]["winner"]] for deal in ledger["deals"]]
            assert winners == ["乙", "丁"][:count]  # sent as deal 2, once; or dropped
            assert ledger["totals"] == expected_totals(ledger)
            assert shown_totals(scorer) == shown_totals(owner) == ledger["totals"]
        finally:
            for visit in phones:
                visit.context.close()
