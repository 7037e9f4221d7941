/*
 * See asset_proof_records.h. With the JSON packed in C (asset_proof_json.c), what a worker still did in
 * JS per proof — a RecordReader decoding root, leaf and nodes into fresh arrays, an object for the
 * proof, their copy into the kernel's batch arrays, a verdict object — came to ~1.5 KB of garbage and
 * a good part of its time; for a parsed item's record, decoding its base58 in JS came on top (about
 * half of a worker's time). Here the paths are hashed from the records as they lie (text decoded into
 * a small per-lane buffer), four at a time in SIMD lanes when consecutive records share a depth.
 */
#include "asset_proof_records.h"

#include <string.h>

#include "asset_proof_json.h"
#include "keccak.h"

/* Record tags (src/merkle/records/format.ts). */
enum { T_STR = 1, T_NODES = 2, T_U64 = 5, T_NODES8 = 10, T_B32 = 20, T_NODES32 = 21, T_B58_RUN = 22 };

static inline uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One path waiting for its lane: record i, its parts and its leaf index. */
typedef struct {
  size_t i;
  const uint8_t *root, *leaf, *nodes;
  uint32_t index;
} lane_t;

/* Where a lane's parts are decoded to when its record holds them as base58 text. */
typedef struct {
  uint8_t root[32], leaf[32], nodes[32 * 32];
} decoded_t;

/* Hash the m (1..4) waiting paths of depth `depth` and answer their records. */
static int64_t flush(lane_t *lanes, int m, size_t depth, uint8_t *codes) {
  uint8_t roots[4][32];
  int64_t valid = 0;
  if (m == 4) {
    const uint8_t *const leaf[4] = {lanes[0].leaf, lanes[1].leaf, lanes[2].leaf, lanes[3].leaf};
    const uint8_t *const proof[4] = {lanes[0].nodes, lanes[1].nodes, lanes[2].nodes, lanes[3].nodes};
    const uint32_t idx[4] = {lanes[0].index, lanes[1].index, lanes[2].index, lanes[3].index};
    uint8_t *const out[4] = {roots[0], roots[1], roots[2], roots[3]};
    cairn_keccak_path_root_x4(leaf, proof, depth, idx, out);
  } else {
    for (int j = 0; j < m; j++) cairn_keccak_path_root(lanes[j].leaf, lanes[j].nodes, depth, lanes[j].index, roots[j]);
  }
  for (int j = 0; j < m; j++) {
    const int ok = memcmp(roots[j], lanes[j].root, 32) == 0;
    codes[lanes[j].i] = ok ? CAIRN_APR_VALID : CAIRN_APR_ASK;
    valid += ok;
  }
  return valid;
}

/* A base58 text field (T_STR, u32 length, bytes) at p[0..end): decoded into out, the position after
 * it returned; 0 when it is not that or does not decode. */
static size_t text32(const uint8_t *p, size_t at, size_t end, uint8_t out[32]) {
  if (at + 5 > end || p[at] != T_STR) return 0;
  const size_t len = rd32(p + at + 1);
  if (len > end - at - 5 || !cairn_b58_decode32(p, at + 5, at + 5 + len, out)) return 0;
  return at + 5 + len;
}

/*
 * Record p[0..size) as root, leaf, nodes and node_index, either as the native packer writes them
 * (decoded: the parts point into the record) or as kinds/asset-proof.ts's `pack` writes a parsed item's (base58
 * text, as one run or field by field: decoded into `d`). The node count is its result, or -1 when the record is anything else.
 */
static long parts(const uint8_t *p, size_t size, decoded_t *d, lane_t *lane, uint64_t *node_index) {
  size_t k, at;
  if (size >= 80 && p[0] == T_B32) {
    if (p[33] != T_B32 || p[66] != T_NODES32) return -1;
    k = rd32(p + 67);
    if (k > 32 || size != 80 + 32 * k) return -1;
    lane->root = p + 1;
    lane->leaf = p + 34;
    lane->nodes = p + 71;
    at = 71 + 32 * k;
  } else if (size >= 2 && p[0] == T_B58_RUN) {
    /* a parsed item's record (kinds/asset-proof.ts, `BatchWriter.b58Run`): count, lengths, then the texts */
    const size_t count = p[1];
    if (count < 2 || count - 2 > 32 || count > size - 2) return -1;
    k = count - 2;
    const uint8_t *lens = p + 2;
    at = 2 + count;
    uint8_t *const out[2] = {d->root, d->leaf};
    for (size_t j = 0; j < count; j++) {
      const size_t len = lens[j];
      if (len > size - at || !cairn_b58_decode32(p, at, at + len, j < 2 ? out[j] : d->nodes + 32 * (j - 2))) return -1;
      at += len;
    }
    lane->root = d->root;
    lane->leaf = d->leaf;
    lane->nodes = d->nodes;
  } else {
    at = text32(p, 0, size, d->root);
    if (!at || !(at = text32(p, at, size, d->leaf))) return -1;
    if (at + 5 > size || (p[at] != T_NODES8 && p[at] != T_NODES)) return -1;
    const size_t width = p[at] == T_NODES8 ? 1 : 4;
    k = rd32(p + at + 1);
    if (k > 32 || width * k > size - at - 5) return -1;
    const uint8_t *lens = p + at + 5;
    at += 5 + width * k;
    for (size_t j = 0; j < k; j++) {
      const size_t len = width == 1 ? lens[j] : rd32(lens + 4 * j);
      if (len > size - at || !cairn_b58_decode32(p, at, at + len, d->nodes + 32 * j)) return -1;
      at += len;
    }
    lane->root = d->root;
    lane->leaf = d->leaf;
    lane->nodes = d->nodes;
  }
  if (size != at + 9 || p[at] != T_U64) return -1;
  *node_index = (uint64_t)rd32(p + at + 1) | (uint64_t)rd32(p + at + 5) << 32;
  return (long)k;
}

int64_t cairn_verify_asset_proof_records(const uint8_t *batch, size_t len, uint8_t *codes, size_t codes_len) {
  if (len < 8) return -1;
  const size_t n = rd32(batch);
  if (n > (len - 8) / 4 || codes_len < n) return -1;
  const size_t header = 4 + 4 * (n + 1);
  lane_t lanes[4];
  decoded_t decoded[4];
  int waiting = 0;
  size_t depth_waiting = 0;
  int64_t valid = 0;
  for (size_t i = 0; i < n; i++) {
    codes[i] = CAIRN_APR_ASK;
    const size_t a = rd32(batch + 4 + 4 * i), z = rd32(batch + 8 + 4 * i);
    if (a < header || z < a || z > len) continue;
    lane_t lane;
    uint64_t node_index;
    const long k = parts(batch + a, z - a, &decoded[waiting], &lane, &node_index);
    /* kinds/asset-proof.ts: a safe positive integer whose depth (the position of its top bit) is the node count */
    if (k < 0 || node_index > 9007199254740991ull || (node_index >> k) != 1) continue;
    const size_t depth = (size_t)k;
    if (waiting > 0 && depth != depth_waiting) {
      /* the lanes hold pointers into `decoded`: this record's parts move to slot 0 with the flush */
      valid += flush(lanes, waiting, depth_waiting, codes);
      if (lane.root == decoded[waiting].root) {
        memcpy(&decoded[0], &decoded[waiting], sizeof(decoded_t));
        lane.root = decoded[0].root;
        lane.leaf = decoded[0].leaf;
        lane.nodes = decoded[0].nodes;
      }
      waiting = 0;
    }
    depth_waiting = depth;
    lane.i = i;
    lane.index = (uint32_t)(node_index - ((uint64_t)1 << depth));
    lanes[waiting++] = lane;
    if (waiting == 4) {
      valid += flush(lanes, 4, depth, codes);
      waiting = 0;
    }
  }
  if (waiting > 0) valid += flush(lanes, waiting, depth_waiting, codes);
  return valid;
}
