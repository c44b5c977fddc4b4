"""The busy clients of `make soak`, in a process of their own (bench/soak.py `in_load_process`).

The soak times `/health` while clients load the server; with the clients
as threads of the timing process, each `/health` also waited for that
process's own interpreter lock behind eight senders, and the figure was
partly the client's. Here they run in another process: soak.py writes one
JSON line (what to run) to this process's stdin, this process starts the
clients and prints `ready`, and when stdin closes it stops them and prints
what they saw as one JSON line.

The clients: `threads` keep-alive clients each sending `body` (base64) to
`path` again and again; it prints their statuses. `cpus`, if given, pins
this process to those CPUs (`os.sched_setaffinity`), so the load takes no
more of the machine than that.
"""

from __future__ import annotations

import base64
import json
import os
import sys
import threading
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
    body = base64.b64decode(spec["body"])
    result = senders(spec["port"], spec["path"], body, spec["threads"], stop)
    sys.stdout.write(json.dumps(result) + "\n")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
