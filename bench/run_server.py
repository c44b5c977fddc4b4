"""One server of bench/serve.py: `python bench/run_server.py MODULE:FACTORY PORT [--gc-threshold A,B,C]`.

The app is made by its factory and served by `uvicorn.run` with
`uvicorn_options()`, as `taihu serve` serves taihu's with one process; the
bench runs taihu's app (`taihu.api.app:create_app`) and the floor
(bench/floor_app.py) through this same file, so the two differ in their app
only. `--gc-threshold`: `gc.set_threshold` with these numbers and
`gc.freeze()` once the app is made, for the comparison with CPython's
defaults.
"""

from __future__ import annotations

import argparse
import gc
import importlib

import uvicorn

from taihu.api.server import uvicorn_options


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("factory", help="module:function making the ASGI app")
    parser.add_argument("port", type=int)
    parser.add_argument("--gc-threshold", type=lambda text: [int(n) for n in text.split(",")])
    args = parser.parse_args()
    module, _, name = args.factory.partition(":")
    app = getattr(importlib.import_module(module), name)()
    if args.gc_threshold:
        gc.collect()
        gc.freeze()
        gc.set_threshold(*args.gc_threshold)
    uvicorn.run(app, host="127.0.0.1", port=args.port, **uvicorn_options())


if __name__ == "__main__":
    main()
