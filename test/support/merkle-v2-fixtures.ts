/**
 * V2 answers built from the hashing rules (docs/hashing.md §3–5) with cairn's own Poseidon: a sparse
 * state tree of height 32 holding accounts hashed by the treeType-3 rule, an indexed address tree of
 * height 40 with leaves `P(value, nextValue)`, and the JSON the indexer's V2 methods answer with
 * (field names as @lightprotocol/stateless.js 0.23's V2 result schemas read them).
 */
import bs58 from 'bs58';
import { poseidon } from '../../src/crypto/poseidon.js';
import { hashToField } from '../../src/crypto/keccak.js';
import { hashCompressedAccount, hashTokenData, TreeType, type CompressedAccount } from '../../src/merkle/compressed/account.js';
import { bigintToBe } from '../../src/crypto/bytes.js';

type Json = Record<string, unknown>;

/** Public Light V2 trees (the names only matter as bytes hashed into the account hash). */
export const V2_STATE_TREE = 'bmt1LryLZUMmF7ZtqESaw7wifBXLfXHQYoE4GAmrahU';
const V2_OUTPUT_QUEUE = 'oq1na8gojfdUhsfCpyjNt6h4JaDWtHf1yQj4koBWfto';
const V2_ADDRESS_TREE = 'amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx';
const TOKEN_PROGRAM = 'cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m';
/** The V2 token-account discriminator: bytes 0,0,0,0,0,0,0,3, which the JSON reads as a LE u64. */
const TOKEN_V2_DISCRIMINATOR = 3n << 56n;
const HIGHEST = (1n << 248n) - 1n;

const b58 = (b: Uint8Array): string => bs58.encode(b);
/** A u64 as a JS number when safe, else a bigint (as cairn's client reads it); `jsonText` writes its digits. */
const jsonU64 = (v: bigint): number | bigint => (v <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(v) : v);

/**
 * JSON text of a fixture, bigints written as the plain integers the indexer writes.
 *
 * @example
 * await verifier.verify('account-hash', jsonBytes(fx.tokenAccounts));
 */
export function jsonText(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === 'bigint' ? `\u0000big:${x}` : x)).replace(/"\\u0000big:(\d+)"/g, '$1');
}
export const jsonBytes = (v: unknown): Uint8Array => new TextEncoder().encode(jsonText(v));
const key = (seed: string): Uint8Array => hashToField(new TextEncoder().encode(seed));

/** A sparse Poseidon tree: only the given leaves, every other one the zero leaf. */
function sparseTree(height: number, leaves: ReadonlyMap<number, Uint8Array>): { root: Uint8Array; proof(index: number): Uint8Array[] } {
  const zeros: Uint8Array[] = [new Uint8Array(32)];
  for (let i = 1; i <= height; i++) zeros.push(poseidon([zeros[i - 1]!, zeros[i - 1]!]));
  const levels: Map<number, Uint8Array>[] = [new Map(leaves)];
  for (let l = 0; l < height; l++) {
    const next = new Map<number, Uint8Array>();
    for (const i of levels[l]!.keys()) {
      const p = Math.floor(i / 2);
      if (next.has(p)) continue;
      next.set(p, poseidon([levels[l]!.get(2 * p) ?? zeros[l]!, levels[l]!.get(2 * p + 1) ?? zeros[l]!]));
    }
    levels.push(next);
  }
  return {
    root: levels[height]!.get(0) ?? zeros[height]!,
    proof(index) {
      const out: Uint8Array[] = [];
      let i = index;
      for (let l = 0; l < height; l++) {
        const s = i % 2 === 0 ? i + 1 : i - 1;
        out.push(levels[l]!.get(s) ?? zeros[l]!);
        i = Math.floor(i / 2);
      }
      return out;
    },
  };
}

const ctx = (treeType: number, tree: string, queue: string): Json => ({ treeType, tree, queue, cpiContext: null, nextTreeContext: null });

/**
 * A V2 answer's account in the V1 shape (`getCompressedAccount` without V2: the tree at the top level,
 * no treeType), as the indexer serves accounts of V2 trees to V1 callers.
 *
 * @example
 * await verifier.verify('account-hash', fx.accounts.map(v1Shape));
 */
export function v1Shape(item: Json): Json {
  const { merkleContext, proveByIndex: _queued, ...rest } = item as Json & { merkleContext: Json };
  return { ...rest, tree: merkleContext.tree };
}

export interface V2Fixtures {
  /** getCompressedAccount(s)V2 items (CompressedAccountResultV2). */
  accounts: Json[];
  /** getCompressedTokenAccountsByOwnerV2 items: `{account, tokenData}`. */
  tokenAccounts: Json[];
  /** getCompressedAccountProof(s)V2 values (MerkleProofResultV2). */
  accountProofs: Json[];
  /** An account still in the output queue (`proveByIndex: true`): its hash holds, it is not in the tree. */
  queuedAccount: Json;
  /** Its proof: `proveByIndex: true`, its path proves nothing. */
  queuedProof: Json;
  /** getMultipleNewAddressProofsV2 items (height 40). */
  addressProofs: Json[];
  /** getValidityProofV2 value (ValidityProofResultV2) over two accounts, the queued one and one address. */
  validity: Json;
  stateRoot: Uint8Array;
  addressRoot: Uint8Array;
}

/**
 * Build the fixtures (deterministic; ~250 Poseidon hashes).
 *
 * @example
 * const fx = buildV2Fixtures(); await verifier.verify('account-proof', fx.accountProofs);
 */
export function buildV2Fixtures(): V2Fixtures {
  const tree = bs58.decode(V2_STATE_TREE);
  const owner = bs58.decode(TOKEN_PROGRAM);
  const plain: Array<CompressedAccount & { json: Json }> = [];
  const mk = (leafIndex: number, lamports: bigint, address: Uint8Array | null, data: { discriminator: bigint; dataHash: Uint8Array; bytes: string } | null, o = key(`owner${leafIndex}`)): CompressedAccount & { json: Json } => {
    const disc = new Uint8Array(8);
    if (data) new DataView(disc.buffer).setBigUint64(0, data.discriminator, true);
    const a: CompressedAccount = {
      owner: o,
      tree,
      leafIndex,
      lamports,
      address,
      data: data ? { discriminator: disc, dataHash: data.dataHash } : null,
      treeType: TreeType.StateV2,
    };
    const json: Json = {
      hash: b58(hashCompressedAccount(a)),
      address: address ? b58(address) : null,
      data: data ? { discriminator: jsonU64(data.discriminator), data: data.bytes, dataHash: b58(data.dataHash) } : null,
      owner: b58(o),
      lamports: Number(lamports),
      leafIndex,
      seq: leafIndex + 1,
      slotCreated: 100 + leafIndex,
      proveByIndex: false,
      merkleContext: ctx(TreeType.StateV2, V2_STATE_TREE, V2_OUTPUT_QUEUE),
    };
    return { ...a, json };
  };
  // Lamports above 2^32 and a leaf index above 2^31: both big-endian, so every byte counts.
  plain.push(mk(0, 5_000_000_123n, null, null));
  plain.push(mk(1, 0n, key('address one').map((x, i) => (i === 0 ? 0 : x)), { discriminator: 0x0102030405060708n, dataHash: key('data one'), bytes: 'AQID' }));
  plain.push(mk(2, 1n, null, { discriminator: 7n, dataHash: key('data two'), bytes: '' }));
  plain.push(mk(2 ** 31 + 5, 42n, key('address two').map((x, i) => (i === 0 ? 0 : x)), null));

  // Token accounts: V2 discriminator, token data hashed with the amount big-endian.
  const tokens: Json[] = [];
  const tokenCases = [
    { leafIndex: 3, amount: 1_000_000n, delegate: null as Uint8Array | null, frozen: false },
    { leafIndex: 4, amount: (1n << 60n) + 3n, delegate: key('delegate'), frozen: false },
    { leafIndex: 6, amount: 9n, delegate: null, frozen: true },
  ];
  for (const t of tokenCases) {
    const mint = key('mint');
    const tokenOwner = bs58.decode('EU57rQxcmFhJ24ApVdUy3y4MxFXcTUN3uiVeWvGgtWXu');
    const dataHash = hashTokenData({ mint, owner: tokenOwner, amount: t.amount, delegate: t.delegate, frozen: t.frozen }, true);
    const acc = mk(t.leafIndex, 0n, null, { discriminator: TOKEN_V2_DISCRIMINATOR, dataHash, bytes: Buffer.from(mint).toString('base64') }, owner);
    plain.push(acc);
    tokens.push({
      account: acc.json,
      tokenData: {
        mint: b58(mint),
        owner: b58(tokenOwner),
        amount: jsonU64(t.amount),
        delegate: t.delegate ? b58(t.delegate) : null,
        state: t.frozen ? 'frozen' : 'initialized',
        tlv: null,
      },
    });
  }
  // The queued account: its leaf is not in the tree yet.
  const queued = mk(7, 10n, null, null);

  const state = sparseTree(32, new Map(plain.map((a) => [a.leafIndex, bs58.decode(a.json.hash as string)])));
  const proofOf = (a: { json: Json; leafIndex: number }): Json => ({
    hash: a.json.hash,
    leafIndex: a.leafIndex,
    proof: state.proof(a.leafIndex).map(b58),
    root: b58(state.root),
    rootSeq: 17,
    proveByIndex: false,
    treeContext: ctx(TreeType.StateV2, V2_STATE_TREE, V2_OUTPUT_QUEUE),
  });
  const zero = b58(new Uint8Array(32));
  const queuedProof: Json = {
    hash: queued.json.hash,
    leafIndex: 7,
    proof: Array.from({ length: 32 }, () => zero),
    root: zero,
    rootSeq: 0,
    proveByIndex: true,
    treeContext: ctx(TreeType.StateV2, V2_STATE_TREE, V2_OUTPUT_QUEUE),
  };

  // Address tree: sorted values, each element's leaf P(value, nextValue) (nextIndex is not hashed in V2).
  const values = [0n, 1000n << 200n, 5000n << 200n, 9000n << 200n, HIGHEST];
  const at = [0, 1, 2, 2 ** 32 + 3, 5];
  const addrLeaves = new Map<number, Uint8Array>();
  values.forEach((v, i) => addrLeaves.set(at[i]!, poseidon([bigintToBe(v), bigintToBe(i + 1 < values.length ? values[i + 1]! : 0n)])));
  const addr = sparseTree(40, addrLeaves);
  const addressProofs: Json[] = [];
  for (let i = 0; i + 1 < values.length; i++) {
    const address = values[i]! + (values[i + 1]! - values[i]!) / 2n;
    addressProofs.push({
      address: b58(bigintToBe(address)),
      higherRangeAddress: b58(bigintToBe(values[i + 1]!)),
      lowElementLeafIndex: at[i],
      lowerRangeAddress: b58(bigintToBe(values[i]!)),
      merkleTree: V2_ADDRESS_TREE,
      nextIndex: at[i + 1],
      proof: addr.proof(at[i]!).map(b58),
      root: b58(addr.root),
      rootSeq: 9,
    });
  }

  const validity: Json = {
    compressedProof: null,
    accounts: [
      ...plain
        .slice(0, 2)
        .map((a, i) => ({
          hash: a.json.hash,
          root: b58(state.root),
          rootIndex: { rootIndex: 17 + i, proveByIndex: false },
          leafIndex: a.leafIndex,
          merkleContext: ctx(3, V2_STATE_TREE, V2_OUTPUT_QUEUE),
        })),
      {
        hash: queued.json.hash,
        root: zero,
        rootIndex: { rootIndex: 0, proveByIndex: true },
        leafIndex: 7,
        merkleContext: ctx(3, V2_STATE_TREE, V2_OUTPUT_QUEUE),
      },
    ],
    addresses: [{ address: addressProofs[0]!.address, root: b58(addr.root), rootIndex: 9, merkleContext: ctx(4, V2_ADDRESS_TREE, V2_ADDRESS_TREE) }],
  };

  return {
    accounts: plain.slice(0, 4).map((a) => a.json),
    tokenAccounts: tokens,
    accountProofs: plain.map(proofOf),
    queuedAccount: { ...queued.json, proveByIndex: true },
    queuedProof,
    addressProofs,
    validity,
    stateRoot: state.root,
    addressRoot: addr.root,
  };
}
