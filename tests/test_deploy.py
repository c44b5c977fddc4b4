"""docs/deploy.md run on loopback: `taihu serve --root-path /taihu --api-only --no-access-log` behind the repo's
nginx site (deploy/nginx/taihu.conf, the file the page shows), which terminates TLS with a throwaway
self-signed certificate, and defends taihu against what `taihu serve` leaves to its proxy (docs/limits.md
"Connections"): connections held idle or trickled, headers too large, one address taking every connection.

Clients from 127.0.0.2 and up are other addresses: Linux's loopback answers every 127.x address, and nginx
listens on 127.0.0.1 only. A test needing a shorter timeout than the site's runs the site with that value
put in; every other directive is the file's own.
"""

from __future__ import annotations

import datetime
import ipaddress
import json
import os
import re
import shutil
import socket
import ssl
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from http.client import HTTPConnection, HTTPResponse, HTTPSConnection
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

ROOT = Path(__file__).resolve().parent.parent
SITE = ROOT / "deploy/nginx/taihu.conf"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
HAND = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"
SCORE_BODY = json.dumps({"rules": "lingxi", "hand": HAND}).encode()
NEW_LEDGER = json.dumps({"rules": "lingxi", "players": ["甲", "乙", "丙", "丁"]}).encode()
TIMEOUT = 30.0  # seconds for a server to start: generous on a loaded machine
SHORT = 2  # seconds: the timeouts of the slow-client tests, put in place of the site's
BOUND = 10.0  # seconds a test waits for nginx to act: past SHORT, short of nginx's defaults (60 s, 75 s)
SERVE = ["--root-path", "/taihu", "--api-only", "--no-access-log", "--forwarded-allow-ips", "127.0.0.1"]


def nginx_test(test: Callable[..., None]) -> Callable[..., None]:
    """A test running nginx and taihu (`-m "not nginx"` leaves it out); skipped without nginx, but not in CI."""
    test = pytest.mark.skipif(NGINX is None and os.environ.get("CI") != "true", reason="no nginx (make nginx)")(test)
    return pytest.mark.nginx(pytest.mark.server(test))


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(port: int, process: subprocess.Popen[bytes], errors: Path | None = None) -> None:
    """Until `process` listens on `port`; its standard error (or the file `errors` it writes) says why not."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            said = errors.read_text() if errors else process.stderr.read().decode() if process.stderr else ""
            raise AssertionError(f"ended before listening on {port}: {said}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port} after {TIMEOUT} s")


@contextmanager
def serving(folder: Path, *options: str) -> Iterator[int]:
    """A `taihu serve` subprocess with the page's options and `options`: its port."""
    port = free_port()
    command = [sys.executable, "-m", "taihu.cli.main", "serve", "--port", str(port), *SERVE, *options]
    command += ["--db", str(folder / "ledger.db")]
    errors = folder / "taihu.err"  # a file, not a pipe: a pipe nobody reads would stop the server once full
    with errors.open("wb") as stderr:
        process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=stderr)
    try:
        wait_for(port, process, errors)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=15)


@pytest.fixture
def taihu(tmp_path: Path) -> Iterator[int]:
    with serving(tmp_path) as port:
        yield port


@pytest.fixture(scope="module")
def shared_taihu(tmp_path_factory: pytest.TempPathFactory) -> Iterator[int]:
    """One `taihu serve` for the tests that do not count its connections (it starts in some 3 s), at its default
    `--limit-concurrency` (100): the 80 phones' requests all reach it from nginx's address."""
    with serving(tmp_path_factory.mktemp("taihu")) as port:
        yield port


@pytest.mark.server
def test_api_only_has_no_page_and_no_docs_and_the_v1_paths(taihu: int) -> None:
    connection = HTTPConnection("127.0.0.1", taihu, timeout=10)
    for path, status in [("/", 404), ("/docs", 404), ("/redoc", 404), ("/v1/health", 200), ("/health", 200)]:
        connection.request("GET", path)
        reply = connection.getresponse()
        reply.read()
        assert reply.status == status, path


def certificate(folder: Path) -> tuple[Path, Path]:
    """A throwaway self-signed certificate for 127.0.0.1 and localhost, and its key."""
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.UTC)
    alternatives = x509.SubjectAlternativeName(
        [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    )
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(alternatives, critical=False)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = folder / "cert.pem", folder / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_file, key_file


def put(text: str, old: str, new: str) -> str:
    """`text` with its one `old` written `new`: the site's example values must stay where the test looks."""
    assert text.count(old) == 1, f"deploy/nginx/taihu.conf should hold {old!r} once"
    return text.replace(old, new)


@dataclass
class Site:
    port: int
    folder: Path

    @property
    def access_log(self) -> Path:
        return self.folder / "access.log"

    def context(self) -> ssl.SSLContext:
        return ssl.create_default_context(cafile=str(self.folder / "cert.pem"))

    def connection(self, source: str = "127.0.0.1") -> HTTPSConnection:
        return HTTPSConnection(
            "localhost", self.port, context=self.context(), timeout=BOUND, source_address=(source, 0)
        )

    def socket(self, source: str = "127.0.0.1") -> ssl.SSLSocket:
        """A TLS connection to the site from `source`, for a client that writes its request by hand."""
        sock = socket.create_connection(("127.0.0.1", self.port), timeout=BOUND, source_address=(source, 0))
        return self.context().wrap_socket(sock, server_hostname="localhost")


def site_config(folder: Path, taihu: int, listen: int, edits: Sequence[tuple[str, str]]) -> Path:
    """deploy/nginx/taihu.conf with this test's port, upstream, certificate, log and `edits` (a text of the
    file, what is put in its place), in an nginx.conf of its own that runs without root's paths."""
    cert_file, key_file = certificate(folder)
    site = SITE.read_text(encoding="utf-8")
    site = put(site, "listen 443 ssl;", f"listen 127.0.0.1:{listen} ssl;")
    site = put(site, "server 10.0.0.11:8000;", f"server 127.0.0.1:{taihu};")
    site = put(site, "server_name taihu.example.org;", "server_name localhost;")
    site = put(site, "/etc/ssl/taihu/fullchain.pem", str(cert_file))
    site = put(site, "/etc/ssl/taihu/privkey.pem", str(key_file))
    site = put(site, "/var/log/nginx/taihu.access.log", str(folder / "access.log"))
    for old, new in edits:
        site = put(site, old, new)
    (folder / "taihu.conf").write_text(site, encoding="utf-8")
    temp = {name: folder / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir()
    config = folder / "nginx.conf"
    config.write_text(
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"daemon off;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\nevents {{}}\nhttp {{\n"
        f"client_body_temp_path {temp['body']};\nproxy_temp_path {temp['proxy']};\n"
        f"fastcgi_temp_path {temp['fastcgi']};\nuwsgi_temp_path {temp['uwsgi']};\nscgi_temp_path {temp['scgi']};\n"
        f"include {folder / 'taihu.conf'};\n}}\n",
        encoding="utf-8",
    )
    return config


@contextmanager
def site(folder: Path, taihu: int, edits: Sequence[tuple[str, str]] = ()) -> Iterator[Site]:
    """nginx running the site in front of the taihu at port `taihu`."""
    assert NGINX is not None, "no nginx: `make nginx` installs Debian's"
    listen = free_port()
    config = site_config(folder, taihu, listen, edits)
    proxy = subprocess.Popen([NGINX, "-c", str(config), "-p", str(folder)], stderr=subprocess.PIPE)
    try:
        wait_for(listen, proxy)
        yield Site(listen, folder)
    finally:
        proxy.terminate()
        proxy.wait(timeout=15)


@pytest.fixture
def front(tmp_path: Path, shared_taihu: int) -> Iterator[Site]:
    """The site as the file has it, in front of the shared taihu."""
    with site(tmp_path, shared_taihu) as running:
        yield running


def answer(connection: HTTPSConnection, method: str, path: str, body: bytes | None = None) -> HTTPResponse:
    headers = {"content-type": "application/json"} if body is not None else {}
    connection.request(method, path, body, headers)
    reply = connection.getresponse()
    reply.read()
    return reply


@nginx_test
def test_the_documented_nginx_site_serves_the_api_over_tls(front: Site) -> None:
    connection = front.connection()
    connection.request("GET", "/taihu/v1/health")
    reply = connection.getresponse()
    assert (reply.status, reply.read()) == (200, b'{"status":"ok"}')
    connection.request("POST", "/taihu/v1/score", SCORE_BODY, {"content-type": "application/json"})
    reply = connection.getresponse()
    body = reply.read()
    assert reply.status == 200 and b'"total":56' in body, body
    assert reply.getheader("content-security-policy")  # the security headers come through
    connection.request("GET", "/taihu/openapi.json")
    reply = connection.getresponse()
    assert b'"url":"/taihu"' in reply.read()  # the document names the prefixed address
    # the location of a ledger's events stream reaches taihu: its JSON 404 for a ledger not there
    connection.request("GET", "/taihu/v1/ledgers/abc/events")
    reply = connection.getresponse()
    assert (reply.status, json.loads(reply.read())["code"]) == (404, "ledger_not_found")


def next_event(reply: HTTPResponse) -> dict[str, str]:
    """The next event of a stream: its fields up to the blank line that ends it (keep-alive comments skipped)."""
    event: dict[str, str] = {}
    while True:
        line = reply.readline().decode().rstrip("\r\n")
        if not line and event:
            return event
        if line and not line.startswith(":"):
            name, _, value = line.partition(":")
            event[name] = value.strip()


@nginx_test
def test_a_ledgers_events_come_through_nginx_as_they_happen(front: Site) -> None:
    """The site's events location (proxy_buffering off): the stream's first event, then a deal added meanwhile,
    each read through nginx while the stream stays open."""
    connection = front.connection()
    connection.request("POST", "/taihu/v1/ledgers", NEW_LEDGER, {"content-type": "application/json"})
    keys = json.loads(connection.getresponse().read())
    stream = front.connection()
    stream.request("GET", f"/taihu/v1/ledgers/{keys['id']}/events")
    reply = stream.getresponse()
    assert reply.status == 200 and reply.getheader("content-type", "").startswith("text/event-stream")
    assert next_event(reply)["event"] == "ledger-edited"
    deal = json.dumps({"winner": None, "players": dict.fromkeys("ESWN", {"total": 0})}).encode()
    headers = {"content-type": "application/json", "authorization": f"Bearer {keys['token']}"}
    connection.request("POST", f"/taihu/v1/ledgers/{keys['id']}/deals", deal, headers)
    assert connection.getresponse().status == 201
    added = next_event(reply)  # within the connection's timeout, or the read fails
    assert added["event"] == "deal-added" and json.loads(added["data"])["deal"] == 1
    stream.close()


@nginx_test
def test_taihu_is_told_the_client_is_on_https(front: Site) -> None:
    """X-Forwarded-Proto: the addresses taihu writes (here starlette's redirect to the path without its `/`)
    are the https ones the client used."""
    reply = answer(front.connection(), "GET", "/taihu/v1/score/")
    assert reply.status == 307
    assert reply.getheader("location", "").startswith("https://localhost"), reply.getheader("location")


@nginx_test
def test_taihu_counts_each_client_address_on_its_own(front: Site) -> None:
    """X-Forwarded-For: taihu's rate limits key on the client's address, not nginx's. 127.0.0.5 uses up its
    new ledgers (20 at once); 127.0.0.6, behind the same nginx, still makes one."""
    connection = front.connection("127.0.0.5")
    statuses = [answer(connection, "POST", "/taihu/v1/ledgers", NEW_LEDGER).status for _ in range(21)]
    assert statuses == [201] * 20 + [429]
    assert answer(front.connection("127.0.0.6"), "POST", "/taihu/v1/ledgers", NEW_LEDGER).status == 201


@nginx_test
def test_the_access_log_holds_no_ledger_id(front: Site) -> None:
    connection = front.connection()
    connection.request("POST", "/taihu/v1/ledgers", NEW_LEDGER, {"content-type": "application/json"})
    reply = connection.getresponse()
    ledger = json.loads(reply.read())["id"]
    paths = [f"/taihu/v1/ledgers/{ledger}", f"/taihu/ledgers/{ledger}", f"/taihu/v1/ledgers/{ledger}.csv"]
    paths += [f"/taihu/v1/ledgers/{ledger}/deals?lang=en", "/taihu/v1/ledgers/no-such-ledger"]
    assert [answer(connection, "GET", path).status for path in paths] == [200, 200, 200, 200, 404]
    connection.close()
    deadline = time.monotonic() + BOUND  # nginx writes a line as the request ends
    while front.access_log.read_text().count("\n") < 1 + len(paths) and time.monotonic() < deadline:
        time.sleep(0.05)
    log = front.access_log.read_text()
    assert ledger not in log and "no-such-ledger" not in log, log
    written = ["/taihu/v1/ledgers/...", "/taihu/ledgers/...", "/taihu/v1/ledgers/....csv"]
    written += ["/taihu/v1/ledgers/.../deals?lang=en", "/taihu/v1/ledgers/..."]
    for path, status in zip(written, [200, 200, 200, 200, 404], strict=True):
        assert f'"GET {path} HTTP/1.1" {status} ' in log, log
    assert '"POST /taihu/v1/ledgers HTTP/1.1" 201' in log, log


@nginx_test
def test_80_phones_behind_one_address_are_all_served(front: Site) -> None:
    """A club: 80 phones, one address, each its own connection, all scoring at once."""
    clients = 80
    ready = threading.Barrier(clients)
    statuses: list[int] = []

    def phone() -> None:
        connection = front.connection()
        connection.connect()  # the TLS handshake before the barrier: the requests go together
        ready.wait(timeout=BOUND * 3)
        statuses.append(answer(connection, "POST", "/taihu/v1/score", SCORE_BODY).status)
        connection.close()

    threads = [threading.Thread(target=phone) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=TIMEOUT)
    assert sorted(statuses) == [200] * clients


def whole_reply(sock: socket.socket, data: bytes = b"") -> bytes:
    """The answer on `sock` (of which `data` was read), its headers and its body of Content-Length bytes."""
    while b"\r\n\r\n" not in data or len(data.partition(b"\r\n\r\n")[2]) < length(data):
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return data


def length(reply: bytes) -> int:
    found = re.search(rb"\r\ncontent-length: (\d+)\r\n", reply, re.IGNORECASE)
    return int(found[1]) if found else 0


def stalled(site_: Site, source: str) -> ssl.SSLSocket:
    """A connection that has sent a request's headers and a tenth of its body, and then nothing."""
    sock = site_.socket(source)
    head = b"POST /taihu/v1/score HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
    sock.sendall(head + b"Content-Length: %d\r\n\r\n" % len(SCORE_BODY) + SCORE_BODY[: len(SCORE_BODY) // 10])
    return sock


@nginx_test
def test_100_idle_connections_of_one_address_leave_the_health_check_answering(taihu: int, tmp_path: Path) -> None:
    """100 connections from 127.0.0.2 sit idle in the middle of their requests; nginx reads a body whole
    before passing it on, so taihu (at its default `--limit-concurrency`, 100) holds none of them."""
    with site(tmp_path, taihu) as front, ExitStack() as held:
        for _ in range(100):
            held.enter_context(stalled(front, "127.0.0.2"))
        times = []
        for _ in range(5):
            start = time.monotonic()
            reply = answer(front.connection(), "GET", "/taihu/v1/health")
            times.append(time.monotonic() - start)
            assert reply.status == 200
        assert statistics.median(times) < 0.1, times


@nginx_test
def test_an_address_past_its_requests_in_progress_gets_429_with_retry_after(front: Site) -> None:
    """The site's `limit_conn` requests in progress from 127.0.0.3 are let in (stalled); the ones beyond are
    answered at once."""
    [limit] = re.findall(r"limit_conn taihu_conn (\d+);", SITE.read_text(encoding="utf-8"))
    with ExitStack() as held:
        socks = [held.enter_context(stalled(front, "127.0.0.3")) for _ in range(int(limit) + 5)]
        time.sleep(0.5)
        refused = []
        for sock in socks:  # a quick look at each (the others are cut at client_body_timeout, 10 s)
            sock.settimeout(0.01)
            try:
                first = sock.recv(4096)
            except TimeoutError:
                continue
            sock.settimeout(BOUND)
            refused.append(whole_reply(sock, first))
        assert len(refused) == 5, refused
        for reply in refused:
            assert reply.startswith(b"HTTP/1.1 429 ") and b"\r\nRetry-After: 1\r\n" in reply, reply
            assert b'"code": "rate_limited"' in reply, reply


@nginx_test
def test_an_address_past_its_rate_gets_429_with_retry_after(front: Site) -> None:
    """Requests one after another from 127.0.0.4 as fast as they are answered: past the burst, refused."""
    connection = front.connection("127.0.0.4")
    answered = 0
    for _ in range(1000):
        reply = answer(connection, "GET", "/taihu/v1/health")
        if reply.status != 200:
            break
        answered += 1
    assert reply.status == 429 and reply.getheader("retry-after") == "1", (answered, reply.status)
    assert answered >= 240  # the burst


def closed_within(sock: socket.socket, trickle: bytes = b"") -> float | None:
    """Sends `trickle` a byte every 0.2 s (nothing if empty) until nginx closes the connection: the seconds it
    took, or None if still open after BOUND."""
    sock.settimeout(0.2)
    start = time.monotonic()
    sent = 0
    while time.monotonic() - start < BOUND:
        try:
            if sent < len(trickle):
                sock.sendall(trickle[sent : sent + 1])
                sent += 1
            if sock.recv(4096) == b"":
                return time.monotonic() - start
        except TimeoutError:
            continue
        except (ConnectionResetError, BrokenPipeError, ssl.SSLError):
            return time.monotonic() - start
    return None


@pytest.fixture
def quick(tmp_path: Path, shared_taihu: int) -> Iterator[Site]:
    """The site with SHORT timeouts for slow clients."""
    timeouts = ["client_header_timeout 10s;", "client_body_timeout 10s;", "send_timeout 10s;", "keepalive_timeout 15s;"]
    edits = [(timeout, re.sub(r"\d+s;", f"{SHORT}s;", timeout)) for timeout in timeouts]
    with site(tmp_path, shared_taihu, edits) as running:
        yield running


def cut_in_time(seconds: float | None) -> bool:
    return seconds is not None and seconds < SHORT + 2


@nginx_test
def test_a_connection_that_sends_nothing_is_closed(quick: Site) -> None:
    """Not even the TLS handshake (nginx 1.22 times it with client_header_timeout)."""
    with socket.create_connection(("127.0.0.1", quick.port), timeout=BOUND) as sock:
        assert cut_in_time(closed_within(sock))


@nginx_test
def test_headers_sent_a_byte_at_a_time_are_cut(quick: Site) -> None:
    headers = b"GET /taihu/v1/health HTTP/1.1\r\nHost: localhost\r\nX-Slow: " + b"a" * 1000 + b"\r\n\r\n"
    with quick.socket() as sock:
        assert cut_in_time(closed_within(sock, headers))


@nginx_test
def test_a_body_that_stops_is_cut(quick: Site) -> None:
    with stalled(quick, "127.0.0.1") as sock:
        assert cut_in_time(closed_within(sock))


@nginx_test
def test_an_idle_connection_after_its_answer_is_closed(quick: Site) -> None:
    with quick.socket() as sock:
        sock.sendall(b"GET /taihu/v1/health HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert whole_reply(sock).startswith(b"HTTP/1.1 200 ")
        assert cut_in_time(closed_within(sock))


@nginx_test
def test_a_client_that_does_not_read_its_answers_is_cut(quick: Site) -> None:
    """100 requests for the 90 KB OpenAPI document sent at once, and no answer read: once nginx cannot write
    for send_timeout, it closes the connection, short of the last answers."""
    requests = 100
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: nginx's writes stop soon
    sock.bind(("127.0.0.7", 0))
    sock.settimeout(BOUND)
    sock.connect(("127.0.0.1", quick.port))
    with quick.context().wrap_socket(sock, server_hostname="localhost") as tls:
        tls.sendall(b"GET /taihu/openapi.json HTTP/1.1\r\nHost: localhost\r\n\r\n" * requests)
        time.sleep(SHORT + 2)
        tls.settimeout(SHORT + 2)
        received, closed = b"", False
        try:
            while chunk := tls.recv(1 << 16):
                received += chunk
            closed = True
        except (ConnectionResetError, ssl.SSLError):
            closed = True
        except TimeoutError:  # still open: every answer came, and the connection waits for more
            pass
    assert closed and received.count(b"HTTP/1.1 200 ") < requests


@nginx_test
def test_a_header_line_over_4_kb_is_refused(front: Site) -> None:
    connection = front.connection()
    connection.request("GET", "/taihu/v1/health", headers={"X-Big": "a" * 6000})
    assert connection.getresponse().status == 400


@nginx_test
def test_headers_that_never_end_are_refused_at_16_kb(front: Site) -> None:
    with front.socket() as sock:
        sock.sendall(b"GET /taihu/v1/health HTTP/1.1\r\nHost: localhost\r\n")
        for n in range(6):  # 6 header lines of 3 KB, each within the 4 KB of one line
            sock.sendall(b"X-Big-%d: " % n + b"a" * 3000 + b"\r\n")
        assert whole_reply(sock).startswith(b"HTTP/1.1 400 ")


@nginx_test
def test_a_body_over_64_kb_is_refused_before_it_is_sent(front: Site) -> None:
    with front.socket() as sock:
        sock.sendall(b"POST /taihu/v1/score HTTP/1.1\r\nHost: localhost\r\nContent-Length: 70000\r\n\r\n")
        reply = whole_reply(sock)
    assert reply.startswith(b"HTTP/1.1 413 ") and b"nginx" in reply, reply  # nginx's own, not taihu's JSON
