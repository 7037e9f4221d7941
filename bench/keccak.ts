/**
 * Keccak benchmark: per-hash (keccak256 of 64 bytes, one tree node) and per-proof (depth 14, 20,
 * 26) for each cairn backend that loads here (native addon, WASM, JS), against the peers a Solana
 * developer would otherwise use: @noble/hashes, js-sha3, hash-wasm, and @solana/spl-account-compression's
 * `MerkleTree.verify`. Fixed sizes, medians of several timed rounds, everything in one process.
 *
 * Writes bench/results/keccak.{json,md}. Run: `npx tsx bench/keccak.ts` (or `npm run bench -- keccak`).
 * Timings are wall-clock on a shared 2-core machine: compare rows of the same run, not runs.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { keccak_256 as nobleKeccak } from '@noble/hashes/sha3.js';
import jsSha3 from 'js-sha3';
import { createKeccak } from 'hash-wasm';
import { availableKeccakKernels, keccakBackend, keccakVerifyBatch, type KeccakKernel } from '../src/crypto/keccak.js';
import { loadNative } from '../src/addon.js';
import { verifyAssetProof, verifyAssetProofBatch, type AssetProofBytes } from '../src/merkle/cnft/asset-proof.js';
import { measure as measureOn } from './lib/measure.js';

const here = dirname(fileURLToPath(import.meta.url));
const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 3 : 5;
const ROUND_MS = quick ? 30 : 60;

const measure = (fn: (n: number) => void) => measureOn(fn, ROUNDS, ROUND_MS);

function rand(n: number, seed: number): Uint8Array {
  let x = seed | 1;
  return new Uint8Array(n).map(() => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x & 0xff;
  });
}

interface Row {
  case: string;
  impl: string;
  /** CPU µs per op (median). */
  usPerOp: number;
  /** Wall-clock µs per op (median), inflated by whatever else runs on the machine. */
  wallUsPerOp: number;
  usPerLevel?: number;
}
const rows: Row[] = [];
const add = (r: { case: string; impl: string; t: { cpu: number; wall: number }; depth?: number }) => {
  const row: Row = { case: r.case, impl: r.impl, usPerOp: r.t.cpu, wallUsPerOp: r.t.wall, ...(r.depth ? { usPerLevel: r.t.cpu / r.depth } : {}) };
  rows.push(row);
  print(row);
};
const print = (r: Row) => {
  console.log(`${r.case.padEnd(22)} ${r.impl.padEnd(40)} ${r.usPerOp.toFixed(3).padStart(9)} µs${r.usPerLevel === undefined ? '' : `  (${r.usPerLevel.toFixed(3)} µs/level)`}`);
};

const kernels: KeccakKernel[] = availableKeccakKernels();
const native = loadNative();
const spl = (() => {
  // Its package.json `main`/`exports` point at dist/cjs/index.js, which is not shipped: load the real entry.
  try {
    const req = createRequire(import.meta.url);
    return req(join(here, '..', 'node_modules', '@solana', 'spl-account-compression', 'dist', 'cjs', 'src', 'index.js')) as {
      MerkleTree: { verify(root: Buffer, p: { leaf: Buffer; leafIndex: number; proof: Buffer[]; root: Buffer }): boolean };
    };
  } catch (e) {
    console.warn(`spl-account-compression unavailable: ${(e as Error).message.split('\n')[0]}`);
    return null;
  }
})();

console.log(`keccak bench — selected backend: ${keccakBackend()}; loaded: ${kernels.map((k) => k.name).join(', ')}; load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

// ---------------------------------------------------------------- per hash: one tree node (64 bytes)
const node64 = rand(64, 7);
let sink = 0;
for (const k of kernels) {
  add({ case: 'keccak256(64 B)', impl: `cairn ${k.name}`, t: measure((n) => { for (let i = 0; i < n; i++) sink ^= k.keccak256(node64)[0]!; }) });
}
add({ case: 'keccak256(64 B)', impl: '@noble/hashes keccak_256', t: measure((n) => { for (let i = 0; i < n; i++) sink ^= nobleKeccak(node64)[0]!; }) });
const hw = await createKeccak(256); // one hasher reused synchronously: its fastest use
const hashWasm = (d: Uint8Array) => {
  hw.init();
  hw.update(d);
  return hw.digest('binary');
};
add({ case: 'keccak256(64 B)', impl: 'hash-wasm keccak (reused hasher)', t: measure((n) => { for (let i = 0; i < n; i++) sink ^= hashWasm(node64)[0]!; }) });
add({ case: 'keccak256(64 B)', impl: 'js-sha3 keccak256.arrayBuffer', t: measure((n) => { for (let i = 0; i < n; i++) sink ^= new Uint8Array(jsSha3.keccak256.arrayBuffer(node64))[0]!; }) });

// ---------------------------------------------------------------- per proof
function peerWalk(hash: (d: Uint8Array) => Uint8Array, leaf: Uint8Array, proof: Uint8Array, index: number): Uint8Array {
  const pair = new Uint8Array(64);
  let node = leaf;
  for (let l = 0; l < proof.length / 32; l++) {
    const sib = proof.subarray(32 * l, 32 * l + 32);
    if ((index >>> l) & 1) {
      pair.set(sib, 0);
      pair.set(node, 32);
    } else {
      pair.set(node, 0);
      pair.set(sib, 32);
    }
    node = hash(pair);
  }
  return node;
}

for (const depth of [14, 20, 26]) {
  const leaf = rand(32, depth);
  const proof = rand(32 * depth, depth + 1);
  const index = (2 ** depth - 1) & 0x2aaaaaa; // alternating left/right children
  const out = new Uint8Array(32);
  const label = `proof depth ${depth}`;
  for (const k of kernels) {
    const t = measure((n) => { for (let i = 0; i < n; i++) k.pathRootInto(leaf, proof, index, out); });
    add({ case: label, impl: `cairn ${k.name} (one call per path)`, t, depth });
  }
  if (native?.keccakVerifyBatch) {
    // many paths per crossing: the pool's shape, and the closest to the Keccak-f floor
    const m = 256;
    const leaves = rand(32 * m, 3);
    const proofs = rand(32 * depth * m, 4);
    const indices = Uint32Array.from({ length: m }, (_, k) => (k * 7919) % 2 ** depth);
    const roots = rand(32 * m, 5);
    const verdicts = new Uint8Array(m);
    const b = measure((n) => { for (let i = 0; i < n; i++) keccakVerifyBatch(leaves, proofs, indices, depth, roots, verdicts); });
    add({ case: label, impl: `cairn native batch (${m} paths per call)`, t: { cpu: b.cpu / m, wall: b.wall / m }, depth });
  }
  {
    // the public API on parsed proofs (what a worker of the verifier pool runs), selected backend
    const m = 256;
    const items: AssetProofBytes[] = Array.from({ length: m }, (_, k) => {
      const l = rand(32, 100 + k);
      const pr = rand(32 * depth, 200 + k);
      const idx = (k * 7919) % 2 ** depth;
      return { leaf: l, proof: pr, nodeIndex: 2 ** depth + idx, root: peerWalk(nobleKeccak, l, pr, idx) };
    });
    const one = measure((n) => { for (let i = 0; i < n; i++) sink ^= verifyAssetProof(items[i % m]!).valid ? 1 : 0; });
    add({ case: label, impl: `cairn verifyAssetProof (${keccakBackend()})`, t: one, depth });
    const b = measure((n) => { for (let i = 0; i < n; i++) sink ^= verifyAssetProofBatch(items).length; });
    add({ case: label, impl: `cairn verifyAssetProofBatch (${m}, ${keccakBackend()})`, t: { cpu: b.cpu / m, wall: b.wall / m }, depth });
  }
  const noble = measure((n) => { for (let i = 0; i < n; i++) sink ^= peerWalk(nobleKeccak, leaf, proof, index)[0]!; });
  add({ case: label, impl: '@noble/hashes, node by node', t: noble, depth });
  const hwt = measure((n) => { for (let i = 0; i < n; i++) sink ^= peerWalk(hashWasm, leaf, proof, index)[0]!; });
  add({ case: label, impl: 'hash-wasm, node by node', t: hwt, depth });
  const sha3 = measure((n) => {
    for (let i = 0; i < n; i++) sink ^= peerWalk((d) => new Uint8Array(jsSha3.keccak256.arrayBuffer(d)), leaf, proof, index)[0]!;
  });
  add({ case: label, impl: 'js-sha3, node by node', t: sha3, depth });
  if (spl) {
    const root = Buffer.from(peerWalk(nobleKeccak, leaf, proof, index));
    const mp = {
      leaf: Buffer.from(leaf),
      leafIndex: index,
      root,
      proof: Array.from({ length: depth }, (_, l) => Buffer.from(proof.subarray(32 * l, 32 * l + 32))),
    };
    if (!spl.MerkleTree.verify(root, mp)) throw new Error('spl MerkleTree.verify disagrees with the reference root');
    const t = measure((n) => { for (let i = 0; i < n; i++) sink ^= spl.MerkleTree.verify(root, mp) ? 1 : 0; });
    add({ case: label, impl: 'spl-account-compression MerkleTree.verify', t, depth });
  }
}
if (sink === 0x7fffffff) console.log(''); // keep results alive

// ---------------------------------------------------------------- results
const meta = {
  date: new Date().toISOString(),
  node: process.version,
  platform: `${process.platform} ${process.arch}`,
  cpu: os.cpus()[0]?.model ?? 'unknown',
  cores: os.cpus().length,
  loadAverage: os.loadavg(),
  selectedBackend: keccakBackend(),
  rounds: ROUNDS,
  note: 'medians of rounds; usPerOp/usPerLevel are process CPU time (the machine is shared: wall time, also given, counts time other processes held the CPU)',
};
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'keccak.json'), JSON.stringify({ ...meta, rows }, null, 2) + '\n');
const md = [
  '## keccak (bench/keccak.ts)',
  '',
  `${meta.date}, Node ${meta.node}, ${meta.cpu} × ${meta.cores}, load average ${meta.loadAverage.map((l) => l.toFixed(2)).join(' ')} (shared machine: compare rows of this run). Selected backend: **${meta.selectedBackend}**. Goal: ≤ 0.5 µs per tree level.`,
  '',
  'µs are process CPU time per op (median of rounds); wall-clock medians, inflated by the other work on the box, in the last column.',
  '',
  '| case | implementation | CPU µs / op | CPU µs / level | wall µs / op |',
  '|---|---|---:|---:|---:|',
  ...rows.map((r) => `| ${r.case} | ${r.impl} | ${r.usPerOp.toFixed(3)} | ${r.usPerLevel === undefined ? '' : r.usPerLevel.toFixed(3)} | ${r.wallUsPerOp.toFixed(3)} |`),
  '',
];
writeFileSync(join(here, 'results', 'keccak.md'), md.join('\n'));
console.log('wrote bench/results/keccak.{json,md}');
