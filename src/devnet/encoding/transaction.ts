/**
 * An executed transaction as the JSON-RPC shows it: `getTransaction`'s answer (json, base64 or
 * base58) and its `meta`, shared with the compression methods and the raw webhooks.
 */
import { encodeBase58 } from '../../solana/index.js';
import type { DevnetChain } from '../chain/contract.js';
import { parseSubmitted } from '../chain/parse-submitted.js';
import { transactionDetail } from '../runtime/meta.js';
import type { ExecutedTransaction } from '../types.js';

/** The `meta` of an executed transaction as `getTransaction` shows it (shared with the compression methods). */
export function transactionMetaJson(tx: ExecutedTransaction): Record<string, unknown> {
  const detail = transactionDetail(tx);
  return {
    err: tx.err,
    status: tx.err === null ? { Ok: null } : { Err: tx.err },
    fee: tx.fee,
    preBalances: tx.preBalances,
    postBalances: tx.postBalances,
    innerInstructions: detail.innerInstructions,
    logMessages: tx.logs,
    preTokenBalances: detail.preTokenBalances,
    postTokenBalances: detail.postTokenBalances,
    rewards: [],
    loadedAddresses: detail.loadedAddresses,
    computeUnitsConsumed: tx.computeUnitsConsumed,
  };
}

/** The JSON-RPC `getTransaction` answer for an executed transaction. */
export function transactionJson(chain: DevnetChain, tx: ExecutedTransaction, encoding: string): Record<string, unknown> {
  const d = parseSubmitted(tx.wire);
  const { header, version } = d.parts;
  let transaction: unknown;
  if (encoding === 'base64') transaction = [Buffer.from(tx.wire).toString('base64'), 'base64'];
  else if (encoding === 'base58') transaction = [encodeBase58(tx.wire), 'base58'];
  else {
    transaction = {
      signatures: d.signatures.map((s) => encodeBase58(s)),
      message: {
        header: {
          numRequiredSignatures: header.numRequiredSignatures,
          numReadonlySignedAccounts: header.numReadonlySignedAccounts,
          numReadonlyUnsignedAccounts: header.numReadonlyUnsignedAccounts,
        },
        accountKeys: tx.accountKeys,
        recentBlockhash: encodeBase58(d.parts.recentBlockhash),
        instructions: d.parts.instructions.map((ix) => ({
          programIdIndex: ix.programIdIndex,
          accounts: Array.from(ix.accounts),
          data: encodeBase58(ix.data),
          stackHeight: null,
        })),
        ...(version === 0
          ? {
              addressTableLookups: d.parts.lookups.map((l) => ({
                accountKey: encodeBase58(l.key),
                writableIndexes: Array.from(l.writableIndexes),
                readonlyIndexes: Array.from(l.readonlyIndexes),
              })),
            }
          : {}),
      },
    };
  }
  return {
    slot: tx.slot,
    blockTime: tx.blockTime,
    version,
    transaction,
    meta: transactionMetaJson(tx),
  };
}
