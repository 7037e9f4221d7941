/**
 * The public surface of each entry point (`cairn-solana`, `cairn-solana/merkle`, `cairn-solana/sender`, `cairn-solana/devnet`,
 * `cairn-solana/mint`) matches its reviewed listing in api/. An export added or removed, or a public
 * signature changed, fails here until the listing is regenerated on purpose with `npm run api:update`
 * (and the diff of api/ reviewed with the change).
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiFile, emitDeclarations, ENTRIES, listing, UPDATE_COMMAND } from './api-report.js';

let dir: string;
beforeAll(() => {
  dir = emitDeclarations();
}, 120_000);
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The names whose `## name` blocks differ, for a message a reader can act on. */
function changedNames(want: string, got: string): { added: string[]; removed: string[]; changed: string[] } {
  const blocks = (text: string): Map<string, string> => {
    const out = new Map<string, string>();
    for (const part of text.split(/^## /m).slice(1)) {
      const nl = part.indexOf('\n');
      out.set(part.slice(0, nl).trim(), part.slice(nl));
    }
    return out;
  };
  const a = blocks(want);
  const b = blocks(got);
  return {
    added: [...b.keys()].filter((k) => !a.has(k)),
    removed: [...a.keys()].filter((k) => !b.has(k)),
    changed: [...b.keys()].filter((k) => a.has(k) && a.get(k) !== b.get(k)),
  };
}

describe('API report', () => {
  for (const entry of Object.keys(ENTRIES)) {
    it(`${entry}: the exported names and declarations match api/${entry}.api.md`, () => {
      const file = apiFile(entry);
      const got = listing(dir, entry);
      const want = existsSync(file) ? readFileSync(file, 'utf8') : '';
      if (got !== want) {
        const d = changedNames(want, got);
        const say = (label: string, names: string[]) => (names.length ? `\n  ${label}: ${names.join(', ')}` : '');
        throw new Error(
          `The public API of ${entry === 'cairn' ? "'cairn-solana'" : `'cairn-solana/${entry}'`} changed:` +
            say('added', d.added) +
            say('removed', d.removed) +
            say('signature changed', d.changed) +
            `\nIf the change is deliberate, run \`${UPDATE_COMMAND}\` and commit api/ with it; otherwise undo the change to the surface.`,
        );
      }
      expect(got).toBe(want);
    });
  }
});
