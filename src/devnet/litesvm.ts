/**
 * LiteSVM as the chain drives it: the package loaded on first use, and the N-API object behind its
 * kit-typed wrapper, which takes and answers wire bytes directly.
 */
import { createRequire } from 'node:module';
import type { LiteSVM } from 'litesvm';

/** The part of LiteSVM's N-API object the chain calls: wire bytes in, no kit decode/encode. */
export interface LiteSvmInner {
  getBalance(address: Uint8Array): bigint | null;
  sendLegacyTransaction(wire: Uint8Array): unknown;
  sendVersionedTransaction(wire: Uint8Array): unknown;
  simulateLegacyTransaction(wire: Uint8Array): unknown;
  simulateVersionedTransaction(wire: Uint8Array): unknown;
  setSigverify(on: boolean): void;
}

/**
 * litesvm, loaded on first use: it (with @solana/kit behind it) is ~40% of `import 'cairn'` and only
 * the devnet needs it. It is a CommonJS package, so a synchronous require keeps `createChain` sync.
 */
export function loadLiteSvm(): typeof import('litesvm') {
  return createRequire(import.meta.url)('litesvm') as typeof import('litesvm');
}

/** The N-API object behind a LiteSVM: skipping kit's decode/encode round trip halves the cost per
 * transaction on the hot path. */
export function innerOf(svm: LiteSVM): LiteSvmInner {
  return (svm as unknown as { inner: LiteSvmInner }).inner;
}
