/**
 * The standard methods around transactions: `sendTransaction` (with the preflight simulation the
 * real RPC runs unless `skipPreflight`), `simulateTransaction`, `getFeeForMessage`,
 * `getSignatureStatuses` (the status cache's 300-slot horizon), `getTransaction` (commitment and
 * version rules) and `getSignaturesForAddress`.
 */
import { encodeBase58 } from '../../solana/index.js';
import type { DevnetChain } from '../chain/contract.js';
import { addressParam, arr, cfg, commitmentOf, decodeOrThrow, txBytesParam } from '../params/solana.js';
import { bad, badAgave } from '../params/invalid.js';
import { transactionErrorText } from '../runtime/error-text.js';
import { verifySignature } from '../params/signature.js';
import { transactionJson } from '../encoding/transaction.js';
import { simulationJson } from '../encoding/simulation.js';
import { accountEncodingOf, accountJson, type AccountEncodingConfig } from '../encoding/account.js';
import { jsonParsedTransaction } from '../encoding/parsed/transaction.js';
import { feeOf } from '../runtime/fee.js';
import { DevnetRpcError, type ExecutedTransaction } from '../types.js';
import { parseSubmitted } from '../chain/parse-submitted.js';

/** Signatures per `getSignatureStatuses` call (the real limit). */
const MAX_SIGNATURE_STATUSES = 256;
/** Without `searchTransactionHistory` only this many recent slots are visible (the status cache). */
const STATUS_CACHE_SLOTS = 300;

const ctxProcessed = (chain: DevnetChain) => ({ slot: chain.slot(), apiVersion: '2.2.0' });

/** `dropSend`: the fault injector's drop (accepted and answered, never executed), asked once the send is accepted. */
export function sendTransaction(chain: DevnetChain, params: unknown, dropSend?: () => boolean): string {
  const p = arr(params, 'sendTransaction', 1);
  const c = cfg(p[1], 'params[1]');
  const wire = txBytesParam(p[0], c);
  const d = decodeOrThrow(wire);
  const signature = encodeBase58(d.signatures[0]!);
  if (c.skipPreflight !== true) {
    if (chain.status(signature)) {
      throw new DevnetRpcError(-32002, 'Transaction simulation failed: This transaction has already been processed', 200, simulationJson({ err: 'AlreadyProcessed', logs: [], unitsConsumed: 0 }));
    }
    const sim = chain.simulate(wire);
    if (sim.err === 'SignatureFailure') {
      // Agave verifies signatures before it simulates: its own -32003, with no simulation result.
      throw new DevnetRpcError(-32003, 'Transaction signature verification failure');
    }
    if (sim.err !== null) {
      throw new DevnetRpcError(-32002, `Transaction simulation failed: ${transactionErrorText(sim.err)}`, 200, simulationJson(sim));
    }
  }
  if (dropSend?.()) return signature;
  return chain.submit(wire).signature;
}

export function getFeeForMessage(chain: DevnetChain, params: unknown) {
  const p = arr(params, 'getFeeForMessage', 1);
  if (typeof p[0] !== 'string') throw bad('params[0] must be a base64 message');
  const msg = new Uint8Array(Buffer.from(p[0], 'base64'));
  if (msg.length < 4) throw bad('params[0] is not a message');
  // Wrap the message as a transaction with the right number of empty signatures to reuse the decoder.
  const nsig = msg[0]! & 0x80 ? msg[1]! : msg[0]!;
  const wire = new Uint8Array(1 + 64 * nsig + msg.length);
  wire[0] = nsig;
  wire.set(msg, 1 + 64 * nsig);
  const d = decodeOrThrow(wire);
  const valid = chain.isBlockhashValid(encodeBase58(d.parts.recentBlockhash));
  return { context: ctxProcessed(chain), value: valid ? feeOf(d) : null };
}

export function simulateTransaction(chain: DevnetChain, params: unknown) {
  const p = arr(params, 'simulateTransaction', 1);
  const c = cfg(p[1], 'params[1]');
  if (c.encoding === undefined) c.encoding = 'base58';
  const wire = txBytesParam(p[0], c);
  decodeOrThrow(wire);
  if (c.sigVerify === true && c.replaceRecentBlockhash === true) {
    throw bad('sigVerify and replaceRecentBlockhash cannot both be true');
  }
  let addresses: string[] | undefined;
  let accountsEncoding: AccountEncodingConfig = { encoding: 'base64', dataSlice: null };
  if (c.accounts !== undefined && c.accounts !== null) {
    const a = cfg(c.accounts, 'params[1].accounts');
    if (!Array.isArray(a.addresses)) throw bad('params[1].accounts.addresses must be an array');
    addresses = a.addresses.map((x, i) => addressParam(x, `params[1].accounts.addresses[${i}]`));
    accountsEncoding = accountEncodingOf(a, 'params[1].accounts', 'base64');
    // Agave: "base58 encoding not supported" for simulated accounts
    if (accountsEncoding.encoding === 'base58' || accountsEncoding.encoding === 'binary') throw badAgave('base58 encoding not supported');
  }
  const sim = chain.simulate(wire, {
    sigVerify: c.sigVerify === true,
    replaceRecentBlockhash: c.replaceRecentBlockhash === true,
    ...(addresses ? { accounts: addresses } : {}),
  });
  const mintOf = (m: string) => chain.account(m);
  const accounts = addresses ? (sim.accounts ?? []).map((a, i) => (a ? accountJson(a, accountsEncoding, mintOf, addresses[i]) : null)) : null;
  return {
    context: ctxProcessed(chain),
    value: simulationJson(sim, {
      accounts,
      innerInstructions: c.innerInstructions === true,
      replacementBlockhash: c.replaceRecentBlockhash === true ? chain.latestBlockhash() : null,
    }),
  };
}

export function getSignatureStatuses(chain: DevnetChain, params: unknown) {
  const p = arr(params, 'getSignatureStatuses', 1);
  if (!Array.isArray(p[0])) throw bad('params[0] must be an array of signatures');
  if (p[0].length > MAX_SIGNATURE_STATUSES) {
    throw bad(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}, got ${p[0].length}`);
  }
  const c = cfg(p[1], 'params[1]');
  const search = c.searchTransactionHistory === true;
  const value = p[0].map((s) => {
    const st = chain.status(verifySignature(s));
    if (!st) return null;
    if (!search && chain.slot() - st.slot > STATUS_CACHE_SLOTS) return null;
    return { ...st, status: st.err === null ? { Ok: null } : { Err: st.err } };
  });
  return { context: ctxProcessed(chain), value };
}

export function getTransaction(chain: DevnetChain, params: unknown) {
  const p = arr(params, 'getTransaction', 1);
  if (typeof p[0] !== 'string') throw bad('params[0] must be a signature string');
  const c = typeof p[1] === 'string' ? { encoding: p[1] } : cfg(p[1], 'params[1]');
  const commitment = commitmentOf(c, 'finalized');
  if (commitment === 'processed') throw bad('commitment processed is not supported for getTransaction');
  const encoding = String(c.encoding ?? 'json');
  if (!['json', 'jsonParsed', 'base64', 'base58'].includes(encoding)) throw bad(`unsupported encoding ${JSON.stringify(encoding)}`);
  const tx = chain.transaction(p[0]);
  if (!tx) return null;
  const st = chain.status(p[0]);
  if (commitment === 'finalized' && st?.confirmationStatus !== 'finalized') return null;
  if (commitment === 'confirmed' && st?.confirmationStatus === 'processed') return null;
  const out = transactionJson(chain, tx, encoding === 'jsonParsed' ? 'json' : encoding);
  if (encoding === 'jsonParsed') Object.assign(out, jsonParsedTransaction(tx));
  if (out.version === 0 && (c.maxSupportedTransactionVersion === undefined || c.maxSupportedTransactionVersion === null)) {
    throw new DevnetRpcError(-32015, 'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0');
  }
  if (out.version === 'legacy' && c.maxSupportedTransactionVersion === undefined) delete out.version;
  return out;
}

const MEMO_PROGRAMS = new Set(['MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr', 'Memo1UhkJRfHyvLMcVWo3WmHxxoNGt1AEeqpEr8LbQV']);

/** The memos of a transaction as the real RPC lists them: "[byte length] text", joined by "; ". */
export function memoOf(tx: ExecutedTransaction): string | null {
  const { instructions } = parseSubmitted(tx.wire).parts;
  const memos = instructions
    .filter((ix) => MEMO_PROGRAMS.has(tx.accountKeys[ix.programIdIndex] ?? ''))
    .map((ix) => `[${ix.data.length}] ${Buffer.from(ix.data).toString('utf8')}`);
  return memos.length ? memos.join('; ') : null;
}

export function getSignaturesForAddress(chain: DevnetChain, params: unknown): unknown[] {
  const p = arr(params, 'getSignaturesForAddress', 1);
  const address = addressParam(p[0], 'params[0] (address)');
  const c = cfg(p[1], 'params[1]');
  const limit = c.limit ?? 1000;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > 1000) throw bad('params[1].limit must be an integer in 1..1000');
  const ledger = chain.ledger();
  let started = c.before === undefined;
  const out: unknown[] = [];
  for (let i = ledger.length - 1; i >= 0 && out.length < limit; i--) {
    const tx = ledger[i]!;
    if (!started) {
      if (tx.signature === c.before) started = true;
      continue;
    }
    if (tx.signature === c.until) break;
    if (!tx.accountKeys.includes(address)) continue;
    const st = chain.status(tx.signature)!;
    out.push({ signature: tx.signature, slot: tx.slot, err: tx.err, memo: memoOf(tx), blockTime: tx.blockTime, confirmationStatus: st.confirmationStatus });
  }
  return out;
}
