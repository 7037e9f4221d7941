/*
 * Keccak-256 kernel of the cairn native addon: the hashes of a compressed-NFT concurrent Merkle tree
 * (parent = keccak256(left || right)). addon.c calls cairn_keccak_register() once to add the keccak
 * functions to the addon's exports; everything else here is internal to keccak.c.
 */
#ifndef CAIRN_KECCAK_H
#define CAIRN_KECCAK_H

#include <stddef.h>
#include <stdint.h>
#include <node_api.h>

/* Adds keccak256, keccak256Into, keccakPathRoot, keccakPathRootInto, keccakPathRootBatch and keccakVerifyBatch to
 * `exports` and returns it (NULL after throwing if N-API failed). */
napi_value cairn_keccak_register(napi_env env, napi_value exports);

/* Plain C entry points (no N-API), used by the functions above and usable from other C code. */
void cairn_keccak256(const uint8_t *data, size_t len, uint8_t out[32]);
/* Walks `depth` proof nodes (leaf -> root) from `leaf`; bit i of `index` says whether the node at
 * level i is a right child. Writes the root to `out` (may alias `leaf`). */
void cairn_keccak_path_root(const uint8_t leaf[32], const uint8_t *proof, size_t depth, uint64_t index,
                            uint8_t out[32]);
/* 1 when cairn_keccak_path_root_x4 walks the four paths in SIMD lanes (AVX2), 0 when it walks them
 * one by one. */
int cairn_keccak_has_x4(void);
/* Four paths of equal depth (at most 32 levels use the index bits; deeper levels take the left
 * branch, so keep depth <= 32): path j from leaf[j] with nodes proof[j] and index idx[j], root to out[j]. */
void cairn_keccak_path_root_x4(const uint8_t *const leaf[4], const uint8_t *const proof[4], size_t depth,
                               const uint32_t idx[4], uint8_t *const out[4]);

#endif
