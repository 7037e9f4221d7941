/*
 * See asset_proof_json.h. Parsing an asset proof with JSON.parse, packing its strings and decoding
 * their base58 in JS cost a worker ~9 µs and ~4 KB of garbage per proof; this reads and decodes the
 * same fields from the bytes in well under that and allocates nothing. Anything but the plain shape is declined, and the caller parses
 * that item as before, so the verdicts and errors are the parsed path's.
 */
#include "asset_proof_json.h"

#include <string.h>

/* Record tags (src/merkle/codec.ts): 32 decoded bytes, a list of them, a u64. */
enum { T_U64 = 5, T_B32 = 20, T_NODES32 = 21 };
enum { M_ROOT = 1, M_LEAF = 2, M_PROOF = 4, M_INDEX = 8, M_TREE = 16 };

static inline int is_ws(uint8_t c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

static inline size_t skip_ws(const uint8_t *s, size_t i, size_t b) {
  while (i < b && is_ws(s[i])) i++;
  return i;
}

/* The string opening at s[i]: the index after its closing quote, or 0 when it holds an escape or
 * (ascii) a byte above 0x7f. 0 is never a valid answer: a string takes at least two bytes. */
static inline size_t plain_string(const uint8_t *s, size_t i, size_t b, int ascii) {
  if (i >= b || s[i] != '"') return 0;
  for (size_t j = i + 1; j < b; j++) {
    const uint8_t c = s[j];
    if (c == '"') return j + 1;
    if (c == '\\' || (ascii && c >= 0x80)) return 0;
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

/* The base58 digit of c, or -1 outside the alphabet (no table: the worker threads share this code). */
static inline int b58_digit(uint8_t c) {
  if (c >= '1' && c <= '9') return c - '1';
  if (c >= 'A' && c <= 'H') return c - 'A' + 9;
  if (c >= 'J' && c <= 'N') return c - 'J' + 17;
  if (c >= 'P' && c <= 'Z') return c - 'P' + 22;
  if (c >= 'a' && c <= 'k') return c - 'a' + 33;
  if (c >= 'm' && c <= 'z') return c - 'm' + 44;
  return -1;
}

/*
 * s[a..b) as base58 of exactly 32 bytes, into out (big-endian), with codec.ts b58Decode32Bytes's
 * rules: 32 to 44 characters of the alphabet, a value below 2^256, and as many leading zero bytes as
 * leading '1's (bs58: each leading '1' is one zero byte). 0 when it is not.
 */
int cairn_b58_decode32(const uint8_t *s, size_t a, size_t b, uint8_t out[32]) {
  const size_t n = b - a;
  if (n < 32 || n > 44) return 0;
  size_t ones = 0;
  while (ones < n && s[a + ones] == '1') ones++;
  /* 8 limbs of 32 bits, least significant first; digits go in 5 at a time (58^5 < 2^32). */
  uint32_t limb[8] = {0};
  size_t i = a;
  while (i < b) {
    uint32_t chunk = 0, mul = 1;
    for (int k = 0; k < 5 && i < b; k++, i++) {
      const int d = b58_digit(s[i]);
      if (d < 0) return 0;
      chunk = chunk * 58 + (uint32_t)d;
      mul *= 58;
    }
    uint64_t carry = chunk;
    for (int l = 0; l < 8; l++) {
      const uint64_t x = (uint64_t)limb[l] * mul + carry;
      limb[l] = (uint32_t)x;
      carry = x >> 32;
    }
    if (carry) return 0;
  }
  for (int l = 0; l < 8; l++) {
    const uint32_t v = limb[7 - l];
    out[4 * l] = (uint8_t)(v >> 24);
    out[4 * l + 1] = (uint8_t)(v >> 16);
    out[4 * l + 2] = (uint8_t)(v >> 8);
    out[4 * l + 3] = (uint8_t)v;
  }
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
