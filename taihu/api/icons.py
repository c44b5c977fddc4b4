"""The page's icons, drawn in code so they need no image tool: a mahjong tile (a cream tile, one red
circle: 一筒) on the page's green. `python -m taihu.api.icons` writes static/icon-*.png and favicon.ico; a test
checks the committed files are what this draws.
"""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

STATIC = Path(__file__).parent / "static"
GREEN = (15, 81, 50)
CREAM = (255, 253, 245)
EDGE = (200, 190, 160)
RED = (176, 42, 55)
SIZES = (192, 512)


def pixel(x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y) of a unit square; the tile leaves the outer 20 % (a maskable icon's safe zone)."""
    left, right, top, bottom, radius = 0.28, 0.72, 0.2, 0.8, 0.06
    dx = max(left + radius - x, 0.0, x - (right - radius))
    dy = max(top + radius - y, 0.0, y - (bottom - radius))
    inside = left <= x <= right and top <= y <= bottom and dx * dx + dy * dy <= radius * radius
    if not inside:
        return GREEN
    d = ((x - 0.5) ** 2 + (y - 0.5) ** 2) ** 0.5
    if d <= 0.13:
        return RED if d <= 0.1 or d >= 0.115 else CREAM
    near_edge = min(x - left, right - x, y - top, bottom - y) < 0.012
    return EDGE if near_edge else CREAM


def png(size: int) -> bytes:
    rows = b"".join(
        b"\x00" + bytes(c for x in range(size) for c in pixel((x + 0.5) / size, (y + 0.5) / size)) for y in range(size)
    )

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


def ico(size: int = 32) -> bytes:
    """A .ico holding one PNG (every browser since 2011 reads PNG inside an icon file)."""
    image = png(size)
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", size, size, 0, 0, 1, 32, len(image), 6 + 16)
    return header + entry + image


def drawn() -> dict[Path, bytes]:
    files = {STATIC / f"icon-{size}.png": png(size) for size in SIZES}  # beside the page: package data is static/*
    files[STATIC / "favicon.ico"] = ico()
    return files


if __name__ == "__main__":
    for path, data in drawn().items():
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(data)
        print(f"wrote {path} ({len(data)} bytes)")
