/**
 * The standard Solana JSON-RPC methods the devnet serves, enough for `@solana/web3.js`'s
 * `Connection` in everyday flows (blockhash, balances, accounts, airdrop, simulate, send, confirm,
 * fetch a transaction) plus the provider's `getPriorityFeeEstimate`, computed from the compute-unit
 * prices the chain actually executed. Answers follow the real RPC's shapes (`{ context, value }`
 * where the real one has them) and its error codes (-32602 bad params, -32002 preflight failure).
 */
import bs58 from 'bs58';
import { base58TooLong } from '../base58-bound.js';
import { CairnError } from '../errors.js';
import type { ParsedTransaction } from '../solana/wire.js';
import type { DevnetChain } from './devnet-chain.js';
import { parseSubmitted } from './parse-submitted.js';
import { feeOf } from './transaction-fee.js';
import { decodeTransactionParam } from './fast.js';
import { DevnetRpcError, type Commitment, type DevnetModule, type ExecutedTransaction, type RpcHandler } from './types.js';

/** Signatures per `getSignatureStatuses` call (the real limit). */
export const MAX_SIGNATURE_STATUSES = 256;
/** Without `searchTransactionHistory` only this many recent slots are visible (the status cache). */
export const STATUS_CACHE_SLOTS = 300;
const SLOTS_PER_EPOCH = 432_000;
/** What a real cluster reports as rentEpoch for a rent-exempt account: u64::MAX, exact (a JS number would round it past 2^64). */
const RENT_EXEMPT_EPOCH = 18446744073709551615n;

const bad = (message: string) => new DevnetRpcError(-32602, `Invalid params: ${message}`);

function arr(params: unknown, method: string, min: number): unknown[] {
  if (params === undefined || params === null) {
    if (min === 0) return [];
    throw bad(`${method} expects a params array with at least ${min} element(s)`);
  }
  if (!Array.isArray(params)) throw bad(`${method} expects params as an array`);
  if (params.length < min) throw bad(`${method} expects at least ${min} param(s), got ${params.length}`);
  return params;
}

function cfg(v: unknown, field: string): Record<string, unknown> {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw bad(`${field} must be a configuration object`);
  return v as Record<string, unknown>;
}

export function addressParam(v: unknown, field: string): string {
  if (typeof v !== 'string') throw bad(`${field} must be a base58 address string`);
  if (base58TooLong(v, 32)) throw bad(`${field} must decode to 32 bytes, got ${v.length} characters`);
  let b: Uint8Array;
  try {
    b = bs58.decode(v);
  } catch {
    throw bad(`${field} is not valid base58: ${JSON.stringify(v.slice(0, 64))}`);
  }
  if (b.length !== 32) throw bad(`${field} must decode to 32 bytes, got ${b.length}`);
  return v;
}

/** The `meta` of an executed transaction as `getTransaction` shows it (shared with the compression methods). */
export function transactionMetaJson(tx: ExecutedTransaction): Record<string, unknown> {
  return {
    err: tx.err,
    status: tx.err === null ? { Ok: null } : { Err: tx.err },
    fee: tx.fee,
    preBalances: tx.preBalances,
    postBalances: tx.postBalances,
    innerInstructions: [],
    logMessages: tx.logs,
    preTokenBalances: [],
    postTokenBalances: [],
    rewards: [],
    loadedAddresses: { writable: [], readonly: [] },
    computeUnitsConsumed: tx.computeUnitsConsumed,
  };
}

function commitmentOf(c: Record<string, unknown>, def: Commitment = 'finalized'): Commitment {
  const v = c.commitment ?? def;
  if (v === 'processed' || v === 'confirmed' || v === 'finalized') return v;
  // web3.js' deprecated aliases
  if (v === 'recent' || v === 'single' || v === 'singleGossip') return v === 'recent' ? 'processed' : 'confirmed';
  if (v === 'max' || v === 'root') return 'finalized';
  throw bad(`commitment must be processed, confirmed or finalized, got ${JSON.stringify(v)}`);
}

function txBytesParam(v: unknown, c: Record<string, unknown>): Uint8Array {
  const encoding = c.encoding ?? 'base58';
  try {
    return decodeTransactionParam(v, String(encoding));
  } catch (e) {
    if (e instanceof DevnetRpcError) throw new DevnetRpcError(-32602, e.message.replace('Invalid request', 'Invalid params'));
    throw e;
  }
}

function decodeOrThrow(wire: Uint8Array): ParsedTransaction {
  try {
    return parseSubmitted(wire);
  } catch (e) {
    throw bad(`transaction: ${e instanceof CairnError ? e.message : String(e)}`);
  }
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
        ...(version === 0 ? { addressTableLookups: [] } : {}),
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

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

const LEVELS = { Min: 0, Low: 25, Medium: 50, High: 75, VeryHigh: 95, UnsafeMax: 100 } as const;

/**
 * The standard methods as a devnet module.
 *
 * @example
 * const { methods } = createSolanaMethods({ chain });
 * await methods.getSlot!([], ctx); // 42
 */
export function createSolanaMethods({ chain }: { chain: DevnetChain }): DevnetModule {
  // Account state is LiteSVM's latest: the context reports the slot that state belongs to, whatever
  // commitment was asked for (the commitment is still validated).
  const context = (c: Record<string, unknown>) => (commitmentOf(c, 'finalized'), { slot: chain.slot(), apiVersion: '2.2.0' });
  const ctxProcessed = () => ({ slot: chain.slot(), apiVersion: '2.2.0' });

  const accountJson = (address: string, c: Record<string, unknown>) => {
    const a = chain.account(address);
    if (!a) return null;
    const encoding = c.encoding ?? 'base64';
    let data: unknown;
    if (encoding === 'base64' || encoding === 'jsonParsed' || encoding === 'base64+zstd') data = [Buffer.from(a.data).toString('base64'), 'base64'];
    else if (encoding === 'base58') data = [bs58.encode(a.data), 'base58'];
    else throw bad(`encoding must be base58, base64 or jsonParsed, got ${JSON.stringify(encoding)}`);
    return { data, executable: a.executable, lamports: Number(a.lamports), owner: a.owner, rentEpoch: RENT_EXEMPT_EPOCH, space: a.space };
  };

  const sendTransaction: RpcHandler = (params) => {
    const p = arr(params, 'sendTransaction', 1);
    const c = cfg(p[1], 'params[1]');
    const wire = txBytesParam(p[0], c);
    const d = decodeOrThrow(wire);
    const signature = bs58.encode(d.signatures[0]!);
    if (c.skipPreflight !== true) {
      if (chain.status(signature)) {
        throw new DevnetRpcError(-32002, 'Transaction simulation failed: This transaction has already been processed', 200, {
          err: 'AlreadyProcessed', logs: [], accounts: null, unitsConsumed: 0, returnData: null,
        });
      }
      const sim = chain.simulate(wire);
      if (sim.err !== null) {
        const what = sim.err === 'BlockhashNotFound' ? 'Blockhash not found' : sim.err === 'SignatureFailure' ? 'Transaction signature verification failure' : `Error processing Instruction: ${JSON.stringify(sim.err)}`;
        throw new DevnetRpcError(-32002, `Transaction simulation failed: ${what}`, 200, {
          err: sim.err, logs: sim.logs, accounts: null, unitsConsumed: sim.unitsConsumed, returnData: null,
        });
      }
    }
    return chain.submit(wire).signature;
  };

  const methods: Record<string, RpcHandler> = {
    getHealth: () => 'ok',
    getVersion: () => ({ 'solana-core': '2.2.0', 'feature-set': 3294202862 }),
    getGenesisHash: () => chain.genesisHash,
    getSlot: (params) => chain.slotAt(commitmentOf(cfg(arr(params, 'getSlot', 0)[0], 'params[0]'), 'finalized')),
    getBlockHeight: (params) => chain.slotAt(commitmentOf(cfg(arr(params, 'getBlockHeight', 0)[0], 'params[0]'), 'finalized')),
    getEpochInfo: (params) => {
      const s = chain.slotAt(commitmentOf(cfg(arr(params, 'getEpochInfo', 0)[0], 'params[0]'), 'finalized'));
      return {
        absoluteSlot: s,
        blockHeight: s,
        epoch: Math.floor(s / SLOTS_PER_EPOCH),
        slotIndex: s % SLOTS_PER_EPOCH,
        slotsInEpoch: SLOTS_PER_EPOCH,
        transactionCount: chain.ledger().length,
      };
    },
    getLatestBlockhash: (params) => {
      commitmentOf(cfg(arr(params, 'getLatestBlockhash', 0)[0], 'params[0]'));
      return { context: ctxProcessed(), value: chain.latestBlockhash() };
    },
    isBlockhashValid: (params) => {
      const p = arr(params, 'isBlockhashValid', 1);
      if (typeof p[0] !== 'string') throw bad('params[0] must be a blockhash string');
      return { context: ctxProcessed(), value: chain.isBlockhashValid(p[0]) };
    },
    getBalance: (params) => {
      const p = arr(params, 'getBalance', 1);
      const address = addressParam(p[0], 'params[0] (address)');
      const c = cfg(p[1], 'params[1]');
      return { context: context(c), value: Number(chain.balance(address)) };
    },
    getAccountInfo: (params) => {
      const p = arr(params, 'getAccountInfo', 1);
      const address = addressParam(p[0], 'params[0] (address)');
      const c = cfg(p[1], 'params[1]');
      return { context: context(c), value: accountJson(address, c) };
    },
    getMultipleAccounts: (params) => {
      const p = arr(params, 'getMultipleAccounts', 1);
      if (!Array.isArray(p[0])) throw bad('params[0] must be an array of addresses');
      if (p[0].length > 100) throw bad(`params[0] may hold at most 100 addresses, got ${p[0].length}`);
      const c = cfg(p[1], 'params[1]');
      return { context: context(c), value: p[0].map((a, i) => accountJson(addressParam(a, `params[0][${i}]`), c)) };
    },
    getMinimumBalanceForRentExemption: (params) => {
      const p = arr(params, 'getMinimumBalanceForRentExemption', 1);
      if (typeof p[0] !== 'number' || !Number.isInteger(p[0]) || p[0] < 0 || p[0] > 10 * 1024 * 1024) {
        throw bad('params[0] (data length) must be an integer in 0..10485760');
      }
      return Number(chain.minimumBalanceForRentExemption(p[0]));
    },
    getFeeForMessage: (params) => {
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
      const valid = chain.isBlockhashValid(bs58.encode(d.parts.recentBlockhash));
      return { context: ctxProcessed(), value: valid ? feeOf(d) : null };
    },
    requestAirdrop: (params) => {
      const p = arr(params, 'requestAirdrop', 2);
      const address = addressParam(p[0], 'params[0] (address)');
      if (typeof p[1] !== 'number' || !Number.isSafeInteger(p[1]) || p[1] <= 0) throw bad('params[1] (lamports) must be a positive integer');
      if (p[1] > 1_000_000 * 1e9) throw bad('params[1] (lamports): at most 1,000,000 SOL per airdrop');
      return chain.airdrop(address, BigInt(p[1]));
    },
    sendTransaction,
    simulateTransaction: (params) => {
      const p = arr(params, 'simulateTransaction', 1);
      const c = cfg(p[1], 'params[1]');
      if (c.encoding === undefined) c.encoding = 'base58';
      const wire = txBytesParam(p[0], c);
      decodeOrThrow(wire);
      if (c.sigVerify === true && c.replaceRecentBlockhash === true) {
        throw bad('sigVerify and replaceRecentBlockhash cannot both be true');
      }
      let addresses: string[] | undefined;
      if (c.accounts !== undefined) {
        const a = cfg(c.accounts, 'params[1].accounts');
        if (!Array.isArray(a.addresses)) throw bad('params[1].accounts.addresses must be an array');
        addresses = a.addresses.map((x, i) => addressParam(x, `params[1].accounts.addresses[${i}]`));
      }
      const sim = chain.simulate(wire, {
        sigVerify: c.sigVerify === true,
        replaceRecentBlockhash: c.replaceRecentBlockhash === true,
        ...(addresses ? { accounts: addresses } : {}),
      });
      const accounts = addresses
        ? (sim.accounts ?? []).map((a) =>
            a ? { data: [Buffer.from(a.data).toString('base64'), 'base64'], executable: a.executable, lamports: Number(a.lamports), owner: a.owner, rentEpoch: RENT_EXEMPT_EPOCH, space: a.space } : null,
          )
        : null;
      return {
        context: ctxProcessed(),
        value: { err: sim.err, logs: sim.logs, accounts, unitsConsumed: sim.unitsConsumed, returnData: null,
          ...(c.replaceRecentBlockhash === true ? { replacementBlockhash: chain.latestBlockhash() } : {}) },
      };
    },
    getSignatureStatuses: (params, ctx) => {
      const p = arr(params, 'getSignatureStatuses', 1);
      if (!Array.isArray(p[0])) throw bad('params[0] must be an array of signatures');
      if (p[0].length > MAX_SIGNATURE_STATUSES) {
        throw bad(`Too many inputs provided; max ${MAX_SIGNATURE_STATUSES}, got ${p[0].length}`);
      }
      const c = cfg(p[1], 'params[1]');
      const search = c.searchTransactionHistory === true;
      void ctx;
      const value = p[0].map((s, i) => {
        if (typeof s !== 'string') throw bad(`params[0][${i}] must be a signature string`);
        const st = chain.status(s);
        if (!st) return null;
        if (!search && chain.slot() - st.slot > STATUS_CACHE_SLOTS) return null;
        return { ...st, status: st.err === null ? { Ok: null } : { Err: st.err } };
      });
      return { context: ctxProcessed(), value };
    },
    getTransaction: (params) => {
      const p = arr(params, 'getTransaction', 1);
      if (typeof p[0] !== 'string') throw bad('params[0] must be a signature string');
      const c = typeof p[1] === 'string' ? { encoding: p[1] } : cfg(p[1], 'params[1]');
      const commitment = commitmentOf(c, 'finalized');
      if (commitment === 'processed') throw bad('commitment processed is not supported for getTransaction');
      const encoding = String(c.encoding ?? 'json');
      if (!['json', 'base64', 'base58', 'jsonParsed'].includes(encoding)) throw bad(`unsupported encoding ${JSON.stringify(encoding)}`);
      const tx = chain.transaction(p[0]);
      if (!tx) return null;
      const st = chain.status(p[0]);
      if (commitment === 'finalized' && st?.confirmationStatus !== 'finalized') return null;
      if (commitment === 'confirmed' && st?.confirmationStatus === 'processed') return null;
      const out = transactionJson(chain, tx, encoding === 'jsonParsed' ? 'json' : encoding);
      if (out.version === 0 && (c.maxSupportedTransactionVersion === undefined || c.maxSupportedTransactionVersion === null)) {
        throw new DevnetRpcError(-32015, 'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0');
      }
      if (out.version === 'legacy' && c.maxSupportedTransactionVersion === undefined) delete out.version;
      return out;
    },
    getSignaturesForAddress: (params) => {
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
        out.push({ signature: tx.signature, slot: tx.slot, err: tx.err, memo: null, blockTime: tx.blockTime, confirmationStatus: st.confirmationStatus });
      }
      return out;
    },
    getRecentPrioritizationFees: (params) => {
      const p = arr(params, 'getRecentPrioritizationFees', 0);
      const accounts = p[0] === undefined ? undefined : Array.isArray(p[0]) ? p[0].map((a, i) => addressParam(a, `params[0][${i}]`)) : (() => { throw bad('params[0] must be an array of addresses'); })();
      const bySlot = new Map<number, number>();
      const ledger = chain.ledger();
      const from = chain.slot() - 150;
      for (let i = ledger.length - 1; i >= 0; i--) {
        const tx = ledger[i]!;
        if (tx.slot <= from) break;
        if (accounts && !tx.accountKeys.some((k) => accounts.includes(k))) continue;
        const cur = bySlot.get(tx.slot);
        if (cur === undefined || tx.computeUnitPrice < cur) bySlot.set(tx.slot, tx.computeUnitPrice);
      }
      return [...bySlot.entries()].sort((a, b) => a[0] - b[0]).map(([slot, prioritizationFee]) => ({ slot, prioritizationFee }));
    },
    getPriorityFeeEstimate: (params) => {
      // The provider takes one object, wrapped in an array.
      const p = Array.isArray(params) ? params[0] : params;
      const c = cfg(p, 'params[0]');
      const o = cfg(c.options, 'params[0].options');
      let accounts: string[] | undefined;
      if (c.accountKeys !== undefined) {
        if (!Array.isArray(c.accountKeys)) throw bad('params[0].accountKeys must be an array of addresses');
        accounts = c.accountKeys.map((a, i) => addressParam(a, `params[0].accountKeys[${i}]`));
      }
      if (c.transaction !== undefined) {
        const enc = String(o.transactionEncoding ?? 'base58');
        const wire = txBytesParam(c.transaction, { encoding: enc });
        const d = decodeOrThrow(wire);
        accounts = [...(accounts ?? []), ...d.parts.staticKeys.map((k) => bs58.encode(k))];
      }
      const lookback = o.lookbackSlots ?? 150;
      if (typeof lookback !== 'number' || !Number.isInteger(lookback) || lookback < 1 || lookback > 150) {
        throw bad('params[0].options.lookbackSlots must be an integer in 1..150');
      }
      const level = o.priorityLevel ?? 'Medium';
      if (typeof level !== 'string' || !(level in LEVELS)) {
        throw bad(`params[0].options.priorityLevel must be one of ${Object.keys(LEVELS).join(', ')}`);
      }
      const seen = chain.recentComputeUnitPrices(lookback, accounts).sort((a, b) => a - b);
      const levels = {
        min: percentile(seen, LEVELS.Min),
        low: percentile(seen, LEVELS.Low),
        medium: percentile(seen, LEVELS.Medium),
        high: percentile(seen, LEVELS.High),
        veryHigh: percentile(seen, LEVELS.VeryHigh),
        unsafeMax: percentile(seen, LEVELS.UnsafeMax),
      };
      if (o.includeAllPriorityFeeLevels === true) return { priorityFeeLevels: levels };
      return { priorityFeeEstimate: percentile(seen, LEVELS[level as keyof typeof LEVELS]) };
    },
  };
  return { methods };
}
