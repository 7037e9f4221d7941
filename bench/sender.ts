/**
 * Sender benchmarks, peer in the same run:
 * 1. Client overhead per transaction: build + sign + serialize of (a) a 2-instruction transfer + tip
 *    and (b) the 4-instruction transaction cairn actually sends (CU limit, CU price, transfer, tip),
 *    cairn's byte path vs `@solana/web3.js` 1.98 (`Transaction.add/sign/serialize`). Both produce the
 *    same bytes (test/solana/wire.test.ts proves it). Goal: ≤ 0.25 ms per transaction.
 * 2. End to end: confirmed transfers per second with `sendMany` against the devnet running in its
 *    own process (goal ≥ 1,000/s), next to the web3.js way (sendRawTransaction + confirmTransaction
 *    per transaction, same concurrency).
 *
 * Writes bench/results/sender.{json,md}. `npx tsx bench/sender.ts` (BENCH_TIME_MS, BENCH_E2E_N).
 */
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Bench } from 'tinybench';
import { ComputeBudgetProgram, Connection, Keypair, PublicKey, SystemProgram, Transaction } from '@solana/web3.js';
import { createClient } from '../src/rpc/client/create-client.js';
import {
  compileMessage,
  computeUnitLimitInstruction,
  computeUnitPriceInstruction,
  createSender,
  signMessageParts,
  signerFromSecretKey,
  transferInstruction,
} from '../src/sender/index.js';

const here = dirname(fileURLToPath(import.meta.url));
const timeMs = Number(process.env.BENCH_TIME_MS ?? 1_000);
const e2eN = Number(process.env.BENCH_E2E_N ?? 3_000);
const loadBefore = loadavg()[0];

// ------------------------------------------------------------------ 1. client overhead
const kp = Keypair.fromSeed(new Uint8Array(32).fill(1));
const signer = signerFromSecretKey(kp.secretKey);
const to = Keypair.fromSeed(new Uint8Array(32).fill(2)).publicKey;
const toText = to.toBase58();
const tipText = '4ACfpUFoaSD9bfPdeu6DBt89gB6ENTeHBXCAi87NhDEE';
const tip = new PublicKey(tipText);
const blockhash = Keypair.fromSeed(new Uint8Array(32).fill(3)).publicKey.toBase58();
let amount = 1;

const cairn2 = () =>
  signMessageParts(
    compileMessage({
      payer: signer.address,
      recentBlockhash: blockhash,
      instructions: [transferInstruction(signer.address, toText, amount++), transferInstruction(signer.address, tipText, 1_000_000n)],
    }),
    [signer],
  ).wire;
const web32 = () => {
  const tx = new Transaction({ feePayer: kp.publicKey, blockhash, lastValidBlockHeight: 1 }).add(
    SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: to, lamports: amount++ }),
    SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: tip, lamports: 1_000_000 }),
  );
  tx.sign(kp);
  return tx.serialize();
};
const cairn4 = () =>
  signMessageParts(
    compileMessage({
      payer: signer.address,
      recentBlockhash: blockhash,
      instructions: [
        computeUnitLimitInstruction(1_000),
        computeUnitPriceInstruction(200_000),
        transferInstruction(signer.address, toText, amount++),
        transferInstruction(signer.address, tipText, 1_000_000n),
      ],
    }),
    [signer],
  ).wire;
const web34 = () => {
  const tx = new Transaction({ feePayer: kp.publicKey, blockhash, lastValidBlockHeight: 1 }).add(
    ComputeBudgetProgram.setComputeUnitLimit({ units: 1_000 }),
    ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 200_000 }),
    SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: to, lamports: amount++ }),
    SystemProgram.transfer({ fromPubkey: kp.publicKey, toPubkey: tip, lamports: 1_000_000 }),
  );
  tx.sign(kp);
  return tx.serialize();
};
// sanity: same bytes for the same amount
amount = 7;
const a = Buffer.from(cairn4());
amount = 7;
if (!a.equals(web34())) throw new Error('cairn and web3.js bytes differ: the comparison would be meaningless');

const bench = new Bench({ time: timeMs, warmup: true });
bench.add('cairn: 2 ix (transfer + tip)', cairn2);
bench.add('web3.js: 2 ix (transfer + tip)', web32);
bench.add('cairn: 4 ix (CU limit, CU price, transfer, tip)', cairn4);
bench.add('web3.js: 4 ix (CU limit, CU price, transfer, tip)', web34);
await bench.run();
const overhead = bench.tasks.map((t) => {
  const r = t.result as unknown as { latency: { mean: number; p50?: number; rme: number } };
  return { name: t.name, meanMs: r.latency.mean, p50Ms: r.latency.p50 ?? r.latency.mean, rmePct: r.latency.rme };
});
console.table(overhead.map((o) => ({ task: o.name, 'mean ms': o.meanMs.toFixed(4), 'p50 ms': o.p50Ms.toFixed(4), '±%': o.rmePct.toFixed(1) })));

// ------------------------------------------------------------------ 2. end to end
async function startDevnetProcess(funded: string[]): Promise<{ url: string; wsUrl: string; stop: () => Promise<void> }> {
  const p = spawn(process.execPath, ['--import', 'tsx', join(here, 'lib', 'sender-devnet.ts')], {
    env: { ...process.env, FUNDED: funded.join(','), SLOT_MS: '100' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [url, wsUrl] = await new Promise<[string, string]>((resolve, reject) => {
    let buf = '';
    p.stdout.on('data', (c: Buffer) => {
      buf += c.toString();
      const m = /url (\S+) (\S+)\n/.exec(buf);
      if (m) resolve([m[1], m[2]]);
    });
    p.on('exit', (code) => reject(new Error(`devnet process exited ${code}`)));
  });
  return {
    url,
    wsUrl,
    stop: () =>
      new Promise<void>((r) => {
        p.on('exit', () => r());
        p.kill('SIGTERM');
      }),
  };
}

const payer = signerFromSecretKey(new Uint8Array(32).fill(9));
const payer2 = Keypair.fromSeed(new Uint8Array(32).fill(10));
const devnet = await startDevnetProcess([payer.address, payer2.publicKey.toBase58()]);
const recipient = Keypair.fromSeed(new Uint8Array(32).fill(11)).publicKey.toBase58();
const e2e: Record<string, number | string> = {};
try {
  const client = createClient({ url: devnet.url });
  const sender = createSender({ client, cuPrice: 200_000, cuLimit: 1_000, pollMs: 100, rebroadcastMs: 1_500, concurrency: 512 });
  // fund the recipient above rent once, so every benchmark transfer is a plain transfer
  await sender.send({ instructions: [transferInstruction(payer.address, recipient, 10n ** 9n)], payer });
  const run = async (n: number) => {
    const inputs = Array.from({ length: n }, (_, i) => ({ instructions: [transferInstruction(payer.address, recipient, 1_000 + i)], payer }));
    const t0 = performance.now();
    let ok = 0;
    for await (const r of sender.sendMany(inputs, { concurrency: 512 })) if (r.ok) ok++;
    return { ok, seconds: (performance.now() - t0) / 1000 };
  };
  await run(Math.min(300, e2eN)); // warm-up: JIT, sockets
  const statsBefore = sender.stats;
  const r = await run(e2eN);
  const st = sender.stats;
  e2e.cairnConfirmedPerSecond = Math.round(r.ok / r.seconds);
  e2e.cairnOk = r.ok;
  e2e.cairnSeconds = Number(r.seconds.toFixed(2));
  e2e.cairnStatusCalls = st.tracker.statusCalls - statsBefore.tracker.statusCalls;
  e2e.cairnTicks = st.tracker.ticks - statsBefore.tracker.ticks;
  console.log(`cairn sendMany: ${r.ok}/${e2eN} confirmed in ${r.seconds.toFixed(2)} s = ${e2e.cairnConfirmedPerSecond}/s; ${e2e.cairnStatusCalls} status calls in ${e2e.cairnTicks} ticks`);
  await sender.close();
  await client.close();

  // web3.js: sendRawTransaction to /fast is not possible (Connection posts to its RPC URL), so the
  // peer sends to the devnet's standard sendTransaction and confirms each signature on its own.
  const conn = new Connection(devnet.url, { commitment: 'confirmed', wsEndpoint: devnet.wsUrl });
  const peerN = Math.min(e2eN, 1_000);
  const t0 = performance.now();
  let ok = 0;
  let next = 0;
  const worker = async () => {
    while (next < peerN) {
      const i = next++;
      const { blockhash: bh, lastValidBlockHeight } = await conn.getLatestBlockhash();
      const tx = new Transaction({ feePayer: payer2.publicKey, blockhash: bh, lastValidBlockHeight }).add(
        ComputeBudgetProgram.setComputeUnitPrice({ microLamports: 200_000 }),
        SystemProgram.transfer({ fromPubkey: payer2.publicKey, toPubkey: new PublicKey(recipient), lamports: 5_000 + i }),
        SystemProgram.transfer({ fromPubkey: payer2.publicKey, toPubkey: tip, lamports: 1_000_000 }),
      );
      tx.sign(payer2);
      const sig = await conn.sendRawTransaction(tx.serialize(), { skipPreflight: true, maxRetries: 0 });
      const res = await conn.confirmTransaction({ signature: sig, blockhash: bh, lastValidBlockHeight }, 'confirmed');
      if (!res.value.err) ok++;
    }
  };
  await Promise.all(Array.from({ length: 64 }, worker));
  const secs = (performance.now() - t0) / 1000;
  e2e.web3ConfirmedPerSecond = Math.round(ok / secs);
  e2e.web3Ok = ok;
  e2e.web3N = peerN;
  console.log(`web3.js send+confirm (64 workers): ${ok}/${peerN} in ${secs.toFixed(2)} s = ${e2e.web3ConfirmedPerSecond}/s`);
} finally {
  await devnet.stop();
}

// ------------------------------------------------------------------ results
const loadAfter = loadavg()[0];
const result = {
  when: new Date().toISOString(),
  machine: { cpus: cpus().length, node: process.version, loadavg1Before: loadBefore, loadavg1After: loadAfter },
  overhead,
  endToEnd: e2e,
  goals: { overheadMsPerTx: 0.25, confirmedPerSecond: 1_000 },
};
mkdirSync(join(here, 'results'), { recursive: true });
writeFileSync(join(here, 'results', 'sender.json'), JSON.stringify(result, null, 2) + '\n');
const md = [
  '## sender',
  '',
  `Node ${process.version}, ${cpus().length} cores, load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)} (shared machine: timings taken under load).`,
  '',
  '| build + sign + serialize | mean ms | p50 ms | ±% |',
  '|---|---:|---:|---:|',
  ...overhead.map((o) => `| ${o.name} | ${o.meanMs.toFixed(4)} | ${o.p50Ms.toFixed(4)} | ${o.rmePct.toFixed(1)} |`),
  '',
  `Goal ≤ 0.25 ms per transaction; identical bytes to web3.js (checked before timing).`,
  '',
  '| end to end (devnet in its own process) | confirmed/s |',
  '|---|---:|',
  `| cairn sendMany, ${e2e.cairnOk}/${e2eN} transfers, ${e2e.cairnStatusCalls} status calls in ${e2e.cairnTicks} ticks | ${e2e.cairnConfirmedPerSecond} |`,
  `| web3.js sendRawTransaction + confirmTransaction, 64 workers, ${e2e.web3Ok}/${e2e.web3N} | ${e2e.web3ConfirmedPerSecond} |`,
  '',
  'Goal ≥ 1,000 confirmed transfers per second.',
  '',
].join('\n');
writeFileSync(join(here, 'results', 'sender.md'), md);
console.log('\nwrote bench/results/sender.{json,md}');
process.exit(0); // web3.js' Connection keeps its websocket reconnecting forever
