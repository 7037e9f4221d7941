/**
 * Groth16 verification over BN254: cairn (mcl-wasm backend and portable @noble/curves backend)
 * against snarkjs, ffjavascript and @noble/curves used directly, in the same run, on two fixed
 * proofs: the Light v1 inclusion proof of test/vectors/light_e2e (2 public inputs, compressed, as the
 * service returns it) and the groth16-solana test proof (9 public inputs, uncompressed). Then point
 * decompression: G1 (32 bytes) and G2 (64 bytes, with the subgroup check).
 *
 * What each row includes: cairn = decode of the proof bytes (B's subgroup check included) + vk_x +
 * pairing check, key prepared once (cached). snarkjs = its `groth16.verify` on JSON (converts points
 * every call, checks B on the curve but not in the subgroup), on a single-thread ffjavascript curve.
 * ffjavascript / noble direct = points decoded once outside the loop, then vk_x + pairing only.
 *
 * Then per proof on the same proof: one at a time, 64 in one batch (random linear combination, one
 * final exponentiation: src/merkle/groth16/batch.ts) and 256 getValidityProof answers through the validity-proof
 * kind on a pool of 2 worker threads, against snarkjs and ffjavascript one at a time.
 *
 * Writes bench/results/groth16.{json,md}. `npx tsx bench/groth16.ts`
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';
import { Bench } from 'tinybench';
import { bn254 } from '@noble/curves/bn254.js';
import { g1FromBytes, g1ToCompressed, g2FromBytes, g2ToCompressed, negateG1Bytes, type G1Point, type G2Point } from '../src/crypto/bn254.js';
import { loadBn254Wasm } from '../src/crypto/bn254-wasm.js';
import bs58 from 'bs58';
import { initGroth16, parseVerifyingKey, verifyGroth16, type Groth16Proof, type VerifyingKey } from '../src/merkle/groth16/verify.js';
import { verifyGroth16Batch } from '../src/merkle/groth16/batch.js';
import { createVerifier } from '../src/merkle/verifier/create-verifier.js';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const read = (p: string) => JSON.parse(readFileSync(join(root, p), 'utf8'));
const hex = (h: string): Uint8Array => Uint8Array.from(Buffer.from(h, 'hex'));
const big = (b: Uint8Array): bigint => BigInt('0x' + Buffer.from(b).toString('hex'));
const TIME_MS = Number(process.env.BENCH_TIME_MS ?? 1500);
/** Proofs per batch in the per-proof rows, and answers per call of the pooled row. */
const BATCH = 64;
const POOLED = 256;

// The peers ship no type declarations (and are GPL devDependencies): load them untyped.
type Any = any;
const load = (name: string): Promise<Any> => import(name);
const { buildBn128 } = await load('ffjavascript');
const snarkjs = await load('snarkjs');

interface Case {
  name: string;
  proof: Groth16Proof; // a = −A
  inputs: Uint8Array[];
  vk: VerifyingKey;
}

const e2e = read('test/vectors/light_e2e/light_v1_inclusion_groth16_e2e.json');
const sol = read('test/vectors/groth16/groth16_solana_test_vector.json');
const cases: Case[] = [
  {
    name: 'light v1 inclusion (2 inputs, compressed)',
    proof: { a: hex(e2e.proofs[0].compressedProof.a), b: hex(e2e.proofs[0].compressedProof.b), c: hex(e2e.proofs[0].compressedProof.c) },
    inputs: [hex(e2e.proofs[0].root), hex(e2e.proofs[0].leaf)],
    vk: parseVerifyingKey(e2e.vk_inclusion_26_1_at_338e47405, 'v1_inclusion_26_1'),
  },
  {
    name: 'groth16-solana (9 inputs, uncompressed)',
    proof: { a: negateG1Bytes(hex(sol.proof_uncompressed.a)), b: hex(sol.proof_uncompressed.b), c: hex(sol.proof_uncompressed.c) },
    inputs: sol.public_inputs.map(hex),
    vk: parseVerifyingKey(sol.vk, 'groth16_solana'),
  },
];

// --- peers' input formats -------------------------------------------------------------------
const g1Obj = (p: G1Point) => {
  const a = p.toAffine();
  return [a.x.toString(), a.y.toString(), '1'];
};
const g2Obj = (p: G2Point) => {
  const a = p.toAffine();
  return [
    [a.x.c0.toString(), a.x.c1.toString()],
    [a.y.c0.toString(), a.y.c1.toString()],
    ['1', '0'],
  ];
};
function snarkjsInputs(c: Case) {
  const vk = {
    protocol: 'groth16',
    curve: 'bn128',
    nPublic: c.inputs.length,
    vk_alpha_1: g1Obj(g1FromBytes(c.vk.alpha)),
    vk_beta_2: g2Obj(g2FromBytes(c.vk.beta)),
    vk_gamma_2: g2Obj(g2FromBytes(c.vk.gamma)),
    vk_delta_2: g2Obj(g2FromBytes(c.vk.delta)),
    IC: c.vk.ic.map((p) => g1Obj(g1FromBytes(p))),
  };
  // snarkjs proofs carry A itself.
  const proof = { protocol: 'groth16', curve: 'bn128', pi_a: g1Obj(g1FromBytes(c.proof.a).negate()), pi_b: g2Obj(g2FromBytes(c.proof.b)), pi_c: g1Obj(g1FromBytes(c.proof.c)) };
  return { vk, proof, publicSignals: c.inputs.map((b) => big(b).toString()) };
}

async function main(): Promise<void> {
  const backend = await initGroth16();
  if (backend !== 'mcl') throw new Error('mcl-wasm did not load');
  const w = await loadBn254Wasm();
  // A single-thread curve, registered where snarkjs looks for its cached bn128 curve.
  const curve: Any = await buildBn128(true);
  (globalThis as { curve_bn128?: unknown }).curve_bn128 = curve;

  const rows: Array<{ group: string; impl: string; medianMs: number; meanMs: number; samples: number; note?: string }> = [];
  // A task's optional 4th element: the proofs one call verifies (rows are then per proof).
  const run = async (group: string, tasks: Array<[string, () => unknown, string?, number?]>, time = TIME_MS) => {
    const bench = new Bench({ time, iterations: 5, warmup: true });
    const notes = new Map<string, { note?: string; per: number }>();
    for (const [n, f, note, per] of tasks) {
      bench.add(n, f as () => Promise<void>);
      notes.set(n, { note, per: per ?? 1 });
    }
    await bench.run();
    for (const t of bench.tasks) {
      const r = t.result;
      if (r.state !== 'completed') throw new Error(`${group} / ${t.name}: ${r.state}${'error' in r ? `: ${String(r.error)}` : ''}`);
      const { note, per } = notes.get(t.name)!;
      rows.push({ group, impl: t.name, medianMs: r.latency.p50 / per, meanMs: r.latency.mean / per, samples: r.latency.samplesCount, note });
      console.log(`${group.padEnd(44)} ${t.name.padEnd(36)} median ${(r.latency.p50 / per).toFixed(3).padStart(9)} ms  (n=${r.latency.samplesCount})`);
    }
  };

  for (const c of cases) {
    const sj = snarkjsInputs(c);
    // ffjavascript / noble direct: decode once, outside the loop.
    const F = curve;
    const fA = F.G1.fromObject(sj.proof.pi_a.map(BigInt));
    const fB = F.G2.fromObject(sj.proof.pi_b.map((x) => x.map(BigInt)));
    const fC = F.G1.fromObject(sj.proof.pi_c.map(BigInt));
    const fAlpha = F.G1.fromObject(sj.vk.vk_alpha_1.map(BigInt));
    const fBeta = F.G2.fromObject(sj.vk.vk_beta_2.map((x) => x.map(BigInt)));
    const fGamma = F.G2.fromObject(sj.vk.vk_gamma_2.map((x) => x.map(BigInt)));
    const fDelta = F.G2.fromObject(sj.vk.vk_delta_2.map((x) => x.map(BigInt)));
    const fIC = sj.vk.IC.map((p) => F.G1.fromObject(p.map(BigInt)));
    const scalars = c.inputs.map(big);
    const ffVerify = async () => {
      let vkx = fIC[0];
      for (let i = 0; i < scalars.length; i++) vkx = F.G1.add(vkx, F.G1.timesScalar(fIC[i + 1], scalars[i]));
      return F.pairingEq(F.G1.neg(fA), fB, vkx, fGamma, fC, fDelta, fAlpha, fBeta);
    };
    const nNegA = g1FromBytes(c.proof.a);
    const nB = g2FromBytes(c.proof.b);
    const nC = g1FromBytes(c.proof.c);
    const nAlpha = g1FromBytes(c.vk.alpha);
    const nBeta = g2FromBytes(c.vk.beta);
    const nGamma = g2FromBytes(c.vk.gamma);
    const nDelta = g2FromBytes(c.vk.delta);
    const nIC = c.vk.ic.map((p) => g1FromBytes(p));
    const nobleVerify = () => {
      let vkx = nIC[0]!;
      for (let i = 0; i < scalars.length; i++) if (scalars[i]) vkx = vkx.add(nIC[i + 1]!.multiply(scalars[i]!));
      const gt = bn254.pairingBatch([
        { g1: nNegA, g2: nB },
        { g1: vkx, g2: nGamma },
        { g1: nC, g2: nDelta },
        { g1: nAlpha, g2: nBeta },
      ]);
      return bn254.fields.Fp12.eql(gt, bn254.fields.Fp12.ONE);
    };

    // Every implementation must accept the proof before it is timed.
    const checks: Array<[string, boolean]> = [
      ['cairn mcl', verifyGroth16(c.proof, c.inputs, c.vk, { backend: 'mcl' })],
      ['cairn noble', verifyGroth16(c.proof, c.inputs, c.vk, { backend: 'noble' })],
      ['snarkjs', await snarkjs.groth16.verify(sj.vk, sj.publicSignals, sj.proof)],
      ['ffjavascript', await ffVerify()],
      ['noble', nobleVerify()],
    ];
    for (const [n, ok] of checks) if (!ok) throw new Error(`${n} rejected ${c.name}`);

    await run(`verify: ${c.name}`, [
      ['cairn (mcl-wasm)', () => verifyGroth16(c.proof, c.inputs, c.vk), 'decode + subgroup check + verify'],
      ['cairn (portable, @noble/curves)', () => verifyGroth16(c.proof, c.inputs, c.vk, { backend: 'noble' }), 'decode + subgroup check + verify'],
      ['snarkjs 0.7.6 groth16.verify', () => snarkjs.groth16.verify(sj.vk, sj.publicSignals, sj.proof), 'JSON points, no G2 subgroup check'],
      ['ffjavascript 0.3.1 pairingEq', ffVerify, 'points pre-decoded'],
      ['@noble/curves 2.x pairingBatch', nobleVerify, 'points pre-decoded'],
    ]);
  }

  await perProof(run, curve);

  // Decompression, on the e2e proof's points.
  const g1c = cases[0]!.proof.c;
  const g2c = cases[0]!.proof.b;
  const ffG1 = new Uint8Array(32);
  curve.G1.toRprCompressed(ffG1, 0, curve.G1.fromObject(g1Obj(g1FromBytes(g1c)).map(BigInt)));
  const ffG2 = new Uint8Array(64);
  curve.G2.toRprCompressed(ffG2, 0, curve.G2.fromObject(g2Obj(g2FromBytes(g2c)).map((x) => x.map(BigInt))));
  const r = bn254.fields.Fr.ORDER;
  if (g1ToCompressed(g1FromBytes(g1c)).some((b, i) => b !== g1c[i]) || g2ToCompressed(g2FromBytes(g2c)).some((b, i) => b !== g2c[i])) throw new Error('codec mismatch');
  await run('decompress G1 (32 bytes)', [
    ['cairn (mcl-wasm)', () => w.g1(g1c)],
    ['cairn (portable, @noble/curves Fp.sqrt)', () => g1FromBytes(g1c)],
    ['ffjavascript 0.3.1 fromRprCompressed', () => curve.G1.fromRprCompressed(ffG1, 0)],
  ], 800);
  await run('decompress G2 (64 bytes) + subgroup check', [
    ['cairn (mcl-wasm)', () => w.g2(g2c)],
    ['cairn (portable, @noble/curves)', () => g2FromBytes(g2c)],
    ['ffjavascript 0.3.1 fromRprCompressed + [r]P', () => curve.G2.isZero(curve.G2.timesScalar(curve.G2.fromRprCompressed(ffG2, 0), r))],
  ], 800);
  await curve.terminate();

  const loadavg = os.loadavg().map((x) => x.toFixed(2)).join(' ');
  const meta = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.cpus().length,
    loadavg,
    note: 'Single thread. Taken on a shared 2-core machine under load from other jobs: compare rows within one run, not across runs.',
  };
  const out = join(here, 'results');
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'groth16.json'), JSON.stringify({ meta, rows }, null, 2) + '\n');
  const md = ['## Groth16 / BN254 (bench/groth16.ts)', '', `${meta.note} Node ${meta.node}, load average ${loadavg}.`, ''];
  let group = '';
  for (const row of rows) {
    if (row.group !== group) {
      group = row.group;
      md.push('', `**${group}**`, '', '| implementation | median | mean | samples | includes |', '|---|---:|---:|---:|---|');
    }
    const ms = (x: number) => (x >= 1 ? `${x.toFixed(2)} ms` : `${(x * 1000).toFixed(1)} µs`);
    md.push(`| ${row.impl} | ${ms(row.medianMs)} | ${ms(row.meanMs)} | ${row.samples} | ${row.note ?? ''} |`);
  }
  writeFileSync(join(out, 'groth16.md'), md.join('\n') + '\n');
  console.log('wrote bench/results/groth16.{json,md}');
}

/**
 * Per proof, the Light e2e proof: one at a time, 64 in one batch (one final exponentiation), and 256
 * `getValidityProof` answers through the validity-proof kind on a pool of 2 threads (JSON parse,
 * structure, public inputs and a batched check of each batch of 16), against the peers one at a time.
 */
async function perProof(run: (group: string, tasks: Array<[string, () => unknown, string?, number?]>) => Promise<void>, curve: Any): Promise<void> {
  const c = cases[0]!;
  const items = Array.from({ length: BATCH }, () => ({ proof: c.proof, publicInputs: c.inputs, vk: c.vk }));
  const p = e2e.proofs[0];
  const b58 = (h: string): string => bs58.encode(hex(h));
  const value = {
    compressedProof: { a: Array.from(hex(p.compressedProof.a)), b: Array.from(hex(p.compressedProof.b)), c: Array.from(hex(p.compressedProof.c)) },
    roots: [b58(p.root)],
    rootIndices: [p.rootIndex],
    leafIndices: [p.inputLeafIndex],
    leaves: [b58(p.leaf)],
    merkleTrees: [e2e.leaves[0].tree],
  };
  // The pool gets 256 answers: the verifier cuts a short list into ~4 batches per thread, and its
  // batches of 16 (the kind's size) are what a file of many proofs gets.
  const answers = Array.from({ length: POOLED }, () => value);
  const sj = snarkjsInputs(c);
  const verifier = createVerifier({ threads: 2 });
  try {
    // Every path must accept the proofs before it is timed (and the workers load mcl here).
    if (!verifyGroth16Batch(items).every(Boolean)) throw new Error('batch rejected the e2e proof');
    const pooled = await verifier.verify('validity-proof', answers);
    if (!pooled.every((v) => v.valid)) throw new Error(`pool rejected the e2e proof: ${pooled.find((v) => !v.valid)?.reason}`);
    await run(`verify per proof: light v1 inclusion, single / batch of ${BATCH} / pool`, [
      ['cairn single (mcl-wasm)', () => verifyGroth16(c.proof, c.inputs, c.vk), 'one proof per call, 1 thread'],
      [`cairn batch of ${BATCH} (mcl-wasm)`, () => verifyGroth16Batch(items), `${BATCH} proofs, one final exponentiation, 1 thread`, BATCH],
      [
        'cairn validity-proof kind, pool of 2 threads',
        () => verifier.verify('validity-proof', answers),
        `${POOLED} getValidityProof answers: JSON, structure, inputs, batches of 16 checked together`,
        POOLED,
      ],
      ['snarkjs 0.7.6 groth16.verify', () => snarkjs.groth16.verify(sj.vk, sj.publicSignals, sj.proof), 'one proof per call, 1 thread'],
      ['ffjavascript 0.3.1 pairingEq', ffVerifier(curve, c), 'points pre-decoded, 1 thread'],
    ]);
  } finally {
    await verifier.close();
  }
}

/** ffjavascript's pairing check on pre-decoded points (the same as the per-case rows). */
function ffVerifier(F: Any, c: Case): () => Promise<boolean> {
  const sj = snarkjsInputs(c);
  const g1 = (p: string[]) => F.G1.fromObject(p.map(BigInt));
  const g2 = (p: string[][]) => F.G2.fromObject(p.map((x) => x.map(BigInt)));
  const [fA, fB, fC] = [g1(sj.proof.pi_a), g2(sj.proof.pi_b), g1(sj.proof.pi_c)];
  const [fAlpha, fBeta, fGamma, fDelta] = [g1(sj.vk.vk_alpha_1), g2(sj.vk.vk_beta_2), g2(sj.vk.vk_gamma_2), g2(sj.vk.vk_delta_2)];
  const fIC = sj.vk.IC.map(g1);
  const scalars = c.inputs.map(big);
  return async () => {
    let vkx = fIC[0];
    for (let i = 0; i < scalars.length; i++) vkx = F.G1.add(vkx, F.G1.timesScalar(fIC[i + 1], scalars[i]));
    return F.pairingEq(F.G1.neg(fA), fB, vkx, fGamma, fC, fDelta, fAlpha, fBeta);
  };
}

await main();
