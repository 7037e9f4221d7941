/**
 * @solana/kit in the landing benchmark, as its documentation shows a transfer sent: per transfer,
 * `getLatestBlockhash`, a v0 message (CU limit, CU price, the transfer, the tip), signed, then
 * `sendAndConfirmTransactionFactory`'s `sendAndConfirmTransaction` at `confirmed`. It sends once
 * through the JSON-RPC host's `sendTransaction` (kit's defaults: preflight on) and races a
 * `signatureNotifications` subscription against block height (`slotNotifications`) on the devnet's
 * websocket; it never resends.
 */
import {
  AccountRole,
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type AccountSignerMeta,
  type Instruction,
} from '@solana/kit';
import type { CreatePeer } from './landing-peer.js';
import { pool } from './landing-peer.js';

const SYSTEM = address('11111111111111111111111111111111');
const COMPUTE_BUDGET = address('ComputeBudget111111111111111111111111111111');

const le = (bytes: number, v: bigint | number): number[] => {
  const b = new Uint8Array(bytes);
  const view = new DataView(b.buffer);
  if (bytes === 4) view.setUint32(0, Number(v), true);
  else view.setBigUint64(0, BigInt(v), true);
  return [...b];
};

export const createPeer: CreatePeer = async (job) => {
  const payer = await createKeyPairSignerFromPrivateKeyBytes(Buffer.from(job.payerSeed, 'hex'));
  const rpc = createSolanaRpc(job.url);
  const rpcSubscriptions = createSolanaRpcSubscriptions(job.wsUrl);
  const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions } as Parameters<typeof sendAndConfirmTransactionFactory>[0]);
  const payerMeta: AccountSignerMeta = { address: payer.address, role: AccountRole.WRITABLE_SIGNER, signer: payer };
  const transfer = (to: string, lamports: bigint | number): Instruction => ({
    programAddress: SYSTEM,
    accounts: [payerMeta, { address: address(to), role: AccountRole.WRITABLE }],
    data: Uint8Array.from([2, 0, 0, 0, ...le(8, lamports)]),
  });
  const budget: Instruction[] = [
    { programAddress: COMPUTE_BUDGET, data: Uint8Array.from([2, ...le(4, job.cuLimit)]) },
    { programAddress: COMPUTE_BUDGET, data: Uint8Array.from([3, ...le(8, job.cuPrice)]) },
  ];
  const one = async (i: number, signal: AbortSignal): Promise<void> => {
    const { value: latest } = await rpc.getLatestBlockhash({ commitment: 'confirmed' }).send({ abortSignal: signal });
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
      (m) => appendTransactionMessageInstructions([...budget, transfer(job.recipient, BigInt(job.amounts[i]!)), transfer(job.tipAccount, job.tipLamports)], m),
    );
    const tx = await signTransactionMessageWithSigners(message);
    await sendAndConfirm(tx as Parameters<typeof sendAndConfirm>[0], { commitment: 'confirmed', abortSignal: signal });
  };
  return {
    run: (answer, signal) => pool(job, one, answer, signal),
    async close() {},
  };
};
