/** Tool: what packing a parsed item for the workers costs the calling thread. */
/**
 * What packing a parsed item for the workers costs the calling thread, the serial part of `verify` on
 * parsed objects. It packs copies of every vector item of the kind (structuredClone: no string shared
 * between items) in batches, as `verify` does, and prints the median µs per item over 15 runs.
 *
 * `npx tsx bench/tools/pack-cost.ts [--kind asset-leaf] [--items 20000]`
 */
import { readdirSync, readFileSync } from 'node:fs';
import { getKind } from '../../src/merkle/kinds/index.js';
import { packItem } from '../../src/merkle/kinds/verify-batch.js';
import { BatchWriter } from '../../src/merkle/records/batch-writer.js';
import { argString } from '../lib/args.js';

const argOf = (name: string, dflt: string): string => argString(name) ?? dflt;
const spec = getKind(argOf('--kind', 'asset-leaf'));
const N = Number(argOf('--items', '20000'));

const base: unknown[] = [];
for (const dir of ['das', 'bubblegum', 'photon']) {
  const at = new URL(`../../test/vectors/${dir}/`, import.meta.url);
  for (const f of readdirSync(at).filter((x) => x.endsWith('.json'))) {
    try {
      for (const { item } of spec.extract(JSON.parse(readFileSync(new URL(f, at), 'utf8')))) if (item !== null) base.push(item);
    } catch {
      // no item of this kind in that file
    }
  }
}
if (base.length === 0) throw new Error(`no ${spec.name} items in the vectors`);
const items = Array.from({ length: N }, (_, i) => structuredClone(base[i % base.length]));

const run = (): number => {
  const t = performance.now();
  for (let a = 0; a < N; a += spec.batchSize) {
    const b = Math.min(N, a + spec.batchSize);
    const w = new BatchWriter(b - a, spec.recordBytes);
    for (let i = a; i < b; i++) packItem(spec, items[i], w);
    w.finish();
  }
  return ((performance.now() - t) * 1000) / N;
};
for (let i = 0; i < 5; i++) run();
const runs = Array.from({ length: 15 }, run).sort((x, y) => x - y);
console.log(`${spec.name}: packing ${N} parsed items (${base.length} distinct vectors) ${runs[7]!.toFixed(3)} µs/item median, ${runs[0]!.toFixed(3)} best`);
