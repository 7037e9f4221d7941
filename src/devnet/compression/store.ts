/**
 * The devnet's compression state: a v1 Poseidon state tree (height 26, root history 2400) and a v2
 * batched state tree (height 32, root history 200) of compressed accounts and compressed token
 * accounts, a v1 indexed address tree (height 26) and a v2 one (height 40), with the bookkeeping the
 * indexer keeps (who opened and closed what in which transaction).
 *
 * Accounts are hashed exactly as Light v1 trees commit to them (src/merkle/compressed/account.ts), token data
 * with the v1 token data hash, address-tree leaves with the v1 indexed leaf (src/merkle/compressed/address.ts),
 * so everything the devnet serves verifies with the Merkle engine. A spent account's leaf is zeroed
 * in a v1 tree (what the nullifying forester does) and replaced by its nullifier in a v2 tree (what a
 * batch update does), so its old proof no longer leads to the root. v2 accounts are hashed with the
 * v2 rule (leaf index and lamports big-endian). The devnet models no output queue: an account is in
 * its tree as soon as its transaction executes, so it is never "prove by index".
 */
import { encodeBase58, base58Bytes } from '../../solana/index.js';
import { InputError } from '../../errors/index.js';
import { poseidon, hashToField } from '../../crypto/index.js';
import { hashCompressedAccount, hashTokenDataV1, TreeType, indexedLeaf } from '../../merkle/index.js';
import { createConcurrentMerkleTree, createIndexedMerkleTree, fromBytes32, toBytes32, type ConcurrentMerkleTree, type IndexedMerkleTree } from '../trees/merkle.js';

/** Light's public v1 state tree / nullifier queue and address tree / queue (the photon vectors' trees). */
export const STATE_TREE_V1 = 'smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT';
const NULLIFIER_QUEUE_V1 = 'nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148';
export const ADDRESS_TREE_V1 = 'amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2';
const ADDRESS_QUEUE_V1 = 'aq1S9z4reTSQAdgWHGD2zDaS39sjGrAxbR31vxJ2F4F';
/** The compressed-token program: owner of every compressed token account. */
export const COMPRESSED_TOKEN_PROGRAM = 'cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m';
/** Discriminator of compressed token accounts ([2,0,0,0,0,0,0,0]; the JSON shows it as 2). */
const TOKEN_DISCRIMINATOR = Uint8Array.from([2, 0, 0, 0, 0, 0, 0, 0]);

/** Light's public v2 (batched) state tree with its output queue and CPI context, and v2 address tree (its queue is the tree account itself). */
export const STATE_TREE_V2 = 'bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU';
export const OUTPUT_QUEUE_V2 = 'oq1na8gojfdUhsfCpyjNt6h4JaDWtHf1yQj4koBWfto';
export const CPI_CONTEXT_V2 = 'cpi15BoVPKgEPw5o8wc2T816GE7b378nMXnhH3Xbq4y';
export const ADDRESS_TREE_V2 = 'amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx';
/** The v1 state tree's CPI context account (stateless.js's local tree list pairs it with smt1). */
const CPI_CONTEXT_V1 = 'cpi1uHzrEhBG733DoEJNgHCyRS3XmmyVNZx5fonubE4';

const TREE_HEIGHT = 26;
const ROOT_HISTORY = 2400;
/** Heights and root histories of the v2 trees (light-batched-merkle-tree's defaults). */
const STATE_TREE_V2_HEIGHT = 32;
const ADDRESS_TREE_V2_HEIGHT = 40;
const V2_ROOT_HISTORY = 200;

/** Which generation of tree: 1 (concurrent, v1) or 2 (batched, v2). */
export type TreeVersion = 1 | 2;

/** What the indexer says about a tree (its `merkleContext` / `treeContext`). */
export interface TreeInfo {
  tree: string;
  queue: string;
  cpiContext: string | null;
  treeType: TreeType;
  height: number;
  /** Root history capacity: a root's index on chain is `rootSeq % rootHistory`. */
  rootHistory: number;
}

export const TREE_INFOS: Readonly<Record<string, TreeInfo>> = {
  [STATE_TREE_V1]: {
    tree: STATE_TREE_V1,
    queue: NULLIFIER_QUEUE_V1,
    cpiContext: CPI_CONTEXT_V1,
    treeType: TreeType.StateV1,
    height: TREE_HEIGHT,
    rootHistory: ROOT_HISTORY,
  },
  [STATE_TREE_V2]: {
    tree: STATE_TREE_V2,
    queue: OUTPUT_QUEUE_V2,
    cpiContext: CPI_CONTEXT_V2,
    treeType: TreeType.StateV2,
    height: STATE_TREE_V2_HEIGHT,
    rootHistory: V2_ROOT_HISTORY,
  },
  [ADDRESS_TREE_V1]: {
    tree: ADDRESS_TREE_V1,
    queue: ADDRESS_QUEUE_V1,
    cpiContext: null,
    treeType: TreeType.AddressV1,
    height: TREE_HEIGHT,
    rootHistory: ROOT_HISTORY,
  },
  [ADDRESS_TREE_V2]: {
    tree: ADDRESS_TREE_V2,
    queue: ADDRESS_TREE_V2,
    cpiContext: null,
    treeType: TreeType.AddressV2,
    height: ADDRESS_TREE_V2_HEIGHT,
    rootHistory: V2_ROOT_HISTORY,
  },
};

/** A state tree of the store with what the indexer says about it. */
export interface StateTree {
  readonly version: TreeVersion;
  readonly info: TreeInfo;
  readonly bytes: Uint8Array;
  readonly merkle: ConcurrentMerkleTree;
}

/** An address tree of the store with what the indexer says about it. */
export interface AddressTree {
  readonly version: TreeVersion;
  readonly info: TreeInfo;
  readonly bytes: Uint8Array;
  readonly merkle: IndexedMerkleTree;
}

/** A new address and the generation of address tree it goes to. */
export interface NewAddress {
  value: Uint8Array;
  version: TreeVersion;
}

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
  /** 1 for the v1 state tree, 2 for the v2 (batched) one. */
  version: TreeVersion;
  leafIndex: number;
  seq: number;
  slotCreated: number;
  token: TokenDataRecord | null;
  openedBy: string;
  closedBy: string | null;
  /** Set when spent: what a v2 tree writes in the leaf, Poseidon(hash, leafIndex BE, txHash), and the transaction hash in it. */
  nullifier: Uint8Array | null;
  txHash: Uint8Array | null;
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
  /** The state tree it goes to (1 when absent). */
  version?: TreeVersion;
}

const node2 = (l: Uint8Array, r: Uint8Array): Uint8Array => poseidon([l, r]);

/**
 * Borsh of v1 compressed TokenData: mint, owner, amount u64, delegate Option, state u8. The photon
 * snapshots carry exactly these 74 (or 106) bytes, with no trailing `tlv` option, so neither do we.
 */
function encodeTokenData(t: TokenDataRecord): Uint8Array {
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
    owner: base58Bytes(COMPRESSED_TOKEN_PROGRAM),
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
  /** The v1 trees (kept under these names for the v1 code and its tests). */
  readonly stateTree: ConcurrentMerkleTree;
  readonly addressTree: IndexedMerkleTree;
  readonly stateTreeBytes: Uint8Array;
  readonly addressTreeBytes: Uint8Array;
  /** Both generations, by version. */
  readonly stateTrees: Readonly<Record<TreeVersion, StateTree>>;
  readonly addressTrees: Readonly<Record<TreeVersion, AddressTree>>;
  /** The state or address tree named `tree` (base58), if the devnet has it. */
  stateTreeOf(tree: string): StateTree | undefined;
  addressTreeOf(tree: string): AddressTree | undefined;
  byHash(hash: string): AccountRecord | undefined;
  byAddress(address: string): AccountRecord | undefined;
  /** Every account ever opened, in leaf order (spent ones included, with `closedBy`). */
  accounts(): readonly AccountRecord[];
  transactions(): readonly CompressionTxRecord[];
  transaction(signature: string): CompressionTxRecord | undefined;
  /** Apply one executed operation: close `spend`, insert `addresses`, open `open`. */
  apply(op: {
    signature: string;
    slot: number;
    blockTime: number;
    spend: AccountRecord[];
    addresses: (Uint8Array | NewAddress)[];
    open: NewAccount[];
  }): CompressionTxRecord;
  /** Every operation applied so far, in order, as `importOps` replays it (the devnet's `--ledger`). */
  exportOps(): readonly AppliedCompressionOp[];
  /** Replay exported operations into this (empty) store: the same trees, accounts and transactions. */
  importOps(ops: readonly AppliedCompressionOp[]): void;
}

/** One applied operation as the ledger keeps it: spent accounts named by hash, the rest as given. */
export interface AppliedCompressionOp {
  signature: string;
  slot: number;
  blockTime: number;
  spend: string[];
  addresses: NewAddress[];
  open: NewAccount[];
}

/** Token accounts not spent yet whose token data passes `filter`, in leaf order. */
export function unspentTokenAccounts(store: CompressionStore, filter: (t: TokenDataRecord) => boolean): AccountRecord[] {
  return store.accounts().filter((a) => a.closedBy === null && a.token !== null && filter(a.token));
}

/** Poseidon chain of 32-byte values: `h = x0`, then `h = P(h, xi)`; 32 zero bytes for none (light's hash_chain). */
function hashChain(xs: readonly Uint8Array[]): Uint8Array {
  if (xs.length === 0) return new Uint8Array(32);
  let h = xs[0];
  for (let i = 1; i < xs.length; i++) h = poseidon([h, xs[i]]);
  return h;
}

/** A transaction's hash as light's create_tx_hash makes it: P(chain(inputs), chain(outputs), slot as 32 bytes BE). */
function compressionTxHash(inputs: readonly Uint8Array[], outputs: readonly Uint8Array[], slot: number): Uint8Array {
  return poseidon([hashChain(inputs), hashChain(outputs), toBytes32(BigInt(slot))]);
}

/** A v2 nullifier: P(account hash, leaf index as 32 bytes BE, tx hash). */
function nullifierOf(hash: Uint8Array, leafIndex: number, txHash: Uint8Array): Uint8Array {
  return poseidon([hash, toBytes32(BigInt(leafIndex)), txHash]);
}

/** State tree `tree` as the store keeps it: empty, of the height and root history the indexer gives it. */
function emptyStateTree(version: TreeVersion, tree: string): StateTree {
  const info = TREE_INFOS[tree]!;
  return { version, info, bytes: base58Bytes(tree), merkle: createConcurrentMerkleTree({ depth: info.height, hash: node2, maxBufferSize: info.rootHistory }) };
}

/** Address tree `tree`: initialised as Light initialises that version's trees, its leaves hashed that version's way. */
function emptyAddressTree(version: TreeVersion, tree: string): AddressTree {
  const info = TREE_INFOS[tree]!;
  const merkle = createIndexedMerkleTree({
    height: info.height,
    hash2: node2,
    leafHash: (value, nextIndex, nextValue) => indexedLeaf(version, value, fromBytes32(nextIndex), nextValue),
    rootHistory: info.rootHistory,
    init: version === 2 ? 'v2' : 'v1',
  });
  return { version, info, bytes: base58Bytes(tree), merkle };
}

export function createCompressionStore(): CompressionStore {
  const stateTrees: Record<TreeVersion, StateTree> = { 1: emptyStateTree(1, STATE_TREE_V1), 2: emptyStateTree(2, STATE_TREE_V2) };
  const addressTrees: Record<TreeVersion, AddressTree> = { 1: emptyAddressTree(1, ADDRESS_TREE_V1), 2: emptyAddressTree(2, ADDRESS_TREE_V2) };
  const all: AccountRecord[] = [];
  const hashes = new Map<string, AccountRecord>();
  const addresses = new Map<string, AccountRecord>();
  const txs: CompressionTxRecord[] = [];
  const txBySig = new Map<string, CompressionTxRecord>();
  // The operations in the order applied: replaying them rebuilds the trees change by change, so
  // roots, sequence numbers and root histories come back exactly (a leaf dump would lose the history).
  const applied: AppliedCompressionOp[] = [];

  const store: CompressionStore = {
    stateTree: stateTrees[1].merkle,
    addressTree: addressTrees[1].merkle,
    stateTreeBytes: stateTrees[1].bytes,
    addressTreeBytes: addressTrees[1].bytes,
    stateTrees,
    addressTrees,
    stateTreeOf: (t) => (t === STATE_TREE_V1 ? stateTrees[1] : t === STATE_TREE_V2 ? stateTrees[2] : undefined),
    addressTreeOf: (t) => (t === ADDRESS_TREE_V1 ? addressTrees[1] : t === ADDRESS_TREE_V2 ? addressTrees[2] : undefined),
    byHash: (h) => hashes.get(h),
    byAddress: (a) => addresses.get(a),
    accounts: () => all,
    transactions: () => txs,
    transaction: (s) => txBySig.get(s),
    exportOps: () => applied,
    importOps(ops) {
      if (applied.length > 0) throw new InputError('compression', 'importOps needs an empty store');
      for (const [i, op] of ops.entries()) {
        const spend = op.spend.map((h) => {
          const a = hashes.get(h);
          if (!a) throw new InputError(`compression.ops[${i}].spend`, `unknown account ${h}`);
          return a;
        });
        store.apply({ signature: op.signature, slot: op.slot, blockTime: op.blockTime, spend, addresses: op.addresses, open: op.open });
      }
    },
    apply(op) {
      const tokenOwners = new Set<string>();
      for (const acc of op.spend) {
        if (acc.closedBy !== null) throw new InputError('account', `account ${acc.hashText} is already spent`);
      }
      for (const a of op.addresses) {
        const { value, version } = a instanceof Uint8Array ? { value: a, version: 1 as TreeVersion } : a;
        addressTrees[version].merkle.insert(fromBytes32(value));
      }
      const opened: AccountRecord[] = [];
      for (const n of op.open) {
        const st = stateTrees[n.version ?? 1];
        const leafIndex = st.merkle.size;
        const hash = hashCompressedAccount({
          owner: n.owner,
          tree: st.bytes,
          leafIndex,
          lamports: n.lamports,
          address: n.address,
          data: n.data ? { discriminator: n.data.discriminator, dataHash: n.data.dataHash } : null,
          treeType: st.info.treeType,
        });
        const { seq } = st.merkle.append(hash);
        const rec: AccountRecord = {
          hash,
          hashText: encodeBase58(hash),
          owner: n.owner,
          lamports: n.lamports,
          address: n.address,
          data: n.data,
          tree: st.info.tree,
          version: st.version,
          leafIndex,
          seq,
          slotCreated: op.slot,
          token: n.token,
          openedBy: op.signature,
          closedBy: null,
          nullifier: null,
          txHash: null,
        };
        all.push(rec);
        hashes.set(rec.hashText, rec);
        if (n.address) addresses.set(encodeBase58(n.address), rec);
        if (n.token) tokenOwners.add(encodeBase58(n.token.owner));
        opened.push(rec);
      }
      // Spent after the outputs are hashed: the transaction hash commits to both sides.
      const txHash = compressionTxHash(op.spend.map((a) => a.hash), opened.map((a) => a.hash), op.slot);
      for (const acc of op.spend) {
        acc.closedBy = op.signature;
        acc.txHash = txHash;
        acc.nullifier = nullifierOf(acc.hash, acc.leafIndex, txHash);
        stateTrees[acc.version].merkle.set(acc.leafIndex, acc.version === 2 ? acc.nullifier : new Uint8Array(32));
        if (acc.token) tokenOwners.add(encodeBase58(acc.token.owner));
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
      applied.push({
        signature: op.signature,
        slot: op.slot,
        blockTime: op.blockTime,
        spend: op.spend.map((a) => a.hashText),
        addresses: op.addresses.map((a) => (a instanceof Uint8Array ? { value: a, version: 1 as TreeVersion } : a)),
        open: op.open,
      });
      return tx;
    },
  };
  return store;
}
