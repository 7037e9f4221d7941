/** Tool: why 2 threads are not twice 1 for asset proofs (W1, W2, M, R split). */
/**
 * Why 2 threads are not twice 1 for asset proofs. A 1-thread and a 2-thread verifier take turns in one
 * process, verifying the same response; per round it measures the CPU per proof of their worker
 * threads (W1, W2), of the calling thread (M) and of the rest (R: V8's helper threads), and prints the
 * medians with the speedup they allow on two otherwise idle cores:
 *
 *   1 thread:  the calling thread runs beside the worker, on the other core, so a verify takes W1;
 *   2 threads: everything shares the two cores, so it takes (W2 + M + R) / 2;
 *   speedup = 2 × W1 / (W2 + M + R).
 *
 * W2 / W1 above 1 is the machine's own loss with both cores busy (a bare loop shows it too, see
 * bench/tools/scaling.ts); (M + R) / W is what the verifier adds.
 *
 * `npx tsx bench/tools/one-two.ts [--shared] [--table] [--rounds N]` (`--shared`: the body in a
 * SharedArrayBuffer, as `client.callRaw` returns it, else a Buffer; `--table`: `verifyTable`, else `verify`).
 */
import { pbkdf2 } from 'node:crypto';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import type { Verifier } from '../../src/merkle/verifier/types.js';
import { distinctAssetProofBody } from '../lib/distinct-proofs.js';
import { cpuSplit, threadsCpu } from '../lib/thread-cpu.js';
import { argNumber, median, hasFlag } from '../lib/args.js';

const arg = argNumber;
const ROUNDS = arg('--rounds', 8);
const VERIFIES = 4;
const ITEMS = 50_000;
const shared = hasFlag('--shared');
const table = hasFlag('--table');
const run = (v: Verifier): Promise<unknown> => (table ? v.verifyTable('asset-proof', body) : v.verify('asset-proof', body));
const body = distinctAssetProofBody(ITEMS, shared);

const newThreads = (known: Set<string>): Set<string> => new Set([...threadsCpu().keys()].filter((t) => !known.has(t)));

// libuv's pool first, so that none of its threads is taken for a worker.
await new Promise((r) => pbkdf2('', '', 1, 8, 'sha256', r));
const before = new Set(threadsCpu().keys());
const one = createVerifier({ threads: 1 });
await run(one);
const oneThreads = newThreads(before);
const two = createVerifier({ threads: 2 });
await run(two);
const twoThreads = newThreads(new Set([...before, ...oneThreads]));
try {
  for (let i = 0; i < 2; i++) {
    await run(one);
    await run(two);
  }
  /** Per verifier: wall, M, W, R per round (µs per proof). */
  const rows = { 1: [] as number[][], 2: [] as number[][] };
  for (let r = 0; r < ROUNDS; r++) {
    for (const [n, v, workers] of [[1, one, oneThreads], [2, two, twoThreads]] as const) {
      const { wall, main, workers: w, rest } = await cpuSplit(
        async () => {
          for (let i = 0; i < VERIFIES; i++) await run(v);
        },
        VERIFIES * ITEMS,
        // The other verifier's workers idle meanwhile; anything else is V8's helpers (or libuv's, idle).
        (t) => (workers.has(t) ? 'workers' : oneThreads.has(t) || twoThreads.has(t) ? null : 'rest'),
      );
      rows[n].push([wall, main, w, rest]);
    }
  }
  const col = (n: 1 | 2, k: number): number => median(rows[n].map((row) => row[k]!));
  const [w1, w2, m2, r2] = [col(1, 2), col(2, 2), col(2, 1), col(2, 3)];
  console.log(`asset-proof ${shared ? 'shared' : 'bytes'}${table ? ' → table' : ''}, ${ROUNDS} rounds of ${VERIFIES} verifies of ${ITEMS} (medians, µs per proof):`);
  for (const n of [1, 2] as const) console.log(`  ${n} thread(s): wall ${col(n, 0).toFixed(3)}, workers ${col(n, 2).toFixed(3)}, calling thread ${col(n, 1).toFixed(3)}, helpers ${col(n, 3).toFixed(3)}`);
  console.log(
    `  W2/W1 ${(w2 / w1).toFixed(3)}, (M + R)/W1 ${((m2 + r2) / w1).toFixed(3)}; bound 2·W1/(W2+M+R) ×${((2 * w1) / (w2 + m2 + r2)).toFixed(2)}, ` +
      `with W2 = W1 ×${((2 * w1) / (w1 + m2 + r2)).toFixed(2)}; wall ×${median(rows[1].map((row, i) => row[0]! / rows[2][i]![0]!)).toFixed(2)}`,
  );
} finally {
  await one.close();
  await two.close();
}
