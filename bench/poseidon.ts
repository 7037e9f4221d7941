/**
 * Poseidon benchmark: per hash (1, 2 and 3 inputs) and per Merkle path of height 26 (a v1 state
 * tree) for each cairn backend that loads here (native addon, WASM, BigInt JS), against the peers:
 * circomlibjs's WASM `buildPoseidon` (GPL, dev-only), poseidon-lite and @noble/curves' Poseidon with
 * the circom constants. Every peer is first checked to give the same P(1, 2) as cairn. Fixed sizes,
 * medians of several rounds, all in one process.
 *
 * Writes bench/results/poseidon.{json,md}. Run: `npx tsx bench/poseidon.ts` (or `npm run bench --
 * poseidon`); `--quick` for shorter rounds. Times are process CPU time (what the code costs when it
 * has a core) beside wall time; the box is a shared 2-core machine, so compare rows of one run.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { poseidon1 as lite1, poseidon2 as lite2, poseidon3 as lite3 } from 'poseidon-lite';
import { poseidon as noblePoseidon, splitConstants } from '@noble/curves/abstract/poseidon.js';
import { bn254_Fr } from '@noble/curves/bn254.js';
import {
  poseidon,
  poseidonBackend,
  poseidonPathRoot,
  poseidonVerifyPaths,
  setPoseidonBackend,
  type PoseidonBackend,
} from '../src/crypto/poseidon.js';
import { loadNativeWithReason } from '../src/addon.js';
import { loadPoseidonWasm } from '../src/crypto/_poseidon-wasm.js';
import { BN254_R, poseidonParams } from '../src/crypto/poseidon-params.js';
import { measure as measureOn } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 3 : 7;
const ROUND_MS = quick ? 40 : 120;

const measure = (fn: (n: number) => void) => measureOn(fn, ROUNDS, ROUND_MS);

const be = (x: bigint): Uint8Array => new Uint8Array(Buffer.from(x.toString(16).padStart(64, '0'), 'hex'));
const toBig = (b: Uint8Array): bigint => BigInt('0x' + Buffer.from(b).toString('hex'));
let seed = 0x2545f491;
const randField = (): bigint => {
  let x = 0n;
  for (let i = 0; i < 8; i++) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    x = (x << 32n) | BigInt(seed >>> 0);
  }
  return x % BN254_R;
};

// ---------------------------------------------------------------- peers
// circomlibjs ships no types: import it by a computed name and describe the little used here.
interface CircomPoseidon {
  (xs: bigint[]): unknown;
  F: { toObject(x: unknown): bigint };
}
const circomlibjs = 'circomlibjs';
const { buildPoseidon } = (await import(circomlibjs)) as { buildPoseidon(): Promise<CircomPoseidon> };
const circom = await buildPoseidon();
const circomHash = (xs: bigint[]): bigint => circom.F.toObject(circom(xs));
const liteHash = [lite1, lite2, lite3];
const nobleByWidth = new Map<number, (xs: bigint[]) => bigint[]>();
const nobleHash = (xs: bigint[]): bigint => {
  const t = xs.length + 1;
  let h = nobleByWidth.get(t);
  if (!h) {
    const p = poseidonParams(t);
    h = noblePoseidon({
      Fp: bn254_Fr,
      t,
      roundsFull: 8,
      roundsPartial: p.partialRounds,
      sboxPower: 5,
      mds: p.M.map((r) => [...r]),
      roundConstants: splitConstants([...p.C], t),
    });
    nobleByWidth.set(t, h);
  }
  return h([0n, ...xs])[0];
};

const P12 = 7853200120776062878684798364095072458815029376092732009249414926327459813530n;
for (const [name, f] of [
  ['circomlibjs', circomHash],
  ['poseidon-lite', (xs: bigint[]) => liteHash[xs.length - 1](xs)],
  ['@noble/curves', nobleHash],
] as const) {
  if (f([1n, 2n]) !== P12) throw new Error(`${name} disagrees with circom's P(1,2)`);
}

// ---------------------------------------------------------------- cairn backends
const native = loadNativeWithReason();
const wasm = loadPoseidonWasm();
const backends: PoseidonBackend[] = [...(native.bindings ? (['native'] as const) : []), ...(wasm.kernel ? (['wasm'] as const) : []), 'js'];
setPoseidonBackend('auto');
const auto = poseidonBackend();
console.log(
  `poseidon bench — auto backend: ${auto}; loaded: ${backends.join(', ')}${native.reason ? ` (native: ${native.reason})` : ''}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);

interface Row {
  case: string;
  impl: string;
  usPerOp: number;
  wallUsPerOp: number;
  usPerHash?: number;
}
const rows: Row[] = [];
const add = (c: string, impl: string, t: { cpu: number; wall: number }, hashes = 1): void => {
  const row: Row = { case: c, impl, usPerOp: t.cpu, wallUsPerOp: t.wall, ...(hashes > 1 ? { usPerHash: t.cpu / hashes } : {}) };
  rows.push(row);
  console.log(
    `${c.padEnd(24)} ${impl.padEnd(44)} ${t.cpu.toFixed(2).padStart(10)} µs${hashes > 1 ? `  (${(t.cpu / hashes).toFixed(2)} µs/hash)` : ''}`,
  );
};

let sink = 0;
for (const n of [1, 2, 3]) {
  const c = `hash, ${n} input${n > 1 ? 's' : ''}`;
  const xs = Array.from({ length: 64 }, () => Array.from({ length: n }, randField));
  const bytes = xs.map((g) => g.map(be));
  for (const b of backends) {
    setPoseidonBackend(b);
    add(c, `cairn ${b}${b === auto ? ' (auto)' : ''}`, measure((k) => {
      for (let i = 0; i < k; i++) sink ^= poseidon(bytes[i & 63])[0];
    }));
  }
  add(c, 'circomlibjs buildPoseidon (WASM, GPL)', measure((k) => {
    for (let i = 0; i < k; i++) sink ^= Number(circomHash(xs[i & 63]) & 1n);
  }));
  add(c, 'poseidon-lite', measure((k) => {
    for (let i = 0; i < k; i++) sink ^= Number(liteHash[n - 1](xs[i & 63]) & 1n);
  }));
  add(c, '@noble/curves poseidon (circom constants)', measure((k) => {
    for (let i = 0; i < k; i++) sink ^= Number(nobleHash(xs[i & 63]) & 1n);
  }));
}

// ---------------------------------------------------------------- per path, height 26
const DEPTH = 26;
const PATHS = 16;
const leaves = Array.from({ length: PATHS }, randField);
const proofs = Array.from({ length: PATHS }, () => Array.from({ length: DEPTH }, randField));
const indices = Array.from({ length: PATHS }, (_, k) => (0x2aaaaaa ^ (k * 977)) & (2 ** DEPTH - 1));
const leafBytes = leaves.map(be);
const proofBytes = proofs.map((p) => {
  const out = new Uint8Array(32 * DEPTH);
  p.forEach((x, l) => out.set(be(x), 32 * l));
  return out;
});
const walk = (h: (xs: bigint[]) => bigint, k: number): bigint => {
  let node = leaves[k];
  for (let l = 0; l < DEPTH; l++) node = (indices[k] >> l) & 1 ? h([proofs[k][l], node]) : h([node, proofs[k][l]]);
  return node;
};
setPoseidonBackend('js');
const roots = leafBytes.map((leaf, k) => poseidonPathRoot(leaf, proofBytes[k], indices[k]));
if (walk(circomHash, 3) !== toBig(roots[3])) throw new Error('path roots disagree with circomlibjs');
const c26 = `path, height ${DEPTH}`;
for (const b of backends) {
  setPoseidonBackend(b);
  add(c26, `cairn ${b} (one call per path)`, measure((k) => {
    for (let i = 0; i < k; i++) sink ^= poseidonPathRoot(leafBytes[i % PATHS], proofBytes[i % PATHS], indices[i % PATHS])[0];
  }), DEPTH);
}
if (native.bindings) {
  setPoseidonBackend('native');
  const L = new Uint8Array(32 * PATHS);
  const Pr = new Uint8Array(32 * DEPTH * PATHS);
  const R = new Uint8Array(32 * PATHS);
  leafBytes.forEach((l, k) => L.set(l, 32 * k));
  proofBytes.forEach((p, k) => Pr.set(p, 32 * DEPTH * k));
  roots.forEach((r, k) => R.set(r, 32 * k));
  const idx = Float64Array.from(indices);
  if (poseidonVerifyPaths(L, Pr, idx, DEPTH, R).some((v) => v !== 1)) throw new Error('native batch verify failed');
  const t = measure((k) => {
    for (let i = 0; i < k; i++) sink ^= poseidonVerifyPaths(L, Pr, idx, DEPTH, R)[0];
  });
  add(c26, `cairn native verify batch (${PATHS} paths per call)`, { cpu: t.cpu / PATHS, wall: t.wall / PATHS }, DEPTH);
}
add(c26, 'circomlibjs, node by node', measure((k) => {
  for (let i = 0; i < k; i++) sink ^= Number(walk(circomHash, i % PATHS) & 1n);
}), DEPTH);
add(c26, 'poseidon-lite, node by node', measure((k) => {
  for (let i = 0; i < k; i++) sink ^= Number(walk(lite2, i % PATHS) & 1n);
}), DEPTH);
add(c26, '@noble/curves, node by node', measure((k) => {
  for (let i = 0; i < k; i++) sink ^= Number(walk(nobleHash, i % PATHS) & 1n);
}), DEPTH);
setPoseidonBackend('auto');

// ---------------------------------------------------------------- results
const get = (c: string, impl: string): number | undefined => rows.find((r) => r.case === c && r.impl.startsWith(impl))?.usPerOp;
const circom2 = get('hash, 2 inputs', 'circomlibjs')!;
const summary = {
  nativeHash2Us: get('hash, 2 inputs', 'cairn native'),
  wasmHash2Us: get('hash, 2 inputs', 'cairn wasm'),
  circomlibjsHash2Us: circom2,
  goalNativeUs: 15,
  fallbackNotSlowerThanCircomlibjs: (get('hash, 2 inputs', 'cairn wasm') ?? Infinity) <= circom2,
};
const meta = {
  date: new Date().toISOString(),
  node: process.version,
  cpu: `${os.cpus()[0]?.model ?? 'unknown'} × ${os.cpus().length}`,
  loadAverage: os.loadavg(),
  autoBackend: auto,
  backends,
  nativeUnavailable: native.reason,
  sink,
};
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'poseidon.json'), JSON.stringify({ ...meta, summary, rows }, null, 2) + '\n');
const md = [
  '## poseidon (bench/poseidon.ts)',
  '',
  `${meta.date}, Node ${meta.node}, ${meta.cpu}, load average ${meta.loadAverage.map((l) => l.toFixed(2)).join(' ')} (shared machine: compare rows of this run). Auto backend: **${auto}**. Goals: native ≤ 15 µs per 2-input hash; the fallback never slower than circomlibjs.`,
  '',
  'µs are process CPU time per op (median of rounds); wall-clock medians, inflated by the other work on the box, in the last column. Peers take bigints (no byte conversion); cairn takes and returns 32-byte big-endian arrays.',
  '',
  '| case | implementation | CPU µs / op | CPU µs / hash | wall µs / op |',
  '|---|---|---:|---:|---:|',
  ...rows.map((r) => `| ${r.case} | ${r.impl} | ${r.usPerOp.toFixed(2)} | ${r.usPerHash === undefined ? '' : r.usPerHash.toFixed(2)} | ${r.wallUsPerOp.toFixed(2)} |`),
  '',
  `2-input hash: native ${summary.nativeHash2Us?.toFixed(2) ?? 'n/a'} µs, wasm ${summary.wasmHash2Us?.toFixed(2)} µs, circomlibjs ${circom2.toFixed(2)} µs; fallback not slower than circomlibjs: ${summary.fallbackNotSlowerThanCircomlibjs ? 'yes' : 'NO'}.`,
  '',
];
writeFileSync(join(here, 'results', 'poseidon.md'), md.join('\n'));
console.log(`wrote bench/results/poseidon.{json,md}`);
