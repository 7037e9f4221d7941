/**
 * The JSON edge of the Merkle engine. Response envelopes are unwrapped into a flat list of items, and
 * base58/number fields become bytes and bigints, each failure naming its field. For the worker pool
 * the items' fields are packed as they are into one framed batch that crosses to a worker as a
 * transferable `ArrayBuffer` (`BatchWriter`), and decoded there (`RecordReader`, with a base58
 * decoder that reads the bytes directly): the main thread only copies, the workers decode and verify.
 */
import { Buffer } from 'node:buffer';
import bs58 from 'bs58';
import { CairnError, ErrorCodes, InputError } from '../errors.js';
import { base58TooLong } from '../base58-bound.js';
import { b58Decode32Bytes, b58Decode32IntoJs } from '../solana/base58.js';
import { loadNative } from '../addon.js';
import { parseLossless } from '../json/lossless.js';
import { MAX_NUMBER_CHARS } from '../json/tape-format.js';

// ---------------------------------------------------------------------------------------------
// Field decoding. Each helper throws `FieldError` naming the field; kinds turn it into a verdict
// ("not valid: <field> ...") for value problems, or let it escape for shape problems.

/**
 * A value problem in one field of one item: the item is invalid, the input as a whole is still usable.
 *
 * @example
 * b58Field('abc', 'root'); // throws FieldError: "root": expected 32 bytes, got 2
 */
export class FieldError extends InputError {
  // A bad field is a verdict's reason, read as data: a stack would cost ~20 µs per invalid item
  // (source-mapped under tsx) and say nothing about the item.
  constructor(...args: ConstructorParameters<typeof InputError>) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(...args);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

// The portable decoders live with the rest of base58 (solana/base58.ts); the codec keeps its names.
export { b58Decode32Bytes, b58Decode32IntoJs };

/**
 * Base58 → exactly 32 bytes, or `null` when the string is not base58 or not 32 bytes long (the
 * caller then asks bs58 for the precise complaint). Generic base58 decoders are quadratic with
 * per-digit overhead; proofs carry dozens of 32-byte nodes, so this one folds two digits at a time
 * (× 58², < 2^12) into 16-bit limbs with plain int32 arithmetic, touching only the limbs in use.
 */
export function b58Decode32(s: string): Uint8Array | null {
  const out = new Uint8Array(32);
  return b58Decode32Into(s, out, 0) ? out : null;
}

/**
 * `b58Decode32` into `out[off..off+32]` (no allocation); false when `s` is not 32 bytes of base58.
 * The native addon's decoder when it loads (native/asset_proof_json.c: ~2× faster, 510–530 against
 * 1,060–1,250 ns per value on a loaded host; most of that is the call and reading the string, the
 * decoding itself is ~0.1 µs), else `b58Decode32IntoJs`; both give the same answers.
 */
export function b58Decode32Into(s: string, out: Uint8Array, off: number): boolean {
  // Chosen on first use, so importing the codec does not load the addon.
  decodeInto ??= loadNative()?.b58Decode32Into ?? b58Decode32IntoJs;
  return decodeInto(s, out, off);
}
let decodeInto: ((s: string, out: Uint8Array, off: number) => boolean) | undefined;

/** Decode a base58 string of exactly `len` bytes (32 for keys, hashes, proof nodes). */
export function b58Field(value: unknown, field: string, len = 32): Uint8Array {
  if (typeof value !== 'string') throw new FieldError(field, `expected a base58 string, got ${describe(value)}`, { expected: 'base58', got: describe(value) });
  if (len === 32) {
    const fast = b58Decode32(value);
    if (fast) return fast;
  }
  // bs58's decoder is quadratic in the text's length: a text far past any encoding of `len` bytes is
  // refused unread (a short one is decoded, so its error says how many bytes it held).
  if (value.length > 1_024 && base58TooLong(value, len)) {
    throw new FieldError(field, `expected ${len} bytes of base58, got ${value.length} characters`, { expected: `${len} bytes`, got: `${value.length} characters` });
  }
  let out: Uint8Array;
  try {
    out = bs58.decode(value);
  } catch {
    throw new FieldError(field, 'not valid base58', { expected: 'base58', got: value.slice(0, 60) });
  }
  if (out.length !== len) throw new FieldError(field, `expected ${len} bytes, got ${out.length}`, { expected: `${len} bytes`, got: out.length });
  return out;
}

/** Encode 32 bytes as base58 (for ids and diagnostics only: never on the hot path). */
export function toB58(bytes: Uint8Array): string {
  return bs58.encode(bytes);
}

/** Integers beyond this are described by their width in errors, not printed. */
const WIDE = 10n ** BigInt(MAX_NUMBER_CHARS);

/** A non-negative integer below `2^bits` from a JSON number, a decimal string or a bigint. */
export function uintField(value: unknown, field: string, bits: number): bigint {
  let v: bigint;
  if (typeof value === 'bigint') v = value;
  else if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new FieldError(field, `expected an integer, got ${value}`, { expected: 'integer', got: value });
    v = BigInt(value);
  } else if (typeof value === 'string' && value.length <= MAX_NUMBER_CHARS && /^[0-9]+$/.test(value)) v = BigInt(value);
  else throw new FieldError(field, `expected a non-negative integer, got ${describe(value)}`, { expected: 'integer', got: describe(value) });
  if (v < 0n || v >= 1n << BigInt(bits)) {
    // a caller's bigint may have any size: its digits are shown only when few (printing is quadratic)
    const got = v < -WIDE || v > WIDE ? `an integer of ${v < 0n ? '-' : ''}${(v < 0n ? -v : v).toString(16).length} hex digits` : v.toString();
    throw new FieldError(field, `expected 0 ≤ value < 2^${bits}, got ${got}`, { expected: `u${bits}`, got });
  }
  return v;
}

/** A u32 as a JS number. */
export function u32Field(value: unknown, field: string): number {
  return Number(uintField(value, field, 32));
}

/** An array of 32-byte base58 nodes concatenated into one buffer (the shape every path kernel takes). */
export function nodesField(value: unknown, field: string): Uint8Array {
  if (!Array.isArray(value)) throw new FieldError(field, `expected an array of base58 nodes, got ${describe(value)}`, { expected: 'array', got: describe(value) });
  const out = new Uint8Array(value.length * 32);
  for (let i = 0; i < value.length; i++) {
    const v: unknown = value[i];
    if (typeof v === 'string' && b58Decode32Into(v, out, i * 32)) continue;
    out.set(b58Field(v, `${field}[${i}]`), i * 32);
  }
  return out;
}

function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `"${v.length > 40 ? v.slice(0, 40) + '…' : v}"`;
  return typeof v;
}

/** Big-endian bytes → bigint (diagnostics and range checks off the hot path). */
export function beToBigint(b: Uint8Array): bigint {
  let v = 0n;
  for (let i = 0; i < b.length; i++) v = (v << 8n) | BigInt(b[i]!);
  return v;
}

/** bigint → `len` big-endian bytes. */
export function bigintToBe(v: bigint, len = 32): Uint8Array {
  const out = new Uint8Array(len);
  for (let i = len - 1; i >= 0; i--) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** Lexicographic comparison of equal-length big-endian byte strings: -1, 0 or 1. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// ---------------------------------------------------------------------------------------------
// Lossless JSON. Compression numbers (`lamports`, `amount`) are u64 and may exceed 2^53; JSON.parse
// would round them silently. The parser is json/lossless.ts (shared with the rpc client); here long
// integers come back as decimal strings, which the field decoders above accept.

/**
 * Parse JSON text, keeping integers of 16 or more digits exact (as decimal strings). Throws
 * `SyntaxError` on bad JSON, and `INPUT_TOO_LARGE` for a number longer than 40 characters or nesting
 * deeper than 1,024 levels (json/long-integers.ts: the limits the tape scanners hold a text to).
 *
 * @example
 * parseJsonLossless('{"lamports":18446744073709551615}') // { lamports: '18446744073709551615' }
 */
export function parseJsonLossless(text: string): unknown {
  return parseLossless(text, 'string');
}

// ---------------------------------------------------------------------------------------------
// Envelope unwrapping.

/** An item and the id it was keyed by (for objects keyed by id, as getAssetProofBatch returns). */
export interface KeyedItem {
  item: unknown;
  key?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Flatten anything the service returns into a list of items: a whole JSON-RPC response, a bare
 * `result`, `{context, value}`, a paged list (`items`), an array, an object keyed by id, or a single
 * item. `looksLikeItem` tells a single item apart from an object keyed by id.
 *
 * @example
 * unwrapItems({ jsonrpc: '2.0', id: 1, result: { context: { slot: 1 }, value: [p1, p2] } }, isProof)
 * // [{ item: p1 }, { item: p2 }]
 */
export function unwrapItems(input: unknown, looksLikeItem: (v: Record<string, unknown>) => boolean): KeyedItem[] {
  const v = peelEnvelopes(input, looksLikeItem);
  // null entries (unknown ids in a batch answer) stay as items: each becomes an invalid verdict.
  // Array.from, not map: a hole in a sparse array becomes an undefined item (named items[i] later), not a hole.
  if (Array.isArray(v)) return Array.from(v, (item) => ({ item }));
  if (looksLikeItem(v)) return [{ item: v }];
  const entries = Object.entries(v);
  if (entries.length > 0 && entries.every(([, x]) => x === null || (isObject(x) && looksLikeItem(x)))) {
    return entries.map(([key, item]) => ({ item, key }));
  }
  throw noItemOfKind(v);
}

/** The error for an object that is neither an item nor an object keyed by id. */
export function noItemOfKind(v: object): InputError {
  return new InputError('input', `found no item of this kind (keys: ${Object.keys(v).slice(0, 8).join(', ') || 'none'})`);
}

/**
 * `unwrapItems`' first half: the envelopes peeled off, down to the array of items, the object keyed
 * by id, or the single item (throws `InputError` for an error response, a null result, a scalar).
 * The bytes path (json/extract.ts) runs it on a lazily decoded envelope.
 */
export function peelEnvelopes(input: unknown, looksLikeItem: (v: Record<string, unknown>) => boolean): unknown[] | Record<string, unknown> {
  let v = input;
  // Peel envelopes, outermost first. Bounded: each step strictly descends.
  for (let depth = 0; depth < 8; depth++) {
    if (!isObject(v)) break;
    if ('jsonrpc' in v && ('result' in v || 'error' in v)) {
      if (v.error !== undefined && v.error !== null) {
        const e = v.error as { code?: unknown; message?: unknown };
        throw new InputError('error', `the input is a JSON-RPC error response (${String(e.code)}: ${String(e.message)}), not proofs`, { got: e });
      }
      v = v.result;
      continue;
    }
    if (looksLikeItem(v)) break;
    if ('value' in v && ('context' in v || Object.keys(v).length === 1)) {
      v = v.value;
      continue;
    }
    if (Array.isArray(v.items)) {
      v = v.items;
      continue;
    }
    break;
  }
  // A null result is "not found", never "nothing to check, all valid".
  if (v === null || v === undefined) throw new InputError('result', 'the response holds no result (null): the requested item was not found');
  if (Array.isArray(v)) return v;
  if (!isObject(v)) throw new InputError('input', `expected an object or an array, got ${describe(v)}`);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Field bounds, checked on bytes (no bigint on the hot path).

/** The BN254 scalar field modulus r, 32 big-endian bytes: every Poseidon input must be below it. */
export const BN254_R = bigintToBe(21888242871839275222246405745257275088548364400416034343698204186575808495617n);

/** True when the 32 big-endian bytes are < r. */
export function inField(b: Uint8Array): boolean {
  return compareBytes(b, BN254_R) < 0;
}

/** True when the 32 big-endian bytes are < 2^248 (addresses: the first byte is zero). */
export function below248(b: Uint8Array): boolean {
  return b.length === 32 && b[0] === 0;
}

// ---------------------------------------------------------------------------------------------
// Packed records: the main thread copies an item's fields into a batch as they are (strings as
// their UTF-8 bytes, numbers checked and fixed-width), and the worker decodes them (base58 included)
// right before verifying. Decoding is most of the cost of a cheap proof, so it belongs on the threads
// that scale. Every field is one tagged op, written and read in the same order as the kind's parser
// checks its fields; a problem the main thread can already see (a number out of range, a field that
// is not a string) is written as a FAIL op at that point, and the worker, reading in order, reports
// whichever comes first — exactly the reason the parser would have given.

const T_STR = 1;
/** Node list, u32 byte lengths. */
const T_NODES = 2;
/** Node list, u8 byte lengths (every element shorter than 256 bytes: the usual case). */
const T_NODES8 = 10;
const T_U8 = 3;
const T_U32 = 4;
const T_U64 = 5;
const T_NONE = 7;
const T_JSON = 8;
const T_FAIL = 9;
// Projected JSON values (see `Projection`).
const T_NULL = 11;
const T_TRUE = 12;
const T_FALSE = 13;
const T_F64 = 14;
const T_OBJ = 15;
const T_ARR = 16;
const T_BIGINT = 17;
/** A projected value: u32 offset of its string pool in the record, u32 pool bytes, then its ops. */
const T_PROJ = 18;
/** A string whose bytes are in the enclosing projected value's pool: u32 byte length. */
const T_PSTR = 19;
/** A copy of b[x..y) (Buffer's `slice` would be a view into a batch buffer that gets reused). */
const copyOf = (b: Uint8Array, x: number, y: number): Uint8Array => {
  const out = new Uint8Array(y - x);
  out.set(b.subarray(x, y));
  return out;
};
/** 32 bytes a native packer decoded from base58 already (native/asset_proof_json.c). */
const T_B32 = 20;
/** A node list decoded already: u32 count, 32 bytes each. */
const T_NODES32 = 21;
/**
 * Base58 fields as one run of ASCII text (`BatchWriter.b58Run`): u8 count (2 fields, then a list's
 * elements), u8 length of each, then their characters one after another.
 */
const T_B58_RUN = 22;
const TAG_NAMES = ['?', 'string', 'node list', 'u8', 'u32', 'u64', '?', 'none', 'json', 'fail', 'node list', 'null', 'true', 'false', 'number', 'object', 'array', 'bigint', 'projected', 'string', 'bytes', 'node list', 'base58 run'];

/**
 * The parts of a JSON value a verifier reads, for packing just those: `true` keeps a value whole, an
 * object keeps only the keys it lists (each with its own projection), `[p]` applies `p` to every
 * element of an array. A value whose shape differs from the projection (a string where an object
 * was expected, an array for an object) is kept whole, so the verifier sees exactly what it would
 * have seen in the original at every path the projection lists — and `undefined` everywhere else.
 *
 * @example
 * const P: Projection = { id: true, ownership: { owner: true }, creators: [{ address: true }] };
 */
export type Projection = true | { readonly [key: string]: Projection } | readonly [Projection];

const projectionKeys = new WeakMap<object, string[]>();
function keysOf(p: { readonly [key: string]: Projection }): string[] {
  let k = projectionKeys.get(p);
  if (!k) projectionKeys.set(p, (k = Object.keys(p)));
  return k;
}

/** The strings of a value being projected, written as one pool after its ops. */
interface ProjectionPool {
  strings: string[];
  /** Where each string's length is in the record (patched when the pool is not all ASCII). */
  lenAt: number[];
  chars: number;
  /** The strings joined as they come (`+` is cheaper than one `join` at the end). */
  text: string;
}

type ProjectionWriter = (w: BatchWriter, value: unknown, pool: ProjectionPool) => void;
const compiledProjections = new WeakMap<object, ProjectionWriter>();

/**
 * `p` as straight-line code that walks a value and writes its ops (`BatchWriter.projected`). A walk
 * driven by the projection reads every member through one `value[key]` site, which V8 cannot cache
 * across ~40 different keys: a getAsset item cost the main thread ~1.1 µs there, ~40% of packing it.
 * Generated code reads each member at its own site with a constant key. The keys are the
 * projection's own (constants in cairn, never input), in `keysOf` order, which the reader follows.
 */
function compiledProjection(p: Projection): ProjectionWriter {
  if (p === true) return (w, value, pool) => w.projLeaf(value, pool);
  let f = compiledProjections.get(p);
  if (f) return f;
  let n = 0;
  const emit = (q: Projection, v: string): string => {
    if (q === true) return `w.projLeaf(${v}, pool);`;
    const isObject = `${v} !== null && typeof ${v} === 'object'`;
    if (Array.isArray(q)) {
      const i = `i${n}`;
      const e = `e${n++}`;
      return `if (${isObject} && Array.isArray(${v})) { w.projArr(${v}.length); for (let ${i} = 0; ${i} < ${v}.length; ${i}++) { const ${e} = ${v}[${i}]; ${emit(q[0] as Projection, e)} } } else w.projLeaf(${v}, pool);`;
    }
    const obj = q as { readonly [key: string]: Projection };
    const members = keysOf(obj).map((k) => {
      const c = `c${n++}`;
      return `const ${c} = ${v}[${JSON.stringify(k)}]; ${emit(obj[k]!, c)}`;
    });
    return `if (${isObject} && !Array.isArray(${v})) { w.projObj(); ${members.join(' ')} } else w.projLeaf(${v}, pool);`;
  };
  f = new Function('w', 'value', 'pool', emit(p, 'value')) as ProjectionWriter;
  compiledProjections.set(p, f);
  return f;
}

/**
 * The field problem the main thread saw while packing an item, raised by the worker when it reaches
 * that field. Its message is the `FieldError` message the parser gives for it.
 */
/** A packed field that does not decode (its message already names the field): an invalid item. */
export class PackedFieldError extends CairnError {
  constructor(message: string) {
    super(ErrorCodes.MERKLE_INVALID_INPUT, message);
  }
}

/**
 * A u32 from a JSON value: the in-range integer fast path, else `u32Field` (same result, same errors).
 *
 * @example
 * u32Value(7, 'leafIndex'); // 7
 */
export function u32Value(value: unknown, field: string): number {
  if (typeof value === 'number' && value >= 0 && value <= 0xffffffff && Number.isInteger(value)) return value;
  return u32Field(value, field);
}

/**
 * A u64 from a JSON value: a safe non-negative integer as is, else `uintField(…, 64)` (a bigint).
 *
 * @example
 * u64Value('18446744073709551615', 'lamports'); // 18446744073709551615n
 */
export function u64Value(value: unknown, field: string): number | bigint {
  if (typeof value === 'number' && value >= 0 && Number.isSafeInteger(value)) return value;
  return uintField(value, field, 64);
}

// Batch framing (little-endian): u32 count, u32 offsets[count + 1], then the records, each a run of
// tagged ops. One batch is one ArrayBuffer, moved to a worker and back.
const HEADER = (n: number): number => 4 + 4 * (n + 1);

/**
 * Packs `n` records straight into one framed batch (the `encodeBatch` layout), ready to transfer.
 * Call `begin()` before each record, the field ops, then `finish()` once all `n` are written.
 *
 * @example
 * const w = new BatchWriter(1);
 * w.begin(); w.b58(item.root, 'root'); w.nodes(item.proof, 'proof'); w.u32(u32Value(item.leafIndex, 'leafIndex'));
 * pool.run('account-proof', w.finish(), 1);
 */
export class BatchWriter {
  private ab: ArrayBuffer;
  private buf: Buffer;
  private pos: number;
  private i = 0;

  /**
   * @param n records the batch will hold
   * @param bytesPerItem first guess of a record's size (the buffer grows as needed)
   * @param reuse a spent batch buffer to write into when it is large enough (fresh memory costs page
   *   faults on every batch; buffers coming back from the workers do not)
   */
  constructor(
    private readonly n: number,
    bytesPerItem = 256,
    reuse?: ArrayBuffer,
  ) {
    const want = HEADER(n) + Math.max(16, n * bytesPerItem);
    this.ab = reuse && reuse.byteLength >= want ? reuse : new ArrayBuffer(want);
    this.buf = Buffer.from(this.ab);
    this.pos = HEADER(n);
  }

  /** Bytes written so far (header included). */
  get length(): number {
    return this.pos;
  }

  private ensure(k: number): void {
    if (this.pos + k <= this.ab.byteLength) return;
    const next = new ArrayBuffer(Math.max(this.ab.byteLength * 2, this.pos + k));
    new Uint8Array(next).set(new Uint8Array(this.ab, 0, this.pos));
    this.ab = next;
    this.buf = Buffer.from(next);
  }

  private put32(at: number, v: number): void {
    const b = this.buf;
    b[at] = v & 255;
    b[at + 1] = (v >>> 8) & 255;
    b[at + 2] = (v >>> 16) & 255;
    b[at + 3] = v >>> 24;
  }

  /** Start the next record. */
  begin(): void {
    if (this.i >= this.n) throw new RangeError(`BatchWriter: more than ${this.n} records`);
    this.put32(4 + 4 * this.i++, this.pos);
  }

  u8(v: number): void {
    this.ensure(2);
    this.buf[this.pos] = T_U8;
    this.buf[this.pos + 1] = v;
    this.pos += 2;
  }

  u32(v: number): void {
    this.ensure(5);
    this.buf[this.pos] = T_U32;
    this.put32(this.pos + 1, v);
    this.pos += 5;
  }

  /** A u64 given as a safe integer or a bigint below 2^64. */
  u64(v: number | bigint): void {
    this.ensure(9);
    this.buf[this.pos] = T_U64;
    if (typeof v === 'number') {
      this.put32(this.pos + 1, v >>> 0);
      this.put32(this.pos + 5, Math.floor(v / 4294967296));
    } else {
      this.buf.writeBigUInt64LE(v, this.pos + 1);
    }
    this.pos += 9;
  }

  /** An absent optional field. */
  none(): void {
    this.ensure(1);
    this.buf[this.pos++] = T_NONE;
  }

  private text(tag: number, s: string): void {
    this.ensure(5 + 3 * s.length);
    this.buf[this.pos] = tag;
    const written = utf8Write(this.buf, s, this.pos + 5);
    this.put32(this.pos + 1, written);
    this.pos += 5 + written;
  }

  /** A base58 field: its string as bytes, or (not a string) the parser's error for it, thrown now. */
  b58(value: unknown, field: string): void {
    if (typeof value !== 'string') b58Field(value, field);
    this.text(T_STR, value as string);
  }

  /**
   * Base58 fields `a` and `b`, then the elements of `list`, as one run of text (`T_B58_RUN`): one
   * string write where `b58`, `b58` and `nodes` make three and a `join`. A parsed asset proof cost the
   * calling thread ~1.3 µs to pack that way, ~0.6–0.9 µs this way (`''` + each string, then one UTF-8
   * write: V8's `join` alone took ~0.7 µs for a proof's ~17 nodes). Returns false, with nothing
   * written, unless all are ASCII strings shorter than 256 characters and the list has at most 253
   * elements: the caller then writes them one by one, which names what is wrong.
   */
  b58Run(a: unknown, b: unknown, list: unknown): boolean {
    if (typeof a !== 'string' || typeof b !== 'string' || !Array.isArray(list) || list.length > 253) return false;
    const k = list.length;
    let chars = a.length + b.length;
    let longest = a.length > b.length ? a.length : b.length;
    let text = a + b;
    for (let j = 0; j < k; j++) {
      const v: unknown = list[j];
      if (typeof v !== 'string') return false;
      chars += v.length;
      if (v.length > longest) longest = v.length;
      text += v;
    }
    if (longest > 255) return false;
    // Room for the worst case (3 UTF-8 bytes per character), so that a full write always fits and
    // `written === chars` says exactly "all ASCII".
    this.ensure(2 + (k + 2) + 3 * chars);
    const buf = this.buf;
    const start = this.pos;
    buf[start] = T_B58_RUN;
    buf[start + 1] = k + 2;
    buf[start + 2] = a.length;
    buf[start + 3] = b.length;
    for (let j = 0; j < k; j++) buf[start + 4 + j] = (list[j] as string).length;
    const at = start + 4 + k;
    // Bytes past `pos` are not part of any record until it moves: a declined write leaves nothing.
    if (utf8Write(buf, text, at) !== chars) return false;
    this.pos = at + chars;
    return true;
  }

  /**
   * Room for a whole record of at most `maxBytes` that other code (a native packer) writes at
   * `length` in the returned buffer, then hands over with `commit(end)`; if it declines, nothing is
   * committed and the caller writes the record another way. (Two calls rather than one taking a
   * callback: a closure per record was a worker's largest allocation.)
   */
  reserve(maxBytes: number): Uint8Array {
    if (this.i >= this.n) throw new RangeError(`BatchWriter: more than ${this.n} records`);
    this.ensure(maxBytes);
    return this.buf;
  }

  /** Records written so far. */
  get records(): number {
    return this.i;
  }

  /**
   * `count` records written into `reserve`'s room from `length` on, one after another, ending at `end`,
   * their offsets put in the header by the same code (a native packer packing many items at once).
   */
  commitMany(count: number, end: number): void {
    if (count === 0) return;
    if (this.i + count > this.n) throw new RangeError(`BatchWriter: more than ${this.n} records`);
    if (end < this.pos || end > this.ab.byteLength) throw new RangeError(`BatchWriter: records cannot end at ${end}`);
    this.i += count;
    this.pos = end;
  }

  /** The record written into `reserve`'s room ends at `end`. */
  commit(end: number): void {
    if (this.i >= this.n) throw new RangeError(`BatchWriter: more than ${this.n} records`);
    if (end < this.pos || end > this.ab.byteLength) throw new RangeError(`BatchWriter: a record cannot end at ${end}`);
    this.put32(4 + 4 * this.i++, this.pos);
    this.pos = end;
  }

  /** A list of base58 nodes (`nodesField`'s input): strings copied in one pass, decoded by the worker. */
  nodes(value: unknown, field: string): void {
    if (!Array.isArray(value)) nodesField(value, field);
    const list = value as unknown[];
    let k = 0;
    let chars = 0;
    let longest = 0;
    for (; k < list.length; k++) {
      const v = list[k];
      if (typeof v !== 'string') break;
      chars += v.length;
      if (v.length > longest) longest = v.length;
    }
    this.ensure(5 + 4 * k + 3 * chars);
    const b = this.buf;
    this.put32(this.pos + 1, k);
    const lens = this.pos + 5;
    // One join and one copy for the common case; byte length = char length only when all is ASCII.
    const short = longest < 256;
    let at = lens + (short ? k : 4 * k);
    const written = k === 0 ? 0 : utf8Write(b, k === list.length ? list.join('') : list.slice(0, k).join(''), at);
    if (written === chars && short) {
      b[this.pos] = T_NODES8;
      for (let j = 0; j < k; j++) b[lens + j] = (list[j] as string).length;
      this.pos = at + written;
    } else {
      // Non-ASCII or very long strings (invalid nodes either way): each one's own UTF-8 length.
      b[this.pos] = T_NODES;
      at = lens + 4 * k;
      let p = at;
      for (let j = 0; j < k; j++) {
        const w = utf8Write(b, list[j] as string, p);
        this.put32(lens + 4 * j, w);
        p += w;
      }
      this.pos = p;
    }
    // The first element that is not a string: the parser's error for it.
    if (k < list.length) b58Field(list[k], `${field}[${k}]`);
  }

  /**
   * The parts of `value` that `p` lists (see `Projection`), each as a typed op: numbers as doubles,
   * strings as lengths whose bytes follow all the ops in one pool. A getAsset item holds ~25 strings,
   * and one `join` + one UTF-8 write for all of them costs the main thread a fraction of 25 writes.
   */
  projected(value: unknown, p: Projection): void {
    this.ensure(9);
    const head = this.pos;
    this.buf[head] = T_PROJ;
    this.pos += 9;
    const pool = (this.pool ??= { strings: [], lenAt: [], chars: 0, text: '' });
    pool.strings.length = 0;
    pool.lenAt.length = 0;
    pool.chars = 0;
    pool.text = '';
    compiledProjection(p)(this, value, pool);
    const start = this.pos;
    this.ensure(3 * pool.chars);
    let bytes = pool.strings.length === 0 ? 0 : utf8Write(this.buf, pool.text, start);
    pool.text = '';
    if (bytes !== pool.chars) {
      // Not all ASCII: byte lengths differ from char lengths, so write them one by one.
      bytes = 0;
      for (let j = 0; j < pool.strings.length; j++) {
        const w = utf8Write(this.buf, pool.strings[j]!, start + bytes);
        this.put32(pool.lenAt[j]!, w);
        bytes += w;
      }
    }
    this.put32(head + 1, start - head);
    this.put32(head + 5, bytes);
    this.pos = start + bytes;
  }

  private pool?: ProjectionPool;

  /** @internal (compiled projections) An array of `len` projected elements follows. */
  projArr(len: number): void {
    this.ensure(5);
    this.buf[this.pos] = T_ARR;
    this.put32(this.pos + 1, len);
    this.pos += 5;
  }

  /** @internal (compiled projections) An object's projected members follow. */
  projObj(): void {
    this.ensure(1);
    this.buf[this.pos++] = T_OBJ;
  }

  /** @internal (compiled projections) A value kept whole: a string into the pool, else a typed op. */
  projLeaf(value: unknown, pool: ProjectionPool): void {
    if (typeof value === 'string') {
      this.ensure(5);
      this.buf[this.pos] = T_PSTR;
      // the char length: the byte length too when the pool turns out all ASCII, else patched
      this.put32(this.pos + 1, value.length);
      pool.lenAt.push(this.pos + 1);
      pool.strings.push(value);
      pool.text += value;
      pool.chars += value.length;
      this.pos += 5;
      return;
    }
    this.whole(value);
  }

  /** One JSON value other than a string kept whole: a typed op for a primitive, else JSON text. */
  private whole(v: unknown): void {
    switch (typeof v) {
      case 'number':
        this.ensure(9);
        this.buf[this.pos] = T_F64;
        this.buf.writeDoubleLE(v, this.pos + 1);
        this.pos += 9;
        return;
      case 'boolean':
        this.ensure(1);
        this.buf[this.pos++] = v ? T_TRUE : T_FALSE;
        return;
      case 'bigint':
        this.text(T_BIGINT, v.toString());
        return;
      case 'undefined':
      case 'function':
      case 'symbol':
        // what JSON would drop
        this.none();
        return;
    }
    if (v === null) {
      this.ensure(1);
      this.buf[this.pos++] = T_NULL;
      return;
    }
    this.text(T_JSON, jsonText(v));
  }

  /** A value as JSON text (for kinds whose verifier reads the JSON itself). */
  json(value: unknown): void {
    this.text(T_JSON, jsonText(value));
  }

  /** The item failed here with this message (see `PackedFieldError`); write nothing after it. */
  fail(message: string): void {
    this.text(T_FAIL, message);
  }

  /** The framed batch (exactly `n` records must have been begun). */
  finish(): ArrayBuffer {
    if (this.i !== this.n) throw new RangeError(`BatchWriter: ${this.i} of ${this.n} records written`);
    this.put32(0, this.n);
    this.put32(4 + 4 * this.n, this.pos);
    // The whole buffer travels (a transfer costs nothing whatever its size) and comes back for reuse.
    return this.ab;
  }
}

type Utf8Writable = Buffer & { utf8Write?: (s: string, offset: number, length?: number) => number };

/**
 * JSON text of a parsed value, a bigint as its decimal digits in a string: the lossless parser makes
 * one of every integer past 2^53 (a u64 leaf id), and the field readers take decimal strings.
 */
function jsonText(v: unknown): string {
  try {
    return JSON.stringify(v);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e;
  }
  try {
    return JSON.stringify(v, (_k, x: unknown) => (typeof x === 'bigint' ? x.toString() : x));
  } catch (e) {
    throw new InputError('input', `an item cannot be written as JSON (${(e as Error).message.slice(0, 80)})`, { cause: e });
  }
}

/**
 * `buf.write(s, offset)` for UTF-8 without its argument juggling, which costs more than copying a
 * 44-character node here. `utf8Write` is the method `write` ends in (on Buffer.prototype since the
 * first Node releases); `write` stays the fallback.
 */
function utf8Write(buf: Utf8Writable, s: string, offset: number): number {
  return buf.utf8Write ? buf.utf8Write(s, offset, buf.length - offset) : buf.write(s, offset);
}

const utf8Decoder = new TextDecoder();

type Utf8Sliceable = Buffer & { utf8Slice?: (start: number, end: number) => string };

/** UTF-8 text of `b[a..z)`: Buffer's `utf8Slice` (what `toString` ends in) when present. */
function utf8Slice(b: Uint8Array, a: number, z: number): string {
  const nb = (b instanceof Buffer ? b : Buffer.from(b.buffer, b.byteOffset, b.byteLength)) as Utf8Sliceable;
  return nb.utf8Slice ? nb.utf8Slice(a, z) : utf8Decoder.decode(b.subarray(a, z));
}

/**
 * Reads the records of a packed batch, one op at a time, in the order they were written. A FAIL op
 * throws its `PackedFieldError`; a malformed record throws `InputError` naming what was being read.
 *
 * @example
 * const r = new RecordReader(new Uint8Array(buf));
 * for (let i = 0; i < r.count; i++) { r.select(i); const root = r.b58('root'); … }
 */
export class RecordReader {
  private readonly b: Uint8Array;
  private readonly dv: DataView;
  private pos = 0;
  private end = 0;
  /** Records in the batch. */
  readonly count: number;

  constructor(batch: ArrayBuffer | Uint8Array) {
    const u8 = batch instanceof Uint8Array ? batch : new Uint8Array(batch);
    // A Buffer view (no copy), for its fast UTF-8 slicing.
    this.b = Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
    this.dv = new DataView(this.b.buffer, this.b.byteOffset, this.b.byteLength);
    if (this.b.length < 8) throw new InputError('batch', `expected at least 8 bytes, got ${this.b.length}`);
    const n = this.dv.getUint32(0, true);
    if (HEADER(n) > this.b.length) throw new InputError('batch', `header claims ${n} records in ${this.b.length} bytes`);
    this.count = n;
  }

  /** The batch's bytes (a view, no copy): for kernels that read its records where they lie. */
  get bytes(): Uint8Array {
    return this.b;
  }

  /** Read record `i` next. */
  select(i: number): this {
    const a = this.dv.getUint32(4 + 4 * i, true);
    const z = this.dv.getUint32(8 + 4 * i, true);
    if (a < HEADER(this.count) || z < a || z > this.b.length) throw new InputError('batch', `record ${i} out of bounds`);
    this.pos = a;
    this.end = z;
    return this;
  }

  private need(k: number, what: string): void {
    if (this.pos + k > this.end) throw new InputError('record', `truncated record reading ${what}`);
  }

  private tag(want: number, what: string): void {
    this.need(1, what);
    const t = this.b[this.pos++]!;
    if (t === want) return;
    if (t === T_FAIL) {
      this.need(4, what);
      const len = this.dv.getUint32(this.pos, true);
      this.need(4 + len, what);
      throw new PackedFieldError(utf8Decoder.decode(this.b.subarray(this.pos + 4, this.pos + 4 + len)));
    }
    throw new InputError('record', `expected a ${TAG_NAMES[want]} reading ${what}, found tag ${t}`);
  }

  private len32(what: string): number {
    this.need(4, what);
    const v = this.dv.getUint32(this.pos, true);
    this.pos += 4;
    return v;
  }

  u8(what = 'u8'): number {
    this.tag(T_U8, what);
    this.need(1, what);
    return this.b[this.pos++]!;
  }

  u32(what = 'u32'): number {
    this.tag(T_U32, what);
    return this.len32(what);
  }

  u64(what = 'u64'): bigint {
    this.tag(T_U64, what);
    this.need(8, what);
    const v = this.dv.getBigUint64(this.pos, true);
    this.pos += 8;
    return v;
  }

  /** The 8 bytes of a u64 as written (little-endian), without going through a bigint. */
  u64Bytes(what = 'u64'): Uint8Array {
    this.tag(T_U64, what);
    this.need(8, what);
    const v = this.b.slice(this.pos, this.pos + 8);
    this.pos += 8;
    return v;
  }

  /** Base58 field of 32 bytes, decoded here; a bad value throws the `b58Field` error naming `field`. */
  b58(field: string): Uint8Array {
    if (this.pos < this.end && this.b[this.pos] === T_B32) {
      this.pos++;
      this.need(32, field);
      this.pos += 32;
      return copyOf(this.b, this.pos - 32, this.pos);
    }
    this.tag(T_STR, field);
    const len = this.len32(field);
    this.need(len, field);
    const out = new Uint8Array(32);
    const a = this.pos;
    this.pos += len;
    if (b58Decode32Bytes(this.b, a, a + len, out, 0)) return out;
    return b58Field(utf8Decoder.decode(this.b.subarray(a, a + len)), field);
  }

  /** An optional base58 field: null when it was absent. */
  optB58(field: string): Uint8Array | null {
    if (this.pos < this.end && this.b[this.pos] === T_NONE) {
      this.pos++;
      return null;
    }
    return this.b58(field);
  }

  /**
   * A `BatchWriter.b58Run` op, decoded: fields `a` and `b` (32 bytes each) and the list (concatenated),
   * with the errors `b58` and `nodes` give, in the same order; null (nothing read) when the next op is
   * something else.
   */
  b58Run(a: string, b: string, list: string): [Uint8Array, Uint8Array, Uint8Array] | null {
    if (this.pos >= this.end || this.b[this.pos] !== T_B58_RUN) return null;
    this.pos++;
    this.need(1, a);
    const count = this.b[this.pos++]!;
    if (count < 2) throw new InputError('record', `a base58 run of ${count} fields reading ${a}`);
    this.need(count, a);
    const lens = this.pos;
    this.pos += count;
    const one = (j: number, out: Uint8Array, at: number, field: string): void => {
      const len = this.b[lens + j]!;
      this.need(len, field);
      const x = this.pos;
      this.pos += len;
      if (!b58Decode32Bytes(this.b, x, x + len, out, at)) out.set(b58Field(utf8Decoder.decode(this.b.subarray(x, x + len)), field), at);
    };
    const first = new Uint8Array(32);
    one(0, first, 0, a);
    const second = new Uint8Array(32);
    one(1, second, 0, b);
    const nodes = new Uint8Array(32 * (count - 2));
    for (let j = 2; j < count; j++) one(j, nodes, 32 * (j - 2), `${list}[${j - 2}]`);
    return [first, second, nodes];
  }

  /** A node list, decoded and concatenated (32 bytes each), as `nodesField` returns it. */
  nodes(field: string): Uint8Array {
    if (this.pos < this.end && this.b[this.pos] === T_NODES32) {
      this.pos++;
      const k = this.len32(field);
      this.need(32 * k, field);
      this.pos += 32 * k;
      return copyOf(this.b, this.pos - 32 * k, this.pos);
    }
    const short = this.pos < this.end && this.b[this.pos] === T_NODES8;
    this.tag(short ? T_NODES8 : T_NODES, field);
    const k = this.len32(field);
    const width = short ? 1 : 4;
    this.need(width * k, field);
    const lens = this.pos;
    this.pos += width * k;
    const out = new Uint8Array(32 * k);
    for (let j = 0; j < k; j++) {
      const len = short ? this.b[lens + j]! : this.dv.getUint32(lens + 4 * j, true);
      this.need(len, field);
      const a = this.pos;
      this.pos += len;
      if (!b58Decode32Bytes(this.b, a, a + len, out, 32 * j)) out.set(b58Field(utf8Decoder.decode(this.b.subarray(a, a + len)), `${field}[${j}]`), 32 * j);
    }
    // A list cut short by an element that is not a string ends in that element's FAIL op.
    if (this.pos < this.end && this.b[this.pos] === T_FAIL) this.tag(T_NODES, field);
    return out;
  }

  /** A value written by `BatchWriter.projected` with the same projection, rebuilt. */
  projected(p: Projection, what: string): unknown {
    this.tag(T_PROJ, what);
    this.need(8, what);
    const head = this.pos - 1;
    const poolAt = head + this.dv.getUint32(this.pos, true);
    const poolEnd = poolAt + this.dv.getUint32(this.pos + 4, true);
    if (poolAt < this.pos + 8 || poolEnd > this.end) throw new InputError('record', `bad string pool reading ${what}`);
    this.pos += 8;
    this.sp = poolAt;
    const end = this.end;
    this.end = poolAt; // the ops end where the pool starts
    try {
      const v = this.projectedValue(p, what, poolEnd);
      if (this.sp !== poolEnd) throw new InputError('record', `string pool not consumed reading ${what}`);
      return v;
    } finally {
      this.end = end;
      this.pos = poolEnd;
    }
  }

  /** Cursor in the string pool of the projected value being read. */
  private sp = 0;

  private projectedValue(p: Projection, what: string, poolEnd: number): unknown {
    this.need(1, what);
    const t = this.b[this.pos]!;
    switch (t) {
      case T_OBJ: {
        if (p === true || Array.isArray(p)) throw new InputError('record', `unexpected object reading ${what}`);
        this.pos++;
        const obj = p as { readonly [key: string]: Projection };
        const o: Record<string, unknown> = {};
        for (const k of keysOf(obj)) {
          const v = this.projectedValue(obj[k]!, k, poolEnd);
          if (v !== undefined) o[k] = v;
        }
        return o;
      }
      case T_ARR: {
        if (!Array.isArray(p)) throw new InputError('record', `unexpected array reading ${what}`);
        this.pos++;
        const n = this.len32(what);
        if (n > this.end - this.pos) throw new InputError('record', `truncated record reading ${what}`);
        const a: unknown[] = new Array(n);
        for (let i = 0; i < n; i++) a[i] = this.projectedValue(p[0] as Projection, what, poolEnd);
        return a;
      }
      case T_PSTR: {
        this.pos++;
        const len = this.len32(what);
        if (this.sp + len > poolEnd) throw new InputError('record', `string pool overrun reading ${what}`);
        this.sp += len;
        return utf8Slice(this.b, this.sp - len, this.sp);
      }
      case T_F64:
        this.pos++;
        this.need(8, what);
        this.pos += 8;
        return this.dv.getFloat64(this.pos - 8, true);
      case T_NULL:
      case T_TRUE:
      case T_FALSE:
      case T_NONE:
        this.pos++;
        return t === T_NULL ? null : t === T_TRUE ? true : t === T_FALSE ? false : undefined;
      case T_BIGINT: {
        this.pos++;
        const len = this.len32(what);
        this.need(len, what);
        this.pos += len;
        return BigInt(utf8Decoder.decode(this.b.subarray(this.pos - len, this.pos)));
      }
      default:
        return this.json(what); // T_JSON, or T_FAIL / a bad tag raised there
    }
  }

  json(what = 'json'): unknown {
    this.tag(T_JSON, what);
    const len = this.len32(what);
    this.need(len, what);
    const text = utf8Decoder.decode(this.b.subarray(this.pos, this.pos + len));
    this.pos += len;
    return JSON.parse(text) as unknown;
  }
}
