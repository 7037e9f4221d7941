/**
 * The devnet's compression state: one v1 Poseidon state tree (height 26, root history 2400) of
 * compressed accounts and compressed token accounts, and one v1 indexed address tree (height 26),
 * with the bookkeeping the indexer keeps (who opened and closed what in which transaction).
 *
 * Accounts are hashed exactly as Light v1 trees commit to them (src/merkle/account.ts), token data
 * with the v1 token data hash, address-tree leaves with the v1 indexed leaf (src/merkle/address.ts),
 * so everything the devnet serves verifies with the Merkle engine. A spent account's leaf is zeroed
 * (what the nullifying forester does to a v1 tree), so its old proof no longer leads to the root.
 */
import bs58 from 'bs58';
import { poseidon } from '../merkle/hash/poseidon.js';
import { hashToField } from '../merkle/hash/keccak.js';
import { hashCompressedAccount, hashTokenDataV1 } from '../merkle/account.js';
import { indexedLeaf } from '../merkle/address.js';
import { createConcurrentMerkleTree, createIndexedMerkleTree, fromBytes32, toBytes32, type ConcurrentMerkleTree, type IndexedMerkleTree } from './merkle-tree.js';

/** Light's public v1 state tree / nullifier queue and address tree / queue (the photon vectors' trees). */
export const STATE_TREE_V1 = 'smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT';
export const NULLIFIER_QUEUE_V1 = 'nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148';
export const ADDRESS_TREE_V1 = 'amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2';
export const ADDRESS_QUEUE_V1 = 'aq1S9z4reTSQAdgWHGD2zDaS39sjGrAxbR31vxJ2F4F';
/** The compressed-token program: owner of every compressed token account. */
export const COMPRESSED_TOKEN_PROGRAM = 'cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m';
/** Discriminator of compressed token accounts ([2,0,0,0,0,0,0,0]; the JSON shows it as 2). */
export const TOKEN_DISCRIMINATOR = Uint8Array.from([2, 0, 0, 0, 0, 0, 0, 0]);

export const TREE_HEIGHT = 26;
export const ROOT_HISTORY = 2400;

export interface TokenDataRecord {
  mint: Uint8Array;
  owner: Uint8Array;
  amount: bigint;
  delegate: Uint8Array | null;
  frozen: boolean;
}

export interface AccountRecord {
  hash: Uint8Array;
  hashText: string;
  owner: Uint8Array;
  lamports: bigint;
  address: Uint8Array | null;
  data: { discriminator: Uint8Array; data: Uint8Array; dataHash: Uint8Array } | null;
  tree: string;
  leafIndex: number;
  seq: number;
  slotCreated: number;
  token: TokenDataRecord | null;
  openedBy: string;
  closedBy: string | null;
}

export interface CompressionTxRecord {
  signature: string;
  slot: number;
  blockTime: number;
  opened: AccountRecord[];
  closed: AccountRecord[];
  /** Token owners whose accounts this transaction opened or closed. */
  tokenOwners: Set<string>;
  /** Order of execution (newest-first lists sort by it). */
  order: number;
}

/** What an account to open looks like before it has a leaf index. */
export interface NewAccount {
  owner: Uint8Array;
  lamports: bigint;
  address: Uint8Array | null;
  data: { discriminator: Uint8Array; data: Uint8Array; dataHash: Uint8Array } | null;
  token: TokenDataRecord | null;
}

const node2 = (l: Uint8Array, r: Uint8Array): Uint8Array => poseidon([l, r]);

/**
 * Borsh of v1 compressed TokenData: mint, owner, amount u64, delegate Option, state u8. The photon
 * snapshots carry exactly these 74 (or 106) bytes, with no trailing `tlv` option, so neither do we.
 */
export function encodeTokenData(t: TokenDataRecord): Uint8Array {
  const out = new Uint8Array(32 + 32 + 8 + (t.delegate ? 33 : 1) + 1);
  out.set(t.mint, 0);
  out.set(t.owner, 32);
  new DataView(out.buffer).setBigUint64(64, t.amount, true);
  let o = 72;
  if (t.delegate) {
    out[o++] = 1;
    out.set(t.delegate, o);
    o += 32;
  } else out[o++] = 0;
  out[o] = t.frozen ? 1 : 0; // AccountState: Initialized 0, Frozen 1
  return out;
}

/** A compressed token account ready to open. */
export function newTokenAccount(t: TokenDataRecord): NewAccount {
  return {
    owner: bs58.decode(COMPRESSED_TOKEN_PROGRAM),
    lamports: 0n,
    address: null,
    data: { discriminator: TOKEN_DISCRIMINATOR, data: encodeTokenData(t), dataHash: hashTokenDataV1(t) },
    token: t,
  };
}

/** Data hash of a plain (non-token) account's bytes: keccak truncated into the field. */
export function plainDataHash(data: Uint8Array): Uint8Array {
  return hashToField(data);
}

export interface CompressionStore {
  readonly stateTree: ConcurrentMerkleTree;
  readonly addressTree: IndexedMerkleTree;
  readonly stateTreeBytes: Uint8Array;
  readonly addressTreeBytes: Uint8Array;
  byHash(hash: string): AccountRecord | undefined;
  byAddress(address: string): AccountRecord | undefined;
  /** Every account ever opened, in leaf order (spent ones included, with `closedBy`). */
  accounts(): readonly AccountRecord[];
  transactions(): readonly CompressionTxRecord[];
  transaction(signature: string): CompressionTxRecord | undefined;
  /** Apply one executed operation: close `spend`, insert `addresses`, open `open`. */
  apply(op: { signature: string; slot: number; blockTime: number; spend: AccountRecord[]; addresses: Uint8Array[]; open: NewAccount[] }): CompressionTxRecord;
}

/** Token accounts not spent yet whose token data passes `filter`, in leaf order. */
export function unspentTokenAccounts(store: CompressionStore, filter: (t: TokenDataRecord) => boolean): AccountRecord[] {
  return store.accounts().filter((a) => a.closedBy === null && a.token !== null && filter(a.token));
}

export function createCompressionStore(): CompressionStore {
  const stateTreeBytes = bs58.decode(STATE_TREE_V1);
  const addressTreeBytes = bs58.decode(ADDRESS_TREE_V1);
  const stateTree = createConcurrentMerkleTree({ depth: TREE_HEIGHT, hash: node2, maxBufferSize: ROOT_HISTORY });
  const addressTree = createIndexedMerkleTree({
    height: TREE_HEIGHT,
    hash2: node2,
    leafHash: (value, nextIndex, nextValue) => indexedLeaf(1, value, fromBytes32(nextIndex), nextValue),
    rootHistory: ROOT_HISTORY,
  });
  const all: AccountRecord[] = [];
  const hashes = new Map<string, AccountRecord>();
  const addresses = new Map<string, AccountRecord>();
  const txs: CompressionTxRecord[] = [];
  const txBySig = new Map<string, CompressionTxRecord>();

  return {
    stateTree,
    addressTree,
    stateTreeBytes,
    addressTreeBytes,
    byHash: (h) => hashes.get(h),
    byAddress: (a) => addresses.get(a),
    accounts: () => all,
    transactions: () => txs,
    transaction: (s) => txBySig.get(s),
    apply(op) {
      const tokenOwners = new Set<string>();
      for (const acc of op.spend) {
        if (acc.closedBy !== null) throw new Error(`account ${acc.hashText} is already spent`);
      }
      for (const a of op.addresses) addressTree.insert(fromBytes32(a));
      for (const acc of op.spend) {
        acc.closedBy = op.signature;
        stateTree.set(acc.leafIndex, new Uint8Array(32));
        if (acc.token) tokenOwners.add(bs58.encode(acc.token.owner));
      }
      const opened: AccountRecord[] = [];
      for (const n of op.open) {
        const leafIndex = stateTree.size;
        const hash = hashCompressedAccount({
          owner: n.owner,
          tree: stateTreeBytes,
          leafIndex,
          lamports: n.lamports,
          address: n.address,
          data: n.data ? { discriminator: n.data.discriminator, dataHash: n.data.dataHash } : null,
        });
        const { seq } = stateTree.append(hash);
        const rec: AccountRecord = {
          hash,
          hashText: bs58.encode(hash),
          owner: n.owner,
          lamports: n.lamports,
          address: n.address,
          data: n.data,
          tree: STATE_TREE_V1,
          leafIndex,
          seq,
          slotCreated: op.slot,
          token: n.token,
          openedBy: op.signature,
          closedBy: null,
        };
        all.push(rec);
        hashes.set(rec.hashText, rec);
        if (n.address) addresses.set(bs58.encode(n.address), rec);
        if (n.token) tokenOwners.add(bs58.encode(n.token.owner));
        opened.push(rec);
      }
      const tx: CompressionTxRecord = {
        signature: op.signature,
        slot: op.slot,
        blockTime: op.blockTime,
        opened,
        closed: op.spend,
        tokenOwners,
        order: txs.length,
      };
      txs.push(tx);
      txBySig.set(tx.signature, tx);
      return tx;
    },
  };
}

export { toBytes32 };
