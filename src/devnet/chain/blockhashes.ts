/**
 * The ring of recent blockhashes. LiteSVM knows only its latest blockhash (one `expireBlockhash()`
 * and the previous one fails with `BlockhashNotFound`), so the chain runs it with
 * `withBlockhashCheck(false)` and enforces the 150-block validity window with this ring instead.
 */
import type { LiteSVM } from 'litesvm';
import { encodeBase58 } from '../../solana/index.js';
import { randomBytes32 } from './mulberry32.js';

/** A blockhash is valid for this many blocks after the one that produced it (as on mainnet). */
export const BLOCKHASH_VALIDITY = 150;

export interface BlockhashRing {
  /** The newest blockhash, as text and bytes. */
  latest(): { blockhash: string; bytes: Uint8Array };
  /** Make a new blockhash for block `height` (and expire LiteSVM's own). */
  advance(height: number): void;
  /** Block height after which `blockhash` is no longer accepted at `height`, or null when unknown/expired. */
  lastValidBlockHeight(blockhash: string, height: number): number | null;
  /** Whether the 32 blockhash bytes of a message are still valid at `height` (the hot path: no base58). */
  isValidBytes(bytes: Uint8Array, height: number): boolean;
}

/** The ring, its blockhashes drawn from `rand`; it holds the genesis blockhash (height 0) at once. */
export function createBlockhashRing(svm: LiteSVM, rand: () => number): BlockhashRing {
  // blockhash → the block height that produced it. Pruned to the validity window.
  const blockhashes = new Map<string, { height: number; bytes: Uint8Array }>();
  const heightByHex = new Map<string, number>();
  const hashOrder: string[] = [];
  let latest: { blockhash: string; bytes: Uint8Array } = { blockhash: '', bytes: new Uint8Array(32) };

  const advance = (height: number) => {
    // LiteSVM's own blockhash changes too, so that recentBlockhashes/SlotHashes-reading programs see
    // progress; the devnet's hash is its own (seeded) value.
    svm.expireBlockhash();
    const bytes = randomBytes32(rand);
    const blockhash = encodeBase58(bytes);
    blockhashes.set(blockhash, { height, bytes });
    heightByHex.set(Buffer.from(bytes).toString('hex'), height);
    hashOrder.push(blockhash);
    while (hashOrder.length > BLOCKHASH_VALIDITY + 2) {
      const old = hashOrder.shift()!;
      const e = blockhashes.get(old);
      if (e) heightByHex.delete(Buffer.from(e.bytes).toString('hex'));
      blockhashes.delete(old);
    }
    latest = { blockhash, bytes };
  };
  advance(0);

  return {
    latest: () => latest,
    advance,
    lastValidBlockHeight(hash, height) {
      const e = blockhashes.get(hash);
      if (!e) return null;
      const last = e.height + BLOCKHASH_VALIDITY;
      return height <= last ? last : null;
    },
    isValidBytes(b, height) {
      const h = heightByHex.get(Buffer.from(b.buffer, b.byteOffset, 32).toString('hex'));
      return h !== undefined && height <= h + BLOCKHASH_VALIDITY;
    },
  };
}
