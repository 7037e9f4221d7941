/*
 * A getAssetProof item's batch record, read straight from its JSON text (src/merkle/json/asset-proof.ts
 * says when the workers use it), with its base58 already decoded: root and leaf as T_B32 (32 bytes),
 * the nodes as T_NODES32 (u32 count, 32 bytes each), node_index as T_U64 — what RecordReader returns
 * for the record src/merkle/kinds/asset-proof.ts's `pack` writes for the parsed item.
 */
#ifndef CAIRN_ASSET_PROOF_JSON_H
#define CAIRN_ASSET_PROOF_JSON_H

#include <stddef.h>
#include <stdint.h>

/* Declined (the caller parses the item instead), or `out` too small. */
#define CAIRN_APJ_DECLINED (-1)
#define CAIRN_APJ_NO_ROOM (-2)

/*
 * Pack the item s[a..b) into out[pos..) if it has the plain shape: an object with `root`, `leaf`,
 * `proof`, `node_index` once each (and `tree_id`, ignored), strings without escapes or bytes above
 * 0x7f (tree_id: any bytes but controls, no escape), at most 64 nodes of at most 255 bytes, and a positive integer
 * of at most 15 digits, every base58 string 32 bytes once decoded. Returns the position after the
 * record, with the leaf's byte range in id[0..1]; or CAIRN_APJ_DECLINED (bytes past `pos` may have
 * been written; they are not part of any record). What it packs is valid JSON by itself; what it
 * declines may not be (the verifier's skimmed items are unchecked): the caller's parser judges.
 * With `ids` (else NULL), a packed item's leaf text is also copied to ids[id[2]..] and id[2] advanced
 * past it, so a batch's ids come out as one run of bytes (CAIRN_APJ_NO_ROOM when it does not fit).
 */
int64_t cairn_pack_asset_proof_json(const uint8_t *s, size_t a, size_t b, uint8_t *out, size_t out_len, size_t pos, uint32_t id[3],
                                    uint8_t *ids, size_t ids_len);

/*
 * Items i in [from, to) of a JSON batch's table (table[4i + 2], table[4i + 3]: each item's start and
 * end in s) packed one after another as cairn_pack_asset_proof_json packs one, with ids: record r =
 * rec + (i - from) starts at *pos (moved past it) and its offset goes to the u32 at out[4 + 4r] (the
 * batch header, merkle/records/batch-writer.ts); the leaf's length to id_lens[i]. Stops before the
 * first item declined (or out of room, or out of s). Returns the items packed: one call for a batch
 * instead of one per item, whose crossing from JS (~250 ns) cost as much as a tenth of the packing.
 */
size_t cairn_pack_asset_proof_json_many(const uint8_t *s, size_t s_len, const uint32_t *table, size_t from, size_t to, uint8_t *out,
                                        size_t out_len, size_t *pos, size_t rec, uint32_t id[3], uint8_t *ids, size_t ids_len,
                                        uint32_t *id_lens);

/*
 * s[a..b) as base58 of exactly 32 bytes into out (big-endian), with solana/base58.ts b58Decode32Bytes's rules:
 * 32 to 44 characters of the alphabet, a value below 2^256, one leading zero byte per leading '1'.
 * 1 when it is, 0 when it is not (out is then meaningless).
 */
int cairn_b58_decode32(const uint8_t *s, size_t a, size_t b, uint8_t out[32]);

#endif
