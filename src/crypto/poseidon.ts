/**
 * Poseidon over BN254 (circom-compatible, x^5, 8 full rounds, circomlib constants) for compressed
 * accounts, addresses and their Merkle trees. Inputs are exactly 32 big-endian bytes each, every one
 * < r; anything else is rejected with a typed error naming the input, never reduced.
 *
 * Three backends compute the same function: `native` (the N-API addon built at install,
 * build/Release/cairn_native.node), `wasm` (the same C compiled to WebAssembly, shipped in
 * native/wasm/) and `js` (the BigInt reference). The fastest one that loads is chosen on first use;
 * `setPoseidonBackend()` or the env variable `CAIRN_POSEIDON=native|wasm|js|auto` override the choice.
 * Whole Merkle paths are hashed inside the kernel in one call (`poseidonPathRoot`).
 */
import { CairnError, ErrorCodes } from '../errors/index.js';
import { BN254_R } from './poseidon-params.js';
import { poseidonBigInt } from './poseidon-js.js';
import { loadNativeWithReason } from '../addon.js';
import { loadPoseidonWasm } from './_poseidon-wasm.js';
import type { PoseidonKernel } from './_poseidon-kernel.js';
import { backendChoice, type Backend } from './_backend-choice.js';

export { BN254_R };

export type PoseidonBackend = Backend;

/** r as 32 big-endian bytes, for a byte-wise "< r" check without BigInt. */
const R_BYTES = (() => {
  const b = new Uint8Array(32);
  let x = BN254_R;
  for (let i = 31; i >= 0; i--) {
    b[i] = Number(x & 0xffn);
    x >>= 8n;
  }
  return b;
})();

/** True when the 32 bytes at `bytes[off..off+32]` read big-endian are < r. */
function isBelowR(bytes: Uint8Array, off = 0): boolean {
  for (let i = 0; i < 32; i++) {
    const a = bytes[off + i];
    const b = R_BYTES[i];
    if (a !== b) return a < b;
  }
  return false; // equal to r
}

function bytesToBigInt(b: Uint8Array, off = 0): bigint {
  let x = 0n;
  for (let i = 0; i < 32; i += 4) {
    const w = ((b[off + i] << 24) | (b[off + i + 1] << 16) | (b[off + i + 2] << 8) | b[off + i + 3]) >>> 0;
    x = (x << 32n) | BigInt(w);
  }
  return x;
}

function bigIntToBytes(x: bigint, out: Uint8Array, off = 0): void {
  for (let i = 31; i >= 0; i--) {
    out[off + i] = Number(x & 0xffn);
    x >>= 8n;
  }
}

function invalid(field: string, message: string, got?: unknown): CairnError {
  return new CairnError(ErrorCodes.MERKLE_INVALID_INPUT, `"${field}": ${message}`, { context: { field, got } });
}

function overflow(field: string): CairnError {
  return new CairnError(ErrorCodes.MERKLE_FIELD_OVERFLOW, `"${field}": value is not below the BN254 field modulus r`, {
    context: { field, expected: '< r' },
  });
}

function checkElement(x: unknown, field: string): Uint8Array {
  if (!(x instanceof Uint8Array)) throw invalid(field, 'expected a Uint8Array of 32 bytes', typeof x);
  if (x.length !== 32) throw invalid(field, `expected 32 bytes, got ${x.length}`, x.length);
  if (!isBelowR(x)) throw overflow(field);
  return x;
}

/** The BigInt backend, wrapped to the kernel interface (the reference and last resort). */
const jsKernel: PoseidonKernel = {
  hash(concat, n, out) {
    const xs: bigint[] = new Array(n);
    for (let i = 0; i < n; i++) xs[i] = bytesToBigInt(concat, 32 * i);
    bigIntToBytes(poseidonBigInt(xs), out);
  },
  batch(concat, width, count, out) {
    for (let k = 0; k < count; k++) {
      const xs: bigint[] = new Array(width);
      for (let i = 0; i < width; i++) xs[i] = bytesToBigInt(concat, 32 * (k * width + i));
      bigIntToBytes(poseidonBigInt(xs), out, 32 * k);
    }
  },
  pathRoot(leaf, proof, index, out) {
    let node = bytesToBigInt(leaf);
    const depth = proof.length / 32;
    let idx = index;
    for (let level = 0; level < depth; level++) {
      const sib = bytesToBigInt(proof, 32 * level);
      node = idx % 2 === 1 ? poseidonBigInt([sib, node]) : poseidonBigInt([node, sib]);
      idx = Math.floor(idx / 2);
    }
    bigIntToBytes(node, out);
  },
};

const choice = backendChoice<PoseidonKernel>('Poseidon', 'CAIRN_POSEIDON', (b) => {
  if (b === 'js') return jsKernel;
  if (b === 'native') {
    const n = loadNativeWithReason();
    const nb = n.bindings;
    if (!nb || typeof nb.poseidonInto !== 'function') return n.reason ?? 'the addon has no poseidon functions';
    return {
      hash(concat, _n, out) {
        nb.poseidonInto(concat, out);
      },
      batch(concat, width, _count, out) {
        nb.poseidonBatch(concat, width, out);
      },
      pathRoot(leaf, proof, index, out) {
        nb.poseidonPathRootInto(leaf, proof, index, out);
      },
    };
  }
  const w = loadPoseidonWasm();
  return w.kernel ?? w.reason;
});
const resolve = (): { backend: PoseidonBackend; kernel: PoseidonKernel } => choice.resolve();

/**
 * The backend in use (choosing one now if none was chosen yet).
 *
 * @example
 * poseidonBackend(); // 'native' where the addon built, else 'wasm'
 */
export function poseidonBackend(): PoseidonBackend {
  return resolve().backend;
}

/**
 * Force a backend (`'auto'` returns to automatic choice). Overrides `CAIRN_POSEIDON`. Forcing a
 * backend that cannot load throws MERKLE_KERNEL_UNAVAILABLE on the next hash.
 *
 * @example
 * setPoseidonBackend('js'); // the BigInt reference
 */
export function setPoseidonBackend(b: PoseidonBackend | 'auto'): void {
  choice.set(b);
}

const scratch = new Uint8Array(32 * 12);

/** Longest path accepted (Solana trees are at most 40 deep; the WASM kernel's buffer holds 2046). */
const MAX_DEPTH = 1024;

/**
 * Poseidon of 1–12 field elements, each 32 bytes big-endian and < r. Returns 32 bytes big-endian.
 *
 * @example
 * const one = new Uint8Array(32); one[31] = 1;
 * const two = new Uint8Array(32); two[31] = 2;
 * poseidon([one, two]); // 0x115cc0f5…5a9a (7853200120776062878684798364095072458815029376092732009249414926327459813530)
 */
export function poseidon(inputs: readonly Uint8Array[]): Uint8Array {
  if (!Array.isArray(inputs)) throw invalid('inputs', 'expected an array of 1 to 12 Uint8Arrays', typeof inputs);
  const n = inputs.length;
  if (n < 1 || n > 12) throw invalid('inputs', `expected 1 to 12 inputs, got ${n}`, n);
  const { kernel } = resolve();
  for (let i = 0; i < n; i++) scratch.set(checkElement(inputs[i], `inputs[${i}]`), 32 * i);
  const out = new Uint8Array(32);
  kernel.hash(n === 12 ? scratch : scratch.subarray(0, 32 * n), n, out);
  return out;
}

/**
 * Root of a Poseidon Merkle path: walks `proof` (32·n bytes, ordered leaf → root) from `leaf`; at
 * level i the node is the right child when bit i of `index` is 1, so `node = P(sibling, node)`,
 * else `node = P(node, sibling)`. Every node must be < r.
 *
 * @example
 * const root = poseidonPathRoot(leaf, proofBytes, leafIndex); // compare with the tree's root
 */
export function poseidonPathRoot(leaf: Uint8Array, proof: Uint8Array, index: number): Uint8Array {
  checkElement(leaf, 'leaf');
  if (!(proof instanceof Uint8Array)) throw invalid('proof', 'expected a Uint8Array of 32·n bytes', typeof proof);
  if (proof.length % 32 !== 0) throw invalid('proof', `expected a multiple of 32 bytes, got ${proof.length}`, proof.length);
  if (!Number.isSafeInteger(index) || index < 0) throw invalid('index', 'expected a non-negative safe integer', index);
  const depth = proof.length / 32;
  if (depth > MAX_DEPTH) throw invalid('proof', `expected at most ${MAX_DEPTH} nodes, got ${depth}`, depth);
  if (depth < 53 && index >= 2 ** depth) {
    throw invalid('index', `expected < 2^${depth} for a proof of ${depth} nodes, got ${index}`, index);
  }
  for (let k = 0; k < depth; k++) if (!isBelowR(proof, 32 * k)) throw overflow(`proof[${k}]`);
  const { kernel } = resolve();
  const out = new Uint8Array(32);
  kernel.pathRoot(leaf, proof, index, out);
  return out;
}

/**
 * Many Poseidon hashes of `width` (1–12) elements each in one kernel call: `inputs` holds
 * 32·width·count bytes (hash k's elements at [32·width·k, 32·width·(k+1))); returns 32·count bytes,
 * hash k at [32k, 32k+32). Every element must be < r (the error names `inputs[i]`, flat index).
 *
 * @example
 * const leaves = poseidonBatch(packedTriples, 3); // 32 bytes per triple
 */
export function poseidonBatch(inputs: Uint8Array, width: number): Uint8Array {
  if (!(inputs instanceof Uint8Array)) throw invalid('inputs', 'expected a Uint8Array', typeof inputs);
  if (!Number.isInteger(width) || width < 1 || width > 12) throw invalid('width', `expected an integer 1..12, got ${width}`, width);
  if (inputs.length % (32 * width) !== 0) {
    throw invalid('inputs', `expected a multiple of ${32 * width} bytes (32·width), got ${inputs.length}`, inputs.length);
  }
  const n = inputs.length / 32;
  for (let i = 0; i < n; i++) if (!isBelowR(inputs, 32 * i)) throw overflow(`inputs[${i}]`);
  const count = n / width;
  const out = new Uint8Array(32 * count);
  if (count > 0) resolve().kernel.batch(inputs, width, count, out);
  return out;
}

/**
 * Verify m Merkle paths of equal `depth` in one kernel call (native) or one crossing per path
 * (WASM/JS): `leaves` 32·m bytes, `proofs` 32·depth·m, `indices` m leaf indices, `roots` 32·m.
 * Returns one verdict byte per path: 1 the path reaches its root, 0 it does not, 2 a leaf or
 * proof node is not < r (so the path proves nothing). Shapes are validated; values never throw.
 *
 * @example
 * const verdicts = poseidonVerifyPaths(leaves, proofs, Float64Array.from(idx), 26, roots);
 */
export function poseidonVerifyPaths(
  leaves: Uint8Array,
  proofs: Uint8Array,
  indices: ArrayLike<number>,
  depth: number,
  roots: Uint8Array,
): Uint8Array {
  if (!(leaves instanceof Uint8Array)) throw invalid('leaves', 'expected a Uint8Array', typeof leaves);
  if (!(proofs instanceof Uint8Array)) throw invalid('proofs', 'expected a Uint8Array', typeof proofs);
  if (!(roots instanceof Uint8Array)) throw invalid('roots', 'expected a Uint8Array', typeof roots);
  if (!Number.isInteger(depth) || depth < 0 || depth > 64) throw invalid('depth', `expected an integer 0..64, got ${depth}`, depth);
  const m = indices?.length;
  if (typeof m !== 'number') throw invalid('indices', 'expected an array of leaf indices', typeof indices);
  if (leaves.length !== 32 * m) throw invalid('leaves', `expected ${32 * m} bytes (32 per index), got ${leaves.length}`, leaves.length);
  if (roots.length !== 32 * m) throw invalid('roots', `expected ${32 * m} bytes (32 per index), got ${roots.length}`, roots.length);
  if (proofs.length !== 32 * depth * m) {
    throw invalid('proofs', `expected ${32 * depth * m} bytes (32·depth per index), got ${proofs.length}`, proofs.length);
  }
  const idx = indices instanceof Float64Array ? indices : Float64Array.from(indices);
  for (let k = 0; k < m; k++) {
    const i = idx[k];
    if (!Number.isSafeInteger(i) || i < 0 || (depth < 53 && i >= 2 ** depth)) {
      throw invalid(`indices[${k}]`, `expected an integer in [0, 2^${depth}), got ${i}`, i);
    }
  }
  const verdicts = new Uint8Array(m);
  if (m === 0) return verdicts;
  const { backend, kernel } = resolve();
  const nb = backend === 'native' ? loadNativeWithReason().bindings : null;
  if (nb) {
    nb.poseidonVerifyBatch(leaves, proofs, idx, depth, roots, verdicts);
    return verdicts;
  }
  const out = new Uint8Array(32);
  outer: for (let k = 0; k < m; k++) {
    if (!isBelowR(leaves, 32 * k)) {
      verdicts[k] = 2;
      continue;
    }
    const proof = proofs.subarray(32 * depth * k, 32 * depth * (k + 1));
    for (let l = 0; l < depth; l++) {
      if (!isBelowR(proof, 32 * l)) {
        verdicts[k] = 2;
        continue outer;
      }
    }
    kernel.pathRoot(leaves.subarray(32 * k, 32 * k + 32), proof, idx[k], out);
    let same = 1;
    for (let b = 0; b < 32; b++) if (out[b] !== roots[32 * k + b]) same = 0;
    verdicts[k] = same;
  }
  return verdicts;
}
