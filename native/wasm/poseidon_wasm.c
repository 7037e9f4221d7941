/*
 * WebAssembly entry points around native/poseidon.c (the same kernel as the addon, built with
 * 32-bit limbs). JS writes inputs into the exported `io` buffer and reads results from it, so a call
 * moves no memory besides those bytes. Built by native/wasm/build.mjs; no libc is linked.
 */
#include <stddef.h>
#include <stdint.h>
#include "../poseidon.h"

#define EXPORT(name) __attribute__((export_name(name), visibility("default")))

/* 64 KiB: room for a 64-level path (leaf + 64 siblings + root) or a batch of small hashes. */
static uint8_t io[65536];

EXPORT("io") uint8_t *wasm_io(void) { return io; }
EXPORT("io_size") uint32_t wasm_io_size(void) { return sizeof io; }

/* Poseidon of n elements at io[0..32n); the result goes to io[32n..32n+32). */
EXPORT("hash") int wasm_hash(int n) { return cairn_poseidon_hash(io, n, io + 32 * n); }

/* `count` hashes of `width` elements at io[0..); results follow the inputs. */
EXPORT("batch") int wasm_batch(int width, int count) {
  return (int)cairn_poseidon_batch(io, width, (size_t)count, io + 32 * (size_t)width * (size_t)count);
}

/* Path: leaf at io[0..32), `depth` siblings after it; root written after the siblings. The index
 * arrives as a double (exact up to 2^53) because i64 parameters would need BigInt in JS. */
EXPORT("path_root") int wasm_path_root(int depth, double index) {
  return cairn_poseidon_path_root(io, io + 32, (size_t)depth, (uint64_t)index, io + 32 + 32 * depth);
}
