/**
 * The killable sender process: reads a job, sends its intents through a journaled sender (after
 * `resume()` when asked) and prints one JSON line per answer. The harness SIGKILLs it at random
 * moments, so nothing here tries to be graceful; spawned as `node --import tsx soak/child.ts job`
 * so the signal reaches the sender itself, not a tsx wrapper.
 */
import { readFileSync } from 'node:fs';
import { createSender, signerFromSecretKey, transferInstruction } from '../src/sender/index.js';
import { fullDisk } from '../test/support/full-disk.js';
import type { ChildJob, ChildLine } from './job.js';
import { errorFacts } from './error-facts.js';
import { watchHandles } from './open-handles.js';

const handlesLeft = watchHandles();
const out = (l: ChildLine): void => void process.stdout.write(JSON.stringify(l) + '\n');
let rejections = 0;
process.on('unhandledRejection', (e) => {
  rejections++;
  out({ t: 'rejection', message: e instanceof Error ? e.message : String(e) });
});

const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as ChildJob;
const payer = signerFromSecretKey(new Uint8Array(Buffer.from(job.payer, 'hex')));
const sender = createSender({
  url: job.url,
  journal: job.diskBudgetBytes === undefined ? job.journal : { path: job.journal, file: fullDisk(job.diskBudgetBytes).open },
  cuPrice: 200_000,
  cuLimit: 1_000,
  pollMs: job.pollMs,
  rebroadcastMs: job.rebroadcastMs,
  onExpired: 'resign',
  signers: [payer],
});
out({ t: 'start' });
if (job.resume) {
  try {
    for (const r of await sender.resume()) {
      out(r.ok ? { t: 'answer', via: 'resume', id: r.id, ok: true, signature: r.outcome.signature } : { t: 'answer', via: 'resume', id: r.id, ok: false, ...errorFacts(r.error) });
    }
  } catch (e) {
    out({ t: 'fatal', via: 'resume', ...errorFacts(e) });
  }
}
const inputs = job.intents.map((it) => ({ instructions: [transferInstruction(payer.address, it.to, BigInt(it.lamports))], payer }));
try {
  for await (const r of sender.sendMany(inputs, { concurrency: job.concurrency, idOf: (_, i) => job.intents[i]!.id })) {
    out(r.ok ? { t: 'answer', via: 'send', id: r.id, ok: true, signature: r.outcome.signature } : { t: 'answer', via: 'send', id: r.id, ok: false, ...errorFacts(r.error) });
  }
} catch (e) {
  out({ t: 'fatal', via: 'send', ...errorFacts(e) });
}
try {
  await sender.close();
} catch (e) {
  out({ t: 'fatal', via: 'close', ...errorFacts(e) });
}
out({ t: 'end', rejections, handles: await handlesLeft(), maxRssKb: process.resourceUsage().maxRSS });
