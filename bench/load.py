"""The busy clients of `make soak`, in a process of their own (bench/soak.py `in_load_process`).

The soak times `/health` while clients load the server; with the clients
as threads of the timing process, each `/health` also waited for that
process's own interpreter lock behind eight senders, and the figure was
partly the client's. Here they run in another process: soak.py writes one
JSON line (what to run) to this process's stdin, this process starts the
clients and prints `ready`, and when stdin closes it stops them and prints
what they saw as one JSON line.

`senders`: `threads` keep-alive clients each sending `body` (base64) to
`path` again and again; prints their statuses. `idle`: `sockets` idle
connections from `source`, each reopened when the server closes it; prints
how many were opened. `cpus`, if given, pins this process to those CPUs
(`os.sched_setaffinity`), so the load takes no more of the machine than that.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from typing import Any

from soak import Client  # bench/ is this script's directory, so on the path


def senders(port: int, path: str, body: bytes, threads: int, stop: threading.Event) -> dict[str, Any]:
    statuses: Counter[int] = Counter()
    lock = threading.Lock()

    def send() -> None:
        client = Client(port)
        while not stop.is_set():
            client.post(path, body)
        with lock:
            statuses.update(client.statuses)

    run_until(stop, send, threads)
    return {"statuses": dict(statuses)}


def idle(port: int, sockets: int, source: str, stop: threading.Event) -> dict[str, Any]:
    opened = [0]
    lock = threading.Lock()

    def hold() -> None:
        while not stop.is_set():
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2, source_address=(source, 0)) as sock:
                    with lock:
                        opened[0] += 1
                    while not stop.is_set():
                        try:
                            if sock.recv(4096) == b"":
                                break
                        except TimeoutError:
                            continue
            except OSError:
                pass
            time.sleep(0.05)

    run_until(stop, hold, sockets)
    return {"opened": opened[0]}


def run_until(stop: threading.Event, client: Callable[[], None], count: int) -> None:
    """`count` threads running `client`, started, then `ready` said; returns when they have all stopped."""
    threads = [threading.Thread(target=client) for _ in range(count)]
    for thread in threads:
        thread.start()
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    stop.wait()
    for thread in threads:
        thread.join()


def main() -> None:
    spec = json.loads(sys.stdin.readline())
    if spec.get("cpus"):
        os.sched_setaffinity(0, set(spec["cpus"]))
    stop = threading.Event()

    def until_stdin_closes() -> None:
        sys.stdin.read()
        stop.set()

    threading.Thread(target=until_stdin_closes, daemon=True).start()
    if spec["kind"] == "senders":
        body = base64.b64decode(spec["body"])
        result = senders(spec["port"], spec["path"], body, spec["threads"], stop)
    else:
        result = idle(spec["port"], spec["sockets"], spec["source"], stop)
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
