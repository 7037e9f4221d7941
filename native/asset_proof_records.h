/*
 * Asset proofs verified where the batch records hold them, in either layout a record can have: as
 * json/asset-proof.ts's native packer writes it (asset_proof_json.h: root and leaf as T_B32, the nodes
 * as T_NODES32, decoded already) or as kinds/asset-proof.ts's `pack` writes a parsed item (base58 text:
 * T_STR root and leaf, T_NODES8/T_NODES nodes, decoded here). node_index is T_U64 in both. Read in
 * place from the batch (merkle/records/batch-writer.ts layout), so a worker builds no object, copy or
 * verdict per proof. Only what the JS path (kinds/asset-proof.ts `verifyMany`) would call plainly
 * valid is answered here; everything else is left to it, for its reason.
 */
#ifndef CAIRN_ASSET_PROOF_RECORDS_H
#define CAIRN_ASSET_PROOF_RECORDS_H

#include <stddef.h>
#include <stdint.h>

/* Codes per record. */
#define CAIRN_APR_VALID 1
/* Not answered here: another record shape, text that is not base58 of 32 bytes, a proof that is not
 * full or deeper than 32, or a root that does not match (the JS path says why). */
#define CAIRN_APR_ASK 0

/*
 * For each of the batch's n records (n = the u32 at batch[0], record i from the u32 at 4+4i to the
 * u32 at 8+4i), codes[i] = CAIRN_APR_VALID when the record is root, leaf, nodes and node_index in one
 * of the two layouts, node_index in 1..2^53-1 with as many nodes as its depth (at most 32), and the path
 * from the leaf through the nodes hashes (keccak256 of left ‖ right) to the root; else CAIRN_APR_ASK.
 * Returns how many are valid, or -1 (codes untouched) when the header is malformed or codes_len < n.
 */
int64_t cairn_verify_asset_proof_records(const uint8_t *batch, size_t len, uint8_t *codes, size_t codes_len);

#endif
