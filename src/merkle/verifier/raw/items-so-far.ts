/**
 * `ItemsSoFar`: the items of a response whose scan is still under way (`JsonScan`), guessed from the
 * entries scanned so far, so the verifier can send the first batches to the workers while the main
 * thread scans the rest.
 *
 * It is a guess: the envelopes are only known once the whole text is scanned (an `error` member may
 * follow `result`, a fixture bundle may turn out to hold something else). The verifier therefore
 * peels the finished tape exactly as without a head start (extract.ts) and keeps the early batches
 * only when `agrees` says they hold the very items it found, in the same order; otherwise it drops
 * them. A wrong guess costs time, never a verdict.
 *
 * The guess: from the root down the chain of open containers, the first container with a complete
 * child that is an object of the kind (`spec.looksLike`) holds the items — listed if it is an array,
 * keyed by id if it is an object. Only complete children are ever read: a scan stops just after a
 * value, with open containers ending at 0 (src/json/index.ts).
 */
import type { KindSpec } from '../../kinds/index.js';
import { type JsonTape, T_ARRAY, T_NULL, T_OBJECT } from '../../../json/index.js';

/** Parts of the scan to wait for a container before giving up the head start. */
const PATIENCE = 16;
/**
 * Objects not of the kind to look at before giving up: the items of a list are all of the kind, so
 * a list that starts with this many others holds none worth a head start (a million `{}` were each
 * decoded to be looked at, ~0.5 s before the first batch could say items[0] is not an item).
 */
const STRANGERS = 64;

export class ItemsSoFar {
  /** Each item's value entry, in order. */
  readonly values: number[] = [];
  /** Each item's key entry when the container is keyed by id; else null. */
  keys: number[] | null = null;
  /** The container's entry (-1 while unknown). */
  private container = -1;
  /** The next child of the container to look at (a key entry when keyed). */
  private cursor = -1;
  private tries = 0;
  private over = false;
  /** Complete objects looked at that were not of the kind. */
  private strangers = 0;
  /**
   * Per open container searched so far: the first child not looked at yet. The children before it
   * were complete and not items, and stay so: a later search goes on from there (starting over at
   * every part walked the whole list again each time: 5 s for a million `{}`).
   */
  private readonly searched = new Map<number, number>();

  constructor(
    private readonly spec: KindSpec,
    readonly tape: JsonTape,
  ) {}

  /** The entry of the container guessed to hold the items, or -1 while unknown. */
  get containerEntry(): number {
    return this.container;
  }

  /** True once there is no point looking further (no container, or one holding something else). */
  get gaveUp(): boolean {
    return this.over;
  }

  /**
   * Look at what the scan added since the last call, up to `upTo` items (the rest is looked at by a
   * later call: a verifier that can send no more batches now need not list every item scanned);
   * returns how many items are known.
   */
  update(upTo = Infinity): number {
    if (this.over || this.values.length >= upTo) return this.values.length;
    if (this.container < 0) {
      const c = this.find(0);
      if (c < 0) {
        if (++this.tries >= PATIENCE || this.strangers >= STRANGERS) this.over = true;
        return 0;
      }
      this.container = c;
      this.keys = this.tape.type(c) === T_OBJECT ? [] : null;
      this.cursor = c + 1;
    }
    const t = this.tape;
    const count = t.count;
    let k = this.cursor;
    if (this.keys) {
      while (k + 1 < count && this.values.length < upTo && this.complete(k + 1)) {
        const v = k + 1;
        const type = t.type(v);
        // extractJson refuses a keyed object with anything but items and nulls.
        if (type !== T_OBJECT && type !== T_NULL) {
          this.over = true;
          break;
        }
        this.keys.push(k);
        this.values.push(v);
        k = t.next(k);
      }
    } else {
      while (k < count && this.values.length < upTo && this.complete(k)) {
        this.values.push(k);
        k = t.next(k);
      }
    }
    this.cursor = k;
    return this.values.length;
  }

  /**
   * True when `found` (the items the finished tape yields) starts with the first `n` items guessed
   * here: then batches made of them are exactly the batches the verifier would have made.
   */
  agrees(found: { tape: JsonTape; values: ArrayLike<number>; keys: ArrayLike<number> | null }, n: number): boolean {
    if (found.tape !== this.tape || found.values.length < n || (found.keys === null) !== (this.keys === null)) return false;
    for (let i = 0; i < n; i++) {
      if (found.values[i] !== this.values[i]) return false;
      if (found.keys && found.keys[i] !== this.keys![i]) return false;
    }
    return true;
  }

  /** True when entry `e` is scanned to its end. */
  private complete(e: number): boolean {
    const t = this.tape;
    if (e >= t.count) return false;
    const type = t.type(e);
    return (type !== T_OBJECT && type !== T_ARRAY) || t.end(e) !== 0;
  }

  /** The item container at or under the open container `c`, or -1 while it cannot be told. */
  private find(c: number): number {
    const t = this.tape;
    if (c >= t.count || this.complete(c)) return -1;
    const type = t.type(c);
    if (type !== T_OBJECT && type !== T_ARRAY) return -1;
    const obj = type === T_OBJECT;
    let open = -1;
    let k = this.searched.get(c) ?? c + 1;
    while (k < t.count) {
      const v = obj ? k + 1 : k;
      if (!this.complete(v)) {
        open = v < t.count ? v : -1;
        break;
      }
      if (t.type(v) === T_OBJECT) {
        if (this.spec.looksLike(t.lazy(v) as Record<string, unknown>)) return c;
        if (++this.strangers >= STRANGERS) return -1;
      }
      k = t.next(k);
    }
    this.searched.set(c, k);
    return open < 0 ? -1 : this.find(open);
  }
}
