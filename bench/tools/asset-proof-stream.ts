/** Tool: writes a JSON array of N asset proofs to stdout, lazily, for bounded-memory runs of `cairn verify -`. */
/**
 * A getAssetProofBatch-sized input of any length without a file: the shipped Bubblegum vector's proof
 * repeated N times inside one JSON array, written a thousand at a time at the reader's pace. Piped
 * into the CLI it measures what streaming holds (issue 32's goal: 10 million items in ≤ 300 MB RSS):
 *
 *   npm run build
 *   npx tsx bench/tools/asset-proof-stream.ts 10000000 | /usr/bin/time -v node dist/cli/main.js \
 *     verify asset-proof - --only-invalid --max-bytes 20000000000
 *
 * (`Maximum resident set size` is the figure; 10 million proofs are ~15 GB of JSON, hence the cap.)
 */
import { readFileSync } from 'node:fs';

const vector = new URL('../../test/vectors/bubblegum/mpl_bubblegum_dasApi_BZHZ4GX7_depth14_canopy0.json', import.meta.url);
const one = JSON.stringify(JSON.parse(readFileSync(vector, 'utf8')).getAssetProof);
const n = Number(process.argv[2] ?? 10_000_000);
if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`N: expected a positive integer, got ${process.argv[2]}`);
const PER = 1000;
const block = Buffer.from(Array(PER).fill(one).join(','));
let written = 0;

function pump(): void {
  while (written < n) {
    const k = Math.min(PER, n - written);
    const body = k === PER ? block : Buffer.from(Array(k).fill(one).join(','));
    const chunk = written === 0 ? body : Buffer.concat([Buffer.from(','), body]);
    written += k;
    if (!process.stdout.write(chunk)) {
      process.stdout.once('drain', pump);
      return;
    }
  }
  process.stdout.write(']\n');
}
process.stdout.write('[');
pump();
