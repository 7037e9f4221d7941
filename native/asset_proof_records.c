/*
 * See asset_proof_records.h. With the JSON packed in C (asset_proof_json.c), what a worker still did in
 * JS per proof — a RecordReader decoding root, leaf and nodes into fresh arrays, an object for the
 * proof, their copy into the kernel's batch arrays, a verdict object — came to ~1.7 KB of garbage and
 * a good part of its time. Here the paths are hashed from the records as they lie, four at a time in
 * SIMD lanes when consecutive records share a depth.
 */
#include "asset_proof_records.h"

#include <string.h>

#include "keccak.h"

/* Record tags (src/merkle/codec.ts). */
enum { T_U64 = 5, T_B32 = 20, T_NODES32 = 21 };

static inline uint32_t rd32(const uint8_t *p) {
  return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* One path waiting for its lane: record i, its parts and its leaf index. */
typedef struct {
  size_t i;
  const uint8_t *root, *leaf, *nodes;
  uint32_t index;
} lane_t;

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

int64_t cairn_verify_asset_proof_records(const uint8_t *batch, size_t len, uint8_t *codes, size_t codes_len) {
  if (len < 8) return -1;
  const size_t n = rd32(batch);
  if (n > (len - 8) / 4 || codes_len < n) return -1;
  const size_t header = 4 + 4 * (n + 1);
  lane_t lanes[4];
  int waiting = 0;
  size_t depth_waiting = 0;
  int64_t valid = 0;
  for (size_t i = 0; i < n; i++) {
    codes[i] = CAIRN_APR_ASK;
    const size_t a = rd32(batch + 4 + 4 * i), z = rd32(batch + 8 + 4 * i);
    if (a < header || z < a || z > len) continue;
    const uint8_t *p = batch + a;
    const size_t size = z - a;
    /* T_B32 root, T_B32 leaf, T_NODES32 k nodes, T_U64 node_index: 80 + 32k bytes */
    if (size < 80 || p[0] != T_B32 || p[33] != T_B32 || p[66] != T_NODES32) continue;
    const size_t k = rd32(p + 67);
    if (k > 32 || size != 80 + 32 * k || p[71 + 32 * k] != T_U64) continue;
    const uint8_t *q = p + 72 + 32 * k;
    const uint64_t node_index = (uint64_t)rd32(q) | (uint64_t)rd32(q + 4) << 32;
    /* kinds.ts: a safe positive integer whose depth (the position of its top bit) is the node count */
    if (node_index > 9007199254740991ull || (node_index >> k) != 1) continue;
    const size_t depth = k;
    if (waiting > 0 && depth != depth_waiting) {
      valid += flush(lanes, waiting, depth_waiting, codes);
      waiting = 0;
    }
    depth_waiting = depth;
    lanes[waiting++] = (lane_t){i, p + 1, p + 34, p + 71, (uint32_t)(node_index - ((uint64_t)1 << depth))};
    if (waiting == 4) {
      valid += flush(lanes, 4, depth, codes);
      waiting = 0;
    }
  }
  if (waiting > 0) valid += flush(lanes, waiting, depth_waiting, codes);
  return valid;
}
