/**
 * The in-place asset-proof verifier (native/asset_proof_records.c, through merkle/cnft/asset-proof-packer.ts) answers
 * "valid" for a record only when the JS path would: a full proof of depth ≤ 32, packed either by the
 * native JSON packer (decoded) or by `pack` from a parsed item (base58 text), whose path hashes to its
 * root. Everything else — a mismatch, a truncated or deeper proof, text that is not base58 of 32 bytes,
 * another record shape, a broken batch — is left to the JS path (code 0). Proofs here are made up at
 * every depth 0–34 with the JS keccak kernel, in batches that mix depths and both layouts in random
 * order (so the four-lane groups break on every depth change and at odd counts), and mutated at
 * every field.
 */
import bs58 from 'bs58';
import { afterAll, describe, expect, it } from 'vitest';
import { BatchWriter } from '../../src/merkle/records/batch-writer.js';
import { kinds } from '../../src/merkle/kinds/index.js';
import { packItem, verifyBatch } from '../../src/merkle/kinds/verify-batch.js';
import { nativeAssetProofPacker, nativeAssetProofRecords } from '../../src/merkle/cnft/asset-proof-packer.js';
import { keccakPathRoot } from '../../src/crypto/keccak.js';
import { nativeLoadError } from '../../src/addon.js';
import { parseAssetProof, verifyAssetProof } from '../../src/merkle/cnft/asset-proof.js';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';

const spec = kinds['asset-proof'];
const packer = nativeAssetProofPacker();
const inPlace = nativeAssetProofRecords();
const enc = new TextEncoder();

let seed = 11;
const rand = (): number => {
  seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
  return seed / 2 ** 32;
};
const bytes = (n: number): Uint8Array => Uint8Array.from({ length: n }, () => Math.floor(rand() * 256));

/** A made-up proof of `depth` levels, valid unless mutated. */
function proof(depth: number): Record<string, unknown> {
  const leaf = bytes(32);
  const nodes = bytes(32 * depth);
  // Below 2^32 in half the deeper proofs, so both index widths come up.
  const leafIndex = Math.floor(rand() * 2 ** Math.min(depth, 32)) + (depth > 32 ? Math.floor(rand() * 2 ** (depth - 32)) * 2 ** 32 : 0);
  const root = keccakPathRoot(leaf, nodes, leafIndex);
  return {
    root: bs58.encode(root),
    leaf: bs58.encode(leaf),
    proof: Array.from({ length: depth }, (_, k) => bs58.encode(nodes.subarray(32 * k, 32 * k + 32))),
    node_index: 2 ** depth + leafIndex,
    tree_id: bs58.encode(bytes(32)),
  };
}

/** A batch of `items` packed by the native packer, by `pack` (the parsed path's records), or either at random. */
function batch(items: unknown[], how: 'native' | 'parsed' | 'mixed' = 'native'): Uint8Array {
  const w = new BatchWriter(items.length, 256);
  const id = new Uint32Array(3);
  for (const item of items) {
    if (how === 'native' || (how === 'mixed' && rand() < 0.5)) {
      const text = enc.encode(JSON.stringify(item));
      if (packer!(text, 0, text.length, w, id)) continue;
    }
    packItem(spec, item, w);
  }
  return new Uint8Array(w.finish());
}

/** The JS path's verdict for an item: valid or not. */
const jsValid = (item: unknown): boolean => verifyAssetProof(parseAssetProof(item)).valid;

function codes(b: Uint8Array, n: number): Uint8Array | null {
  const out = new Uint8Array(n).fill(9);
  return inPlace!(b, out) ? out : null;
}

describe.skipIf(!packer || !inPlace)(packer && inPlace ? 'asset-proof records verified in place' : `asset-proof records verified in place: SKIPPED (${nativeLoadError() ?? 'keccak is not on its native backend'})`, () => {
  const verifiers: Array<{ close(): Promise<void> }> = [];
  afterAll(async () => {
    await Promise.all(verifiers.map((v) => v.close()));
  });

  it('valid full proofs of every depth 0–32, mixed in random order, are answered valid in either layout; deeper ones are left to JS', () => {
    for (const how of ['native', 'parsed', 'mixed'] as const) {
      // Runs of equal depth too, so groups of four fill up between depth changes.
      const items = Array.from({ length: 400 }, (_, i) => proof(i % 50 < 25 ? 20 : Math.floor(rand() * 35)));
      const got = codes(batch(items, how), items.length)!;
      items.forEach((item, i) => {
        const depth = (item.proof as unknown[]).length;
        expect(jsValid(item), `item ${i}`).toBe(true);
        expect(got[i], `${how} item ${i}, depth ${depth}`).toBe(depth <= 32 ? 1 : 0);
      });
    }
  });

  it('a flipped bit in the root, the leaf, any node or the index is never answered valid', () => {
    const fields = ['root', 'leaf', 'node', 'index'] as const;
    for (let round = 0; round < 60; round++) {
      const items = Array.from({ length: 1 + Math.floor(rand() * 9) }, () => proof(1 + Math.floor(rand() * 31)));
      const k = Math.floor(rand() * items.length);
      const item = items[k]!;
      const field = fields[round % 4]!;
      const flip = (s: string): string => {
        const b = bs58.decode(s);
        b[Math.floor(rand() * 32)]! ^= 1 << Math.floor(rand() * 8);
        return bs58.encode(b);
      };
      const nodes = item.proof as string[];
      if (field === 'root') item.root = flip(item.root as string);
      else if (field === 'leaf') item.leaf = flip(item.leaf as string);
      else if (field === 'node') {
        const j = Math.floor(rand() * nodes.length);
        nodes[j] = flip(nodes[j]!);
      } else {
        // Another leaf index of the same depth (the top bit stays).
        const depth = nodes.length;
        item.node_index = 2 ** depth + (((item.node_index as number) - 2 ** depth) ^ (1 << Math.floor(rand() * depth)));
      }
      const got = codes(batch(items, 'mixed'), items.length)!;
      items.forEach((it, i) => expect(got[i], `round ${round}, ${field}, item ${i}`).toBe(i === k ? 0 : 1));
      expect(jsValid(item)).toBe(false);
    }
  });

  it('records it does not know are left to JS: truncated proofs, a depth the index does not give, text that is not base58 of 32 bytes, failed fields', () => {
    const good = proof(14);
    const truncated = { ...good, proof: (good.proof as string[]).slice(0, 10) };
    const shallow = { ...good, node_index: 2 ** 13 + 5 };
    for (const how of ['native', 'parsed'] as const) expect(Array.from(codes(batch([good, truncated, shallow, good], how), 4)!), how).toEqual([1, 0, 0, 1]);
    // Text only the parsed path packs (the native packer declines it, and it is packed the same way).
    const nodes = good.proof as string[];
    const odd = [
      { ...good, root: 'l' + (good.root as string).slice(1) }, // not in the alphabet
      { ...good, leaf: '1' + (good.leaf as string) }, // 33 bytes
      { ...good, proof: [...nodes.slice(0, 3), nodes[3]!.slice(0, 20), ...nodes.slice(4)] }, // a short node
      { ...good, proof: [...nodes.slice(0, 3), 'x'.repeat(300), ...nodes.slice(4)] }, // long: u32 lengths
      { ...good, proof: [...nodes.slice(0, 3), 'é'.repeat(40), ...nodes.slice(4)] }, // not ASCII
      { ...good, proof: [...nodes.slice(0, 3), 7, ...nodes.slice(4)] }, // not a string: a failed field
      { ...good, node_index: 2 ** 53 + 2 },
      good,
    ];
    expect(Array.from(codes(batch(odd), odd.length)!)).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
    for (const item of odd.slice(0, -2)) expect(() => jsValid(item)).toThrow();
  });

  it('a malformed batch header answers nothing', () => {
    const b = batch([proof(3), proof(3)]);
    const lying = b.slice();
    new DataView(lying.buffer).setUint32(0, 1e6, true);
    expect(codes(lying, 2)).toBeNull();
    expect(codes(b.subarray(0, 6), 2)).toBeNull();
    // Too few code bytes for the batch.
    expect(inPlace!(b, new Uint8Array(1))).toBe(false);
    // A record offset past the end: that record is left to JS, the other still answered.
    const past = b.slice();
    new DataView(past.buffer).setUint32(8, b.length + 100, true);
    expect(Array.from(codes(past, 2)!)).toEqual([0, 0]);
  });

  it('verifyBatch answers as the parsed path does, valid and mutated, and so does verify from bytes on 2 threads', async () => {
    const items: Array<Record<string, unknown>> = Array.from({ length: 3000 }, () => proof(Math.floor(rand() * 34)));
    for (let i = 0; i < items.length; i += 7) items[i]!.root = items[(i + 1) % items.length]!.root;
    // What the JS path alone says of each item.
    const want = items.map((item) => verifyAssetProof(parseAssetProof(item)));
    for (const how of ['native', 'parsed', 'mixed'] as const) {
      const got = verifyBatch('asset-proof', batch(items, how).buffer as ArrayBuffer);
      expect(Array.from(got.valid), how).toEqual(want.map((v) => (v.valid ? 1 : 0)));
      expect(got.extras, how).toEqual(want.flatMap((v, i) => (v.valid ? [] : [[i, v]])));
    }
    const native = verifyBatch('asset-proof', batch(items).buffer as ArrayBuffer);
    expect(native.extras.length).toBeGreaterThan(400);
    const v = createVerifier({ threads: 2 });
    verifiers.push(v);
    const fromBytes = await v.verify('asset-proof', enc.encode(JSON.stringify(items)));
    const fromObjects = await v.verify('asset-proof', items);
    expect(fromBytes).toEqual(fromObjects);
    expect(fromBytes.filter((x) => x.valid).length).toBe(items.length - native.extras.length);
  });
});
