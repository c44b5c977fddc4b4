"""docs/deploy.md run on loopback: `taihu serve --root-path /taihu --api-only --no-access-log` behind the page's
own nginx snippet, which terminates TLS with a throwaway self-signed certificate."""

from __future__ import annotations

import datetime
import os
import re
import shutil
import socket
import ssl
import subprocess
import sys
import time
from collections.abc import Iterator
from http.client import HTTPConnection, HTTPSConnection
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

ROOT = Path(__file__).resolve().parent.parent
SNIPPET = re.compile(r"^```nginx\n(?P<body>.*?)^```", re.MULTILINE | re.DOTALL)
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
HAND = "555m 222p 777p 333s 888s 9m f1 f2 P P +9m wild:5m,E seat:S"
TIMEOUT = 30.0  # seconds for a server to start: generous on a loaded machine


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def wait_for(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else "ended"
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise AssertionError(f"nothing listens on {port} after {TIMEOUT} s")


@pytest.fixture
def taihu(tmp_path: Path) -> Iterator[int]:
    port = free_port()
    command = [sys.executable, "-m", "taihu.cli.main", "serve", "--port", str(port), "--root-path", "/taihu"]
    command += ["--api-only", "--no-access-log", "--db", str(tmp_path / "ledger.db")]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        wait_for(port, process)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=15)


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
    import ipaddress

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


def nginx_config(folder: Path, taihu: int, listen: int) -> Path:
    """docs/deploy.md's snippet, its port, upstream and certificate made this test's, in a config of its own."""
    [site] = [m["body"] for m in SNIPPET.finditer((ROOT / "docs/deploy.md").read_text(encoding="utf-8"))]
    cert_file, key_file = certificate(folder)
    site = site.replace("listen 443 ssl;", f"listen 127.0.0.1:{listen} ssl;")
    site = site.replace("server 127.0.0.1:8000;", f"server 127.0.0.1:{taihu};")
    site = site.replace("cert.pem", str(cert_file)).replace("key.pem", str(key_file))
    site = site.replace("server_name taihu.example.org;", "server_name localhost;")
    temp = {name: folder / name for name in ("body", "proxy", "fastcgi", "uwsgi", "scgi")}
    for path in temp.values():
        path.mkdir()
    config = folder / "nginx.conf"
    config.write_text(
        ("user root;\n" if os.geteuid() == 0 else "")
        + f"daemon off;\npid {folder / 'nginx.pid'};\nerror_log {folder / 'error.log'};\nevents {{}}\nhttp {{\n"
        f"access_log {folder / 'access.log'};\nclient_body_temp_path {temp['body']};\n"
        f"proxy_temp_path {temp['proxy']};\nfastcgi_temp_path {temp['fastcgi']};\n"
        f"uwsgi_temp_path {temp['uwsgi']};\nscgi_temp_path {temp['scgi']};\n{site}}}\n",
        encoding="utf-8",
    )
    return config


@pytest.mark.nginx
@pytest.mark.skipif(NGINX is None and os.environ.get("CI") != "true", reason="no nginx (make nginx installs it)")
def test_the_documented_nginx_site_serves_the_api_over_tls(taihu: int, tmp_path: Path) -> None:
    assert NGINX is not None, "no nginx: `make nginx` installs Debian's"
    listen = free_port()
    config = nginx_config(tmp_path, taihu, listen)
    proxy = subprocess.Popen([NGINX, "-c", str(config), "-p", str(tmp_path)], stderr=subprocess.PIPE)
    try:
        wait_for(listen, proxy)
        context = ssl.create_default_context(cafile=str(tmp_path / "cert.pem"))
        connection = HTTPSConnection("localhost", listen, context=context, timeout=10)
        connection.request("GET", "/taihu/v1/health")
        reply = connection.getresponse()
        assert (reply.status, reply.read()) == (200, b'{"status":"ok"}')
        body = f'{{"rules": "lingxi", "hand": "{HAND}"}}'.encode()
        connection.request("POST", "/taihu/v1/score", body, {"content-type": "application/json"})
        reply = connection.getresponse()
        answer = reply.read()
        assert reply.status == 200 and b'"total":56' in answer, answer
        assert reply.getheader("content-security-policy")  # the security headers come through
        connection.request("GET", "/taihu/openapi.json")
        reply = connection.getresponse()
        assert b'"url":"/taihu"' in reply.read()  # the document names the prefixed address
    finally:
        proxy.terminate()
        proxy.wait(timeout=15)
