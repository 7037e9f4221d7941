/**
 * What a lying indexer answers: self-consistent fabrications that pass any verifier which does not
 * ask the chain. Each keeps the item's identity (asset id, tree, leaf index, address) and makes up
 * the rest — a leaf and a path and the root they hash to (asset proofs: keccak; account and
 * new-address proofs: Poseidon), and for validity proofs made-up paths whose roots a real Groth16
 * proof is then made over (the devnet's prover), so the proof verifies against roots no tree holds.
 * The devnet's `lieRate` fault (endpoints.ts) answers a share of proof items with these; tests use them
 * directly.
 */
import { encodeBase58, base58Bytes } from '../../solana/index.js';
import { keccakPathRoot, poseidonPathRoot } from '../../crypto/index.js';
import { indexedLeaf } from '../../merkle/index.js';
import { type CircuitInputs, type CircuitShape, shapeFor, type ProverWorker } from '../../prover/index.js';
import { fromBytes32, toBytes32 } from '../trees/merkle.js';
import type { CompressionStore } from '../compression/store.js';

type Json = Record<string, unknown>;
/** A source of uniform draws in [0, 1) (the fault's seeded stream). */
export type Draw = () => number;

function randomBytes(draw: Draw, field: boolean): Uint8Array {
  const b = new Uint8Array(32);
  for (let i = 0; i < 32; i++) b[i] = Math.floor(draw() * 256);
  if (field) b[0] = 0; // below the BN254 modulus (and 2^248), as Poseidon inputs must be
  return b;
}
const nodes = (draw: Draw, n: number, field: boolean): Uint8Array[] => Array.from({ length: n }, () => randomBytes(draw, field));
const concat = (xs: Uint8Array[]): Uint8Array => {
  const out = new Uint8Array(xs.length * 32);
  xs.forEach((x, i) => out.set(x, i * 32));
  return out;
};

/** A `getAssetProof` item with a made-up leaf and path and the keccak root they give. */
export function fabricateAssetProof(p: Json, draw: Draw): Json {
  const path = nodes(draw, (p.proof as unknown[]).length, false);
  const leaf = randomBytes(draw, false);
  const index = Number(p.node_index) - 2 ** path.length;
  const root = keccakPathRoot(leaf, concat(path), index);
  return { ...p, leaf: encodeBase58(leaf), proof: path.map((n) => encodeBase58(n)), root: encodeBase58(root) };
}

/** A compressed-account proof with a made-up hash and path and the Poseidon root they give. */
export function fabricateAccountProof(p: Json, draw: Draw): Json {
  const path = nodes(draw, (p.proof as unknown[]).length, true);
  const hash = randomBytes(draw, true);
  const root = poseidonPathRoot(hash, concat(path), Number(p.leafIndex));
  return { ...p, hash: encodeBase58(hash), proof: path.map((n) => encodeBase58(n)), root: encodeBase58(root) };
}

/** A new-address proof whose low element walks a made-up path to the root it gives. */
export function fabricateAddressProof(p: Json, draw: Draw): Json {
  const path = nodes(draw, (p.proof as unknown[]).length, true);
  const version = path.length === 40 ? 2 : 1;
  const leaf = indexedLeaf(version, base58Bytes(p.lowerRangeAddress as string), BigInt(p.nextIndex as number), base58Bytes(p.higherRangeAddress as string));
  const root = poseidonPathRoot(leaf, concat(path), Number(p.lowElementLeafIndex));
  return { ...p, proof: path.map((n) => encodeBase58(n)), root: encodeBase58(root) };
}

/**
 * A validity proof over made-up roots: every account's leaf and every address's low element keep
 * their values, their paths are made up, the roots are what those paths give, and `prover` makes a
 * real proof of it all. `value` is a getValidityProof (v1 arrays) or getValidityProofV2 value.
 */
export async function fabricateValidityProof(value: Json, store: CompressionStore, prover: ProverWorker, draw: Draw, signal?: AbortSignal): Promise<Json> {
  const v2 = Array.isArray(value.accounts) || Array.isArray(value.addresses);
  type Entry = { leaf: string; tree: string; leafIndex: number; set: (root: string) => void };
  const accounts: Entry[] = [];
  const addresses: Entry[] = [];
  const out: Json = v2
    ? { ...value, accounts: ((value.accounts as Json[]) ?? []).map((a) => ({ ...a })), addresses: ((value.addresses as Json[]) ?? []).map((a) => ({ ...a })) }
    : { ...value, roots: [...(value.roots as string[])] };
  if (v2) {
    for (const a of out.accounts as Json[]) {
      accounts.push({ leaf: a.hash as string, tree: (a.merkleContext as Json).tree as string, leafIndex: a.leafIndex as number, set: (r) => (a.root = r) });
    }
    for (const a of out.addresses as Json[]) {
      addresses.push({ leaf: a.address as string, tree: (a.merkleContext as Json).tree as string, leafIndex: 0, set: (r) => (a.root = r) });
    }
  } else {
    const roots = out.roots as string[];
    (value.leaves as string[]).forEach((leaf, i) => {
      const tree = (value.merkleTrees as string[])[i]!;
      const e = { leaf, tree, leafIndex: (value.leafIndices as number[])[i]!, set: (r: string) => (roots[i] = r) };
      if (store.addressTreeOf(tree)) addresses.push(e);
      else accounts.push(e);
    });
  }
  const inputs: CircuitInputs = { inclusion: [], nonInclusion: [] };
  let version: 1 | 2 = 1;
  for (const e of accounts) {
    const st = store.stateTreeOf(e.tree)!;
    version = st.version;
    const path = nodes(draw, st.merkle.depth, true);
    const root = poseidonPathRoot(base58Bytes(e.leaf), concat(path), e.leafIndex);
    e.set(encodeBase58(root));
    inputs.inclusion.push({ root: fromBytes32(root), leaf: fromBytes32(base58Bytes(e.leaf)), pathIndex: e.leafIndex, pathElements: path.map(fromBytes32) });
  }
  for (const e of addresses) {
    const at = store.addressTreeOf(e.tree)!;
    version = at.version;
    const value = fromBytes32(base58Bytes(e.leaf));
    const np = at.merkle.nonInclusionProof(value);
    const path = nodes(draw, at.merkle.tree.depth, true);
    const low = np.lowElement;
    const leaf = indexedLeaf(at.version, toBytes32(low.value), BigInt(low.nextIndex), toBytes32(low.nextValue));
    const root = poseidonPathRoot(leaf, concat(path), np.lowElementIndex);
    e.set(encodeBase58(root));
    inputs.nonInclusion.push({
      root: fromBytes32(root),
      value,
      lowValue: low.value,
      nextValue: low.nextValue,
      nextIndex: BigInt(low.nextIndex),
      lowIndex: np.lowElementIndex,
      pathElements: path.map(fromBytes32),
    });
  }
  const shape: CircuitShape = shapeFor(accounts.length, addresses.length, version);
  const p = await prover.prove(shape, inputs, signal ? { signal } : {});
  out.compressedProof = { a: Array.from(p.a), b: Array.from(p.b), c: Array.from(p.c) };
  return out;
}
