/** Tool: does `verify` scale from 1 to 2 threads as well as a bare loop does at the same moments? */
/**
 * Does `verify` scale from 1 to 2 threads as well as this machine lets a bare loop scale, at the same
 * moments? On a shared host neither reaches ×2, and the load swings within seconds, so each round runs
 * four things back to back — a bare loop on 1 and on 2 worker threads, then `verify` of the same
 * asset-proof response on a 1-thread and a 2-thread verifier. It prints both medians, verify's speedup
 * over the loop's per round (its median), and how many rounds verify reached ×1.8. The four parts of a
 * round still meet different load: a ratio above 1 only means the loop met more of it, so this tells
 * "about as well as the machine allows", not an idle machine's figure.
 *
 * `npx tsx bench/tools/scaling.ts [--rounds N] [--items N] [--shared]` (`--shared`: the body in a
 * SharedArrayBuffer, as `client.callRaw` returns it; else a Buffer, copied to shared memory by the
 * verifier). Asset proofs are distinct ones (bench/lib/distinct-proofs.ts).
 */
import { Worker } from 'node:worker_threads';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import type { Verifier } from '../../src/merkle/verifier/types.js';
import { distinctAssetProofBody } from '../lib/distinct-proofs.js';
import { argNumber, hasFlag, median } from '../lib/args.js';

const arg = argNumber;
const ROUNDS = arg('--rounds', 15);
const ITEMS = arg('--items', 50_000);
const shared = hasFlag('--shared');
const table = hasFlag('--table');

const body = distinctAssetProofBody(ITEMS, shared);
const run = (v: Verifier): Promise<unknown> => (table ? v.verifyTable('asset-proof', body) : v.verify('asset-proof', body));

// The bare loop: the same count on each thread, so 2 threads take as long as 1 when 2 cores are free.
const code = `const { parentPort } = require('node:worker_threads');
  parentPort.on('message', (n) => { let x = 0; for (let i = 0; i < n; i++) x = (x + i * 7) | 0; parentPort.postMessage(x); });`;
const loopers = [new Worker(code, { eval: true }), new Worker(code, { eval: true })];
const loop = async (threads: number, n: number): Promise<number> => {
  const t = performance.now();
  await Promise.all(loopers.slice(0, threads).map((w) => new Promise((r) => (w.once('message', r), w.postMessage(n)))));
  return performance.now() - t;
};
const timed = async (f: () => Promise<unknown>): Promise<number> => {
  const t = performance.now();
  await f();
  return performance.now() - t;
};

const v1 = createVerifier({ threads: 1 });
const v2 = createVerifier({ threads: 2 });
try {
  await loop(2, 1e7);
  // About as long on one thread as a 2-thread verify of the response.
  const n = Math.round((2e8 * 200) / Math.max(1, await loop(1, 2e8)));
  for (let i = 0; i < 3; i++) {
    await run(v1);
    await run(v2);
  }
  const loopX: number[] = [];
  const verifyX: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const l1 = await loop(1, n);
    const l2 = await loop(2, n);
    const t1 = await timed(() => run(v1));
    const t2 = await timed(() => run(v2));
    loopX.push((2 * l1) / l2);
    verifyX.push(t1 / t2);
  }
  const rel = median(verifyX.map((x, i) => x / loopX[i]!));
  console.log(
    `asset-proof ${shared ? 'shared' : 'bytes'}${table ? ' → table' : ''}, ${ITEMS} proofs, ${ROUNDS} rounds: bare loop 2T ×${median(loopX).toFixed(2)}, verify 2T ×${median(verifyX).toFixed(2)} (medians); ` +
      `verify/loop per round, median ${rel.toFixed(2)}; verify ≥ ×1.8 in ${verifyX.filter((x) => x >= 1.8).length} of ${ROUNDS} rounds (loop: ${loopX.filter((x) => x >= 1.8).length})`,
  );
} finally {
  await v1.close();
  await v2.close();
  await Promise.all(loopers.map((w) => w.terminate()));
}
