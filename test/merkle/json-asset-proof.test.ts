/**
 * The native asset-proof packer (native/asset_proof_json.c, through merkle/cnft/asset-proof-packer.ts) reads a
 * getAssetProof item's record straight from its JSON text, base58 decoded already. For every text it
 * either declines (and the item is parsed) or writes a record that reads back (RecordReader) exactly as
 * the record `pack(JSON.parse(text))` writes — root, leaf, nodes and node_index, byte for byte — with
 * the leaf as the id. The texts: the vectors' proofs in many spellings
 * (whitespace, member order, tree_id or not), and every shape it must decline or read with care
 * (escapes, non-ASCII, duplicates, unknown members, node_index written otherwise, proof and node
 * lengths at their limits). End to end, `verify` of the bytes equals `verify` of the parsed items.
 */
import bs58 from 'bs58';
import { afterAll, describe, expect, it } from 'vitest';
import { BatchWriter } from '../../src/merkle/records/batch-writer.js';
import { RecordReader } from '../../src/merkle/records/record-reader.js';
import { kinds } from '../../src/merkle/kinds/index.js';
import { packItem } from '../../src/merkle/kinds/verify-batch.js';
import { nativeAssetProofManyPacker, nativeAssetProofPacker } from '../../src/merkle/cnft/asset-proof-packer.js';
import { loadNative } from '../../src/addon.js';
import { nativeLoadError } from '../../src/addon.js';
import { createVerifierWithTestOptions as createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { itemsOf, outcome } from '../support/merkle-json-fixtures.js';

const spec = kinds['asset-proof'];
const packer = nativeAssetProofPacker();
const proofs = itemsOf('asset-proof') as Array<Record<string, unknown>>;
const enc = new TextEncoder();

/** What the fast reader does with `text`: null when it declines, else the record and the id. */
function fast(text: string, pad = 3): { record: string; id: string } | null {
  // The item sits inside a larger buffer, as in a response.
  const src = enc.encode(' '.repeat(pad) + text + ' ,');
  const w = new BatchWriter(1, 64);
  // The id is also copied out, after 5 bytes already there.
  const id = Uint32Array.of(0, 0, 5);
  const ids = new Uint8Array(5 + 44).fill(0x2e);
  if (!packer!(src, pad, pad + enc.encode(text).length, w, id, ids)) return null;
  const named = Buffer.from(src.subarray(id[0], id[1])).toString('utf8');
  expect(Buffer.from(ids.subarray(0, id[2])).toString('latin1')).toBe('.....' + named);
  return { record: read(w.finish()), id: named };
}

function parsed(text: string): { record: string; id: string | undefined } {
  const item = JSON.parse(text) as unknown;
  const w = new BatchWriter(1, 64);
  packItem(spec, item, w);
  return { record: read(w.finish()), id: spec.id(item) };
}

/** What the worker reads from a one-record batch: the fields, hex. */
function read(batch: ArrayBuffer): string {
  const r = new RecordReader(batch).select(0);
  const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');
  // As kinds/asset-proof.ts's decodeAssetProof: a parsed item's usual record is one run of text.
  const [root, leaf, proof] = r.b58Run('root', 'leaf', 'proof') ?? [r.b58('root'), r.b58('leaf'), r.nodes('proof')];
  return [hex(root), hex(leaf), hex(proof), String(r.u64('node_index'))].join(' ');
}

/** Same record and id as parsing, or declined; returns whether it was read. */
function check(text: string, label = text.slice(0, 120)): boolean {
  const got = fast(text);
  if (!got) return false;
  const want = parsed(text);
  expect(got.record, label).toBe(want.record);
  expect(got.id, label).toBe(want.id);
  return true;
}

const p0 = proofs[0]!;
const spell = (o: Record<string, unknown>): string => JSON.stringify(o);

describe.skipIf(!packer)(packer ? 'native asset-proof packer' : `native asset-proof packer: SKIPPED, the addon is not loadable (${nativeLoadError() ?? 'no packAssetProofJson in it'})`, () => {
  it('every vector proof, in several spellings, is read with the parsed record', () => {
    expect(proofs.length).toBeGreaterThan(1);
    for (const p of proofs) {
      const keys = Object.keys(p);
      const texts = [
        spell(p),
        JSON.stringify(p, null, 2),
        JSON.stringify(p, null, '\t').replace(/\n/g, '\r\n'),
        spell(Object.fromEntries([...keys].reverse().map((k) => [k, p[k]]))),
        spell(Object.fromEntries(keys.filter((k) => k !== 'tree_id').map((k) => [k, p[k]]))),
        spell(p).replace(/([:,[\]{}])/g, ' $1 '),
      ];
      for (const t of texts) expect(check(t), t.slice(0, 80)).toBe(true);
    }
  });

  it('decodes base58 as bs58 does: 2,000 random values, with 0–31 leading zero bytes', () => {
    let seed = 7;
    const byte = (): number => ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) & 255;
    for (let t = 0; t < 100; t++) {
      const proof = Array.from({ length: 20 }, () => {
        const v = Uint8Array.from({ length: 32 }, byte);
        v.fill(0, 0, byte() % 32);
        return bs58.encode(v);
      });
      expect(check(spell({ ...p0, proof })), proof.join(',')).toBe(true);
    }
  });

  it('declines every shape it does not read (the parsed path decides)', () => {
    const node = (p0.proof as string[])[0]!;
    const declined: Record<string, string> = {
      'an unknown member': spell({ ...p0, burnt: false }),
      'a duplicate member': spell(p0).replace(/^\{/, `{"leaf":"${node}",`),
      'an escape in a node': spell(p0).replace(node, node.slice(0, 5) + '\\u0041' + node.slice(6)),
      'an escape in a key': spell(p0).replace('"root"', '"r\\u006fot"'),
      'non-ASCII in the leaf': spell({ ...p0, leaf: 'é' + String(p0.leaf).slice(1) }),
      'node_index 0': spell({ ...p0, node_index: 0 }),
      'node_index negative': spell({ ...p0, node_index: -5 }),
      'node_index 1.0': spell(p0).replace(/"node_index":(\d+)/, '"node_index":$1.0'),
      'node_index 1e3': spell(p0).replace(/"node_index":(\d+)/, '"node_index":1e3'),
      'node_index of 16 digits': spell({ ...p0, node_index: 1234567890123456 }),
      'node_index a string': spell({ ...p0, node_index: String(p0.node_index) }),
      'a null tree_id': spell({ ...p0, tree_id: null }),
      'an escape in tree_id': spell({ ...p0, tree_id: 'a\\"b' }),
      'a number in the proof': spell({ ...p0, proof: [node, 5] }),
      '65 nodes': spell({ ...p0, proof: new Array(65).fill(node) }),
      'a node of 256 bytes': spell({ ...p0, proof: ['x'.repeat(256)] }),
      'a root that is not base58': spell({ ...p0, root: 'not base58 0OIl' }),
      'an empty leaf': spell({ ...p0, leaf: '' }),
      'a node of 255 bytes': spell({ ...p0, proof: ['x'.repeat(255)] }),
      'a node of 31 bytes': spell({ ...p0, proof: ['1'.repeat(30) + '2'] }),
      'a node above 2^256': spell({ ...p0, proof: ['z'.repeat(44)] }),
      'a node with a 0': spell({ ...p0, proof: [node.slice(0, 10) + '0' + node.slice(11)] }),
      'a node of 45 characters': spell({ ...p0, proof: ['1' + node] }),
      'a node of 33 bytes (one leading 1 too many)': spell({ ...p0, proof: ['1' + bs58.encode(Uint8Array.from([1, ...new Array<number>(31).fill(0)]))] }),
      'no root': spell(Object.fromEntries(Object.entries(p0).filter(([k]) => k !== 'root'))),
      'no proof': spell(Object.fromEntries(Object.entries(p0).filter(([k]) => k !== 'proof'))),
      'an array': `[${spell(p0)}]`,
      null: 'null',
      'an empty object': '{}',
    };
    for (const [name, text] of Object.entries(declined)) expect(fast(text), name).toBeNull();
  });

  it('finds an escape or a non-ASCII byte at every position of a string (strings are searched 16 bytes at a time)', () => {
    const node = (p0.proof as string[])[0]!;
    const leaf = String(p0.leaf);
    const tree = String(p0.tree_id);
    for (let at = 0; at < node.length; at++) {
      const put = (s: string, x: string): string => s.slice(0, at) + x + s.slice(at + 1);
      expect(fast(spell({ ...p0, proof: [put(node, 'é'), node] })), `é in a node at ${at}`).toBeNull();
      expect(fast(spell(p0).replace(node, put(node, '\\u0041'))), `an escape in a node at ${at}`).toBeNull();
      expect(fast(spell({ ...p0, leaf: put(leaf, 'ı') })), `ı in the leaf at ${at}`).toBeNull();
      // tree_id is skipped, not decoded: non-ASCII there is read (as parsing would), an escape is not.
      expect(fast(spell({ ...p0, tree_id: put(tree, 'é') })), `é in tree_id at ${at}`).toEqual(parsed(spell({ ...p0, tree_id: put(tree, 'é') })));
      expect(fast(spell(p0).replace(tree, put(tree, '\\n'))), `an escape in tree_id at ${at}`).toBeNull();
    }
    // A string cut short by the end of the item, at every length.
    const text = spell(p0);
    const from = text.indexOf(node);
    for (let cut = from; cut <= from + node.length; cut++) expect(fast(text.slice(0, cut)), `cut at ${cut}`).toBeNull();
  });

  it('reads the limits and odd-but-plain values exactly as parsed', () => {
    const node = (p0.proof as string[])[0]!;
    const read = [
      spell({ ...p0, proof: [] }),
      spell({ ...p0, proof: new Array(64).fill(node) }),
      spell({ ...p0, node_index: 999999999999999 }),
      spell({ ...p0, node_index: 1 }),
      // base58 at its edges: 32 zero bytes, one, 2^256 - 1, leading zero bytes
      spell({ ...p0, root: '1'.repeat(32), leaf: '1'.repeat(31) + '2' }),
      spell({ ...p0, proof: ['JEKNVnkbo3jma5nREBBJCDoXFVeKkD56V3xKrvRmWxFG', bs58.encode(Uint8Array.from([0, 0, ...new Array<number>(30).fill(7)]))] }),
      spell({ ...p0, tree_id: 'anything at all: é ☃' }),
      spell({ ...p0, tree_id: '' }),
    ];
    for (const t of read) expect(check(t), t.slice(-150)).toBe(true);
  });
});

describe.skipIf(!nativeAssetProofManyPacker())('native asset-proof packer, a batch to a call', () => {
  const many = nativeAssetProofManyPacker()!;
  const node = (proofs[0]!.proof as string[])[0]!;
  // Items it packs and items it declines, in runs of both lengths, inside a response.
  const items = [
    ...proofs,
    { ...proofs[0], root: 'not base58 0OIl' },
    ...proofs,
    { ...proofs[1], tree_id: 'a"b' },
    { ...proofs[0], proof: [node, 5] },
    ...proofs,
    { ...proofs[0], leaf: 'é' },
  ];
  const text = enc.encode(JSON.stringify({ result: items }));
  const starts = [...Buffer.from(text).toString('latin1').matchAll(/\{"root"/g)].map((m) => m.index);
  const table = new Uint32Array(4 * items.length);
  items.forEach((x, i) => {
    table[4 * i + 2] = starts[i]!;
    table[4 * i + 3] = starts[i]! + enc.encode(JSON.stringify(x)).length;
  });

  it('writes the batch, ids and lengths one call per item writes, and stops at each item it declines', () => {
    const one = new BatchWriter(items.length, 64);
    const idOne = Uint32Array.of(0, 0, 0);
    const idsOne = new Uint8Array(44 * items.length);
    const lensOne = new Uint32Array(items.length);
    const all = new BatchWriter(items.length, 64);
    const idAll = Uint32Array.of(0, 0, 0);
    const idsAll = new Uint8Array(44 * items.length);
    const lensAll = new Uint32Array(items.length);
    const stops: number[] = [];
    for (let i = 0; i < items.length;) {
      const k = many(text, table, i, items.length, all, idAll, idsAll, lensAll);
      i += k;
      if (i === items.length) break;
      // Declined: written another way (the parsed path), as the worker does.
      stops.push(i);
      packItem(spec, items[i], all);
      i++;
    }
    for (let i = 0; i < items.length; i++) {
      if (packer!(text, table[4 * i + 2]!, table[4 * i + 3]!, one, idOne, idsOne)) lensOne[i] = idOne[1]! - idOne[0]!;
      else packItem(spec, items[i], one);
    }
    expect(stops).toEqual([proofs.length, 2 * proofs.length + 1, 2 * proofs.length + 2, items.length - 1]);
    // The buffers' sizes differ (they grow differently): the bytes written are the same.
    expect(all.length).toBe(one.length);
    expect(Buffer.from(all.finish(), 0, all.length)).toEqual(Buffer.from(one.finish(), 0, one.length));
    expect(idAll[2]).toBe(idOne[2]);
    expect(Buffer.from(idsAll)).toEqual(Buffer.from(idsOne));
    expect([...lensAll]).toEqual([...lensOne]);
  });

  it('stops, packing nothing, at an item outside the text or a record with no room; names a bad argument', () => {
    const fn = loadNative()!.packAssetProofJsonMany!;
    const bad = table.slice(0, 8);
    bad[3] = text.length + 1;
    const w = new BatchWriter(2, 64);
    expect(many(text, bad, 0, 2, w, Uint32Array.of(0, 0, 0), new Uint8Array(88), new Uint32Array(2))).toBe(0);
    expect(w.records).toBe(0);
    // Room for the header and half a record.
    const out = new Uint8Array(16 + 40);
    expect(fn(text, table, 0, 1, out, Uint32Array.of(16, 0), Uint32Array.of(0, 0, 0), new Uint8Array(44), new Uint32Array(1))).toBe(0);
    const at = Uint32Array.of(0, 0);
    const id = Uint32Array.of(0, 0, 0);
    expect(() => fn(text, table, 0, items.length + 1, out, at, id, new Uint8Array(44), new Uint32Array(99))).toThrow(/"from", "to"/);
    expect(() => fn(text, table, 0, 1, out, new Uint32Array(1), id, new Uint8Array(44), new Uint32Array(1))).toThrow(/"at"/);
    expect(() => fn(text, table, 0, 1, out, at, new Uint32Array(2), new Uint8Array(44), new Uint32Array(1))).toThrow(/"id"/);
    expect(() => fn(text, table, 0, 2, out, at, id, new Uint8Array(44), new Uint32Array(1))).toThrow(/"idLens"/);
  });
});

describe('asset-proof bytes in, end to end', () => {
  const inline = createVerifier({ threads: 0, jsonParseBelow: 0 });
  const pooled = createVerifier({ threads: 2, jsonParseBelow: 0 });
  afterAll(async () => {
    await inline.close();
    await pooled.close();
  });

  it('plain, declined and broken items mixed: the parsed verdicts and ids', async () => {
    const node = (p0.proof as string[])[0]!;
    const items = [
      ...proofs,
      { ...p0, node_index: 0 },
      { ...p0, node_index: 1.5 },
      { ...p0, proof: [node, 5] },
      { ...p0, proof: new Array(65).fill(node) },
      { ...p0, root: 'not base58 0OIl' },
      { ...p0, leaf: 'é' },
      { ...p0, burnt: true },
      null,
      { ...p0, proof: (p0.proof as string[]).slice(1) },
      { ...p0, node_index: Number(p0.node_index) + 1 },
    ];
    const want = await outcome(inline.verify('asset-proof', items));
    expect(want).toHaveProperty('ok');
    // Keys of every kind: plain, escaped, not ASCII, longer than any leaf, empty.
    const keys = (i: number): string => [`k${i}`, `k"${i}`, `k-é-${i}`, `${'K'.repeat(60)}${i}`, i === 3 ? '' : `k${i}\\`][i % 5]!;
    const texts = [JSON.stringify(items), JSON.stringify(items, null, 1), JSON.stringify(Object.fromEntries(items.map((x, i) => [`k${i}`, x])))];
    texts.push(JSON.stringify(Object.fromEntries(items.map((x, i) => [keys(i), x]))));
    for (const text of texts) {
      const keyed = text.startsWith('{');
      const expected = keyed ? await outcome(inline.verify('asset-proof', JSON.parse(text))) : want;
      expect(await outcome(inline.verify('asset-proof', Buffer.from(text))), text.slice(0, 40)).toEqual(expected);
      expect(await outcome(pooled.verify('asset-proof', Buffer.from(text))), text.slice(0, 40)).toEqual(expected);
    }
  });
});
