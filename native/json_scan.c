/*
 * The native JSON structure scanner (see json_scan.h): the same grammar, tape and errors as
 * src/merkle/json/scan-js.ts, which is the reference — any change there must be made here too.
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

#if defined(__GNUC__) || defined(__clang__)
#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#else
#define LIKELY(x) (x)
#define UNLIKELY(x) (x)
#endif

enum { T_OBJECT = 1, T_ARRAY = 2, T_STRING = 3, T_NUMBER = 4, T_TRUE = 5, T_FALSE = 6, T_NULL = 7, T_KEY = 8 };
enum { F_ESCAPED = 0x80 };
enum {
  E_UNEXPECTED_CHARACTER = 0,
  E_UNEXPECTED_END = 1,
  E_UNTERMINATED_STRING = 2,
  E_CONTROL_CHARACTER = 3,
  E_BAD_ESCAPE = 4,
  E_BAD_NUMBER = 5,
  E_TRAILING_CONTENT = 6,
  E_TOO_DEEP = 7,
};

static const uint8_t ws_tab[256] = {[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1};

static inline int is_digit(uint8_t c) { return (uint8_t)(c - '0') <= 9; }
static inline int is_hex(uint8_t c) { return is_digit(c) || (uint8_t)((c | 0x20) - 'a') <= 5; }

#define STRING_ERROR ((size_t)-1)
/* Where the stacks start in a state (json_scan.h). */
#define STACKS 5

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
