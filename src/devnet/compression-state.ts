/**
 * The devnet's ZK-compression methods, the nine of the spec: `getCompressedAccount`,
 * `getCompressedAccountProof`, `getMultipleNewAddressProofs` (params: an ARRAY of addresses),
 * `getValidityProof`, `getCompressedTokenAccountsByOwner` / `ByDelegate`,
 * `getLatestCompressionSignatures`, `getCompressionSignaturesForTokenOwner` and
 * `getTransactionWithCompressionInfo`, each answering `{context: {slot}, value}` (the last one
 * `{compression_info, transaction}`), with cursors that are `null` at the end.
 *
 * State enters through control functions (`createCompressedAccount`, `createAddress`,
 * `mintCompressedTokens`, `transferCompressedTokens`): each submits a real authority-signed
 * transaction (das-transaction.ts) and applies its change when that transaction has executed, so
 * every compression signature is a real, confirmable one with a slot and a block time.
 */
import bs58 from 'bs58';
import type { Chain, DevnetModule, RpcHandler } from './types.js';
import { DevnetRpcError } from './types.js';
import { deriveAddressSeedV1, deriveAddressV1 } from '../merkle/address.js';
import { createAuthorityTxSender } from './das-transaction.js';
import { arr, b58, describe, int, invalid, obj, paramsObject, withSignal } from './das-params.js';
import {
  ADDRESS_TREE_V1,
  createCompressionStore,
  newTokenAccount,
  plainDataHash,
  ROOT_HISTORY,
  STATE_TREE_V1,
  type AccountRecord,
  type CompressionStore,
  type NewAccount,
  type TokenDataRecord,
} from './compression-store.js';
import { accountJson, confirmedTransactionJson, openedClosedJson, tokenAccountJson } from './compression-json.js';
import { fakeCompressedProofJson } from './fake-proof.js';
import { fromBytes32, HIGHEST_ADDRESS, toBytes32 } from './merkle-tree.js';

const NOT_FOUND = -32000;
const MAX_PAGE = 1000;
/** v1 circuits: inclusion of 1, 2, 3, 4 or 8 accounts; non-inclusion of 1 or 2 addresses; combined ≤ 4 + ≤ 2. */
const INCLUSION_SIZES = [1, 2, 3, 4, 8];
const MAX_NEW_ADDRESSES = 2;

type Bytesish = string | Uint8Array;

export interface CreateCompressedAccountInput {
  owner: Bytesish;
  lamports?: bigint | number;
  data?: { discriminator: Uint8Array | bigint | number; data: Uint8Array; dataHash?: Uint8Array };
  /** An address (already derived) or seeds + programId to derive a v1 address in the devnet's tree. */
  address?: Bytesish;
  seeds?: Uint8Array[];
  programId?: Bytesish;
}

export interface MintCompressedTokensInput {
  mint: Bytesish;
  recipients: { owner: Bytesish; amount: bigint | number; delegate?: Bytesish }[];
}

export interface TransferCompressedTokensInput {
  owner: Bytesish;
  mint: Bytesish;
  to: Bytesish;
  amount: bigint | number;
}

export interface CompressionOpResult {
  signature: string;
  slot: number;
  opened: Record<string, unknown>[];
  closed: Record<string, unknown>[];
}

export interface CompressionState extends DevnetModule {
  readonly store: CompressionStore;
  createCompressedAccount(input: CreateCompressedAccountInput, opts?: { signal?: AbortSignal }): Promise<CompressionOpResult & { account: Record<string, unknown> }>;
  createAddress(input: { address?: Bytesish; seeds?: Uint8Array[]; programId?: Bytesish }, opts?: { signal?: AbortSignal }): Promise<{ signature: string; address: string }>;
  mintCompressedTokens(input: MintCompressedTokensInput, opts?: { signal?: AbortSignal }): Promise<CompressionOpResult>;
  transferCompressedTokens(input: TransferCompressedTokensInput, opts?: { signal?: AbortSignal }): Promise<CompressionOpResult>;
  /** Derive the v1 address `seeds` + `programId` give in the devnet's address tree. */
  deriveAddress(seeds: Uint8Array[], programId: Bytesish): string;
}

function bytesIn(v: Bytesish | undefined, field: string): Uint8Array {
  if (v instanceof Uint8Array) {
    if (v.length !== 32) throw invalid(field, `expected 32 bytes, got ${v.length}`);
    return v;
  }
  return b58(v, field);
}

function u64In(v: bigint | number | undefined, field: string, dflt?: bigint): bigint {
  if (v === undefined) {
    if (dflt === undefined) throw invalid(field, 'is required');
    return dflt;
  }
  const x = typeof v === 'number' ? (Number.isSafeInteger(v) ? BigInt(v) : -1n) : typeof v === 'bigint' ? v : -1n;
  if (x < 0n || x >= 1n << 64n) throw invalid(field, `expected an integer 0..2^64−1, got ${describe(v)}`);
  return x;
}

function checkAddressValue(a: Uint8Array, field: string): void {
  const v = fromBytes32(a);
  if (v === 0n || v >= HIGHEST_ADDRESS) throw invalid(field, 'an address must be a value in (0, 2^248 − 1): its first byte must be 0');
}

/**
 * Create the compression module for a devnet chain.
 *
 * @example
 * const zk = createCompressionState({ chain });
 * await zk.mintCompressedTokens({ mint, recipients: [{ owner, amount: 100n }] });
 * // then: getCompressedTokenAccountsByOwner { owner } → one item of amount 100
 */
export function createCompressionState(opts: { chain: Chain }): CompressionState {
  const { chain } = opts;
  const store = createCompressionStore();
  const sender = createAuthorityTxSender(chain);
  // Accounts and addresses claimed by operations submitted but not executed yet.
  const reservedHashes = new Set<string>();
  const reservedAddresses = new Set<string>();

  const ctx = () => ({ slot: chain.slot() });

  async function run(
    prepare: () => { spend: AccountRecord[]; addresses: Uint8Array[]; open: NewAccount[]; touched: Uint8Array[] },
    signal?: AbortSignal,
  ) {
    const p = prepare();
    const hashes = p.spend.map((a) => a.hashText);
    const addrs = p.addresses.map((a) => bs58.encode(a));
    for (const h of hashes) reservedHashes.add(h);
    for (const a of addrs) reservedAddresses.add(a);
    const release = () => {
      for (const h of hashes) reservedHashes.delete(h);
      for (const a of addrs) reservedAddresses.delete(a);
    };
    let sent;
    try {
      sent = sender.send([store.stateTreeBytes, ...(p.addresses.length ? [store.addressTreeBytes] : []), ...p.touched]);
    } catch (e) {
      release();
      throw e;
    }
    const applied = sent.executed.then(
      (tx) => {
        release();
        if (tx.err !== null) throw new DevnetRpcError(-32002, `compression transaction ${tx.signature} failed: ${JSON.stringify(tx.err)}`, 200, { err: tx.err });
        return store.apply({ signature: tx.signature, slot: tx.slot, blockTime: tx.blockTime, spend: p.spend, addresses: p.addresses, open: p.open });
      },
      (e) => {
        release();
        throw e;
      },
    );
    applied.catch(() => {});
    // An abort stops the caller's wait, not the operation: its transaction is already on its way and
    // the change is applied when it executes, as on a real cluster.
    const rec = await withSignal(applied, signal);
    return { signature: rec.signature, slot: rec.slot, opened: rec.opened.map(openedClosedJson), closed: rec.closed.map(openedClosedJson), records: rec.opened };
  }

  function claimAddress(a: Uint8Array, field: string): void {
    checkAddressValue(a, field);
    const t = bs58.encode(a);
    if (store.addressTree.has(fromBytes32(a)) || reservedAddresses.has(t)) throw invalid(field, `address ${t} already exists`);
  }

  function deriveAddress(seeds: Uint8Array[], programId: Bytesish): string {
    const seed = deriveAddressSeedV1(seeds, bytesIn(programId, 'programId'));
    return bs58.encode(deriveAddressV1(seed, store.addressTreeBytes));
  }

  function resolveAddress(input: { address?: Bytesish; seeds?: Uint8Array[]; programId?: Bytesish }): Uint8Array | null {
    if (input.address !== undefined) return bytesIn(input.address, 'address');
    if (input.seeds !== undefined) {
      if (!Array.isArray(input.seeds) || !input.seeds.every((s) => s instanceof Uint8Array)) throw invalid('seeds', 'expected an array of Uint8Array');
      return bs58.decode(deriveAddress(input.seeds, input.programId as Bytesish));
    }
    return null;
  }

  function unspentTokenAccounts(filter: (t: TokenDataRecord) => boolean): AccountRecord[] {
    return store.accounts().filter((a) => a.closedBy === null && a.token !== null && filter(a.token));
  }

  // ------------------------------------------------------------------ control functions

  async function createCompressedAccount(input: CreateCompressedAccountInput, o: { signal?: AbortSignal } = {}) {
    const r = await run(() => {
      const owner = bytesIn(input.owner, 'owner');
      const lamports = u64In(input.lamports, 'lamports', 0n);
      const address = resolveAddress(input);
      if (address) claimAddress(address, 'address');
      let data: NewAccount['data'] = null;
      if (input.data !== undefined) {
        const d = input.data;
        let disc: Uint8Array;
        if (d.discriminator instanceof Uint8Array) {
          if (d.discriminator.length !== 8) throw invalid('data.discriminator', `expected 8 bytes, got ${d.discriminator.length}`);
          disc = d.discriminator;
        } else {
          disc = new Uint8Array(8);
          new DataView(disc.buffer).setBigUint64(0, u64In(d.discriminator, 'data.discriminator'), true);
        }
        if (!(d.data instanceof Uint8Array)) throw invalid('data.data', `expected a Uint8Array, got ${describe(d.data)}`);
        const dataHash = d.dataHash ?? plainDataHash(d.data);
        if (dataHash.length !== 32 || dataHash[0] !== 0) throw invalid('data.dataHash', 'expected 32 bytes below the BN254 field modulus (first byte 0)');
        data = { discriminator: disc, data: d.data, dataHash };
      }
      return { spend: [], addresses: address ? [address] : [], open: [{ owner, lamports, address, data, token: null }], touched: [owner] };
    }, o.signal);
    return { signature: r.signature, slot: r.slot, opened: r.opened, closed: r.closed, account: accountJson(r.records[0]) };
  }

  async function createAddress(input: { address?: Bytesish; seeds?: Uint8Array[]; programId?: Bytesish }, o: { signal?: AbortSignal } = {}) {
    let text = '';
    const r = await run(() => {
      const address = resolveAddress(input);
      if (!address) throw invalid('address', 'give an address, or seeds and programId');
      claimAddress(address, 'address');
      text = bs58.encode(address);
      return { spend: [], addresses: [address], open: [], touched: [] };
    }, o.signal);
    return { signature: r.signature, address: text };
  }

  async function mintCompressedTokens(input: MintCompressedTokensInput, o: { signal?: AbortSignal } = {}) {
    const r = await run(() => {
      const mint = bytesIn(input.mint, 'mint');
      if (!Array.isArray(input.recipients) || input.recipients.length === 0) throw invalid('recipients', 'expected a non-empty array');
      const open = input.recipients.map((x, i) =>
        newTokenAccount({
          mint,
          owner: bytesIn(x.owner, `recipients[${i}].owner`),
          amount: u64In(x.amount, `recipients[${i}].amount`),
          delegate: x.delegate === undefined ? null : bytesIn(x.delegate, `recipients[${i}].delegate`),
          frozen: false,
        }),
      );
      return { spend: [], addresses: [], open, touched: [mint, ...open.map((a) => a.token!.owner)] };
    }, o.signal);
    return { signature: r.signature, slot: r.slot, opened: r.opened, closed: r.closed };
  }

  async function transferCompressedTokens(input: TransferCompressedTokensInput, o: { signal?: AbortSignal } = {}) {
    const r = await run(() => {
      const owner = bytesIn(input.owner, 'owner');
      const mint = bytesIn(input.mint, 'mint');
      const to = bytesIn(input.to, 'to');
      const amount = u64In(input.amount, 'amount');
      const ownerText = bs58.encode(owner);
      const mintText = bs58.encode(mint);
      // Largest first, at most 8 inputs (the biggest inclusion circuit).
      const candidates = unspentTokenAccounts((t) => bs58.encode(t.owner) === ownerText && bs58.encode(t.mint) === mintText && !t.frozen)
        .filter((a) => !reservedHashes.has(a.hashText))
        .sort((x, y) => (y.token!.amount > x.token!.amount ? 1 : y.token!.amount < x.token!.amount ? -1 : 0));
      const spend: AccountRecord[] = [];
      let total = 0n;
      for (const c of candidates) {
        if (total >= amount || spend.length === 8) break;
        spend.push(c);
        total += c.token!.amount;
      }
      if (total < amount) throw invalid('amount', `owner ${ownerText} holds ${total} of mint ${mintText} in spendable accounts (at most 8 inputs), ${amount} requested`);
      const open = [newTokenAccount({ mint, owner: to, amount, delegate: null, frozen: false })];
      if (total > amount) open.push(newTokenAccount({ mint, owner, amount: total - amount, delegate: null, frozen: false }));
      return { spend, addresses: [], open, touched: [mint, owner, to] };
    }, o.signal);
    return { signature: r.signature, slot: r.slot, opened: r.opened, closed: r.closed };
  }

  // ------------------------------------------------------------------ RPC methods

  const liveByHash = (h: string): AccountRecord | undefined => {
    const a = store.byHash(h);
    return a && a.closedBy === null ? a : undefined;
  };

  function listParams(p: Record<string, unknown>) {
    const limit = int(p.limit, 'limit', 1, MAX_PAGE) ?? MAX_PAGE;
    const cursor = p.cursor === undefined || p.cursor === null ? undefined : p.cursor;
    if (cursor !== undefined && typeof cursor !== 'string') throw invalid('cursor', `expected a string, got ${describe(cursor)}`);
    return { limit, cursor: cursor as string | undefined };
  }

  function tokenPage(p: Record<string, unknown>, field: 'owner' | 'delegate') {
    const who = bs58.encode(b58(p[field], field));
    const mint = p.mint === undefined || p.mint === null ? undefined : bs58.encode(b58(p.mint, 'mint'));
    const { limit, cursor } = listParams(p);
    let list = unspentTokenAccounts((t) => {
      const k = field === 'owner' ? bs58.encode(t.owner) : t.delegate ? bs58.encode(t.delegate) : '';
      return k === who && (!mint || bs58.encode(t.mint) === mint);
    });
    if (cursor !== undefined) {
      b58(cursor, 'cursor');
      const at = store.byHash(cursor);
      if (!at) throw invalid('cursor', 'unknown cursor (pass the cursor of the previous page)');
      list = list.filter((a) => a.leafIndex > at.leafIndex);
    }
    const items = list.slice(0, limit);
    const more = list.length > limit;
    return { context: ctx(), value: { items: items.map(tokenAccountJson), cursor: more ? items[items.length - 1].hashText : null } };
  }

  function signaturePage(p: Record<string, unknown>, filter: (t: { tokenOwners: Set<string> }) => boolean) {
    const { limit, cursor } = listParams(p);
    let list = store.transactions().filter(filter);
    let end = list.length;
    if (cursor !== undefined) {
      const at = store.transaction(cursor);
      if (!at) throw invalid('cursor', 'unknown cursor (pass the cursor of the previous page)');
      end = list.findIndex((t) => t.order >= at.order);
      if (end < 0) end = list.length;
    }
    // Newest first.
    list = list.slice(0, end).reverse();
    const items = list.slice(0, limit);
    const more = list.length > limit;
    return {
      context: ctx(),
      value: { items: items.map((t) => ({ blockTime: t.blockTime, signature: t.signature, slot: t.slot })), cursor: more ? items[items.length - 1].signature : null },
    };
  }

  function addressProof(a: Uint8Array): Record<string, unknown> {
    const np = store.addressTree.nonInclusionProof(fromBytes32(a));
    return {
      address: bs58.encode(a),
      higherRangeAddress: bs58.encode(toBytes32(np.lowElement.nextValue)),
      lowElementLeafIndex: np.lowElementIndex,
      lowerRangeAddress: bs58.encode(toBytes32(np.lowElement.value)),
      merkleTree: ADDRESS_TREE_V1,
      nextIndex: np.lowElement.nextIndex,
      proof: np.proof.map((n) => bs58.encode(n)),
      root: bs58.encode(np.root),
      rootSeq: np.rootSeq,
    };
  }

  function newAddressIn(v: unknown, field: string): Uint8Array {
    const a = b58(v, field);
    checkAddressValue(a, field);
    if (store.addressTree.has(fromBytes32(a))) throw invalid(field, `address ${v as string} already exists`);
    return a;
  }

  const methods: Record<string, RpcHandler> = {
    getCompressedAccount(raw) {
      const p = paramsObject(raw, 'getCompressedAccount');
      const hasHash = p.hash !== undefined && p.hash !== null;
      const hasAddress = p.address !== undefined && p.address !== null;
      if (!hasHash && !hasAddress) throw invalid('hash', 'give hash or address');
      let acc: AccountRecord | undefined;
      if (hasHash) acc = liveByHash(bs58.encode(b58(p.hash, 'hash')));
      if (hasAddress) {
        const byAddr = store.byAddress(bs58.encode(b58(p.address, 'address')));
        const live = byAddr && byAddr.closedBy === null ? byAddr : undefined;
        acc = hasHash ? (acc === live ? acc : undefined) : live;
      }
      return { context: ctx(), value: acc ? accountJson(acc) : null };
    },
    getCompressedAccountProof(raw) {
      const p = paramsObject(raw, 'getCompressedAccountProof');
      const hash = bs58.encode(b58(p.hash, 'hash'));
      const acc = liveByHash(hash);
      if (!acc) throw new DevnetRpcError(NOT_FOUND, `Record Not Found: no unspent compressed account with hash ${hash}`);
      const t = store.stateTree;
      return {
        context: ctx(),
        value: {
          hash,
          leafIndex: acc.leafIndex,
          merkleTree: STATE_TREE_V1,
          proof: t.proof(acc.leafIndex).map((n) => bs58.encode(n)),
          root: bs58.encode(t.root()),
          rootSeq: t.seq,
        },
      };
    },
    getMultipleNewAddressProofs(raw) {
      if (!Array.isArray(raw)) throw invalid('params', `getMultipleNewAddressProofs takes an ARRAY of base58 addresses, got ${describe(raw)}`);
      const list = arr(raw, 'params', { max: MAX_PAGE, min: 1 });
      const addrs = list.map((v, i) => newAddressIn(v, `params[${i}]`));
      return { context: ctx(), value: addrs.map(addressProof) };
    },
    getValidityProof(raw) {
      const p = paramsObject(raw, 'getValidityProof');
      const hashes = p.hashes === undefined || p.hashes === null ? [] : arr(p.hashes, 'hashes', { max: 8 });
      let news: unknown[] = [];
      let newField = 'newAddressesWithTrees';
      if (p.newAddressesWithTrees !== undefined && p.newAddressesWithTrees !== null) news = arr(p.newAddressesWithTrees, 'newAddressesWithTrees', { max: MAX_NEW_ADDRESSES });
      else if (p.newAddresses !== undefined && p.newAddresses !== null) {
        newField = 'newAddresses';
        news = arr(p.newAddresses, 'newAddresses', { max: MAX_NEW_ADDRESSES });
      }
      if (hashes.length === 0 && news.length === 0) throw invalid('hashes', 'give at least one account hash or one new address');
      if (hashes.length > 0 && !INCLUSION_SIZES.includes(hashes.length)) throw invalid('hashes', `the v1 circuits prove 1, 2, 3, 4 or 8 accounts, got ${hashes.length}`);
      if (hashes.length > 4 && news.length > 0) throw invalid('hashes', `a combined proof covers at most 4 accounts, got ${hashes.length}`);
      const seen = new Set<string>();
      const accounts = hashes.map((h, i) => {
        const t = bs58.encode(b58(h, `hashes[${i}]`));
        if (seen.has(t)) throw invalid(`hashes[${i}]`, `duplicate hash ${t}`);
        seen.add(t);
        const a = liveByHash(t);
        if (!a) throw new DevnetRpcError(NOT_FOUND, `Record Not Found: no unspent compressed account with hash ${t} (hashes[${i}])`);
        return a;
      });
      const seenAddr = new Set<string>();
      const addrs = news.map((n, i) => {
        const a = pickAddress(n, i);
        const t = bs58.encode(a);
        if (seenAddr.has(t)) throw invalid(`${newField}[${i}]`, `duplicate address ${t}`);
        seenAddr.add(t);
        return a;
      });
      function pickAddress(n: unknown, i: number): Uint8Array {
        if (newField === 'newAddresses') return newAddressIn(n, `newAddresses[${i}]`);
        const o = obj(n, `newAddressesWithTrees[${i}]`);
        if (!o) throw invalid(`newAddressesWithTrees[${i}]`, 'expected {address, tree}');
        const a = newAddressIn(o.address, `newAddressesWithTrees[${i}].address`);
        const tree = bs58.encode(b58(o.tree, `newAddressesWithTrees[${i}].tree`));
        if (tree !== ADDRESS_TREE_V1) throw invalid(`newAddressesWithTrees[${i}].tree`, `unknown address tree ${tree}; the devnet's is ${ADDRESS_TREE_V1}`);
        return a;
      }
      const st = store.stateTree;
      const stateRoot = st.root();
      const roots: string[] = [];
      const rootIndices: number[] = [];
      const leafIndices: number[] = [];
      const leaves: string[] = [];
      const merkleTrees: string[] = [];
      const publicInputs: Uint8Array[] = [];
      for (const a of accounts) {
        roots.push(bs58.encode(stateRoot));
        rootIndices.push(st.seq % ROOT_HISTORY);
        leafIndices.push(a.leafIndex);
        leaves.push(a.hashText);
        merkleTrees.push(STATE_TREE_V1);
      }
      publicInputs.push(...accounts.map(() => stateRoot), ...accounts.map((a) => a.hash));
      for (const a of addrs) {
        const np = store.addressTree.nonInclusionProof(fromBytes32(a));
        roots.push(bs58.encode(np.root));
        rootIndices.push(np.rootSeq % ROOT_HISTORY);
        leafIndices.push(np.lowElementIndex);
        leaves.push(bs58.encode(a));
        merkleTrees.push(ADDRESS_TREE_V1);
        publicInputs.push(np.root);
      }
      publicInputs.push(...addrs);
      // Seeded by the public inputs: the same request gets the same (well-formed, non-verifying) proof.
      const seed = new Uint8Array(publicInputs.length * 32);
      publicInputs.forEach((x, i) => seed.set(x, i * 32));
      return {
        context: ctx(),
        value: {
          compressedProof: fakeCompressedProofJson(seed),
          roots,
          rootIndices,
          leafIndices,
          leaves,
          merkleTrees,
        },
      };
    },
    getCompressedTokenAccountsByOwner: (raw) => tokenPage(paramsObject(raw, 'getCompressedTokenAccountsByOwner'), 'owner'),
    getCompressedTokenAccountsByDelegate: (raw) => tokenPage(paramsObject(raw, 'getCompressedTokenAccountsByDelegate'), 'delegate'),
    getLatestCompressionSignatures: (raw) => signaturePage(paramsObject(raw, 'getLatestCompressionSignatures'), () => true),
    getCompressionSignaturesForTokenOwner(raw) {
      const p = paramsObject(raw, 'getCompressionSignaturesForTokenOwner');
      const owner = bs58.encode(b58(p.owner, 'owner'));
      return signaturePage(p, (t) => t.tokenOwners.has(owner));
    },
    getTransactionWithCompressionInfo(raw) {
      const p = paramsObject(raw, 'getTransactionWithCompressionInfo');
      const sig = p.signature;
      b58(sig, 'signature', 64);
      const tx = chain.transaction(sig as string);
      if (!tx) throw new DevnetRpcError(NOT_FOUND, `Transaction not found: ${sig as string}`);
      const info = store.transaction(sig as string);
      return {
        compression_info: {
          closedAccounts: info ? info.closed.map(openedClosedJson) : [],
          openedAccounts: info ? info.opened.map(openedClosedJson) : [],
        },
        transaction: confirmedTransactionJson(tx),
      };
    },
  };

  return {
    methods,
    store,
    createCompressedAccount,
    createAddress,
    mintCompressedTokens,
    transferCompressedTokens,
    deriveAddress,
    close() {
      sender.close();
    },
  };
}
