/**
 * The shape every Keccak backend (native addon, WebAssembly, JavaScript) implements. The public,
 * argument-checking API is in keccak.ts; kernels trust their input.
 * Internal to src/crypto/ (the leading `_`): keccak.ts is the API.
 */
export interface KeccakKernel {
  readonly name: 'native' | 'wasm' | 'js';
  /** keccak256 of `data`, as a fresh 32-byte Uint8Array. */
  keccak256(data: Uint8Array): Uint8Array;
  /**
   * Root of `proof.length / 32` levels walked from `leaf` (node on the left where bit i of `index`
   * is 0), written to `out[0..32]`. `leaf` is 32 bytes, `index` a safe non-negative integer.
   */
  pathRootInto(leaf: Uint8Array, proof: Uint8Array, index: number, out: Uint8Array): void;
}
