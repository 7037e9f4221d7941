/**
 * The compression indexer's signature methods, as Photon answers them: `getCompressionSignaturesForAccount`
 * ({hash}, every transaction that opened or closed that account, unpaged, not-found when none),
 * `…ForAddress` ({address}), `…ForOwner` ({owner}: accounts whose owner it is — a token account's
 * owner is the compressed-token program), `…ForTokenOwner` ({owner}: the token data's owner),
 * `getLatestCompressionSignatures` (every compression transaction) and `getLatestNonVotingSignatures`
 * (every transaction of the chain's ledger but votes, each with `error`: null, or the runtime error's
 * text as Photon stores it).
 *
 * Lists are newest first in Photon's order — slot descending, then signature bytes descending — and
 * take `cursor`/`limit` (1..1000). The cursor is Photon's: base58 of the last item's slot (u64 LE)
 * followed by its 64 signature bytes, so a page after it is "slot lower, or same slot and signature
 * lower", whether or not that transaction is known. A bare signature of a known transaction (the
 * devnet's cursor before) is taken too. `getLatestNonVotingSignatures` answers `{items}` without a
 * cursor, as Photon does; a caller builds the next one from the last item.
 */
import { encodeBase58, base58Bytes } from '../../solana/index.js';
import { base58TooLong } from '../../base58-bound.js';
import { listParams, notFound, required } from './params.js';
import type { AccountRecord, CompressionStore, CompressionTxRecord } from './store.js';
import { b58, compareBytes, describe, invalid, paramsObject } from '../params/indexer.js';
import type { Chain, ExecutedTransaction, RpcHandler } from '../types.js';
import { transactionErrorText as agaveErrorText } from '../runtime/error-text.js';

const VOTE_PROGRAM = 'Vote111111111111111111111111111111111111111';
const CURSOR_BYTES = 8 + 64;

interface Signed {
  signature: string;
  slot: number;
  blockTime: number;
}

// Signature bytes decoded once per record: every page sorts by them.
const sigBytes = new WeakMap<object, Uint8Array>();
function bytesOf(t: Signed): Uint8Array {
  let b = sigBytes.get(t);
  if (!b) sigBytes.set(t, (b = base58Bytes(t.signature)));
  return b;
}

/** Photon's order: slot descending, then signature bytes descending. */
function newestFirst(a: Signed, b: Signed): number {
  return b.slot - a.slot || compareBytes(bytesOf(b), bytesOf(a));
}

/** Photon's cursor after `t`: base58(slot u64 LE ‖ signature). */
export function signatureCursor(t: { slot: number; signature: string }): string {
  const out = new Uint8Array(CURSOR_BYTES);
  new DataView(out.buffer).setBigUint64(0, BigInt(t.slot), true);
  out.set(base58Bytes(t.signature), 8);
  return encodeBase58(out);
}

/** The (slot, signature bytes) a cursor names; a bare signature must be a transaction the chain knows. */
function cursorPoint(chain: Chain, cursor: string): { slot: number; sig: Uint8Array } {
  if (cursor.length === 0 || base58TooLong(cursor, CURSOR_BYTES)) throw invalid('cursor', `expected ${CURSOR_BYTES} bytes of base58 (slot u64 LE, then the signature), got ${describe(cursor)}`);
  let bytes: Uint8Array;
  try {
    bytes = base58Bytes(cursor);
  } catch {
    throw invalid('cursor', `not valid base58: ${describe(cursor)}`);
  }
  if (bytes.length === 64) {
    const tx = chain.transaction(cursor);
    if (!tx) throw invalid('cursor', 'unknown cursor (pass the cursor of the previous page)');
    return { slot: tx.slot, sig: bytes };
  }
  if (bytes.length !== CURSOR_BYTES) throw invalid('cursor', `expected ${CURSOR_BYTES} bytes of base58 (slot u64 LE, then the signature), got ${bytes.length}`);
  const slot = new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true);
  // Slots past 2^53 hold nothing on the devnet: every item is "before" them.
  return { slot: slot > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(slot), sig: bytes.subarray(8) };
}

/** One newest-first page of `list` under `p`'s cursor and limit; `cursor` null when nothing follows. */
function page<T extends Signed>(chain: Chain, list: readonly T[], p: Record<string, unknown>): { items: T[]; cursor: string | null } {
  const { limit, cursor } = listParams(p);
  const at = cursor === undefined ? undefined : cursorPoint(chain, cursor);
  const after = (t: T) => !at || t.slot < at.slot || (t.slot === at.slot && compareBytes(bytesOf(t), at.sig) < 0);
  const out: T[] = [];
  if (slotsAscend(list)) {
    // The ledger (and, nearly always, the store) is in execution order: walk back from the cursor's
    // slot one slot at a time, sorting only that slot's few, until the page and one more are found.
    let i = at ? firstAbove(list, at.slot) : list.length;
    while (i > 0 && out.length <= limit) {
      let j = i - 1;
      while (j > 0 && list[j - 1]!.slot === list[i - 1]!.slot) j--;
      for (const t of list.slice(j, i).sort(newestFirst)) if (after(t)) out.push(t);
      i = j;
    }
  } else {
    for (const t of [...list].sort(newestFirst)) if (after(t)) out.push(t);
  }
  const items = out.slice(0, limit);
  return { items, cursor: out.length > limit ? signatureCursor(items[items.length - 1]!) : null };
}

function slotsAscend(list: readonly Signed[]): boolean {
  for (let i = 1; i < list.length; i++) if (list[i]!.slot < list[i - 1]!.slot) return false;
  return true;
}

/** Index of the first item of a slot-ascending list whose slot is above `slot`. */
function firstAbove(list: readonly Signed[], slot: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.slot <= slot) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const signatureJson = (t: Signed) => ({ blockTime: t.blockTime, signature: t.signature, slot: t.slot });

/** The compression transactions in which some account passing `touches` was opened or closed. */
function touching(store: CompressionStore, touches: (a: AccountRecord) => boolean): CompressionTxRecord[] {
  return store.transactions().filter((t) => t.opened.some(touches) || t.closed.some(touches));
}

const sameBytes = (a: Uint8Array | null, b: Uint8Array) => a !== null && compareBytes(a, b) === 0;

/**
 * A transaction's `err` (the RPC's JSON) as the text Photon gives in `error`: the runtime's Display
 * message where the devnet knows it, the variant name (or the JSON) otherwise; null on success. The
 * text is the runtime's, so it comes from the one table the devnet's JSON-RPC errors use.
 */
export function transactionErrorText(err: unknown): string | null {
  return err === null || err === undefined ? null : agaveErrorText(err);
}

const isVote = (t: ExecutedTransaction) => t.accountKeys.includes(VOTE_PROGRAM);

/** The six signature methods over `store` and `chain`'s ledger, answering at `chain`'s slot. */
export function compressionSignatureMethods(chain: Chain, store: CompressionStore): Record<string, RpcHandler> {
  const ctx = () => ({ slot: chain.slot() });
  const paged = (list: readonly CompressionTxRecord[], p: Record<string, unknown>) => {
    const r = page(chain, list, p);
    return { context: ctx(), value: { items: r.items.map(signatureJson), cursor: r.cursor } };
  };
  return {
    getCompressionSignaturesForAccount(raw) {
      const p = paramsObject(raw, 'getCompressionSignaturesForAccount');
      const hash = encodeBase58(b58(required(p, 'hash'), 'hash'));
      const list = touching(store, (a) => a.hashText === hash).sort(newestFirst);
      // Photon: an account is opened once and closed at most once; none at all is "not found".
      if (list.length === 0) throw notFound(`no compression transaction touched the account with hash ${hash}`);
      return { context: ctx(), value: { items: list.map(signatureJson) } };
    },
    getCompressionSignaturesForAddress(raw) {
      const p = paramsObject(raw, 'getCompressionSignaturesForAddress');
      const address = b58(required(p, 'address'), 'address');
      return paged(touching(store, (a) => sameBytes(a.address, address)), p);
    },
    getCompressionSignaturesForOwner(raw) {
      const p = paramsObject(raw, 'getCompressionSignaturesForOwner');
      const owner = b58(required(p, 'owner'), 'owner');
      return paged(touching(store, (a) => sameBytes(a.owner, owner)), p);
    },
    getCompressionSignaturesForTokenOwner(raw) {
      const p = paramsObject(raw, 'getCompressionSignaturesForTokenOwner');
      const owner = encodeBase58(b58(required(p, 'owner'), 'owner'));
      return paged(store.transactions().filter((t) => t.tokenOwners.has(owner)), p);
    },
    getLatestCompressionSignatures: (raw) => paged(store.transactions(), paramsObject(raw, 'getLatestCompressionSignatures')),
    getLatestNonVotingSignatures(raw) {
      const p = paramsObject(raw, 'getLatestNonVotingSignatures');
      const r = page(chain, chain.ledger().filter((t) => !isVote(t)), p);
      return {
        context: ctx(),
        value: { items: r.items.map((t) => ({ signature: t.signature, slot: t.slot, blockTime: t.blockTime, error: transactionErrorText(t.err) })) },
      };
    },
  };
}
