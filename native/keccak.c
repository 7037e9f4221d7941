/*
 * Keccak-256 for the cairn native addon, tuned for one job: hashing a whole Merkle proof path
 * (64-byte inputs, one sponge block each) inside a single JS -> C crossing, or a batch of paths in
 * one more. Between tree levels the node stays as four little-endian lanes, so no byte shuffling
 * happens on the path.
 *
 * Keccak-f[1600] follows FIPS 202 (theta, rho, pi, chi, iota; 24 rounds) with the original Keccak
 * padding (0x01 ... 0x80) that Ethereum and Solana's keccak256 use, not SHA-3's 0x06.
 */
#include <string.h>
#include "keccak.h"

/* On x86-64 the path walkers are compiled for more than one instruction set and picked once at load
 * time by feature tests (not CPU names, so AMD parts qualify too): a BMI1/BMI2 clone of the scalar
 * walker (andn/rorx, about 20% fewer instructions per permutation than plain x86-64, measured with
 * perf), and an AVX2 walker that hashes four paths at once, one 64-bit lane of each per 256-bit
 * register, for batches. */
#if defined(__x86_64__) && defined(__GNUC__)
#define CAIRN_X86 1
#include <immintrin.h>
#define CAIRN_TARGET_BMI __attribute__((target("bmi,bmi2")))
#define CAIRN_TARGET_AVX2 __attribute__((target("avx2,bmi,bmi2")))
#endif
#define RATE 136 /* bytes absorbed per block for a 256-bit output: (1600 - 2*256) / 8 */

static const uint64_t RC[24] = {
  0x0000000000000001ULL, 0x0000000000008082ULL, 0x800000000000808AULL, 0x8000000080008000ULL,
  0x000000000000808BULL, 0x0000000080000001ULL, 0x8000000080008081ULL, 0x8000000000008009ULL,
  0x000000000000008AULL, 0x0000000000000088ULL, 0x0000000080008009ULL, 0x000000008000000AULL,
  0x000000008000808BULL, 0x800000000000008BULL, 0x8000000000008089ULL, 0x8000000000008003ULL,
  0x8000000000008002ULL, 0x8000000000000080ULL, 0x000000000000800AULL, 0x800000008000000AULL,
  0x8000000080008081ULL, 0x8000000000008080ULL, 0x0000000080000001ULL, 0x8000000080008008ULL,
};

static inline uint64_t load64(const uint8_t *p) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  uint64_t v;
  memcpy(&v, p, 8);
  return v;
#else
  uint64_t v = 0;
  for (int i = 7; i >= 0; i--) v = (v << 8) | p[i];
  return v;
#endif
}

static inline void store64(uint8_t *p, uint64_t v) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
  memcpy(p, &v, 8);
#else
  for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
#endif
}

/* Keccak-f[1600] for any lane type: T is the lane (a uint64_t, or a vector of lanes of several
 * states), XOR/ROL/ANDN(a, b) = ~a & b/IOTA(lane, round) its operations. Lanes are indexed x + 5y;
 * two rounds per loop turn (A -> E_ -> A) so no lane is ever copied. Each output plane is finished
 * right after its five B lanes are computed (b[y, 2x+3y] = rol(a[x,y] ^ d[x], r[x,y]), so plane Y
 * reads a[(3Y+X) mod 5, X]), which keeps about ten values live instead of fifty: x86-64 has sixteen
 * registers, and the all-lanes-in-locals form spent a third of its instructions on spills. Column
 * parities for the next theta are folded into the chi output. Rho offsets and the pi mapping are
 * resolved in the source (generated, then checked against FIPS 202 answers by the test suite). */
#define KECCAK_F(T, A, XOR, ROL, ANDN, IOTA)  \
  do {                                                                   \
    T E_[25], B0, B1, B2, B3, B4, C0, C1, C2, C3, C4, D0, D1, D2, D3, D4;    \
    C0 = XOR(XOR(XOR(XOR(A[0], A[5]), A[10]), A[15]), A[20]);                \
    C1 = XOR(XOR(XOR(XOR(A[1], A[6]), A[11]), A[16]), A[21]);                \
    C2 = XOR(XOR(XOR(XOR(A[2], A[7]), A[12]), A[17]), A[22]);                \
    C3 = XOR(XOR(XOR(XOR(A[3], A[8]), A[13]), A[18]), A[23]);                \
    C4 = XOR(XOR(XOR(XOR(A[4], A[9]), A[14]), A[19]), A[24]);                \
    for (int r_ = 0; r_ < 24; r_ += 2) {                                     \
      D0 = XOR(C4, ROL(C1, 1));                                              \
      D1 = XOR(C0, ROL(C2, 1));                                              \
      D2 = XOR(C1, ROL(C3, 1));                                              \
      D3 = XOR(C2, ROL(C4, 1));                                              \
      D4 = XOR(C3, ROL(C0, 1));                                              \
      B0 = XOR(A[0], D0);                                                    \
      B1 = ROL(XOR(A[6], D1), 44);                                           \
      B2 = ROL(XOR(A[12], D2), 43);                                          \
      B3 = ROL(XOR(A[18], D3), 21);                                          \
      B4 = ROL(XOR(A[24], D4), 14);                                          \
      E_[0] = IOTA(XOR(B0, ANDN(B1, B2)), r_);                               \
      E_[1] = XOR(B1, ANDN(B2, B3));                                         \
      E_[2] = XOR(B2, ANDN(B3, B4));                                         \
      E_[3] = XOR(B3, ANDN(B4, B0));                                         \
      E_[4] = XOR(B4, ANDN(B0, B1));                                         \
      C0 = E_[0];                                                            \
      C1 = E_[1];                                                            \
      C2 = E_[2];                                                            \
      C3 = E_[3];                                                            \
      C4 = E_[4];                                                            \
      B0 = ROL(XOR(A[3], D3), 28);                                           \
      B1 = ROL(XOR(A[9], D4), 20);                                           \
      B2 = ROL(XOR(A[10], D0), 3);                                           \
      B3 = ROL(XOR(A[16], D1), 45);                                          \
      B4 = ROL(XOR(A[22], D2), 61);                                          \
      E_[5] = XOR(B0, ANDN(B1, B2));                                         \
      E_[6] = XOR(B1, ANDN(B2, B3));                                         \
      E_[7] = XOR(B2, ANDN(B3, B4));                                         \
      E_[8] = XOR(B3, ANDN(B4, B0));                                         \
      E_[9] = XOR(B4, ANDN(B0, B1));                                         \
      C0 = XOR(C0, E_[5]);                                                   \
      C1 = XOR(C1, E_[6]);                                                   \
      C2 = XOR(C2, E_[7]);                                                   \
      C3 = XOR(C3, E_[8]);                                                   \
      C4 = XOR(C4, E_[9]);                                                   \
      B0 = ROL(XOR(A[1], D1), 1);                                            \
      B1 = ROL(XOR(A[7], D2), 6);                                            \
      B2 = ROL(XOR(A[13], D3), 25);                                          \
      B3 = ROL(XOR(A[19], D4), 8);                                           \
      B4 = ROL(XOR(A[20], D0), 18);                                          \
      E_[10] = XOR(B0, ANDN(B1, B2));                                        \
      E_[11] = XOR(B1, ANDN(B2, B3));                                        \
      E_[12] = XOR(B2, ANDN(B3, B4));                                        \
      E_[13] = XOR(B3, ANDN(B4, B0));                                        \
      E_[14] = XOR(B4, ANDN(B0, B1));                                        \
      C0 = XOR(C0, E_[10]);                                                  \
      C1 = XOR(C1, E_[11]);                                                  \
      C2 = XOR(C2, E_[12]);                                                  \
      C3 = XOR(C3, E_[13]);                                                  \
      C4 = XOR(C4, E_[14]);                                                  \
      B0 = ROL(XOR(A[4], D4), 27);                                           \
      B1 = ROL(XOR(A[5], D0), 36);                                           \
      B2 = ROL(XOR(A[11], D1), 10);                                          \
      B3 = ROL(XOR(A[17], D2), 15);                                          \
      B4 = ROL(XOR(A[23], D3), 56);                                          \
      E_[15] = XOR(B0, ANDN(B1, B2));                                        \
      E_[16] = XOR(B1, ANDN(B2, B3));                                        \
      E_[17] = XOR(B2, ANDN(B3, B4));                                        \
      E_[18] = XOR(B3, ANDN(B4, B0));                                        \
      E_[19] = XOR(B4, ANDN(B0, B1));                                        \
      C0 = XOR(C0, E_[15]);                                                  \
      C1 = XOR(C1, E_[16]);                                                  \
      C2 = XOR(C2, E_[17]);                                                  \
      C3 = XOR(C3, E_[18]);                                                  \
      C4 = XOR(C4, E_[19]);                                                  \
      B0 = ROL(XOR(A[2], D2), 62);                                           \
      B1 = ROL(XOR(A[8], D3), 55);                                           \
      B2 = ROL(XOR(A[14], D4), 39);                                          \
      B3 = ROL(XOR(A[15], D0), 41);                                          \
      B4 = ROL(XOR(A[21], D1), 2);                                           \
      E_[20] = XOR(B0, ANDN(B1, B2));                                        \
      E_[21] = XOR(B1, ANDN(B2, B3));                                        \
      E_[22] = XOR(B2, ANDN(B3, B4));                                        \
      E_[23] = XOR(B3, ANDN(B4, B0));                                        \
      E_[24] = XOR(B4, ANDN(B0, B1));                                        \
      C0 = XOR(C0, E_[20]);                                                  \
      C1 = XOR(C1, E_[21]);                                                  \
      C2 = XOR(C2, E_[22]);                                                  \
      C3 = XOR(C3, E_[23]);                                                  \
      C4 = XOR(C4, E_[24]);                                                  \
      D0 = XOR(C4, ROL(C1, 1));                                              \
      D1 = XOR(C0, ROL(C2, 1));                                              \
      D2 = XOR(C1, ROL(C3, 1));                                              \
      D3 = XOR(C2, ROL(C4, 1));                                              \
      D4 = XOR(C3, ROL(C0, 1));                                              \
      B0 = XOR(E_[0], D0);                                                   \
      B1 = ROL(XOR(E_[6], D1), 44);                                          \
      B2 = ROL(XOR(E_[12], D2), 43);                                         \
      B3 = ROL(XOR(E_[18], D3), 21);                                         \
      B4 = ROL(XOR(E_[24], D4), 14);                                         \
      A[0] = IOTA(XOR(B0, ANDN(B1, B2)), r_ + 1);                            \
      A[1] = XOR(B1, ANDN(B2, B3));                                          \
      A[2] = XOR(B2, ANDN(B3, B4));                                          \
      A[3] = XOR(B3, ANDN(B4, B0));                                          \
      A[4] = XOR(B4, ANDN(B0, B1));                                          \
      C0 = A[0];                                                             \
      C1 = A[1];                                                             \
      C2 = A[2];                                                             \
      C3 = A[3];                                                             \
      C4 = A[4];                                                             \
      B0 = ROL(XOR(E_[3], D3), 28);                                          \
      B1 = ROL(XOR(E_[9], D4), 20);                                          \
      B2 = ROL(XOR(E_[10], D0), 3);                                          \
      B3 = ROL(XOR(E_[16], D1), 45);                                         \
      B4 = ROL(XOR(E_[22], D2), 61);                                         \
      A[5] = XOR(B0, ANDN(B1, B2));                                          \
      A[6] = XOR(B1, ANDN(B2, B3));                                          \
      A[7] = XOR(B2, ANDN(B3, B4));                                          \
      A[8] = XOR(B3, ANDN(B4, B0));                                          \
      A[9] = XOR(B4, ANDN(B0, B1));                                          \
      C0 = XOR(C0, A[5]);                                                    \
      C1 = XOR(C1, A[6]);                                                    \
      C2 = XOR(C2, A[7]);                                                    \
      C3 = XOR(C3, A[8]);                                                    \
      C4 = XOR(C4, A[9]);                                                    \
      B0 = ROL(XOR(E_[1], D1), 1);                                           \
      B1 = ROL(XOR(E_[7], D2), 6);                                           \
      B2 = ROL(XOR(E_[13], D3), 25);                                         \
      B3 = ROL(XOR(E_[19], D4), 8);                                          \
      B4 = ROL(XOR(E_[20], D0), 18);                                         \
      A[10] = XOR(B0, ANDN(B1, B2));                                         \
      A[11] = XOR(B1, ANDN(B2, B3));                                         \
      A[12] = XOR(B2, ANDN(B3, B4));                                         \
      A[13] = XOR(B3, ANDN(B4, B0));                                         \
      A[14] = XOR(B4, ANDN(B0, B1));                                         \
      C0 = XOR(C0, A[10]);                                                   \
      C1 = XOR(C1, A[11]);                                                   \
      C2 = XOR(C2, A[12]);                                                   \
      C3 = XOR(C3, A[13]);                                                   \
      C4 = XOR(C4, A[14]);                                                   \
      B0 = ROL(XOR(E_[4], D4), 27);                                          \
      B1 = ROL(XOR(E_[5], D0), 36);                                          \
      B2 = ROL(XOR(E_[11], D1), 10);                                         \
      B3 = ROL(XOR(E_[17], D2), 15);                                         \
      B4 = ROL(XOR(E_[23], D3), 56);                                         \
      A[15] = XOR(B0, ANDN(B1, B2));                                         \
      A[16] = XOR(B1, ANDN(B2, B3));                                         \
      A[17] = XOR(B2, ANDN(B3, B4));                                         \
      A[18] = XOR(B3, ANDN(B4, B0));                                         \
      A[19] = XOR(B4, ANDN(B0, B1));                                         \
      C0 = XOR(C0, A[15]);                                                   \
      C1 = XOR(C1, A[16]);                                                   \
      C2 = XOR(C2, A[17]);                                                   \
      C3 = XOR(C3, A[18]);                                                   \
      C4 = XOR(C4, A[19]);                                                   \
      B0 = ROL(XOR(E_[2], D2), 62);                                          \
      B1 = ROL(XOR(E_[8], D3), 55);                                          \
      B2 = ROL(XOR(E_[14], D4), 39);                                         \
      B3 = ROL(XOR(E_[15], D0), 41);                                         \
      B4 = ROL(XOR(E_[21], D1), 2);                                          \
      A[20] = XOR(B0, ANDN(B1, B2));                                         \
      A[21] = XOR(B1, ANDN(B2, B3));                                         \
      A[22] = XOR(B2, ANDN(B3, B4));                                         \
      A[23] = XOR(B3, ANDN(B4, B0));                                         \
      A[24] = XOR(B4, ANDN(B0, B1));                                         \
      C0 = XOR(C0, A[20]);                                                   \
      C1 = XOR(C1, A[21]);                                                   \
      C2 = XOR(C2, A[22]);                                                   \
      C3 = XOR(C3, A[23]);                                                   \
      C4 = XOR(C4, A[24]);                                                   \
    }                                                                        \
  } while (0)

#define S_XOR(a, b) ((a) ^ (b))
#define S_ROL(x, n) (((x) << (n)) | ((x) >> (64 - (n))))
#define S_ANDN(a, b) (~(a) & (b))
#define S_IOTA(x, r) ((x) ^ RC[r])

static inline __attribute__((always_inline)) void keccak_f(uint64_t A[25]) {
  KECCAK_F(uint64_t, A, S_XOR, S_ROL, S_ANDN, S_IOTA);
}

void cairn_keccak256(const uint8_t *data, size_t len, uint8_t out[32]) {
  uint64_t s[25] = {0};
  while (len >= RATE) {
    for (int i = 0; i < RATE / 8; i++) s[i] ^= load64(data + 8 * i);
    keccak_f(s);
    data += RATE;
    len -= RATE;
  }
  uint8_t last[RATE] = {0};
  memcpy(last, data, len);
  last[len] ^= 0x01;
  last[RATE - 1] ^= 0x80;
  for (int i = 0; i < RATE / 8; i++) s[i] ^= load64(last + 8 * i);
  keccak_f(s);
  for (int i = 0; i < 4; i++) store64(out + 8 * i, s[i]);
}

/* parent = keccak256(l || r) on lanes: 64 bytes fill lanes 0..7, the pad byte 0x01 lands at byte
 * 64 (lane 8) and 0x80 at byte 135 (top of lane 16); everything else starts at zero. */
static inline __attribute__((always_inline)) void hash_pair(const uint64_t l[4], const uint64_t r[4], uint64_t out[4]) {
  uint64_t s[25] = {l[0], l[1], l[2], l[3], r[0], r[1], r[2], r[3], 0x01ULL};
  s[16] = 0x8000000000000000ULL;
  keccak_f(s);
  out[0] = s[0]; out[1] = s[1]; out[2] = s[2]; out[3] = s[3];
}

/* The path walk, instantiated below once per instruction set. */
#define PATH_ROOT_BODY                                                                     \
  uint64_t node[4], sib[4];                                                                \
  for (int i = 0; i < 4; i++) node[i] = load64(leaf + 8 * i);                              \
  for (size_t level = 0; level < depth; level++) {                                         \
    const uint8_t *p = proof + 32 * level;                                                 \
    for (int i = 0; i < 4; i++) sib[i] = load64(p + 8 * i);                                \
    /* index bits above 63 are zero: such deep levels hash the node on the left. One call  \
     * site with swapped pointers keeps a single copy of the permutation in the loop. */   \
    int right = level < 64 && ((index >> level) & 1);                                      \
    hash_pair(right ? sib : node, right ? node : sib, node);                               \
  }                                                                                        \
  for (int i = 0; i < 4; i++) store64(out + 8 * i, node[i]);

typedef void (*path_root_fn)(const uint8_t *, const uint8_t *, size_t, uint64_t, uint8_t *);

static void path_root_plain(const uint8_t *leaf, const uint8_t *proof, size_t depth, uint64_t index,
                            uint8_t *out) {
  PATH_ROOT_BODY
}

#ifdef CAIRN_X86
CAIRN_TARGET_BMI static void path_root_bmi(const uint8_t *leaf, const uint8_t *proof, size_t depth,
                                           uint64_t index, uint8_t *out) {
  PATH_ROOT_BODY
}
#endif

static path_root_fn path_root_impl = NULL;

static path_root_fn pick_path_root(void) {
#ifdef CAIRN_X86
  __builtin_cpu_init();
  if (__builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2")) return path_root_bmi;
#endif
  return path_root_plain;
}

void cairn_keccak_path_root(const uint8_t leaf[32], const uint8_t *proof, size_t depth, uint64_t index,
                            uint8_t out[32]) {
  /* benign race: every thread computes the same pointer */
  if (!path_root_impl) path_root_impl = pick_path_root();
  path_root_impl(leaf, proof, depth, index, out);
}

#ifdef CAIRN_X86
#define V_XOR _mm256_xor_si256
#define V_ROL(x, n) _mm256_or_si256(_mm256_slli_epi64((x), (n)), _mm256_srli_epi64((x), 64 - (n)))
#define V_ANDN _mm256_andnot_si256
#define V_IOTA(x, r) _mm256_xor_si256((x), _mm256_set1_epi64x((long long)RC[r]))

CAIRN_TARGET_AVX2 static inline __attribute__((always_inline)) __m256i gather4(const uint8_t *p0, const uint8_t *p1,
                                                             const uint8_t *p2, const uint8_t *p3) {
  return _mm256_set_epi64x((long long)load64(p3), (long long)load64(p2), (long long)load64(p1),
                           (long long)load64(p0));
}

/* Four paths of equal depth at once: path j starts from leaf[j] with the nodes at proof[j] (32·depth
 * bytes) and index idx[j]; its root goes to out[j]. Each 256-bit register holds one lane of the four
 * states; the left/right choice is per path, a blend on the index bits. Pointers, not strides, so the
 * paths can sit anywhere (asset_proof_records.c walks them where the batch records hold them). */
CAIRN_TARGET_AVX2 static void path_root_x4(const uint8_t *const leaf[4], const uint8_t *const proof[4], size_t depth,
                                           const uint32_t idx[4], uint8_t *const out[4]) {
  __m256i node[4];
  for (int k = 0; k < 4; k++) node[k] = gather4(leaf[0] + 8 * k, leaf[1] + 8 * k, leaf[2] + 8 * k, leaf[3] + 8 * k);
  for (size_t level = 0; level < depth; level++) {
    const size_t at = 32 * level;
    long long b[4];
    for (int j = 0; j < 4; j++) b[j] = level < 32 ? -(long long)((idx[j] >> level) & 1) : 0;
    const __m256i right = _mm256_set_epi64x(b[3], b[2], b[1], b[0]);
    __m256i A[25];
    for (int k = 0; k < 4; k++) {
      __m256i sib = gather4(proof[0] + at + 8 * k, proof[1] + at + 8 * k, proof[2] + at + 8 * k, proof[3] + at + 8 * k);
      A[k] = _mm256_blendv_epi8(node[k], sib, right);      /* node is the right child: sibling first */
      A[4 + k] = _mm256_blendv_epi8(sib, node[k], right);
    }
    A[8] = _mm256_set1_epi64x(1);
    for (int k = 9; k < 25; k++) A[k] = _mm256_setzero_si256();
    A[16] = _mm256_set1_epi64x((long long)0x8000000000000000ULL);
    KECCAK_F(__m256i, A, V_XOR, V_ROL, V_ANDN, V_IOTA);
    for (int k = 0; k < 4; k++) node[k] = A[k];
  }
  for (int k = 0; k < 4; k++) {
    uint64_t lanes[4];
    _mm256_storeu_si256((__m256i *)lanes, node[k]);
    for (int j = 0; j < 4; j++) store64(out[j] + 8 * k, lanes[j]);
  }
}
#endif

int cairn_keccak_has_x4(void) {
#ifdef CAIRN_X86
  static int use_x4 = -1; /* benign race: every thread computes the same answer */
  if (use_x4 < 0) {
    __builtin_cpu_init();
    use_x4 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
  }
  return use_x4;
#else
  return 0;
#endif
}

void cairn_keccak_path_root_x4(const uint8_t *const leaf[4], const uint8_t *const proof[4], size_t depth,
                               const uint32_t idx[4], uint8_t *const out[4]) {
#ifdef CAIRN_X86
  if (cairn_keccak_has_x4()) {
    path_root_x4(leaf, proof, depth, idx, out);
    return;
  }
#endif
  for (int j = 0; j < 4; j++) cairn_keccak_path_root(leaf[j], proof[j], depth, idx[j], out[j]);
}

/* m paths of equal depth, laid out one after another; roots to out (32·m). Groups of four go through
 * the AVX2 walker when the CPU has it, the rest through the scalar one. */
static void path_root_batch(const uint8_t *leaves, const uint8_t *proofs, const uint32_t *indices, size_t m,
                            size_t depth, uint8_t *out) {
  size_t k = 0;
  if (cairn_keccak_has_x4())
    for (; k + 4 <= m; k += 4) {
      const uint8_t *const leaf[4] = {leaves + 32 * k, leaves + 32 * (k + 1), leaves + 32 * (k + 2), leaves + 32 * (k + 3)};
      const uint8_t *const proof[4] = {proofs + 32 * depth * k, proofs + 32 * depth * (k + 1), proofs + 32 * depth * (k + 2),
                                       proofs + 32 * depth * (k + 3)};
      uint8_t *const o[4] = {out + 32 * k, out + 32 * (k + 1), out + 32 * (k + 2), out + 32 * (k + 3)};
      cairn_keccak_path_root_x4(leaf, proof, depth, indices + k, o);
    }
  for (; k < m; k++) cairn_keccak_path_root(leaves + 32 * k, proofs + 32 * depth * k, depth, indices[k], out + 32 * k);
}

/* ---------------------------------------------------------------- N-API glue ---- */

static napi_value throw_type(napi_env env, const char *msg) {
  napi_throw_type_error(env, "MERKLE_INVALID_INPUT", msg);
  return NULL;
}

static napi_value throw_range(napi_env env, const char *msg) {
  napi_throw_range_error(env, "MERKLE_INVALID_INPUT", msg);
  return NULL;
}

/* Uint8Array (or Buffer) argument -> pointer + length; 0 on success. */
static int get_bytes(napi_env env, napi_value v, uint8_t **data, size_t *len) {
  bool is_ta = false;
  if (napi_is_typedarray(env, v, &is_ta) != napi_ok || !is_ta) return -1;
  napi_typedarray_type type;
  void *ptr = NULL;
  if (napi_get_typedarray_info(env, v, &type, len, &ptr, NULL, NULL) != napi_ok) return -1;
  if (type != napi_uint8_array && type != napi_uint8_clamped_array) return -1;
  *data = (uint8_t *)ptr;
  return 0;
}

static int get_u32_array(napi_env env, napi_value v, uint32_t **data, size_t *len) {
  bool is_ta = false;
  if (napi_is_typedarray(env, v, &is_ta) != napi_ok || !is_ta) return -1;
  napi_typedarray_type type;
  void *ptr = NULL;
  if (napi_get_typedarray_info(env, v, &type, len, &ptr, NULL, NULL) != napi_ok) return -1;
  if (type != napi_uint32_array) return -1;
  *data = (uint32_t *)ptr;
  return 0;
}

/* A non-negative integer index up to 2^53 - 1 (JS numbers are exact there). */
static int get_index(napi_env env, napi_value v, uint64_t *out) {
  double d;
  if (napi_get_value_double(env, v, &d) != napi_ok) return -1;
  if (!(d >= 0) || d > 9007199254740991.0 || d != (double)(uint64_t)d) return -1;
  *out = (uint64_t)d;
  return 0;
}

static napi_value make_hash(napi_env env, const uint8_t h[32]) {
  napi_value buf;
  void *data;
  if (napi_create_buffer_copy(env, 32, h, &data, &buf) != napi_ok) return NULL;
  return buf;
}

/* keccak256(data: Uint8Array): Buffer(32) */
static napi_value js_keccak256(napi_env env, napi_callback_info info) {
  size_t argc = 1;
  napi_value argv[1];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *data; size_t len;
  if (argc < 1 || get_bytes(env, argv[0], &data, &len)) return throw_type(env, "\"data\": expected Uint8Array");
  uint8_t h[32];
  cairn_keccak256(data, len, h);
  return make_hash(env, h);
}

/* keccak256Into(data: Uint8Array, out: Uint8Array, at: number): undefined — the digest to out[at..at+32].
 * A fresh Buffer per hash (keccak256) cost several times the hash itself: its memory lives outside the
 * JS heap, and the collector tracks each one. data may overlap out: it is read before out is written. */
static napi_value js_keccak256_into(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *data, *out; size_t len, olen; uint64_t at;
  if (argc < 3 || get_bytes(env, argv[0], &data, &len)) return throw_type(env, "\"data\": expected Uint8Array");
  if (get_bytes(env, argv[1], &out, &olen)) return throw_type(env, "\"out\": expected Uint8Array");
  if (get_index(env, argv[2], &at) || olen < 32 || at > olen - 32) return throw_range(env, "\"at\": expected an offset with 32 bytes of out after it");
  uint8_t h[32];
  cairn_keccak256(data, len, h);
  memcpy(out + at, h, 32);
  return NULL;
}

/* Shared argument checks of keccakPathRoot / keccakPathRootInto. */
static int path_args(napi_env env, napi_value *argv, size_t argc, uint8_t **leaf, uint8_t **proof,
                     size_t *depth, uint64_t *index) {
  size_t len;
  if (argc < 3 || get_bytes(env, argv[0], leaf, &len)) { throw_type(env, "\"leaf\": expected Uint8Array"); return -1; }
  if (len != 32) { throw_range(env, "\"leaf\": expected 32 bytes"); return -1; }
  if (get_bytes(env, argv[1], proof, &len)) { throw_type(env, "\"proof\": expected Uint8Array"); return -1; }
  if (len % 32) { throw_range(env, "\"proof\": expected a multiple of 32 bytes"); return -1; }
  *depth = len / 32;
  if (get_index(env, argv[2], index)) { throw_range(env, "\"index\": expected a non-negative safe integer"); return -1; }
  return 0;
}

/* keccakPathRoot(leaf, proof, index): Buffer(32) */
static napi_value js_path_root(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *leaf, *proof; size_t depth; uint64_t index;
  if (path_args(env, argv, argc, &leaf, &proof, &depth, &index)) return NULL;
  uint8_t h[32];
  cairn_keccak_path_root(leaf, proof, depth, index, h);
  return make_hash(env, h);
}

/* keccakPathRootInto(leaf, proof, index, out): undefined; writes the root to out[0..32]. Lets the
 * caller own the output memory, which saves the Buffer allocation per call. */
static napi_value js_path_root_into(napi_env env, napi_callback_info info) {
  size_t argc = 4;
  napi_value argv[4];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *leaf, *proof, *out; size_t depth, len; uint64_t index;
  if (path_args(env, argv, argc, &leaf, &proof, &depth, &index)) return NULL;
  if (argc < 4 || get_bytes(env, argv[3], &out, &len)) return throw_type(env, "\"out\": expected Uint8Array");
  if (len < 32) return throw_range(env, "\"out\": expected at least 32 bytes");
  cairn_keccak_path_root(leaf, proof, depth, index, out);
  return NULL;
}

/* Batch arguments: leaves (32*m), proofs (32*depth*m), indices Uint32Array(m), depth. */
static int batch_args(napi_env env, napi_value *argv, size_t argc, uint8_t **leaves, uint8_t **proofs,
                      uint32_t **indices, size_t *m, size_t *depth) {
  size_t llen, plen, ilen;
  double d;
  if (argc < 5) { throw_type(env, "expected 5 arguments"); return -1; }
  if (get_bytes(env, argv[0], leaves, &llen)) { throw_type(env, "\"leaves\": expected Uint8Array"); return -1; }
  if (get_bytes(env, argv[1], proofs, &plen)) { throw_type(env, "\"proofs\": expected Uint8Array"); return -1; }
  if (get_u32_array(env, argv[2], indices, &ilen)) { throw_type(env, "\"indices\": expected Uint32Array"); return -1; }
  if (napi_get_value_double(env, argv[3], &d) != napi_ok || !(d >= 0) || d > 64 || d != (double)(int)d) {
    throw_range(env, "\"depth\": expected an integer 0..64");
    return -1;
  }
  *depth = (size_t)d;
  *m = ilen;
  if (llen != 32 * ilen) { throw_range(env, "\"leaves\": expected 32 bytes per index"); return -1; }
  if (plen != 32 * (*depth) * ilen) { throw_range(env, "\"proofs\": expected 32*depth bytes per index"); return -1; }
  return 0;
}

/* keccakPathRootBatch(leaves, proofs, indices, depth, out): writes m roots to out (32*m bytes). */
static napi_value js_path_root_batch(napi_env env, napi_callback_info info) {
  size_t argc = 5;
  napi_value argv[5];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *leaves, *proofs, *out; uint32_t *indices; size_t m, depth, olen;
  if (batch_args(env, argv, argc, &leaves, &proofs, &indices, &m, &depth)) return NULL;
  if (get_bytes(env, argv[4], &out, &olen)) return throw_type(env, "\"out\": expected Uint8Array");
  if (olen < 32 * m) return throw_range(env, "\"out\": expected 32 bytes per index");
  path_root_batch(leaves, proofs, indices, m, depth, out);
  return NULL;
}

/* keccakVerifyBatch(leaves, proofs, indices, depth, roots, out): out[k] = 1 when path k reaches
 * roots[k], else 0. Returns the number of valid paths. */
static napi_value js_verify_batch(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  napi_get_cb_info(env, info, &argc, argv, NULL, NULL);
  uint8_t *leaves, *proofs, *roots, *out; uint32_t *indices; size_t m, depth, rlen, olen;
  if (batch_args(env, argv, argc, &leaves, &proofs, &indices, &m, &depth)) return NULL;
  if (argc < 6 || get_bytes(env, argv[4], &roots, &rlen)) return throw_type(env, "\"roots\": expected Uint8Array");
  if (rlen != 32 * m) return throw_range(env, "\"roots\": expected 32 bytes per index");
  if (get_bytes(env, argv[5], &out, &olen)) return throw_type(env, "\"out\": expected Uint8Array");
  if (olen < m) return throw_range(env, "\"out\": expected one byte per index");
  uint32_t valid = 0;
  uint8_t h[32 * 64];
  for (size_t k = 0; k < m; k += 64) { /* roots go through a stack chunk of 64 */
    size_t n = m - k < 64 ? m - k : 64;
    path_root_batch(leaves + 32 * k, proofs + 32 * depth * k, indices + k, n, depth, h);
    for (size_t j = 0; j < n; j++) {
      out[k + j] = memcmp(h + 32 * j, roots + 32 * (k + j), 32) == 0;
      valid += out[k + j];
    }
  }
  napi_value res;
  napi_create_uint32(env, valid, &res);
  return res;
}

napi_value cairn_keccak_register(napi_env env, napi_value exports) {
  napi_property_descriptor props[] = {
    {"keccak256", NULL, js_keccak256, NULL, NULL, NULL, napi_enumerable, NULL},
    {"keccak256Into", NULL, js_keccak256_into, NULL, NULL, NULL, napi_enumerable, NULL},
    {"keccakPathRoot", NULL, js_path_root, NULL, NULL, NULL, napi_enumerable, NULL},
    {"keccakPathRootInto", NULL, js_path_root_into, NULL, NULL, NULL, napi_enumerable, NULL},
    {"keccakPathRootBatch", NULL, js_path_root_batch, NULL, NULL, NULL, napi_enumerable, NULL},
    {"keccakVerifyBatch", NULL, js_verify_batch, NULL, NULL, NULL, napi_enumerable, NULL},
  };
  if (napi_define_properties(env, exports, sizeof(props) / sizeof(props[0]), props) != napi_ok) {
    napi_throw_error(env, "MERKLE_KERNEL_UNAVAILABLE", "cairn_native: could not register the keccak functions");
    return NULL;
  }
  return exports;
}
