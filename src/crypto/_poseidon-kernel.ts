/**
 * The shape every Poseidon backend (native addon, WASM, BigInt) presents to poseidon.ts. Inputs are
 * already validated there (lengths, every element < r), so kernels only compute.
 * Internal to src/crypto/ (the leading `_`): poseidon.ts is the API.
 */
export interface PoseidonKernel {
  /** Hash `n` elements laid out as `concat` (32·n bytes, big-endian each); write 32 bytes to `out`. */
  hash(concat: Uint8Array, n: number, out: Uint8Array): void;
  /** `count` hashes of `width` elements each, laid out back to back; 32·count bytes to `out`. */
  batch(concat: Uint8Array, width: number, count: number, out: Uint8Array): void;
  /** Walk `proof` (32·depth bytes, leaf → root) from `leaf` by the bits of `index`; root to `out`. */
  pathRoot(leaf: Uint8Array, proof: Uint8Array, index: number, out: Uint8Array): void;
}
