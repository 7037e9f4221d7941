/*
 * The native JSON structure scanner (see json_scan.h): the same grammar, tape and errors as
 * src/json/scan-js.ts, which is the reference — any change there must be made here too.
 *
 * The JS version's grammar states become labels here (value, array/object begin, key, after a value);
 * open containers live on a fixed stack of CAIRN_JSON_MAX_DEPTH levels. String bodies are skipped 16
 * bytes at a time with SSE2 (8 at a time with a SWAR test elsewhere) up to the first '"', '\\' or byte
 * below 0x20. Entries are written once they are complete; the error paths write the partial entry the
 * JS version would have left, so even a failed scan's tape is identical.
 */
#include "json_scan.h"

#include <string.h>

#include "json_sse2.h"

#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
#endif

#if defined(__GNUC__) || defined(__clang__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#endif

enum { T_OBJECT = 1, T_ARRAY = 2, T_STRING = 3, T_NUMBER = 4, T_TRUE = 5, T_FALSE = 6, T_NULL = 7, T_KEY = 8 };
enum { F_ESCAPED = 0x80, F_SKIMMED = 0x40 };
enum {
  E_UNEXPECTED_CHARACTER = 0,
  E_UNEXPECTED_END = 1,
  E_UNTERMINATED_STRING = 2,
  E_CONTROL_CHARACTER = 3,
  E_BAD_ESCAPE = 4,
  E_BAD_NUMBER = 5,
  E_TRAILING_CONTENT = 6,
  E_TOO_DEEP = 7,
  /* 9, not 8: -(2 + 8) is CAIRN_JSON_SUSPENDED */
  E_NUMBER_TOO_LONG = 9,
};

static const uint8_t ws_tab[256] = {[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1};

static inline int is_digit(uint8_t c) { return (uint8_t)(c - '0') <= 9; }
static inline int is_hex(uint8_t c) { return is_digit(c) || (uint8_t)((c | 0x20) - 'a') <= 5; }

#define STRING_ERROR ((size_t)-1)
/* Where the stacks start in a state (json_scan.h). */
#define STACKS 6
/* The state's slot naming the container whose objects are skimmed (json_scan.h). */
#define SKIM_SLOT 5

/*
 * A string whose opening quote is b[start]: returns the index after its closing quote and sets *esc to
 * F_ESCAPED when it holds a backslash; or STRING_ERROR with *code and *at set.
 */
static inline size_t scan_string(const uint8_t *b, size_t n, size_t start, uint32_t *esc, int *code, size_t *at) {
  size_t j = start + 1;
  uint32_t escaped = 0;
#ifdef CAIRN_JSON_SSE2
  const __m128i quote = _mm_set1_epi8('"');
  const __m128i backslash = _mm_set1_epi8('\\');
  const __m128i c1f = _mm_set1_epi8(0x1f);
#endif
  for (;;) {
    uint8_t c;
#ifdef CAIRN_JSON_SSE2
    while (LIKELY(j + 16 <= n)) {
      const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + j));
      const __m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)),
                                       _mm_cmpeq_epi8(_mm_min_epu8(v, c1f), v)); /* v <= 0x1f, unsigned */
      const unsigned mask = (unsigned)_mm_movemask_epi8(hit);
      if (mask) {
        j += ctz32(mask);
        goto special;
      }
      j += 16;
    }
#else
    /* SWAR: a word with no '"', '\\' or byte < 0x20 is skipped whole; a flagged one goes byte by byte. */
    while (j + 8 <= n) {
      uint64_t x;
      memcpy(&x, b + j, 8);
      const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
      const uint64_t xq = x ^ (ones * '"'), xb = x ^ (ones * '\\');
      const uint64_t t = ((xq - ones) & ~xq) | ((xb - ones) & ~xb) | ((x - ones * 0x20) & ~x);
      if (t & highs) break;
      j += 8;
    }
#endif
    for (;;) {
      if (UNLIKELY(j >= n)) {
        *code = E_UNTERMINATED_STRING;
        *at = start;
        return STRING_ERROR;
      }
      c = b[j];
      if (c == '"' || c == '\\' || c < 0x20) break;
      j++;
    }
#ifdef CAIRN_JSON_SSE2
  special:
#endif
    c = b[j];
    if (LIKELY(c == '"')) {
      *esc = escaped;
      return j + 1;
    }
    if (c < 0x20) {
      *code = E_CONTROL_CHARACTER;
      *at = j;
      return STRING_ERROR;
    }
    /* a backslash */
    escaped = F_ESCAPED;
    if (j + 1 >= n) {
      *code = E_UNTERMINATED_STRING;
      *at = start;
      return STRING_ERROR;
    }
    const uint8_t e = b[j + 1];
    if (e == 'u') {
      for (size_t k = 2; k < 6; k++) {
        if (j + k >= n) {
          *code = E_UNTERMINATED_STRING;
          *at = start;
          return STRING_ERROR;
        }
        if (!is_hex(b[j + k])) {
          *code = E_BAD_ESCAPE;
          *at = j;
          return STRING_ERROR;
        }
      }
      j += 6;
      continue;
    }
    if (e != '"' && e != '\\' && e != '/' && e != 'b' && e != 'f' && e != 'n' && e != 'r' && e != 't') {
      *code = E_BAD_ESCAPE;
      *at = j;
      return STRING_ERROR;
    }
    j += 2;
  }
}

/*
 * Skimming (see json_scan.h): the end of the object opening at b[i], found by bracket depth alone
 * outside strings, 64 bytes at a time. It checks no grammar: whoever reads the object parses it (the
 * verifier's workers do), and the verifier scans again without skimming when anything fails.
 *
 * Per 64-byte block, four bit masks (bit j for byte j): quotes, backslashes, '{' or '[' and '}' or ']'
 * ('[' and '{' differ only in bit 5, as do ']' and '}', so one compare of c | 0x20 finds both). A quote
 * that a backslash escapes is dropped; the running XOR of the quotes is then 1 for every byte from an
 * opening quote up to (not including) its closing one, so brackets under it are inside strings. Only
 * the brackets left are walked bit by bit, a handful per item.
 */
struct skim {
  uint64_t in_string; /* all ones when the last block ended inside a string */
  uint64_t carry;     /* 1 when the last block's final backslash escapes this block's first byte */
  uint64_t depth;
};

static inline unsigned ctz64(uint64_t x) {
#if defined(_MSC_VER) && !defined(__clang__) && (defined(_M_X64) || defined(_M_ARM64))
  unsigned long r;
  _BitScanForward64(&r, x);
  return (unsigned)r;
#elif defined(_MSC_VER) && !defined(__clang__)
  unsigned long r;
  if ((uint32_t)x) {
    _BitScanForward(&r, (uint32_t)x);
    return (unsigned)r;
  }
  _BitScanForward(&r, (uint32_t)(x >> 32));
  return (unsigned)r + 32;
#else
  return (unsigned)__builtin_ctzll(x);
#endif
}

/* The bytes a backslash escapes in a block (rare in service responses: walked bit by bit). */
static uint64_t skim_escaped(uint64_t bs, uint64_t *carry) {
  uint64_t esc = *carry;
  *carry = 0;
  while (bs) {
    const unsigned j = ctz64(bs);
    bs &= bs - 1;
    if ((esc >> j) & 1) continue; /* an escaped backslash escapes nothing */
    if (j == 63) *carry = 1;
    else esc |= 1ull << (j + 1);
  }
  return esc;
}

static inline uint64_t prefix_xor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}

/* The 64 bytes from b[p], or (near the end) the bytes left, padded with spaces in `last`. */
static inline const uint8_t *skim_bytes_at(const uint8_t *b, size_t n, size_t p, uint8_t last[64]) {
  if (LIKELY(n - p >= 64)) return b + p;
  memset(last, ' ', 64);
  memcpy(last, b + p, n - p);
  return last;
}

/* A block's quotes less those a backslash escapes (the backslashes are walked only when there are any). */
static inline uint64_t skim_unescaped(struct skim *k, uint64_t quote, uint64_t bs) {
  if (UNLIKELY((bs | k->carry) != 0)) quote &= ~skim_escaped(bs, &k->carry);
  return quote;
}

/*
 * One block walked, given the running XOR of its unescaped quotes: the offset after the bracket closing
 * the object (1 to 64), or 0 when it goes on.
 */
static inline unsigned skim_block(struct skim *k, uint64_t quotes_xor, uint64_t open, uint64_t close) {
  const uint64_t str = quotes_xor ^ k->in_string;
  k->in_string = 0 - (str >> 63);
  uint64_t br = (open | close) & ~str;
  while (br) {
    const unsigned j = ctz64(br);
    br &= br - 1;
    if ((open >> j) & 1) k->depth++;
    else if (--k->depth == 0) return j + 1;
  }
  return 0;
}

#ifdef CAIRN_JSON_SSE2
static inline uint64_t mask16(__m128i v, __m128i c) { return (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, c)); }

static size_t skim_sse2(const uint8_t *b, size_t n, size_t i) {
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), bit5 = _mm_set1_epi8(0x20);
  const __m128i open = _mm_set1_epi8('{'), close = _mm_set1_epi8('}');
  struct skim k = {0, 0, 0};
  uint8_t last[64];
  for (size_t p = i; p < n; p += 64) {
    const uint8_t *s = skim_bytes_at(b, n, p, last);
    uint64_t q = 0, bs = 0, o = 0, c = 0;
    for (unsigned h = 0; h < 4; h++) {
      const __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * h));
      const __m128i f = _mm_or_si128(v, bit5);
      q |= mask16(v, quote) << (16 * h);
      bs |= mask16(v, backslash) << (16 * h);
      o |= mask16(f, open) << (16 * h);
      c |= mask16(f, close) << (16 * h);
    }
    const unsigned at = skim_block(&k, prefix_xor(skim_unescaped(&k, q, bs)), o, c);
    if (at) return p + at;
  }
  return 0;
}
#endif

#if defined(CAIRN_JSON_SSE2) && (defined(__GNUC__) || defined(__clang__)) && defined(__x86_64__)
#define CAIRN_SKIM_AVX2 1
#include <immintrin.h>

__attribute__((target("avx2,pclmul"))) static inline uint64_t mask32(__m256i v, __m256i c) {
  return (uint64_t)(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, c));
}

/* The running XOR in one carry-less multiply by all ones (~10% of the skim's time against the shifts). */
__attribute__((target("avx2,pclmul"))) static inline uint64_t prefix_xor_clmul(uint64_t x) {
  return (uint64_t)_mm_cvtsi128_si64(_mm_clmulepi64_si128(_mm_set_epi64x(0, (long long)x), _mm_set1_epi8((char)0xff), 0));
}

__attribute__((target("avx2,pclmul"))) static size_t skim_avx2(const uint8_t *b, size_t n, size_t i) {
  const __m256i quote = _mm256_set1_epi8('"'), backslash = _mm256_set1_epi8('\\'), bit5 = _mm256_set1_epi8(0x20);
  const __m256i open = _mm256_set1_epi8('{'), close = _mm256_set1_epi8('}');
  struct skim k = {0, 0, 0};
  uint8_t last[64];
  for (size_t p = i; p < n; p += 64) {
    const uint8_t *s = skim_bytes_at(b, n, p, last);
    const __m256i lo = _mm256_loadu_si256((const __m256i *)(const void *)s);
    const __m256i hi = _mm256_loadu_si256((const __m256i *)(const void *)(s + 32));
    const __m256i flo = _mm256_or_si256(lo, bit5), fhi = _mm256_or_si256(hi, bit5);
    const uint64_t q = mask32(lo, quote) | mask32(hi, quote) << 32;
    const uint64_t bs = mask32(lo, backslash) | mask32(hi, backslash) << 32;
    const uint64_t o = mask32(flo, open) | mask32(fhi, open) << 32;
    const uint64_t c = mask32(flo, close) | mask32(fhi, close) << 32;
    const unsigned at = skim_block(&k, prefix_xor_clmul(skim_unescaped(&k, q, bs)), o, c);
    if (at) return p + at;
  }
  return 0;
}
#endif

#ifndef CAIRN_JSON_SSE2
/* Portable: the same walk a byte at a time. */
static size_t skim_bytes(const uint8_t *b, size_t n, size_t i) {
  size_t depth = 0;
  int in_string = 0;
  for (size_t j = i; j < n; j++) {
    const uint8_t c = b[j];
    if (in_string) {
      if (c == '\\') j++;
      else if (c == '"') in_string = 0;
    } else if (c == '"') in_string = 1;
    else if ((c | 0x20) == '{') depth++;
    else if ((c | 0x20) == '}' && --depth == 0) return j + 1;
  }
  return 0;
}
#endif

/* A skimmer: the end of the object opening at b[i] (see above), or 0 when the text ends first. */
typedef size_t (*skimmer)(const uint8_t *b, size_t n, size_t i);

/* The fastest skimmer this CPU runs (asked once per scan call, not per item). */
static skimmer pick_skimmer(void) {
#ifdef CAIRN_SKIM_AVX2
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("pclmul")) return skim_avx2;
#endif
#ifdef CAIRN_JSON_SSE2
  return skim_sse2;
#else
  return skim_bytes;
#endif
}

cairn_json_skimmer cairn_json_pick_skimmer(void) { return pick_skimmer(); }

static inline void put(uint32_t *t, uint32_t w0, size_t start, size_t end, size_t next) {
  t[0] = w0;
  t[1] = (uint32_t)start;
  t[2] = (uint32_t)end;
  t[3] = (uint32_t)next;
}

int64_t cairn_json_scan(const uint8_t *b, size_t n, uint32_t *tape, size_t tape_u32s) {
  return cairn_json_scan_from(b, n, tape, tape_u32s, NULL, SIZE_MAX);
}

int64_t cairn_json_scan_from(const uint8_t *b, size_t n, uint32_t *tape, size_t tape_u32s, uint32_t *state, size_t stop_at) {
  const size_t cap = tape_u32s / 4;
  /* Per open container (index = its depth): its entry, whether it is an object, and for an object the
   * key entry whose value is being read (its subtree end is set once the value ends). */
  uint32_t open[CAIRN_JSON_MAX_DEPTH];
  uint32_t key[CAIRN_JSON_MAX_DEPTH];
  uint8_t is_obj[CAIRN_JSON_MAX_DEPTH];
  size_t depth = 0;
  size_t count = 0;
  size_t i = 0;
  size_t end, at = 0;
  uint32_t esc;
  int code = 0;
  uint8_t c;

#define SKIP_WS()                       \
  do {                                  \
    while (i < n && ws_tab[b[i]]) i++; \
  } while (0)
#define FAIL(err, where) \
  do {                   \
    code = (err);        \
    at = (where);        \
    goto fail;           \
  } while (0)
#define DEPTH_BITS ((uint32_t)depth << 8)
/* Close the container on top of the stack at i (after its closing bracket). */
#define CLOSE_TOP()                          \
  do {                                       \
    depth--;                                 \
    uint32_t *t_ = tape + 4 * (size_t)open[depth]; \
    t_[2] = (uint32_t)i;                     \
    t_[3] = (uint32_t)count;                 \
  } while (0)

  /* Set once a number of 16+ characters is seen (it may not survive JSON.parse exactly). */
  uint32_t long_seen = 0;
  /* 1 + the entry of the container whose objects are skimmed, or 0 (read once: the caller sets it). */
  const uint32_t skim = state ? state[SKIM_SLOT] : 0;
  const skimmer skim_object = skim ? pick_skimmer() : NULL;
  if (!state) stop_at = SIZE_MAX;
  if (state && state[0] == 1) {
    /* Resume after the value the last call stopped after. The stacks live in locals while scanning
     * (the state is only read here and written when suspending). */
    i = state[1];
    count = state[2];
    depth = state[3];
    long_seen = state[4];
    if (depth == 0 || depth > CAIRN_JSON_MAX_DEPTH || i > n || count > cap) {
      state[0] = 0;
      FAIL(E_UNEXPECTED_END, i > n ? n : i);
    }
    for (size_t d = 0; d < depth; d++) {
      open[d] = state[STACKS + d];
      key[d] = state[STACKS + CAIRN_JSON_MAX_DEPTH + d];
      is_obj[d] = (uint8_t)state[STACKS + 2 * CAIRN_JSON_MAX_DEPTH + d];
    }
    state[0] = 0;
    goto after_check;
  }
  if (state) state[0] = 0;
  if (state) state[4] = 0;

  /* A UTF-8 byte order mark at the very start is skipped, as TextDecoder (and so JSON.parse of the
   * decoded text, fetch's .json() and .text()) drops it. */
  if (n >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf) i = 3;
  SKIP_WS();
  if (i >= n) FAIL(E_UNEXPECTED_END, i);
  goto value_c;

value: /* a value is expected (after ':', after ',' in an array) */
  SKIP_WS();
  if (UNLIKELY(i >= n)) FAIL(E_UNEXPECTED_END, i);
value_c:
  c = b[i];
  if (LIKELY(c == '"')) {
    if (UNLIKELY(count >= cap)) return CAIRN_JSON_TAPE_FULL;
    const size_t e = count++;
    end = scan_string(b, n, i, &esc, &code, &at);
    if (UNLIKELY(end == STRING_ERROR)) {
      put(tape + 4 * e, T_STRING | DEPTH_BITS, i, 0, e + 1);
      goto fail;
    }
    put(tape + 4 * e, T_STRING | esc | DEPTH_BITS, i, end, e + 1);
    i = end;
    goto after_value;
  }
  if (c == '{' && skim && depth > 0 && open[depth - 1] == skim - 1) {
    /* An item of the container being skimmed: one entry, its end found by brackets alone. */
    if (UNLIKELY(count >= cap)) return CAIRN_JSON_TAPE_FULL;
    const size_t e = count++;
    end = skim_object(b, n, i);
    if (UNLIKELY(!end)) FAIL(E_UNEXPECTED_END, n);
    put(tape + 4 * e, T_OBJECT | F_SKIMMED | DEPTH_BITS, i, end, e + 1);
    i = end;
    goto after_value;
  }
  if (c == '{' || c == '[') {
    if (UNLIKELY(depth >= CAIRN_JSON_MAX_DEPTH)) FAIL(E_TOO_DEEP, i);
    if (UNLIKELY(count >= cap)) return CAIRN_JSON_TAPE_FULL;
    const size_t e = count++;
    const int obj = c == '{';
    put(tape + 4 * e, (obj ? T_OBJECT : T_ARRAY) | DEPTH_BITS, i, 0, e + 1);
    open[depth] = (uint32_t)e;
    is_obj[depth] = (uint8_t)obj;
    depth++;
    i++;
    SKIP_WS();
    if (UNLIKELY(i >= n)) FAIL(E_UNEXPECTED_END, i);
    c = b[i];
    if (obj) {
      if (c == '}') {
        i++;
        CLOSE_TOP();
        goto after_value;
      }
      goto key_c;
    }
    if (c == ']') {
      i++;
      CLOSE_TOP();
      goto after_value;
    }
    goto value_c;
  }
  if (c == '-' || is_digit(c)) {
    const size_t start = i;
    size_t j = i;
    if (b[j] == '-') j++;
    if (j >= n || !is_digit(b[j])) FAIL(E_BAD_NUMBER, start);
    if (b[j] == '0')
      j++;
    else
      while (j < n && is_digit(b[j])) j++;
    if (j < n && b[j] == '.') {
      j++;
      if (j >= n || !is_digit(b[j])) FAIL(E_BAD_NUMBER, start);
      while (j < n && is_digit(b[j])) j++;
    }
    if (j < n && (b[j] == 'e' || b[j] == 'E')) {
      j++;
      if (j < n && (b[j] == '+' || b[j] == '-')) j++;
      if (j >= n || !is_digit(b[j])) FAIL(E_BAD_NUMBER, start);
      while (j < n && is_digit(b[j])) j++;
    }
    if (UNLIKELY(j - start > CAIRN_JSON_MAX_NUMBER_CHARS)) {
      /* over the limit (json_scan.h): the literal's end goes to tape[1] for the error message */
      if (tape_u32s > 1) tape[1] = (uint32_t)j;
      FAIL(E_NUMBER_TOO_LONG, start);
    }
    if (UNLIKELY(count >= cap)) return CAIRN_JSON_TAPE_FULL;
    const size_t e = count++;
    put(tape + 4 * e, T_NUMBER | DEPTH_BITS, start, j, e + 1);
    if (UNLIKELY(j - start >= 16)) long_seen = 1;
    i = j;
    goto after_value;
  }
  {
    uint32_t lit = 0;
    size_t len = 0;
    if (n - i >= 4 && memcmp(b + i, "true", 4) == 0) lit = T_TRUE, len = 4;
    else if (n - i >= 5 && memcmp(b + i, "false", 5) == 0) lit = T_FALSE, len = 5;
    else if (n - i >= 4 && memcmp(b + i, "null", 4) == 0) lit = T_NULL, len = 4;
    if (!lit) FAIL(E_UNEXPECTED_CHARACTER, i);
    if (UNLIKELY(count >= cap)) return CAIRN_JSON_TAPE_FULL;
    const size_t e = count++;
    put(tape + 4 * e, lit | DEPTH_BITS, i, i + len, e + 1);
    i += len;
    goto after_value;
  }

key: /* a key is expected (after ',' in an object) */
  SKIP_WS();
  if (UNLIKELY(i >= n)) FAIL(E_UNEXPECTED_END, i);
  c = b[i];
key_c:
  if (UNLIKELY(c != '"')) FAIL(E_UNEXPECTED_CHARACTER, i);
  {
    if (UNLIKELY(count >= cap)) return CAIRN_JSON_TAPE_FULL;
    const size_t e = count++;
    end = scan_string(b, n, i, &esc, &code, &at);
    if (UNLIKELY(end == STRING_ERROR)) {
      put(tape + 4 * e, T_KEY | DEPTH_BITS, i, 0, e + 1);
      goto fail;
    }
    put(tape + 4 * e, T_KEY | esc | DEPTH_BITS, i, end, e + 1);
    key[depth - 1] = (uint32_t)e;
    i = end;
    if (UNLIKELY(i >= n || b[i] != ':')) {
      SKIP_WS();
      if (i >= n) FAIL(E_UNEXPECTED_END, i);
      if (b[i] != ':') FAIL(E_UNEXPECTED_CHARACTER, i);
    }
    i++;
    goto value;
  }

after_value: /* a value ended at i */
  if (UNLIKELY(depth == 0)) {
    SKIP_WS();
    if (i >= n) {
      if (state) state[4] = long_seen;
      return (int64_t)count;
    }
    FAIL(E_TRAILING_CONTENT, i);
  }
  if (is_obj[depth - 1]) tape[4 * (size_t)key[depth - 1] + 3] = (uint32_t)count;
  if (UNLIKELY(i >= stop_at)) goto suspend;
after_check:
  {
    const int obj = is_obj[depth - 1];
    if (UNLIKELY(i >= n || b[i] != ',')) {
      SKIP_WS();
      if (UNLIKELY(i >= n)) FAIL(E_UNEXPECTED_END, i);
    }
    c = b[i];
    if (LIKELY(c == ',')) {
      i++;
      if (obj) goto key;
      goto value;
    }
    if (c == (obj ? '}' : ']')) {
      i++;
      CLOSE_TOP();
      goto after_value;
    }
    FAIL(E_UNEXPECTED_CHARACTER, i);
  }

suspend:
  state[0] = 1;
  state[1] = (uint32_t)i;
  state[2] = (uint32_t)count;
  state[3] = (uint32_t)depth;
  state[4] = long_seen;
  for (size_t d = 0; d < depth; d++) {
    state[STACKS + d] = open[d];
    state[STACKS + CAIRN_JSON_MAX_DEPTH + d] = key[d];
    state[STACKS + 2 * CAIRN_JSON_MAX_DEPTH + d] = is_obj[d];
  }
  return CAIRN_JSON_SUSPENDED;

fail:
  if (tape_u32s > 0) tape[0] = (uint32_t)at;
  return -(int64_t)(2 + code);

#undef SKIP_WS
#undef FAIL
#undef DEPTH_BITS
#undef CLOSE_TOP
}
