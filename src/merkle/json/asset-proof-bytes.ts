/**
 * `packAssetProofBytes`: a getAssetProof item packed straight from its JSON text, without `JSON.parse`
 * or a single string: the worker copies the base58 texts of `root`, `leaf` and the proof nodes into
 * the batch record and reads `node_index`, exactly as kinds.ts's asset-proof `pack` would have from
 * the parsed item. Parsing made ~2.5 KB of garbage per proof (the item's text, an object and ~25
 * strings), and its collection, which helper threads do for free at one worker, lands on the workers
 * themselves when every core verifies.
 *
 * Only the plain shape is read here — the four members once each (and `tree_id`), strings without
 * escapes or non-ASCII bytes, a proof of at most 64 nodes, a positive integer written as digits.
 * Anything else (an unknown member, a duplicate, `1.0`, an escape, a bad value) returns false and the
 * caller takes the parsed path, which gives the verdict or the error. The text is valid JSON: the
 * main thread's scan checked all of it.
 */
import type { BatchWriter } from '../codec.js';

/** Proof nodes' byte ranges (start, end) of the item being read. */
const nodes = new Int32Array(2 * 64);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

const isWs = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/** The member a key names: 1 root, 2 leaf, 4 proof, 8 node_index, 16 tree_id, 0 any other. */
function member(s: Uint8Array, a: number, b: number): number {
  const n = b - a;
  const c = s[a];
  if (n === 4 && c === 0x72 && s[a + 1] === 0x6f && s[a + 2] === 0x6f && s[a + 3] === 0x74) return 1; // root
  if (n === 4 && c === 0x6c && s[a + 1] === 0x65 && s[a + 2] === 0x61 && s[a + 3] === 0x66) return 2; // leaf
  if (n === 5 && c === 0x70 && s[a + 1] === 0x72 && s[a + 2] === 0x6f && s[a + 3] === 0x6f && s[a + 4] === 0x66) return 4; // proof
  if (n === 10 && c === 0x6e && String.fromCharCode(...s.subarray(a, b)) === 'node_index') return 8;
  if (n === 7 && c === 0x74 && String.fromCharCode(...s.subarray(a, b)) === 'tree_id') return 16;
  return 0;
}

/**
 * The string starting at `s[i] === '"'`: the index after its closing quote, or -1 when it holds an
 * escape or a byte outside ASCII (`ascii`; any byte is fine otherwise).
 */
function plainString(s: Uint8Array, i: number, b: number, ascii: boolean): number {
  if (s[i] !== QUOTE) return -1;
  for (let j = i + 1; j < b; j++) {
    const c = s[j]!;
    if (c === QUOTE) return j + 1;
    if (c === BACKSLASH || (ascii && c >= 0x80)) return -1;
  }
  return -1;
}

/**
 * Pack the item `s[a..b)` as a record of `w` if it has the plain shape (see above); its leaf's byte
 * range (the item's id) goes to `id`. False, with nothing written, for any other text.
 *
 * @example
 * if (!packAssetProofBytes(response, start, end, writer, id)) packItem(spec, JSON.parse(text), writer);
 */
export function packAssetProofBytes(s: Uint8Array, a: number, b: number, w: BatchWriter, id: Int32Array): boolean {
  let i = a;
  while (i < b && isWs(s[i]!)) i++;
  if (s[i] !== 0x7b) return false;
  i++;
  let seen = 0;
  let root = 0;
  let rootEnd = 0;
  let leaf = 0;
  let leafEnd = 0;
  let k = 0;
  let index = 0;
  for (;;) {
    while (i < b && isWs(s[i]!)) i++;
    const keyEnd = plainString(s, i, b, true);
    if (keyEnd < 0) return false;
    const m = member(s, i + 1, keyEnd - 1);
    if (m === 0 || seen & m) return false;
    seen |= m;
    i = keyEnd;
    while (i < b && isWs(s[i]!)) i++;
    if (s[i] !== 0x3a) return false;
    i++;
    while (i < b && isWs(s[i]!)) i++;
    if (m === 1 || m === 2 || m === 16) {
      const end = plainString(s, i, b, m !== 16);
      if (end < 0) return false;
      if (m === 1) (root = i + 1), (rootEnd = end - 1);
      else if (m === 2) (leaf = i + 1), (leafEnd = end - 1);
      i = end;
    } else if (m === 4) {
      if (s[i] !== 0x5b) return false;
      i++;
      while (i < b && isWs(s[i]!)) i++;
      if (s[i] === 0x5d) i++;
      else {
        for (;;) {
          const end = plainString(s, i, b, true);
          if (end < 0 || k === 64 || end - i - 2 > 255) return false;
          nodes[2 * k] = i + 1;
          nodes[2 * k + 1] = end - 1;
          k++;
          i = end;
          while (i < b && isWs(s[i]!)) i++;
          if (s[i] === 0x2c) {
            i++;
            while (i < b && isWs(s[i]!)) i++;
            continue;
          }
          if (s[i] !== 0x5d) return false;
          i++;
          break;
        }
      }
    } else {
      // node_index: a positive integer of at most 15 digits (a safe integer), nothing else.
      const start = i;
      if (s[i]! < 0x31 || s[i]! > 0x39) return false;
      while (i < b && s[i]! >= 0x30 && s[i]! <= 0x39) index = index * 10 + (s[i++]! - 0x30);
      if (i - start > 15 || s[i] === 0x2e || s[i] === 0x65 || s[i] === 0x45) return false;
    }
    while (i < b && isWs(s[i]!)) i++;
    if (s[i] === 0x2c) {
      i++;
      continue;
    }
    if (s[i] !== 0x7d) return false;
    i++;
    break;
  }
  while (i < b && isWs(s[i]!)) i++;
  if (i !== b || (seen & 15) !== 15) return false;
  // asset-proof `pack`'s record: root, leaf, nodes, node_index.
  w.begin();
  w.b58Bytes(s, root, rootEnd);
  w.b58Bytes(s, leaf, leafEnd);
  w.nodesBytes(s, nodes, k);
  w.u64(index);
  id[0] = leaf;
  id[1] = leafEnd;
  return true;
}
