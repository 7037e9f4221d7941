/*
 * A copy for responses larger than the cache: the calling thread copies a response body into the
 * shared memory the workers read, right after scanning each part of it. Plain stores first read every
 * destination line into the cache (only to overwrite it) and push out what the workers and the scan
 * need; non-temporal stores write the lines straight to memory. See copy_stream.c.
 */
#ifndef CAIRN_COPY_STREAM_H
#define CAIRN_COPY_STREAM_H

#include <stddef.h>
#include <stdint.h>

/* dst[0..n) = src[0..n) (the ranges must not overlap); with `stream`, non-temporal stores where the
 * CPU has them (x86-64), followed by a store fence, so another thread told afterwards sees the bytes. */
void cairn_copy(uint8_t *dst, const uint8_t *src, size_t n, int stream);

#endif
