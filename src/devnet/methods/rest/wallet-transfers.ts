/**
 * Wallet transfer history (`GET /v1/wallet/{wallet}/transfers`), built from what the chain really
 * executed: every successful top-level System transfer (SOL) and SPL Token `Transfer` /
 * `TransferChecked` becomes one record for the sender (`out`) and one for the receiver (`in`),
 * with the counterparty, mint, decimals and the raw amount as text. Pages are newest first; the
 * cursor is opaque (the record's sequence number) and stays valid while new transfers arrive.
 */
import { encodeBase58, isSystemProgram, transferLamportsOf } from '../../../solana/index.js';
import type { DevnetChain } from '../../chain/contract.js';
import { DevnetRpcError, type DevnetModule, type ExecutedTransaction, type RestRequest } from '../../types.js';
import { parseSubmitted } from '../../chain/parse-submitted.js';

export const NATIVE_MINT = 'So11111111111111111111111111111111111111112';
export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const WALLET_RE = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;

export interface TransferRecord {
  signature: string;
  timestamp: number;
  direction: 'in' | 'out';
  counterparty: string;
  mint: string;
  amount: number;
  amountRaw: string;
  decimals: number;
  symbol: string;
}

interface Stored extends TransferRecord {
  seq: number;
}

const badRequest = (field: string, message: string) => new DevnetRpcError(-32602, `"${field}": ${message}`, 400);

function toAmount(raw: bigint, decimals: number): number {
  const base = 10n ** BigInt(decimals);
  return Number(raw / base) + Number(raw % base) / Number(base);
}

/** Transfers (from, to, mint, raw, decimals, symbol) found in one executed transaction. */
export function transfersOf(
  chain: Pick<DevnetChain, 'account'>,
  tx: ExecutedTransaction,
): { from: string; to: string; mint: string; raw: bigint; decimals: number; symbol: string }[] {
  if (tx.err !== null) return [];
  const { parts } = parseSubmitted(tx.wire);
  const out: { from: string; to: string; mint: string; raw: bigint; decimals: number; symbol: string }[] = [];
  for (const ix of parts.instructions) {
    const program = parts.staticKeys[ix.programIdIndex];
    if (!program) continue;
    const data = ix.data;
    const key = (i: number) => tx.accountKeys[ix.accounts[i]!];
    if (isSystemProgram(program)) {
      const raw = ix.accounts.length >= 2 ? transferLamportsOf(data) : undefined;
      if (raw !== undefined) {
        const from = key(0);
        const to = key(1);
        if (from && to) out.push({ from, to, mint: NATIVE_MINT, raw, decimals: 9, symbol: 'SOL' });
      }
      continue;
    }
    if (tx.accountKeys[ix.programIdIndex] !== TOKEN_PROGRAM) continue;
    // SPL Token: 3 = Transfer [source, destination, authority]; 12 = TransferChecked [source, mint, destination, authority].
    let srcI: number, dstI: number;
    if (data[0] === 3 && data.length >= 9 && ix.accounts.length >= 3) {
      srcI = 0;
      dstI = 1;
    } else if (data[0] === 12 && data.length >= 10 && ix.accounts.length >= 4) {
      srcI = 0;
      dstI = 2;
    } else continue;
    const raw = new DataView(data.buffer, data.byteOffset + 1, 8).getBigUint64(0, true);
    const src = key(srcI);
    const dst = key(dstI);
    if (!src || !dst) continue;
    const srcAcc = chain.account(src);
    const dstAcc = chain.account(dst);
    if (!srcAcc || !dstAcc || srcAcc.data.length < 64 || dstAcc.data.length < 64) continue;
    const mint = encodeBase58(srcAcc.data.subarray(0, 32));
    const from = encodeBase58(srcAcc.data.subarray(32, 64));
    const to = encodeBase58(dstAcc.data.subarray(32, 64));
    let decimals = data[0] === 12 ? data[9]! : 0;
    if (data[0] === 3) {
      const m = chain.account(mint);
      decimals = m && m.data.length >= 45 ? m.data[44]! : 0;
    }
    out.push({ from, to, mint, raw, decimals, symbol: '' });
  }
  return out;
}

/**
 * The wallet-history module: watches the chain and serves the REST route.
 *
 * @example
 * const wallet = createWalletTransfers({ chain });
 * // GET /v1/wallet/<address>/transfers?limit=10 → { data: [...], pagination: { hasMore, nextCursor } }
 */
export function createWalletTransfers({ chain }: { chain: DevnetChain }): DevnetModule & { records(wallet: string): TransferRecord[] } {
  const byWallet = new Map<string, Stored[]>();
  let seq = 0;
  const push = (wallet: string, r: TransferRecord) => {
    let list = byWallet.get(wallet);
    if (!list) byWallet.set(wallet, (list = []));
    list.push({ ...r, seq: seq++ });
  };
  const index = (tx: ExecutedTransaction) => {
    for (const t of transfersOf(chain, tx)) {
      const common = {
        signature: tx.signature,
        timestamp: tx.blockTime,
        mint: t.mint,
        amount: toAmount(t.raw, t.decimals),
        amountRaw: t.raw.toString(),
        decimals: t.decimals,
        symbol: t.symbol,
      };
      push(t.from, { ...common, direction: 'out', counterparty: t.to });
      push(t.to, { ...common, direction: 'in', counterparty: t.from });
    }
  };
  // Indexed on read, not on write: the chain executes thousands of transfers per second on /fast and
  // most are never asked about. SOL transfers need nothing but the transaction, so they wait here in
  // execution order; an SPL transfer reads its token accounts (mint, owner) as they are right after
  // it ran, so it is indexed at once — after everything queued before it, keeping the order.
  const unindexed: ExecutedTransaction[] = [];
  const flush = () => {
    const txs = unindexed.splice(0);
    for (const tx of txs) {
      try {
        index(tx);
      } catch {
        /* as when indexing ran inside the chain's listener loop: one bad record never blocks the rest */
      }
    }
  };
  // A chain resumed from a ledger (--ledger) starts with the transactions it executed before: they
  // are indexed as new ones are, on read (an SPL transfer's token accounts read as the ledger restored them).
  for (const tx of chain.ledger()) if (tx.err === null) unindexed.push(tx);
  const unsubscribe = chain.onTransaction((tx) => {
    if (tx.err !== null) return;
    if (tx.accountKeys.includes(TOKEN_PROGRAM)) {
      flush();
      index(tx);
    } else unindexed.push(tx);
  });

  const list = (req: RestRequest) => {
    const wallet = req.params.wallet ?? '';
    if (!WALLET_RE.test(wallet)) throw badRequest('wallet', `expected a base58 address (32–44 characters), got ${JSON.stringify(wallet.slice(0, 64))}`);
    const limitText = req.query.get('limit');
    const limit = limitText === null ? 50 : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw badRequest('limit', `expected an integer in 1..100, got ${JSON.stringify(limitText)}`);
    const cursor = req.query.get('cursor');
    let before = Infinity;
    if (cursor !== null && cursor !== '') {
      const text = Buffer.from(cursor, 'base64url').toString('utf8');
      const m = /^t:(\d+)$/.exec(text);
      if (!m) throw badRequest('cursor', 'not a cursor from a previous page (pagination.nextCursor)');
      before = Number(m[1]);
    }
    flush();
    const all = byWallet.get(wallet) ?? [];
    const data: TransferRecord[] = [];
    let i = all.length - 1;
    while (i >= 0 && all[i]!.seq >= before) i--;
    let lastSeq = -1;
    for (; i >= 0 && data.length < limit; i--) {
      const { seq: s, ...rec } = all[i]!;
      data.push(rec);
      lastSeq = s;
    }
    const hasMore = i >= 0;
    return { data, pagination: { hasMore, nextCursor: hasMore ? Buffer.from(`t:${lastSeq}`).toString('base64url') : null } };
  };

  return {
    methods: {},
    routes: { 'GET /v1/wallet/:wallet/transfers': list },
    records: (wallet) => {
      flush();
      return (byWallet.get(wallet) ?? []).map(({ seq: _s, ...r }) => r).reverse();
    },
    close: () => void unsubscribe(),
  };
}
