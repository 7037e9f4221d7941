/**
 * The anchor as a layer around a verifier: the pool answers whether each proof is self-consistent,
 * and this layer asks the chain whether it holds the roots (verdicts.ts). Anchoring is set
 * for the verifier (`createVerifier({ anchor })`) or per call (`verify(kind, input, { anchor })`,
 * `anchor: false` to skip it); without one, verdicts are what the pool said (`anchored` absent:
 * not anchored). The pool itself (pool.ts, worker.ts) is untouched. A raw response is scanned once,
 * here: the scan names each item's root and tree (tape-claims.ts) and the pool is handed it.
 */
import { InputError } from '../../errors/index.js';
import { getKind, type KindName } from '../kinds/index.js';
import { InspectedBody } from '../verifier/inspect-body.js';
import { VerdictTable } from '../verifier/verdict-table.js';
import type { BatchAnswer } from '../verifier/batch-answer.js';
import type { Verdict } from '../verdict.js';
import type { Verifier, VerifyOptions } from '../verifier/types.js';
import { anchorClaimed, anchorVerdicts, treesOfClaims } from './verdicts.js';
import { anchorable, claimsOf, type RootClaim } from './claims.js';
import { tapeClaimsOf } from './tape-claims.js';
import { extractFromTape, scanDecodeBelow, type JsonItems } from '../verifier/raw/extract.js';
import type { KeyedItem } from '../kinds/envelopes.js';
import { scanJson } from '../../json/index.js';
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

/** Each item's claims (none for a kind that cannot be anchored). */
function claimsOfItems(kind: KindName, items: readonly unknown[]): (RootClaim[] | null)[] {
  return anchorable(kind) ? items.map((it) => claimsOf(kind, it)) : items.map(() => null);
}

/**
 * Raw input (bytes, or an inspected body) of a kind whose claims tape-claims.ts reads, scanned once:
 * the body with its scan for the pool, and each item's claims. Null for other input, and for input
 * the scan refuses: `itemsOf` then gives the error it always gave.
 */
function scanned(kind: KindName, input: unknown): { input: InspectedBody; claims: (RootClaim[] | null)[] } | null {
  if (kind !== 'asset-proof' && kind !== 'account-proof' && kind !== 'address-proof') return null;
  const bytes = input instanceof InspectedBody ? input.body : input instanceof ArrayBuffer ? new Uint8Array(input) : input instanceof Uint8Array ? input : null;
  if (!bytes) return null;
  const spec = getKind(kind);
  let found: JsonItems | KeyedItem[] | null = input instanceof InspectedBody ? input.takeFound(spec, {}) : null;
  try {
    found ??= extractFromTape(spec, scanJson(bytes, { decodeBelow: scanDecodeBelow() }));
  } catch {
    return null;
  }
  let claims: (RootClaim[] | null)[];
  if (Array.isArray(found)) claims = found.map((k) => claimsOf(kind, k.item));
  else {
    const { tape, values } = found;
    const memo = new Map<string, RootClaim>();
    claims = new Array(values.length);
    for (let i = 0; i < values.length; i++) claims[i] = tapeClaimsOf(kind, tape, values[i]!, memo);
  }
  return { input: new InspectedBody(kind, bytes, found, spec.batchSize), claims };
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
      // Raw bytes are scanned once, here: the scan names each item's claims and the pool is
      // handed it (no parse of the response on this thread, no second scan).
      const raw = scanned(kind, input);
      const claims = raw ? raw.claims : claimsOfItems(kind, itemsOf(kind, input));
      // The tree accounts are read while the pool verifies: the chain's round trip overlaps the work.
      const since = Date.now();
      const trees = treesOfClaims(claims);
      const ahead = trees.length ? source.trees(trees, o?.signal) : undefined;
      ahead?.catch(() => {}); // awaited below; never an unhandled rejection if verify throws first
      const verdicts = await inner.verify(kind, raw ? raw.input : input, passOn(o));
      if (!anchorable(kind)) return verdicts.map((v) => ({ ...v, anchored: false }));
      return await anchorClaimed(claims, verdicts, source, o?.signal, ahead, since);
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
