/*
 * PDA search without BigInt (see pda.h). The asset-leaf verifier derives one asset id per item, and
 * each bump it tries costs a SHA-256 and an ed25519 decompression test; done with JS BigInt that test
 * was ~150 µs and most of the verifier's time, and the garbage it made slowed both worker threads.
 *
 * On-curve test: a y decompresses iff u/v is a square mod p = 2^255 - 19, with u = y² - 1 and
 * v = d·y² + 1 (curve25519-dalek's `sqrt_ratio_i` says "was square" exactly then, u = 0 included).
 * For v ≠ 0 that is Euler's criterion on u·v: (u·v)^((p-1)/2) ∈ {0, 1}. v is never 0 (-1/d is not a
 * square), but it is checked anyway. The sign bit plays no part: dalek accepts x = 0 with sign 1.
 *
 * Field arithmetic: five 51-bit limbs with 128-bit products where the compiler has them (x86-64,
 * arm64), ten 25/26-bit limbs with 64-bit products elsewhere (wasm32; -DCAIRN_FE_PORTABLE forces it for
 * testing). Neither needs to be constant time: every input is public.
 */
#include "pda.h"
#ifdef __wasm__
/* No libc in the WebAssembly build: pda_wasm.c provides these two. */
#define memcpy __builtin_memcpy
#define memset __builtin_memset
#else
#include <string.h>
#endif

/* ------------------------------------------------------------------------------------ SHA-256 */

static const uint32_t K256[64] = {
  0x428a2f98u, 0x71374491u, 0xb5c0fbcfu, 0xe9b5dba5u, 0x3956c25bu, 0x59f111f1u, 0x923f82a4u, 0xab1c5ed5u,
  0xd807aa98u, 0x12835b01u, 0x243185beu, 0x550c7dc3u, 0x72be5d74u, 0x80deb1feu, 0x9bdc06a7u, 0xc19bf174u,
  0xe49b69c1u, 0xefbe4786u, 0x0fc19dc6u, 0x240ca1ccu, 0x2de92c6fu, 0x4a7484aau, 0x5cb0a9dcu, 0x76f988dau,
  0x983e5152u, 0xa831c66du, 0xb00327c8u, 0xbf597fc7u, 0xc6e00bf3u, 0xd5a79147u, 0x06ca6351u, 0x14292967u,
  0x27b70a85u, 0x2e1b2138u, 0x4d2c6dfcu, 0x53380d13u, 0x650a7354u, 0x766a0abbu, 0x81c2c92eu, 0x92722c85u,
  0xa2bfe8a1u, 0xa81a664bu, 0xc24b8b70u, 0xc76c51a3u, 0xd192e819u, 0xd6990624u, 0xf40e3585u, 0x106aa070u,
  0x19a4c116u, 0x1e376c08u, 0x2748774cu, 0x34b0bcb5u, 0x391c0cb3u, 0x4ed8aa4au, 0x5b9cca4fu, 0x682e6ff3u,
  0x748f82eeu, 0x78a5636fu, 0x84c87814u, 0x8cc70208u, 0x90befffau, 0xa4506cebu, 0xbef9a3f7u, 0xc67178f2u,
};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(uint32_t st[8], const uint8_t *p) {
  uint32_t w[64];
  for (int i = 0; i < 16; i++) w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
  for (int i = 16; i < 64; i++) {
    const uint32_t s0 = ROTR(w[i - 15], 7) ^ ROTR(w[i - 15], 18) ^ (w[i - 15] >> 3);
    const uint32_t s1 = ROTR(w[i - 2], 17) ^ ROTR(w[i - 2], 19) ^ (w[i - 2] >> 10);
    w[i] = w[i - 16] + s0 + w[i - 7] + s1;
  }
  uint32_t a = st[0], b = st[1], c = st[2], d = st[3], e = st[4], f = st[5], g = st[6], h = st[7];
  for (int i = 0; i < 64; i++) {
    const uint32_t t1 = h + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i];
    const uint32_t t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  st[0] += a;
  st[1] += b;
  st[2] += c;
  st[3] += d;
  st[4] += e;
  st[5] += f;
  st[6] += g;
  st[7] += h;
}

void cairn_sha256(const uint8_t *data, size_t len, uint8_t out[32]) {
  uint32_t st[8] = {0x6a09e667u, 0xbb67ae85u, 0x3c6ef372u, 0xa54ff53au, 0x510e527fu, 0x9b05688cu, 0x1f83d9abu, 0x5be0cd19u};
  size_t off = 0;
  for (; len - off >= 64; off += 64) sha256_block(st, data + off);
  uint8_t tail[128];
  const size_t rest = len - off;
  memcpy(tail, data + off, rest);
  tail[rest] = 0x80;
  const size_t total = rest + 9 <= 64 ? 64 : 128;
  memset(tail + rest + 1, 0, total - rest - 1);
  const uint64_t bits = (uint64_t)len * 8;
  for (int i = 0; i < 8; i++) tail[total - 1 - i] = (uint8_t)(bits >> (8 * i));
  sha256_block(st, tail);
  if (total == 128) sha256_block(st, tail + 64);
  for (int i = 0; i < 8; i++) {
    out[4 * i] = (uint8_t)(st[i] >> 24);
    out[4 * i + 1] = (uint8_t)(st[i] >> 16);
    out[4 * i + 2] = (uint8_t)(st[i] >> 8);
    out[4 * i + 3] = (uint8_t)st[i];
  }
}

/* ---------------------------------------------------------------------- GF(2^255 - 19) */

/* d = -121665/121666 mod p, little-endian. */
static const uint8_t D_BYTES[32] = {
  0xa3, 0x78, 0x59, 0x13, 0xca, 0x4d, 0xeb, 0x75, 0xab, 0xd8, 0x41, 0x41, 0x4d, 0x0a, 0x70, 0x00,
  0x98, 0xe8, 0x79, 0x77, 0x79, 0x40, 0xc7, 0x8c, 0x73, 0xfe, 0x6f, 0x2b, 0xee, 0x6c, 0x03, 0x52,
};

#if defined(__SIZEOF_INT128__) && !defined(__wasm__) && !defined(CAIRN_FE_PORTABLE)

typedef uint64_t fe[5];
typedef unsigned __int128 u128;
#define M51 ((uint64_t)0x7ffffffffffff)

static uint64_t load64(const uint8_t *s) {
  uint64_t r = 0;
  for (int i = 7; i >= 0; i--) r = r << 8 | s[i];
  return r;
}

/* Bit 255 (the x sign) is dropped; a y ≥ p stays as it is and reduces in the arithmetic. */
static void fe_frombytes(fe h, const uint8_t s[32]) {
  const uint64_t w0 = load64(s), w1 = load64(s + 8), w2 = load64(s + 16), w3 = load64(s + 24);
  h[0] = w0 & M51;
  h[1] = (w0 >> 51 | w1 << 13) & M51;
  h[2] = (w1 >> 38 | w2 << 26) & M51;
  h[3] = (w2 >> 25 | w3 << 39) & M51;
  h[4] = (w3 >> 12) & M51;
}

/* Columns → limbs < 2^52. Carries stay 128-bit: for limbs near 2^54 a column exceeds 2^115. */
static inline void fe_carry128(fe h, u128 r0, u128 r1, u128 r2, u128 r3, u128 r4) {
  r1 += r0 >> 51;
  r2 += r1 >> 51;
  r3 += r2 >> 51;
  r4 += r3 >> 51;
  const u128 h0 = (u128)((uint64_t)r0 & M51) + 19 * (r4 >> 51);
  h[1] = ((uint64_t)r1 & M51) + (uint64_t)(h0 >> 51);
  h[0] = (uint64_t)h0 & M51;
  h[2] = (uint64_t)r2 & M51;
  h[3] = (uint64_t)r3 & M51;
  h[4] = (uint64_t)r4 & M51;
}

/* Limbs in < 2^54 (sums and the 4p-offset differences below stay there); out < 2^52. */
static void fe_mul(fe h, const fe f, const fe g) {
  const uint64_t g1 = 19 * g[1], g2 = 19 * g[2], g3 = 19 * g[3], g4 = 19 * g[4];
  u128 r0 = (u128)f[0] * g[0] + (u128)f[1] * g4 + (u128)f[2] * g3 + (u128)f[3] * g2 + (u128)f[4] * g1;
  u128 r1 = (u128)f[0] * g[1] + (u128)f[1] * g[0] + (u128)f[2] * g4 + (u128)f[3] * g3 + (u128)f[4] * g2;
  u128 r2 = (u128)f[0] * g[2] + (u128)f[1] * g[1] + (u128)f[2] * g[0] + (u128)f[3] * g4 + (u128)f[4] * g3;
  u128 r3 = (u128)f[0] * g[3] + (u128)f[1] * g[2] + (u128)f[2] * g[1] + (u128)f[3] * g[0] + (u128)f[4] * g4;
  u128 r4 = (u128)f[0] * g[4] + (u128)f[1] * g[3] + (u128)f[2] * g[2] + (u128)f[3] * g[1] + (u128)f[4] * g[0];
  fe_carry128(h, r0, r1, r2, r3, r4);
}

/* Squaring: 15 products instead of 25 (the Legendre exponentiation is ~255 squarings). */
static void fe_sq(fe h, const fe f) {
  const uint64_t d0 = 2 * f[0], d1 = 2 * f[1], d2 = 2 * f[2], d3 = 2 * f[3];
  const uint64_t f3_19 = 19 * f[3], f4_19 = 19 * f[4];
  const u128 r0 = (u128)f[0] * f[0] + (u128)d1 * f4_19 + (u128)d2 * f3_19;
  const u128 r1 = (u128)d0 * f[1] + (u128)d2 * f4_19 + (u128)f[3] * f3_19;
  const u128 r2 = (u128)d0 * f[2] + (u128)f[1] * f[1] + (u128)d3 * f4_19;
  const u128 r3 = (u128)d0 * f[3] + (u128)d1 * f[2] + (u128)f[4] * f4_19;
  const u128 r4 = (u128)d0 * f[4] + (u128)d1 * f[3] + (u128)f[2] * f[2];
  fe_carry128(h, r0, r1, r2, r3, r4);
}

static void fe_add(fe h, const fe f, const fe g) {
  for (int i = 0; i < 5; i++) h[i] = f[i] + g[i];
}

/* f - g + 4p, so no limb goes negative for g < 2^53. */
static void fe_sub(fe h, const fe f, const fe g) {
  h[0] = f[0] + 0x1fffffffffffb4 - g[0];
  for (int i = 1; i < 5; i++) h[i] = f[i] + 0x1ffffffffffffc - g[i];
}

static void fe_one(fe h) {
  h[0] = 1;
  h[1] = h[2] = h[3] = h[4] = 0;
}

/* The canonical value (0 ≤ h < p) as little-endian bytes. */
static void fe_tobytes(uint8_t s[32], const fe f) {
  uint64_t t[5];
  memcpy(t, f, sizeof t);
  for (int round = 0; round < 2; round++) {
    for (int i = 0; i < 4; i++) {
      t[i + 1] += t[i] >> 51;
      t[i] &= M51;
    }
    t[0] += 19 * (t[4] >> 51);
    t[4] &= M51;
  }
  /* Now t < 2^255 + small; q = 1 exactly when t ≥ p. */
  uint64_t q = (t[0] + 19) >> 51;
  for (int i = 1; i < 5; i++) q = (t[i] + q) >> 51;
  t[0] += 19 * q;
  for (int i = 0; i < 4; i++) {
    t[i + 1] += t[i] >> 51;
    t[i] &= M51;
  }
  t[4] &= M51;
  const uint64_t w[4] = {t[0] | t[1] << 51, t[1] >> 13 | t[2] << 38, t[2] >> 26 | t[3] << 25, t[3] >> 39 | t[4] << 12};
  for (int i = 0; i < 32; i++) s[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
}

#else /* ten limbs of 26 and 25 bits alternately (radix 2^25.5), products summed in 64 bits */

/* wasm32 has a 64-bit multiply but no 64×64→128, so 51-bit limbs would need the product split in
 * software. Ten limbs at bit offsets 0, 26, 51, 77, ..., 230 (even limbs 26 bits wide, odd limbs 25)
 * keep every partial product inside a u64 with room to sum ten of them: 100 multiplies per fe_mul,
 * 55 per fe_sq, against 256 for sixteen 16-bit limbs.
 *
 * Limb i sits at bit ceil(25.5·i), so f_i·g_j lands at bit ceil(25.5·(i+j)) + 1 when i and j are
 * both odd (hence the doubled odd limbs below) and exactly on limb i+j otherwise; for i+j ≥ 10 it
 * wraps onto limb i+j-10 times 19 (2^255 = 19 mod p, and 25.5·10 = 255).
 *
 * Limbs are never negative. "Carried" means even limbs < 2^26 and odd limbs < 2^25 + 2^15; every fe
 * leaving fe_frombytes, fe_one, fe_mul, fe_sq, fe_add and fe_sub is carried. For carried inputs each
 * product column of fe_mul/fe_sq is < 2^59 (the worst is column 0: 1 + 4·19 + 5·38 weighted terms),
 * far from overflow. */
typedef uint64_t fe[10];
#define M26 ((uint64_t)0x3ffffff)
#define M25 ((uint64_t)0x1ffffff)

static uint32_t load32(const uint8_t *s) { return (uint32_t)s[0] | (uint32_t)s[1] << 8 | (uint32_t)s[2] << 16 | (uint32_t)s[3] << 24; }

/* Bit 255 (the x sign) is dropped; a y ≥ p stays as it is (its limbs are still in range) and
 * reduces in the arithmetic. Each limb fits in the four bytes from its first one. */
static void fe_frombytes(fe h, const uint8_t s[32]) {
  h[0] = load32(s) & M26;
  h[1] = (load32(s + 3) >> 2) & M25;
  h[2] = (load32(s + 6) >> 3) & M26;
  h[3] = (load32(s + 9) >> 5) & M25;
  h[4] = (load32(s + 12) >> 6) & M26;
  h[5] = load32(s + 16) & M25;
  h[6] = (load32(s + 19) >> 1) & M26;
  h[7] = (load32(s + 22) >> 3) & M25;
  h[8] = (load32(s + 25) >> 4) & M26;
  h[9] = (load32(s + 28) >> 6) & M25;
}

/* Columns (each < 2^62) → carried limbs. Two carry chains run interleaved, 0→…→5 and 4→…→9→0 (×19),
 * then 0→1 once more; limbs 1 and 5 are the ones left a little over 25 bits (by < 2^13). */
static inline void fe_carry(fe h, uint64_t r0, uint64_t r1, uint64_t r2, uint64_t r3, uint64_t r4, uint64_t r5, uint64_t r6,
                            uint64_t r7, uint64_t r8, uint64_t r9) {
  r1 += r0 >> 26;
  r0 &= M26;
  r5 += r4 >> 26;
  r4 &= M26;
  r2 += r1 >> 25;
  r1 &= M25;
  r6 += r5 >> 25;
  r5 &= M25;
  r3 += r2 >> 26;
  r2 &= M26;
  r7 += r6 >> 26;
  r6 &= M26;
  r4 += r3 >> 25;
  r3 &= M25;
  r8 += r7 >> 25;
  r7 &= M25;
  r5 += r4 >> 26;
  r4 &= M26;
  r9 += r8 >> 26;
  r8 &= M26;
  r0 += 19 * (r9 >> 25);
  r9 &= M25;
  r1 += r0 >> 26;
  r0 &= M26;
  h[0] = r0;
  h[1] = r1;
  h[2] = r2;
  h[3] = r3;
  h[4] = r4;
  h[5] = r5;
  h[6] = r6;
  h[7] = r7;
  h[8] = r8;
  h[9] = r9;
}

static void fe_mul(fe h, const fe f, const fe g) {
  const uint64_t f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4], f5 = f[5], f6 = f[6], f7 = f[7], f8 = f[8], f9 = f[9];
  const uint64_t g0 = g[0], g1 = g[1], g2 = g[2], g3 = g[3], g4 = g[4], g5 = g[5], g6 = g[6], g7 = g[7], g8 = g[8], g9 = g[9];
  const uint64_t f1_2 = 2 * f1, f3_2 = 2 * f3, f5_2 = 2 * f5, f7_2 = 2 * f7, f9_2 = 2 * f9;
  const uint64_t g1_19 = 19 * g1, g2_19 = 19 * g2, g3_19 = 19 * g3, g4_19 = 19 * g4, g5_19 = 19 * g5;
  const uint64_t g6_19 = 19 * g6, g7_19 = 19 * g7, g8_19 = 19 * g8, g9_19 = 19 * g9;
  const uint64_t r0 = f0 * g0 + f1_2 * g9_19 + f2 * g8_19 + f3_2 * g7_19 + f4 * g6_19 + f5_2 * g5_19 + f6 * g4_19 + f7_2 * g3_19 + f8 * g2_19 + f9_2 * g1_19;
  const uint64_t r1 = f0 * g1 + f1 * g0 + f2 * g9_19 + f3 * g8_19 + f4 * g7_19 + f5 * g6_19 + f6 * g5_19 + f7 * g4_19 + f8 * g3_19 + f9 * g2_19;
  const uint64_t r2 = f0 * g2 + f1_2 * g1 + f2 * g0 + f3_2 * g9_19 + f4 * g8_19 + f5_2 * g7_19 + f6 * g6_19 + f7_2 * g5_19 + f8 * g4_19 + f9_2 * g3_19;
  const uint64_t r3 = f0 * g3 + f1 * g2 + f2 * g1 + f3 * g0 + f4 * g9_19 + f5 * g8_19 + f6 * g7_19 + f7 * g6_19 + f8 * g5_19 + f9 * g4_19;
  const uint64_t r4 = f0 * g4 + f1_2 * g3 + f2 * g2 + f3_2 * g1 + f4 * g0 + f5_2 * g9_19 + f6 * g8_19 + f7_2 * g7_19 + f8 * g6_19 + f9_2 * g5_19;
  const uint64_t r5 = f0 * g5 + f1 * g4 + f2 * g3 + f3 * g2 + f4 * g1 + f5 * g0 + f6 * g9_19 + f7 * g8_19 + f8 * g7_19 + f9 * g6_19;
  const uint64_t r6 = f0 * g6 + f1_2 * g5 + f2 * g4 + f3_2 * g3 + f4 * g2 + f5_2 * g1 + f6 * g0 + f7_2 * g9_19 + f8 * g8_19 + f9_2 * g7_19;
  const uint64_t r7 = f0 * g7 + f1 * g6 + f2 * g5 + f3 * g4 + f4 * g3 + f5 * g2 + f6 * g1 + f7 * g0 + f8 * g9_19 + f9 * g8_19;
  const uint64_t r8 = f0 * g8 + f1_2 * g7 + f2 * g6 + f3_2 * g5 + f4 * g4 + f5_2 * g3 + f6 * g2 + f7_2 * g1 + f8 * g0 + f9_2 * g9_19;
  const uint64_t r9 = f0 * g9 + f1 * g8 + f2 * g7 + f3 * g6 + f4 * g5 + f5 * g4 + f6 * g3 + f7 * g2 + f8 * g1 + f9 * g0;
  fe_carry(h, r0, r1, r2, r3, r4, r5, r6, r7, r8, r9);
}

/* Squaring: 55 products instead of 100 (the Legendre exponentiation is ~255 squarings). */
static void fe_sq(fe h, const fe f) {
  const uint64_t f0 = f[0], f1 = f[1], f2 = f[2], f3 = f[3], f4 = f[4], f5 = f[5], f6 = f[6], f7 = f[7], f8 = f[8], f9 = f[9];
  const uint64_t f0_2 = 2 * f0, f1_2 = 2 * f1, f2_2 = 2 * f2, f3_2 = 2 * f3, f4_2 = 2 * f4;
  const uint64_t f5_2 = 2 * f5, f6_2 = 2 * f6, f7_2 = 2 * f7, f8_2 = 2 * f8, f9_2 = 2 * f9;
  const uint64_t f1_4 = 4 * f1, f3_4 = 4 * f3, f5_4 = 4 * f5, f7_4 = 4 * f7;
  const uint64_t f5_19 = 19 * f5, f6_19 = 19 * f6, f7_19 = 19 * f7, f8_19 = 19 * f8, f9_19 = 19 * f9;
  const uint64_t r0 = f0 * f0 + f1_4 * f9_19 + f2_2 * f8_19 + f3_4 * f7_19 + f4_2 * f6_19 + f5_2 * f5_19;
  const uint64_t r1 = f0_2 * f1 + f2_2 * f9_19 + f3_2 * f8_19 + f4_2 * f7_19 + f5_2 * f6_19;
  const uint64_t r2 = f0_2 * f2 + f1_2 * f1 + f3_4 * f9_19 + f4_2 * f8_19 + f5_4 * f7_19 + f6 * f6_19;
  const uint64_t r3 = f0_2 * f3 + f1_2 * f2 + f4_2 * f9_19 + f5_2 * f8_19 + f6_2 * f7_19;
  const uint64_t r4 = f0_2 * f4 + f1_4 * f3 + f2 * f2 + f5_4 * f9_19 + f6_2 * f8_19 + f7_2 * f7_19;
  const uint64_t r5 = f0_2 * f5 + f1_2 * f4 + f2_2 * f3 + f6_2 * f9_19 + f7_2 * f8_19;
  const uint64_t r6 = f0_2 * f6 + f1_4 * f5 + f2_2 * f4 + f3_2 * f3 + f7_4 * f9_19 + f8 * f8_19;
  const uint64_t r7 = f0_2 * f7 + f1_2 * f6 + f2_2 * f5 + f3_2 * f4 + f8_2 * f9_19;
  const uint64_t r8 = f0_2 * f8 + f1_4 * f7 + f2_2 * f6 + f3_4 * f5 + f4 * f4 + f9_2 * f9_19;
  const uint64_t r9 = f0_2 * f9 + f1_2 * f8 + f2_2 * f7 + f3_2 * f6 + f4_2 * f5;
  fe_carry(h, r0, r1, r2, r3, r4, r5, r6, r7, r8, r9);
}

/* Carried (only two calls per on-curve test, so the carry costs nothing that matters). */
static void fe_add(fe h, const fe f, const fe g) {
  fe_carry(h, f[0] + g[0], f[1] + g[1], f[2] + g[2], f[3] + g[3], f[4] + g[4], f[5] + g[5], f[6] + g[6], f[7] + g[7],
           f[8] + g[8], f[9] + g[9]);
}

/* f - g + 2p, then carried. 2p's limbs are 2^27 - 38, 2^26 - 2, 2^27 - 2, 2^26 - 2, ...: at least
 * any carried limb of g, so nothing goes negative. */
static void fe_sub(fe h, const fe f, const fe g) {
  const uint64_t e = 0x7fffffe, o = 0x3fffffe;
  fe_carry(h, f[0] + 0x7ffffda - g[0], f[1] + o - g[1], f[2] + e - g[2], f[3] + o - g[3], f[4] + e - g[4], f[5] + o - g[5],
           f[6] + e - g[6], f[7] + o - g[7], f[8] + e - g[8], f[9] + o - g[9]);
}

static void fe_one(fe h) {
  h[0] = 1;
  for (int i = 1; i < 10; i++) h[i] = 0;
}

/* The canonical value (0 ≤ h < p) as little-endian bytes. */
static void fe_tobytes(uint8_t s[32], const fe f) {
  uint64_t t[10];
  fe_carry(t, f[0], f[1], f[2], f[3], f[4], f[5], f[6], f[7], f[8], f[9]);
  /* t < 2^255 + 2^142 < 2p, so q = floor((t + 19) / 2^255), found by carrying 19 through the limbs,
   * is 1 exactly when t ≥ p; then t + 19q with bit 255 cleared is t - qp. */
  uint64_t q = 19;
  for (int i = 0; i < 10; i++) q = (t[i] + q) >> (i & 1 ? 25 : 26);
  t[0] += 19 * q;
  for (int i = 0; i < 9; i++) {
    const int w = i & 1 ? 25 : 26;
    t[i + 1] += t[i] >> w;
    t[i] &= ((uint64_t)1 << w) - 1;
  }
  t[9] &= M25;
  uint64_t acc = 0;
  int bits = 0, n = 0;
  for (int i = 0; i < 10; i++) {
    acc |= t[i] << bits;
    bits += i & 1 ? 25 : 26;
    for (; bits >= 8; bits -= 8, acc >>= 8) s[n++] = (uint8_t)acc;
  }
  s[31] = (uint8_t)acc; /* the last 7 bits */
}

#endif

static void fe_sqn(fe h, const fe f, int n) {
  fe_sq(h, f);
  while (--n > 0) fe_sq(h, h);
}

/* z^((p-1)/2) = z^(2^254 - 10), by the usual chain to z^(2^250 - 1). */
static void fe_legendre(fe out, const fe z) {
  fe z2, z9, z11, a, b, c, z50, z250;
  fe_sq(z2, z);                 /* 2 */
  fe_sqn(a, z2, 2);             /* 8 */
  fe_mul(z9, a, z);             /* 9 */
  fe_mul(z11, z9, z2);          /* 11 */
  fe_sq(a, z11);                /* 22 */
  fe_mul(a, a, z9);             /* 2^5 - 1 */
  fe_sqn(b, a, 5);
  fe_mul(b, b, a);              /* 2^10 - 1 */
  fe_sqn(c, b, 10);
  fe_mul(c, c, b);              /* 2^20 - 1 */
  fe_sqn(a, c, 20);
  fe_mul(a, a, c);              /* 2^40 - 1 */
  fe_sqn(a, a, 10);
  fe_mul(z50, a, b);            /* 2^50 - 1 */
  fe_sqn(a, z50, 50);
  fe_mul(a, a, z50);            /* 2^100 - 1 */
  fe_sqn(c, a, 100);
  fe_mul(c, c, a);              /* 2^200 - 1 */
  fe_sqn(c, c, 50);
  fe_mul(z250, c, z50);         /* 2^250 - 1 */
  fe_sqn(a, z250, 4);           /* 2^254 - 16 */
  fe_mul(b, z2, z2);            /* 4 */
  fe_mul(b, b, z2);             /* 6 */
  fe_mul(out, a, b);            /* 2^254 - 10 */
}

static int is_zero(const uint8_t s[32]) {
  uint8_t acc = 0;
  for (int i = 0; i < 32; i++) acc |= s[i];
  return acc == 0;
}

int cairn_ed25519_on_curve(const uint8_t ybytes[32]) {
  fe y, y2, one, d, u, v, t, chi;
  uint8_t s[32];
  fe_frombytes(y, ybytes);
  fe_frombytes(d, D_BYTES);
  fe_one(one);
  fe_sq(y2, y);
  fe_sub(u, y2, one);
  fe_mul(v, d, y2);
  fe_add(v, v, one);
  fe_tobytes(s, v);
  if (is_zero(s)) return 0;
  fe_mul(t, u, v);
  fe_legendre(chi, t);
  fe_tobytes(s, chi);
  if (is_zero(s)) return 1; /* u = 0: y = ±1, x = 0 */
  s[0] ^= 1;
  return is_zero(s); /* chi = 1: a square */
}

int cairn_find_pda(uint8_t *input, size_t len, size_t bump_at, uint8_t out[32]) {
  uint8_t h[32];
  for (int b = 255; b >= 0; b--) {
    input[bump_at] = (uint8_t)b;
    cairn_sha256(input, len, h);
    if (!cairn_ed25519_on_curve(h)) {
      memcpy(out, h, 32);
      return b;
    }
  }
  return -1;
}
