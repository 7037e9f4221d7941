/**
 * The head start on large responses: `verify(kind, bytes)` scans a part, sends the items found so far
 * to the workers and scans the rest meanwhile (verifier/raw/items-so-far.ts guesses where the items are).
 * Whatever the guess, the answer must be the parsed path's: the same verdicts, ids and errors —
 * including when the guess is wrong (a decoy list before the real one, an `error` member after
 * `result`), when the text breaks after the first batches went out, when an early item is not of the
 * kind, and on abort. `jsonHeadStart` makes the parts small, so small inputs take that path.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { createVerifierWithTestOptions as createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { KIND_NAMES } from '../../src/merkle/kinds/index.js';
import { JsonScan } from '../../src/json/index.js';
import { ItemsSoFar } from '../../src/merkle/verifier/raw/items-so-far.js';
import { kinds } from '../../src/merkle/kinds/index.js';
import { bytes, itemsOf, mutate, outcome } from '../support/merkle-json-fixtures.js';

const inline = createVerifier({ threads: 0 });
// Parts of 2 KiB (a few items each), batches of 3: many early batches on every input.
const early = createVerifier({ threads: 2, batchSize: 3, jsonParseBelow: 0, jsonHeadStart: { from: 0, firstPart: 2048 } });
afterAll(async () => {
  await inline.close();
  await early.close();
});

const repeat = <T>(xs: T[], n: number): T[] => Array.from({ length: n }, (_, i) => xs[i % xs.length]!);

describe('head start: the same answers as the parsed path', () => {
  for (const kind of KIND_NAMES) {
    it(`${kind}: every envelope, valid and mutated items`, async () => {
      const base = itemsOf(kind);
      const items = repeat([...base, ...base.map((x) => mutate(structuredClone(x)))], 60);
      const shapes: Record<string, unknown> = {
        array: items,
        result: { context: { slot: 7 }, value: items },
        rpc: { jsonrpc: '2.0', id: 1, result: { context: { slot: 7 }, value: { items, cursor: null } } },
        rpcIdFirst: { id: 1, jsonrpc: '2.0', result: { total: items.length, limit: 1000, page: 1, items } },
        keyed: Object.fromEntries(items.map((x, i) => [`id-${i}-\u00e9\\"`, x])),
        rpcKeyed: { jsonrpc: '2.0', result: Object.fromEntries(items.map((x, i) => [`k${i}`, i % 9 === 4 ? null : x])), id: 2 },
      };
      for (const [shape, input] of Object.entries(shapes)) {
        const want = await outcome(inline.verify(kind, input));
        expect(want, shape).toHaveProperty('ok');
        expect(await outcome(early.verify(kind, bytes(input))), shape).toEqual(want);
        expect(await outcome(early.verify(kind, Buffer.from(JSON.stringify(input, null, 1)))), `${shape} pretty`).toEqual(want);
      }
    });
  }

  it('the guess sees the items early (so the tests above do take the head start)', () => {
    const proofs = repeat(itemsOf('asset-proof'), 50);
    const body = bytes({ jsonrpc: '2.0', id: 1, result: { items: proofs } });
    const scan = new JsonScan(body);
    const guess = new ItemsSoFar(kinds['asset-proof'], scan.tape);
    scan.advance(4096);
    expect(guess.update()).toBeGreaterThan(0);
    while (!scan.advance(scan.reached + 4096)) guess.update();
    expect(guess.update()).toBe(50);
  });

  it('the guess lists only as many items as asked, and the rest on a later call, in order', () => {
    const proofs = repeat(itemsOf('asset-proof'), 50);
    for (const shape of ['list', 'keyed'] as const) {
      const result = shape === 'list' ? proofs : Object.fromEntries(proofs.map((p, i) => [`id${i}`, p]));
      const body = bytes({ jsonrpc: '2.0', id: 1, result });
      const scan = new JsonScan(body);
      // Up to the end of the last item: the containers are still open, as the guess needs them.
      expect(scan.advance(body.length - 2)).toBe(false);
      const all = new ItemsSoFar(kinds['asset-proof'], scan.tape);
      expect(all.update()).toBe(50);
      const some = new ItemsSoFar(kinds['asset-proof'], scan.tape);
      expect(some.update(7)).toBe(7);
      expect(some.update(7)).toBe(7);
      expect(some.update(30)).toBe(30);
      expect(some.update()).toBe(50);
      expect(some.values).toEqual(all.values);
      expect(some.keys).toEqual(all.keys);
    }
  });

  it('a decoy list before the real one: the early batches are dropped, the real items verified', async () => {
    const good = repeat(itemsOf('asset-proof'), 40);
    const decoy = good.map((x) => mutate(structuredClone(x)));
    // peelEnvelopes takes `items`; the guess first sees `decoy`, an open list of proofs.
    const input = { jsonrpc: '2.0', id: 1, result: { decoy, items: good } };
    const want = await outcome(inline.verify('asset-proof', input));
    expect((want as { ok: Array<{ valid: boolean }> }).ok.every((v) => v.valid)).toBe(true);
    expect(await outcome(early.verify('asset-proof', bytes(input)))).toEqual(want);
  });

  it('an error member after the result: the JSON-RPC error, not verdicts', async () => {
    const input = { jsonrpc: '2.0', id: 1, result: repeat(itemsOf('asset-proof'), 40), error: { code: -32000, message: 'late' } };
    const want = await outcome(inline.verify('asset-proof', input));
    expect(want).toEqual({ error: ['InputError', 'INPUT_INVALID', expect.stringContaining('-32000: late')] });
    expect(await outcome(early.verify('asset-proof', bytes(input)))).toEqual(want);
  });

  it('text that breaks after the first batches went out: the syntax error, nothing else', async () => {
    const raw = JSON.stringify(repeat(itemsOf('asset-proof'), 40));
    for (const broken of [raw.slice(0, -1), raw.slice(0, -30) + ']', raw.replace(/\]$/, ',]')]) {
      const got = await outcome(early.verify('asset-proof', Buffer.from(broken)));
      expect(got).toEqual({ error: ['InputError', 'INPUT_INVALID', expect.stringMatching(/^"json": not valid JSON: .* at byte \d+$/)] });
    }
  });

  it('an early item not of the kind, or a stranger in a keyed object: the parsed path errors', async () => {
    const proofs = repeat(itemsOf('asset-proof'), 40);
    const cases = [
      [...proofs.slice(0, 5), { hello: 1 }, ...proofs.slice(5)],
      [...proofs.slice(0, 30), { hello: 1 }, ...proofs.slice(30)],
      Object.fromEntries([...proofs.map((p, i) => [`p${i}`, p] as const), ['z', { hello: 1 }]]),
      { jsonrpc: '2.0', id: 1, result: Object.fromEntries([...proofs.map((p, i) => [`p${i}`, p] as const), ['z', 5]]) },
    ];
    for (const input of cases) {
      const want = await outcome(inline.verify('asset-proof', input));
      expect(want).toHaveProperty('error');
      expect(await outcome(early.verify('asset-proof', bytes(input)))).toEqual(want);
    }
  });

  it('abort during a large verify: AbortError, and the verifier goes on working', async () => {
    const proofs = repeat(itemsOf('asset-proof'), 400);
    const body = bytes({ jsonrpc: '2.0', id: 1, result: proofs });
    const ctl = new AbortController();
    const p = early.verify('asset-proof', body, { signal: ctl.signal });
    setImmediate(() => ctl.abort(new Error('stop')));
    expect(await outcome(p)).toEqual({ error: ['AbortError', 'MERKLE_ABORTED', 'verification aborted'] });
    const again = await early.verify('asset-proof', body);
    expect(again.length).toBe(400);
    expect(again.every((v) => v.valid)).toBe(true);
  });

  it('a signal used for many verifies keeps no listener behind', async () => {
    const ctl = new AbortController();
    let added = 0;
    let removed = 0;
    const add = ctl.signal.addEventListener.bind(ctl.signal);
    const remove = ctl.signal.removeEventListener.bind(ctl.signal);
    ctl.signal.addEventListener = ((...a: Parameters<typeof add>) => (added++, add(...a))) as typeof add;
    ctl.signal.removeEventListener = ((...a: Parameters<typeof remove>) => (removed++, remove(...a))) as typeof remove;
    const body = bytes(repeat(itemsOf('asset-proof'), 30));
    for (let i = 0; i < 5; i++) await early.verify('asset-proof', body, { signal: ctl.signal });
    expect(added).toBeGreaterThan(0);
    expect(removed).toBe(added);
  });
});
