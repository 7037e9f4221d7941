/**
 * The real transaction behind every devnet state change that the service would make on chain (a cNFT
 * mint, a compressed-account or token operation). LiteSVM runs no Bubblegum or Light programs here, so
 * the devnet authority signs a System transfer to itself that lists the accounts the operation touches
 * (tree, owner, asset id, mint) as read-only keys: the signature is real, confirmable, has a fee and a
 * slot, shows up in `getTransaction`, and webhooks watching those accounts see it. The state change is
 * applied only once that transaction has executed successfully.
 */
import { encodeBase58, transferInstruction, signerFromSecretKey, compileMessage, signMessageParts } from '../../solana/index.js';
import type { Chain, ExecutedTransaction } from '../types.js';
import { DevnetRpcError } from '../types.js';

export interface AuthorityTxResult {
  signature: string;
  /** Resolves with the executed transaction (successful or failed). */
  executed: Promise<ExecutedTransaction>;
}

/** Submits authority-signed marker transactions and resolves them when the chain executes them. */
export interface AuthorityTxSender {
  send(touched: readonly Uint8Array[]): AuthorityTxResult;
  close(): void;
}

/**
 * Create a sender bound to `chain`. One listener on `chain.onTransaction` serves every pending send.
 *
 * @example
 * const tx = createAuthorityTxSender(chain);
 * const { signature, executed } = tx.send([treeBytes, ownerBytes]);
 * const done = await executed; // done.err === null on success
 */
export function createAuthorityTxSender(chain: Chain): AuthorityTxSender {
  // Compiled and signed by the solana layer (the bytes web3.js made, without loading web3.js: it was
  // this module's only use of it, and it cost every devnet ~100 ms of start-up).
  const payer = signerFromSecretKey(chain.authority.secretKey, 'authority');
  const pending = new Map<string, { resolve: (t: ExecutedTransaction) => void; reject: (e: unknown) => void }>();
  // The transfer amount is a counter so two identical operations in one slot never share a signature
  // (a duplicate would be dropped by the chain and its operation would never be applied).
  let counter = 0;
  let closed = false;
  const unsubscribe = chain.onTransaction((tx) => {
    const p = pending.get(tx.signature);
    if (p) {
      pending.delete(tx.signature);
      p.resolve(tx);
    }
  });

  // A chain that reports dropped submissions (fee not charged, blockhash expired) lets a pending
  // operation fail instead of waiting forever.
  const onDropped = (chain as Chain & { onDropped?: (cb: (d: { signature: string; reason: string }) => void) => () => void }).onDropped;
  const unsubscribeDropped = onDropped?.call(chain, (d) => {
    const p = pending.get(d.signature);
    if (p) {
      pending.delete(d.signature);
      p.reject(new DevnetRpcError(-32002, `devnet transaction ${d.signature} did not land: ${d.reason}`, 200, { signature: d.signature, reason: d.reason }));
    }
  });

  return {
    send(touched) {
      if (closed) throw new DevnetRpcError(-32603, 'devnet state module is closed', 503);
      counter = (counter + 1) % 1_000_000_000;
      const ix = transferInstruction(payer.address, payer.address, counter);
      const keys = [...ix.keys, ...touched.map((k) => ({ pubkey: k, isSigner: false, isWritable: false }))];
      const parts = compileMessage({ payer: payer.address, instructions: [{ ...ix, keys }], recentBlockhash: chain.latestBlockhash().blockhash });
      const { wire, signatures } = signMessageParts(parts, [payer]);
      let resolve!: (t: ExecutedTransaction) => void;
      let reject!: (e: unknown) => void;
      const executed = new Promise<ExecutedTransaction>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      // Never an unhandled rejection when the caller does not wait (confirmTransaction: false).
      executed.catch(() => {});
      const signature = encodeBase58(signatures[0]!);
      pending.set(signature, { resolve, reject });
      try {
        const r = chain.submit(wire);
        // caught just below and answered as a DevnetRpcError (-32603)
        if (r.signature !== signature) throw new Error(`chain returned signature ${r.signature}, expected ${signature}`);
      } catch (e) {
        pending.delete(signature);
        throw new DevnetRpcError(-32603, `devnet could not submit its transaction: ${e instanceof Error ? e.message : String(e)}`, 500);
      }
      // The chain may have executed it synchronously before we registered: look it up once.
      const done = chain.transaction(signature);
      if (done && pending.has(signature)) {
        pending.delete(signature);
        resolve(done);
      }
      return { signature, executed };
    },
    close() {
      closed = true;
      unsubscribe();
      unsubscribeDropped?.();
      for (const [, p] of pending) p.reject(new DevnetRpcError(-32603, 'devnet stopped', 503));
      pending.clear();
    },
  };
}
