/**
 * Run by verifier.close.test.ts in a process of its own (`node --import tsx`): whether `close()` settles can
 * only be seen where nothing else keeps the event loop alive (vitest's own handles would). Each
 * scenario prints `<name> closed` once its `close()` settled; a close that never settles leaves the
 * process to end with the top-level await unsettled (exit 13) and the line missing.
 */
import { readFileSync } from 'node:fs';
import { createVerifier } from '../../../src/merkle/verifier/create-verifier.js';
import { WorkerPool } from '../../../src/merkle/pool.js';

const proof = JSON.parse(readFileSync('test/vectors/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json', 'utf8')).getAssetProof;
const text = JSON.stringify(proof);
/** `n` asset proofs as a JSON array's bytes, with a foreign item at `bad` (if given). */
const body = (n: number, bad = -1): Uint8Array => Buffer.from(`[${Array.from({ length: n }, (_, i) => (i === bad ? '{"bogus":1}' : text)).join(',')}]`);
const settled = (p: Promise<unknown>): Promise<string> => p.then(() => 'ok', (e: { code?: string }) => e.code ?? 'error');
/** Resolves once the verifier's workers have answered a batch (so the rest are under way). */
async function running(v: { completed: number }): Promise<void> {
  while (v.completed === 0) await new Promise((r) => setTimeout(r, 2));
}

const scenarios: Record<string, () => Promise<void>> = {
  // A foreign item in a later batch: verify fails while the workers still run the batches after it.
  async failed() {
    const v = createVerifier({ threads: 2, batchSize: 64 });
    console.log('failed', await settled(v.verify('asset-proof', body(3000, 1500))));
    await v.close();
  },
  // Aborted mid-run: the batches already in the workers answer after the verifier has given up.
  async aborted() {
    const v = createVerifier({ threads: 2, batchSize: 64 });
    const ac = new AbortController();
    const p = settled(v.verifyTable('asset-proof', body(3000), { signal: ac.signal }));
    await running(v);
    ac.abort();
    console.log('aborted', await p);
    await v.close();
  },
  // Closed while batches run: they fail with the pool closed, and the close still ends.
  async midRun() {
    const v = createVerifier({ threads: 2, batchSize: 64 });
    const p = settled(v.verify('asset-proof', body(3000)));
    await running(v);
    await v.close();
    console.log('midRun', await p);
  },
  // A worker that dies: the pool replaces it, and close ends the replacement too.
  async crashed() {
    const pool = new WorkerPool({ threads: 1, testHooks: true });
    console.log('crashed', await settled(pool.run('__crash__', new ArrayBuffer(8), 1)));
    await pool.close();
  },
  // Twice at once, and again after: every call settles only once every thread has exited (a
  // thread still exiting holds its MessagePort open).
  async twice() {
    const pool = new WorkerPool({ threads: 2 });
    await new Promise((r) => setTimeout(r, 50));
    const first = pool.close();
    await pool.close();
    const ports = process.getActiveResourcesInfo().filter((r) => r === 'MessagePort').length;
    console.log('twice', pool.liveWorkers === 0 && ports === 0 ? 'all exited' : `${pool.liveWorkers} alive, ${ports} ports open`);
    await first;
    await pool.close();
  },
};

const rounds = Number(process.argv[3] ?? 1);
for (const name of (process.argv[2] ?? Object.keys(scenarios).join(',')).split(',')) {
  for (let i = 0; i < rounds; i++) {
    await scenarios[name]!();
    console.log(`${name} closed`);
  }
}
