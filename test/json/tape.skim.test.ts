/**
 * Skimming (native/json_scan.h): once the verifier knows where a response's items are, the native
 * scanner finds each later item's end by bracket depth outside strings, 64 bytes at a time, instead of
 * scanning its grammar; the workers parse the items anyway. Three promises are held here:
 * - on valid JSON a skimmed item's end is exactly the scanned one, wherever its strings, escapes,
 *   backslash runs and brackets fall against the 64-byte blocks;
 * - on text that is not JSON, the caller gets exactly the error a plain scan gives;
 * - verdicts and errors from `verify(bytes)` are those of the parsed path.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { mulberry32 as rng } from '../../src/devnet/chain/mulberry32.js';
import { loadNative } from '../../src/addon.js';
import { JsonScan, jsonScanBackend, scanJson } from '../../src/json/index.js';
import { ENTRY, F_SKIMMED, NATIVE_STATE_SKIM, NATIVE_STATE_U32S, SUSPENDED, T_OBJECT, TYPE_MASK } from '../../src/json/tape-format.js';
import { createVerifierWithTestOptions as createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { itemsOf, outcome } from '../support/merkle-json-fixtures.js';

type Scan = (b: Uint8Array, tape: Uint32Array, state?: Uint32Array, stopAt?: number) => number;
// Skimming is the native scanner's (CAIRN_JSON_SCAN=js or no addon: nothing is skimmed).
const scan = jsonScanBackend() === 'native' ? (loadNative()?.jsonScan as Scan | undefined) : undefined;

/** [start, end, flags] of each child of the container at entry `c` (entry 0 for these texts). */
function children(tape: Uint32Array, count: number, c = 0): number[][] {
  const out: number[][] = [];
  for (let k = c + 1, stop = tape[c * ENTRY + 3]!; k < stop && k < count; k = tape[k * ENTRY + 3]!) {
    out.push([tape[k * ENTRY + 1]!, tape[k * ENTRY + 2]!, tape[k * ENTRY]! & (TYPE_MASK | F_SKIMMED)]);
  }
  return out;
}

/**
 * The children of the top-level array of `text` as a plain scan gives them, with the flags skimming
 * should give (objects from where it began are skimmed), and as a skimming scan gives them: armed from
 * the start, or where a scan stopped at `armAt` (objects begun before that stay scanned).
 */
function both(text: Uint8Array, armAt = 0): [number[][], number[][]] {
  const tape = new Uint32Array(ENTRY * (text.length + 8));
  const n = scan!(text, tape);
  expect(n, 'the text is valid JSON').toBeGreaterThan(0);
  const plain = children(tape, n);
  const state = new Uint32Array(NATIVE_STATE_U32S);
  let from = 0;
  if (armAt > 0) {
    const r = scan!(text, tape, state, armAt);
    if (r !== SUSPENDED) return [plain, children(tape, r)];
    from = state[1]!;
  }
  state[NATIVE_STATE_SKIM] = 1;
  const r = scan!(text, tape, state, text.length + 1);
  expect(r).toBeGreaterThan(0);
  expect(state[NATIVE_STATE_SKIM], 'the caller’s slot, as it was').toBe(1);
  const want = plain.map(([a, b, f]) => [a!, b!, f === T_OBJECT && a! >= from ? T_OBJECT | F_SKIMMED : f!]);
  return [want, children(tape, r)];
}

/** Strings made of what a skim must not miscount: quotes, backslash runs, brackets, controls, UTF-8. */
function nasty(rand: () => number, len: number): string {
  const parts = ['"', '\\', '\\\\', '\\"', '{', '}', '[', ']', 'a', 'é', '\n', '\u0001', '€', ' ', ':', ','];
  let s = '';
  while (s.length < len) s += parts[Math.floor(rand() * parts.length)]!;
  return s;
}

function item(rand: () => number, depth = 0): unknown {
  const r = rand();
  if (depth > 2 || r < 0.3) return nasty(rand, Math.floor(rand() * 90));
  if (r < 0.4) return Math.floor(rand() * 1e6) - 5e5;
  if (r < 0.45) return null;
  if (r < 0.6) return Array.from({ length: Math.floor(rand() * 4) }, () => item(rand, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(rand() * 5); i > 0; i--) o[nasty(rand, Math.floor(rand() * 12))] = item(rand, depth + 1);
  return o;
}

const enc = new TextEncoder();

describe.skipIf(!scan)('native skimming: the same item ends as a scan', () => {
  it('objects of every length from 2 to 400 bytes at every offset of a 64-byte block', () => {
    const rand = rng(7);
    for (let pad = 0; pad < 64; pad++) {
      const items: string[] = [];
      for (let len = 2; len <= 400; len++) {
        // An object of exactly `len` bytes: {"k":"…"} around escaped quotes and backslashes, brackets
        // and \u escapes (all ASCII, so characters are bytes), or {} with spaces when too short.
        if (len < 8) {
          items.push('{' + ' '.repeat(len - 2) + '}');
          continue;
        }
        const tokens = ['\\"', '\\\\', '{', '}', '[', ']', 'a', '\\u00e9', ':', ','];
        let body = '';
        for (let room = len - 8; room > 0;) {
          const t = tokens[Math.floor(rand() * tokens.length)]!;
          const pick = t.length <= room ? t : 'a';
          body += pick;
          room -= pick.length;
        }
        items.push(`{"k":"${body}"}`);
      }
      const text = enc.encode(' '.repeat(pad) + '[' + items.join(',') + ']');
      const [plain, skimmed] = both(text);
      expect(skimmed, `pad ${pad}`).toEqual(plain);
    }
  });

  it('seeded: 300 arrays of nested values, compact and indented, skimmed from the start and from a stop', () => {
    const rand = rng(11);
    for (let t = 0; t < 300; t++) {
      const list = Array.from({ length: 1 + Math.floor(rand() * 30) }, () => item(rand));
      const text = enc.encode(JSON.stringify(list, null, t % 3));
      const [plain, skimmed] = both(text);
      expect(skimmed, `text ${t}`).toEqual(plain);
      const [plain2, skimmed2] = both(text, 1 + Math.floor(rand() * text.length));
      expect(skimmed2, `text ${t} armed part way`).toEqual(plain2);
    }
  });

  it('fast-check: any JSON values in a list', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue({ maxDepth: 4 })), fc.nat(64), (list, pad) => {
        const text = enc.encode(' '.repeat(pad) + JSON.stringify(list));
        const [plain, skimmed] = both(text);
        expect(skimmed).toEqual(plain);
      }),
      { numRuns: 400, seed: 42 },
    );
  });

  it('only direct children of the named container are skimmed', () => {
    const text = enc.encode(JSON.stringify({ a: [{ x: 1 }, { y: [{ z: 2 }] }], b: { c: { d: 3 } } }));
    const tape = new Uint32Array(ENTRY * 64);
    const state = new Uint32Array(NATIVE_STATE_U32S);
    // Entry 2 is the array under "a" (0: root, 1: key "a").
    state[NATIVE_STATE_SKIM] = 3;
    const n = scan!(text, tape, state, text.length + 1);
    const skimmedAt: number[] = [];
    for (let e = 0; e < n; e++) if (tape[e * ENTRY]! & F_SKIMMED) skimmedAt.push(e);
    expect(skimmedAt).toEqual([3, 4]);
    expect(tape[3 * ENTRY + 3]).toBe(4);
    expect(Buffer.from(text.subarray(tape[4 * ENTRY + 1]!, tape[4 * ENTRY + 2]!)).toString()).toBe('{"y":[{"z":2}]}');
  });
});

describe.skipIf(!scan)('damaged text: a skimmed scan fails as a plain one does, or hands the damage on', () => {
  /** The error message `scanJson` gives, or null when the text is JSON. */
  const plainError = (b: Uint8Array): string | null => {
    try {
      scanJson(b).release();
      return null;
    } catch (e) {
      return (e as Error).message;
    }
  };
  const parses = (b: Uint8Array, start: number, end: number): boolean => {
    try {
      JSON.parse(Buffer.from(b.subarray(start, end)).toString());
      return true;
    } catch {
      return false;
    }
  };

  it('seeded: every kind of damage past the first item', () => {
    const rand = rng(5);
    let failed = 0;
    let handedOn = 0;
    for (let t = 0; t < 600; t++) {
      const list = Array.from({ length: 4 + Math.floor(rand() * 20) }, () => ({ a: item(rand), b: nasty(rand, 20) }));
      const good = JSON.stringify(list);
      const first = good.indexOf('},') + 2;
      const at = first + Math.floor(rand() * (good.length - first));
      const r = rand();
      const put = ['{', '}', '[', ']', '"', '\\', ',', ':', 'x', '\u0002'][Math.floor(rand() * 10)]!;
      const bad = enc.encode(r < 0.4 ? good.slice(0, at) + good.slice(at + 1) : r < 0.8 ? good.slice(0, at) + put + good.slice(at) : good.slice(0, at));
      const want = plainError(bad);
      const s = new JsonScan(bad);
      let got: string | null = null;
      try {
        s.advance(first);
        expect(s.skimChildrenOf(0)).toBe(true);
        s.advance(Infinity);
      } catch (e) {
        got = (e as Error).message;
      }
      if (got !== null || want === null) expect(got, `text ${t}`).toBe(want);
      else {
        // The skim passed over the damage: it is inside an object it skimmed, which then does not
        // parse (the verifier's workers find that, and it scans again for this very error).
        const t4 = s.tape.tape;
        const skimmedParse = children(t4, s.tape.count).filter(([, , f]) => f! & F_SKIMMED).map(([a, b]) => parses(bad, a!, b!));
        expect(skimmedParse, `text ${t}`).toContain(false);
        handedOn++;
      }
      if (want) failed++;
      s.tape.release();
    }
    expect(failed).toBeGreaterThan(300);
    expect(handedOn).toBeGreaterThan(20);
  });
});

describe('verify(bytes) with skimmed items: the parsed path’s answers', () => {
  const inline = createVerifier({ threads: 0 });
  // Parts of 2 KiB and batches of 3: the head start, so the items after the first few are skimmed.
  const early = createVerifier({ threads: 2, batchSize: 3, jsonParseBelow: 0, jsonHeadStart: { from: 0, firstPart: 2048 } });
  afterAll(async () => {
    await inline.close();
    await early.close();
  });
  const proofs = Array.from({ length: 60 }, (_, i) => structuredClone(itemsOf('asset-proof')[i % 2]) as Record<string, unknown>);

  it('tree ids full of brackets, quotes and backslashes (the packer declines escapes): same verdicts', async () => {
    const rand = rng(3);
    const input = proofs.map((p, i) => (i % 3 === 0 ? { ...p, tree_id: nasty(rand, 60) } : p));
    const want = await outcome(inline.verify('asset-proof', input));
    expect(want).toHaveProperty('ok');
    expect(await outcome(early.verify('asset-proof', Buffer.from(JSON.stringify(input))))).toEqual(want);
    expect(await outcome(early.verify('asset-proof', Buffer.from(JSON.stringify({ jsonrpc: '2.0', result: { items: input }, id: 1 }, null, 2))))).toEqual(want);
  });

  it('a late item that is not JSON: exactly the error a plain scan names', async () => {
    const good = JSON.stringify(proofs);
    const late = good.lastIndexOf('{"root"');
    const raw = (s: string): string => s.replace(/\\u0001/, '\u0001');
    const cases = [
      // unbalanced: the skim runs on past the item
      good.slice(0, late) + good.slice(late).replace('"proof":[', '"proof":[['),
      // balanced, but a comma missing, or one too many
      good.slice(0, late) + good.slice(late).replace('","', '" "'),
      good.slice(0, late) + good.slice(late).replace(',"leaf"', ',,"leaf"'),
      // a raw control byte in a string the packer accepts, and in one it declines
      raw(good.slice(0, late) + good.slice(late).replace(/"tree_id":"(\w)/, '"tree_id":"\\u0001$1')),
      raw(good.slice(0, late) + good.slice(late).replace(/"tree_id":"(\w)/, '"tree_id":"\\\\\\u0001$1')),
      // a bad escape, a bad number, a string never closed
      good.slice(0, late) + good.slice(late).replace(/"tree_id":"(\w)/, '"tree_id":"\\q$1'),
      good.slice(0, late) + good.slice(late).replace(/"node_index":(\d)/, '"node_index":$1.e'),
      good.slice(0, late) + good.slice(late).replace(/"tree_id":"(\w+)"/, '"tree_id":"$1'),
    ];
    for (const [i, text] of cases.entries()) {
      const b = Buffer.from(text);
      let want = '';
      try {
        scanJson(b).release();
      } catch (e) {
        want = (e as Error).message;
      }
      expect(want, `case ${i} is not JSON`).toMatch(/^"json": not valid JSON: /);
      expect(await outcome(early.verify('asset-proof', b)), `case ${i}`).toEqual({ error: ['InputError', 'INPUT_INVALID', want] });
    }
  });

  it('a late item over the JSON limits (a 2 MB number, 100,000 levels): the plain scan\'s INPUT_TOO_LARGE', async () => {
    const good = JSON.stringify(proofs);
    const late = good.lastIndexOf('{"root"');
    const cases = [
      good.slice(0, late) + good.slice(late).replace(/"node_index":\d+/, `"node_index":${'7'.repeat(41)}`),
      good.slice(0, late) + good.slice(late).replace(/"node_index":\d+/, `"node_index":${'7'.repeat(2_000_000)}`),
      good.slice(0, late) + good.slice(late).replace(/"tree_id":"\w+"/, `"tree_id":${'['.repeat(100_000)}${']'.repeat(100_000)}`),
    ];
    for (const [i, text] of cases.entries()) {
      const b = Buffer.from(text);
      let want = '';
      try {
        scanJson(b).release();
      } catch (e) {
        want = (e as Error).message;
      }
      expect(want, `case ${i} is over a limit`).toMatch(/^"json": (the number|nested deeper)/);
      expect(await outcome(early.verify('asset-proof', b)), `case ${i}`).toEqual({ error: ['CairnError', 'INPUT_TOO_LARGE', want] });
    }
  });
});
