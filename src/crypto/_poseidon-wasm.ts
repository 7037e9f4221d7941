/**
 * The portable Poseidon kernel: native/poseidon.c compiled to WebAssembly (native/wasm/poseidon.wasm,
 * built by native/wasm/build.mjs and shipped in the package). Used automatically where the native
 * addon could not be built or loaded. The module is instantiated synchronously once per thread;
 * inputs are copied into its exported `io` buffer and the result read back, one crossing per hash
 * or per whole Merkle path.
 * Internal to src/crypto/ (the leading `_`): poseidon.ts is the API.
 */
import type { PoseidonKernel } from './_poseidon-kernel.js';
import { CairnError, ErrorCodes } from '../errors/index.js';
import { instantiateKernel, ioView, kernelWasmPath, type KernelExports } from './_wasm-kernel.js';

interface WasmExports extends KernelExports {
  hash(n: number): number;
  batch(width: number, count: number): number;
  path_root(depth: number, index: number): number;
}

export interface PoseidonWasmLoad {
  kernel: PoseidonKernel | null;
  /** Why the module did not load ('' when it did). */
  reason: string;
}

let loaded: PoseidonWasmLoad | undefined;

/** native/wasm/poseidon.wasm from src/crypto/ or dist/crypto/ (two levels below the root). */
function poseidonWasmPath(): string {
  return kernelWasmPath('poseidon.wasm');
}

function makeKernel(e: WasmExports): PoseidonKernel {
  const size = e.io_size();
  const view = ioView(e);
  const maxDepth = Math.floor(size / 32) - 2;
  return {
    hash(concat, n, out) {
      const m = view();
      m.set(concat, 0);
      e.hash(n);
      out.set(m.subarray(32 * n, 32 * n + 32));
    },
    batch(concat, width, count, out) {
      // as many hashes per crossing as fit in io (inputs followed by their outputs)
      const per = Math.floor(size / (32 * width + 32));
      for (let k = 0; k < count; k += per) {
        const c = Math.min(per, count - k);
        const m = view();
        m.set(concat.subarray(32 * width * k, 32 * width * (k + c)), 0);
        e.batch(width, c);
        out.set(m.subarray(32 * width * c, 32 * width * c + 32 * c), 32 * k);
      }
    },
    pathRoot(leaf, proof, index, out) {
      const depth = proof.length / 32;
      if (depth > maxDepth) {
        throw new CairnError(ErrorCodes.MERKLE_INVALID_INPUT, `"proof": deeper than ${maxDepth} levels`, { context: { field: 'proof', expected: `at most ${maxDepth} levels`, got: depth } });
      }
      const m = view();
      m.set(leaf, 0);
      m.set(proof, 32);
      e.path_root(depth, index);
      out.set(m.subarray(32 + proof.length, 64 + proof.length));
    },
  };
}

/**
 * Instantiate the WASM kernel (once per thread). Never throws; `reason` says why it is unavailable.
 *
 * @example
 * const { kernel, reason } = loadPoseidonWasm();
 */
export function loadPoseidonWasm(): PoseidonWasmLoad {
  if (loaded) return loaded;
  const path = poseidonWasmPath();
  try {
    const e = instantiateKernel<WasmExports>('poseidon.wasm');
    // caught just below: it becomes the `reason` the backend choice reports as MERKLE_KERNEL_UNAVAILABLE
    if (typeof e.hash !== 'function') throw new Error('unexpected exports');
    loaded = { kernel: makeKernel(e), reason: '' };
  } catch (err) {
    loaded = { kernel: null, reason: `${path}: ${(err as Error).message}` };
  }
  return loaded;
}
