/**
 * The packed-record format. The main thread copies an item's fields into a batch as they are (strings
 * as their UTF-8 bytes, numbers checked and fixed-width), and the worker decodes them (base58
 * included) right before verifying. Decoding is most of the cost of a cheap proof, so it belongs on
 * the threads that scale. Every field is one tagged op, written and read in the same order as the
 * kind's parser checks its fields; a problem the main thread can already see (a number out of range, a
 * field that is not a string) is written as a FAIL op at that point, and the worker, reading in order,
 * reports whichever comes first — exactly the reason the parser would have given.
 */

export const T_STR = 1;
/** Node list, u32 byte lengths. */
export const T_NODES = 2;
/** Node list, u8 byte lengths (every element shorter than 256 bytes: the usual case). */
export const T_NODES8 = 10;
export const T_U8 = 3;
export const T_U32 = 4;
export const T_U64 = 5;
export const T_NONE = 7;
export const T_JSON = 8;
export const T_FAIL = 9;
// Projected JSON values (see `Projection`).
export const T_NULL = 11;
export const T_TRUE = 12;
export const T_FALSE = 13;
export const T_F64 = 14;
export const T_OBJ = 15;
export const T_ARR = 16;
export const T_BIGINT = 17;
/** A projected value: u32 offset of its string pool in the record, u32 pool bytes, then its ops. */
export const T_PROJ = 18;
/** A string whose bytes are in the enclosing projected value's pool: u32 byte length. */
export const T_PSTR = 19;
/** 32 bytes a native packer decoded from base58 already (native/asset_proof_json.c). */
export const T_B32 = 20;
/** A node list decoded already: u32 count, 32 bytes each. */
export const T_NODES32 = 21;
/**
 * Base58 fields as one run of ASCII text (`BatchWriter.b58Run`): u8 count (2 fields, then a list's
 * elements), u8 length of each, then their characters one after another.
 */
export const T_B58_RUN = 22;
export const TAG_NAMES = ['?', 'string', 'node list', 'u8', 'u32', 'u64', '?', 'none', 'json', 'fail', 'node list', 'null', 'true', 'false', 'number', 'object', 'array', 'bigint', 'projected', 'string', 'bytes', 'node list', 'base58 run'];

// Batch framing (little-endian): u32 count, u32 offsets[count + 1], then the records, each a run of
// tagged ops. One batch is one ArrayBuffer, moved to a worker and back.
export const HEADER = (n: number): number => 4 + 4 * (n + 1);
