/**
 * The compression indexer's JSON shapes (see test/vectors/photon/*.json): compressed accounts, token
 * account items, `{account, optionalTokenData}` pairs of transaction info, and the encoded confirmed
 * transaction. u64 fields are JSON numbers; a value above 2^53 is handed to the server as a bigint so
 * that it can be written as an exact JSON number rather than rounded.
 */
import { encodeBase58 } from '../../solana/index.js';
import type { ExecutedTransaction } from '../types.js';
import { TREE_INFOS, type AccountRecord, type TokenDataRecord, type TreeInfo } from './store.js';
import { transactionMetaJson } from '../encoding/transaction.js';

/** Exact JSON integer: a number when safe, else a bigint for the server to print verbatim. */
export function u64Json(v: bigint): number | bigint {
  return v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v;
}

/** The discriminator's 8 bytes read as a little-endian u64 (how the indexer prints it). */
function discriminatorJson(d: Uint8Array): number | bigint {
  return u64Json(new DataView(d.buffer, d.byteOffset, 8).getBigUint64(0, true));
}

export function accountJson(a: AccountRecord): Record<string, unknown> {
  return {
    hash: a.hashText,
    address: a.address ? encodeBase58(a.address) : null,
    data: a.data
      ? {
          discriminator: discriminatorJson(a.data.discriminator),
          data: Buffer.from(a.data.data).toString('base64'),
          dataHash: encodeBase58(a.data.dataHash),
        }
      : null,
    owner: encodeBase58(a.owner),
    lamports: u64Json(a.lamports),
    tree: a.tree,
    leafIndex: a.leafIndex,
    seq: a.seq,
    slotCreated: a.slotCreated,
  };
}

/** A tree as the v2 shapes show it (`merkleContext`, `treeContext`): the devnet's trees have no successor yet. */
export function treeContextJson(info: TreeInfo): Record<string, unknown> {
  return { treeType: info.treeType, tree: info.tree, queue: info.queue, cpiContext: info.cpiContext, nextTreeContext: null };
}

/**
 * The indexer's v2 account: v1's fields less the top-level `tree`, plus `merkleContext` and
 * `proveByIndex` (always false: the devnet models no output queue, see store.ts).
 */
export function accountV2Json(a: AccountRecord): Record<string, unknown> {
  const { tree, ...rest } = accountJson(a);
  return { ...rest, merkleContext: treeContextJson(TREE_INFOS[tree as string]), proveByIndex: false };
}

function tokenDataJson(t: TokenDataRecord): Record<string, unknown> {
  return {
    mint: encodeBase58(t.mint),
    owner: encodeBase58(t.owner),
    amount: u64Json(t.amount),
    delegate: t.delegate ? encodeBase58(t.delegate) : null,
    state: t.frozen ? 'frozen' : 'initialized',
    tlv: null,
  };
}

export function tokenAccountJson(a: AccountRecord): Record<string, unknown> {
  return { account: accountJson(a), tokenData: tokenDataJson(a.token!) };
}

export function openedClosedJson(a: AccountRecord): Record<string, unknown> {
  return { account: accountJson(a), optionalTokenData: a.token ? tokenDataJson(a.token) : null };
}

export function tokenAccountV2Json(a: AccountRecord): Record<string, unknown> {
  return { account: accountV2Json(a), tokenData: tokenDataJson(a.token!) };
}

/** v2 opened account: `{account: AccountV2, optionalTokenData}`. */
export function openedV2Json(a: AccountRecord): Record<string, unknown> {
  return { account: accountV2Json(a), optionalTokenData: a.token ? tokenDataJson(a.token) : null };
}

/** v2 closed account: `{account: {account: AccountV2, nullifier, txHash}, optionalTokenData}`. */
export function closedV2Json(a: AccountRecord): Record<string, unknown> {
  return {
    account: { account: accountV2Json(a), nullifier: encodeBase58(a.nullifier!), txHash: encodeBase58(a.txHash!) },
    optionalTokenData: a.token ? tokenDataJson(a.token) : null,
  };
}

/** An executed transaction as `getTransaction` (encoding base64) shows it. */
export function confirmedTransactionJson(tx: ExecutedTransaction): Record<string, unknown> {
  // The message starts after the compact-u16 signature count and the signatures; bit 7 of its first
  // byte marks a versioned (v0) message.
  const nsig = tx.wire[0];
  const versioned = (tx.wire[1 + 64 * nsig] & 0x80) !== 0;
  return {
    slot: tx.slot,
    blockTime: tx.blockTime,
    transaction: [Buffer.from(tx.wire).toString('base64'), 'base64'],
    meta: transactionMetaJson(tx),
    version: versioned ? 0 : 'legacy',
  };
}
