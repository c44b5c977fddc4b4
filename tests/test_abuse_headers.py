"""Security headers on every answer, only listed Host names answered, no ledger id
in the access log. The browser tests (tests/test_page_browser.py) check the page and /docs still work
under the policy."""

from __future__ import annotations

import base64
import hashlib
import http.client
import logging
import re

import pytest
from api_app import app
from fastapi.testclient import TestClient
from live_server import live_server
from typer.testing import CliRunner

from taihu.api.security import LOOPBACK_NAMES, check_host, trusted_hosts
from taihu.api.settings import Settings
from taihu.cli.main import app as cli

client = TestClient(app, raise_server_exceptions=False)
HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
}


@pytest.mark.parametrize(
    ("method", "path", "body", "status"),
    [
        ("GET", "/", None, 200),
        ("GET", "/health", None, 200),
        ("GET", "/static/page.js", None, 200),
        ("GET", "/openapi.json", None, 200),
        ("GET", "/docs", None, 200),
        ("GET", "/redoc", None, 200),
        ("GET", "/nowhere", None, 404),
        ("POST", "/score", b'{"hand": "1m"}', 422),
        ("POST", "/score", b"[" * 40, 422),
        ("POST", "/score", b"1" * (70 * 1024), 413),
    ],
)
def test_every_answer_carries_the_headers(method: str, path: str, body: bytes | None, status: int) -> None:
    reply = client.request(method, path, content=body, headers={"content-type": "application/json"})
    assert reply.status_code == status
    for name, value in HEADERS.items():
        assert reply.headers[name] == value
    policy = reply.headers["content-security-policy"]
    assert policy.startswith("default-src 'self'") and "frame-ancestors 'none'" in policy
    assert ("script-src" in policy) == (path == "/docs")  # only the docs page runs an inline script


def test_the_docs_policy_allows_its_own_inline_script_by_hash() -> None:
    reply = client.get("/docs")
    (script,) = re.findall(r"<script>(.*?)</script>", reply.text, re.DOTALL)
    digest = base64.b64encode(hashlib.sha256(script.encode()).digest()).decode()
    assert f"'sha256-{digest}'" in reply.headers["content-security-policy"]
    assert "'unsafe-inline'" not in reply.headers["content-security-policy"].split("; style-src")[0]


@pytest.mark.parametrize(
    ("host", "status"),
    [
        ("localhost:8000", 200),
        ("127.0.0.1:8000", 200),
        ("[::1]:8000", 200),
        ("evil.example", 400),  # a rebound name
        ("evil.example:8000", 400),
        ("localhost.evil.example", 400),
    ],
)
def test_only_listed_host_names_are_answered(host: str, status: int) -> None:
    with live_server() as address:
        connection = http.client.HTTPConnection(*address, timeout=10)
        try:
            connection.request("GET", "/rules", headers={"host": host})
            reply = connection.getresponse()
            assert reply.status == status
            assert reply.getheader("x-frame-options") == "DENY"  # a refusal carries the headers too
        finally:
            connection.close()


def test_without_taihu_serve_only_the_loopback_names_are_answered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("TAIHU_ALLOWED_HOSTS", raising=False)
    assert Settings().allowed_hosts == LOOPBACK_NAMES == ("localhost", "127.0.0.1", "[::1]")


@pytest.mark.parametrize(
    ("bound", "allowed", "names"),
    [
        ("127.0.0.1", [], ["localhost", "127.0.0.1", "[::1]"]),
        ("::1", [], ["localhost", "127.0.0.1", "[::1]"]),
        ("192.168.1.20", [], ["localhost", "127.0.0.1", "[::1]", "192.168.1.20"]),
        ("fe80::1", [], ["localhost", "127.0.0.1", "[::1]", "[fe80::1]"]),
        ("0.0.0.0", [], ["localhost", "127.0.0.1", "[::1]"]),
        ("0.0.0.0", ["192.168.1.20", "Table.Example.org"], [*LOOPBACK_NAMES, "192.168.1.20", "table.example.org"]),
        ("::", ["*.example.org"], [*LOOPBACK_NAMES, "*.example.org"]),
    ],
)
def test_the_names_answered_follow_the_address_bound_and_allowed_host(
    bound: str, allowed: list[str], names: list[str]
) -> None:
    assert trusted_hosts(bound, allowed) == names


@pytest.mark.parametrize("name", ["http://table.example.org", "table.example.org:8000", "a b", "", "x/y"])
def test_a_name_that_is_not_a_host_is_refused(name: str) -> None:
    with pytest.raises(ValueError, match="is not a host name"):
        check_host(name)


SERVED: list[Settings] = []  # the settings `taihu serve` ran the server with, in the test that ran it


def run_serve(monkeypatch: pytest.MonkeyPatch, *args: str, locale: str = "C.UTF-8") -> tuple[int, str]:
    import taihu.api.server

    SERVED.clear()
    monkeypatch.setattr(taihu.api.server, "serve", lambda settings, *rest, **kwargs: SERVED.append(settings))
    result = CliRunner().invoke(cli, ["serve", *args], env={"LC_ALL": locale, "LC_MESSAGES": None, "LANG": None})
    return result.exit_code, result.stderr


# what `taihu serve` says of its options, in the locale's language: (arguments, exit status, English, Chinese)
SERVE_SAYS = [
    (
        ["--allowed-host", "http://x.example"],
        2,
        "error: --allowed-host 'http://x.example' is not a host name",
        "不是主机名",
    ),
    (["--cors-origin", "*"], 2, "error: --cors-origin '*' is not an origin; give scheme://host[:port]", "不是一个源"),
    (["--host", "0.0.0.0"], 0, "warning: only the loopback names are answered as Host", "只应答 Host 为本机回环名称"),
]


@pytest.mark.parametrize(("args", "status", "english", "chinese"), SERVE_SAYS)
def test_taihu_serve_says_its_refusals_and_warnings_in_the_locale_language(
    monkeypatch: pytest.MonkeyPatch, args: list[str], status: int, english: str, chinese: str
) -> None:
    code, said = run_serve(monkeypatch, *args)
    assert code == status and english in said and chinese not in said
    code, said = run_serve(monkeypatch, *args, locale="zh_CN.UTF-8")
    assert code == status and chinese in said and english not in said


def test_taihu_serve_passes_allowed_host_to_the_app(monkeypatch: pytest.MonkeyPatch) -> None:
    code, _ = run_serve(monkeypatch, "--host", "0.0.0.0", "--allowed-host", "192.168.1.20", "--allowed-host", "t.lan")
    assert code == 0
    [settings] = SERVED
    assert settings.allowed_hosts == (*LOOPBACK_NAMES, "192.168.1.20", "t.lan")


def test_taihu_serve_on_every_address_says_how_to_allow_a_host(monkeypatch: pytest.MonkeyPatch) -> None:
    code, warning = run_serve(monkeypatch, "--host", "0.0.0.0")
    assert code == 0 and "--allowed-host" in warning
    assert run_serve(monkeypatch)[1] == ""  # on loopback, nothing to say


def test_taihu_serve_refuses_a_bad_allowed_host(monkeypatch: pytest.MonkeyPatch) -> None:
    code, message = run_serve(monkeypatch, "--allowed-host", "http://x.example")
    assert code == 2 and message.startswith("error: --allowed-host ") and message.count("\n") == 1


def test_the_access_log_writes_no_ledger_id(caplog: pytest.LogCaptureFixture) -> None:
    secret = "Zq3fSecretLedgerId9"
    with caplog.at_level(logging.INFO, logger="uvicorn.access"), live_server(access_log=True) as address:
        for path in (f"/ledgers/{secret}", f"/ledgers/{secret}.csv", f"/ledgers/{secret}/deals/last?x=1"):
            connection = http.client.HTTPConnection(*address, timeout=10)
            connection.request("GET", path)
            connection.getresponse().read()
            connection.close()
    lines = [record.getMessage() for record in caplog.records if record.name == "uvicorn.access"]
    assert len(lines) == 3 and not any(secret in line for line in lines), lines
    assert any("/ledgers/….csv" in line for line in lines)
    assert any("/ledgers/…/deals/last?x=1" in line for line in lines)
