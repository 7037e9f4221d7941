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
 * arm64), sixteen 16-bit limbs in 64-bit words elsewhere (wasm32). Neither needs to be constant time:
 * every input is public.
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

#if defined(__SIZEOF_INT128__) && !defined(__wasm__) && !defined(CAIRN_FE16)

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

#else /* sixteen 16-bit limbs, products summed in int64 */

typedef int64_t fe[16];

static void fe_frombytes(fe h, const uint8_t s[32]) {
  for (int i = 0; i < 16; i++) h[i] = s[2 * i] + ((int64_t)s[2 * i + 1] << 8);
  h[15] &= 0x7fff;
}

/* Move each limb's excess up; the carry out of the top limb re-enters at the bottom times 38
 * (2^256 = 38 mod p). Limbs end within [0, 2^16) except limb 0, which may hold a little more. */
static void fe_carry(fe h) {
  for (int i = 0; i < 16; i++) {
    const int64_t c = h[i] >> 16; /* arithmetic shift: floors negative limbs too */
    h[i] -= c * 65536;
    if (i < 15) h[i + 1] += c;
    else h[0] += 38 * c;
  }
}

static void fe_mul(fe h, const fe f, const fe g) {
  int64_t t[31];
  for (int i = 0; i < 31; i++) t[i] = 0;
  for (int i = 0; i < 16; i++)
    for (int j = 0; j < 16; j++) t[i + j] += f[i] * g[j];
  for (int i = 0; i < 15; i++) t[i] += 38 * t[i + 16];
  for (int i = 0; i < 16; i++) h[i] = t[i];
  fe_carry(h);
  fe_carry(h);
}

static void fe_sq(fe h, const fe f) { fe_mul(h, f, f); }

static void fe_add(fe h, const fe f, const fe g) {
  for (int i = 0; i < 16; i++) h[i] = f[i] + g[i];
}

static void fe_sub(fe h, const fe f, const fe g) {
  for (int i = 0; i < 16; i++) h[i] = f[i] - g[i];
}

static void fe_one(fe h) {
  h[0] = 1;
  for (int i = 1; i < 16; i++) h[i] = 0;
}

static void fe_tobytes(uint8_t s[32], const fe f) {
  int64_t t[16], m[16];
  for (int i = 0; i < 16; i++) t[i] = f[i];
  fe_carry(t);
  fe_carry(t);
  fe_carry(t);
  /* t < 2^256 now; subtract p at most twice, keeping the difference when it did not borrow. */
  for (int round = 0; round < 2; round++) {
    m[0] = t[0] - 0xffed;
    for (int i = 1; i < 15; i++) {
      m[i] = t[i] - 0xffff - ((m[i - 1] >> 16) & 1);
      m[i - 1] &= 0xffff;
    }
    m[15] = t[15] - 0x7fff - ((m[14] >> 16) & 1);
    m[14] &= 0xffff;
    if (!((m[15] >> 16) & 1)) memcpy(t, m, sizeof t);
  }
  for (int i = 0; i < 16; i++) {
    s[2 * i] = (uint8_t)t[i];
    s[2 * i + 1] = (uint8_t)(t[i] >> 8);
  }
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
