/**
 * Real trees for the circuit tests, built with the devnet's own tree code
 * (src/devnet/trees/merkle.ts, hashed as src/devnet/compression/store.ts hashes them): a state tree
 * (height 26 v1, 32 v2) with seeded random leaves and an address tree (height 26 v1, 40 v2,
 * initialised as that generation's) with seeded random addresses.
 * `inputsFor(shape)` picks accounts and fresh addresses and returns the circuit inputs together with
 * the entries `validityPublicInputs` takes, so a test can compare both public-input vectors.
 */
import { createConcurrentMerkleTree, createIndexedMerkleTree, fromBytes32, toBytes32 } from '../../src/devnet/trees/merkle.js';
import { mulberry32 } from '../../src/devnet/chain/mulberry32.js';
import { indexedLeaf } from '../../src/merkle/compressed/address.js';
import { poseidon } from '../../src/crypto/poseidon.js';
import { inclusionInput, nonInclusionInput, treeHeights, versionOf, type CircuitInputs, type CircuitShape } from '../../src/prover/circuits/index.js';

const node2 = (l: Uint8Array, r: Uint8Array): Uint8Array => poseidon([l, r]);

export interface Fixture {
  inputs: CircuitInputs;
  state: { root: Uint8Array; leaf: Uint8Array; treeType: number }[];
  addrs: { root: Uint8Array; address: Uint8Array; treeType: number }[];
}

/** A seeded source of field elements below 2^bits. */
function randomValues(seed: number): (bits: number) => bigint {
  const next = mulberry32(seed);
  return (bits) => {
    let v = 0n;
    for (let i = 0; i < Math.ceil(bits / 32); i++) v = (v << 32n) | BigInt(Math.floor(next() * 2 ** 32));
    return v & ((1n << BigInt(bits)) - 1n);
  };
}

/**
 * Trees with `leaves` accounts and `addresses` inserted addresses, then inputs for `shape`:
 * accounts at spread-out indices, new addresses that fall between inserted ones.
 */
export function buildFixture(shape: CircuitShape, seed = 7, leaves = 24, addresses = 12): Fixture {
  const rnd = randomValues(seed);
  const version = versionOf(shape);
  const heights = treeHeights(shape);
  const stateTree = createConcurrentMerkleTree({ depth: heights.state, hash: node2, maxBufferSize: 2400 });
  for (let i = 0; i < leaves; i++) stateTree.append(toBytes32(rnd(253)));
  const addressTree = createIndexedMerkleTree({
    height: heights.address,
    hash2: node2,
    leafHash: (value, nextIndex, nextValue) => indexedLeaf(version, value, fromBytes32(nextIndex), nextValue),
    init: version === 1 ? 'v1' : 'v2',
  });
  for (let i = 0; i < addresses; i++) addressTree.insert(rnd(248) | 1n);

  const inputs: CircuitInputs = { inclusion: [], nonInclusion: [] };
  const state: Fixture['state'] = [];
  const addrs: Fixture['addrs'] = [];
  const root = stateTree.root();
  for (let i = 0; i < shape.accounts; i++) {
    const index = (i * 7 + 3) % leaves;
    const leaf = stateTree.leaf(index);
    inputs.inclusion.push(inclusionInput(root, leaf, index, stateTree.proof(index)));
    state.push({ root, leaf, treeType: version === 1 ? 1 : 3 });
  }
  for (let i = 0; i < shape.addresses; i++) {
    let value = rnd(248);
    while (addressTree.has(value) || value === 0n) value = rnd(248);
    const p = addressTree.nonInclusionProof(value);
    inputs.nonInclusion.push(nonInclusionInput(p));
    addrs.push({ root: p.root, address: toBytes32(value), treeType: version === 1 ? 2 : 4 });
  }
  return { inputs, state, addrs };
}

/** A deep copy of circuit inputs, to tamper with. */
export function cloneInputs(x: CircuitInputs): CircuitInputs {
  return {
    inclusion: x.inclusion.map((e) => ({ ...e, pathElements: [...e.pathElements] })),
    nonInclusion: x.nonInclusion.map((e) => ({ ...e, pathElements: [...e.pathElements] })),
  };
}
