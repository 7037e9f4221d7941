// readItems: items of every input form read as the bytes arrive — arrays, objects keyed by id,
// envelopes, a single item, NDJSON — whatever the chunk boundaries; nulls kept as items; strings with
// brackets and escapes; /dev/zero refused at its first byte, an endless input at the cap; one item
// over its cap refused; and memory stays flat over a million items.
import { describe, expect, it } from 'vitest';
import { createReadStream } from 'node:fs';
import { readItems } from '../../src/merkle/verifier/item-stream.js';

const item = (n: number) => ({ root: `r${n}`, proof: ['a', 'b]'], leaf: 'x"}{', node_index: n });
async function all(text: string, chunk = 7): Promise<{ item: unknown; key?: string }[]> {
  const bytes = Buffer.from(text);
  async function* src() {
    for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
  }
  const out = [];
  for await (const x of readItems(src())) out.push(x);
  return out;
}
const ID = (n: number) => `${'A'.repeat(40)}${n}`;

describe('readItems', () => {
  it('reads arrays, keyed objects, envelopes, single items and NDJSON at any chunk size', async () => {
    const items = [item(1), null, item(2)];
    const keyed = { [ID(1)]: item(1), [ID(2)]: null };
    for (const chunk of [1, 3, 7, 64, 4096]) {
      expect(await all(JSON.stringify(items), chunk)).toEqual(items.map((i) => ({ item: i })));
      expect(await all(JSON.stringify({ jsonrpc: '2.0', id: 1, result: items }), chunk)).toEqual(items.map((i) => ({ item: i })));
      expect(await all(JSON.stringify({ jsonrpc: '2.0', result: { context: { slot: 1 }, value: items } }), chunk)).toEqual(items.map((i) => ({ item: i })));
      expect(await all(JSON.stringify({ result: { items, total: 3 } }), chunk)).toEqual(items.map((i) => ({ item: i })));
      expect(await all(JSON.stringify({ jsonrpc: '2.0', id: 1, result: keyed }), chunk)).toEqual([{ item: item(1), key: ID(1) }, { item: null, key: ID(2) }]);
      expect(await all(JSON.stringify(keyed), chunk)).toEqual([{ item: item(1), key: ID(1) }, { item: null, key: ID(2) }]);
      expect(await all(JSON.stringify({ jsonrpc: '2.0', id: 1, result: item(5) }), chunk)).toEqual([{ item: item(5) }]);
      expect(await all(JSON.stringify(item(6)), chunk)).toEqual([{ item: item(6) }]);
      const ndjson = `${JSON.stringify(item(1))}\n${JSON.stringify({ result: [item(2), null] })}\n${JSON.stringify(item(3))}\n`;
      expect(await all(ndjson, chunk)).toEqual([{ item: item(1) }, { item: item(2) }, { item: null }, { item: item(3) }]);
    }
  });

  it('refuses what is not JSON at once, an endless input at the cap, and an item over its cap', async () => {
    const zero = readItems(createReadStream('/dev/zero'), { maxBytes: 1 << 30 });
    await expect(zero.next()).rejects.toThrow(/not JSON: expected \[ or \{ at byte 0, got byte 0/);
    async function* spaces() {
      for (;;) yield Buffer.alloc(65536, 0x20);
    }
    await expect(readItems(spaces(), { maxBytes: 1_000_000 }).next()).rejects.toMatchObject({ code: 'INPUT_TOO_LARGE' });
    async function* huge() {
      yield Buffer.from('[{"root":"');
      for (;;) yield Buffer.alloc(65536, 0x61);
    }
    await expect(readItems(huge(), { maxItemBytes: 1_000_000 }).next()).rejects.toMatchObject({ code: 'INPUT_TOO_LARGE' });
    await expect(all('[1]')).rejects.toThrow(/items\[0\].*expected an object or null/);
    await expect(all('[{"a":1}')).rejects.toThrow(/ends inside a value/);
  });

  it('holds one item at a time: a million items read with flat memory', async () => {
    const n = 1_000_000;
    const line = Buffer.from(`${JSON.stringify(item(1))},`);
    async function* big() {
      yield Buffer.from('[');
      const block = Buffer.concat(Array.from({ length: 1000 }, () => line));
      for (let i = 0; i < n / 1000; i++) yield block;
      yield Buffer.from(`${JSON.stringify(item(2))}]`);
    }
    const before = process.memoryUsage().rss;
    let count = 0;
    let peak = 0;
    for await (const _ of readItems(big())) {
      if (++count % 100_000 === 0) peak = Math.max(peak, process.memoryUsage().rss - before);
    }
    expect(count).toBe(n + 1);
    // ~80 MB of JSON went by; a reader holding it would grow by at least that
    expect(peak).toBeLessThan(60 * 1024 * 1024);
  }, 60_000);
});
