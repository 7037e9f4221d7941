/**
 * Deprecated paths stay honest: they work, and say once per process that they are deprecated and
 * what replaces them — in cairn's words, one `cairn: … is deprecated` line on stderr (or to the
 * caller's logger), not Node's `DeprecationWarning` with its "Use `node --trace-deprecation`" hint,
 * which told a mint script's user about Node internals on every run. Silenced by an option
 * (`createClient({ deprecationWarnings: false })`, `mintCompressedNft(…, { deprecationWarnings:
 * false })`), by the CLI's `--quiet`, and by Node's own `--no-deprecation`.
 */
const warned = new Set<string>();

/**
 * Say the deprecation `code` once per process: to `logger` when given, else one line on stderr.
 * `enabled: false` (the caller's option: it knows) says nothing, and nothing more for that code in
 * this process — so a workflow told to be quiet is not undone by the client call it makes.
 * Returns true when it said it.
 *
 * @example
 * warnDeprecatedOnce('CAIRN_DEP_TOKEN_METADATA', 'token-metadata is deprecated; use getAssetBatch');
 */
export function warnDeprecatedOnce(code: string, message: string, logger?: (line: string) => void, enabled = true): boolean {
  if (warned.has(code)) return false;
  warned.add(code);
  if (!enabled || process.noDeprecation === true) return false;
  if (logger) logger(`cairn: ${message}`);
  else process.stderr.write(`cairn: ${message} (said once; silence it with { deprecationWarnings: false } or --quiet)\n`);
  return true;
}

/** Forget which warnings were emitted. It sits beside the set it clears; the tests reach it through src/internal.ts. */
export function resetDeprecationWarnings(): void {
  warned.clear();
}
