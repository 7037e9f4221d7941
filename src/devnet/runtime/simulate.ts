/**
 * `simulateTransaction` on the chain: LiteSVM runs the transaction without committing it, against
 * the blockhash window (or the latest blockhash when asked to replace it), with or without the
 * signature check, and reports the accounts the caller asked for as they would stand after it.
 */
import type { FailedTransactionMetadata } from 'litesvm';
import { encodeBase58 } from '../../solana/index.js';
import type { AccountView, SimulationResult } from '../chain/contract.js';
import { durableNonceAccountOf, withAdvancedNonce } from './durable-nonce.js';
import type { LiteSvmInner } from './litesvm.js';
import { parseSubmitted } from '../chain/parse-submitted.js';
import { txErrorToJson } from './errors.js';
import { withBankBlockhash } from './nonce-blockhash.js';
import { afterSimulation, beforeSimulation } from './simulation-meta.js';

export interface SimulateOptions {
  sigVerify?: boolean;
  replaceRecentBlockhash?: boolean;
  accounts?: string[];
}

export interface SimulationDeps {
  inner: LiteSvmInner;
  /** litesvm's failure class (the package is loaded at run time). */
  FailedTransactionMetadata: typeof FailedTransactionMetadata;
  latestBlockhashBytes(): Uint8Array;
  isBlockhashValid(blockhash: string): boolean;
  /** An account as it stands now, for requested accounts the simulation did not touch. */
  account(address: string): AccountView | null;
  /** The value a durable nonce advanced in this block takes (what the chain stores when it lands). */
  nextDurableNonce(): string;
}

export function simulateTransaction(deps: SimulationDeps, wire: Uint8Array, opts: SimulateOptions = {}): SimulationResult {
  const { inner } = deps;
  const d = parseSubmitted(wire);
  let w = wire;
  // A durable-nonce transaction is judged as the chain will judge it (the nonce must hold the
  // signed value and not already this block's), and its nonce account is shown advanced to the value
  // the chain stores, not LiteSVM's own (derived from the old nonce).
  let nonce: { account: string; next: string } | null = null;
  if (opts.replaceRecentBlockhash) {
    w = Uint8Array.from(wire);
    const off = d.parts.recentBlockhash.byteOffset - wire.byteOffset;
    w.set(deps.latestBlockhashBytes(), off);
  } else if (!deps.isBlockhashValid(encodeBase58(d.parts.recentBlockhash))) {
    const next = deps.nextDurableNonce();
    const account = durableNonceAccountOf(d.parts, deps.account, next);
    if (account === null) return { err: 'BlockhashNotFound', logs: [], unitsConsumed: 0 };
    nonce = { account, next };
  }
  const pre = beforeSimulation(d, deps.account);
  let sigVerify = opts.sigVerify ?? true;
  // a nonce instruction reads the bank's blockhash, as it will when the transaction executes
  if (nonce === null && !opts.replaceRecentBlockhash) {
    const bankWire = withBankBlockhash(d, wire, deps.latestBlockhashBytes(), sigVerify);
    if (bankWire) {
      w = bankWire;
      sigVerify = false;
    }
  }
  if (!sigVerify) inner.setSigverify(false);
  let r: unknown;
  try {
    r = d.parts.version === 'legacy' ? inner.simulateLegacyTransaction(w) : inner.simulateVersionedTransaction(w);
  } finally {
    if (!sigVerify) inner.setSigverify(true);
  }
  if (r instanceof deps.FailedTransactionMetadata) {
    const m = r.meta();
    return { err: txErrorToJson(r.err()), logs: m.logs(), unitsConsumed: Number(m.computeUnitsConsumed()), meta: afterSimulation(d, pre, m as never, null) };
  }
  const info = r as {
    meta(): { logs(): string[]; computeUnitsConsumed(): bigint };
    postAccounts(): { address: Uint8Array; account(): { lamports(): bigint; data(): Uint8Array; owner(): Uint8Array; executable(): boolean } }[];
  };
  const m = info.meta();
  const post = new Map<string, AccountView>();
  for (const pa of info.postAccounts()) {
    const acc = pa.account();
    const data = acc.data();
    post.set(encodeBase58(pa.address), { lamports: acc.lamports(), owner: encodeBase58(acc.owner()), data, executable: acc.executable(), space: data.length });
  }
  const readPost = (a: string) => post.get(a) ?? deps.account(a);
  const out: SimulationResult = {
    err: null,
    logs: m.logs(),
    unitsConsumed: Number(m.computeUnitsConsumed()),
    meta: afterSimulation(d, pre, m as never, readPost),
  };
  if (opts.accounts) {
    out.accounts = opts.accounts.map((a) => {
      const view = post.get(a) ?? deps.account(a);
      return nonce !== null && a === nonce.account && view !== null ? withAdvancedNonce(view, nonce.next) : view;
    });
  }
  return out;
}
