/**
 * Validity proofs (`getValidityProof`): one Groth16 proof that a set of compressed accounts is in
 * their state trees and a set of new addresses is not yet in their address trees. The response's
 * structure is read by validity-response.ts; this module rebuilds the circuit's public inputs from it,
 * checks any accounts and proofs given with it, and runs the pairing check against the shipped
 * verifying-key sets, naming the set that verified the proof.
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
import { encodeBase58 } from '../../solana/index.js';
import { isPlainObject } from '../../assert.js';
import { bn254WasmIfLoaded, poseidon } from '../../crypto/index.js';
import { PointError, ValidityStructureError } from '../../errors/index.js';
import { checkPublicInputs, initGroth16, prepareProof, publicInputCount, verifyPrepared, type Groth16Proof, type PreparedProof, type VerifyingKey } from './verify.js';
import { resolveKeySets, SHIPPED_KEY_SETS, type KeySet } from './keys/index.js';
import { verifyPreparedBatch } from './batch.js';
import { hashCompressedAccount, TreeType, verifyAccountProof } from '../compressed/account.js';
import { parseAccountProof, parseCompressedAccount } from '../compressed/account-parse.js';
import { parseNewAddressProof, verifyNewAddressProof } from '../compressed/address.js';
import { hex, parseEntries, proofBytes, unwrap, type AddressEntry, type StateEntry } from './validity-response.js';
import type { ValidityOptions, ValidityVerdict } from './validity-types.js';
import type { Verdict } from '../verdict.js';

const Malformed = ValidityStructureError;

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
    let entry: StateEntry | undefined;
    try {
      const claim = parseCompressedAccount(item);
      computed = hashCompressedAccount(claim);
      claimedIndex = claim.leafIndex;
      entry = state.find((s) => eq(s.leaf, computed));
      // The V1 shape names no treeType; its account may sit in a v2 tree (compressed/account.ts verifyAccountHash).
      if (!entry && claim.treeType === undefined) {
        const v2 = hashCompressedAccount({ ...claim, treeType: TreeType.StateV2 });
        entry = state.find((s) => eq(s.leaf, v2));
      }
    } catch (e) {
      throw new Malformed(`"${f}": ${e instanceof Error ? e.message : String(e)}`);
    }
    if (!entry) throw new Malformed(`"${f}": the hash recomputed from the account's fields (${encodeBase58(computed)}) is not among the proof's leaves`);
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
    // A V2 account still queued has no path to check: its proof and its entry must both say so.
    if (p.proveByIndex) {
      const queued = state.find((s) => eq(s.leaf, p.hash));
      if (!queued) throw new Malformed(`"${f}": its hash is not among the proof's leaves`);
      if (!queued.proveByIndex) throw new Malformed(`"${queued.field}": proven by its root, but its account proof says proveByIndex (still queued)`);
      return;
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

/** A validity proof whose structure checked out, waiting for its pairing check. */
export interface PendingProof {
  id: string | undefined;
  pp: PreparedProof;
  inputs: Uint8Array[];
  circuit: string;
  publicInputs: string[];
  /** The key sets holding a key for the circuit with the right arity, in the order to try them. */
  sets: KeySet[];
}

/** Everything but the pairing: a final verdict, or the proof ready for its pairing check. */
function startValidity(value: unknown, opts: ValidityOptions): ValidityVerdict | PendingProof {
  const id = opts.id;
  const v = unwrap(value);
  const keySets = opts.keySets ? resolveKeySets(opts.keySets) : SHIPPED_KEY_SETS;
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
    const parts = cp === null || cp === undefined ? null : isPlainObject(cp) ? cp : undefined;
    if (parts === undefined) throw new Malformed('"compressedProof": expected { a, b, c } or null');
    // All-zero bytes are a redaction too (a placeholder of the right length), never a proof.
    const bytesOf = (v: unknown, len: number, f: string): Uint8Array | null => {
      const x = parts ? proofBytes(v, len, f) : null;
      return x && x.some((byte) => byte !== 0) ? x : null;
    };
    const a = bytesOf(parts?.a, 32, 'compressedProof.a');
    const b = bytesOf(parts?.b, 64, 'compressedProof.b');
    const c = bytesOf(parts?.c, 32, 'compressedProof.c');
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
    return { id, pp, inputs: pub.inputs, circuit, publicInputs, sets: sized };
  } catch (e) {
    if (e instanceof Malformed || e instanceof PointError) return verdict(id, { valid: false, status: 'malformed', reason: e.message, ...(circuit ? { circuit } : {}) });
    throw e;
  }
}

/**
 * The pairing check of a pending proof (`failed`: a set known not to verify it). The set that last
 * verified a proof of this circuit on this thread goes first: proofs follow proofs from the same
 * program version, so a proof made under an older key set costs one pairing check, not one per newer
 * set tried before it (the 2024 Light proof: ~3 checks' time with the current set first, ~1 with
 * its own). The verdict names the set as trying them in order would (`firstWithKey`), and `tried`
 * lists them in their order.
 */
function finishValidity(p: PendingProof, failed?: KeySet): ValidityVerdict {
  const { id, circuit, publicInputs } = p;
  const hint = p.sets.find((ks) => ks.version === lastVerified.get(circuit));
  const order = hint && hint !== failed ? [hint, ...p.sets.filter((ks) => ks !== hint)] : p.sets;
  for (const ks of order) {
    if (ks === failed) continue;
    const vk = ks.get(circuit)!;
    if (verifyPrepared(p.pp, p.inputs, vk)) {
      const named = ks === hint ? firstWithKey(p, vk) : ks;
      lastVerified.set(circuit, named.version);
      return verifiedBy(p, named);
    }
  }
  const tried = p.sets.map((ks) => ks.version);
  return verdict(id, {
    valid: false,
    status: 'not-verified',
    reason: `no key set verified this proof (tried ${circuit} in ${tried.join(', ')})`,
    circuit,
    tried,
    publicInputs,
  });
}

const isPending = (x: Verdict | PendingProof): x is PendingProof => 'pp' in x;

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
  const s = startValidity(value, opts);
  return isPending(s) ? finishValidity(s) : s;
}

/**
 * Many validity proofs at once (the verdicts of `verifyValidityProofSync` one by one, `opts[i]` for
 * value i). The proofs of one batch nearly always come from one program version: they are checked
 * together (one final exponentiation for all, batch.ts) against the set that verified the
 * last batch, or the set a first proof checked alone finds; only those that fail it are tried alone
 * against the other sets. Needs the loaded mcl backend for the speed-up; correct without it.
 *
 * @example
 * await initGroth16();
 * const verdicts = verifyValidityProofsSync(responses);
 */
export function verifyValidityProofsSync(values: readonly unknown[], opts: readonly ValidityOptions[] | ValidityOptions = {}): ValidityVerdict[] {
  return verifyValidityProofsGuarded<ValidityVerdict>(values, opts, (fn) => fn());
}

/**
 * `verifyValidityProofsSync` with each item's start (`startValidity`: its structure, its key sets by
 * name) run through `guard`, which may turn an item's error into its verdict (the pooled kind's
 * `decode`): one unusable item then costs the others nothing, where before it sent the whole batch
 * one proof at a time.
 *
 * @knipignore used only through the module kinds/validity-proof.ts loads with import() and keeps in a
 * variable, which knip does not follow
 */
export function verifyValidityProofsGuarded<V extends Verdict>(
  values: readonly unknown[],
  opts: readonly ValidityOptions[] | ValidityOptions,
  guard: (fn: () => ValidityVerdict | PendingProof) => ValidityVerdict | PendingProof | V,
): Array<ValidityVerdict | V> {
  const started = values.map((v, i) => guard(() => startValidity(v, Array.isArray(opts) ? (opts[i] ?? {}) : (opts as ValidityOptions))));
  const pending = started.filter(isPending);
  const done = new Map<PendingProof, ValidityVerdict>();
  /** Check every proof not yet done that `set` may verify together against it; true when one verified. */
  const together = (set: KeySet): boolean => {
    const group = pending.filter((p) => !done.has(p) && p.sets.includes(set));
    const ok = verifyPreparedBatch(group.map((p) => ({ pp: p.pp, inputs: p.inputs, vk: set.get(p.circuit)! })));
    group.forEach((p, k) => done.set(p, ok[k] ? verifiedBy(p, firstWithKey(p, set.get(p.circuit)!)) : finishValidity(p, set)));
    return ok.some(Boolean);
  };
  // Batches follow batches from the same program version: the set that verified the last batch of
  // this circuit is tried first, for all at once. Else (or when some failed it) a pilot: the first
  // proof left alone finds the set that verifies it, and the others are checked together against it.
  const first = pending[0];
  const hint = first?.sets.find((ks) => ks.version === lastVerified.get(first.circuit));
  // A hint that verified none of them is forgotten: the next batch starts with a pilot.
  if (hint && !together(hint)) lastVerified.delete(first!.circuit);
  for (const pilot of pending.filter((p) => !done.has(p)).slice(0, 2)) {
    const v = finishValidity(pilot);
    done.set(pilot, v);
    if (!v.valid) continue;
    const set = pilot.sets.find((ks) => ks.version === v.keySet)!;
    lastVerified.set(pilot.circuit, set.version);
    together(set);
    break;
  }
  for (const p of pending) if (!done.has(p)) done.set(p, finishValidity(p));
  return started.map((s) => (isPending(s) ? done.get(s)! : s));
}

/**
 * The set `verifyValidityProofSync` would name: the first of the proof's sets with this very key (sets
 * of successive versions often share a circuit's key; a proof verifying under two different keys is
 * out of reach).
 */
function firstWithKey(p: PendingProof, vk: VerifyingKey): KeySet {
  const same = (a: Uint8Array, b: Uint8Array): boolean => a.length === b.length && a.every((x, i) => x === b[i]);
  return p.sets.find((s) => {
    const k = s.get(p.circuit)!;
    return (
      k === vk ||
      (same(k.alpha, vk.alpha) &&
        same(k.beta, vk.beta) &&
        same(k.gamma, vk.gamma) &&
        same(k.delta, vk.delta) &&
        k.ic.length === vk.ic.length &&
        k.ic.every((x, i) => same(x, vk.ic[i]!)))
    );
  })!;
}

/** Circuit → version label of the set that last verified a batch's pilot (this thread). */
const lastVerified = new Map<string, string>();

function verifiedBy(p: PendingProof, set: KeySet): ValidityVerdict {
  return verdict(p.id, { valid: true, status: 'verified', circuit: p.circuit, keySet: set.version, publicInputs: p.publicInputs });
}

/**
 * Verify a `getValidityProof(V2)` value (bare, `{context, value}` or a whole JSON-RPC response; parsed,
 * or its raw JSON bytes as `client.callRaw` returns them). Always a promise (it may load the fast
 * backend first); the answer is the same as `verifyValidityProofSync`'s, which answers in line, and
 * bad input rejects with the error that one throws.
 *
 * @example
 * const v = await verifyValidityProof(json);
 * if (v.valid) console.log(`verified by ${v.keySet} (${v.circuit})`);
 * else console.log(v.status, v.reason);
 */
export async function verifyValidityProof(value: unknown, opts: ValidityOptions = {}): Promise<ValidityVerdict> {
  const backend = opts.backend ?? 'auto';
  if (!(opts.structureOnly || backend === 'noble' || bn254WasmIfLoaded())) await initGroth16();
  return verifyValidityProofSync(value, opts);
}
