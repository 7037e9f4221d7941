/** Tool: old/new time of `verify` against another git worktree, interleaved in one process. */
/**
 * Is this tree's `verify` faster than another version's, on this loaded host? Both verifiers run in one
 * process and take turns (the order alternating), so they meet the same load; it prints the median and
 * mean (95% interval) of old/new time over the pairs. Separate runs of each, minutes apart, differ by
 * more than most changes do here.
 *
 * The other version is a git worktree with its own native build:
 *   git worktree add /tmp/old <rev> && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   (cd /tmp/old && node scripts/build-native.mjs)
 *   npx tsx bench/tools/old-new.ts /tmp/old [--threads N] [--pairs N] [--items N] [--shared]
 *   git worktree remove --force /tmp/old
 *
 * Input: distinct asset proofs (bench/lib/distinct-proofs.ts) as response bytes (`--shared`: in a
 * SharedArrayBuffer, as `client.callRaw` returns them; `--objects`: parsed). Besides the time, it prints
 * the calling thread's CPU per proof on each side (medians): the part of a verify that does not scale
 * with threads.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createVerifier } from '../../src/merkle/verifier/create-verifier.js';
import { distinctAssetProofBody, distinctAssetProofItems } from '../lib/distinct-proofs.js';
import { threadCpuNs } from '../lib/thread-cpu.js';
import { argNumber, median, hasFlag } from '../lib/args.js';

const arg = argNumber;
const oldTree = process.argv[2];
if (!oldTree || oldTree.startsWith('--')) {
  console.error('usage: npx tsx bench/tools/old-new.ts <worktree of the other version> [--threads N] [--pairs N] [--items N] [--shared | --objects]');
  process.exit(2);
}
const THREADS = arg('--threads', 2);
const PAIRS = arg('--pairs', 40);
const ITEMS = arg('--items', 50_000);

// The verifier's file in the other tree: where it is since issue 30, or where it was before.
const oldEntry = ['src/merkle/verifier/create-verifier.ts', 'src/merkle/verifier.ts'].map((p) => resolve(oldTree, p)).find((p) => existsSync(p));
if (!oldEntry) throw new Error(`no verifier in ${oldTree}: src/merkle/verifier/create-verifier.ts nor src/merkle/verifier.ts`);
const { createVerifier: createOld } = (await import(pathToFileURL(oldEntry).href)) as { createVerifier: typeof createVerifier };
const objects = hasFlag('--objects');
const input: unknown = objects ? distinctAssetProofItems(ITEMS) : distinctAssetProofBody(ITEMS, hasFlag('--shared'));
const from = objects ? 'parsed objects' : hasFlag('--shared') ? 'shared memory' : 'a Buffer';
const mainCpu = (): number => threadCpuNs(process.pid);

const fresh = createVerifier({ threads: THREADS });
const old = createOld({ threads: THREADS });
const ratios: number[] = [];
const sums = [0, 0];
/** The calling thread's CPU µs per proof in each verify: [new, old]. */
const cpu: [number[], number[]] = [[], []];
try {
  for (let i = 0; i < 3; i++) {
    await fresh.verify('asset-proof', input);
    await old.verify('asset-proof', input);
  }
  for (let r = 0; r < PAIRS; r++) {
    const t = [0, 0];
    for (const k of r % 2 ? [0, 1] : [1, 0]) {
      const c = mainCpu();
      const s = performance.now();
      await (k === 0 ? fresh : old).verify('asset-proof', input);
      t[k] = performance.now() - s;
      cpu[k]!.push((mainCpu() - c) / 1e3 / ITEMS);
    }
    ratios.push(t[1]! / t[0]!);
    sums[0]! += t[0]!;
    sums[1]! += t[1]!;
  }
  ratios.sort((x, y) => x - y);
  const mean = ratios.reduce((x, y) => x + y, 0) / ratios.length;
  const sd = Math.sqrt(ratios.reduce((x, y) => x + (y - mean) ** 2, 0) / Math.max(1, ratios.length - 1));
  console.log(
    `${THREADS} thread(s), ${ITEMS} asset proofs from ${from}, ${PAIRS} pairs: ` +
      `old/new time median ${ratios[ratios.length >> 1]!.toFixed(3)}, mean ${mean.toFixed(3)} ± ${((1.96 * sd) / Math.sqrt(ratios.length)).toFixed(3)}; ` +
      `new ${(sums[0]! / PAIRS).toFixed(0)} ms, old ${(sums[1]! / PAIRS).toFixed(0)} ms per verify; ` +
      `calling thread's CPU per proof: new ${median(cpu[0]).toFixed(2)} µs, old ${median(cpu[1]).toFixed(2)} µs`,
  );
} finally {
  await fresh.close();
  await old.close();
}
