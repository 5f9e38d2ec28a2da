"""Draw the installable app's icons (static/icons/): a gold waymark diamond on deep teal,
full-bleed so a phone may mask it to any shape. Pure Python (zlib PNG), run once:
`python tools/make_icons.py`."""

from __future__ import annotations

import struct
import zlib
from pathlib import Path

TEAL = (20, 78, 94)
GOLD = (232, 181, 72)
DARK = (12, 44, 54)
OUT = Path(__file__).resolve().parent.parent / "static" / "icons"


def pixel(x: float, y: float) -> tuple[int, int, int]:
    """The colour at (x, y), both from -1 to 1: a diamond, a smaller dark one, a dot."""
    d = abs(x) + abs(y)
    if d < 0.12:
        return GOLD
    if d < 0.30:
        return DARK
    if d < 0.56:
        return GOLD
    return TEAL


def png(size: int) -> bytes:
    rows = bytearray()
    for j in range(size):
        rows.append(0)
        for i in range(size):
            rows.extend(pixel((2 * i + 1) / size - 1, (2 * j + 1) / size - 1))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
            + chunk(b"IDAT", zlib.compress(bytes(rows), 9)) + chunk(b"IEND", b""))  # fmt: skip


if __name__ == "__main__":
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (OUT / f"icon-{size}.png").write_bytes(png(size))
