/**
 * LiteSVM as the chain drives it: the package loaded on first use, and the N-API object behind its
 * kit-typed wrapper, which takes and answers wire bytes directly.
 */
import { createRequire } from 'node:module';
import type { LiteSVM } from 'litesvm';
import { CairnError } from '../../errors/index.js';

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
 * litesvm, loaded on first use: it (with @solana/kit behind it) is ~40% of `import 'cairn-solana'` and only
 * the devnet needs it. It is a CommonJS package, so a synchronous require keeps `createChain` sync.
 * Missing, it throws DEVNET_DEPENDENCY_MISSING naming what to install.
 */
export function loadLiteSvm(): typeof import('litesvm') {
  try {
    return createRequire(import.meta.url)('litesvm') as typeof import('litesvm');
  } catch (cause) {
    throw missingDependency(cause) ?? cause;
  }
}

/** `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
function packageOf(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!;
}

/**
 * The typed error for a require of litesvm that failed because something is not installed, or null
 * for any other failure (rethrown as it is). litesvm is an optional peer dependency (~45 MB, only the
 * devnet runs it), so "not installed" is the likely case and deserves the install command rather than
 * a bare MODULE_NOT_FOUND from deep inside startDevnet. Three ways it shows: litesvm itself absent;
 * a dependency of it absent (@solana/kit, after a partial install); its platform binary absent (npm's
 * optional-dependency bug, which litesvm reports as "Cannot find native binding").
 */
export function missingDependency(cause: unknown): CairnError | null {
  const { code, message } = (cause ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' ? message : '';
  const install = `npm install --save-dev ${LITESVM_PEER}`;
  const missing = code === 'MODULE_NOT_FOUND' ? /Cannot find module '([^']+)'/.exec(text)?.[1] : undefined;
  if (missing !== undefined && !missing.startsWith('.') && !missing.startsWith('/')) {
    const pkg = packageOf(missing);
    const what =
      pkg === 'litesvm'
        ? 'cairn/devnet needs the optional peer dependency litesvm, which is not installed'
        : `litesvm (cairn/devnet's optional peer dependency) cannot load its dependency ${pkg}, which is not installed`;
    return new CairnError('DEVNET_DEPENDENCY_MISSING', `${what}: run \`${install}\``, { cause, context: { package: pkg, install } });
  }
  if (/Cannot find native binding/.test(text)) {
    const pkg = `litesvm-${process.platform}-${process.arch}`;
    const reinstall = 'rm -rf node_modules package-lock.json && npm install';
    return new CairnError(
      'DEVNET_DEPENDENCY_MISSING',
      `litesvm (cairn/devnet's optional peer dependency) is installed without its native binary ${pkg}* (npm's optional-dependency bug): run \`${reinstall}\``,
      { cause, context: { package: pkg, install: reinstall } },
    );
  }
  return null;
}

/** The N-API object behind a LiteSVM: skipping kit's decode/encode round trip halves the cost per
 * transaction on the hot path. */
export function innerOf(svm: LiteSVM): LiteSvmInner {
  return (svm as unknown as { inner: LiteSvmInner }).inner;
}
