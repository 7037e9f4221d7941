/**
 * Lists verified in byte ranges (verifier.ts `verifyInRanges`; json/batch.ts `rangeRequest`; the
 * addon's `skimItems`): each worker finds the items of its own byte range, and every range after the
 * first starts on a guess that counts only where the range before it really stopped. Whatever falls
 * on a cut — strings holding `},{`, whitespace, an item longer than a range or than the bytes copied
 * ahead, broken text, an item not of the kind, envelopes after the list, an abort — the answer must be
 * the parsed path's: the same verdicts and ids, or the same error.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { mulberry32 as rng } from '../../src/devnet/chain.js';
import { loadNative } from '../../src/merkle/hash/native.js';
import { rangeOutcome, rangeRequest, RangeStatus, verifyJsonBatch } from '../../src/merkle/json/batch.js';
import { createVerifier } from '../../src/merkle/verifier.js';
import { bytes, itemsOf, mutate, outcome } from './json-fixtures.js';

const skim = loadNative()?.skimItems;
const inline = createVerifier({ threads: 0 });
// Ranges of about three items: many cuts, so many guesses.
const ranged = createVerifier({ threads: 2, batchSize: 3, jsonParseBelow: 0, jsonHeadStart: { from: 0, firstPart: 2048 }, jsonRanges: true });
afterAll(async () => {
  await inline.close();
  await ranged.close();
});

const two = itemsOf('asset-proof').slice(0, 2);
const proofs = (n: number): Record<string, unknown>[] => Array.from({ length: n }, (_, i) => structuredClone(two[i % 2]) as Record<string, unknown>);
/** Strings a guessed start can fall for: item separators, brackets, quotes and escapes. */
function decoys(rand: () => number, len: number): string {
  const parts = ['},{', '}, {', '},\n{', '}', '{', ',', '"', '\\"', '\\\\', ']', '[', ' ', 'x'];
  let s = '';
  while (s.length < len) s += parts[Math.floor(rand() * parts.length)]!;
  return s;
}
/** `f` run on `ranged`, and how the ranges went meanwhile. */
async function viaRanges(f: () => Promise<unknown>): Promise<{ got: unknown; lists: number; redone: number; declined: number }> {
  const before = ranged.rangeStats;
  const got = await outcome(f());
  const after = ranged.rangeStats;
  return { got, lists: after.lists - before.lists, redone: after.redone - before.redone, declined: after.declined - before.declined };
}

describe.skipIf(!skim)('a range batch on a worker (verifyJsonBatch)', () => {
  const items = proofs(7);
  const text = bytes({ jsonrpc: '2.0', result: items, id: 1 });
  const starts = [...text.toString('latin1').matchAll(/\{"root"/g)].map((m) => m.index);
  const close = text.lastIndexOf(']');
  const run = (from: number, limit: number, end: number, sync: boolean): { o: ReturnType<typeof rangeOutcome>; r: ReturnType<typeof verifyJsonBatch> } => {
    const req = rangeRequest(from, limit, end, sync);
    const r = verifyJsonBatch('asset-proof', req, text);
    return { o: rangeOutcome(req), r };
  };

  it('from the first item to the end: every item, up to the list’s `]`', () => {
    const { o, r } = run(starts[0]!, text.length, text.length, false);
    expect(o).toEqual({ count: 7, status: RangeStatus.closed, first: starts[0], stop: close });
    expect('valid' in r && [...r.valid]).toEqual([1, 1, 1, 1, 1, 1, 1]);
  });

  it('a limit inside the list: the items that start before it, and where the next one starts', () => {
    const { o, r } = run(starts[0]!, starts[2]! + 1, text.length, false);
    expect(o).toEqual({ count: 3, status: RangeStatus.more, first: starts[0], stop: starts[3] });
    expect('valid' in r && r.valid.length).toBe(3);
  });

  it('a guessed start moves to the next item, wherever in an item or its separator it falls', () => {
    for (let at = starts[1]! + 1; at <= starts[2]!; at++) {
      const { o } = run(at, text.length, text.length, true);
      expect(o.first, `guess at ${at}`).toBe(starts[2]);
      expect(o.count).toBe(5);
    }
  });

  it('no item past the guess: NO_SYNC; bytes that end inside an item: SHORT; not objects: BAD', () => {
    expect(run(starts[6]! + 1, text.length, text.length, true).o).toMatchObject({ status: RangeStatus.noSync, count: 0 });
    expect(run(starts[0]!, text.length, starts[3]! + 10, false).o).toMatchObject({ status: RangeStatus.short, first: starts[0] });
    const odd = Buffer.from('[{"a":1},2]');
    const req = rangeRequest(1, odd.length, odd.length, false);
    verifyJsonBatch('asset-proof', req, odd);
    expect(rangeOutcome(req)).toMatchObject({ status: RangeStatus.bad, stop: 9 });
  });

  it('a guess inside a string that holds a separator stops there, not at the item', () => {
    const tricky = proofs(3);
    tricky[1]!.tree_id = 'ab},{"root":"x"},{cd';
    const t = bytes(tricky);
    const s = [...t.toString('latin1').matchAll(/\{"root":"[1-9A-Za-z]{32,44}"/g)].map((m) => m.index);
    const inside = t.indexOf('ab},{') + 1;
    const req = rangeRequest(inside, t.length, t.length, true);
    verifyJsonBatch('asset-proof', req, t);
    expect(rangeOutcome(req).first).toBe(inside + 3);
    expect(rangeOutcome(req).first).not.toBe(s[2]);
  });

  it('more items than the table holds: it grows, and every item is found', () => {
    const many = bytes(proofs(2100));
    const req = rangeRequest(1, many.length, many.length, false);
    const r = verifyJsonBatch('asset-proof', req, many);
    expect(rangeOutcome(req)).toMatchObject({ count: 2100, status: RangeStatus.closed, stop: many.length - 1 });
    expect('valid' in r && r.valid.every((x) => x === 1)).toBe(true);
  });

  it('skimItems names a bad argument', () => {
    const out = new Uint32Array(8);
    const res = new Uint32Array(3);
    expect(() => skim!(text, text.length + 1, 0, 10, false, out, res)).toThrow(/"end"/);
    expect(() => skim!(text, 10, 11, 10, false, out, res)).toThrow(/"from"/);
    expect(() => skim!(text, 10, 0, 10, 1 as never, out, res)).toThrow(/"sync"/);
    expect(() => skim!(text, 10, 0, 10, false, new Uint8Array(8) as never, res)).toThrow(/"out"/);
    expect(() => skim!(text, 10, 0, 10, false, out, new Uint32Array(2))).toThrow(/"res"/);
  });
});

describe.skipIf(!skim)('verify(bytes) in ranges: the parsed path’s answers', () => {
  it('every envelope around a list, valid and broken items, compact and pretty', async () => {
    const base = proofs(2);
    const items = Array.from({ length: 80 }, (_, i) => (i % 7 === 3 ? mutate(structuredClone(base[i % 2])) : base[i % 2]));
    const shapes: Record<string, unknown> = {
      array: items,
      result: { context: { slot: 7 }, value: items },
      rpc: { jsonrpc: '2.0', id: 1, result: { context: { slot: 7 }, value: { items, cursor: null } } },
      rpcIdFirst: { id: 1, jsonrpc: '2.0', result: { total: items.length, limit: 1000, page: 1, items } },
      errorNull: { jsonrpc: '2.0', result: items, error: null, id: 3 },
    };
    for (const [shape, input] of Object.entries(shapes)) {
      const want = await outcome(inline.verify('asset-proof', input));
      expect(want, shape).toHaveProperty('ok');
      for (const indent of [0, 1, '\t\r\n ']) {
        const r = await viaRanges(() => ranged.verify('asset-proof', Buffer.from(JSON.stringify(input, null, indent))));
        expect(r.got, `${shape} ${JSON.stringify(indent)}`).toEqual(want);
        expect(r.lists, `${shape} ${JSON.stringify(indent)} took the ranges`).toBe(1);
      }
    }
  });

  it('strings full of separators and escapes on every cut: guesses go wrong, are redone, and the answer holds', async () => {
    const rand = rng(11);
    let redone = 0;
    for (let round = 0; round < 6; round++) {
      const input = proofs(60).map((p, i) => (i % 2 === 0 ? { ...p, tree_id: decoys(rand, 200 + Math.floor(rand() * 300)) } : p));
      const want = await outcome(inline.verify('asset-proof', input));
      expect(want).toHaveProperty('ok');
      const r = await viaRanges(() => ranged.verify('asset-proof', bytes({ jsonrpc: '2.0', result: input, id: round })));
      expect(r.got).toEqual(want);
      expect(r.lists).toBe(1);
      redone += r.redone;
    }
    expect(redone, 'some guesses fell inside a string').toBeGreaterThan(5);
  });

  it('an item longer than the bytes copied ahead of a range (from a Buffer): redone with the whole response', async () => {
    const items = proofs(40);
    // 60,000 nodes: ~2 MB, more than is copied past a range's limit; too many nodes for a proof.
    items[5] = { ...items[5], proof: Array.from({ length: 60_000 }, () => (items[5]!.proof as string[])[0]) };
    const want = await outcome(inline.verify('asset-proof', items));
    expect((want as { ok: Array<{ valid: boolean }> }).ok.map((v) => v.valid).indexOf(false)).toBe(5);
    const r = await viaRanges(() => ranged.verify('asset-proof', bytes(items)));
    expect(r.got).toEqual(want);
    expect(r.redone).toBeGreaterThan(0);
    // From shared memory nothing is copied: nothing runs short.
    const body = bytes(items);
    const shared = new Uint8Array(new SharedArrayBuffer(body.length));
    shared.set(body);
    expect((await viaRanges(() => ranged.verify('asset-proof', shared))).got).toEqual(want);
  });

  it('what only a full scan can judge goes the usual way, with its exact answer or error', async () => {
    const good = proofs(40);
    const raw = JSON.stringify(good);
    const mid = raw.indexOf('{"root"', raw.length >> 1);
    const cases: Array<[string, Uint8Array]> = [
      // Still open when the first item is looked for (a closed one is passed over).
      ['a decoy list first', bytes({ jsonrpc: '2.0', id: 1, result: { decoy: proofs(200).map((x) => mutate(x)), items: good } })],
      ['an error after the result', bytes({ jsonrpc: '2.0', id: 1, result: good, error: { code: -32000, message: 'late' } })],
      ['a second result', Buffer.from(`{"jsonrpc":"2.0","result":${raw},"result":[],"id":1}`)],
      ['text after the envelope', Buffer.from(`{"jsonrpc":"2.0","result":${raw},"id":1} x`)],
      ['a list never closed', Buffer.from(raw.slice(0, -1))],
      ['a trailing comma', Buffer.from(raw.replace(/\]$/, ',]'))],
      ['a missing comma in the middle', Buffer.from(raw.slice(0, mid - 1) + raw.slice(mid))],
      ['two commas in the middle', Buffer.from(raw.slice(0, mid) + ',' + raw.slice(mid))],
      ['a broken item in the middle', Buffer.from(raw.slice(0, mid) + raw.slice(mid).replace('"proof":[', '"proof":[['))],
      ['a stranger early', bytes([...good.slice(0, 2), { hello: 1 }, ...good.slice(2)])],
      ['a stranger late', bytes([...good.slice(0, 35), { hello: 1 }, ...good.slice(35)])],
      ['a number late', bytes([...good.slice(0, 35), 5, ...good.slice(35)])],
      ['null first', bytes([null, ...good])],
    ];
    for (const [name, body] of cases) {
      let want: unknown;
      try {
        want = await outcome(inline.verify('asset-proof', JSON.parse(Buffer.from(body).toString())));
      } catch {
        want = await outcome(inline.verify('asset-proof', body));
      }
      const r = await viaRanges(() => ranged.verify('asset-proof', body));
      expect(r.got, name).toEqual(want);
      expect(r.lists, `${name}: not answered from ranges`).toBe(0);
    }
  });

  it('abort during a large verify: AbortError, and the verifier goes on working; no listener kept', async () => {
    const body = bytes({ jsonrpc: '2.0', id: 1, result: proofs(400) });
    const ctl = new AbortController();
    const p = ranged.verify('asset-proof', body, { signal: ctl.signal });
    setImmediate(() => ctl.abort(new Error('stop')));
    expect(await outcome(p)).toEqual({ error: ['AbortError', 'MERKLE_ABORTED', 'verification aborted'] });
    const again = await viaRanges(() => ranged.verify('asset-proof', body));
    expect(again.lists).toBe(1);
    expect((again.got as { ok: Array<{ valid: boolean }> }).ok.filter((v) => v.valid).length).toBe(400);

    const sig = new AbortController();
    let added = 0;
    let removed = 0;
    const add = sig.signal.addEventListener.bind(sig.signal);
    const remove = sig.signal.removeEventListener.bind(sig.signal);
    sig.signal.addEventListener = ((...a: Parameters<typeof add>) => (added++, add(...a))) as typeof add;
    sig.signal.removeEventListener = ((...a: Parameters<typeof remove>) => (removed++, remove(...a))) as typeof remove;
    for (let i = 0; i < 3; i++) await ranged.verify('asset-proof', body, { signal: sig.signal });
    expect(added).toBeGreaterThan(0);
    expect(removed).toBe(added);
  });

  it('counts what it verified', async () => {
    const v = createVerifier({ threads: 2, batchSize: 5, jsonParseBelow: 0, jsonHeadStart: { from: 0, firstPart: 2048 }, jsonRanges: true });
    try {
      const verdicts = await v.verify('asset-proof', bytes(proofs(123)));
      expect(verdicts.length).toBe(123);
      expect(v.rangeStats.lists).toBe(1);
      expect(v.completed).toBe(123);
    } finally {
      await v.close();
    }
  });
});
