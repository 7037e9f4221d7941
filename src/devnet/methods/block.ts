/**
 * The block methods of the real RPC over the devnet's slots (every slot is a block, so block height
 * equals slot): `getBlock`, `getBlockTime`, `getBlocks`, `getBlocksWithLimit`,
 * `getFirstAvailableBlock`, `minimumLedgerSlot`. A block's blockhash is recorded as each slot is
 * made (the chain's ring keeps only the validity window), for the last `BLOCK_HISTORY` slots.
 * Blocks are served from `confirmed` on, as on a real cluster.
 */
import { encodeBase58 } from '../../solana/index.js';
import type { DevnetChain } from '../chain/contract.js';
import { arr, cfg, commitmentOf } from '../params/solana.js';
import { bad } from '../params/invalid.js';
import { transactionJson } from '../encoding/transaction.js';
import { accountsTransaction, jsonParsedTransaction } from '../encoding/parsed/transaction.js';
import { safeNumber, showParam, u64Param } from '../params/u64.js';
import { DevnetRpcError, type ExecutedTransaction } from '../types.js';

/** Slots whose block the devnet can still answer (as the chain keeps block times). */
const BLOCK_HISTORY = 10_000;
/** The real RPC refuses getBlocks ranges wider than this. */
const MAX_BLOCK_RANGE = 500_000;

export interface BlockHistory {
  /** The blockhash of `slot`, or null when the devnet no longer (or not yet) knows it. */
  blockhash(slot: number): string | null;
  /** The oldest slot still held. */
  first(): number;
  close(): void;
}

/** Record each slot's blockhash from now on; `close()` stops listening. */
export function createBlockHistory(chain: DevnetChain): BlockHistory {
  const hashes = new Map<number, string>();
  let first = chain.slot();
  hashes.set(first, chain.latestBlockhash().blockhash);
  const off = chain.onSlot((slot) => {
    hashes.set(slot, chain.latestBlockhash().blockhash);
    while (hashes.size > BLOCK_HISTORY) hashes.delete(first++);
  });
  return { blockhash: (s) => hashes.get(s) ?? null, first: () => first, close: off };
}

/** A slot param, exact (params/u64.ts); a slot past 2^53 is past any the devnet has made, so it
 * becomes `Infinity` for comparisons, and `slotText` keeps its digits for messages. */
const slotParam = (v: unknown, field: string): number => {
  const s = u64Param(v, field);
  return safeNumber(s) ?? Number.POSITIVE_INFINITY;
};
const slotText = (v: unknown, slot: number): string => (Number.isFinite(slot) ? String(slot) : showParam(v));

/** Blocks exist from `confirmed` on: `processed` is refused as the real RPC refuses it. */
function blockCommitment(c: Record<string, unknown>) {
  const commitment = commitmentOf(c, 'finalized');
  if (commitment === 'processed') throw bad('commitment: method does not support commitment below `confirmed`');
  return commitment;
}

/** Why a slot has no block to show: not reached at that commitment, or before the history. */
function checkAvailable(chain: DevnetChain, history: BlockHistory, slot: number, highest: number, shown: string): string {
  if (slot > highest) throw new DevnetRpcError(-32004, `Block not available for slot ${shown}`);
  const hash = history.blockhash(slot);
  if (hash === null) throw new DevnetRpcError(-32001, `Block ${slot} cleaned up, does not exist on node. First available block: ${history.first()}`);
  return hash;
}

/** The executed transactions of one slot: the ledger is in execution order, so slots ascend. */
function transactionsInSlot(ledger: readonly ExecutedTransaction[], slot: number): ExecutedTransaction[] {
  let lo = 0;
  let hi = ledger.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ledger[mid]!.slot < slot) lo = mid + 1;
    else hi = mid;
  }
  const out: ExecutedTransaction[] = [];
  for (let i = lo; i < ledger.length && ledger[i]!.slot === slot; i++) out.push(ledger[i]!);
  return out;
}

export function getBlock(chain: DevnetChain, history: BlockHistory, params: unknown) {
  const p = arr(params, 'getBlock', 1);
  const slot = slotParam(p[0], 'params[0]');
  const c = typeof p[1] === 'string' ? { encoding: p[1] } : cfg(p[1], 'params[1]');
  const highest = chain.slotAt(blockCommitment(c));
  const encoding = String(c.encoding ?? 'json');
  if (!['json', 'jsonParsed', 'base64', 'base58'].includes(encoding)) throw bad(`params[1].encoding must be json, jsonParsed, base58 or base64, got ${showParam(c.encoding)}`);
  const details = c.transactionDetails ?? 'full';
  if (details !== 'full' && details !== 'signatures' && details !== 'none' && details !== 'accounts') {
    throw bad(`params[1].transactionDetails must be full, accounts, signatures or none, got ${showParam(details)}`);
  }
  const maxVersion = c.maxSupportedTransactionVersion;
  if (maxVersion !== undefined && maxVersion !== null && maxVersion !== 0) throw bad('params[1].maxSupportedTransactionVersion must be 0');
  const blockhash = checkAvailable(chain, history, slot, highest, slotText(p[0], slot));
  const txs = transactionsInSlot(chain.ledger(), slot);
  const out: Record<string, unknown> = {
    blockHeight: slot,
    blockTime: chain.blockTime(slot),
    blockhash,
    parentSlot: Math.max(0, slot - 1),
    // The genesis block is its own parent, as on a real cluster.
    previousBlockhash: slot === 0 ? blockhash : (history.blockhash(slot - 1) ?? encodeBase58(new Uint8Array(32))),
  };
  if (details === 'full' || details === 'accounts') {
    out.transactions = txs.map((tx) => {
      const j = transactionJson(chain, tx, encoding === 'jsonParsed' ? 'json' : encoding);
      if (details === 'accounts') Object.assign(j, accountsTransaction(tx, c.rewards !== false));
      else if (encoding === 'jsonParsed') Object.assign(j, jsonParsedTransaction(tx));
      if (j.version === 0 && (maxVersion === undefined || maxVersion === null)) {
        throw new DevnetRpcError(-32015, 'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0');
      }
      const entry: Record<string, unknown> = { transaction: j.transaction, meta: j.meta };
      if (maxVersion !== undefined && maxVersion !== null) entry.version = j.version;
      return entry;
    });
  } else if (details === 'signatures') {
    out.signatures = txs.map((tx) => tx.signature);
  }
  if (c.rewards !== false) out.rewards = [];
  return out;
}

export function getBlockTime(chain: DevnetChain, params: unknown): number {
  const p = arr(params, 'getBlockTime', 1);
  const slot = slotParam(p[0], 'params[0]');
  const t = slot <= chain.slot() ? chain.blockTime(slot) : null;
  if (t === null) throw new DevnetRpcError(-32004, `Block not available for slot ${slotText(p[0], slot)}`);
  return t;
}

export function getBlocks(chain: DevnetChain, history: BlockHistory, params: unknown): number[] {
  const p = arr(params, 'getBlocks', 1);
  const start = slotParam(p[0], 'params[0] (start slot)');
  // The end slot is optional: a config object may stand in its place.
  const hasEnd = typeof p[1] === 'number' || typeof p[1] === 'bigint';
  const c = cfg(hasEnd ? p[2] : p[1], hasEnd ? 'params[2]' : 'params[1]');
  const highest = chain.slotAt(blockCommitment(c));
  const end = hasEnd ? slotParam(p[1], 'params[1] (end slot)') : highest;
  if (end - start > MAX_BLOCK_RANGE) throw bad(`Slot range too large; max ${MAX_BLOCK_RANGE}`);
  const out: number[] = [];
  for (let s = Math.max(start, history.first()); s <= Math.min(end, highest); s++) out.push(s);
  return out;
}

export function getBlocksWithLimit(chain: DevnetChain, history: BlockHistory, params: unknown): number[] {
  const p = arr(params, 'getBlocksWithLimit', 2);
  const start = slotParam(p[0], 'params[0] (start slot)');
  const limit = u64Param(p[1], 'params[1] (limit)');
  if (limit > BigInt(MAX_BLOCK_RANGE)) throw bad(`Limit too large; max ${MAX_BLOCK_RANGE}`);
  const highest = chain.slotAt(blockCommitment(cfg(p[2], 'params[2]')));
  const out: number[] = [];
  for (let s = Math.max(start, history.first()); s <= highest && out.length < limit; s++) out.push(s);
  return out;
}
