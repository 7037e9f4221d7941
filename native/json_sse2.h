/*
 * Whether the JSON readers (json_scan.c, asset_proof_json.c) search text 16 bytes at a time with SSE2,
 * and the bit scan they find a match's position with. -DCAIRN_JSON_NO_SIMD builds their portable
 * paths on x86-64 too (to test them).
 */
#ifndef CAIRN_JSON_SSE2_H
#define CAIRN_JSON_SSE2_H

#if !defined(CAIRN_JSON_NO_SIMD) && (defined(__SSE2__) || defined(_M_X64) || (defined(_M_IX86_FP) && _M_IX86_FP >= 2))
#define CAIRN_JSON_SSE2 1
#include <emmintrin.h>
#if defined(_MSC_VER) && !defined(__clang__)
#include <intrin.h>
static inline unsigned ctz32(unsigned x) {
  unsigned long r;
  _BitScanForward(&r, x);
  return (unsigned)r;
}
#else
#define ctz32(x) ((unsigned)__builtin_ctz(x))
#endif
#endif

#endif
