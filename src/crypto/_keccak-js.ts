/**
 * Portable Keccak-256 in plain JavaScript: the fallback kernel when neither the native addon nor
 * WebAssembly is available, and the reference the other backends are tested against.
 *
 * Lanes are 64-bit, held as two 32-bit halves in locals (JS has no fast 64-bit integers). The round
 * body is unrolled with the rho rotations and the pi lane mapping resolved in the source, so the
 * engine sees straight-line int32 code and keeps most of the state in registers. The state array is
 * laid out [lo0, hi0, lo1, hi1, …]; bytes are assembled little-endian by hand so the code does not
 * depend on the platform's byte order.
 * Internal to src/crypto/ (the leading `_`): keccak.ts is the API.
 */

// Round constants of Keccak-f[1600] (FIPS 202), as [hi, lo] 32-bit pairs.
const RC = new Int32Array([
  0x00000000, 0x00000001, 0x00000000, 0x00008082, 0x80000000, 0x0000808a, 0x80000000, 0x80008000,
  0x00000000, 0x0000808b, 0x00000000, 0x80000001, 0x80000000, 0x80008081, 0x80000000, 0x00008009,
  0x00000000, 0x0000008a, 0x00000000, 0x00000088, 0x00000000, 0x80008009, 0x00000000, 0x8000000a,
  0x00000000, 0x8000808b, 0x80000000, 0x0000008b, 0x80000000, 0x00008089, 0x80000000, 0x00008003,
  0x80000000, 0x00008002, 0x80000000, 0x00000080, 0x00000000, 0x0000800a, 0x80000000, 0x8000000a,
  0x80000000, 0x80008081, 0x80000000, 0x00008080, 0x00000000, 0x80000001, 0x80000000, 0x80008008,
]);

/** Keccak-f[1600] on a state of 50 int32 words ([lo, hi] per lane), in place. */
function keccakF(s: Int32Array): void {
  let a0l = s[0] | 0, a0h = s[1] | 0, a1l = s[2] | 0, a1h = s[3] | 0, a2l = s[4] | 0, a2h = s[5] | 0;
  let a3l = s[6] | 0, a3h = s[7] | 0, a4l = s[8] | 0, a4h = s[9] | 0, a5l = s[10] | 0, a5h = s[11] | 0;
  let a6l = s[12] | 0, a6h = s[13] | 0, a7l = s[14] | 0, a7h = s[15] | 0, a8l = s[16] | 0, a8h = s[17] | 0;
  let a9l = s[18] | 0, a9h = s[19] | 0, a10l = s[20] | 0, a10h = s[21] | 0, a11l = s[22] | 0, a11h = s[23] | 0;
  let a12l = s[24] | 0, a12h = s[25] | 0, a13l = s[26] | 0, a13h = s[27] | 0, a14l = s[28] | 0, a14h = s[29] | 0;
  let a15l = s[30] | 0, a15h = s[31] | 0, a16l = s[32] | 0, a16h = s[33] | 0, a17l = s[34] | 0, a17h = s[35] | 0;
  let a18l = s[36] | 0, a18h = s[37] | 0, a19l = s[38] | 0, a19h = s[39] | 0, a20l = s[40] | 0, a20h = s[41] | 0;
  let a21l = s[42] | 0, a21h = s[43] | 0, a22l = s[44] | 0, a22h = s[45] | 0, a23l = s[46] | 0, a23h = s[47] | 0;
  let a24l = s[48] | 0, a24h = s[49] | 0;
  for (let r = 0; r < 24; r++) {
    const c0l = a0l ^ a5l ^ a10l ^ a15l ^ a20l;
    const c0h = a0h ^ a5h ^ a10h ^ a15h ^ a20h;
    const c1l = a1l ^ a6l ^ a11l ^ a16l ^ a21l;
    const c1h = a1h ^ a6h ^ a11h ^ a16h ^ a21h;
    const c2l = a2l ^ a7l ^ a12l ^ a17l ^ a22l;
    const c2h = a2h ^ a7h ^ a12h ^ a17h ^ a22h;
    const c3l = a3l ^ a8l ^ a13l ^ a18l ^ a23l;
    const c3h = a3h ^ a8h ^ a13h ^ a18h ^ a23h;
    const c4l = a4l ^ a9l ^ a14l ^ a19l ^ a24l;
    const c4h = a4h ^ a9h ^ a14h ^ a19h ^ a24h;
    const d0h = c4h ^ ((c1h << 1) | (c1l >>> 31));
    const d0l = c4l ^ ((c1l << 1) | (c1h >>> 31));
    const d1h = c0h ^ ((c2h << 1) | (c2l >>> 31));
    const d1l = c0l ^ ((c2l << 1) | (c2h >>> 31));
    const d2h = c1h ^ ((c3h << 1) | (c3l >>> 31));
    const d2l = c1l ^ ((c3l << 1) | (c3h >>> 31));
    const d3h = c2h ^ ((c4h << 1) | (c4l >>> 31));
    const d3l = c2l ^ ((c4l << 1) | (c4h >>> 31));
    const d4h = c3h ^ ((c0h << 1) | (c0l >>> 31));
    const d4l = c3l ^ ((c0l << 1) | (c0h >>> 31));
    const t0h = a0h ^ d0h, t0l = a0l ^ d0l;
    const b0h = t0h, b0l = t0l;
    const t16h = a5h ^ d0h, t16l = a5l ^ d0l;
    const b16h = (t16l << 4) | (t16h >>> 28), b16l = (t16h << 4) | (t16l >>> 28);
    const t7h = a10h ^ d0h, t7l = a10l ^ d0l;
    const b7h = (t7h << 3) | (t7l >>> 29), b7l = (t7l << 3) | (t7h >>> 29);
    const t23h = a15h ^ d0h, t23l = a15l ^ d0l;
    const b23h = (t23l << 9) | (t23h >>> 23), b23l = (t23h << 9) | (t23l >>> 23);
    const t14h = a20h ^ d0h, t14l = a20l ^ d0l;
    const b14h = (t14h << 18) | (t14l >>> 14), b14l = (t14l << 18) | (t14h >>> 14);
    const t10h = a1h ^ d1h, t10l = a1l ^ d1l;
    const b10h = (t10h << 1) | (t10l >>> 31), b10l = (t10l << 1) | (t10h >>> 31);
    const t1h = a6h ^ d1h, t1l = a6l ^ d1l;
    const b1h = (t1l << 12) | (t1h >>> 20), b1l = (t1h << 12) | (t1l >>> 20);
    const t17h = a11h ^ d1h, t17l = a11l ^ d1l;
    const b17h = (t17h << 10) | (t17l >>> 22), b17l = (t17l << 10) | (t17h >>> 22);
    const t8h = a16h ^ d1h, t8l = a16l ^ d1l;
    const b8h = (t8l << 13) | (t8h >>> 19), b8l = (t8h << 13) | (t8l >>> 19);
    const t24h = a21h ^ d1h, t24l = a21l ^ d1l;
    const b24h = (t24h << 2) | (t24l >>> 30), b24l = (t24l << 2) | (t24h >>> 30);
    const t20h = a2h ^ d2h, t20l = a2l ^ d2l;
    const b20h = (t20l << 30) | (t20h >>> 2), b20l = (t20h << 30) | (t20l >>> 2);
    const t11h = a7h ^ d2h, t11l = a7l ^ d2l;
    const b11h = (t11h << 6) | (t11l >>> 26), b11l = (t11l << 6) | (t11h >>> 26);
    const t2h = a12h ^ d2h, t2l = a12l ^ d2l;
    const b2h = (t2l << 11) | (t2h >>> 21), b2l = (t2h << 11) | (t2l >>> 21);
    const t18h = a17h ^ d2h, t18l = a17l ^ d2l;
    const b18h = (t18h << 15) | (t18l >>> 17), b18l = (t18l << 15) | (t18h >>> 17);
    const t9h = a22h ^ d2h, t9l = a22l ^ d2l;
    const b9h = (t9l << 29) | (t9h >>> 3), b9l = (t9h << 29) | (t9l >>> 3);
    const t5h = a3h ^ d3h, t5l = a3l ^ d3l;
    const b5h = (t5h << 28) | (t5l >>> 4), b5l = (t5l << 28) | (t5h >>> 4);
    const t21h = a8h ^ d3h, t21l = a8l ^ d3l;
    const b21h = (t21l << 23) | (t21h >>> 9), b21l = (t21h << 23) | (t21l >>> 9);
    const t12h = a13h ^ d3h, t12l = a13l ^ d3l;
    const b12h = (t12h << 25) | (t12l >>> 7), b12l = (t12l << 25) | (t12h >>> 7);
    const t3h = a18h ^ d3h, t3l = a18l ^ d3l;
    const b3h = (t3h << 21) | (t3l >>> 11), b3l = (t3l << 21) | (t3h >>> 11);
    const t19h = a23h ^ d3h, t19l = a23l ^ d3l;
    const b19h = (t19l << 24) | (t19h >>> 8), b19l = (t19h << 24) | (t19l >>> 8);
    const t15h = a4h ^ d4h, t15l = a4l ^ d4l;
    const b15h = (t15h << 27) | (t15l >>> 5), b15l = (t15l << 27) | (t15h >>> 5);
    const t6h = a9h ^ d4h, t6l = a9l ^ d4l;
    const b6h = (t6h << 20) | (t6l >>> 12), b6l = (t6l << 20) | (t6h >>> 12);
    const t22h = a14h ^ d4h, t22l = a14l ^ d4l;
    const b22h = (t22l << 7) | (t22h >>> 25), b22l = (t22h << 7) | (t22l >>> 25);
    const t13h = a19h ^ d4h, t13l = a19l ^ d4l;
    const b13h = (t13h << 8) | (t13l >>> 24), b13l = (t13l << 8) | (t13h >>> 24);
    const t4h = a24h ^ d4h, t4l = a24l ^ d4l;
    const b4h = (t4h << 14) | (t4l >>> 18), b4l = (t4l << 14) | (t4h >>> 18);
    a0h = b0h ^ (~b1h & b2h);
    a0l = b0l ^ (~b1l & b2l);
    a1h = b1h ^ (~b2h & b3h);
    a1l = b1l ^ (~b2l & b3l);
    a2h = b2h ^ (~b3h & b4h);
    a2l = b2l ^ (~b3l & b4l);
    a3h = b3h ^ (~b4h & b0h);
    a3l = b3l ^ (~b4l & b0l);
    a4h = b4h ^ (~b0h & b1h);
    a4l = b4l ^ (~b0l & b1l);
    a5h = b5h ^ (~b6h & b7h);
    a5l = b5l ^ (~b6l & b7l);
    a6h = b6h ^ (~b7h & b8h);
    a6l = b6l ^ (~b7l & b8l);
    a7h = b7h ^ (~b8h & b9h);
    a7l = b7l ^ (~b8l & b9l);
    a8h = b8h ^ (~b9h & b5h);
    a8l = b8l ^ (~b9l & b5l);
    a9h = b9h ^ (~b5h & b6h);
    a9l = b9l ^ (~b5l & b6l);
    a10h = b10h ^ (~b11h & b12h);
    a10l = b10l ^ (~b11l & b12l);
    a11h = b11h ^ (~b12h & b13h);
    a11l = b11l ^ (~b12l & b13l);
    a12h = b12h ^ (~b13h & b14h);
    a12l = b12l ^ (~b13l & b14l);
    a13h = b13h ^ (~b14h & b10h);
    a13l = b13l ^ (~b14l & b10l);
    a14h = b14h ^ (~b10h & b11h);
    a14l = b14l ^ (~b10l & b11l);
    a15h = b15h ^ (~b16h & b17h);
    a15l = b15l ^ (~b16l & b17l);
    a16h = b16h ^ (~b17h & b18h);
    a16l = b16l ^ (~b17l & b18l);
    a17h = b17h ^ (~b18h & b19h);
    a17l = b17l ^ (~b18l & b19l);
    a18h = b18h ^ (~b19h & b15h);
    a18l = b18l ^ (~b19l & b15l);
    a19h = b19h ^ (~b15h & b16h);
    a19l = b19l ^ (~b15l & b16l);
    a20h = b20h ^ (~b21h & b22h);
    a20l = b20l ^ (~b21l & b22l);
    a21h = b21h ^ (~b22h & b23h);
    a21l = b21l ^ (~b22l & b23l);
    a22h = b22h ^ (~b23h & b24h);
    a22l = b22l ^ (~b23l & b24l);
    a23h = b23h ^ (~b24h & b20h);
    a23l = b23l ^ (~b24l & b20l);
    a24h = b24h ^ (~b20h & b21h);
    a24l = b24l ^ (~b20l & b21l);
    a0h ^= RC[2 * r]; a0l ^= RC[2 * r + 1];
  }
  s[0] = a0l; s[1] = a0h; s[2] = a1l; s[3] = a1h; s[4] = a2l; s[5] = a2h; s[6] = a3l; s[7] = a3h;
  s[8] = a4l; s[9] = a4h; s[10] = a5l; s[11] = a5h; s[12] = a6l; s[13] = a6h; s[14] = a7l; s[15] = a7h;
  s[16] = a8l; s[17] = a8h; s[18] = a9l; s[19] = a9h; s[20] = a10l; s[21] = a10h; s[22] = a11l; s[23] = a11h;
  s[24] = a12l; s[25] = a12h; s[26] = a13l; s[27] = a13h; s[28] = a14l; s[29] = a14h; s[30] = a15l; s[31] = a15h;
  s[32] = a16l; s[33] = a16h; s[34] = a17l; s[35] = a17h; s[36] = a18l; s[37] = a18h; s[38] = a19l; s[39] = a19h;
  s[40] = a20l; s[41] = a20h; s[42] = a21l; s[43] = a21h; s[44] = a22l; s[45] = a22h; s[46] = a23l; s[47] = a23h;
  s[48] = a24l; s[49] = a24h;
}

const RATE = 136; // bytes per block for a 256-bit output: (1600 - 2·256) / 8

function readLE32(b: Uint8Array, o: number): number {
  return b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24);
}

function writeState(s: Int32Array, out: Uint8Array, o: number): void {
  for (let i = 0; i < 8; i++) {
    const w = s[i]!;
    out[o + 4 * i] = w;
    out[o + 4 * i + 1] = w >>> 8;
    out[o + 4 * i + 2] = w >>> 16;
    out[o + 4 * i + 3] = w >>> 24;
  }
}

const state = new Int32Array(50);

/**
 * keccak256 of any byte string (original Keccak padding 0x01…0x80, as Solana and Ethereum use).
 *
 * @example
 * keccak256Js(new Uint8Array()) // c5d24601…5d85a470
 */
export function keccak256Js(data: Uint8Array, out: Uint8Array = new Uint8Array(32), outOffset = 0): Uint8Array {
  const s = state;
  s.fill(0);
  let off = 0;
  const len = data.length;
  for (; len - off >= RATE; off += RATE) {
    for (let i = 0; i < RATE / 4; i++) s[i] ^= readLE32(data, off + 4 * i);
    keccakF(s);
  }
  // Last (partial) block: XOR whole words, then the remaining bytes, then the padding.
  const rest = len - off;
  const words = rest >>> 2;
  for (let i = 0; i < words; i++) s[i] ^= readLE32(data, off + 4 * i);
  for (let j = words * 4; j < rest; j++) s[j >>> 2] ^= data[off + j]! << (8 * (j & 3));
  s[rest >>> 2] ^= 0x01 << (8 * (rest & 3));
  s[(RATE - 1) >>> 2] ^= 0x80 << 24;
  keccakF(s);
  writeState(s, out, outOffset);
  return out;
}

/**
 * Root of a Merkle path: at level i the node is hashed on the left when bit i of `index` is 0,
 * on the right otherwise (`parent = keccak256(left ‖ right)`). `proof` is 32·depth bytes, leaf → root.
 * The node stays in state words between levels; only the sibling is read from bytes.
 */
export function keccakPathRootJs(leaf: Uint8Array, proof: Uint8Array, index: number, out: Uint8Array = new Uint8Array(32)): Uint8Array {
  const s = state;
  const depth = proof.length >>> 5;
  const node = nodeWords;
  for (let i = 0; i < 8; i++) node[i] = readLE32(leaf, 4 * i);
  let idx = index;
  for (let level = 0; level < depth; level++) {
    s.fill(0);
    const p = level * 32;
    // bit `level` of index; division keeps indices above 2^32 exact (JS bit ops are 32-bit)
    const right = idx % 2 === 1;
    idx = Math.floor(idx / 2);
    const nodeAt = right ? 8 : 0;
    const sibAt = right ? 0 : 8;
    for (let i = 0; i < 8; i++) {
      s[nodeAt + i] = node[i]!;
      s[sibAt + i] = readLE32(proof, p + 4 * i);
    }
    s[16] = 0x01; // pad byte at offset 64
    s[33] = 0x80 << 24; // final pad bit at offset 135 (top byte of lane 16)
    keccakF(s);
    for (let i = 0; i < 8; i++) node[i] = s[i]!;
  }
  for (let i = 0; i < 8; i++) s[i] = node[i]!;
  writeState(s, out, 0);
  return out;
}

const nodeWords = new Int32Array(8);
