/**
 * helius-sdk 3.2 in the landing benchmark, as its README sends through Sender:
 * `helius.tx.sendTransactionWithSender({ signers, instructions, region, tipAmount, priorityFeeCap })`
 * with the SDK's defaults otherwise. Per transfer it fetches a blockhash, simulates for the compute
 * units, asks `getPriorityFeeEstimate` (capped at the job's CU price), fetches a second blockhash,
 * posts once to `/fast`, then polls `getSignatureStatuses` for that one signature and
 * `getBlockHeight` every 2 s (60 s timeout). Its Sender hosts are fixed, so the SDK's fetch is
 * redirected to the devnet (test/support/redirect-fetch.ts, loaded before the SDK loads kit);
 * anything not on loopback is refused.
 */
import type { CreatePeer } from './landing-peer.js';
import { bundlePool, pool } from './landing-peer.js';

export const createPeer: CreatePeer = async (job) => {
  // Order matters: the redirect defines the WebSocket class kit picks when it is first evaluated.
  const { HELIUS_SDK_HOSTS, redirectToLoopback } = await import('../../test/support/redirect-fetch.js');
  const redirect = redirectToLoopback({ target: job.url, hosts: HELIUS_SDK_HOSTS });
  const { createHelius } = await import('helius-sdk');
  const kit = await import('@solana/kit');
  const helius = createHelius({ apiKey: job.apiKey, network: 'mainnet' });
  const payer = await kit.createKeyPairSignerFromPrivateKeyBytes(Buffer.from(job.payerSeed, 'hex'));
  const data = (lamports: string): Uint8Array => {
    const b = new Uint8Array(12);
    const v = new DataView(b.buffer);
    v.setUint32(0, 2, true);
    v.setBigUint64(4, BigInt(lamports), true);
    return b;
  };
  const system = kit.address('11111111111111111111111111111111');
  const tx = helius.tx;
  const one = async (i: number): Promise<void> => {
    await tx.sendTransactionWithSender({
      signers: [payer],
      instructions: [
        {
          programAddress: system,
          accounts: [
            { address: payer.address, role: kit.AccountRole.WRITABLE_SIGNER, signer: payer },
            { address: kit.address(job.recipient), role: kit.AccountRole.WRITABLE },
          ],
          data: data(job.amounts[i]!),
        },
      ],
      region: 'Default',
      tipAmount: job.tipLamports,
      priorityFeeCap: job.cuPrice,
    });
  };
  // Bundles: two kit transactions on one blockhash (CU limit and price in each, the tip in the
  // second), signed, then `sendBundleWithSender` as its docs show (it polls the signatures).
  const chain = kit.createSolanaRpc(`${job.url}/?api-key=${job.apiKey}`);
  const le = (n: number, v: bigint | number): number[] => {
    const b = new Uint8Array(n);
    const dv = new DataView(b.buffer);
    if (n === 4) dv.setUint32(0, Number(v), true);
    else dv.setBigUint64(0, BigInt(v), true);
    return [...b];
  };
  const budget = kit.address('ComputeBudget111111111111111111111111111111');
  const payerMeta = { address: payer.address, role: kit.AccountRole.WRITABLE_SIGNER, signer: payer };
  const pay = (to: string, lamports: bigint | number) => ({
    programAddress: system,
    accounts: [payerMeta, { address: kit.address(to), role: kit.AccountRole.WRITABLE }],
    data: Uint8Array.from([2, 0, 0, 0, ...le(8, lamports)]),
  });
  const pair = async (k: number, signal: AbortSignal): Promise<void> => {
    const { value: latest } = await chain.getLatestBlockhash({ commitment: 'confirmed' }).send({ abortSignal: signal });
    const signed = await Promise.all(
      [2 * k, 2 * k + 1].map((i, n) => {
        const ixs = [
          { programAddress: budget, data: Uint8Array.from([2, ...le(4, job.cuLimit)]) },
          { programAddress: budget, data: Uint8Array.from([3, ...le(8, job.cuPrice)]) },
          pay(job.recipient, BigInt(job.amounts[i]!)),
          ...(n === 1 ? [pay(job.tipAccount, job.tipLamports)] : []),
        ];
        const m = kit.pipe(
          kit.createTransactionMessage({ version: 0 }),
          (x) => kit.setTransactionMessageFeePayerSigner(payer, x),
          (x) => kit.setTransactionMessageLifetimeUsingBlockhash(latest, x),
          (x) => kit.appendTransactionMessageInstructions(ixs as Parameters<typeof kit.appendTransactionMessageInstructions>[0], x),
        );
        return kit.signTransactionMessageWithSigners(m);
      }),
    );
    await tx.sendBundleWithSender(signed as Parameters<typeof tx.sendBundleWithSender>[0], { region: 'Default' });
  };
  return {
    run: (answer, signal) => (job.bundle ? bundlePool(job, pair, answer, signal) : pool(job, one, answer, signal)),
    async close() {
      if (Object.hasOwn(helius, 'close')) (helius as unknown as { close(): void }).close();
      if (redirect.refused.length) console.error(`helius-sdk: refused off-loopback requests: ${[...new Set(redirect.refused)].join(', ')}`);
      redirect.restore();
    },
  };
};
