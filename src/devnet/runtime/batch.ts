/**
 * Executing one slot's batch on LiteSVM: the balances before and after each transaction (lamports,
 * and token balances where a token program is among its accounts), the addresses its v0 lookups
 * loaded, its inner instructions, its fee and error, and the "not landed" rule — a transaction whose fee payer was not charged (bad
 * signature, unknown fee payer, not enough for the fee, expired blockhash) is never included in a
 * block on a real cluster, so it gets no status and no ledger entry. A durable-nonce transaction that
 * landed, failed or not, leaves its nonce advanced as a validator does (durable-nonce.ts).
 */
import { withBankBlockhash } from './nonce-blockhash.js';
import type { FailedTransactionMetadata as FailedTx } from 'litesvm';
import { address58 } from '../../solana/index.js';
import { durableNonceAccountOf } from './durable-nonce.js';
import type { LiteSvmInner } from './litesvm.js';
import type { PendingSubmission } from '../chain/signature-verifier.js';
import { txErrorToJson } from './errors.js';
import { computeBudgetOf, feeOf } from './fee.js';
import { innerInstructionsJson, mayInvoke, recordTransactionDetail, resolveLookups, tokenBalances, touchesTokenProgram, type ReadAccount } from './meta.js';
import type { ExecutedTransaction } from '../types.js';

export interface TransactionExecutorDeps {
  inner: LiteSvmInner;
  /** litesvm's failure class (the package is loaded at run time). */
  FailedTransactionMetadata: typeof FailedTx;
  /** Whether a message's blockhash bytes are still valid now. */
  isBlockhashValid(bytes: Uint8Array): boolean;
  /** A submission that did not land, and why. */
  drop(p: PendingSubmission, reason: string): void;
  /** An account's owner and data now (token balances, lookup tables, nonce accounts). */
  readAccount: ReadAccount;
  /** The nonce value an advance stores in the block being executed (from the devnet's blockhash). */
  nextDurableNonce(): string;
  /** Store `nonce` in the nonce account at `address`, its lamports as they stand. */
  storeNonce(address: string, nonce: string): void;
  /** The devnet's blockhash for the block being executed (nonce-blockhash.ts). */
  bankBlockhash?(): Uint8Array;
}

export interface TransactionExecutor {
  /** Execute `batch` in order in `slot`, handing each landed transaction to `landed` as it executes. */
  executeBatch(batch: readonly PendingSubmission[], slot: number, blockTime: number, landed: (p: PendingSubmission, tx: ExecutedTransaction) => void): void;
  /** Executed transactions whose signatures the verifier thread had checked already. */
  preverified(): number;
}

export function createTransactionExecutor(deps: TransactionExecutorDeps): TransactionExecutor {
  const { inner, FailedTransactionMetadata, drop, readAccount } = deps;
  let preverified = 0;
  /**
   * Balances as they stand between two transactions of the batch being executed, by address: a
   * transaction's post-balances are the next one's pre-balances, so a batch of transfers from one
   * payer reads each balance once instead of twice per transaction. Only valid inside one
   * synchronous batch (nothing else can touch the accounts meanwhile); cleared before each batch.
   */
  const balanceCache = new Map<string, number>();
  /** LiteSVM's sigverify switch as last set by execute() (on outside executeBatch()). */
  let sigverifyOn = true;
  const balanceOf = (address: string, key: Uint8Array): number => {
    let b = balanceCache.get(address);
    if (b === undefined) {
      b = Number(inner.getBalance(key) ?? 0n);
      balanceCache.set(address, b);
    }
    return b;
  };

  const execute = (p: PendingSubmission, slot: number, blockTime: number): ExecutedTransaction | null => {
    const d = p.parsed;
    const { header, version } = d.parts;
    // Not a recent blockhash: valid only as a durable nonce the account holds now (durable-nonce.ts).
    let nonceAccount: string | null = null;
    let nextNonce = '';
    if (!deps.isBlockhashValid(d.parts.recentBlockhash)) {
      nextNonce = deps.nextDurableNonce();
      nonceAccount = durableNonceAccountOf(d.parts, readAccount, nextNonce);
      if (nonceAccount === null) {
        drop(p, 'BlockhashNotFound');
        return null;
      }
    }
    const keys = d.parts.staticKeys;
    const n = keys.length;
    const addresses = new Array<string>(n);
    const preBalances = new Array<number>(n);
    for (let k = 0; k < n; k++) {
      addresses[k] = address58(keys[k]!);
      preBalances[k] = balanceOf(addresses[k]!, keys[k]!);
    }
    // v0 lookups: the tables as they stand before execution say which accounts the runtime loads
    // (writable, then read-only); they follow the static keys in every index the RPC shows. A
    // table that does not resolve fails the load, and such a transaction never lands.
    const loaded = d.parts.lookups.length > 0 ? resolveLookups(d.parts.lookups, readAccount) : null;
    const loadedKeys = loaded ? loaded.writable.concat(loaded.readonly) : [];
    const allKeys = loadedKeys.length > 0 ? addresses.concat(loadedKeys.map(address58)) : addresses;
    for (const key of loadedKeys) preBalances.push(Number(inner.getBalance(key) ?? 0n));
    const withTokens = touchesTokenProgram(allKeys);
    const invoked = withTokens ? new Set(d.parts.instructions.map((ix) => ix.programIdIndex)) : null;
    const preTokenBalances = invoked ? tokenBalances(allKeys, invoked, readAccount) : [];
    // A nonce instruction under a recent blockhash reads the bank's blockhash, not the message's
    // (nonce-blockhash.ts): its bytes go in with the devnet's, the signatures checked here.
    const bankWire = nonceAccount === null && deps.bankBlockhash ? withBankBlockhash(d, p.wire, deps.bankBlockhash()) : null;
    const verified = p.verified === true || bankWire !== null;
    // Signatures already checked by the verifier thread are not checked twice (see VERIFIER_SOURCE).
    // The switch is flipped only when it changes; executeBatch() turns verification back on at the end.
    if (p.verified === true) preverified++;
    if (verified ? sigverifyOn : !sigverifyOn) {
      sigverifyOn = !sigverifyOn;
      inner.setSigverify(sigverifyOn);
    }
    const wire = bankWire ?? p.wire;
    const r = version === 'legacy' ? inner.sendLegacyTransaction(wire) : inner.sendVersionedTransaction(wire);
    // The runtime refuses any lamport change on a read-only account, so only the writable ones (by
    // the message header) are read again.
    const writableSigned = header.numRequiredSignatures - header.numReadonlySignedAccounts;
    const writableUnsignedEnd = n - header.numReadonlyUnsignedAccounts;
    const postBalances = new Array<number>(n);
    for (let k = 0; k < n; k++) {
      if (k < writableSigned || (k >= header.numRequiredSignatures && k < writableUnsignedEnd)) {
        postBalances[k] = Number(inner.getBalance(keys[k]!) ?? 0n);
        balanceCache.set(addresses[k]!, postBalances[k]!);
      } else postBalances[k] = preBalances[k]!;
    }
    for (const key of loadedKeys) postBalances.push(Number(inner.getBalance(key) ?? 0n));
    // Accounts loaded through address-table lookups are not in `keys`: they may have changed unseen.
    if (d.parts.lookups.length > 0) balanceCache.clear();
    const failed = r instanceof FailedTransactionMetadata;
    const meta = failed ? (r as FailedTx).meta() : (r as unknown as ReturnType<FailedTx['meta']>);
    // Fee payer not charged on a failure: the transaction would never have been in a block.
    if (failed && preBalances[0] === postBalances[0]) {
      drop(p, String(txErrorToJson((r as FailedTx).err())));
      return null;
    }
    // Landed: the validator commits the nonce advanced to this block's value even when the transaction
    // failed (LiteSVM rolled it back, or stored its own value on success). Lamports do not change, so
    // the balances read above stand.
    if (nonceAccount !== null) deps.storeNonce(nonceAccount, nextNonce);
    const budget = computeBudgetOf(d);
    const unitPrice = budget.unitPrice;
    const tx: ExecutedTransaction = {
      signature: p.signature,
      slot,
      blockTime,
      wire: p.wire,
      accountKeys: addresses,
      err: failed ? txErrorToJson((r as FailedTx).err()) : null,
      logs: meta.logs(),
      // A failed transaction moves nothing but the fee; a successful one's fee follows the runtime's
      // formula (the payer's balance change also holds its transfers).
      fee: failed ? preBalances[0]! - postBalances[0]! : feeOf(d, budget),
      computeUnitsConsumed: Number(meta.computeUnitsConsumed()),
      preBalances,
      postBalances,
      computeUnitPrice: unitPrice === null ? 0 : Number(unitPrice),
    };
    recordTransactionDetail(tx, {
      preTokenBalances,
      postTokenBalances: invoked ? tokenBalances(allKeys, invoked, readAccount) : [],
      innerInstructions: mayInvoke(d.parts.instructions, allKeys) ? innerInstructionsJson(meta.innerInstructions()) : [],
      loadedAddresses: { writable: allKeys.slice(n, n + (loaded?.writable.length ?? 0)), readonly: allKeys.slice(n + (loaded?.writable.length ?? 0)) },
    });
    return tx;
  };

  return {
    executeBatch(batch, slot, blockTime, landed) {
      balanceCache.clear();
      try {
        for (const p of batch) {
          const tx = execute(p, slot, blockTime);
          if (tx) landed(p, tx);
        }
      } finally {
        balanceCache.clear();
        if (!sigverifyOn) {
          sigverifyOn = true;
          inner.setSigverify(true);
        }
      }
    },
    preverified: () => preverified,
  };
}
