/**
 * The map that keeps two intents from sharing one transaction. Past 50,000 entries it forgets those
 * whose blockhash is two windows behind the newest claimed; a durable-nonce claim (no window) must
 * not count as "newest", or it would make every live entry look long gone.
 */
import { describe, expect, it } from 'vitest';
import { createSignatureOwners } from '../../src/sender/intent/signature-owners.js';

describe('signature owners', () => {
  it('refuses a signature another intent owns, and lets its owner claim it again', () => {
    const owners = createSignatureOwners();
    expect(owners.claim('a', 'sig-1', 1_000)).toBe(true);
    expect(owners.claim('b', 'sig-1', 1_000)).toBe(false);
    expect(owners.claim('a', 'sig-1', 1_000)).toBe(true);
    expect(owners.ownerOf('sig-1')).toBe('a');
  });

  it('past 50,000 entries forgets only blockhashes two windows behind the newest', () => {
    const owners = createSignatureOwners();
    for (let i = 0; i < 50_000; i++) owners.claim(`old-${i}`, `old-sig-${i}`, 1_000);
    owners.claim('live', 'live-sig', 1_200);
    owners.claim('newest', 'newest-sig', 1_400); // 51,002 entries: the 1,000s are 400 behind
    expect(owners.ownerOf('old-sig-0')).toBeUndefined();
    expect(owners.ownerOf('live-sig')).toBe('live');
    expect(owners.claim('other', 'live-sig', 1_400)).toBe(false);
  });

  it('a durable-nonce claim (no window) prunes nothing that is still live', () => {
    const owners = createSignatureOwners();
    for (let i = 0; i < 50_000; i++) owners.claim(`live-${i}`, `live-sig-${i}`, 1_000);
    owners.claim('nonce', 'nonce-sig', Number.MAX_SAFE_INTEGER);
    owners.claim('nonce-2', 'nonce-sig-2', Number.MAX_SAFE_INTEGER);
    expect(owners.ownerOf('live-sig-0')).toBe('live-0');
    expect(owners.claim('other', 'live-sig-0', 1_000)).toBe(false);
    // and nonce entries survive blockhash pruning
    owners.claim('later', 'later-sig', 5_000);
    expect(owners.ownerOf('live-sig-0')).toBeUndefined();
    expect(owners.ownerOf('nonce-sig')).toBe('nonce');
  });
});

describe('signature owners adopted from a journal', () => {
  it("keep a durable-nonce intent's signed bytes past blockhash pruning", () => {
    const owners = createSignatureOwners();
    const nonce = { account: 'N', value: 'V' };
    owners.adopt([{ id: 'n', signed: { signature: 'nonce-sig', wire: '', nonce, attempt: 1 } } as never]);
    for (let i = 0; i < 50_000; i++) owners.claim(`b-${i}`, `b-sig-${i}`, 1_000 + i);
    expect(owners.ownerOf('nonce-sig')).toBe('n');
    expect(owners.claim('other', 'nonce-sig', 60_000)).toBe(false);
  });
});

describe('signature owners shared by a fleet', () => {
  /** A fleet's table as its check-and-set answers (journal-postgres.test.ts runs the real one). */
  const table = () => {
    const rows = new Map<string, string>();
    const calls: string[] = [];
    return {
      calls,
      shared: async () => ({
        claimSignature: async (id: string, signature: string) => {
          calls.push(signature);
          if (!rows.has(signature)) rows.set(signature, id);
          return rows.get(signature) === id;
        },
      }),
      rows,
    };
  };

  it('asks the table only what this process does not know: a refusal here, or a signature it already owns, costs no round trip', async () => {
    const t = table();
    t.rows.set('theirs', 'other-process-intent');
    const owners = createSignatureOwners(t.shared);
    expect(await owners.claimShared('a', 'sig-1', 1_000)).toBe(true);
    expect(owners.claimShared('b', 'sig-1', 1_000)).toBe(false); // known here: synchronous
    expect(owners.claimShared('a', 'sig-1', 1_000)).toBe(true); // owned, confirmed: synchronous
    expect(await owners.claimShared('a', 'theirs', 1_000)).toBe(false);
    expect(owners.claimShared('c', 'theirs', 1_000)).toBe(false); // remembered as another process's
    expect(t.calls).toEqual(['sig-1', 'theirs']);
  });

  it('without a shared table claimShared is the synchronous in-process claim', () => {
    const owners = createSignatureOwners();
    expect(owners.claimShared('a', 'sig-1', 1_000)).toBe(true);
    expect(owners.claimShared('b', 'sig-1', 1_000)).toBe(false);
  });
});
