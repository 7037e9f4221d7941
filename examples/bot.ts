/**
 * A tiny payout bot: many transfers through `/fast` with `sendMany`, a progress line while they
 * land, and a summary at the end.
 *
 *   npx tsx examples/bot.ts                      # starts its own devnet, funds a payer, sends 500
 *   CAIRN_URL=http://127.0.0.1:8899 CAIRN_KEYPAIR=id.json npx tsx examples/bot.ts 2000
 *
 * With no URL it starts an embedded devnet (and stops it at the end). With a URL it needs a funded
 * keypair file (JSON array of 64 bytes) unless that URL is a local devnet, where it airdrops.
 */
import { readFileSync } from 'node:fs';
import { startDevnet, type Devnet } from '../src/devnet/index.js';
import { createClient } from '../src/rpc/client/create-client.js';
import { createSender, generateSigner, signerFromSecretKey, transferInstruction, type Signer } from '../src/sender/index.js';

const count = Number(process.argv[2] ?? 500);
if (!Number.isInteger(count) || count < 1) throw new Error(`usage: bot.ts [COUNT], got ${process.argv[2]}`);

let devnet: Devnet | undefined;
let url = process.env.CAIRN_URL;
if (!url) {
  devnet = await startDevnet({ port: 0, slotMs: 100 });
  url = devnet.url;
  console.log(`started a devnet at ${url}`);
}
const client = createClient({ url });
let payer: Signer;
if (process.env.CAIRN_KEYPAIR) {
  payer = signerFromSecretKey(Uint8Array.from(JSON.parse(readFileSync(process.env.CAIRN_KEYPAIR, 'utf8')) as number[]));
} else {
  payer = generateSigner();
  const lamports = 10n ** 9n * BigInt(Math.ceil(count / 100) + 1);
  if (devnet) await devnet.control.airdrop(payer.address, lamports);
  else {
    await client.requestAirdrop(payer.address, lamports);
    while (BigInt(await client.getBalance(payer.address)) < lamports) await new Promise((r) => setTimeout(r, 100));
  }
}

// Ten recipients, each funded above rent by its first payment.
const recipients = Array.from({ length: 10 }, () => generateSigner().address);
const sender = createSender({ client, cuPrice: 200_000, cuLimit: 1_000, pollMs: 200 });
const ac = new AbortController();
process.once('SIGINT', () => ac.abort(new Error('interrupted')));

let landed = 0;
sender.on('landed', () => landed++);
const payments = Array.from({ length: count }, (_, i) => ({
  instructions: [transferInstruction(payer.address, recipients[i % recipients.length], 1_000_000n + BigInt(i))],
  payer,
}));

const t0 = performance.now();
let ok = 0;
let failed = 0;
const latencies: number[] = [];
const errors = new Map<string, number>();
const progress = setInterval(() => {
  process.stdout.write(`\r  ${ok + failed}/${count} done, ${landed} landed, ${sender.stats.tracker.ticks} tracker ticks   `);
}, 250);
try {
  for await (const r of sender.sendMany(payments, { concurrency: 256, signal: ac.signal, idOf: (_, i) => `payout-${i}` })) {
    if (r.ok) {
      ok++;
      latencies.push(r.outcome.timings.confirmedMs ?? 0);
    } else {
      failed++;
      const code = (r.error as { code?: string }).code ?? r.error.name;
      errors.set(code, (errors.get(code) ?? 0) + 1);
    }
  }
} finally {
  clearInterval(progress);
  const secs = (performance.now() - t0) / 1000;
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => Math.round(latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0);
  const st = sender.stats;
  console.log(`\n\nsummary`);
  console.log(`  confirmed   ${ok}/${count} in ${secs.toFixed(2)} s (${Math.round(ok / secs)}/s)`);
  console.log(`  failed      ${failed}${errors.size ? ` (${[...errors].map(([c, n]) => `${c}: ${n}`).join(', ')})` : ''}`);
  console.log(`  latency     p50 ${pct(0.5)} ms, p90 ${pct(0.9)} ms, p99 ${pct(0.99)} ms (send → confirmed)`);
  console.log(`  RPC         ${st.submits} submits (${st.rebroadcasts} rebroadcasts), ${st.tracker.statusCalls} status calls in ${st.tracker.ticks} ticks`);
  await sender.close();
  await client.close();
  await devnet?.stop();
}
