/** Tool: a worker's CPU, helper CPU and allocation per item on the bytes path, no pool. */
/**
 * What a worker does per item on the bytes path, alone on this thread — `verifyJsonBatch` over a response body
 * in the pool's batch sizes, no pool, no messages. For each kind it reports:
 * - µs of this thread's CPU per item (median of the rounds),
 * - CPU per item of V8's helper threads (they run the collectors' parallel work: with every core
 *   verifying, that is time taken from the workers), from /proc/self/task/<tid>/schedstat,
 * - bytes allocated per item, garbage included (the sampling heap profiler with collected objects kept).
 *
 * `npx tsx bench/tools/worker-path.ts [--kinds asset-proof,asset-leaf] [--items N] [--batch N] [--repeated]`
 * (Linux for the helper CPU; `--batch` overrides the kinds' batch size). Asset proofs are distinct ones
 * (bench/lib/distinct-proofs.ts), or the two shipped ones repeated with `--repeated`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Session } from 'node:inspector/promises';
import { kinds, type KindName } from '../../src/merkle/kinds/index.js';
import { extractJson, type JsonItems } from '../../src/merkle/verifier/raw/extract.js';
import { packJsonBatch, verifyJsonBatch } from '../../src/merkle/verifier/raw/batch.js';
import { distinctAssetProofs } from '../lib/distinct-proofs.js';
import { argString, hasFlag } from '../lib/args.js';

const V = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'test', 'vectors');
const arg = argString;
const files = (dir: string, keep: (f: string) => boolean): string[] => readdirSync(join(V, dir)).filter(keep).map((f) => join(V, dir, f));
const sources: Record<KindName, string[]> = {
  'asset-proof': files('bubblegum', (f) => f.startsWith('mpl_')),
  'asset-leaf': [...files('das', (f) => !f.includes('decompress')), ...files('bubblegum', (f) => f.startsWith('mpl_'))],
  'account-proof': files('photon', () => true),
  'account-hash': files('photon', () => true),
  'address-proof': files('photon', () => true),
  'validity-proof': files('photon', (f) => f.includes('validity-proof')),
};
const wanted = (arg('--kinds') ?? 'asset-proof,asset-leaf').split(',') as KindName[];
for (const k of wanted) if (!(k in sources)) throw new Error(`--kinds: unknown kind ${k}`);

/** CPU µs of every thread of this process but this one, from schedstat (NaN off Linux). */
function helperCpuUs(): number {
  try {
    let sum = 0;
    for (const t of readdirSync('/proc/self/task')) {
      if (Number(t) === process.pid) continue;
      sum += Number(readFileSync(`/proc/self/task/${t}/schedstat`, 'utf8').split(' ')[0]) / 1000;
    }
    return sum;
  } catch {
    return Number.NaN;
  }
}

const med = (a: number[]): number => [...a].sort((x, y) => x - y)[a.length >> 1]!;

for (const kind of wanted) {
  const spec = kinds[kind];
  const base: unknown[] = [];
  for (const f of sources[kind]) {
    try {
      for (const { item } of spec.extract(JSON.parse(readFileSync(f, 'utf8')))) base.push(item);
    } catch {
      /* a file without items of this kind */
    }
  }
  const n = Number(arg('--items') ?? (kind === 'asset-proof' ? 40_000 : 4_000));
  const items = kind === 'asset-proof' && !hasFlag('--repeated') ? distinctAssetProofs(base, n) : Array.from({ length: n }, (_, i) => base[i % base.length]);
  const body = Buffer.from(JSON.stringify(items));
  const found = extractJson(spec, body, { parseBelow: 0 }) as JsonItems;
  const batches: ArrayBuffer[] = [];
  const size = Number(arg('--batch') ?? spec.batchSize);
  for (let a = 0; a < n; a += size) batches.push(packJsonBatch(found, a, Math.min(n, a + size)));
  const all = (): void => {
    for (const b of batches) {
      const r = verifyJsonBatch(kind, b, body);
      if ('bad' in r || r.valid.some((x) => (x & 1) === 0)) throw new Error(`${kind}: an item did not verify`);
    }
  };
  all();
  all();
  const cpu: number[] = [];
  const helpers: number[] = [];
  for (let r = 0; r < 7; r++) {
    const h = helperCpuUs();
    const c = process.cpuUsage();
    all();
    const d = process.cpuUsage(c);
    const hd = helperCpuUs() - h;
    helpers.push(hd / n);
    // process.cpuUsage counts every thread: take the helpers out.
    cpu.push((d.user + d.system - hd) / n);
  }
  const session = new Session();
  session.connect();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true } as never);
  all();
  const { profile } = (await session.post('HeapProfiler.stopSampling')) as { profile: { head: { selfSize: number; children: unknown[] } } };
  session.disconnect();
  let bytes = 0;
  const walk = (node: { selfSize: number; children: unknown[] }): void => {
    bytes += node.selfSize;
    for (const c of node.children) walk(c as typeof node);
  };
  walk(profile.head);
  console.log(
    `${kind.padEnd(14)} ${String(n).padStart(6)} items in ${batches.length} batches  ${med(cpu).toFixed(2).padStart(7)} µs/item this thread  ${med(helpers).toFixed(3)} µs/item V8 helpers  ${(bytes / n).toFixed(0).padStart(6)} bytes/item allocated`,
  );
}
