/**
 * Reading a validity-proof response (`getValidityProof`, v1 or v2 shape) into the entries its proof
 * is about — accounts in state trees, new addresses in address trees — and its proof bytes, every
 * structural problem a `ValidityStructureError` naming the field.
 */
import { base58Bytes } from '../../solana/index.js';
import { isPlainObject } from '../../assert.js';
import { base58TooLong } from '../../base58-bound.js';
import { CairnError, InputError, InputTooLargeError, ValidityStructureError } from '../../errors/index.js';
import { DEFAULT_MAX_BYTES } from '../input.js';
import { parseJsonLossless } from '../input.js';
import { isScalar } from '../../crypto/index.js';
import type { ValidityOptions } from './validity-types.js';

/** The public Light address trees (v1 and v2 batched): entries on them are new addresses, not accounts. */
export const KNOWN_ADDRESS_TREES: Readonly<Record<string, 2 | 4>> = {
  amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2: 2,
  amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx: 4,
};

/**
 * The public Light v2 (batched, height 32) state trees. The v1 response shape names no tree type, so
 * an account entry on one of these is read as a v2 account (hash-chain public input), else as v1.
 */
const KNOWN_V2_STATE_TREES: ReadonlySet<string> = new Set([
  'bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU',
  'bmt2UxoBxB9xWev4BkLvkGdapsz6sZGkzViPNph7VFi',
  'bmt3ccLd4bqSVZVeCJnH1F6C8jNygAhaDfxDwePyyGb',
  'bmt4d3p1a4YQgk9PeZv5s4DBUmbF5NxqYpk9HGjQsd8',
  'bmt5yU97jC88YXTuSukYHa8Z5Bi2ZDUtmzfkDTA2mG2',
]);

/** An account the proof proves is in its state tree. */
export interface StateEntry {
  root: Uint8Array;
  leaf: Uint8Array;
  tree: string;
  treeType: number;
  leafIndex?: number;
  proveByIndex: boolean;
  field: string;
}
/** A new address the proof proves is not yet in its address tree. */
export interface AddressEntry {
  root: Uint8Array;
  address: Uint8Array;
  tree: string;
  treeType: number;
  field: string;
}

const Malformed = ValidityStructureError;

type Json = Record<string, unknown>;
export const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function fieldBytes(v: unknown, field: string): Uint8Array {
  if (typeof v !== 'string') throw new Malformed(`"${field}": expected a base58 string, got ${v === null ? 'null' : typeof v}`);
  if (base58TooLong(v, 32)) throw new Malformed(`"${field}": expected 32 bytes of base58, got ${v.length} characters`);
  let b: Uint8Array;
  try {
    b = base58Bytes(v);
  } catch {
    throw new Malformed(`"${field}": not valid base58`);
  }
  if (b.length !== 32) throw new Malformed(`"${field}": expected 32 bytes, got ${b.length}`);
  if (!isScalar(b)) throw new Malformed(`"${field}": not below the BN254 scalar field modulus r`);
  return b;
}

function addressBytes(v: unknown, field: string): Uint8Array {
  const b = fieldBytes(v, field);
  if (b[0] !== 0) throw new Malformed(`"${field}": an address must be below 2^248`);
  return b;
}

function intField(v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw new Malformed(`"${field}": expected a non-negative integer`);
  return v;
}

function treeTypeOf(ctx: unknown, field: string): number {
  if (!isPlainObject(ctx)) throw new Malformed(`"${field}": expected an object with treeType and tree`);
  const t = ctx.treeType;
  if (t !== 1 && t !== 2 && t !== 3 && t !== 4) throw new Malformed(`"${field}.treeType": expected 1–4, got ${String(t)}`);
  return t;
}

function treeName(ctx: Json, field: string): string {
  if (typeof ctx.tree !== 'string') throw new Malformed(`"${field}.tree": expected a base58 string`);
  return ctx.tree;
}

/** Proof bytes from a byte array, hex, base64 or base58 string. Empty → null (a redacted proof). */
export function proofBytes(v: unknown, len: number, field: string): Uint8Array | null {
  if (v instanceof Uint8Array) {
    if (v.length === 0) return null;
    if (v.length !== len) throw new Malformed(`"${field}": expected ${len} bytes, got ${v.length}`);
    return v;
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return null;
    if (v.length !== len) throw new Malformed(`"${field}": expected ${len} bytes, got ${v.length}`);
    const out = new Uint8Array(len);
    for (let i = 0; i < len; i++) {
      const x = v[i];
      if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > 255) throw new Malformed(`"${field}[${i}]": expected a byte (0–255)`);
      out[i] = x;
    }
    return out;
  }
  if (typeof v === 'string') {
    if (v.length === 0) return null;
    const h = v.startsWith('0x') ? v.slice(2) : v;
    if (h.length === len * 2 && /^[0-9a-fA-F]+$/.test(h)) return Uint8Array.from(Buffer.from(h, 'hex'));
    if (/^[A-Za-z0-9+/]+={0,2}$/.test(v) && v.length === Math.ceil(len / 3) * 4 && v.endsWith('=') === (len % 3 !== 0)) {
      const b = Buffer.from(v, 'base64');
      if (b.length === len) return Uint8Array.from(b);
    }
    try {
      const b = base58TooLong(v, len) ? null : base58Bytes(v);
      if (b?.length === len) return b;
    } catch {
      /* fall through */
    }
    throw new Malformed(`"${field}": expected ${len} bytes as an array, hex, base64 or base58`);
  }
  throw new Malformed(`"${field}": expected ${len} bytes, got ${v === null ? 'null' : typeof v}`);
}

/**
 * Raw JSON bytes (a `Uint8Array`, `ArrayBuffer` or `SharedArrayBuffer`, as `client.callRaw` returns a
 * body) parsed, integers kept exact; any other input as it is. A proof is a few kilobytes, so it is
 * parsed whole, up to the verifier's byte cap.
 */
function parsedInput(input: unknown): unknown {
  let view: Uint8Array | null = null;
  if (input instanceof Uint8Array) view = input;
  else if (input instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && input instanceof SharedArrayBuffer)) view = new Uint8Array(input);
  if (!view) return input;
  if (view.byteLength > DEFAULT_MAX_BYTES) throw new InputTooLargeError('value', DEFAULT_MAX_BYTES, view.byteLength, 'a validity proof response is a few kilobytes');
  try {
    // Buffer.from reads a SharedArrayBuffer in place, where TextDecoder refuses one.
    return parseJsonLossless(Buffer.from(view.buffer, view.byteOffset, view.byteLength).toString('utf8'));
  } catch (e) {
    if (e instanceof CairnError) throw e;
    throw new InputError('value', `the bytes are not JSON (${e instanceof Error ? e.message : String(e)})`, { cause: e });
  }
}

/** Peel `{jsonrpc, result}` and `{context, value}` wrappers (parsing raw JSON bytes first). */
export function unwrap(input: unknown): Json {
  let cur = parsedInput(input);
  for (let i = 0; i < 3 && isPlainObject(cur); i++) {
    if ('result' in cur && isPlainObject(cur.result)) cur = cur.result;
    else if ('value' in cur && 'context' in cur && (isPlainObject(cur.value) || cur.value === null)) cur = cur.value;
    else break;
  }
  if (!isPlainObject(cur)) throw new InputError('value', 'expected a validity proof object (the `value` of getValidityProof)');
  return cur;
}

/** The response's account (state) and new-address entries, in either shape, each checked and named by its field. */
export function parseEntries(v: Json, opts: ValidityOptions): { state: StateEntry[]; addrs: AddressEntry[] } {
  const state: StateEntry[] = [];
  const addrs: AddressEntry[] = [];
  if (Array.isArray(v.roots) || Array.isArray(v.leaves)) {
    // v1 shape: parallel arrays, accounts first then addresses.
    const names = ['roots', 'rootIndices', 'leafIndices', 'leaves', 'merkleTrees'] as const;
    for (const n of names) if (!Array.isArray(v[n])) throw new Malformed(`"${n}": expected an array`);
    const len = (v.roots as unknown[]).length;
    for (const n of names) {
      const l = (v[n] as unknown[]).length;
      if (l !== len) throw new Malformed(`"${n}": has ${l} entries but roots has ${len}`);
    }
    const trees = v.merkleTrees as unknown[];
    let nAccounts: number;
    if (opts.request) {
      const h = opts.request.hashes?.length ?? 0;
      const a = opts.request.newAddressesWithTrees?.length ?? 0;
      if (h + a !== len) throw new Malformed(`"roots": the request asked for ${h} accounts and ${a} addresses but the response has ${len} entries`);
      nAccounts = h;
    } else {
      const extra = new Set(opts.addressTrees ?? []);
      const isAddr = trees.map((t) => typeof t === 'string' && (t in KNOWN_ADDRESS_TREES || extra.has(t)));
      nAccounts = isAddr.indexOf(true);
      if (nAccounts < 0) nAccounts = len;
      if (isAddr.slice(nAccounts).includes(false)) throw new Malformed('"merkleTrees": an account entry follows an address entry (accounts come first); pass `request` to split them');
    }
    for (let i = 0; i < len; i++) {
      const tree = trees[i];
      if (typeof tree !== 'string') throw new Malformed(`"merkleTrees[${i}]": expected a base58 string`);
      intField((v.rootIndices as unknown[])[i], `rootIndices[${i}]`);
      const leafIndex = intField((v.leafIndices as unknown[])[i], `leafIndices[${i}]`);
      const root = fieldBytes((v.roots as unknown[])[i], `roots[${i}]`);
      if (i < nAccounts) {
        state.push({ root, leaf: fieldBytes((v.leaves as unknown[])[i], `leaves[${i}]`), tree, treeType: KNOWN_V2_STATE_TREES.has(tree) ? 3 : 1, leafIndex, proveByIndex: false, field: `leaves[${i}]` });
      } else {
        addrs.push({ root, address: addressBytes((v.leaves as unknown[])[i], `leaves[${i}]`), tree, treeType: KNOWN_ADDRESS_TREES[tree] ?? 2, field: `leaves[${i}]` });
      }
    }
    return { state, addrs };
  }
  if (Array.isArray(v.accounts) || Array.isArray(v.addresses)) {
    const accounts = v.accounts ?? [];
    const addresses = v.addresses ?? [];
    if (!Array.isArray(accounts)) throw new Malformed('"accounts": expected an array');
    if (!Array.isArray(addresses)) throw new Malformed('"addresses": expected an array');
    accounts.forEach((a, i) => {
      const f = `accounts[${i}]`;
      if (!isPlainObject(a)) throw new Malformed(`"${f}": expected an object`);
      const treeType = treeTypeOf(a.merkleContext, `${f}.merkleContext`);
      if (treeType !== 1 && treeType !== 3) throw new Malformed(`"${f}.merkleContext.treeType": ${treeType} is an address tree, not a state tree`);
      const ri = a.rootIndex;
      const proveByIndex = isPlainObject(ri) && ri.proveByIndex === true;
      if (isPlainObject(ri)) intField(ri.rootIndex, `${f}.rootIndex.rootIndex`);
      else if (ri !== undefined) intField(ri, `${f}.rootIndex`);
      state.push({
        root: proveByIndex ? new Uint8Array(32) : fieldBytes(a.root, `${f}.root`),
        leaf: fieldBytes(a.hash, `${f}.hash`),
        tree: treeName(a.merkleContext as Json, `${f}.merkleContext`),
        treeType,
        leafIndex: intField(a.leafIndex, `${f}.leafIndex`),
        proveByIndex,
        field: `${f}.hash`,
      });
    });
    addresses.forEach((a, i) => {
      const f = `addresses[${i}]`;
      if (!isPlainObject(a)) throw new Malformed(`"${f}": expected an object`);
      const treeType = treeTypeOf(a.merkleContext, `${f}.merkleContext`);
      if (treeType !== 2 && treeType !== 4) throw new Malformed(`"${f}.merkleContext.treeType": ${treeType} is a state tree, not an address tree`);
      if (a.rootIndex !== undefined) intField(a.rootIndex, `${f}.rootIndex`);
      addrs.push({
        root: fieldBytes(a.root, `${f}.root`),
        address: addressBytes(a.address, `${f}.address`),
        tree: treeName(a.merkleContext as Json, `${f}.merkleContext`),
        treeType,
        field: `${f}.address`,
      });
    });
    return { state, addrs };
  }
  throw new Malformed('"value": expected roots/leaves (v1 shape) or accounts/addresses (v2 shape)');
}
