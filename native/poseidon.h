/*
 * Poseidon over the BN254 scalar field (circom-compatible: x^5, 8 full rounds, circomlib constants,
 * widths t = 2..13, i.e. 1..12 inputs). Plain C entry points, shared by the N-API addon (addon.c)
 * and the WebAssembly build (native/wasm/). Elements travel as 32-byte big-endian strings; an
 * element that is not < r is rejected (never reduced): the functions return its index, or -1 when
 * everything was hashed.
 */
#ifndef CAIRN_POSEIDON_H
#define CAIRN_POSEIDON_H

#include <stddef.h>
#include <stdint.h>

/* Poseidon of n (1..12) elements laid out back to back in `in` (32*n bytes). Returns -1 on success,
 * else the index of the first element >= r (out untouched); -2 when n is out of range. */
int cairn_poseidon_hash(const uint8_t *in, int n, uint8_t out[32]);

/* `count` independent hashes of `width` elements each (in: 32*width*count bytes, out: 32*count).
 * Returns -1 on success, else the flat index of the first element >= r (nothing after it written). */
long cairn_poseidon_batch(const uint8_t *in, int width, size_t count, uint8_t *out);

/* Merkle path root: walks `depth` siblings (proof: 32*depth bytes, leaf -> root) from `leaf`; at
 * level i, bit i of `index` set means the node is the right child: node = P(sibling, node).
 * Returns -1 on success, 0 when the leaf is >= r, k+1 when proof[k] is >= r. `out` may alias leaf. */
int cairn_poseidon_path_root(const uint8_t leaf[32], const uint8_t *proof, size_t depth, uint64_t index,
                             uint8_t out[32]);

#endif
