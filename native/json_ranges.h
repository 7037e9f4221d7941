/*
 * Items found by a worker in its own part of a response: the verifier's range batches
 * (src/merkle/verifier/raw/ranges.ts). The calling thread scans only the head of a large response, up
 * to the first items of its container (a list, or an object keyed by id), and cuts the rest into byte
 * ranges without reading them; each worker finds the items that start in its range. A range's worker
 * does not know the state of the text where its range starts, so it looks for the first place that
 * reads as an item boundary, and says where that was: the calling thread accepts the answers only when
 * every range starts exactly where the previous range's last item was followed by the next (the first
 * range starts right after an item the calling thread scanned itself), so that every range was read as
 * the scanner would have read it. Anything else — a boundary mistaken, a value that is neither an object
 * nor null, a key it does not take, the text ending — and the verifier reads the response the usual way.
 */
#ifndef CAIRN_JSON_RANGES_H
#define CAIRN_JSON_RANGES_H

#include <stddef.h>
#include <stdint.h>
#include <node_api.h>

/* meta[0]: how the range ended. */
#define CAIRN_RANGE_NEXT 0   /* another item follows the last one: it starts at meta[2] (at or past `to`) */
#define CAIRN_RANGE_END 1    /* the container closes at meta[2] (its closing bracket) */
#define CAIRN_RANGE_NONE 2   /* not exact: no item boundary starts in [from, to) */
#define CAIRN_RANGE_MISFIT 3 /* not a plain run of items (or the text ends first): read it another way */
#define CAIRN_RANGE_FULL 4   /* more items than the table holds (meta[3] of them so far) */

/*
 * A keyed member is taken only when its key is at least this many bytes and holds no escape and no
 * control character: no envelope or item field name that finding the items reads (`jsonrpc`,
 * `result`, `value`, `items`, `proof`, `getAssetProof`, …) is that long, so members the calling thread
 * never sees cannot change where it finds the items. Ids (asset ids: 32–44 characters) are.
 */
#define CAIRN_RANGE_MIN_KEY 16

/*
 * The items of a container's children that start in b[from..to), reading no byte at or past n.
 * `exact`: b[from] is right after a complete child of the container (the first range); else the first
 * item is found as the first object or null (keyed: the first key) at or past `from` that follows
 * `}` or `null` and a comma. `keyed`: the container is an object keyed by id, else a list. Each item
 * is an object (its end found by brackets alone: whoever reads it parses it) or `null`, keyed ones
 * after a key and a colon. Item k goes to table[4k..4k+3] as [keyStart, keyEnd, valueStart, valueEnd]
 * (byte offsets, the key with its quotes; [0, 0) unkeyed), at most `cap` items.
 * meta: [0] status (above), [1] where the first item starts (its key when keyed), [2] see the status,
 * [3] the items found. Returns meta[0].
 */
int cairn_json_items_in_range(const uint8_t *b, size_t n, size_t from, size_t to, int exact, int keyed, uint32_t *table, size_t cap, uint32_t meta[4]);

/* Registers `jsonItemsInRange` on the addon's exports (see json_ranges.c). */
napi_value cairn_json_ranges_register(napi_env env, napi_value exports);

#endif
