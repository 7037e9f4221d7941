/* See copy_stream.h. */
#include "copy_stream.h"
#include <string.h>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define CAIRN_NT_STORES 1
#endif

void cairn_copy(uint8_t *dst, const uint8_t *src, size_t n, int stream) {
#ifdef CAIRN_NT_STORES
  /* Below a few lines the fence costs more than the stores save. */
  if (stream && n >= 256) {
    /* Plain stores up to a 16-byte boundary of dst, then 64 bytes per step: four unaligned loads,
     * four aligned streaming stores (one cache line). */
    size_t head = (16 - ((uintptr_t)dst & 15)) & 15;
    memcpy(dst, src, head);
    dst += head;
    src += head;
    n -= head;
    for (; n >= 64; n -= 64, dst += 64, src += 64) {
      __m128i a = _mm_loadu_si128((const __m128i *)src);
      __m128i b = _mm_loadu_si128((const __m128i *)(src + 16));
      __m128i c = _mm_loadu_si128((const __m128i *)(src + 32));
      __m128i d = _mm_loadu_si128((const __m128i *)(src + 48));
      _mm_stream_si128((__m128i *)dst, a);
      _mm_stream_si128((__m128i *)(dst + 16), b);
      _mm_stream_si128((__m128i *)(dst + 32), c);
      _mm_stream_si128((__m128i *)(dst + 48), d);
    }
    /* Streaming stores are weakly ordered: fence them before whatever tells the workers. */
    _mm_sfence();
  }
#else
  (void)stream;
#endif
  memcpy(dst, src, n);
}
