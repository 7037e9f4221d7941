/**
 * `VerdictTable`: the answer of `verifier.verifyTable`, for large batches. It holds what the workers
 * sent (a code byte per item, the detailed verdicts of the few with details, each batch's ids as one
 * string) and makes a verdict object only when one is asked for. `verify` makes one per item up front:
 * with its id, ~0.1 µs of the calling thread per item plus the young-generation collections they
 * cause, which V8 runs on the same two cores as the workers. For cheap kinds (an asset proof is
 * ~3.5 µs of a worker) that is what keeps 2 threads from twice the speed of 1; a table's caller who
 * reads the counts and the invalid items pays for neither. A table made from parsed items keeps a
 * reference to them: their ids are read from them when asked for.
 */
import { InputError } from '../../errors/index.js';
import { answerId, answerVerdict, joinVerdicts, verdictsOf, type BatchAnswer } from './batch-answer.js';
import type { KindName, KindSpec } from '../kinds/index.js';
import type { Verdict } from '../verdict.js';

/** A verdict with its item's place in the input. */
export interface IndexedVerdict extends Verdict {
  index: number;
}

/**
 * Every item's verdict, in input order, made on demand.
 *
 * @example
 * const table = await verifier.verifyTable('asset-proof', await client.callRaw('getAssetProofBatch', { ids }));
 * if (!table.allValid) for (const v of table.invalid()) console.log(v.index, v.id, v.reason);
 */
export class VerdictTable implements Iterable<Verdict> {
  readonly kind: KindName;
  /** Items verified. */
  readonly length: number;
  /** Items whose verdict is invalid. */
  readonly invalidCount: number;
  readonly #spec: KindSpec;
  readonly #parts: BatchAnswer[];
  /** Index of each part's first item, for lookups by index. */
  readonly #firsts: number[];

  /** @internal made by the verifier from its batches' answers, in order. */
  constructor(spec: KindSpec, parts: BatchAnswer[]) {
    this.kind = spec.name as KindName;
    this.#spec = spec;
    this.#parts = parts;
    this.#firsts = [];
    let n = 0;
    let invalid = 0;
    for (const p of parts) {
      this.#firsts.push(n);
      n += p.n;
      // Every invalid item has a detailed verdict (its reason): counting them needs only the extras.
      for (const [, v] of p.extras) if (!v.valid) invalid++;
    }
    this.length = n;
    this.invalidCount = invalid;
  }

  get validCount(): number {
    return this.length - this.invalidCount;
  }

  /** True when no item is invalid (an empty table too). */
  get allValid(): boolean {
    return this.invalidCount === 0;
  }

  /** Item `index`'s verdict: a new object each call, the same as `verify`'s at that index. */
  at(index: number): Verdict {
    const [p, i] = this.#locate(index);
    return answerVerdict(this.#spec, p, i);
  }

  /** Whether item `index` is valid, without making its verdict. */
  isValid(index: number): boolean {
    const [p, i] = this.#locate(index);
    return (p.codes[i]! & 1) === 1;
  }

  /** Item `index`'s id (undefined when it has none, as in its verdict). */
  id(index: number): string | undefined {
    const [p, i] = this.#locate(index);
    return answerId(this.#spec, p, i);
  }

  /** The invalid items' verdicts with their indices, in input order. */
  invalid(): IndexedVerdict[] {
    const out: IndexedVerdict[] = [];
    this.#parts.forEach((p, k) => {
      for (const [i, v] of p.extras) if (!v.valid) out.push({ index: this.#firsts[k]! + i, ...answerVerdict(this.#spec, p, i) });
    });
    return out;
  }

  /** Every verdict, in order (what `verify` would have answered). */
  toArray(): Verdict[] {
    return joinVerdicts(this.#parts.map((p) => verdictsOf(this.#spec, p)));
  }

  /** Every verdict, in order, made a batch at a time. */
  *[Symbol.iterator](): Iterator<Verdict> {
    for (const p of this.#parts) yield* verdictsOf(this.#spec, p);
  }

  /** The part holding item `index`, and its place there. */
  #locate(index: number): [BatchAnswer, number] {
    if (!Number.isInteger(index) || index < 0 || index >= this.length) {
      const expected = this.length === 0 ? 'no index (the table is empty)' : `an integer 0–${this.length - 1}`;
      throw new InputError('index', `expected ${expected}, got ${String(index)}`, { expected, got: index });
    }
    const f = this.#firsts;
    let lo = 0;
    let hi = f.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (f[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return [this.#parts[lo]!, index - f[lo]!];
  }
}
