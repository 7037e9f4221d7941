/**
 * The claims of a raw response's items read from its scan (json/ tape), not from a parse of it: for a
 * response handed to an anchored verifier as bytes, the one scan finds the items for the pool and
 * names each one's root and tree for the anchor. Parsing the whole response on the calling thread
 * for that (`JSON.parse`, then base58 twice per item) cost it several times what verifying from the
 * bytes did. What is read here is exactly what `claimsOf` reads of the parsed item: a member is the
 * last of its name (as `JSON.parse` keeps), a string is decoded with its escapes, and the roots the
 * workers verify are those same members (the native packer takes only items whose members are
 * unique; any other item is parsed by `JSON.parse`).
 */
import { ENTRY, F_ESCAPED, T_OBJECT, T_STRING, T_TRUE, type JsonTape } from '../../json/index.js';
import type { KindName } from '../kinds/index.js';
import { b58Hex, claimsOf, type RootClaim } from './claims.js';

/** Kinds whose claims are read here (the others are parsed item by item: see `tapeClaimsOf`). */
const FROM_TAPE = new Set<KindName>(['asset-proof', 'account-proof', 'address-proof']);

/** The value entry of object `e`'s last member `name`, or -1 (`JsonTape.member`, without a string per key). */
function member(t: JsonTape, e: number, name: string): number {
  let found = -1;
  for (let k = e + 1, stop = t.next(e); k < stop; k = t.next(k)) {
    // A plain key is compared as bytes (quotes included in its range); one with an escape, decoded.
    const a = t.start(k);
    if (t.tape[k * ENTRY]! & F_ESCAPED) {
      if (t.string(k) === name) found = k + 1;
    } else if (t.end(k) - a === name.length + 2 && sameText(t.bytes, a + 1, name)) found = k + 1;
  }
  return found;
}

function sameText(b: Uint8Array, at: number, s: string): boolean {
  for (let i = 0; i < s.length; i++) if (b[at + i] !== s.charCodeAt(i)) return false;
  return true;
}

/** Member `name`'s string value, or undefined when it is absent or not a string. */
function str(t: JsonTape, e: number, name: string): string | undefined {
  const v = member(t, e, name);
  return v >= 0 && t.type(v) === T_STRING ? t.string(v) : undefined;
}

/** claims.ts `treeOf`, on the tape. */
function treeOf(t: JsonTape, e: number): string | null {
  const direct = str(t, e, 'merkleTree') ?? str(t, e, 'tree');
  if (direct !== undefined) return direct;
  for (const k of ['treeContext', 'merkleContext']) {
    const c = member(t, e, k);
    if (c >= 0 && t.type(c) === T_OBJECT) {
      const tree = str(t, c, 'tree');
      if (tree !== undefined) return tree;
    }
  }
  return null;
}

/**
 * The claims of the item at entry `e` of `t` (a tape scanned whole, not skimmed), equal to
 * `claimsOf(kind, the item parsed)`; one claim object is shared by every item with the same tree and
 * root (`memo`).
 *
 * @example
 * const claims = found.values.map((e) => tapeClaimsOf('asset-proof', found.tape, e, new Map()));
 */
export function tapeClaimsOf(kind: KindName, t: JsonTape, e: number, memo: Map<string, RootClaim>): RootClaim[] | null {
  if (!FROM_TAPE.has(kind)) return claimsOf(kind, t.value(e));
  if (t.type(e) !== T_OBJECT) return null;
  let tree: string | null | undefined;
  let family: RootClaim['family'];
  if (kind === 'asset-proof') {
    tree = str(t, e, 'tree_id');
    family = 'spl';
  } else {
    const byIndex = member(t, e, 'proveByIndex');
    if (byIndex >= 0 && t.type(byIndex) === T_TRUE) return null;
    tree = treeOf(t, e);
    family = 'light';
  }
  const rootText = str(t, e, 'root');
  if (rootText === undefined || tree === undefined || tree === null) return null;
  const key = `${tree}\n${rootText}`;
  let c = memo.get(key);
  if (!c) {
    const root = b58Hex(rootText);
    if (root === null) return null;
    c = { tree, root, rootText, family, field: 'root' };
    memo.set(key, c);
  }
  return [c];
}
