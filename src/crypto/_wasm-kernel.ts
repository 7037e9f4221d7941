/**
 * Loading cairn's own WebAssembly kernels (native/wasm/*.wasm, built by native/wasm/build.mjs and
 * shipped in the package): instantiated synchronously, each with an `io` buffer JS writes to and
 * reads from.
 * Internal to src/crypto/ (the leading `_`): the kernels use it.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CairnError, ErrorCodes } from '../errors/index.js';

/** The few WebAssembly globals used here (tsconfig's lib has no DOM/WebAssembly typings). */
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}

/** What every cairn kernel module exports: its memory and an `io` buffer JS writes to and reads from. */
export interface KernelExports {
  memory: { readonly buffer: ArrayBuffer };
  io(): number;
  io_size(): number;
}

/** native/wasm/<file> from src/crypto/ or dist/crypto/ (two levels below the root). */
export function kernelWasmPath(file: string): string {
  return join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'native', 'wasm', file);
}

/**
 * Instantiate a kernel module synchronously (once per thread is enough). Throws when WebAssembly or
 * the file is missing.
 *
 * @example
 * const e = instantiateKernel<PdaExports>('pda.wasm');
 */
export function instantiateKernel<E extends KernelExports>(file: string): E {
  const WA = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;
  if (!WA) throw unavailable(file, 'WebAssembly is not available in this runtime');
  const e = new WA.Instance(new WA.Module(readFileSync(kernelWasmPath(file))), {}).exports as unknown as E;
  if (typeof e.io !== 'function' || !e.memory) throw unavailable(file, 'unexpected exports');
  return e;
}

/**
 * The module's `io` buffer as bytes. The view is re-derived if the memory was ever replaced (it is
 * when a module grows its memory; cairn's kernels have no allocator and never do).
 *
 * @example
 * const io = ioView(e);
 * io().set(input, 0);
 */
export function ioView(e: KernelExports): () => Uint8Array {
  const base = e.io();
  const size = e.io_size();
  let io = new Uint8Array(e.memory.buffer, base, size);
  return () => {
    if (io.buffer !== e.memory.buffer) io = new Uint8Array(e.memory.buffer, base, size);
    return io;
  };
}

function unavailable(file: string, reason: string): CairnError {
  return new CairnError(ErrorCodes.MERKLE_KERNEL_UNAVAILABLE, reason, { context: { backend: 'wasm', kernel: file, reason } });
}
