/*
 * The native JSON structure scanner: the C port of src/merkle/json/scan-js.ts, producing the same tape
 * (src/merkle/json/tape-format.ts: 4 u32 per entry) and the same errors byte for byte.
 */
#ifndef CAIRN_JSON_SCAN_H
#define CAIRN_JSON_SCAN_H

#include <stddef.h>
#include <stdint.h>

#define CAIRN_JSON_MAX_DEPTH 1024
#define CAIRN_JSON_TAPE_FULL (-1)

/*
 * Scan b[0..n); fill tape (tape_u32s u32, 4 per entry; a trailing partial entry is never used).
 * Returns the entry count, CAIRN_JSON_TAPE_FULL (-1) when an entry does not fit, or -(2 + error code)
 * with the error's byte offset written to tape[0] (when tape_u32s > 0). Error codes are ScanError's.
 */
int64_t cairn_json_scan(const uint8_t *b, size_t n, uint32_t *tape, size_t tape_u32s);

#endif
