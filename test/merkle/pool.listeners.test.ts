/**
 * A pool of many threads takes one abort listener per signal, not one per batch in flight: with 11
 * threads and more (two batches each), every run with a signal printed Node's
 * MaxListenersExceededWarning ("11 abort listeners added to [AbortSignal]"), and a long-lived signal
 * shared by many calls held a listener per batch until it settled.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { getEventListeners } from 'node:events';
import { readFileSync } from 'node:fs';
import { WorkerPool } from '../../src/merkle/pool.js';
import { BatchWriter } from '../../src/merkle/records/batch-writer.js';
import { packItem } from '../../src/merkle/kinds/verify-batch.js';
import { kinds } from '../../src/merkle/kinds/index.js';

const proofs = JSON.parse(readFileSync('test/vectors/photon/e2e_tests__e2e_mint_and_transfer-bob-proofs.json', 'utf8')).value as unknown[];
const batch = (): ArrayBuffer => {
  const w = new BatchWriter(1, kinds['account-proof'].recordBytes);
  packItem(kinds['account-proof'], proofs[0], w);
  return w.finish();
};

// 64 threads under tsx cost ~1 s of CPU each to start: the test never waits for them, since every
// listener is added (and the warning would be printed) when the batches are handed to the pool.
const pool = new WorkerPool({ threads: 64 });
afterAll(() => pool.close());

describe('64 threads', () => {
  it('no MaxListenersExceededWarning with every thread busy, one listener per signal, none left after', async () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const a = new AbortController();
      const b = new AbortController();
      // 128 batches in the threads' ports and 72 queued, half on each of two signals
      const runs = Array.from({ length: 200 }, (_, i) => pool.run('account-proof', batch(), 1, { signal: (i % 2 ? b : a).signal, repack: batch }));
      for (const r of runs) r.catch(() => {}); // each is checked below; none may go unhandled if an assertion fails first
      expect(getEventListeners(a.signal, 'abort')).toHaveLength(1);
      expect(getEventListeners(b.signal, 'abort')).toHaveLength(1);
      a.abort();
      b.abort();
      const settled = await Promise.allSettled(runs);
      expect(settled.every((s) => s.status === 'rejected' && (s.reason as { code?: string }).code === 'MERKLE_ABORTED')).toBe(true);
      expect(getEventListeners(a.signal, 'abort')).toHaveLength(0);
      expect(getEventListeners(b.signal, 'abort')).toHaveLength(0);
      // a signal that never aborts keeps no listener once its batches are settled (here by close)
      const c = new AbortController();
      const closed = pool.run('account-proof', batch(), 1, { signal: c.signal, repack: batch }).then(
        () => 'resolved',
        (e: unknown) => e,
      );
      expect(getEventListeners(c.signal, 'abort')).toHaveLength(1);
      await pool.close();
      expect(await closed).toMatchObject({ code: 'MERKLE_POOL_CLOSED' });
      expect(getEventListeners(c.signal, 'abort')).toHaveLength(0);
      // Node emits its warning on a later tick
      await new Promise((r) => setImmediate(r));
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([]);
  });
});
