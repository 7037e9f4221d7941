/** Tool: CPU per asset proof by thread (calling thread, workers, V8 helpers) while a 2-thread verifier runs alone. */
/**
 * Where the CPU goes while a 2-thread verifier checks 50,000 asset proofs, by thread (Linux schedstat), in a
 * process that runs nothing else. bench/merkle-pool.ts interleaves 0, 1 and 2 threads in one process,
 * so the collector's work left by one round's garbage is done, and counted, in another's; here every
 * verify is a 2-thread one.
 *
 * Per round of `--verifies` verifies it prints the CPU per proof of the main thread, of the worker
 * threads (the threads the verifier starts), and of the rest (V8's helper threads: mostly garbage
 * collection), and the 2-thread speedup those figures allow on two otherwise idle cores,
 * max(W, A/2) / max(A/2, M, W/2) with A = all, M = main, W = workers (see bench/merkle-pool.ts).
 *
 * `npx tsx bench/tools/cpu-by-thread.ts [--shared] [--rounds N] [--verifies N]` (`--shared`: the body in a
 * SharedArrayBuffer, as `client.callRaw` returns it; else a Buffer).
 */
import { pbkdf2 } from 'node:crypto';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { distinctAssetProofBody } from '../lib/distinct-proofs.js';
import { cpuSplit, threadsCpu } from '../lib/thread-cpu.js';
import { argNumber, hasFlag } from '../lib/args.js';

const arg = argNumber;
const ROUNDS = arg('--rounds', 5);
const VERIFIES = arg('--verifies', 6);
const ITEMS = 50_000;

const body = distinctAssetProofBody(ITEMS, hasFlag('--shared'));

// libuv's pool first, so that none of its threads is taken for a worker.
await new Promise((r) => pbkdf2('', '', 1, 8, 'sha256', r));
const before = new Set(threadsCpu().keys());
const v = createVerifier({ threads: 2 });
try {
  for (let i = 0; i < 3; i++) await v.verify('asset-proof', body);
  const bounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const { wall, main, workers, rest } = await cpuSplit(
      async () => {
        for (let i = 0; i < VERIFIES; i++) await v.verify('asset-proof', body);
      },
      VERIFIES * ITEMS,
      (t) => (before.has(t) ? 'rest' : 'workers'),
    );
    const all = main + workers + rest;
    const bound = Math.max(workers, all / 2) / Math.max(all / 2, main, workers / 2);
    bounds.push(bound);
    console.log(
      `round ${r + 1}: wall ${wall.toFixed(2)} µs/proof; CPU µs/proof: main ${main.toFixed(3)}, workers ${workers.toFixed(3)}, rest ${rest.toFixed(3)}; bound ×${bound.toFixed(2)}`,
    );
  }
  bounds.sort((p, q) => p - q);
  console.log(`asset-proof ${hasFlag('--shared') ? 'shared' : 'bytes'}: 2-thread CPU bound, median of ${ROUNDS} rounds ×${bounds[ROUNDS >> 1]!.toFixed(2)} (×${bounds[0]!.toFixed(2)}–${bounds[ROUNDS - 1]!.toFixed(2)})`);
} finally {
  await v.close();
}
