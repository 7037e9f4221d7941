/**
 * Validity proofs (`getValidityProof`): one Groth16 proof that a set of compressed accounts is in
 * their state trees and a set of new addresses is not yet in their address trees. This module checks
 * the response's structure, rebuilds the circuit's public inputs from it, and runs the pairing check
 * against the shipped verifying-key sets, naming the set that verified the proof.
 *
 * Public inputs (docs/hashing.md §5): v1 trees (height 26) take them flat — inclusion
 * `[roots…, leaves…]`, non-inclusion `[addressRoots…, addresses…]`, combined both in that order. v2
 * trees (heights 32/40) take one Poseidon hash: `h = P(root₀, leaf₀)`, then `h = P(h, rootᵢ, leafᵢ)`;
 * combined = `P(inclusionChain, nonInclusionChain)`. Accounts marked `proveByIndex` are proven by the
 * program from its queue, not by the proof, and are left out.
 *
 * Both response shapes are read: v1 `{compressedProof, roots, rootIndices, leafIndices, leaves,
 * merkleTrees}` (account entries first, then address entries, as the indexer concatenates them) and
 * v2 `{compressedProof, accounts[{hash, root, rootIndex, leafIndex, merkleContext}], addresses[{address,
 * root, rootIndex, merkleContext}]}`. The proof bytes are `a` = compressed −A (32), `b` = compressed
 * B (64), `c` = compressed C (32), as byte arrays, hex, base64 or base58.
 */
import bs58 from 'bs58';
import { base58TooLong } from '../base58-bound.js';
import { CairnError, ErrorCodes, InputError } from '../errors.js';
import { bn254WasmIfLoaded } from './bn254-wasm.js';
import { isScalar, PointError } from './bn254-encoding.js';
import { checkPublicInputs, initGroth16, prepareProof, publicInputCount, verifyPrepared, type Groth16Proof, type PreparedProof } from './groth16.js';
import { poseidon } from './hash/poseidon.js';
import { SHIPPED_KEY_SETS, type KeySet } from './keys/index.js';
import { hashCompressedAccount, parseAccountProof, parseCompressedAccount, verifyAccountProof } from './account.js';
import { parseNewAddressProof, verifyNewAddressProof } from './address.js';
import type { Verdict } from './verdict.js';

/** What `verifyValidityProof` returns. */
export interface ValidityVerdict extends Verdict {
  /**
   * `verified` (valid: a key set verified the proof), `not-verified` (well formed, no key set
   * verified it), `proof-absent` (structure valid, the response carries no proof bytes),
   * `structure-valid` (`structureOnly` was asked), `nothing-to-prove` (no account or address needs
   * the proof), `malformed` (a structural check failed; `reason` names the field).
   */
  status: 'verified' | 'not-verified' | 'proof-absent' | 'structure-valid' | 'nothing-to-prove' | 'malformed';
  /** The circuit the response calls for, e.g. `v1_inclusion_26_2` or `v2_combined_32_40_1_1`. */
  circuit?: string;
  /** Version label of the key set that verified the proof. */
  keySet?: string;
  /** Version labels of the key sets tried (when none verified). */
  tried?: string[];
  /** The public inputs, 32-byte big-endian hex. */
  publicInputs?: string[];
}

export interface ValidityOptions {
  /** Key sets to try, in order (default: every shipped set, newest first). */
  keySets?: readonly KeySet[];
  /** Pairing backend (default 'auto': mcl when loaded). */
  backend?: 'auto' | 'mcl' | 'noble';
  /**
   * The request the response answers. With it the v1 shape splits exactly: its first
   * `hashes.length` entries are accounts, the rest new addresses.
   */
  request?: { hashes?: readonly string[]; newAddressesWithTrees?: readonly { address: string; tree: string }[] };
  /** Extra base58 address trees for splitting the v1 shape without `request` (the public ones are known). */
  addressTrees?: readonly string[];
  /** Compressed accounts (as the indexer returns them): each must re-hash to one of the proof's leaves. */
  accounts?: readonly unknown[];
  /** `getCompressedAccountProof` values: each path must verify and end at the proof's root for that leaf. */
  accountProofs?: readonly unknown[];
  /** `getMultipleNewAddressProofs` items: each must verify and end at the proof's root for that address. */
  addressProofs?: readonly unknown[];
  /** Check structure only; never run the pairing. */
  structureOnly?: boolean;
  /** Echoed as `verdict.id`. */
  id?: string;
}

/** The public Light address trees (v1 and v2 batched): entries on them are new addresses, not accounts. */
export const KNOWN_ADDRESS_TREES: Readonly<Record<string, 2 | 4>> = {
  amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2: 2,
  amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx: 4,
};

interface StateEntry {
  root: Uint8Array;
  leaf: Uint8Array;
  tree: string;
  treeType: number;
  leafIndex?: number;
  proveByIndex: boolean;
  field: string;
}
interface AddressEntry {
  root: Uint8Array;
  address: Uint8Array;
  tree: string;
  treeType: number;
  field: string;
}

/**
 * A structural failure of a validity-proof response; `context.field` names the field. The verifiers
 * turn it into a `malformed` verdict; `validityPublicInputs` lets it escape.
 */
export class ValidityStructureError extends CairnError<{ field: string }> {
  constructor(message: string) {
    super(ErrorCodes.MERKLE_INVALID_INPUT, message, { context: { field: /^"([^"]+)"/.exec(message)?.[1] ?? 'value' } });
  }
}
const Malformed = ValidityStructureError;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

function fieldBytes(v: unknown, field: string): Uint8Array {
  if (typeof v !== 'string') throw new Malformed(`"${field}": expected a base58 string, got ${v === null ? 'null' : typeof v}`);
  if (base58TooLong(v, 32)) throw new Malformed(`"${field}": expected 32 bytes of base58, got ${v.length} characters`);
  let b: Uint8Array;
  try {
    b = bs58.decode(v);
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
  if (!isObj(ctx)) throw new Malformed(`"${field}": expected an object with treeType and tree`);
  const t = ctx.treeType;
  if (t !== 1 && t !== 2 && t !== 3 && t !== 4) throw new Malformed(`"${field}.treeType": expected 1–4, got ${String(t)}`);
  return t;
}

function treeName(ctx: Json, field: string): string {
  if (typeof ctx.tree !== 'string') throw new Malformed(`"${field}.tree": expected a base58 string`);
  return ctx.tree;
}

/** Proof bytes from a byte array, hex, base64 or base58 string. Empty → null (a redacted proof). */
function proofBytes(v: unknown, len: number, field: string): Uint8Array | null {
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
      const b = base58TooLong(v, len) ? null : bs58.decode(v);
      if (b?.length === len) return b;
    } catch {
      /* fall through */
    }
    throw new Malformed(`"${field}": expected ${len} bytes as an array, hex, base64 or base58`);
  }
  throw new Malformed(`"${field}": expected ${len} bytes, got ${v === null ? 'null' : typeof v}`);
}

/** Peel `{jsonrpc, result}` and `{context, value}` wrappers. */
function unwrap(input: unknown): Json {
  let cur = input;
  for (let i = 0; i < 3 && isObj(cur); i++) {
    if ('result' in cur && isObj(cur.result)) cur = cur.result;
    else if ('value' in cur && 'context' in cur && (isObj(cur.value) || cur.value === null)) cur = cur.value;
    else break;
  }
  if (!isObj(cur)) throw new InputError('value', 'expected a validity proof object (the `value` of getValidityProof)');
  return cur;
}

function parseEntries(v: Json, opts: ValidityOptions): { state: StateEntry[]; addrs: AddressEntry[] } {
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
        state.push({ root, leaf: fieldBytes((v.leaves as unknown[])[i], `leaves[${i}]`), tree, treeType: 1, leafIndex, proveByIndex: false, field: `leaves[${i}]` });
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
      if (!isObj(a)) throw new Malformed(`"${f}": expected an object`);
      const treeType = treeTypeOf(a.merkleContext, `${f}.merkleContext`);
      if (treeType !== 1 && treeType !== 3) throw new Malformed(`"${f}.merkleContext.treeType": ${treeType} is an address tree, not a state tree`);
      const ri = a.rootIndex;
      const proveByIndex = isObj(ri) && ri.proveByIndex === true;
      if (isObj(ri)) intField(ri.rootIndex, `${f}.rootIndex.rootIndex`);
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
      if (!isObj(a)) throw new Malformed(`"${f}": expected an object`);
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

/** Two-input hash chain: `P(a₀, b₀)`, then `P(h, aᵢ, bᵢ)`. */
function hashChain(a: readonly Uint8Array[], b: readonly Uint8Array[]): Uint8Array {
  let h = poseidon([a[0]!, b[0]!]);
  for (let i = 1; i < a.length; i++) h = poseidon([h, a[i]!, b[i]!]);
  return h;
}

/**
 * The circuit and public inputs for a set of state entries (accounts) and address entries: v1 flat
 * `[roots…, leaves…, addressRoots…, addresses…]`, v2 one Poseidon hash-chain input. Throws
 * `ValidityStructureError` when v1 and v2 trees are mixed.
 *
 * @example
 * validityPublicInputs([{ root, leaf, treeType: 1 }], []); // { circuit: 'v1_inclusion_26_1', version: 1, inputs: [root, leaf] }
 */
export function validityPublicInputs(
  state: readonly { root: Uint8Array; leaf: Uint8Array; treeType: number }[],
  addrs: readonly { root: Uint8Array; address: Uint8Array; treeType: number }[],
): { circuit: string; version: 1 | 2; inputs: Uint8Array[] } {
  const versions = new Set([...state.map((s) => (s.treeType === 3 ? 2 : 1)), ...addrs.map((a) => (a.treeType === 4 ? 2 : 1))]);
  if (versions.size > 1) {
    throw new Malformed('"merkleContext.treeType": v1 trees (height 26) and v2 trees (heights 32/40) are mixed; no circuit proves both');
  }
  const version = versions.has(2) ? 2 : 1;
  const n = state.length;
  const m = addrs.length;
  const roots = state.map((s) => s.root);
  const leaves = state.map((s) => s.leaf);
  const aRoots = addrs.map((a) => a.root);
  const addresses = addrs.map((a) => a.address);
  if (version === 1) {
    const circuit = m === 0 ? `v1_inclusion_26_${n}` : n === 0 ? `v1_non_inclusion_26_${m}` : `v1_combined_26_26_${n}_${m}`;
    return { circuit, version, inputs: [...roots, ...leaves, ...aRoots, ...addresses] };
  }
  if (m === 0) return { circuit: `v2_inclusion_32_${n}`, version, inputs: [hashChain(roots, leaves)] };
  if (n === 0) return { circuit: `v2_non_inclusion_40_${m}`, version, inputs: [hashChain(aRoots, addresses)] };
  return { circuit: `v2_combined_32_40_${n}_${m}`, version, inputs: [poseidon([hashChain(roots, leaves), hashChain(aRoots, addresses)])] };
}

const eq = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);

/** The optional cross-checks against accounts and their Merkle / address proofs. */
function crossCheck(state: readonly StateEntry[], addrs: readonly AddressEntry[], opts: ValidityOptions): void {
  (opts.accounts ?? []).forEach((item, i) => {
    const f = `accounts[${i}]`;
    let computed: Uint8Array;
    let claimedIndex: number;
    try {
      const claim = parseCompressedAccount(item);
      computed = hashCompressedAccount(claim);
      claimedIndex = claim.leafIndex;
    } catch (e) {
      throw new Malformed(`"${f}": ${e instanceof Error ? e.message : String(e)}`);
    }
    const entry = state.find((s) => eq(s.leaf, computed));
    if (!entry) throw new Malformed(`"${f}": the hash recomputed from the account's fields (${bs58.encode(computed)}) is not among the proof's leaves`);
    if (entry.leafIndex !== undefined && entry.leafIndex !== claimedIndex) {
      throw new Malformed(`"${entry.field}": leaf index ${entry.leafIndex} differs from the account's leafIndex ${claimedIndex}`);
    }
  });
  (opts.accountProofs ?? []).forEach((item, i) => {
    const f = `accountProofs[${i}]`;
    let v: Verdict;
    let p: ReturnType<typeof parseAccountProof>;
    try {
      p = parseAccountProof(item);
      v = verifyAccountProof(p);
    } catch (e) {
      throw new Malformed(`"${f}": ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!v.valid) throw new Malformed(`"${f}": ${v.reason ?? 'invalid'}`);
    const entry = state.find((s) => eq(s.leaf, p.hash));
    if (!entry) throw new Malformed(`"${f}": its hash is not among the proof's leaves`);
    if (!entry.proveByIndex && !eq(entry.root, p.root)) throw new Malformed(`"${entry.field}": its root differs from the root its account proof recomputes`);
  });
  (opts.addressProofs ?? []).forEach((item, i) => {
    const f = `addressProofs[${i}]`;
    let v: Verdict;
    let p: ReturnType<typeof parseNewAddressProof>;
    try {
      p = parseNewAddressProof(item);
      v = verifyNewAddressProof(p);
    } catch (e) {
      throw new Malformed(`"${f}": ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!v.valid) throw new Malformed(`"${f}": ${v.reason ?? 'invalid'}`);
    const entry = addrs.find((a) => eq(a.address, p.address));
    if (!entry) throw new Malformed(`"${f}": its address is not among the proof's addresses`);
    if (!eq(entry.root, p.root)) throw new Malformed(`"${entry.field}": its root differs from the root its address proof recomputes`);
  });
}

function verdict(id: string | undefined, v: Omit<ValidityVerdict, 'id'>): ValidityVerdict {
  return id === undefined ? v : { id, ...v };
}

/**
 * Verify a validity proof synchronously with whatever backend is loaded in this thread (mcl after
 * `initGroth16()`, else the portable one). Value problems give a `malformed` verdict naming the
 * field; an input that is not an object at all throws `InputError`.
 *
 * @example
 * await initGroth16();
 * verifyValidityProofSync(response.result.value).keySet; // 'light-protocol@8ddf06ba'
 */
export function verifyValidityProofSync(value: unknown, opts: ValidityOptions = {}): ValidityVerdict {
  const id = opts.id;
  const v = unwrap(value);
  const keySets = opts.keySets ?? SHIPPED_KEY_SETS;
  let circuit: string | undefined;
  try {
    const { state, addrs } = parseEntries(v, opts);
    crossCheck(state, addrs, opts);
    const proven = state.filter((s) => !s.proveByIndex);
    if (proven.length === 0 && addrs.length === 0) {
      return verdict(id, {
        valid: false,
        status: 'nothing-to-prove',
        reason: state.length ? 'every account is proven by index; the proof covers nothing' : 'the response names no account and no address',
      });
    }
    const pub = validityPublicInputs(proven, addrs);
    circuit = pub.circuit;
    const publicInputs = pub.inputs.map(hex);
    const arity = pub.inputs.length;
    const sized = keySets.filter((ks) => {
      const k = ks.get(pub.circuit);
      return k !== undefined && publicInputCount(k) === arity;
    });
    if (sized.length === 0) {
      throw new Malformed(
        `"value": no ${pub.version === 1 ? 'v1' : 'v2'} circuit proves ${proven.length} account(s) and ${addrs.length} address(es) (no key ${pub.circuit} with ${arity} public inputs in ${keySets.map((k) => k.version).join(', ') || 'the given key sets'})`,
      );
    }
    checkPublicInputs(pub.inputs, arity);

    const cp = v.compressedProof;
    const parts = cp === null || cp === undefined ? null : isObj(cp) ? cp : undefined;
    if (parts === undefined) throw new Malformed('"compressedProof": expected { a, b, c } or null');
    const a = parts ? proofBytes(parts.a, 32, 'compressedProof.a') : null;
    const b = parts ? proofBytes(parts.b, 64, 'compressedProof.b') : null;
    const c = parts ? proofBytes(parts.c, 32, 'compressedProof.c') : null;
    if (!a && !b && !c) {
      return verdict(id, { valid: false, status: 'proof-absent', reason: 'structure valid, proof bytes absent', circuit, publicInputs });
    }
    if (!a || !b || !c) throw new Malformed(`"compressedProof.${!a ? 'a' : !b ? 'b' : 'c'}": empty while the other parts are present`);
    const proof: Groth16Proof = { a, b, c };
    let pp: PreparedProof;
    try {
      pp = prepareProof(proof, { backend: opts.backend ?? 'auto' });
    } catch (e) {
      if (e instanceof PointError) throw new Malformed(`"compressedProof.${e.context.field.slice('proof.'.length)}": ${e.message.replace(/^"[^"]*": /, '')}`);
      throw e;
    }
    if (opts.structureOnly) {
      return verdict(id, { valid: false, status: 'structure-valid', reason: 'structure valid; the pairing check was not run (structureOnly)', circuit, publicInputs });
    }
    const tried: string[] = [];
    for (const ks of sized) {
      tried.push(ks.version);
      if (verifyPrepared(pp, pub.inputs, ks.get(pub.circuit)!)) {
        return verdict(id, { valid: true, status: 'verified', circuit, keySet: ks.version, publicInputs });
      }
    }
    return verdict(id, {
      valid: false,
      status: 'not-verified',
      reason: `no key set verified it (tried ${pub.circuit} in ${tried.join(', ')})`,
      circuit,
      tried,
      publicInputs,
    });
  } catch (e) {
    if (e instanceof Malformed) return verdict(id, { valid: false, status: 'malformed', reason: e.message, ...(circuit ? { circuit } : {}) });
    if (e instanceof PointError) return verdict(id, { valid: false, status: 'malformed', reason: e.message, ...(circuit ? { circuit } : {}) });
    throw e;
  }
}

/**
 * Verify a `getValidityProof` value (bare, `{context, value}` or a whole JSON-RPC response). Returns
 * the verdict directly when the fast backend is already loaded (or not needed), else a promise that
 * loads it first; `await` works on both.
 *
 * @example
 * const v = await verifyValidityProof(json);
 * if (v.valid) console.log(`verified by ${v.keySet} (${v.circuit})`);
 * else console.log(v.status, v.reason);
 */
export function verifyValidityProof(value: unknown, opts: ValidityOptions = {}): Promise<ValidityVerdict> | ValidityVerdict {
  const backend = opts.backend ?? 'auto';
  if (opts.structureOnly || backend === 'noble' || bn254WasmIfLoaded()) return verifyValidityProofSync(value, opts);
  return initGroth16().then(() => verifyValidityProofSync(value, opts));
}
