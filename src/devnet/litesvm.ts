/**
 * LiteSVM as the chain drives it: the package loaded on first use, and the N-API object behind its
 * kit-typed wrapper, which takes and answers wire bytes directly.
 */
import { createRequire } from 'node:module';
import type { LiteSVM } from 'litesvm';
import { CairnError } from '../errors/index.js';

/** What to install when the optional peer is missing: the version the devnet is built and tested against. */
export const LITESVM_PEER = 'litesvm@1.4.1';

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
  try {
    return createRequire(import.meta.url)('litesvm') as typeof import('litesvm');
  } catch (cause) {
    // litesvm is an optional peer dependency (it is ~45 MB and only the devnet runs it): say what to
    // install rather than surface a bare MODULE_NOT_FOUND from deep inside startDevnet
    const missing = (cause as { code?: unknown }).code === 'MODULE_NOT_FOUND' && /'litesvm'/.test(String((cause as Error).message));
    if (!missing) throw cause;
    throw new CairnError(
      'DEVNET_START_FAILED',
      `cairn/devnet needs the optional peer dependency litesvm, which is not installed: run \`npm install --save-dev ${LITESVM_PEER}\``,
      { cause, context: { package: 'litesvm', install: `npm install --save-dev ${LITESVM_PEER}` } },
    );
  }
}

/** The N-API object behind a LiteSVM: skipping kit's decode/encode round trip halves the cost per
 * transaction on the hot path. */
export function innerOf(svm: LiteSVM): LiteSvmInner {
  return (svm as unknown as { inner: LiteSvmInner }).inner;
}
