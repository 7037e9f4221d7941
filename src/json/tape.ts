/**
 * `scanJson`: a JSON text's structure without decoding it. The main thread of the verifier pool scans
 * a response once (natively when the addon is built: a fraction of a microsecond per proof), finds the
 * items through the envelopes, and tells each worker where its items sit in the response, which the
 * workers share and decode.
 * `JSON.parse` of the whole response on the main thread cost more than everything else it does per
 * item, and it does not scale with threads. Once the items' container is known, the rest of its items
 * can be skimmed (`JsonScan.skimChildrenOf`), in about a third of the scanner's time.
 *
 * A `JsonTape` reads entries (tape-format.ts); `lazy()` gives an envelope object that decodes only the
 * members someone reads, so the kinds' own `looksLike` tests run unchanged on it.
 */
import { CairnError, ErrorCodes, InputError } from '../errors.js';
import { loadNative } from '../addon.js';
import { portableJsonScan } from '../kernels.js';
import { parseLossless } from './lossless.js';
import { newJsScanState, scanJsonJs, type JsScanState } from './scan-js.js';
import { ENTRY, F_ESCAPED, F_SKIMMED, NATIVE_STATE_LONG, NATIVE_STATE_SKIM, NATIVE_STATE_U32S, SCAN_ERROR_TEXT, ScanError, SUSPENDED, T_ARRAY, T_FALSE, T_NULL, T_NUMBER, T_OBJECT, T_STRING, T_TRUE, TAPE_FULL, TYPE_MASK } from './tape-format.js';
import { numberTooLong, tooDeep } from './limit-error.js';

/** A scanner: one-shot without a state, resumable with one (scan-js.ts, json_scan.h). */
type Scanner = (bytes: Uint8Array, tape: Uint32Array, state?: never, stopAt?: number) => number;
interface ScannerChoice {
  name: 'native' | 'js';
  /** Have the direct children of entry `e` that are objects skimmed from now on (json_scan.h); false when this scanner cannot. */
  skim: (state: Uint32Array | JsScanState, e: number) => boolean;
  scan: Scanner;
  /** A fresh state for a resumable scan, and the byte offset a suspended one reached. */
  newState: () => Uint32Array | JsScanState;
  reached: (state: Uint32Array | JsScanState) => number;
  /** True once the scan saw a number of 16+ characters (as of its last suspension or its end). */
  sawLong: (state: Uint32Array | JsScanState) => boolean;
}
let scanner: ScannerChoice | undefined;

/** The scanner in use: the addon's when it is built (`CAIRN_JSON_SCAN=js` forces the portable one). */
export function jsonScanBackend(): 'native' | 'js' {
  return pickScanner().name;
}

function pickScanner(): ScannerChoice {
  if (scanner) return scanner;
  const native = portableJsonScan() ? null : loadNative();
  const fn = native?.jsonScan;
  scanner = fn
    ? {
        name: 'native',
        scan: fn as Scanner,
        newState: () => new Uint32Array(NATIVE_STATE_U32S),
        reached: (s) => (s as Uint32Array)[1]!,
        sawLong: (s) => (s as Uint32Array)[NATIVE_STATE_LONG] === 1,
        skim: (s, e) => (((s as Uint32Array)[NATIVE_STATE_SKIM] = e + 1), true),
      }
    : { name: 'js', scan: scanJsonJs as Scanner, newState: newJsScanState, reached: (s) => (s as JsScanState).i, sawLong: (s) => (s as JsScanState).long, skim: () => false };
  return scanner;
}

/** The tape entry behind each object and array `lazy()` returned (see `entryOf`). */
const entries = new WeakMap<object, number>();

export interface ScanOptions {
  /** `lazy()` decodes objects smaller than this whole (default 4096 bytes; 0: never, for tests). */
  decodeBelow?: number;
}

type Slicer = Buffer & { utf8Slice?: (start: number, end: number) => string };

/** A scanned JSON text. */
export class JsonTape {
  private readonly text: Slicer;

  /** Objects up to this many bytes are decoded whole by `lazy()`. */
  readonly decodeBelow: number;

  constructor(
    readonly bytes: Uint8Array,
    /** The entries (replaced by a larger one if a resumed scan outgrows it). */
    public tape: Uint32Array,
    /** Entries so far: all of them once the scan is done (see `JsonScan`). */
    public count: number,
    options: ScanOptions = {},
  ) {
    this.decodeBelow = options.decodeBelow ?? 4096;
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Slicer;
  }

  type(e: number): number {
    return this.tape[e * ENTRY]! & TYPE_MASK;
  }
  start(e: number): number {
    return this.tape[e * ENTRY + 1]!;
  }
  end(e: number): number {
    return this.tape[e * ENTRY + 2]!;
  }
  /** The entry after `e`'s subtree (after its value's, for a key). */
  next(e: number): number {
    return this.tape[e * ENTRY + 3]!;
  }

  private released = false;

  /**
   * False when the scan saw no number of 16+ characters in the text so far (`JsonScan` keeps it up to
   * date): then no batch needs the lossless parser, and none has to look. True when unknown.
   */
  mayHoldLong = true;

  /**
   * Hand the tape back for the next scan to reuse (the verifier does, once every batch is packed).
   * The tape must not be read afterwards.
   */
  release(): void {
    if (this.released) return;
    this.released = true;
    if (remembered.get(this.bytes)?.tape === this.tape) remembered.delete(this.bytes);
    releaseTape(this.tape);
  }

  /**
   * True when some objects were skimmed (`JsonScan.skimChildrenOf`): their entries have no children
   * and their grammar is unchecked, so whoever reads them must parse them (`value` does).
   */
  skimmed = false;

  /** True when entry `e` is an object that was skimmed, not scanned. */
  isSkimmed(e: number): boolean {
    return (this.tape[e * ENTRY]! & F_SKIMMED) !== 0;
  }

  /** True once `release()` gave the tape away. */
  get isReleased(): boolean {
    return this.released;
  }

  /**
   * True when a number among entries [a, b) has 16 or more characters (it may not survive `JSON.parse`
   * exactly): only then must those items be parsed losslessly (lossless.ts), which costs a regex pass
   * over every item. The verifier asks per batch.
   */
  longNumbersIn(a: number, b: number): boolean {
    // A skimmed object's numbers are not on the tape: it may hold any.
    if (this.skimmed) return true;
    if (!this.mayHoldLong) return false;
    const t = this.tape;
    for (let o = a * ENTRY, stop = b * ENTRY; o < stop; o += ENTRY) {
      if ((t[o]! & TYPE_MASK) === T_NUMBER && t[o + 2]! - t[o + 1]! >= 16) return true;
    }
    return false;
  }

  /** The UTF-8 text of bytes [a, b). */
  slice(a: number, b: number): string {
    const t = this.text;
    return t.utf8Slice ? t.utf8Slice(a, b) : t.toString('utf8', a, b);
  }

  /** A string or key entry's value. */
  string(e: number): string {
    const w = this.tape[e * ENTRY]!;
    const a = this.tape[e * ENTRY + 1]!;
    const b = this.tape[e * ENTRY + 2]!;
    return w & F_ESCAPED ? (JSON.parse(this.slice(a, b)) as string) : this.slice(a + 1, b - 1);
  }

  /** `[keyEntry, valueEntry]` of an object's members, in document order. */
  members(e: number): Array<[number, number]> {
    this.scanned(e);
    const out: Array<[number, number]> = [];
    for (let k = e + 1, stop = this.next(e); k < stop; k = this.next(k)) out.push([k, k + 1]);
    return out;
  }

  /**
   * The key entries of an object's members, in document order (each value's entry follows its key's),
   * as `elements` lists an array's (the items of a response keyed by id).
   */
  memberKeys(e: number): Uint32Array {
    return this.children(e, 2);
  }

  /**
   * An array's element entries, in order. Typed: a response's items list is the one array the verifier
   * keeps for a whole run, and a growing JS array of 40,000 numbers was copied as it grew and again by
   * every young-generation collection while it lived.
   */
  elements(e: number): Uint32Array {
    return this.children(e, 1);
  }

  /** The first entry of each child of container `e` (`width`: entries a child takes when it is one value, 2 for a member). */
  private children(e: number, width: 1 | 2): Uint32Array {
    this.scanned(e);
    const t = this.tape;
    const stop = t[e * ENTRY + 3]!;
    // At most one child per `width` entries of the subtree: one pass, trimmed after.
    const out = new Uint32Array(Math.max(0, Math.floor((stop - e - 1) / width)));
    let n = 0;
    for (let k = e + 1; k < stop; ) {
      out[n++] = k;
      // Written as a branch so the next child's address does not wait for this load: most children
      // (skimmed objects, scalars) take `width` entries, and a predicted branch runs ahead (a list of
      // skimmed items was walked at the memory's latency, 18 ns per item, over a tape larger than the
      // cache).
      const nx = t[k * ENTRY + 3]!;
      if (nx === k + width) k += width;
      else k = nx;
    }
    return n === out.length ? out : out.slice(0, n);
  }

  /** The value entry of an object's member `name` (the last one, as `JSON.parse` keeps), or -1. */
  member(e: number, name: string): number {
    this.scanned(e);
    let found = -1;
    for (let k = e + 1, stop = this.next(e); k < stop; k = this.next(k)) if (this.string(k) === name) found = k + 1;
    return found;
  }

  /** Throws unless entry `e`'s children are on the tape (it was scanned, not skimmed). */
  private scanned(e: number): void {
    if (this.isSkimmed(e)) throw new RangeError(`tape entry ${e} was skimmed: its members are not on the tape`);
  }

  /**
   * Entry `e` as a JS value that decodes only what is read: scalars as themselves, objects as objects
   * whose members decode on first read, arrays as empty arrays (`entryOf` finds their entry). Enough
   * for shape tests (`in`, `typeof`, `Array.isArray`, `Object.keys`) on an envelope of any size.
   */
  lazy(e: number): unknown {
    switch (this.type(e)) {
      case T_OBJECT: {
        // A small object is simply decoded (an error object, a single item); a large one (an
        // envelope around thousands of items) decodes member by member as read.
        // A skimmed one has no members on the tape: decoded whole too.
        const o = this.end(e) - this.start(e) < this.decodeBelow || this.isSkimmed(e) ? (this.value(e) as object) : this.lazyObject(e);
        entries.set(o, e);
        return o;
      }
      case T_ARRAY: {
        const a: unknown[] = [];
        entries.set(a, e);
        return a;
      }
      case T_STRING:
        return this.string(e);
      case T_NUMBER:
        // A number that may not survive a double is read as `value` reads it, so a shape test on
        // the lazy view answers as one on the decoded value (and as the lossless parser's) does.
        return this.end(e) - this.start(e) >= 16 ? this.value(e) : Number(this.slice(this.start(e), this.end(e)));
      case T_TRUE:
        return true;
      case T_FALSE:
        return false;
      case T_NULL:
        return null;
      default:
        throw new RangeError(`tape entry ${e} is not a value`);
    }
  }

  /** The decoded value of entry `e`, fully (long integers kept exact as decimal strings, as the CLI reads files). */
  value(e: number): unknown {
    return parseLossless(this.slice(this.start(e), this.end(e)), 'string');
  }

  private lazyObject(e: number): Record<string, unknown> {
    // Keys as JSON.parse orders them: array-index keys first, ascending; the last duplicate wins.
    const at = new Map<string, number>();
    for (const [k, v] of this.members(e)) at.set(this.string(k), v);
    const keys = [...at.keys()];
    const index = keys.filter(isIndex).sort((a, b) => Number(a) - Number(b));
    const ordered = index.length === 0 ? keys : [...index, ...keys.filter((k) => !isIndex(k))];
    const cache = new Map<string, unknown>();
    const read = (k: string): unknown => {
      if (!cache.has(k)) cache.set(k, this.lazy(at.get(k)!));
      return cache.get(k);
    };
    const target: Record<string, unknown> = {};
    return new Proxy(target, {
      get: (_t, k) => (typeof k === 'string' && at.has(k) ? read(k) : undefined),
      has: (_t, k) => typeof k === 'string' && at.has(k),
      ownKeys: () => ordered,
      getOwnPropertyDescriptor: (_t, k) => (typeof k === 'string' && at.has(k) ? { value: read(k), writable: true, enumerable: true, configurable: true } : undefined),
    });
  }
}

const isIndex = (k: string): boolean => /^(?:0|[1-9]\d{0,9})$/.test(k) && Number(k) < 4294967295;

/**
 * The last spent tape, for the next scan: a fresh one costs a page fault per 4 KB written, as much as
 * the scan itself on a large response. Held weakly, so keeping it never costs memory the garbage
 * collector wants back.
 */
let spareTape: WeakRef<Uint32Array> | null = null;

function takeTape(u32s: number): Uint32Array {
  const t = spareTape?.deref();
  if (t && t.length >= u32s) {
    spareTape = null;
    return t;
  }
  // Not zero-filled: the scanner writes every entry it reports, and nothing past them is read.
  return new Uint32Array(Buffer.allocUnsafeSlow(u32s * 4).buffer, 0, u32s);
}

function releaseTape(t: Uint32Array): void {
  const kept = spareTape?.deref();
  if (!kept || kept.length < t.length) spareTape = new WeakRef(t);
}

/** Tapes kept with their bytes (`rememberTape`), so the next `scanJson` of the same bytes is free. */
const remembered = new WeakMap<Uint8Array, JsonTape>();

/**
 * Keep `tape` with its bytes: a later `scanJson` of the very same `Uint8Array` returns it instead of
 * scanning again (the rpc client's raw calls check the envelope with a scan; the verifier reuses it).
 * The bytes must not change in between.
 */
export function rememberTape(tape: JsonTape): void {
  remembered.set(tape.bytes, tape);
}

/** The tape entry behind an object or array `lazy()` returned, or -1. */
export function entryOf(a: unknown): number {
  return typeof a === 'object' && a !== null ? (entries.get(a) ?? -1) : -1;
}

/**
 * Tape capacity to start with, in entries per input byte: service responses run 12–36 bytes per
 * entry (getAsset 12, proofs ~35), so one pass is enough for them; a denser text (long arrays of small
 * numbers) is scanned again with room for the worst case.
 */
const FIRST_GUESS = 1 / 8;

/**
 * Scan a JSON text (UTF-8 bytes). Throws `InputError` (field `json`) naming the byte offset of the
 * first syntax error, where `JSON.parse` would have refused the text.
 *
 * @example
 * const t = scanJson(await res.bytes());
 * t.type(0) === T_OBJECT;
 */
export function scanJson(bytes: Uint8Array, options: ScanOptions = {}): JsonTape {
  const known = remembered.get(bytes);
  if (known && !known.isReleased) {
    // Handed out once: whoever takes it may release it, so a second reader of these bytes scans anew.
    remembered.delete(bytes);
    if (known.decodeBelow === (options.decodeBelow ?? 4096)) return known;
    const again = new JsonTape(bytes, known.tape, known.count, options);
    again.mayHoldLong = known.mayHoldLong;
    return again;
  }
  const scan = new JsonScan(bytes, options);
  scan.advance(Infinity);
  return scan.tape;
}

/** True when `scanJson(bytes)` would return a tape made already (`rememberTape`) instead of scanning. */
export function hasRememberedTape(bytes: Uint8Array): boolean {
  const known = remembered.get(bytes);
  return known !== undefined && !known.isReleased;
}

/**
 * A scan done a part at a time: `advance(stopAt)` scans on until the first value that ends at or past
 * byte `stopAt` inside a container, and `tape` meanwhile holds every entry so far — those still open
 * (a container whose end is not reached) end at 0. The verifier sends out the first items of a large
 * response while it scans the rest.
 *
 * @example
 * const s = new JsonScan(body);
 * while (!s.advance(s.reached + (1 << 20))) useEntriesSoFar(s.tape);
 */
export class JsonScan {
  readonly tape: JsonTape;
  private readonly scanner = pickScanner();
  private state: Uint32Array | JsScanState;
  private finished = false;

  constructor(
    readonly bytes: Uint8Array,
    options: ScanOptions = {},
  ) {
    this.state = this.scanner.newState();
    this.tape = new JsonTape(bytes, takeTape(Math.max(64, Math.ceil(bytes.length * FIRST_GUESS)) * ENTRY), 0, options);
  }

  /** True once the whole text is scanned. */
  get done(): boolean {
    return this.finished;
  }

  /**
   * True once a skimming scan had to start over (its tape grew, or it failed): entries read before
   * then may not be the entries now.
   */
  restarted = false;

  /**
   * From here on, the objects directly inside the open container `e` are skimmed, not scanned
   * (json_scan.h): one entry each, their ends found by brackets alone in about a third of the time, their
   * grammar left to whoever parses them. The verifier asks for it once it knows where the items are,
   * since its workers parse every item anyway. False when the scanner cannot skim (the portable one).
   *
   * A failure after that cannot be trusted to name the right byte, so the scan then starts over
   * without skimming (`restarted`) and reports the error a plain scan finds.
   */
  skimChildrenOf(e: number): boolean {
    if (this.finished || !this.scanner.skim(this.state, e)) return false;
    this.tape.skimmed = true;
    return true;
  }

  /** The byte offset scanned up to. */
  get reached(): number {
    return this.finished ? this.bytes.length : this.scanner.reached(this.state);
  }

  /**
   * Scan on (see above); true once the whole text is scanned. Throws `InputError` (field `json`)
   * naming the byte offset of the first syntax error, where `JSON.parse` would have refused the text.
   */
  advance(stopAt: number): boolean {
    if (this.finished) return true;
    const t = this.tape;
    const { scan } = this.scanner;
    // Past the last byte: no value ends there, so the scan runs to the end (the addon takes integers).
    const stop = Math.min(Math.ceil(stopAt), this.bytes.length + 1);
    for (;;) {
      const r = scan(this.bytes, t.tape, this.state as never, stop);
      if (r >= 0 || r === SUSPENDED) {
        t.count = r >= 0 ? r : this.countSoFar();
        t.mayHoldLong = this.scanner.sawLong(this.state);
        this.finished = r >= 0;
        return this.finished;
      }
      if (r !== TAPE_FULL && t.skimmed) {
        // Skimmed: the error may sit inside an object the skim passed over. Start over, skimming
        // nothing, for the error a plain scan gives (the one JSON.parse's users would see).
        this.startOver();
        continue;
      }
      if (r !== TAPE_FULL) {
        const at = t.tape[0]!;
        const end = t.tape[1]!;
        releaseTape(t.tape);
        this.finished = true;
        const code = (-r - 2) as ScanError;
        // Over a limit (tape-format.ts) is not a syntax error: INPUT_TOO_LARGE, as the string parsers say.
        if (code === ScanError.NumberTooLong) throw numberTooLong(at, end - at, latin1(this.bytes, at, Math.min(end, at + 33)), 'byte');
        if (code === ScanError.TooDeep) throw tooDeep(at, 'byte');
        throw new InputError('json', `not valid JSON: ${SCAN_ERROR_TEXT[code] ?? 'syntax error'} at byte ${at}`);
      }
      // Out of room: scan again from the start with more room, growing 4× but to at most one entry
      // per byte (the worst case, "[[[[…"; a valid "[1,1,…]" needs one per 2 bytes). The entries come
      // out the same, so any already read stay valid (unless the scan was skimming: see `restarted`).
      // A tape sized for the worst case cannot fill: if it does, the scanner is wrong, and looping
      // on would hang the thread (65 unclosed brackets did, on a tape grown to one per 2 bytes).
      const have = Math.floor(t.tape.length / ENTRY);
      const most = this.bytes.length + 2;
      if (have >= most) throw new CairnError(ErrorCodes.MERKLE_INVALID_INPUT, `JSON scan: a tape of ${have} entries filled on ${this.bytes.length} bytes`);
      releaseTape(t.tape);
      t.tape = takeTape(Math.min(most, Math.max(have * 4, Math.ceil(this.bytes.length / 2) + 2)) * ENTRY);
      this.startOver();
    }
  }

  /** Scan again from the first byte, skimming nothing. */
  private startOver(): void {
    this.state = this.scanner.newState();
    if (this.tape.skimmed) this.restarted = true;
    this.tape.skimmed = false;
    this.tape.count = 0;
  }

  private countSoFar(): number {
    const s = this.state;
    return s instanceof Uint32Array ? s[2]! : s.count;
  }
}

/** Bytes [a, b) as Latin-1 (a number literal's: ASCII). */
const latin1 = (b: Uint8Array, a: number, z: number): string => Buffer.from(b.buffer, b.byteOffset + a, z - a).toString('latin1');
