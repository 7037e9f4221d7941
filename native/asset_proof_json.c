/*
 * See asset_proof_json.h. Parsing an asset proof with JSON.parse, packing its strings and decoding
 * their base58 in JS cost a worker ~9 µs and ~4 KB of garbage per proof; this reads and decodes the
 * same fields from the bytes in well under that and allocates nothing. Anything but the plain shape is declined, and the caller parses
 * that item as before, so the verdicts and errors are the parsed path's.
 */
#include "asset_proof_json.h"

#include <string.h>

#include "json_sse2.h"

/* Record tags (src/merkle/records/format.ts): 32 decoded bytes, a list of them, a u64. */
enum { T_U64 = 5, T_B32 = 20, T_NODES32 = 21 };
enum { M_ROOT = 1, M_LEAF = 2, M_PROOF = 4, M_INDEX = 8, M_TREE = 16 };

static inline int is_ws(uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

static inline size_t skip_ws(const uint8_t *s, size_t i, size_t b) {
  while (i < b && is_ws(s[i])) i++;
  return i;
}

/* The string opening at s[i]: the index after its closing quote, or 0 when it holds an escape, or (ascii)
 * a byte above 0x7f, or (not ascii) a control byte below 0x20, which JSON forbids unescaped: the
 * verifier may skim an item instead of scanning it (json_scan.h), so a packed item must be valid JSON
 * by itself (an ascii string is base58-decoded, which refuses control bytes anyway).
 * 0 is never a valid answer: a string takes at least two bytes.
 * 16 bytes at a time where SSE2 is (a proof's ~16 strings of 44 characters were ~1/3 of this file's
 * time byte by byte); only whole blocks inside [i, b) are loaded. */
static inline size_t plain_string(const uint8_t *s, size_t i, size_t b, int ascii) {
  if (i >= b || s[i] != '"') return 0;
  size_t j = i + 1;
#ifdef CAIRN_JSON_SSE2
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), c1f = _mm_set1_epi8(0x1f);
  for (; j + 16 <= b; j += 16) {
    const __m128i v = _mm_loadu_si128((const __m128i *)(s + j));
    unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)));
    if (ascii) m |= (unsigned)_mm_movemask_epi8(v); /* the top bit: a byte above 0x7f */
    else m |= (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_min_epu8(v, c1f), v)); /* v <= 0x1f */
    if (m) {
      const size_t at = j + ctz32(m);
      return s[at] == '"' ? at + 1 : 0;
    }
  }
#endif
  for (; j < b; j++) {
    const uint8_t c = s[j];
    if (c == '"') return j + 1;
    if (c == '\\' || (ascii ? c >= 0x80 : c < 0x20)) return 0;
  }
  return 0;
}

static int member(const uint8_t *k, size_t n) {
  if (n == 4 && memcmp(k, "root", 4) == 0) return M_ROOT;
  if (n == 4 && memcmp(k, "leaf", 4) == 0) return M_LEAF;
  if (n == 5 && memcmp(k, "proof", 5) == 0) return M_PROOF;
  if (n == 10 && memcmp(k, "node_index", 10) == 0) return M_INDEX;
  if (n == 7 && memcmp(k, "tree_id", 7) == 0) return M_TREE;
  return 0;
}

/* 1 + the base58 digit of each byte, 0 outside the alphabet (read-only: the worker threads share it). */
static const uint8_t B58_DIGIT1[256] = {
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  1,  2,  3,  4,  5,  6,  7,  8,  9,  0,  0,  0,  0,  0,  0,
   0, 10, 11, 12, 13, 14, 15, 16, 17,  0, 18, 19, 20, 21, 22,  0,
  23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,  0,  0,  0,  0,  0,
   0, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44,  0, 45, 46, 47,
  48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58,  0,  0,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
};

/*
 * 58^(5*(8-i)) as 8 little-endian 32-bit limbs: the weight of the i-th group of five digits of a
 * 45-digit number. Only the first 8-i limbs (1 for the last two rows) can be nonzero.
 */
static const uint32_t B58_POW[9][8] = {
  {0x00000000u, 0xb0612100u, 0x28f6af73u, 0xc19c48e6u, 0x7ba4a062u, 0xe28ed535u, 0x9df9dbf7u, 0x000004fdu},
  {0x00000000u, 0x4778de28u, 0x07e6a558u, 0xcbc0907du, 0xb5a6d367u, 0x469deca6u, 0x000020a8u, 0x00000000u},
  {0x40000000u, 0x1ceaa75eu, 0xec548c47u, 0x6d5a3847u, 0xb2a25e00u, 0x0000d5b2u, 0x00000000u, 0x00000000u},
  {0xfa000000u, 0x5869f408u, 0xc6e94ddeu, 0x5809369cu, 0x0005765du, 0x00000000u, 0x00000000u, 0x00000000u},
  {0x01100000u, 0x9aaf5053u, 0xb5f0f288u, 0x0023be67u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u},
  {0xf23a8000u, 0x734501d8u, 0x00e9e506u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u},
  {0xc7fba400u, 0x05fa8624u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u},
  {0x271f35a0u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u},
  {0x00000001u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u},
};

/*
 * s[a..b) as base58 of exactly 32 bytes, into out (big-endian), with solana/base58.ts b58Decode32Bytes's
 * rules: 32 to 44 characters of the alphabet, a value below 2^256, and as many leading zero bytes as
 * leading '1's (bs58: each leading '1' is one zero byte). 0 when it is not.
 *
 * Why not digit by digit: multiplying the whole 256-bit number by 58^5 for every five digits is a
 * chain of ~70 dependent multiply-adds, and the per-character range tests mispredict on random text
 * (~620 ns per value, loaded host). Here the digits come from a table, make 9 groups of five, and each
 * group times its weight (B58_POW) is summed column by column: 37 independent products and one carry
 * pass at the end (~5x faster, same run). Each column takes the low and high halves of its products
 * apart, so 18 terms below 2^32 cannot overflow 64 bits.
 */
int cairn_b58_decode32(const uint8_t *s, size_t a, size_t b, uint8_t out[32]) {
  const size_t n = b - a;
  if (n < 32 || n > 44) return 0;
  uint8_t d[45];
  const size_t pad = 45 - n;
  memset(d, 1, pad); /* digit 0, stored as 1 + digit */
  unsigned bad = 0;
  for (size_t k = 0; k < n; k++) {
    const uint8_t v = B58_DIGIT1[s[a + k]];
    bad |= v == 0;
    d[pad + k] = v;
  }
  if (bad) return 0;
  uint32_t group[9];
  for (int i = 0; i < 9; i++) {
    const uint8_t *g = d + 5 * i;
    group[i] = ((((uint32_t)(g[0] - 1) * 58 + (g[1] - 1)) * 58 + (g[2] - 1)) * 58 + (g[3] - 1)) * 58 + (uint32_t)(g[4] - 1);
  }
  uint64_t col[9] = {0};
  /* Fully unrolled over the constant table, the zero weights fold away and the columns stay in
   * registers (a loop bounded by 8 - i kept them in memory: ~1.6x slower). */
#pragma GCC unroll 9
  for (int i = 0; i < 9; i++) {
#pragma GCC unroll 8
    for (int j = 0; j < 8; j++) {
      const uint64_t p = (uint64_t)group[i] * B58_POW[i][j];
      col[j] += (uint32_t)p;
      col[j + 1] += p >> 32;
    }
  }
  for (int j = 0; j < 8; j++) col[j + 1] += col[j] >> 32;
  if (col[8]) return 0; /* 2^256 or more */
  for (int l = 0; l < 8; l++) {
    const uint32_t v = (uint32_t)col[7 - l];
    out[4 * l] = (uint8_t)(v >> 24);
    out[4 * l + 1] = (uint8_t)(v >> 16);
    out[4 * l + 2] = (uint8_t)(v >> 8);
    out[4 * l + 3] = (uint8_t)v;
  }
  size_t ones = 0;
  while (ones < n && s[a + ones] == '1') ones++;
  size_t lead = 0;
  while (lead < 32 && out[lead] == 0) lead++;
  return lead == ones;
}

static inline void put32(uint8_t *p, uint32_t v) {
  p[0] = (uint8_t)v;
  p[1] = (uint8_t)(v >> 8);
  p[2] = (uint8_t)(v >> 16);
  p[3] = (uint8_t)(v >> 24);
}

int64_t cairn_pack_asset_proof_json(const uint8_t *s, size_t a, size_t b, uint8_t *out, size_t out_len, size_t pos, uint32_t id[3],
                                    uint8_t *ids, size_t ids_len) {
  size_t nodes[2 * 64];
  size_t k = 0, root = 0, root_end = 0, leaf = 0, leaf_end = 0;
  uint64_t index = 0;
  int seen = 0;
  size_t i = skip_ws(s, a, b);
  if (i >= b || s[i] != '{') return CAIRN_APJ_DECLINED;
  i++;
  for (;;) {
    i = skip_ws(s, i, b);
    const size_t key_end = plain_string(s, i, b, 1);
    if (!key_end) return CAIRN_APJ_DECLINED;
    const int m = member(s + i + 1, key_end - i - 2);
    if (!m || (seen & m)) return CAIRN_APJ_DECLINED;
    seen |= m;
    i = skip_ws(s, key_end, b);
    if (i >= b || s[i] != ':') return CAIRN_APJ_DECLINED;
    i = skip_ws(s, i + 1, b);
    if (m == M_ROOT || m == M_LEAF || m == M_TREE) {
      const size_t end = plain_string(s, i, b, m != M_TREE);
      if (!end) return CAIRN_APJ_DECLINED;
      if (m == M_ROOT) root = i + 1, root_end = end - 1;
      else if (m == M_LEAF) leaf = i + 1, leaf_end = end - 1;
      i = end;
    } else if (m == M_PROOF) {
      if (i >= b || s[i] != '[') return CAIRN_APJ_DECLINED;
      i = skip_ws(s, i + 1, b);
      if (i < b && s[i] == ']') i++;
      else {
        for (;;) {
          const size_t end = plain_string(s, i, b, 1);
          if (!end || k == 64 || end - i - 2 > 255) return CAIRN_APJ_DECLINED;
          nodes[2 * k] = i + 1;
          nodes[2 * k + 1] = end - 1;
          k++;
          i = skip_ws(s, end, b);
          if (i < b && s[i] == ',') {
            i = skip_ws(s, i + 1, b);
            continue;
          }
          if (i >= b || s[i] != ']') return CAIRN_APJ_DECLINED;
          i++;
          break;
        }
      }
    } else {
      /* node_index: a positive integer of at most 15 digits (a safe integer), nothing else */
      const size_t start = i;
      if (i >= b || s[i] < '1' || s[i] > '9') return CAIRN_APJ_DECLINED;
      while (i < b && s[i] >= '0' && s[i] <= '9') index = index * 10 + (uint64_t)(s[i++] - '0');
      if (i - start > 15 || (i < b && (s[i] == '.' || s[i] == 'e' || s[i] == 'E'))) return CAIRN_APJ_DECLINED;
    }
    i = skip_ws(s, i, b);
    if (i < b && s[i] == ',') {
      i++;
      continue;
    }
    if (i >= b || s[i] != '}') return CAIRN_APJ_DECLINED;
    i++;
    break;
  }
  i = skip_ws(s, i, b);
  if (i != b || (seen & 15) != 15) return CAIRN_APJ_DECLINED;

  /* The record asset-proof `pack` + the worker's decoding come to, already decoded: root, leaf,
   * the nodes, node_index. A string that is not base58 of 32 bytes is declined: the parsed path then
   * gives its exact complaint. */
  const size_t size = 33 + 33 + 5 + 32 * k + 9;
  if (pos > out_len || out_len - pos < size) return CAIRN_APJ_NO_ROOM;
  if (ids && (id[2] > ids_len || ids_len - id[2] < leaf_end - leaf)) return CAIRN_APJ_NO_ROOM;
  uint8_t *p = out + pos;
  *p = T_B32;
  if (!cairn_b58_decode32(s, root, root_end, p + 1)) return CAIRN_APJ_DECLINED;
  p += 33;
  *p = T_B32;
  if (!cairn_b58_decode32(s, leaf, leaf_end, p + 1)) return CAIRN_APJ_DECLINED;
  p += 33;
  *p++ = T_NODES32;
  put32(p, (uint32_t)k);
  p += 4;
  for (size_t j = 0; j < k; j++, p += 32) {
    if (!cairn_b58_decode32(s, nodes[2 * j], nodes[2 * j + 1], p)) return CAIRN_APJ_DECLINED;
  }
  *p++ = T_U64;
  put32(p, (uint32_t)index);
  put32(p + 4, (uint32_t)(index >> 32));
  p += 8;
  id[0] = (uint32_t)leaf;
  id[1] = (uint32_t)leaf_end;
  if (ids) {
    /* The leaf names the item: its text joins the batch's ids (ASCII: it decoded as base58). */
    memcpy(ids + id[2], s + leaf, leaf_end - leaf);
    id[2] += (uint32_t)(leaf_end - leaf);
  }
  return (int64_t)(p - out);
}

size_t cairn_pack_asset_proof_json_many(const uint8_t *s, size_t s_len, const uint32_t *table, size_t from, size_t to, uint8_t *out,
                                        size_t out_len, size_t *pos, size_t rec, uint32_t id[3], uint8_t *ids, size_t ids_len,
                                        uint32_t *id_lens) {
  size_t i = from;
  for (; i < to; i++, rec++) {
    const size_t a = table[4 * i + 2], b = table[4 * i + 3];
    /* The record's offset goes to the batch header (merkle/records/batch-writer.ts): room for it and
     * for the end offset after it. */
    if (a > b || b > s_len || 12 + 4 * rec > out_len) break;
    const int64_t end = cairn_pack_asset_proof_json(s, a, b, out, out_len, *pos, id, ids, ids_len);
    if (end < 0) break;
    put32(out + 4 + 4 * rec, (uint32_t)*pos);
    *pos = (size_t)end;
    id_lens[i] = id[1] - id[0];
  }
  return i - from;
}
