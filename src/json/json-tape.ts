/**
 * `JsonTape`: a scanned JSON text, read through its entries (tape-format.ts) — types, byte ranges,
 * strings, an object's members, an array's elements — without decoding what nobody reads; `lazy()`
 * gives an envelope object that decodes only the members someone reads (lazy-value.ts). And the tapes
 * kept with their bytes (`rememberTape`), so a second scan of the same bytes is free.
 */
import { CairnError, ErrorCodes } from '../errors/index.js';
import { parseLossless } from './lossless.js';
import { lazyValue } from './lazy-value.js';
import { releaseTape } from './tape-pool.js';
import { ENTRY, F_ESCAPED, F_SKIMMED, T_NUMBER, TYPE_MASK } from './tape-format.js';

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
    for (let k = e + 1; k < stop;) {
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
    // Only the items' container's children are skimmed, and nothing walks into an item: a bug if reached.
    if (this.isSkimmed(e)) throw new CairnError(ErrorCodes.INTERNAL, `tape entry ${e} was skimmed: its members are not on the tape`, { context: { invariant: 'json tape: members of a scanned entry' } });
  }

  /**
   * Entry `e` as a JS value that decodes only what is read: scalars as themselves, objects as objects
   * whose members decode on first read, arrays as empty arrays (`entryOf` finds their entry). Enough
   * for shape tests (`in`, `typeof`, `Array.isArray`, `Object.keys`) on an envelope of any size.
   */
  lazy(e: number): unknown {
    return lazyValue(this, e);
  }

  /** The decoded value of entry `e`, fully (long integers kept exact as decimal strings, as the CLI reads files). */
  value(e: number): unknown {
    return parseLossless(this.slice(this.start(e), this.end(e)), 'string');
  }
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

/** True when `scanJson(bytes)` would return a tape made already (`rememberTape`) instead of scanning. */
export function hasRememberedTape(bytes: Uint8Array): boolean {
  const known = remembered.get(bytes);
  return known !== undefined && !known.isReleased;
}

/**
 * The tape remembered with `bytes`, not yet released, or undefined. Handed out once: whoever takes it
 * may release it, so a second reader of these bytes scans anew.
 */
export function takeRememberedTape(bytes: Uint8Array): JsonTape | undefined {
  const known = remembered.get(bytes);
  if (!known || known.isReleased) return undefined;
  remembered.delete(bytes);
  return known;
}
