/**
 * The devnet's Groth16 prover (src/prover) against snarkjs's prover on the SAME constraint systems
 * and witnesses, in the same run: H3b's circuits are written as iden3 `.r1cs` and the witnesses as
 * `.wtns` binaries (the formats of r1csfile / wtnsfile, which snarkjs reads), snarkjs makes a
 * powers-of-tau file and a zkey for each (cached in node_modules/.cache/cairn/snarkjs), and
 * `snarkjs.groth16.prove(zkey, wtns)` is timed beside cairn's `prove(pk, r1cs, witness)`.
 *
 * cairn proves on one thread (the devnet's prover thread); snarkjs as users run it, on
 * ffjavascript's worker threads (one per core: 2 here) — its single-thread figure is given too.
 * Then the devnet: seconds from `getValidityProof` (inclusion-1) to the answer, the first request
 * (thread start, key load from the cache) and a warm one.
 *
 * Writes bench/results/prover.{json,md}. `npm run bench -- prover` (first run: minutes, making keys).
 */
import { mkdirSync, existsSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { Keypair } from '@solana/web3.js';
import { startDevnet } from '../src/devnet/index.js';
import { initGroth16, parseVerifyingKey, verifyGroth16 } from '../src/merkle/groth16/verify.js';
import { circuitFor, witnessFor, type CircuitShape } from '../src/prover/circuits/index.js';
import { devnetProvingKey, devnetSeed } from '../src/prover/devnet-keys.js';
import { prove } from '../src/prover/groth16-prove.js';
import { verifyingKeyFor } from '../src/prover/groth16-setup.js';
import type { R1cs } from '../src/prover/r1cs.js';
import { buildFixture } from '../test/prover/circuits-fixture.js';
import { writeR1csFile, writeWtnsFile } from './lib/iden3-files.js';

type Any = any;
const snarkjs: Any = await import('snarkjs' as string);

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const cacheDir = process.env.CAIRN_CACHE_DIR ?? join(root, 'node_modules', '.cache', 'cairn');
const sjDir = join(cacheDir, 'snarkjs');
mkdirSync(sjDir, { recursive: true });
const RUNS = Number(process.env.BENCH_PROVER_RUNS ?? 3);

const ALL_SHAPES: Array<[string, CircuitShape]> = [
  ['inclusion-1', { kind: 'inclusion', height: 26, accounts: 1, addresses: 0 }],
  ['inclusion-8', { kind: 'inclusion', height: 26, accounts: 8, addresses: 0 }],
  ['non-inclusion-1', { kind: 'non-inclusion', height: 26, accounts: 0, addresses: 1 }],
  ['combined-1-1', { kind: 'combined', height: 26, accounts: 1, addresses: 1 }],
];
/** `BENCH_PROVER_SHAPES=inclusion-1,combined-1-1` runs a subset. */
const only = process.env.BENCH_PROVER_SHAPES?.split(',');
const SHAPES = only ? ALL_SHAPES.filter(([l]) => only.includes(l)) : ALL_SHAPES;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

async function timed(f: () => Promise<unknown>, runs = RUNS): Promise<number> {
  await f(); // warm-up: keys into memory, threads started
  const xs: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await f();
    xs.push((performance.now() - t) / 1000);
  }
  return median(xs);
}

function domainPower(r1cs: R1cs): number {
  let k = 0;
  while (1 << k < r1cs.constraints.length + r1cs.nPublic + 1) k++;
  return k;
}

/** A prepared powers-of-tau file of 2^power (made once: new accumulator, one contribution, phase 2). */
async function ptau(power: number): Promise<string> {
  const file = join(sjDir, `pot${power}_final.ptau`);
  if (existsSync(file)) return file;
  const curve = await snarkjs.curves.getCurveFromName('bn128');
  const p0 = join(sjDir, `pot${power}_0.ptau`);
  const p1 = join(sjDir, `pot${power}_1.ptau`);
  await snarkjs.powersOfTau.newAccumulator(curve, power, p0);
  await snarkjs.powersOfTau.contribute(p0, p1, 'bench', 'cairn bench entropy');
  await snarkjs.powersOfTau.preparePhase2(p1, `${file}.tmp`);
  const { renameSync, rmSync } = await import('node:fs');
  renameSync(`${file}.tmp`, file);
  rmSync(p0);
  rmSync(p1);
  return file;
}

async function zkey(r1cs: R1cs, r1csFile: string, power: number): Promise<string> {
  const file = join(sjDir, `${r1cs.name}.zkey`);
  if (!existsSync(file)) await snarkjs.zKey.newZKey(r1csFile, await ptau(power), file);
  return file;
}

interface Row {
  shape: string;
  circuit: string;
  constraints: number;
  domain: number;
  cairnS: number;
  snarkjsS: number;
  snarkjs1S: number;
  ratio: number;
}

async function proverRows(): Promise<Row[]> {
  const maxPower = Math.max(...SHAPES.map(([, s]) => domainPower(circuitFor(s))));
  const rows: Row[] = [];
  for (const [label, shape] of SHAPES) {
    const r1cs = circuitFor(shape);
    const w = witnessFor(shape, buildFixture(shape).inputs);
    const { pk } = await devnetProvingKey(shape, cacheDir);
    const vk = parseVerifyingKey(await verifyingKeyFor(r1cs, devnetSeed(r1cs.name)), r1cs.name);
    const pub = w.slice(1, r1cs.nPublic + 1);
    if (!verifyGroth16(await prove(pk, r1cs, w), pub, vk)) throw new Error(`${label}: cairn's proof does not verify`);

    const r1csFile = join(sjDir, `${r1cs.name}.r1cs`);
    const wtnsFile = join(sjDir, `${r1cs.name}.wtns`);
    writeR1csFile(r1csFile, r1cs);
    writeWtnsFile(wtnsFile, w);
    const zk = await zkey(r1cs, r1csFile, maxPower);
    const sjVk = await snarkjs.zKey.exportVerificationKey(zk);
    const sjProof = await snarkjs.groth16.prove(zk, wtnsFile);
    if (!(await snarkjs.groth16.verify(sjVk, sjProof.publicSignals, sjProof.proof))) throw new Error(`${label}: snarkjs's proof does not verify`);
    if (sjProof.publicSignals.join() !== pub.map(String).join()) throw new Error(`${label}: snarkjs read other public inputs`);

    const cairnS = await timed(() => prove(pk, r1cs, w));
    const snarkjsS = await timed(() => snarkjs.groth16.prove(zk, wtnsFile));
    const snarkjs1S = await timed(() => snarkjs.groth16.prove(zk, wtnsFile, undefined, { singleThread: true }), 1);
    const row = {
      shape: label,
      circuit: r1cs.name,
      constraints: r1cs.constraints.length,
      domain: domainPower(r1cs),
      cairnS,
      snarkjsS,
      snarkjs1S,
      ratio: cairnS / snarkjsS,
    };
    console.log(`${label.padEnd(16)} ${String(row.constraints).padStart(6)} constraints (2^${row.domain}): cairn ${cairnS.toFixed(2)} s, snarkjs ${snarkjsS.toFixed(2)} s (1 thread ${snarkjs1S.toFixed(2)} s) → cairn/snarkjs ${row.ratio.toFixed(2)}×`);
    rows.push(row);
  }
  return rows;
}

async function devnetRows(): Promise<{ firstS: number; warmS: number }> {
  const devnet = await startDevnet({ slotMs: 50, seed: 5, proverCacheDir: cacheDir });
  try {
    const ask = async (hash: string): Promise<number> => {
      const t = performance.now();
      const res = await fetch(devnet.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getValidityProof', params: { hashes: [hash] } }) });
      const body = (await res.json()) as { error?: unknown };
      if (body.error) throw new Error(`getValidityProof: ${JSON.stringify(body.error)}`);
      return (performance.now() - t) / 1000;
    };
    const owner = Keypair.generate().publicKey.toBase58();
    const { account } = await devnet.compression!.createCompressedAccount({ owner, lamports: 1_000n });
    const firstS = await ask(String(account.hash));
    const warm: number[] = [];
    for (let i = 0; i < RUNS; i++) warm.push(await ask(String(account.hash)));
    return { firstS, warmS: median(warm) };
  } finally {
    await devnet.stop();
  }
}

await initGroth16();
const rows = await proverRows();
const dev = await devnetRows();
console.log(`devnet getValidityProof inclusion-1: first ${dev.firstS.toFixed(2)} s (thread start + key load), warm ${dev.warmS.toFixed(2)} s`);

const meta = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: os.cpus().length,
  loadavg: os.loadavg().map((x) => x.toFixed(2)).join(' '),
  note: 'cairn: 1 thread; snarkjs 0.7.6: its default worker threads (one per core) and, alone, singleThread. Same R1CS and witness. Shared 2-core machine: compare within one run.',
};
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'prover.json'), `${JSON.stringify({ meta, rows, devnet: dev }, null, 2)}\n`);
const md = [
  '## prover (Groth16, BN254)',
  '',
  `Seconds per proof, median of ${RUNS}, ${meta.note}`,
  '',
  '| shape | circuit | constraints | domain | cairn (1 thread) | snarkjs (threads) | snarkjs (1 thread) | cairn / snarkjs |',
  '|---|---|--:|--:|--:|--:|--:|--:|',
  ...rows.map((r) => `| ${r.shape} | ${r.circuit} | ${r.constraints} | 2^${r.domain} | ${r.cairnS.toFixed(2)} s | ${r.snarkjsS.toFixed(2)} s | ${r.snarkjs1S.toFixed(2)} s | ${r.ratio.toFixed(2)}× |`),
  '',
  `Devnet \`getValidityProof\` (inclusion-1) over HTTP: first request ${dev.firstS.toFixed(2)} s (prover thread start + key load), warm ${dev.warmS.toFixed(2)} s.`,
  '',
].join('\n');
writeFileSync(join(here, 'results', 'prover.md'), md);
console.log('wrote bench/results/prover.{json,md}');
// snarkjs's thread pool keeps the process alive.
process.exit(0);
