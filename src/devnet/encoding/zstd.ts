/**
 * zstd for `base64+zstd` account data, from @bokuweb/zstd-wasm (MIT, the zstd C library built to
 * WebAssembly, no native binary): Node 20 has no zstd of its own. The wasm is loaded on the first
 * request that asks for the encoding (`ensureZstd`), then compresses synchronously.
 */
import { createRequire } from 'node:module';

type ZstdWasm = { init(): Promise<void>; compress(buf: Uint8Array, level?: number): Uint8Array };

let loaded: ZstdWasm | null = null;
let loading: Promise<void> | null = null;

/** Load the wasm once; every caller waits for the same load. */
export function ensureZstd(): Promise<void> {
  if (loaded) return Promise.resolve();
  loading ??= (async () => {
    const z = createRequire(import.meta.url)('@bokuweb/zstd-wasm') as ZstdWasm;
    await z.init();
    loaded = z;
  })();
  return loading;
}

/** Whether `ensureZstd` has finished. */
export const zstdReady = (): boolean => loaded !== null;

/**
 * `data` compressed as one zstd frame, at zstd's default level 3 (Agave's encoder asks for level 0,
 * which zstd reads as its default). Throws when `ensureZstd` has not finished.
 */
export function zstdCompress(data: Uint8Array): Uint8Array {
  if (!loaded) throw new Error('zstd is not loaded yet: await ensureZstd() first');
  return loaded.compress(data, 3);
}

/** Whether a params array asks for `base64+zstd` in a config object (the account methods' encoding). */
export function asksZstd(params: unknown): boolean {
  return Array.isArray(params) && params.some((p) => p !== null && typeof p === 'object' && (p as { encoding?: unknown }).encoding === 'base64+zstd');
}
