/**
 * An executed transaction as the JSON-RPC shows it: `getTransaction`'s answer (json, base64 or
 * base58) and its `meta`, shared with the compression methods and the raw webhooks.
 */
import bs58 from 'bs58';
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
  else if (encoding === 'base58') transaction = [bs58.encode(tx.wire), 'base58'];
  else {
    transaction = {
      signatures: d.signatures.map((s) => bs58.encode(s)),
      message: {
        header: {
          numRequiredSignatures: header.numRequiredSignatures,
          numReadonlySignedAccounts: header.numReadonlySignedAccounts,
          numReadonlyUnsignedAccounts: header.numReadonlyUnsignedAccounts,
        },
        accountKeys: tx.accountKeys,
        recentBlockhash: bs58.encode(d.parts.recentBlockhash),
        instructions: d.parts.instructions.map((ix) => ({
          programIdIndex: ix.programIdIndex,
          accounts: Array.from(ix.accounts),
          data: bs58.encode(ix.data),
          stackHeight: null,
        })),
        ...(version === 0
          ? {
              addressTableLookups: d.parts.lookups.map((l) => ({
                accountKey: bs58.encode(l.key),
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
