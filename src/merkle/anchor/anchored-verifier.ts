/**
 * The anchor as a layer around a verifier: the pool answers whether each proof is self-consistent,
 * and this layer asks the chain whether it holds the roots (verdicts.ts). Anchoring is set
 * for the verifier (`createVerifier({ anchor })`) or per call (`verify(kind, input, { anchor })`,
 * `anchor: false` to skip it); without one, verdicts are what the pool said (`anchored` absent:
 * not anchored). The pool itself (pool.ts, worker.ts) is untouched.
 */
import { InputError } from '../../errors/index.js';
import { getKind, type KindName } from '../kinds/index.js';
import { InspectedBody } from '../verifier/inspect-body.js';
import { VerdictTable } from '../verifier/verdict-table.js';
import type { BatchAnswer } from '../verifier/batch-answer.js';
import type { Verdict } from '../verdict.js';
import type { Verifier, VerifyOptions } from '../verifier/types.js';
import { anchorVerdicts, treesOf } from './verdicts.js';
import { checkAnchorOptions, createAnchorSource, type AnchorOptions, type AnchorSource } from './source.js';

/** Items of `input` in the order the verifier answers them (raw JSON is parsed: anchoring needs the roots). */
function itemsOf(kind: KindName, input: unknown): unknown[] {
  let v = input instanceof InspectedBody ? input.body : input;
  if (v instanceof ArrayBuffer) v = new Uint8Array(v);
  if (v instanceof Uint8Array) {
    try {
      v = JSON.parse(Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('utf8'));
    } catch (e) {
      throw new InputError('input', `not JSON (${(e as Error).message})`);
    }
  }
  return getKind(kind).extract(v).map((k) => k.item);
}

/** A one-batch table of already-made verdicts (each carried whole, as an invalid verdict's details are). */
function tableOf(kind: KindName, verdicts: Verdict[]): VerdictTable {
  const codes = new Uint8Array(verdicts.length);
  verdicts.forEach((v, i) => (codes[i] = v.valid ? 1 : 0));
  const answer: BatchAnswer = { n: verdicts.length, codes, extras: verdicts.map((v, i) => [i, v]) };
  return new VerdictTable(getKind(kind), [answer]);
}

/**
 * Wrap `inner` so its verdicts are anchored with `anchor` (and per call).
 *
 * @example
 * const v = withAnchor(createVerifier(), { rpc: 'http://127.0.0.1:8899' });
 * const [verdict] = await v.verify('asset-proof', proof); // { valid: true, anchored: true } or unknown-root
 */
export function withAnchor(inner: Verifier, anchor: AnchorOptions | undefined): Verifier {
  const own: AnchorSource | null = anchor ? createAnchorSource(checkAnchorOptions(anchor)) : null;
  /** The source for one call (its own, closed after the call, when the call names an anchor). */
  const sourceFor = (o: VerifyOptions | undefined): { source: AnchorSource | null; done: () => Promise<void> } => {
    const a = o?.anchor;
    if (a === false) return { source: null, done: async () => {} };
    if (a === undefined) return { source: own, done: async () => {} };
    const s = createAnchorSource(checkAnchorOptions(a, 'options.anchor'));
    return { source: s, done: () => s.close() };
  };
  const passOn = (o: VerifyOptions | undefined): VerifyOptions => (o?.signal ? { signal: o.signal } : {});

  async function verify(kind: KindName, input: unknown, o?: VerifyOptions): Promise<Verdict[]> {
    const { source, done } = sourceFor(o);
    try {
      if (!source) return await inner.verify(kind, input, passOn(o));
      // The tree accounts are read while the pool verifies: the chain's round trip overlaps the work.
      const items = itemsOf(kind, input);
      const trees = treesOf(kind, items);
      const ahead = trees.length ? source.trees(trees, o?.signal) : undefined;
      ahead?.catch(() => {}); // awaited below; never an unhandled rejection if verify throws first
      const verdicts = await inner.verify(kind, input, passOn(o));
      return await anchorVerdicts(kind, items, verdicts, source, o?.signal, ahead);
    } finally {
      await done();
    }
  }

  return {
    get threads() {
      return inner.threads;
    },
    get utilization() {
      return inner.utilization;
    },
    get kernels() {
      return inner.kernels;
    },
    get completed() {
      return inner.completed;
    },
    get slowPaths() {
      return inner.slowPaths;
    },
    get anchored() {
      return own !== null;
    },
    verify,
    async verifyTable(kind, input, o) {
      if (!sourceFor(o).source) return inner.verifyTable(kind, input, passOn(o));
      return tableOf(kind, await verify(kind, input, o));
    },
    async *verifyBatches(kind, input, o) {
      const { source, done } = sourceFor(o);
      if (!source) {
        yield* inner.verifyBatches(kind, input, passOn(o));
        return;
      }
      try {
        // Each batch anchored as it comes (one getMultipleAccounts for its trees), in input order.
        const items = itemsOf(kind, input);
        let at = 0;
        for await (const t of inner.verifyBatches(kind, input, passOn(o))) {
          const verdicts = t.toArray();
          const anchored = await anchorVerdicts(kind, items.slice(at, at + verdicts.length), verdicts, source, o?.signal);
          at += verdicts.length;
          yield tableOf(kind, anchored);
        }
      } finally {
        await done();
      }
    },
    async *verifyStream(kind, source, o) {
      const { source: anchorSource, done } = sourceFor(o);
      if (!anchorSource) {
        yield* inner.verifyStream(kind, source, passOn(o));
        return;
      }
      // Items are kept until their batch of verdicts is anchored: a window of `window` items, so
      // memory stays bounded and each window costs one getMultipleAccounts (≤ 100 trees).
      const window = 256;
      const seen: unknown[] = [];
      async function* tap(): AsyncGenerator<unknown> {
        for await (const item of source as AsyncIterable<unknown>) {
          seen.push(item);
          yield item;
        }
      }
      let pending: Verdict[] = [];
      const flush = async (): Promise<Verdict[]> => {
        const items = seen.slice(0, pending.length);
        const out = await anchorVerdicts(kind, items, pending, anchorSource, o?.signal);
        seen.splice(0, pending.length);
        pending = [];
        return out;
      };
      try {
        for await (const v of inner.verifyStream(kind, tap(), passOn(o))) {
          pending.push(v);
          if (pending.length >= window) yield* await flush();
        }
        if (pending.length) yield* await flush();
      } finally {
        await done();
      }
    },
    close: async () => {
      await own?.close();
      await inner.close();
    },
  };
}
