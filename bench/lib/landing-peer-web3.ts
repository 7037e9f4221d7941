/**
 * @solana/web3.js 1.98 in the landing benchmark, the way its docs send a transfer: per transfer,
 * `getLatestBlockhash`, a `Transaction` (CU limit, CU price, the transfer, the tip), signed, then
 * `sendAndConfirmRawTransaction` with the blockhash strategy at `confirmed`. It sends once through the
 * JSON-RPC host's `sendTransaction` (preflight on, the default), then waits on a `signatureSubscribe`
 * websocket raced against `getBlockHeight` polls; it never resends. Its Connection retries a 429 by
 * itself (up to 5 times, backing off), as users get it by default.
 */
import bs58 from 'bs58';
import { ComputeBudgetProgram, Connection, Keypair, PublicKey, SystemProgram, Transaction, sendAndConfirmRawTransaction } from '@solana/web3.js';
import type { CreatePeer } from './landing-peer.js';
import { pool } from './landing-peer.js';

export const createPeer: CreatePeer = async (job) => {
  const payer = Keypair.fromSeed(Buffer.from(job.payerSeed, 'hex'));
  const connection = new Connection(job.url, { commitment: 'confirmed', wsEndpoint: job.wsUrl });
  const to = new PublicKey(job.recipient);
  const tip = new PublicKey(job.tipAccount);
  const one = async (i: number): Promise<void> => {
    const { blockhash, lastValidBlockHeight } = await connection.getLatestBlockhash('confirmed');
    const tx = new Transaction({ feePayer: payer.publicKey, blockhash, lastValidBlockHeight }).add(
      ComputeBudgetProgram.setComputeUnitLimit({ units: job.cuLimit }),
      ComputeBudgetProgram.setComputeUnitPrice({ microLamports: job.cuPrice }),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: to, lamports: BigInt(job.amounts[i]!) }),
      SystemProgram.transfer({ fromPubkey: payer.publicKey, toPubkey: tip, lamports: job.tipLamports }),
    );
    tx.sign(payer);
    const signature = bs58.encode(tx.signature!);
    await sendAndConfirmRawTransaction(connection, tx.serialize(), { signature, blockhash, lastValidBlockHeight }, { commitment: 'confirmed' });
  };
  return {
    run: (answer, signal) => pool(job, one, answer, signal),
    async close() {},
  };
};
