/**
 * `getValidityProof` (v1 shape) and `getValidityProofV2` (v2 shape) over one reading of the request:
 * the accounts by hash and the new addresses with their trees, with the roots, root indices and leaf
 * indices the devnet's trees give. The proof: with a prover (the devnet's default), a real Groth16
 * proof under the `cairn-devnet@1` keys — v1 trees (height 26) and v2 trees (state 32, address 40,
 * one public input: the roots' and values' hash chain) alike, whichever method asks — made on the
 * prover thread from the Merkle paths read at request time (so it proves exactly the roots in the
 * answer, whatever lands meanwhile); without one (`validityProofs: 'fake'`), the bytes of
 * fake-proof.ts (well formed, never verifying). A request may not mix v1 and v2 trees (no circuit
 * takes both heights). Sizes follow the circuits: v1 proves 1, 2, 3, 4 or 8 accounts, v2 1 to 8; either proves
 * at most 2 new addresses (stateless.js 0.23's own limit), and a combined proof at most 4 accounts.
 * A root index is `rootSeq % rootHistory` of that tree (2,400 for v1 trees, 200 for v2).
 */
import { encodeBase58 } from '../../solana/index.js';
import { checkAddressValue } from './inputs.js';
import { treeContextJson } from './json.js';
import { liveByHash, notFound } from './params.js';
import { ADDRESS_TREE_V1, ADDRESS_TREE_V2, type AccountRecord, type AddressTree, type CompressionStore, type TreeVersion } from './store.js';
import { arr, b58, invalid, obj, paramsObject } from '../params/indexer.js';
import { fakeCompressedProofJson } from './fake-proof.js';
import { fromBytes32 } from '../trees/merkle.js';
import type { Chain } from '../types.js';
import { shapeFor, type CircuitInputs, type CircuitShape, type ProverWorker } from '../../prover/index.js';

const V1_INCLUSION = [1, 2, 3, 4, 8];
const MAX_INCLUSION = 8;
const MAX_NEW_ADDRESSES = 2;
const MAX_COMBINED_ACCOUNTS = 4;

interface AccountEntry {
  acc: AccountRecord;
  root: Uint8Array;
  rootIndex: number;
}

interface AddressEntry {
  address: Uint8Array;
  tree: AddressTree;
  root: Uint8Array;
  rootIndex: number;
  lowElementIndex: number;
}

type ProofJson = { a: number[]; b: number[]; c: number[] };

interface Reading {
  accounts: AccountEntry[];
  addresses: AddressEntry[];
  /** The stand-in proof (no prover): well formed, never verifying. */
  fakeProof(): ProofJson;
  /** What the prover needs, read from the trees now. */
  circuit: { shape: CircuitShape; inputs: CircuitInputs };
}

/** A new address not yet in `tree`, below 2^248 (field named in the −32602 otherwise). */
export function newAddressIn(tree: AddressTree, v: unknown, field: string): Uint8Array {
  const a = b58(v, field);
  checkAddressValue(a, field);
  if (tree.merkle.has(fromBytes32(a))) throw invalid(field, `address ${v as string} already exists in ${tree.info.tree}`);
  return a;
}

/** The address tree named at `field`: one of the devnet's two. */
export function addressTreeIn(store: CompressionStore, v: unknown, field: string): AddressTree {
  const name = encodeBase58(b58(v, field));
  const t = store.addressTreeOf(name);
  if (!t) throw invalid(field, `unknown address tree ${name}; the devnet's are ${ADDRESS_TREE_V1} (v1) and ${ADDRESS_TREE_V2} (v2)`);
  return t;
}

function readRequest(store: CompressionStore, raw: unknown, method: string, allowNewAddresses: boolean): Reading {
  const p = paramsObject(raw, method);
  const hashes = p.hashes === undefined || p.hashes === null ? [] : arr(p.hashes, 'hashes', { max: MAX_INCLUSION });
  let news: unknown[] = [];
  let newField = 'newAddressesWithTrees';
  if (p.newAddressesWithTrees !== undefined && p.newAddressesWithTrees !== null) news = arr(p.newAddressesWithTrees, 'newAddressesWithTrees', { max: MAX_NEW_ADDRESSES });
  else if (p.newAddresses !== undefined && p.newAddresses !== null) {
    if (!allowNewAddresses) throw invalid('newAddresses', `${method} takes newAddressesWithTrees ({address, tree}), not newAddresses`);
    newField = 'newAddresses';
    news = arr(p.newAddresses, 'newAddresses', { max: MAX_NEW_ADDRESSES });
  }
  if (hashes.length === 0 && news.length === 0) throw invalid('hashes', 'give at least one account hash or one new address');
  if (hashes.length > MAX_COMBINED_ACCOUNTS && news.length > 0) throw invalid('hashes', `a combined proof covers at most ${MAX_COMBINED_ACCOUNTS} accounts, got ${hashes.length}`);

  // Looked up first, so that the size check (which depends on the trees' generation) comes before
  // the per-hash checks, as it did when the devnet had one generation.
  const texts = hashes.map((h, i) => encodeBase58(b58(h, `hashes[${i}]`)));
  const found = texts.map((t) => liveByHash(store, t));
  const firstVersion = found.find((a) => a !== undefined)?.version ?? 1;
  if (firstVersion === 1 && hashes.length > 0 && !V1_INCLUSION.includes(hashes.length)) {
    throw invalid('hashes', `the v1 circuits prove 1, 2, 3, 4 or 8 accounts, got ${hashes.length}`);
  }
  const seen = new Set<string>();
  const accs = texts.map((t, i) => {
    if (seen.has(t)) throw invalid(`hashes[${i}]`, `duplicate hash ${t}`);
    seen.add(t);
    const a = found[i];
    if (!a) throw notFound(`no unspent compressed account with hash ${t} (hashes[${i}])`);
    return a;
  });
  const seenAddr = new Set<string>();
  const addrs = news.map((n, i) => {
    let tree: AddressTree;
    let value: Uint8Array;
    if (newField === 'newAddresses') {
      tree = store.addressTrees[1];
      value = newAddressIn(tree, n, `newAddresses[${i}]`);
    } else {
      const f = `newAddressesWithTrees[${i}]`;
      const o = obj(n, f);
      if (!o) throw invalid(f, 'expected {address, tree}');
      tree = addressTreeIn(store, o.tree, `${f}.tree`);
      value = newAddressIn(tree, o.address, `${f}.address`);
    }
    const t = encodeBase58(value);
    if (seenAddr.has(t)) throw invalid(`${newField}[${i}]`, `duplicate address ${t}`);
    seenAddr.add(t);
    return { value, tree };
  });

  // One generation per proof: the circuits are per height.
  const versions = new Set<TreeVersion>([...accs.map((a) => a.version), ...addrs.map((a) => a.tree.version)]);
  if (versions.size > 1) {
    const field = accs.length > 0 && new Set(accs.map((a) => a.version)).size > 1 ? 'hashes' : newField;
    throw invalid(field, 'mixes v1 and v2 trees: one proof covers trees of one height (v1: 26; v2: 32 and 40)');
  }
  const version = [...versions][0];
  if (version === 1 && accs.length > 0 && !V1_INCLUSION.includes(accs.length)) {
    throw invalid('hashes', `the v1 circuits prove 1, 2, 3, 4 or 8 accounts, got ${accs.length}`);
  }

  const accounts = accs.map((acc) => {
    const st = store.stateTrees[acc.version];
    return { acc, root: st.merkle.root(), rootIndex: st.merkle.seq % st.info.rootHistory };
  });
  const inputs: CircuitInputs = { inclusion: [], nonInclusion: [] };
  const addresses = addrs.map(({ value, tree }) => {
    const np = tree.merkle.nonInclusionProof(fromBytes32(value));
    inputs.nonInclusion.push({
      root: fromBytes32(np.root),
      value: fromBytes32(value),
      lowValue: np.lowElement.value,
      nextValue: np.lowElement.nextValue,
      nextIndex: BigInt(np.lowElement.nextIndex),
      lowIndex: np.lowElementIndex,
      pathElements: np.proof.map(fromBytes32),
    });
    return { address: value, tree, root: np.root, rootIndex: np.rootSeq % tree.info.rootHistory, lowElementIndex: np.lowElementIndex };
  });
  const stateTree = store.stateTrees[version].merkle;
  for (const e of accounts) {
    inputs.inclusion.push({
      root: fromBytes32(e.root),
      leaf: fromBytes32(e.acc.hash),
      pathIndex: e.acc.leafIndex,
      pathElements: stateTree.proof(e.acc.leafIndex).map(fromBytes32),
    });
  }
  // Seeded by the public inputs: the same request gets the same (well-formed, non-verifying) proof.
  const fakeProof = (): ProofJson => {
    const publicInputs = [
      ...accounts.map((e) => e.root),
      ...accounts.map((e) => e.acc.hash),
      ...addresses.map((e) => e.root),
      ...addresses.map((e) => e.address),
    ];
    const seed = new Uint8Array(publicInputs.length * 32);
    publicInputs.forEach((x, i) => seed.set(x, i * 32));
    return fakeCompressedProofJson(seed);
  };
  return { accounts, addresses, fakeProof, circuit: { shape: shapeFor(accounts.length, addresses.length, version), inputs } };
}

/** The reading's proof, made on the prover thread. */
async function proofOf(r: Reading, prover: ProverWorker, signal: AbortSignal | undefined): Promise<ProofJson> {
  const p = await prover.prove(r.circuit.shape, r.circuit.inputs, signal ? { signal } : {});
  return { a: Array.from(p.a), b: Array.from(p.b), c: Array.from(p.c) };
}

/**
 * `getValidityProof`: v1 shape (parallel arrays); accounts first, then addresses. With a `prover`,
 * a Promise (the request is read and checked now, synchronously; only the proof waits).
 */
export function validityProofV1(chain: Chain, store: CompressionStore, raw: unknown, prover?: ProverWorker, signal?: AbortSignal) {
  const r = readRequest(store, raw, 'getValidityProof', true);
  const slot = chain.slot();
  if (!prover) return v1Answer(slot, r, r.fakeProof());
  return proofOf(r, prover, signal).then((proof) => v1Answer(slot, r, proof));
}

function v1Answer(slot: number, r: Reading, proof: ProofJson) {
  return {
    context: { slot },
    value: {
      compressedProof: proof,
      roots: [...r.accounts.map((e) => encodeBase58(e.root)), ...r.addresses.map((e) => encodeBase58(e.root))],
      rootIndices: [...r.accounts.map((e) => e.rootIndex), ...r.addresses.map((e) => e.rootIndex)],
      leafIndices: [...r.accounts.map((e) => e.acc.leafIndex), ...r.addresses.map((e) => e.lowElementIndex)],
      leaves: [...r.accounts.map((e) => e.acc.hashText), ...r.addresses.map((e) => encodeBase58(e.address))],
      merkleTrees: [...r.accounts.map((e) => e.acc.tree), ...r.addresses.map((e) => e.tree.info.tree)],
    },
  };
}

/**
 * `getValidityProofV2`: `{compressedProof, accounts[], addresses[]}`, each entry with its tree's
 * `merkleContext`. `rootIndex.proveByIndex` is always false: the devnet models no output queue.
 * With a `prover`, a Promise, as `validityProofV1`.
 */
export function validityProofV2(chain: Chain, store: CompressionStore, raw: unknown, prover?: ProverWorker, signal?: AbortSignal) {
  const r = readRequest(store, raw, 'getValidityProofV2', false);
  const slot = chain.slot();
  if (!prover) return v2Answer(slot, store, r, r.fakeProof());
  return proofOf(r, prover, signal).then((proof) => v2Answer(slot, store, r, proof));
}

function v2Answer(slot: number, store: CompressionStore, r: Reading, proof: ProofJson) {
  return {
    context: { slot },
    value: {
      compressedProof: proof,
      accounts: r.accounts.map((e) => ({
        hash: e.acc.hashText,
        root: encodeBase58(e.root),
        rootIndex: { rootIndex: e.rootIndex, proveByIndex: false },
        leafIndex: e.acc.leafIndex,
        merkleContext: treeContextJson(store.stateTrees[e.acc.version].info),
      })),
      addresses: r.addresses.map((e) => ({
        address: encodeBase58(e.address),
        root: encodeBase58(e.root),
        rootIndex: e.rootIndex,
        merkleContext: treeContextJson(e.tree.info),
      })),
    },
  };
}
