"""Reads a QR code's modules back into its text, as a scanner does, to check the page's encoder (static/qr.js):
the format information by its BCH code, the codewords unmasked in the standard's zigzag, every block's
Reed–Solomon syndromes zero, then the byte-mode segment. Versions 1 to 10, levels L and M.
"""

from __future__ import annotations

# per version and level: EC codewords per block, then (blocks, data codewords each) groups (ISO/IEC 18004 table 9)
BLOCKS = {
    "L": {1: (7, [(1, 19)]), 2: (10, [(1, 34)]), 3: (15, [(1, 55)]), 4: (20, [(1, 80)]), 5: (26, [(1, 108)]),
          6: (18, [(2, 68)]), 7: (20, [(2, 78)]), 8: (24, [(2, 97)]), 9: (30, [(2, 116)]),
          10: (18, [(2, 68), (2, 69)])},
    "M": {1: (10, [(1, 16)]), 2: (16, [(1, 28)]), 3: (26, [(1, 44)]), 4: (18, [(2, 32)]), 5: (24, [(2, 43)]),
          6: (16, [(4, 27)]), 7: (18, [(4, 31)]), 8: (22, [(2, 38), (2, 39)]), 9: (22, [(3, 36), (2, 37)]),
          10: (26, [(4, 43), (1, 44)])},
}  # fmt: skip
ALIGN = {1: [], 2: [6, 18], 3: [6, 22], 4: [6, 26], 5: [6, 30], 6: [6, 34], 7: [6, 22, 38], 8: [6, 24, 42],
         9: [6, 26, 46], 10: [6, 28, 50]}  # fmt: skip
LEVELS = {1: "L", 0: "M", 3: "Q", 2: "H"}


def _format_code(data: int) -> int:
    rem = data << 10
    for bit in range(14, 9, -1):
        if rem >> bit & 1:
            rem ^= 0x537 << (bit - 10)
    return ((data << 10) | rem) ^ 0x5412


def _mask(n: int, row: int, col: int) -> bool:
    i, j = row, col
    return [
        (i + j) % 2 == 0,
        i % 2 == 0,
        j % 3 == 0,
        (i + j) % 3 == 0,
        (i // 2 + j // 3) % 2 == 0,
        (i * j) % 2 + (i * j) % 3 == 0,
        ((i * j) % 2 + (i * j) % 3) % 2 == 0,
        ((i + j) % 2 + (i * j) % 3) % 2 == 0,
    ][n]


def _function_modules(version: int) -> set[tuple[int, int]]:
    size = 17 + 4 * version
    taken: set[tuple[int, int]] = set()
    for r0, c0 in ((0, 0), (0, size - 8), (size - 8, 0)):  # finders with their separators
        taken |= {(r, c) for r in range(r0, r0 + 8) for c in range(c0, c0 + 8)}
    taken |= {(6, i) for i in range(size)} | {(i, 6) for i in range(size)}
    centres = ALIGN[version]
    for r in centres:
        for c in centres:
            if (r, c) in ((6, 6), (6, centres[-1]), (centres[-1], 6)):
                continue
            taken |= {(r + dr, c + dc) for dr in range(-2, 3) for dc in range(-2, 3)}
    taken |= {(8, i) for i in range(9)} | {(i, 8) for i in range(9)}
    taken |= {(8, size - 1 - i) for i in range(8)} | {(size - 1 - i, 8) for i in range(8)}
    if version >= 7:
        taken |= {(r, c) for r in range(6) for c in range(size - 11, size - 8)}
        taken |= {(r, c) for r in range(size - 11, size - 8) for c in range(6)}
    return taken


def _gf_mul(a: int, b: int) -> int:
    product = 0
    while b:
        if b & 1:
            product ^= a
        a <<= 1
        if a & 0x100:
            a ^= 0x11D
        b >>= 1
    return product


def _syndromes_zero(block: list[int], ec: int) -> bool:
    for k in range(ec):
        root, value = 1, 0
        for _ in range(k):
            root = _gf_mul(root, 2)
        for byte in block:
            value = _gf_mul(value, root) ^ byte
        if value:
            return False
    return True


def read_qr(dark: list[list[bool]]) -> str:
    """The text a QR code holds; AssertionError where it is not one a scanner reads."""
    size = len(dark)
    version = (size - 17) // 4
    assert size == 17 + 4 * version and 1 <= version <= 10, f"a {size}×{size} grid is no QR code of version 1–10"
    read = sum(dark[8][c] << (14 - i) for i, c in enumerate([0, 1, 2, 3, 4, 5, 7, 8]))
    read |= sum(dark[r][8] << (6 - i) for i, r in enumerate([7, 5, 4, 3, 2, 1, 0]))
    codes = {_format_code(data): data for data in range(32)}
    assert read in codes, "the format information is not a BCH codeword"
    level, mask = LEVELS[codes[read] >> 3], codes[read] & 7
    assert level in BLOCKS, f"level {level}"
    assert dark[size - 8][8], "the dark module is missing"
    taken = _function_modules(version)
    bits: list[int] = []
    col = size - 1
    upward = True
    while col > 0:
        if col == 6:
            col -= 1
        rows = range(size - 1, -1, -1) if upward else range(size)
        for r in rows:
            for c in (col, col - 1):
                if (r, c) not in taken:
                    bits.append(int(dark[r][c]) ^ int(_mask(mask, r, c)))
        upward = not upward
        col -= 2
    words = [int("".join(map(str, bits[i : i + 8])), 2) for i in range(0, len(bits) - len(bits) % 8, 8)]
    ec, groups = BLOCKS[level][version]
    sizes = [n for count, n in groups for _ in range(count)]
    blocks: list[list[int]] = [[] for _ in sizes]
    at = 0
    for i in range(max(sizes)):
        for b, n in enumerate(sizes):
            if i < n:
                blocks[b].append(words[at])
                at += 1
    for _ in range(ec):
        for block in blocks:
            block.append(words[at])
            at += 1
    assert all(_syndromes_zero(block, ec) for block in blocks), "a block fails its Reed–Solomon check"
    data = [byte for block, n in zip(blocks, sizes, strict=True) for byte in block[:n]]
    stream = "".join(f"{byte:08b}" for byte in data)
    assert stream[:4] == "0100", "not byte mode"
    count_bits = 8 if version < 10 else 16
    length = int(stream[4 : 4 + count_bits], 2)
    start = 4 + count_bits
    payload = bytes(int(stream[start + 8 * i : start + 8 * i + 8], 2) for i in range(length))
    return payload.decode("utf-8")
