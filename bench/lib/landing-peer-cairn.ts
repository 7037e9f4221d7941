/**
 * cairn in the landing benchmark, as a bot calls it: one `createSender` with a fixed tip, CU price
 * and CU limit, and `sendMany` over the transfers at the job's concurrency. It submits to `/fast`,
 * races signature notifications on its websocket against one `getSignatureStatuses` per tick for
 * every transfer in flight, and rebroadcasts the same bytes per slot for the first few slots without
 * a sign of landing, then less often (defaults). A submit `/fast` refuses with 429 goes at once
 * through the JSON-RPC host's `sendTransaction` (`rateLimited: 'rpc'`, the default): a metered call,
 * counted with the JSON-RPC host's requests.
 * Time to confirmed is the outcome's own `timings.confirmedMs` (from the moment the intent starts).
 */
import { createClient } from '../../src/rpc/client/create-client.js';
import { createSender, signerFromSecretKey, transferInstruction } from '../../src/sender/index.js';
import type { CreatePeer } from './landing-peer.js';
import { bundlePool, errorText } from './landing-peer.js';

export const createPeer: CreatePeer = async (job) => {
  const payer = signerFromSecretKey(Buffer.from(job.payerSeed, 'hex'));
  // the websocket through the devnet's counting proxy, as the other peers reach it
  const client = createClient({ url: job.url, wsUrl: job.wsUrl });
  const sender = createSender({
    client,
    tip: BigInt(job.tipLamports),
    cuPrice: BigInt(job.cuPrice),
    cuLimit: job.cuLimit,
    concurrency: job.concurrency,
  });
  return {
    async run(answer, signal) {
      if (job.bundle) {
        // sendBundle: the pair on one blockhash, the tip once in the second, confirmed as one
        const leg = (i: number) => ({ instructions: [transferInstruction(payer.address, job.recipient, BigInt(job.amounts[i]!))], payer });
        return bundlePool(job, async (k, s) => void (await sender.sendBundle([leg(2 * k), leg(2 * k + 1)], { signal: s })), answer, signal);
      }
      const inputs = job.amounts.map((a) => ({ instructions: [transferInstruction(payer.address, job.recipient, BigInt(a))], payer }));
      for await (const item of sender.sendMany(inputs, { concurrency: job.concurrency, signal })) {
        if (item.ok) answer({ i: item.index, ok: true, ms: item.outcome.timings.confirmedMs ?? Number.NaN });
        else if (!signal.aborted) answer({ i: item.index, ok: false, ms: Number.NaN, error: errorText(item.error) });
      }
    },
    async close() {
      await sender.close();
      await client.close();
    },
  };
};
