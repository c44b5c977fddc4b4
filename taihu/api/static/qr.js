// A QR code encoder (ISO/IEC 18004) for the page's join link: byte mode, versions 1 to 10, error
// correction L or M, the mask with the lowest penalty. Written for taihu, no outside library: the
// page asks no other host for anything. `qrMatrix(text)` answers rows of booleans (true: dark).
"use strict";

// Per version (index 1..10) and level: [EC codewords per block, [blocks, data codewords each]...]
const QR_BLOCKS = {
  L: [null, [7, [1, 19]], [10, [1, 34]], [15, [1, 55]], [20, [1, 80]], [26, [1, 108]], [18, [2, 68]],
    [20, [2, 78]], [24, [2, 97]], [30, [2, 116]], [18, [2, 68], [2, 69]]],
  M: [null, [10, [1, 16]], [16, [1, 28]], [26, [1, 44]], [18, [2, 32]], [24, [2, 43]], [16, [4, 27]],
    [18, [4, 31]], [22, [2, 38], [2, 39]], [22, [3, 36], [2, 37]], [26, [4, 43], [1, 44]]],
};
const QR_ALIGN = [null, [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50]];
const QR_LEVEL_BITS = { L: 1, M: 0 };

function qrDataCapacity(version, level) {
  const [, ...groups] = QR_BLOCKS[level][version];
  return groups.reduce((sum, [count, size]) => sum + count * size, 0);
}

// GF(256) over x^8 + x^4 + x^3 + x^2 + 1, as the standard's Reed–Solomon codes use.
function gfMultiply(a, b) {
  let product = 0;
  for (let i = 7; i >= 0; i--) {
    product = (product << 1) ^ ((product >>> 7) * 0x11d);
    product ^= ((b >>> i) & 1) * a;
  }
  return product & 0xff;
}

function rsDivisor(degree) {
  const result = new Array(degree).fill(0);
  result[degree - 1] = 1;
  let root = 1;
  for (let i = 0; i < degree; i++) {
    for (let j = 0; j < degree; j++) {
      result[j] = gfMultiply(result[j], root);
      if (j + 1 < degree) result[j] ^= result[j + 1];
    }
    root = gfMultiply(root, 0x02);
  }
  return result;
}

function rsRemainder(data, divisor) {
  const result = new Array(divisor.length).fill(0);
  for (const byte of data) {
    const factor = byte ^ result.shift();
    result.push(0);
    divisor.forEach((coef, i) => { result[i] ^= gfMultiply(coef, factor); });
  }
  return result;
}

// The data codewords: mode, count, the bytes, terminator, padding.
function qrCodewords(bytes, version, level) {
  const capacity = qrDataCapacity(version, level);
  const bits = [];
  const put = (value, length) => { for (let i = length - 1; i >= 0; i--) bits.push((value >>> i) & 1); };
  put(0b0100, 4);
  put(bytes.length, version < 10 ? 8 : 16);
  for (const byte of bytes) put(byte, 8);
  put(0, Math.min(4, capacity * 8 - bits.length));
  while (bits.length % 8) bits.push(0);
  const words = [];
  for (let i = 0; i < bits.length; i += 8) words.push(bits.slice(i, i + 8).reduce((a, b) => (a << 1) | b, 0));
  for (let pad = 0xec; words.length < capacity; pad ^= 0xec ^ 0x11) words.push(pad);
  return words;
}

// Split into blocks, add each block's EC codewords, interleave.
function qrInterleaved(words, version, level) {
  const [ecLength, ...groups] = QR_BLOCKS[level][version];
  const divisor = rsDivisor(ecLength);
  const blocks = [];
  let at = 0;
  for (const [count, size] of groups) {
    for (let n = 0; n < count; n++) {
      const data = words.slice(at, at + size);
      at += size;
      blocks.push({ data, ec: rsRemainder(data, divisor) });
    }
  }
  const result = [];
  const longest = Math.max(...blocks.map((b) => b.data.length));
  for (let i = 0; i < longest; i++) for (const b of blocks) if (i < b.data.length) result.push(b.data[i]);
  for (let i = 0; i < ecLength; i++) for (const b of blocks) result.push(b.ec[i]);
  return result;
}

function qrBch(value, bits, generator, generatorDegree) {
  let rem = value;
  for (let i = 0; i < generatorDegree; i++) rem = (rem << 1) ^ ((rem >>> (generatorDegree - 1)) * generator);
  return (value << generatorDegree) | rem;
}

const QR_MASKS = [
  (x, y) => (x + y) % 2 === 0, (x, y) => y % 2 === 0, (x) => x % 3 === 0, (x, y) => (x + y) % 3 === 0,
  (x, y) => (Math.floor(x / 3) + Math.floor(y / 2)) % 2 === 0, (x, y) => ((x * y) % 2) + ((x * y) % 3) === 0,
  (x, y) => (((x * y) % 2) + ((x * y) % 3)) % 2 === 0, (x, y) => (((x + y) % 2) + ((x * y) % 3)) % 2 === 0,
];

function qrBase(version) {
  const size = version * 4 + 17;
  const dark = Array.from({ length: size }, () => new Array(size).fill(false));
  const fixed = Array.from({ length: size }, () => new Array(size).fill(false));
  const set = (x, y, on) => { dark[y][x] = on; fixed[y][x] = true; };
  for (let i = 0; i < size; i++) { set(6, i, i % 2 === 0); set(i, 6, i % 2 === 0); }
  for (const [cx, cy] of [[3, 3], [size - 4, 3], [3, size - 4]]) {
    for (let dy = -4; dy <= 4; dy++) {
      for (let dx = -4; dx <= 4; dx++) {
        const x = cx + dx, y = cy + dy;
        const ring = Math.max(Math.abs(dx), Math.abs(dy));
        if (x >= 0 && x < size && y >= 0 && y < size) set(x, y, ring !== 2 && ring !== 4);
      }
    }
  }
  const spots = QR_ALIGN[version];
  for (const ay of spots) {
    for (const ax of spots) {
      const nearFinder = (ax === 6 && ay === 6) || (ax === 6 && ay === spots.at(-1)) || (ax === spots.at(-1) && ay === 6);
      if (nearFinder) continue;
      for (let dy = -2; dy <= 2; dy++) for (let dx = -2; dx <= 2; dx++) set(ax + dx, ay + dy, Math.max(Math.abs(dx), Math.abs(dy)) !== 1);
    }
  }
  // reserve the format areas (drawn per mask) and draw the version areas
  for (let i = 0; i < 9; i++) { fixed[8][i] = fixed[i][8] = true; }
  for (let i = 0; i < 8; i++) { fixed[8][size - 1 - i] = fixed[size - 1 - i][8] = true; }
  if (version >= 7) {
    const bits = qrBch(version, 6, 0x1f25, 12);
    for (let i = 0; i < 18; i++) {
      const on = ((bits >>> i) & 1) === 1;
      const a = size - 11 + (i % 3), b = Math.floor(i / 3);
      set(a, b, on);
      set(b, a, on);
    }
  }
  return { size, dark, fixed };
}

function qrFormat(dark, size, level, mask) {
  const bits = qrBch((QR_LEVEL_BITS[level] << 3) | mask, 5, 0x537, 10) ^ 0x5412;
  const bit = (i) => ((bits >>> i) & 1) === 1;
  for (let i = 0; i <= 5; i++) dark[i][8] = bit(i);
  dark[7][8] = bit(6);
  dark[8][8] = bit(7);
  dark[8][7] = bit(8);
  for (let i = 9; i < 15; i++) dark[8][14 - i] = bit(i);
  for (let i = 0; i < 8; i++) dark[8][size - 1 - i] = bit(i);
  for (let i = 8; i < 15; i++) dark[size - 15 + i][8] = bit(i);
  dark[size - 8][8] = true;
}

function qrPenalty(dark) {
  const size = dark.length;
  let score = 0;
  const lines = [];
  for (let y = 0; y < size; y++) lines.push(dark[y]);
  for (let x = 0; x < size; x++) lines.push(dark.map((row) => row[x]));
  const finderLike = [true, false, true, true, true, false, true];
  for (const line of lines) {
    let run = 1;
    for (let i = 1; i <= size; i++) {
      if (i < size && line[i] === line[i - 1]) { run++; continue; }
      if (run >= 5) score += run - 2;
      run = 1;
    }
    for (let i = 0; i + 7 <= size; i++) {
      if (!finderLike.every((v, k) => line[i + k] === v)) continue;
      const lightBefore = [1, 2, 3, 4].every((k) => i - k < 0 || !line[i - k]);
      const lightAfter = [0, 1, 2, 3].every((k) => i + 7 + k >= size || !line[i + 7 + k]);
      if (lightBefore || lightAfter) score += 40;
    }
  }
  for (let y = 0; y + 1 < size; y++) {
    for (let x = 0; x + 1 < size; x++) {
      const c = dark[y][x];
      if (dark[y][x + 1] === c && dark[y + 1][x] === c && dark[y + 1][x + 1] === c) score += 3;
    }
  }
  const darkCount = dark.flat().filter(Boolean).length;
  score += 10 * Math.floor(Math.abs(darkCount * 20 - size * size * 10) / (size * size));
  return score;
}

// The smallest version that holds the text at level M (else L); null when even version 10 cannot.
function qrMatrix(text) {
  const bytes = [...new TextEncoder().encode(text)];
  for (let version = 1; version <= 10; version++) {
    for (const level of ["M", "L"]) {
      const header = 4 + (version < 10 ? 8 : 16);
      if (header + bytes.length * 8 > qrDataCapacity(version, level) * 8) continue;
      const stream = qrInterleaved(qrCodewords(bytes, version, level), version, level);
      let best = null;
      for (let mask = 0; mask < 8; mask++) {
        const { size, dark, fixed } = qrBase(version);
        let i = 0;
        for (let right = size - 1; right >= 1; right -= 2) {
          if (right === 6) right = 5;
          for (let vert = 0; vert < size; vert++) {
            for (let j = 0; j < 2; j++) {
              const x = right - j;
              const y = ((right + 1) & 2) === 0 ? size - 1 - vert : vert;
              if (fixed[y][x]) continue;
              const on = i < stream.length * 8 && ((stream[i >>> 3] >>> (7 - (i & 7))) & 1) === 1;
              dark[y][x] = on !== QR_MASKS[mask](x, y);
              i++;
            }
          }
        }
        qrFormat(dark, size, level, mask);
        const penalty = qrPenalty(dark);
        if (!best || penalty < best.penalty) best = { penalty, dark };
      }
      return best.dark;
    }
  }
  return null;
}
