/*
 * The native JSON structure scanner: the C port of src/json/scan-js.ts, producing the same tape
 * (src/json/tape-format.ts: 4 u32 per entry) and the same errors byte for byte.
 */
#ifndef CAIRN_JSON_SCAN_H
#define CAIRN_JSON_SCAN_H

#include <stddef.h>
#include <stdint.h>

#define CAIRN_JSON_MAX_DEPTH 1024
/* Number literals longer than this are refused (tape-format.ts MAX_NUMBER_CHARS says why). */
#define CAIRN_JSON_MAX_NUMBER_CHARS 40
#define CAIRN_JSON_TAPE_FULL (-1)

/*
 * Scan b[0..n); fill tape (tape_u32s u32, 4 per entry; a trailing partial entry is never used).
 * Returns the entry count, CAIRN_JSON_TAPE_FULL (-1) when an entry does not fit, or -(2 + error code)
 * with the error's byte offset written to tape[0] (when tape_u32s > 0), and for a number longer than
 * CAIRN_JSON_MAX_NUMBER_CHARS (code 9) its end to tape[1] (when tape_u32s > 1). Error codes are
 * ScanError's.
 */
int64_t cairn_json_scan(const uint8_t *b, size_t n, uint32_t *tape, size_t tape_u32s);

/*
 * A scan that can stop part way and go on later, so a consumer can use the values scanned so far (the
 * verifier hands out the first items of a large response while the rest is scanned).
 *
 * `state` is CAIRN_JSON_STATE_U32S u32s, all zero for a fresh scan: [0] status (0 fresh, 1 suspended),
 * [1] the byte offset reached, [2] the entry count so far, [3] the depth, [4] 1 once a number of 16 or
 * more characters was seen (set when suspending and when done), [5] skimming (below), then the open
 * containers' entries, their current key entries and whether each is an object (CAIRN_JSON_MAX_DEPTH
 * each).
 * The scan suspends after the first value that ends at or past byte `stop_at` inside a container,
 * returning CAIRN_JSON_SUSPENDED with state[2] entries complete on the tape except the open containers
 * (end 0) and their keys'; calling again with the same bytes, tape and state goes on from there (it
 * always makes progress: the value it stopped after is not checked again). Any other return leaves
 * state[0] = 0. A resumed scan writes exactly the tape a one-shot scan writes.
 *
 * Skimming: with state[5] = 1 + the entry of an array or object, each object that is a direct child of
 * that container (scanned from then on) becomes one entry, T_OBJECT | 0x40 with its start, end and next
 * = its own index + 1, its end found by bracket depth outside strings alone: its grammar is NOT
 * checked, and a number of 16+ characters in it is not seen. For a caller that has each such object
 * parsed elsewhere (the verifier's workers) and scans again without skimming when that fails. On valid
 * JSON the skimmed ends are exact. state[5] is the caller's: a scan never changes it.
 */
#define CAIRN_JSON_SUSPENDED (-10)
#define CAIRN_JSON_STATE_U32S (6 + 3 * CAIRN_JSON_MAX_DEPTH)
int64_t cairn_json_scan_from(const uint8_t *b, size_t n, uint32_t *tape, size_t tape_u32s, uint32_t *state, size_t stop_at);

/*
 * The skimmer a scan uses (see Skimming above), for a worker that finds items in its own part of a
 * response (json_ranges.c): the end of the object opening at b[i] (just after its closing bracket),
 * found by bracket depth outside strings alone, or 0 when b[0..n) ends first. Never reads past b[n - 1].
 */
typedef size_t (*cairn_json_skimmer)(const uint8_t *b, size_t n, size_t i);
cairn_json_skimmer cairn_json_pick_skimmer(void);

#endif
