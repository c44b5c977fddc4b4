"""What the API needs to serve the table page, checked without a browser.

The page at `/` from files in the package; `/docs` with no outside assets; the
request schemas (rules as an enum, unknown fields refused, examples); CORS
only for the origins `taihu serve --cors-origin` allows; the palette the page
offers agrees with the core.
"""

from __future__ import annotations

import os
import re
import subprocess
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from api_app import app
from fastapi import FastAPI
from fastapi.testclient import TestClient
from test_api import free_port, taihu_command
from typer.testing import CliRunner

from taihu.api.page import STATIC, allow_origins, check_origin
from taihu.api.settings import Settings
from taihu.cli.main import app as cli
from taihu.scorer import HandError, score_hand
from taihu.scorer.rulesets import REGISTRY, RULESETS

ROOT = Path(__file__).resolve().parent.parent
HAND_56 = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"
EXTERNAL = re.compile(r"""(?:src|href)\s*=\s*["']?(?:https?:)?//""", re.IGNORECASE)


@pytest.fixture
def client() -> TestClient:
    return TestClient(app, raise_server_exceptions=False)


# -- the page ----------------------------------------------------------------------------------


def test_the_page_is_served_at_the_root(client: TestClient) -> None:
    reply = client.get("/")
    assert reply.status_code == 200
    assert reply.headers["content-type"].startswith("text/html")
    assert 'role="status"' in reply.text and 'role="alert"' in reply.text
    for name in ("page.js", "page.css"):
        assert client.get(f"/static/{name}").status_code == 200
    assert client.get("/palette.json").status_code == 200


IMAGES = {".png", ".ico"}  # the icons: pictures, no addresses in them


def test_the_page_asks_nothing_of_other_hosts() -> None:
    for path in STATIC.iterdir():
        if path.suffix in IMAGES:
            continue
        # the SVG namespace is a name (createElementNS), not an address: nothing is fetched from it
        text = path.read_text(encoding="utf-8").replace('"http://www.w3.org/2000/svg"', "")
        assert not EXTERNAL.search(text), path.name
        assert "http://" not in text and "https://" not in text, path.name


def test_the_page_files_are_package_data() -> None:
    package_data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert package_data["taihu.api"] == ["static/*"]
    assert {p.name for p in STATIC.iterdir()} >= {"index.html", "page.js", "page.css"}


def test_the_page_is_not_part_of_the_api_schema(client: TestClient) -> None:
    assert "/" not in client.get("/openapi.json").json()["paths"]


# -- /docs offline ------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/docs", "/redoc"])
def test_docs_load_their_assets_from_the_server(client: TestClient, path: str) -> None:
    page = client.get(path)
    assert page.status_code == 200
    assets = re.findall(r"""(?:src|href)=["']([^"']+)["']""", page.text)
    assert assets, page.text
    for asset in assets:
        assert asset.startswith("/"), f"{path} loads {asset} from outside the server"
        assert client.get(asset).status_code == 200, asset
    assert "cdn." not in page.text


# -- the request schemas -------------------------------------------------------------------------


def request_schema(document: dict[str, Any], path: str) -> dict[str, Any]:
    body = document["paths"]["/v1" + path]["post"]["requestBody"]["content"]["application/json"]["schema"]
    return document["components"]["schemas"][body["$ref"].rsplit("/", 1)[-1]]


@pytest.mark.parametrize("path", ["/score", "/settle"])
def test_rules_is_an_enum_of_the_rule_sets(client: TestClient, path: str) -> None:
    schema = request_schema(client.get("/openapi.json").json(), path)
    assert schema["properties"]["rules"]["enum"] == list(REGISTRY)
    assert schema["additionalProperties"] is False


@pytest.mark.parametrize("path", ["/score", "/settle"])
def test_every_request_has_examples_that_the_api_accepts(client: TestClient, path: str) -> None:
    examples = request_schema(client.get("/openapi.json").json(), path)["examples"]
    assert examples
    for example in examples:
        reply = client.post(path, json=example)
        assert reply.status_code == 200, (example, reply.text)


def test_unknown_fields_in_score_are_refused(client: TestClient) -> None:
    reply = client.post("/score", json={"rules": "lingxi", "hand": HAND_56, "seat": "S"})
    assert reply.status_code == 422
    assert "seat" in reply.json()["detail"]


def test_an_unknown_rule_set_still_reads_as_the_library_message(client: TestClient) -> None:
    reply = client.post("/score", json={"rules": "mars", "hand": HAND_56})
    assert reply.status_code == 422
    with pytest.raises(HandError) as library:
        score_hand(HAND_56, rules="mars")
    assert reply.json()["detail"] == str(library.value)


# -- CORS ----------------------------------------------------------------------------------------


def small_app(origins: list[str]) -> TestClient:
    made = FastAPI()
    made.add_api_route("/health", lambda: {"status": "ok"})
    allow_origins(made, origins)
    return TestClient(made)


def test_no_cross_origin_calls_by_default(client: TestClient) -> None:
    reply = client.get("/health", headers={"origin": "http://evil.example"})
    assert "access-control-allow-origin" not in reply.headers
    assert client.options("/score", headers=preflight("http://evil.example")).status_code != 200


def preflight(origin: str) -> dict[str, str]:
    return {"origin": origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type"}


def test_only_listed_origins_may_call() -> None:
    listed = small_app(["http://192.168.1.20:5173"])
    allowed = listed.get("/health", headers={"origin": "http://192.168.1.20:5173"})
    assert allowed.headers["access-control-allow-origin"] == "http://192.168.1.20:5173"
    other = listed.get("/health", headers={"origin": "http://evil.example"})
    assert "access-control-allow-origin" not in other.headers
    assert listed.options("/health", headers=preflight("http://evil.example")).status_code == 400


@pytest.mark.parametrize("origin", ["*", "192.168.1.20", "http://host/path", "ftp://host", ""])
def test_an_origin_must_be_scheme_and_host(origin: str) -> None:
    with pytest.raises(ValueError, match="scheme://host"):
        check_origin(origin)


def test_serve_refuses_a_bad_origin() -> None:
    result = CliRunner().invoke(cli, ["serve", "--cors-origin", "*"])
    assert result.exit_code == 2
    assert "scheme://host" in result.stderr


@pytest.fixture
def served_with_origin() -> Iterator[str]:
    port = free_port()
    server = subprocess.Popen(
        [*taihu_command(), "serve", "--port", str(port), "--cors-origin", "http://phone.local:8080"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        cwd=ROOT,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 10
        while True:
            assert server.poll() is None, server.stderr.read().decode() if server.stderr else "server exited"
            try:
                httpx.get(f"{base}/health", timeout=1)
                break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "taihu serve did not answer within 10 s"
                time.sleep(0.1)
        yield base
    finally:
        server.terminate()
        try:
            server.wait(timeout=10)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def test_serve_passes_its_cors_origins_to_the_app(served_with_origin: str) -> None:
    reply = httpx.options(f"{served_with_origin}/score", headers=preflight("http://phone.local:8080"), timeout=5)
    assert reply.status_code == 200
    assert reply.headers["access-control-allow-origin"] == "http://phone.local:8080"
    other = httpx.get(f"{served_with_origin}/health", headers={"origin": "http://evil.example"}, timeout=5)
    assert "access-control-allow-origin" not in other.headers
    page = httpx.get(f"{served_with_origin}/", timeout=5)
    assert page.status_code == 200 and "<title>" in page.text


def run_serve(monkeypatch: pytest.MonkeyPatch, *args: str) -> tuple[dict[str, Any], str]:
    """`taihu serve ARGS` with uvicorn.run replaced: what it would have started, and the warning."""
    import uvicorn

    started: dict[str, Any] = {}
    for name in Settings.model_fields:  # `--workers` writes them for its processes; monkeypatch puts them back
        monkeypatch.setenv(f"TAIHU_{name.upper()}", os.environ.get(f"TAIHU_{name.upper()}", ""))
        monkeypatch.delenv(f"TAIHU_{name.upper()}")
    monkeypatch.setattr(uvicorn, "run", lambda target, **kwargs: started.update(kwargs, target=target))
    result = CliRunner().invoke(cli, ["serve", *args])
    assert result.exit_code == 0, result.output
    return started, result.stderr


def test_serve_binds_to_loopback_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    started, warning = run_serve(monkeypatch)
    assert {key: started[key] for key in ("host", "port")} == {"host": "127.0.0.1", "port": 8000}
    assert started["target"].state.settings.allowed_hosts == ("localhost", "127.0.0.1", "[::1]")
    assert warning == ""


def test_serve_with_workers_runs_the_factory_with_the_same_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of uvicorn's worker processes imports the factory by name and reads the settings back."""
    started, _ = run_serve(monkeypatch, "--workers", "2", "--cors-origin", "http://a.example", "--api-only")
    assert started["target"] == "taihu.api.app:create_app" and started["factory"] is True
    assert started["workers"] == 2
    read_back = Settings()
    assert read_back.cors_origins == ("http://a.example",) and read_back.api_only is True


def test_serve_on_every_address_warns_that_there_is_no_authentication(monkeypatch: pytest.MonkeyPatch) -> None:
    started, warning = run_serve(monkeypatch, "--host", "0.0.0.0", "--cors-origin", "http://a.example/")
    assert started["host"] == "0.0.0.0"
    assert "no authentication" in warning
    assert started["target"].state.settings.cors_origins == ("http://a.example",)


# -- the palette the page offers -----------------------------------------------------------------

PALETTE: dict[str, Any] = TestClient(app).get("/palette.json").json()
EVERY_TILE = [f"{n}{suit}" for suit in "mps" for n in range(1, 10)] + list("ESWNCFP") + [f"f{n}" for n in range(1, 9)]


def plays(rules: str, tile: str) -> bool:
    """Whether the rule set plays the tile: a one-tile hand is refused for its count, not its tile."""
    try:
        score_hand(tile, rules=rules)
    except HandError as exc:
        return str(exc).startswith("hand has")
    return True


def test_the_palette_covers_every_rule_set() -> None:
    assert set(PALETTE) == set(RULESETS)


@pytest.mark.parametrize("rules", list(RULESETS))
def test_the_palette_offers_exactly_the_tiles_the_rule_set_plays(rules: str) -> None:
    assert PALETTE[rules]["tiles"] == [tile for tile in EVERY_TILE if plays(rules, tile)]


@pytest.mark.parametrize("rules", list(RULESETS))
def test_the_palette_offers_exactly_the_conditions_and_events_of_the_rule_set(rules: str) -> None:
    rule_set = RULESETS[rules]
    assert sorted(PALETTE[rules]["conditions"]) == sorted(rule_set.conditions)
    assert PALETTE[rules]["conditions"][0] == "seat"  # in the page's order
    assert tuple(PALETTE[rules]["events"]) == rule_set.events
    assert set(PALETTE[rules]["declare"]) == set(rule_set.declared_wins)
    assert PALETTE[rules].get("wild_name", "") == rule_set.wild_name  # 金 on Putian's page, else 财神


def test_the_icons_are_what_taihu_api_icons_draws() -> None:
    """The committed icons (manifest, favicon) are made by `python -m taihu.api.icons`, not edited by hand."""
    from taihu.api.icons import drawn

    for path, data in drawn().items():
        assert path.read_bytes() == data, f"{path.name}: run python -m taihu.api.icons"
