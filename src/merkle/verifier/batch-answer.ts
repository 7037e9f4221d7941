/**
 * One batch's answer as the verifier keeps it: the workers' per-item codes and detailed verdicts, and
 * what names the items (the ids a worker read from the JSON, or the caller's parsed items). `verify`
 * turns each answer into verdict objects as it arrives (`verdictsOf`); a `VerdictTable` keeps the
 * answers as they are and makes a verdict only when one is asked for.
 */
import type { KeyedItem } from '../kinds/envelopes.js';
import { decodeVerdict } from '../kinds/verify-batch.js';
import type { KindSpec } from '../kinds/index.js';
import { NO_ID } from './raw/batch.js';
import type { Verdict } from '../verdict.js';

export interface BatchAnswer {
  /** Items in the batch. */
  n: number;
  /** Per item: bit 0 valid, the rest a status (kinds/verify-batch.ts `collect`). */
  codes: Uint8Array;
  /** `[i, verdict]` for the items with details (every invalid one among them), by index. */
  extras: Array<[number, Verdict]>;
  /** JSON batches: the items' ids one after another, and each one's length (`NO_ID`: none). */
  ids?: string;
  lens?: Uint32Array;
  /** Parsed batches: the caller's items (each names itself through its kind, or by its key). */
  items?: KeyedItem[];
  /** Where each id starts in `ids`, made on the first lookup by index. */
  starts?: Uint32Array;
}

/** Item `i` of a parsed batch named as `verify` names it: by its key, else through its kind. */
const itemId = (spec: KindSpec, k: KeyedItem): string | undefined => k.key ?? (k.item === null ? undefined : spec.id(k.item, k.key));

/**
 * The batch's verdicts in order, exactly as `decodeVerdict` makes them. One pass: each JSON id starts
 * where the last one ended.
 *
 * @example
 * const verdicts = verdictsOf(kinds['asset-proof'], answer);
 */
export function verdictsOf(spec: KindSpec, a: BatchAnswer): Verdict[] {
  const { n, codes, extras, items, lens } = a;
  const ids = a.ids ?? '';
  const out: Verdict[] = new Array(n);
  let e = 0;
  let p = 0;
  for (let i = 0; i < n; i++) {
    const extra = e < extras.length && extras[e]![0] === i ? extras[e++]![1] : undefined;
    let id: string | undefined;
    if (items) id = itemId(spec, items[i]!);
    else if (lens) {
      const len = lens[i]!;
      if (len !== NO_ID) id = ids.substring(p, (p += len));
    }
    out[i] = decodeVerdict(spec, codes[i]!, extra, id);
  }
  return out;
}

/** Item `i`'s id (`i` within the batch). */
export function answerId(spec: KindSpec, a: BatchAnswer, i: number): string | undefined {
  if (a.items) return itemId(spec, a.items[i]!);
  const lens = a.lens;
  if (!lens || lens[i] === NO_ID) return undefined;
  let starts = a.starts;
  if (!starts) {
    starts = new Uint32Array(a.n);
    for (let k = 0, p = 0; k < a.n; k++) {
      starts[k] = p;
      if (lens[k] !== NO_ID) p += lens[k]!;
    }
    a.starts = starts;
  }
  return a.ids!.substring(starts[i]!, starts[i]! + lens[i]!);
}

/** Item `i`'s verdict (`i` within the batch), as `verdictsOf` gives it. */
export function answerVerdict(spec: KindSpec, a: BatchAnswer, i: number): Verdict {
  const x = a.extras;
  // The extras are few and in order: a binary search finds item i's, if it has one.
  let lo = 0;
  let hi = x.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (x[mid]![0] < i) lo = mid + 1;
    else hi = mid;
  }
  const extra = lo < x.length && x[lo]![0] === i ? x[lo]![1] : undefined;
  return decodeVerdict(spec, a.codes[i]!, extra, answerId(spec, a, i));
}

/** Batches' verdicts as one array, in order. */
export function joinVerdicts(parts: Verdict[][]): Verdict[] {
  let n = 0;
  for (const p of parts) n += p.length;
  const out: Verdict[] = new Array(n);
  let at = 0;
  for (const p of parts) for (let i = 0; i < p.length; i++) out[at++] = p[i]!;
  return out;
}
