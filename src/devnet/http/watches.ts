/**
 * The websocket subscriptions that watch the chain's state: `accountSubscribe`, `logsSubscribe`
 * (`all`, `allWithVotes`, `{ mentions: [address] }`), `programSubscribe` (with filters) and
 * `rootSubscribe`, with the real RPC's notifications. As on a real node, an account or program
 * notification follows every transaction that wrote the account (its writable keys, address-table
 * ones included), and each is sent once the transaction's slot reaches the subscription's
 * commitment. The account shown is the devnet's latest state (it keeps no per-commitment snapshots).
 */
import type { AccountView, DevnetChain } from '../chain/contract.js';
import { accountEncodingOf, accountJson, MAX_BASE58_BYTES, type AccountEncodingConfig } from '../encoding/account.js';
import { parseSubmitted } from '../chain/parse-submitted.js';
import { filtersOf, type AccountFilter } from '../methods/program-accounts.js';
import { addressParam, cfg, commitmentOf } from '../params/solana.js';
import { bad } from '../params/invalid.js';
import { encodeBase58 } from '../../solana/index.js';
import type { Commitment, ExecutedTransaction } from '../types.js';

/** Lookup-table accounts hold their addresses after a 56-byte header. */
const LOOKUP_TABLE_META = 56;
const SYSTEM_PROGRAM = '11111111111111111111111111111111';

type Send = (ws: unknown, message: unknown) => void;

interface Watch {
  id: number;
  ws: unknown;
  kind: 'account' | 'logs' | 'program' | 'root';
  commitment: Commitment;
  /** account: the address; program: the program id; logs: the mentioned address or null (all). */
  target: string | null;
  enc: AccountEncodingConfig;
  filters: AccountFilter[];
}

export const WATCH_METHODS: Readonly<Record<string, Watch['kind']>> = {
  accountSubscribe: 'account',
  logsSubscribe: 'logs',
  programSubscribe: 'program',
  rootSubscribe: 'root',
};
export const UNWATCH_METHODS: Readonly<Record<string, Watch['kind']>> = {
  accountUnsubscribe: 'account',
  logsUnsubscribe: 'logs',
  programUnsubscribe: 'program',
  rootUnsubscribe: 'root',
};
const NOTIFICATION: Record<Watch['kind'], string> = {
  account: 'accountNotification',
  logs: 'logsNotification',
  program: 'programNotification',
  root: 'rootNotification',
};

export interface ChainWatches {
  /** Check the params and open a watch; throws -32602 naming the field. */
  subscribe(kind: Watch['kind'], params: unknown, ws: unknown, id: number): void;
  unsubscribe(kind: Watch['kind'], id: number): boolean;
  dropSocket(ws: unknown): void;
  size(): number;
  close(): void;
}

/** The keys a transaction wrote: the fee payer alone when it failed, else every writable key. */
function writtenKeys(chain: DevnetChain, tx: ExecutedTransaction): string[] {
  if (tx.err !== null) return tx.accountKeys.slice(0, 1);
  const { header, staticKeys, lookups } = parseSubmitted(tx.wire).parts;
  const n = staticKeys.length;
  const out = tx.accountKeys.filter(
    (_k, i) =>
      i < header.numRequiredSignatures - header.numReadonlySignedAccounts || (i >= header.numRequiredSignatures && i < n - header.numReadonlyUnsignedAccounts),
  );
  for (const l of lookups) {
    const table = chain.account(encodeBase58(l.key));
    if (!table) continue;
    for (const i of Array.from(l.writableIndexes)) {
      const at = LOOKUP_TABLE_META + 32 * i;
      if (at + 32 <= table.data.length) out.push(encodeBase58(table.data.subarray(at, at + 32)));
    }
  }
  return out;
}

export function createChainWatches(chain: DevnetChain, send: Send): ChainWatches {
  const watches = new Map<number, Watch>();
  const lag: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: chain.finalizeSlots };
  // Executed transactions by slot, kept until the slowest commitment has seen them.
  const bySlot = new Map<number, ExecutedTransaction[]>();
  const mintOf = (m: string) => chain.account(m);
  const closedAccount = (): AccountView => ({ lamports: 0n, owner: SYSTEM_PROGRAM, data: new Uint8Array(0), executable: false, space: 0 });

  // As the real node does, data too long for base58 is named in place of the data, never thrown.
  const shown = (a: AccountView, enc: AccountEncodingConfig) => {
    if (enc.encoding === 'base58' && (enc.dataSlice ? Math.min(enc.dataSlice.length, a.data.length) : a.data.length) > MAX_BASE58_BYTES) {
      return { ...accountJson({ ...a, data: new Uint8Array(0) }, enc, mintOf), data: ['error: data too large for bs58 encoding', 'base58'] };
    }
    return accountJson(a, enc, mintOf);
  };
  const notify = (w: Watch, result: unknown) => send(w.ws, { jsonrpc: '2.0', method: NOTIFICATION[w.kind], params: { result, subscription: w.id } });

  const deliver = (slot: number, commitment: Commitment, txs: ExecutedTransaction[]) => {
    const ws = [...watches.values()].filter((w) => w.commitment === commitment && w.kind !== 'root');
    if (ws.length === 0 || txs.length === 0) return;
    const context = { slot };
    const needWrites = ws.some((w) => w.kind === 'account' || w.kind === 'program');
    for (const tx of txs) {
      const written = needWrites ? new Set(writtenKeys(chain, tx)) : null;
      for (const w of ws) {
        if (w.kind === 'logs') {
          if (w.target === null || tx.accountKeys.includes(w.target)) notify(w, { context, value: { signature: tx.signature, err: tx.err, logs: tx.logs } });
        } else if (w.kind === 'account') {
          if (written!.has(w.target!)) notify(w, { context, value: shown(chain.account(w.target!) ?? closedAccount(), w.enc) });
        } else {
          for (const key of written!) {
            const a = chain.account(key);
            if (a && a.owner === w.target && w.filters.every((f) => f(a))) notify(w, { context, value: { pubkey: key, account: shown(a, w.enc) } });
          }
        }
      }
    }
  };

  const offTx = chain.onTransaction((tx) => {
    if (watches.size === 0) return;
    let list = bySlot.get(tx.slot);
    if (!list) bySlot.set(tx.slot, (list = []));
    list.push(tx);
  });
  const offSlot = chain.onSlot((slot) => {
    for (const c of ['processed', 'confirmed', 'finalized'] as const) {
      const s = slot - lag[c];
      const txs = bySlot.get(s);
      if (txs) deliver(s, c, txs);
    }
    bySlot.delete(slot - chain.finalizeSlots);
    for (const [s] of bySlot) if (s < slot - chain.finalizeSlots) bySlot.delete(s);
    const root = Math.max(0, slot - chain.finalizeSlots);
    for (const w of watches.values()) if (w.kind === 'root') notify(w, root);
  });

  return {
    subscribe(kind, params, ws, id) {
      const p = Array.isArray(params) ? params : [];
      let target: string | null = null;
      let c: Record<string, unknown>;
      let enc: AccountEncodingConfig = { encoding: 'base64', dataSlice: null };
      let filters: AccountFilter[] = [];
      if (kind === 'account' || kind === 'program') {
        target = addressParam(p[0], kind === 'account' ? 'params[0] (address)' : 'params[0] (program id)');
        c = cfg(p[1], 'params[1]');
        // web3.js asks for base64 explicitly; the real default is base58, which caps data at 128 bytes
        enc = accountEncodingOf(c, 'params[1]', 'base58');
        if (kind === 'program') filters = filtersOf(c.filters, 'params[1].filters');
      } else if (kind === 'logs') {
        const f = p[0];
        if (f === 'all' || f === 'allWithVotes') target = null;
        else {
          const o = cfg(f, 'params[0]');
          if (!Array.isArray(o.mentions)) throw bad('params[0] must be "all", "allWithVotes" or { mentions: [address] }');
          if (o.mentions.length !== 1) throw bad(`params[0].mentions: only 1 address supported, got ${o.mentions.length}`);
          target = addressParam(o.mentions[0], 'params[0].mentions[0]');
        }
        c = cfg(p[1], 'params[1]');
      } else {
        c = {};
      }
      watches.set(id, { id, ws, kind, commitment: commitmentOf(c, 'finalized'), target, enc, filters });
    },
    unsubscribe(kind, id) {
      const w = watches.get(id);
      if (!w || w.kind !== kind) return false;
      return watches.delete(id);
    },
    dropSocket(ws) {
      for (const [id, w] of watches) if (w.ws === ws) watches.delete(id);
    },
    size: () => watches.size,
    close() {
      offTx();
      offSlot();
      watches.clear();
      bySlot.clear();
    },
  };
}
