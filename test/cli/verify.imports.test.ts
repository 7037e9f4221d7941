/**
 * `cairn verify` is a client of cairn's public API: src/cli/verify.ts imports nothing but Node's
 * modules, its own CLI helpers and the package's public entries (`cairn-solana/merkle`, `cairn-solana`) — no
 * internal module, and so no hidden contract (a module-level cache) with the verifier.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';

const source = readFileSync(new URL('../../src/cli/verify.ts', import.meta.url), 'utf8');
/** Every module specifier: static imports and re-exports (`from '…'`), bare imports, dynamic `import('…')`. */
const specifiers = [...source.matchAll(/\bfrom\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]|\bimport\(\s*['"`]([^'"`]+)['"`]\s*\)/gm)].map((m) => m[1] ?? m[2] ?? m[3]!);
const allowed = (s: string): boolean => s.startsWith('node:') || /^\.\/[\w-]+\.js$/.test(s) || s === '../merkle/index.js' || s === '../index.js';

describe('src/cli/verify.ts imports only public entries', () => {
  it('finds its imports', () => {
    expect(specifiers).toContain('../merkle/index.js');
  });
  it('imports nothing else', () => {
    expect(specifiers.filter((s) => !allowed(s))).toEqual([]);
  });
});
