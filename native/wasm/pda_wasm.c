/*
 * WebAssembly entry points around native/pda.c (SHA-256, the ed25519 on-curve test and the PDA
 * search), the portable fallback of the addon's `findPda`. pda.c picks its radix-2^25.5 field code
 * here (wasm32 has no 128-bit products). JS writes the preimage into the exported `io` buffer; the
 * address comes back in io[1024..1056). Built by native/wasm/build.mjs; no libc is linked.
 */
#include <stddef.h>
#include <stdint.h>
#include "../pda.h"

#define EXPORT(name) __attribute__((export_name(name), visibility("default")))

/* The preimage (at most CAIRN_PDA_MAX_INPUT bytes) at io[0..), the result at io[1024..1056). */
static uint8_t io[1024 + 32];

EXPORT("io") uint8_t *wasm_io(void) { return io; }
EXPORT("io_size") uint32_t wasm_io_size(void) { return sizeof io; }

/* Bump found (255..0) with the address at io[1024..], or -1; -2 for a bad length or index. */
EXPORT("find_pda") int wasm_find_pda(int len, int bump_at) {
  if (len < 1 || len > CAIRN_PDA_MAX_INPUT || bump_at < 0 || bump_at >= len) return -2;
  return cairn_find_pda(io, (size_t)len, (size_t)bump_at, io + 1024);
}

/* 1 when io[0..32) is an ed25519 point (dalek decompression), else 0. */
EXPORT("on_curve") int wasm_on_curve(void) { return cairn_ed25519_on_curve(io); }
