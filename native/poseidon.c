/*
 * Poseidon (circom, BN254 r, x^5) kernel. Field elements stay in Montgomery form for the whole
 * permutation; the constants are generated in that form (poseidon_constants.h, by
 * scripts/gen-poseidon-constants.ts), so only the inputs and the output are converted.
 *
 * Two field layouts share one permutation:
 * - 4 x 64-bit limbs, R = 2^256, unsigned __int128 products (64-bit hosts: the N-API addon). On
 *   x86-64 CPUs with BMI2+ADX (checked once at run time) multiplication is MULX/ADCX/ADOX assembly.
 * - 9 x 29-bit limbs in 64-bit words, R = 2^261, carry-deferred (WebAssembly, which has no
 *   64x64->128 multiply, and any compiler without __int128). Define CAIRN_PORTABLE_FIELD to force it.
 *
 * The round structure is the "optimised" Poseidon (constants folded out of the partial rounds and
 * sparse partial-round matrices, see the generator for the derivation): a partial round costs one
 * S-box and 2t-1 multiplications instead of t^2. On the ADX path values live in [0, 2r) (no final
 * subtraction per multiplication); without ADX, matrix rows are summed as unreduced
 * double-width products and reduced once per row (lazy reduction).
 */
#include "poseidon.h"
#include "poseidon_constants.h"

#if defined(__SIZEOF_INT128__) && !defined(__wasm__) && !defined(CAIRN_PORTABLE_FIELD)
#define LIMB64 1
#endif

#if defined(__GNUC__) || defined(__clang__)
#define INLINE static inline __attribute__((always_inline))
/* builtins keep the WebAssembly build free of libc headers */
#define memcpy __builtin_memcpy
#define memset __builtin_memset
#else
#include <string.h>
#define INLINE static inline
#endif

#ifdef LIMB64
/* ------------------------------------------------------------- 4 x 64-bit limbs ---- */
typedef unsigned __int128 u128;
typedef struct { uint64_t v[4]; } fe;
#define Q0 0x43e1f593f0000001ULL
#define Q1 0x2833e84879b97091ULL
#define Q2 0xb85045b68181585dULL
#define Q3 0x30644e72e131a029ULL

/* z = x - r when x >= r (x < 2r). Written with overflow builtins: GCC turns u128 borrows into
 * poor code. */
INLINE void fe_reduce_once(fe *z, uint64_t t0, uint64_t t1, uint64_t t2, uint64_t t3) {
  uint64_t d0, d1, d2, d3, u1, u2, u3;
  unsigned b0 = __builtin_sub_overflow(t0, Q0, &d0);
  unsigned b1 = __builtin_sub_overflow(t1, b0, &u1) | __builtin_sub_overflow(u1, Q1, &d1);
  unsigned b2 = __builtin_sub_overflow(t2, b1, &u2) | __builtin_sub_overflow(u2, Q2, &d2);
  unsigned b3 = __builtin_sub_overflow(t3, b2, &u3) | __builtin_sub_overflow(u3, Q3, &d3);
  if (b3) { z->v[0] = t0; z->v[1] = t1; z->v[2] = t2; z->v[3] = t3; }
  else { z->v[0] = d0; z->v[1] = d1; z->v[2] = d2; z->v[3] = d3; }
}

/* Montgomery multiplication, CIOS. r's top limb is < 2^62, so the running value never needs a
 * fifth limb (the "no-carry" variant) and one conditional subtraction ends it. */
INLINE void fe_mul_generic(fe *z, const fe *x, const fe *y) {
  uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0;
  const uint64_t x0 = x->v[0], x1 = x->v[1], x2 = x->v[2], x3 = x->v[3];
  for (int i = 0; i < 4; i++) {
    const uint64_t yi = y->v[i];
    u128 p;
    uint64_t A, C, m;
    p = (u128)x0 * yi + t0; A = (uint64_t)(p >> 64); t0 = (uint64_t)p;
    m = t0 * POSEIDON_NINV;
    p = (u128)m * Q0 + t0; C = (uint64_t)(p >> 64);
    p = (u128)x1 * yi + t1 + A; A = (uint64_t)(p >> 64); t1 = (uint64_t)p;
    p = (u128)m * Q1 + t1 + C; C = (uint64_t)(p >> 64); t0 = (uint64_t)p;
    p = (u128)x2 * yi + t2 + A; A = (uint64_t)(p >> 64); t2 = (uint64_t)p;
    p = (u128)m * Q2 + t2 + C; C = (uint64_t)(p >> 64); t1 = (uint64_t)p;
    p = (u128)x3 * yi + t3 + A; A = (uint64_t)(p >> 64); t3 = (uint64_t)p;
    p = (u128)m * Q3 + t3 + C; C = (uint64_t)(p >> 64); t2 = (uint64_t)p;
    t3 = C + A;
  }
  fe_reduce_once(z, t0, t1, t2, t3);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define HAVE_ADX_ASM 1
#include <cpuid.h>
/* Montgomery multiplication with MULX/ADCX/ADOX (BMI2 + ADX): two independent carry chains, one for
 * the product row and one for the reduction row, as in the well-known CIOS/ADX formulation. Only
 * called after a runtime CPU check. Operands in memory, result in r8..r11, then one subtraction. */
static const uint64_t QM[5] = {Q0, Q1, Q2, Q3, POSEIDON_NINV};
INLINE void fe_mul_adx(fe *z, const fe *x, const fe *y) {
  uint64_t t0, t1, t2, t3;
#define RED \
    "movq 32(%[q]), %%rdx\n\t" \
    "imulq %%r8, %%rdx\n\t" \
    "xorq %%rax, %%rax\n\t" \
    "mulxq 0(%[q]), %%rax, %%rcx\n\t" \
    "adcxq %%r8, %%rax\n\t" \
    "movq %%rcx, %%r8\n\t" \
    "adcxq %%r9, %%r8\n\t" \
    "mulxq 8(%[q]), %%rax, %%r9\n\t" \
    "adoxq %%rax, %%r8\n\t" \
    "adcxq %%r10, %%r9\n\t" \
    "mulxq 16(%[q]), %%rax, %%r10\n\t" \
    "adoxq %%rax, %%r9\n\t" \
    "adcxq %%r11, %%r10\n\t" \
    "mulxq 24(%[q]), %%rax, %%r11\n\t" \
    "adoxq %%rax, %%r10\n\t" \
    "movq $0, %%rax\n\t" \
    "adcxq %%rax, %%r11\n\t" \
    "adoxq %%r12, %%r11\n\t"
#define STEP(off) \
    "movq " #off "(%[y]), %%rdx\n\t" \
    "xorq %%rax, %%rax\n\t" \
    "mulxq 0(%[x]), %%rax, %%rcx\n\t" \
    "adoxq %%rax, %%r8\n\t" \
    "adcxq %%rcx, %%r9\n\t" \
    "mulxq 8(%[x]), %%rax, %%rcx\n\t" \
    "adoxq %%rax, %%r9\n\t" \
    "adcxq %%rcx, %%r10\n\t" \
    "mulxq 16(%[x]), %%rax, %%rcx\n\t" \
    "adoxq %%rax, %%r10\n\t" \
    "adcxq %%rcx, %%r11\n\t" \
    "mulxq 24(%[x]), %%rax, %%r12\n\t" \
    "adoxq %%rax, %%r11\n\t" \
    "movq $0, %%rax\n\t" \
    "adcxq %%rax, %%r12\n\t" \
    "adoxq %%rax, %%r12\n\t"
  __asm__(
    "movq 0(%[y]), %%rdx\n\t"
    "xorq %%rax, %%rax\n\t"
    "mulxq 0(%[x]), %%r8, %%r9\n\t"
    "mulxq 8(%[x]), %%rax, %%r10\n\t"
    "adcxq %%rax, %%r9\n\t"
    "mulxq 16(%[x]), %%rax, %%r11\n\t"
    "adcxq %%rax, %%r10\n\t"
    "mulxq 24(%[x]), %%rax, %%r12\n\t"
    "adcxq %%rax, %%r11\n\t"
    "movq $0, %%rax\n\t"
    "adcxq %%rax, %%r12\n\t"
    RED
    STEP(8) RED
    STEP(16) RED
    STEP(24) RED
    "movq %%r8, %[t0]\n\t"
    "movq %%r9, %[t1]\n\t"
    "movq %%r10, %[t2]\n\t"
    "movq %%r11, %[t3]\n\t"
    : [t0] "=r"(t0), [t1] "=r"(t1), [t2] "=r"(t2), [t3] "=r"(t3)
    : [x] "r"(x->v), [y] "r"(y->v), [q] "r"(QM), "m"(*(const uint64_t(*)[4])x->v), "m"(*(const uint64_t(*)[4])y->v)
    : "rax", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "cc");
#undef RED
#undef STEP
  /* No final subtraction: for inputs < 2r the result is < 2r already (4r^2/R + r < 2r as r < R/4),
   * so the ADX path keeps every value in [0, 2r) and reduces fully only on output. */
  z->v[0] = t0; z->v[1] = t1; z->v[2] = t2; z->v[3] = t3;
}

/* x + y for x, y < 2r: the sum (< 4r < 2^256) minus 2r when it is >= 2r. */
INLINE void fe_add_2r(fe *z, const fe *x, const fe *y) {
  static const uint64_t D0 = 0x87c3eb27e0000002ULL, D1 = 0x5067d090f372e122ULL, D2 = 0x70a08b6d0302b0baULL,
                        D3 = 0x60c89ce5c2634053ULL; /* 2r */
  uint64_t t0, t1, t2, t3, d0, d1, d2, d3, u1, u2, u3;
  unsigned c0 = __builtin_add_overflow(x->v[0], y->v[0], &t0);
  unsigned c1 = __builtin_add_overflow(x->v[1], y->v[1], &u1) | __builtin_add_overflow(u1, (uint64_t)c0, &t1);
  unsigned c2 = __builtin_add_overflow(x->v[2], y->v[2], &u2) | __builtin_add_overflow(u2, (uint64_t)c1, &t2);
  t3 = x->v[3] + y->v[3] + c2;
  unsigned b0 = __builtin_sub_overflow(t0, D0, &d0);
  unsigned b1 = __builtin_sub_overflow(t1, b0, &u1) | __builtin_sub_overflow(u1, D1, &d1);
  unsigned b2 = __builtin_sub_overflow(t2, b1, &u2) | __builtin_sub_overflow(u2, D2, &d2);
  unsigned b3 = __builtin_sub_overflow(t3, b2, &u3) | __builtin_sub_overflow(u3, D3, &d3);
  if (b3) { z->v[0] = t0; z->v[1] = t1; z->v[2] = t2; z->v[3] = t3; }
  else { z->v[0] = d0; z->v[1] = d1; z->v[2] = d2; z->v[3] = d3; }
}
#endif

INLINE void fe_add(fe *z, const fe *x, const fe *y) {
  u128 s;
  uint64_t c, t0, t1, t2, t3;
  s = (u128)x->v[0] + y->v[0]; t0 = (uint64_t)s; c = (uint64_t)(s >> 64);
  s = (u128)x->v[1] + y->v[1] + c; t1 = (uint64_t)s; c = (uint64_t)(s >> 64);
  s = (u128)x->v[2] + y->v[2] + c; t2 = (uint64_t)s; c = (uint64_t)(s >> 64);
  t3 = x->v[3] + y->v[3] + c; /* < 2^255: no carry out */
  fe_reduce_once(z, t0, t1, t2, t3);
}

/* Unreduced double-width accumulator for lazy row sums: up to 13 products of elements < r fit
 * below 2^512, plus one guard limb for the reduction's carries. */
typedef struct { uint64_t v[9]; } acc;

INLINE void acc_zero(acc *a) { memset(a, 0, sizeof *a); }

/* a += x*y (512-bit product, schoolbook). */
INLINE void acc_mac(acc *a, const fe *x, const fe *y) {
  for (int i = 0; i < 4; i++) {
    uint64_t carry = 0;
    const uint64_t xi = x->v[i];
    for (int j = 0; j < 4; j++) {
      u128 p = (u128)xi * y->v[j] + a->v[i + j] + carry;
      a->v[i + j] = (uint64_t)p;
      carry = (uint64_t)(p >> 64);
    }
    for (int k = i + 4; carry && k < 9; k++) {
      u128 s = (u128)a->v[k] + carry;
      a->v[k] = (uint64_t)s;
      carry = (uint64_t)(s >> 64);
    }
  }
}

/* z = a / R mod r (Montgomery reduction of the accumulated sum). */
INLINE void acc_redc(fe *z, acc *a) {
  static const uint64_t Q[4] = {Q0, Q1, Q2, Q3};
  for (int i = 0; i < 4; i++) {
    const uint64_t m = a->v[i] * POSEIDON_NINV;
    uint64_t carry = 0;
    for (int j = 0; j < 4; j++) {
      u128 p = (u128)m * Q[j] + a->v[i + j] + carry;
      a->v[i + j] = (uint64_t)p;
      carry = (uint64_t)(p >> 64);
    }
    for (int k = i + 4; carry && k < 9; k++) {
      u128 s = (u128)a->v[k] + carry;
      a->v[k] = (uint64_t)s;
      carry = (uint64_t)(s >> 64);
    }
  }
  /* result = a[4..8] < sum/R + r < 4r (sum < 13 r^2, r < R/5): at most three subtractions. */
  uint64_t t0 = a->v[4], t1 = a->v[5], t2 = a->v[6], t3 = a->v[7];
  for (int k = 0; k < 3; k++) {
    fe tmp;
    fe_reduce_once(&tmp, t0, t1, t2, t3);
    t0 = tmp.v[0]; t1 = tmp.v[1]; t2 = tmp.v[2]; t3 = tmp.v[3];
  }
  z->v[0] = t0; z->v[1] = t1; z->v[2] = t2; z->v[3] = t3;
}

INLINE void fe_from_be(fe *z, const uint8_t b[32]) {
  for (int i = 0; i < 4; i++) {
    uint64_t w = 0;
    const uint8_t *p = b + 8 * (3 - i);
    for (int k = 0; k < 8; k++) w = (w << 8) | p[k];
    z->v[i] = w;
  }
}

INLINE void fe_to_be(uint8_t b[32], const fe *x) {
  for (int i = 0; i < 4; i++) {
    uint64_t w = x->v[i];
    uint8_t *p = b + 8 * (3 - i);
    for (int k = 7; k >= 0; k--) { p[k] = (uint8_t)w; w >>= 8; }
  }
}

#define POSEIDON_TABLE(t) ((const fe *)POSEIDON_TABLES[t])

#else
/* ------------------------------------------------------ 9 x 29-bit limbs (portable) ---- */
/* Without a 64x64->128 multiply (WebAssembly, MSVC) the field uses nine 29-bit limbs held in 64-bit
 * words and Montgomery form with R' = 2^261. A limb product is < 2^58, so a whole column of a
 * product plus its reduction sums without carries, which are propagated once per multiplication
 * instead of after every step: about half the instructions of 32-bit CIOS.
 * Since r < R'/128, a product of operands below 2r (even a sum of 13 such products) reduces to a
 * value below 2r without the final subtraction: values stay in [0, 2r) and are fully reduced only
 * on output. The shared tables are in 2^256-Montgomery form; each width is converted once, on
 * first use (x·2^256 -> x·2^261 is one multiplication by 2^266 mod r). */
#define NL 9
#if defined(__clang__)
#define UNROLL _Pragma("clang loop unroll(full)")
#else
#define UNROLL
#endif
#define LB 29
#define LM 0x1fffffffULL
typedef struct { uint64_t v[NL]; } fe;
#define Q29 POSEIDON_Q29
#define NINV29 POSEIDON_NINV29

/* Propagate carries so every limb is < 2^29 (the top limb keeps the excess). */
INLINE void fe_norm(fe *z) {
  UNROLL for (int i = 0; i < NL - 1; i++) {
    z->v[i + 1] += z->v[i] >> LB;
    z->v[i] &= LM;
  }
}

/* z = x - 2r when x >= 2r, else x (x normalised, < 4r). */
INLINE void fe_sub_2r_if(fe *z, const fe *x) {
  uint64_t d[NL];
  int64_t c = 0;
  for (int i = 0; i < NL; i++) {
    int64_t s = (int64_t)x->v[i] - (int64_t)POSEIDON_2R29[i] + c;
    d[i] = (uint64_t)s & LM;
    c = s >> LB; /* arithmetic shift: -1 on borrow */
  }
  if (c < 0) { if (z != x) *z = *x; }
  else for (int i = 0; i < NL; i++) z->v[i] = d[i];
}

/* Reduce the 18-column accumulator t (columns < 2^63) by R' = 2^261 into z (< 2r). */
INLINE void redc29(fe *z, uint64_t t[2 * NL]) {
  UNROLL for (int i = 0; i < NL; i++) {
    const uint64_t m = ((t[i] & LM) * NINV29) & LM;
    UNROLL for (int j = 0; j < NL; j++) t[i + j] += m * Q29[j];
    t[i + 1] += t[i] >> LB; /* t[i] is now ≡ 0 mod 2^29 */
  }
  for (int i = 0; i < NL; i++) z->v[i] = t[NL + i];
  fe_norm(z);
}

INLINE void fe_mul_generic(fe *z, const fe *x, const fe *y) {
  uint64_t t[2 * NL] = {0};
  UNROLL for (int i = 0; i < NL; i++) {
    const uint64_t xi = x->v[i];
    UNROLL for (int j = 0; j < NL; j++) t[i + j] += xi * y->v[j];
  }
  redc29(z, t);
}

/* Sums stay below 2r: (a + b) < 4r, minus 2r when needed. */
INLINE void fe_add(fe *z, const fe *x, const fe *y) {
  fe s;
  for (int i = 0; i < NL; i++) s.v[i] = x->v[i] + y->v[i];
  fe_norm(&s);
  fe_sub_2r_if(z, &s);
}

/* Lazy row sums: products accumulate in 18 columns; carries are folded every third product so
 * no column passes 2^63 (3 products x 9 terms x 2^60 for limbs just over 2^29 ... well below). */
typedef struct { uint64_t v[2 * NL]; int n; } acc;

INLINE void acc_zero(acc *a) { memset(a, 0, sizeof *a); }

INLINE void acc_mac(acc *a, const fe *x, const fe *y) {
  if (a->n == 3) {
    for (int k = 0; k < 2 * NL - 1; k++) {
      a->v[k + 1] += a->v[k] >> LB;
      a->v[k] &= LM;
    }
    a->n = 0;
  }
  UNROLL for (int i = 0; i < NL; i++) {
    const uint64_t xi = x->v[i];
    UNROLL for (int j = 0; j < NL; j++) a->v[i + j] += xi * y->v[j];
  }
  a->n++;
}

INLINE void acc_redc(fe *z, acc *a) { redc29(z, a->v); }

/* Plain 256-bit big-endian -> 29-bit limbs (not Montgomery). */
INLINE void fe_from_be(fe *z, const uint8_t b[32]) {
  uint64_t w[4];
  for (int i = 0; i < 4; i++) {
    uint64_t x = 0;
    const uint8_t *p = b + 8 * (3 - i);
    for (int k = 0; k < 8; k++) x = (x << 8) | p[k];
    w[i] = x;
  }
  for (int i = 0; i < NL; i++) {
    const int bit = LB * i, q = bit >> 6, o = bit & 63;
    uint64_t v = w[q] >> o;
    if (o > 64 - LB && q < 3) v |= w[q + 1] << (64 - o);
    z->v[i] = v & LM;
  }
}

/* Fully reduce (x < 2r normalised) and write 32 bytes big-endian. */
INLINE void fe_to_be(uint8_t b[32], const fe *x) {
  fe y;
  /* x < 2r: subtract r once when x >= r */
  uint64_t d[NL];
  int64_t c = 0;
  for (int i = 0; i < NL; i++) {
    int64_t s = (int64_t)x->v[i] - (int64_t)Q29[i] + c;
    d[i] = (uint64_t)s & LM;
    c = s >> LB;
  }
  if (c < 0) y = *x;
  else for (int i = 0; i < NL; i++) y.v[i] = d[i];
  uint64_t w[4] = {0, 0, 0, 0};
  for (int i = 0; i < NL; i++) {
    const int bit = LB * i, q = bit >> 6, o = bit & 63;
    w[q] |= y.v[i] << o;
    if (o > 64 - LB && q < 3) w[q + 1] |= y.v[i] >> (64 - o);
  }
  for (int i = 0; i < 4; i++) {
    uint64_t v = w[i];
    uint8_t *p = b + 8 * (3 - i);
    for (int k = 7; k >= 0; k--) { p[k] = (uint8_t)v; v >>= 8; }
  }
}

/* Converted tables, per width, filled on first use. A race between threads would write the same
 * bytes twice; WebAssembly instances are single-threaded anyway. */
static fe TABLE29[14][2132];
static int TABLE29_READY[14];

static const fe *table29(int t) {
  if (!TABLE29_READY[t]) {
    const int n = 8 * t + 2 * t * t + 2 * t * POSEIDON_PARTIAL_ROUNDS[t];
    const uint64_t *src = POSEIDON_TABLES[t];
    fe k266;
    for (int i = 0; i < NL; i++) k266.v[i] = POSEIDON_K266_29[i];
    for (int e = 0; e < n; e++) {
      uint8_t be[32];
      for (int i = 0; i < 4; i++) {
        uint64_t v = src[4 * e + i];
        for (int k = 0; k < 8; k++) be[31 - 8 * i - k] = (uint8_t)(v >> (8 * k));
      }
      fe x;
      fe_from_be(&x, be);
      fe_mul_generic(&TABLE29[t][e], &x, &k266); /* x·2^256 · 2^266 / 2^261 = x·2^261 */
    }
    TABLE29_READY[t] = 1;
  }
  return TABLE29[t];
}
#define POSEIDON_TABLE(t) table29(t)
#endif

/* ----------------------------------------------------------- the permutation ---- */

/* Every routine below takes `fast`, a compile-time constant after inlining: 1 selects the ADX
 * multiplication and plain multiply-add row sums (ADX mul is cheap enough that lazy reduction no
 * longer pays), 0 the portable multiplication with lazy row sums. permute_fast/permute_portable
 * are the two instances; the choice is made once per process from the CPU's features. */
#ifndef HAVE_ADX_ASM
#define HAVE_ADX_ASM 0
#endif

INLINE void fe_mul(fe *z, const fe *x, const fe *y, const int fast) {
#if HAVE_ADX_ASM
  if (fast) { fe_mul_adx(z, x, y); return; }
#endif
  (void)fast;
  fe_mul_generic(z, x, y);
}

/* Addition matching fe_mul's range: [0, 2r) on the ADX path, [0, r) otherwise. */
INLINE void fe_addx(fe *z, const fe *x, const fe *y, const int fast) {
#if HAVE_ADX_ASM
  if (fast) { fe_add_2r(z, x, y); return; }
#endif
  (void)fast;
  fe_add(z, x, y);
}

INLINE void sbox(fe *x, const int fast) {
  fe sq, q;
  fe_mul(&sq, x, x, fast);
  fe_mul(&q, &sq, &sq, fast);
  fe_mul(x, &q, x, fast);
}

/* z = sum_j a[j]*b[j] over n terms. */
INLINE void dot(fe *z, const fe *a, const fe *b, int n, const int fast) {
  if (fast) {
    fe acc1, p;
    fe_mul(&acc1, &a[0], &b[0], fast);
    for (int j = 1; j < n; j++) {
      fe_mul(&p, &a[j], &b[j], fast);
      fe_addx(&acc1, &acc1, &p, fast);
    }
    *z = acc1;
  } else {
    acc a2;
    acc_zero(&a2);
    for (int j = 0; j < n; j++) acc_mac(&a2, &a[j], &b[j]);
    acc_redc(z, &a2);
  }
}

/* The circom Poseidon permutation of width t on s (Montgomery form); only s[0] is meaningful after. */
INLINE void permute_impl(fe *s, int t, const int fast) {
  const fe *k = POSEIDON_TABLE(t);
  const int rp = POSEIDON_PARTIAL_ROUNDS[t];
  const fe *cf = k;
  const fe *M = k + 8 * t;
  const fe *P = M + t * t;
  const fe *part = P + t * t;
  fe tmp[13];

  for (int r = 0; r < 4; r++) {
    for (int i = 0; i < t; i++) {
      fe_addx(&s[i], &s[i], &cf[r * t + i], fast);
      sbox(&s[i], fast);
    }
    const fe *A = r == 3 ? P : M;
    for (int i = 0; i < t; i++) dot(&tmp[i], &A[i * t], s, t, fast);
    memcpy(s, tmp, sizeof(fe) * (size_t)t);
  }
  for (int r = 0; r < rp; r++, part += 2 * t) {
    /* part = [c, m00, w_1..w_{t-1}, v_1..v_{t-1}]: s0' = m00*x0 + w.s, s_j' = s_j + v_j*x0 */
    fe x0, n0;
    fe_addx(&x0, &s[0], &part[0], fast);
    sbox(&x0, fast);
    s[0] = x0;
    dot(&n0, &part[1], s, t, fast);
    for (int j = 1; j < t; j++) {
      fe p;
      fe_mul(&p, &part[t + j], &x0, fast);
      fe_addx(&s[j], &s[j], &p, fast);
    }
    s[0] = n0;
  }
  for (int r = 4; r < 8; r++) {
    for (int i = 0; i < t; i++) {
      fe_addx(&s[i], &s[i], &cf[r * t + i], fast);
      sbox(&s[i], fast);
    }
    if (r < 7) {
      for (int i = 0; i < t; i++) dot(&tmp[i], &M[i * t], s, t, fast);
      memcpy(s, tmp, sizeof(fe) * (size_t)t);
    } else {
      dot(&tmp[0], M, s, t, fast); /* only lane 0 of the last mix is output */
      s[0] = tmp[0];
    }
  }
}

static void permute_portable(fe *s, int t) { permute_impl(s, t, 0); }

#if HAVE_ADX_ASM
static void permute_fast(fe *s, int t) { permute_impl(s, t, 1); }
#endif

typedef void (*permute_fn)(fe *s, int t);
static permute_fn permute_selected;

/* Picks the permutation once; a benign race (every thread computes the same answer). */
static permute_fn select_permute(void) {
  permute_fn f = permute_selected;
  if (f) return f;
  f = permute_portable;
#if HAVE_ADX_ASM
  unsigned a, b, c, d;
  /* CPUID leaf 7: EBX bit 8 = BMI2 (MULX), bit 19 = ADX (ADCX/ADOX) */
  if (__get_cpuid_count(7, 0, &a, &b, &c, &d) && (b & (1u << 8)) && (b & (1u << 19))) f = permute_fast;
#endif
  permute_selected = f;
  return f;
}

/* True when the 32 big-endian bytes are < r: checked on the bytes, before any conversion. */
static const uint8_t R_BE[32] = {0x30, 0x64, 0x4e, 0x72, 0xe1, 0x31, 0xa0, 0x29, 0xb8, 0x50, 0x45,
                                 0xb6, 0x81, 0x81, 0x58, 0x5d, 0x28, 0x33, 0xe8, 0x48, 0x79, 0xb9,
                                 0x70, 0x91, 0x43, 0xe1, 0xf5, 0x93, 0xf0, 0x00, 0x00, 0x01};

INLINE int be_below_r(const uint8_t *b) {
  for (int i = 0; i < 32; i++) {
    if (b[i] != R_BE[i]) return b[i] < R_BE[i];
  }
  return 0;
}

/* Conversions run once per element; the portable multiplication is plenty. */
INLINE void to_mont(fe *z, const uint8_t b[32]) {
  fe x, r2;
  fe_from_be(&x, b);
#ifdef LIMB64
  for (int i = 0; i < 4; i++) r2.v[i] = POSEIDON_R2[i];
#else
  for (int i = 0; i < NL; i++) r2.v[i] = POSEIDON_R2_29[i];
#endif
  fe_mul_generic(z, &x, &r2);
}

INLINE void from_mont_be(uint8_t out[32], const fe *x) {
  fe one, r;
  memset(&one, 0, sizeof one);
  one.v[0] = 1;
  fe_mul_generic(&r, x, &one);
  fe_to_be(out, &r);
}

/* Load n big-endian elements into s[1..n] (Montgomery form); returns -1 or the bad index. */
static int load_inputs(fe *s, const uint8_t *in, int n) {
  for (int i = 0; i < n; i++) {
    if (!be_below_r(in + 32 * i)) return i;
    to_mont(&s[i + 1], in + 32 * i);
  }
  return -1;
}

int cairn_poseidon_hash(const uint8_t *in, int n, uint8_t out[32]) {
  if (n < 1 || n > 12) return -2;
  const permute_fn permute = select_permute();
  fe s[13];
  memset(&s[0], 0, sizeof(fe));
  const int bad = load_inputs(s, in, n);
  if (bad >= 0) return bad;
  permute(s, n + 1);
  from_mont_be(out, &s[0]);
  return -1;
}

long cairn_poseidon_batch(const uint8_t *in, int width, size_t count, uint8_t *out) {
  if (width < 1 || width > 12) return -2;
  for (size_t k = 0; k < count; k++) {
    const int bad = cairn_poseidon_hash(in + 32 * (size_t)width * k, width, out + 32 * k);
    if (bad >= 0) return (long)(k * (size_t)width) + bad;
  }
  return -1;
}

int cairn_poseidon_path_root(const uint8_t leaf[32], const uint8_t *proof, size_t depth, uint64_t index,
                             uint8_t out[32]) {
  const permute_fn permute = select_permute();
  fe node, sib, s[3];
  if (!be_below_r(leaf)) return 0;
  to_mont(&node, leaf);
  for (size_t level = 0; level < depth; level++) {
    if (!be_below_r(proof + 32 * level)) return (int)level + 1;
    to_mont(&sib, proof + 32 * level);
    memset(&s[0], 0, sizeof(fe));
    /* bits of the index above 63 are zero: such deep levels put the node on the left */
    if (level < 64 && ((index >> level) & 1)) { s[1] = sib; s[2] = node; }
    else { s[1] = node; s[2] = sib; }
    permute(s, 3);
    node = s[0];
  }
  from_mont_be(out, &node);
  return -1;
}
