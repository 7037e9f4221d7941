/*
 * The two libc functions the WebAssembly kernels need (they are built with -nostdlib, and the
 * compiler itself may emit calls to these for struct copies and zeroing). Linked into every .wasm
 * that native/wasm/build.mjs makes.
 */
#include <stddef.h>
#include <stdint.h>

void *memcpy(void *dst, const void *src, size_t n) {
  uint8_t *d = dst;
  const uint8_t *s = src;
  while (n--) *d++ = *s++;
  return dst;
}

void *memset(void *dst, int c, size_t n) {
  uint8_t *d = dst;
  while (n--) *d++ = (uint8_t)c;
  return dst;
}
