/**
 * Deprecated paths stay honest: they work, and say once per process that they are deprecated and
 * what replaces them. Node's `process.emitWarning` carries it (so `--no-deprecation` silences it
 * and `--throw-deprecation` makes it fatal), plus the client's logger when one is set.
 */
const warned = new Set<string>();

/**
 * Emit a `DeprecationWarning` with `code` the first time only. Returns true when it warned.
 *
 * @example
 * warnDeprecatedOnce('CAIRN_DEP_TOKEN_METADATA', 'token-metadata is deprecated; use getAssetBatch');
 */
export function warnDeprecatedOnce(code: string, message: string, logger?: (line: string) => void): boolean {
  if (warned.has(code)) return false;
  warned.add(code);
  process.emitWarning(message, { type: 'DeprecationWarning', code });
  logger?.(`cairn: ${message}`);
  return true;
}

/** Forget which warnings were emitted. It sits beside the set it clears; the tests reach it through src/internal.ts. */
export function resetDeprecationWarnings(): void {
  warned.clear();
}
