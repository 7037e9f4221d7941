/**
 * The compression module's control functions (`createCompressedAccount`, `createAddress`,
 * `mintCompressedTokens`, `transferCompressedTokens`): each submits a real authority-signed
 * transaction (chain/authority-tx.ts) and applies its change to the store when that transaction has
 * executed, so every compression signature is a real, confirmable one with a slot and a block time.
 * Accounts and addresses an operation claims are reserved until then.
 *
 * Which trees: each input takes `version` (1 by default). With `version: 2` new accounts go to the v2
 * (batched, height 32) state tree and new addresses to the v2 (height 40) address tree, with v2's
 * hashing and address derivation; inputs are spent from whichever tree holds them.
 */
import { encodeBase58, base58Bytes } from '../../solana/index.js';
import { deriveAddressSeedV1, deriveAddressSeedV2, deriveAddressV1, deriveAddressV2 } from '../../merkle/index.js';
import { bytesIn, checkAddressValue, u64In, type Bytesish } from './inputs.js';
import { accountJson, openedClosedJson } from './json.js';
import {
  newTokenAccount,
  plainDataHash,
  unspentTokenAccounts,
  type AccountRecord,
  type CompressionStore,
  type NewAccount,
  type NewAddress,
  type TreeVersion,
} from './store.js';
import type { AuthorityTxSender } from '../chain/authority-tx.js';
import { describe, invalid, withSignal } from '../params/indexer.js';
import { fromBytes32 } from '../trees/merkle.js';
import { DevnetRpcError } from '../types.js';

export interface CreateCompressedAccountInput {
  owner: Bytesish;
  lamports?: bigint | number;
  data?: { discriminator: Uint8Array | bigint | number; data: Uint8Array; dataHash?: Uint8Array };
  /** An address (already derived) or seeds + programId to derive one in the devnet's address tree of `version`. */
  address?: Bytesish;
  seeds?: Uint8Array[];
  programId?: Bytesish;
  /** The generation of trees the account (and its address) goes to: 1 (default) or 2. */
  version?: TreeVersion;
}

export interface AddressInput {
  address?: Bytesish;
  seeds?: Uint8Array[];
  programId?: Bytesish;
  /** The address tree: v1 (default) or v2. */
  version?: TreeVersion;
}

export interface MintCompressedTokensInput {
  mint: Bytesish;
  recipients: { owner: Bytesish; amount: bigint | number; delegate?: Bytesish }[];
  /** The state tree the new token accounts go to: v1 (default) or v2. */
  version?: TreeVersion;
}

export interface TransferCompressedTokensInput {
  owner: Bytesish;
  mint: Bytesish;
  to: Bytesish;
  amount: bigint | number;
  /** The state tree the outputs go to: v1 (default) or v2. */
  version?: TreeVersion;
}

export interface CompressionOpResult {
  signature: string;
  slot: number;
  opened: Record<string, unknown>[];
  closed: Record<string, unknown>[];
}

/** What the operations share: the store, the authority's sender, and what is claimed but not executed. */
export interface CompressionOps {
  store: CompressionStore;
  sender: AuthorityTxSender;
  reservedHashes: Set<string>;
  reservedAddresses: Set<string>;
}

interface Prepared {
  spend: AccountRecord[];
  addresses: NewAddress[];
  open: NewAccount[];
  touched: Uint8Array[];
}

/** Prepare an operation (its checks throw before anything is sent), send it, and apply it once executed. */
async function runOperation(ops: CompressionOps, prepare: () => Prepared, signal?: AbortSignal) {
  const { store, reservedHashes, reservedAddresses } = ops;
  const p = prepare();
  const hashes = p.spend.map((a) => a.hashText);
  const addrs = p.addresses.map((a) => encodeBase58(a.value));
  for (const h of hashes) reservedHashes.add(h);
  for (const a of addrs) reservedAddresses.add(a);
  const release = () => {
    for (const h of hashes) reservedHashes.delete(h);
    for (const a of addrs) reservedAddresses.delete(a);
  };
  let sent;
  try {
    // The transaction write-locks the trees it changes, as a real one does.
    const versions = new Set<TreeVersion>([...p.spend.map((a) => a.version), ...p.open.map((a) => a.version ?? 1)]);
    const trees = [...versions].map((v) => store.stateTrees[v].bytes);
    for (const v of new Set(p.addresses.map((a) => a.version))) trees.push(store.addressTrees[v].bytes);
    sent = ops.sender.send([...(trees.length ? trees : [store.stateTreeBytes]), ...p.touched]);
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

function versionIn(v: unknown): TreeVersion {
  if (v === undefined) return 1;
  if (v !== 1 && v !== 2) throw invalid('version', `expected 1 or 2, got ${describe(v)}`);
  return v;
}

function claimAddress(ops: CompressionOps, a: NewAddress, field: string): void {
  checkAddressValue(a.value, field);
  const t = encodeBase58(a.value);
  // An address is unique across both generations: the devnet refuses to create it twice anywhere.
  const taken = ops.store.addressTrees[1].merkle.has(fromBytes32(a.value)) || ops.store.addressTrees[2].merkle.has(fromBytes32(a.value));
  if (taken || ops.reservedAddresses.has(t)) throw invalid(field, `address ${t} already exists`);
}

/** The address `seeds` + `programId` give in the store's address tree of `version` (v1 by default). */
export function deriveAddress(store: CompressionStore, seeds: Uint8Array[], programId: Bytesish, version: TreeVersion = 1): string {
  const program = bytesIn(programId, 'programId');
  if (versionIn(version) === 2) return encodeBase58(deriveAddressV2(deriveAddressSeedV2(seeds), store.addressTrees[2].bytes, program));
  return encodeBase58(deriveAddressV1(deriveAddressSeedV1(seeds, program), store.addressTreeBytes));
}

function resolveAddress(store: CompressionStore, input: AddressInput): NewAddress | null {
  const version = versionIn(input.version);
  if (input.address !== undefined) return { value: bytesIn(input.address, 'address'), version };
  if (input.seeds !== undefined) {
    if (!Array.isArray(input.seeds) || !input.seeds.every((s) => s instanceof Uint8Array)) throw invalid('seeds', 'expected an array of Uint8Array');
    return { value: base58Bytes(deriveAddress(store, input.seeds, input.programId as Bytesish, version)), version };
  }
  return null;
}

/** The new account's data: an 8-byte discriminator, the bytes, and a data hash below the field modulus. */
function accountData(d: NonNullable<CreateCompressedAccountInput['data']>): NewAccount['data'] {
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
  return { discriminator: disc, data: d.data, dataHash };
}

export async function createCompressedAccount(
  ops: CompressionOps,
  input: CreateCompressedAccountInput,
  o: { signal?: AbortSignal } = {},
): Promise<CompressionOpResult & { account: Record<string, unknown> }> {
  const r = await runOperation(ops, () => {
    const owner = bytesIn(input.owner, 'owner');
    const lamports = u64In(input.lamports, 'lamports', 0n);
    const version = versionIn(input.version);
    const address = resolveAddress(ops.store, input);
    if (address) claimAddress(ops, address, 'address');
    const data = input.data !== undefined ? accountData(input.data) : null;
    return {
      spend: [],
      addresses: address ? [address] : [],
      open: [{ owner, lamports, address: address?.value ?? null, data, token: null, version }],
      touched: [owner],
    };
  }, o.signal);
  return { signature: r.signature, slot: r.slot, opened: r.opened, closed: r.closed, account: accountJson(r.records[0]) };
}

export async function createAddress(
  ops: CompressionOps,
  input: AddressInput,
  o: { signal?: AbortSignal } = {},
): Promise<{ signature: string; address: string }> {
  let text = '';
  const r = await runOperation(
    ops,
    () => {
      const address = resolveAddress(ops.store, input);
      if (!address) throw invalid('address', 'give an address, or seeds and programId');
      claimAddress(ops, address, 'address');
      text = encodeBase58(address.value);
      return { spend: [], addresses: [address], open: [], touched: [] };
    },
    o.signal,
  );
  return { signature: r.signature, address: text };
}

export async function mintCompressedTokens(
  ops: CompressionOps,
  input: MintCompressedTokensInput,
  o: { signal?: AbortSignal } = {},
): Promise<CompressionOpResult> {
  const r = await runOperation(ops, () => {
    const mint = bytesIn(input.mint, 'mint');
    const version = versionIn(input.version);
    if (!Array.isArray(input.recipients) || input.recipients.length === 0) throw invalid('recipients', 'expected a non-empty array');
    const open = input.recipients.map((x, i) => ({
      ...newTokenAccount({
        mint,
        owner: bytesIn(x.owner, `recipients[${i}].owner`),
        amount: u64In(x.amount, `recipients[${i}].amount`),
        delegate: x.delegate === undefined ? null : bytesIn(x.delegate, `recipients[${i}].delegate`),
        frozen: false,
      }),
      version,
    }));
    return { spend: [], addresses: [], open, touched: [mint, ...open.map((a) => a.token!.owner)] };
  }, o.signal);
  return { signature: r.signature, slot: r.slot, opened: r.opened, closed: r.closed };
}

export async function transferCompressedTokens(
  ops: CompressionOps,
  input: TransferCompressedTokensInput,
  o: { signal?: AbortSignal } = {},
): Promise<CompressionOpResult> {
  const r = await runOperation(ops, () => {
    const owner = bytesIn(input.owner, 'owner');
    const mint = bytesIn(input.mint, 'mint');
    const to = bytesIn(input.to, 'to');
    const amount = u64In(input.amount, 'amount');
    const version = versionIn(input.version);
    const ownerText = encodeBase58(owner);
    const mintText = encodeBase58(mint);
    // Largest first, at most 8 inputs (the biggest inclusion circuit).
    const candidates = unspentTokenAccounts(ops.store, (t) => encodeBase58(t.owner) === ownerText && encodeBase58(t.mint) === mintText && !t.frozen)
      .filter((a) => !ops.reservedHashes.has(a.hashText))
      .sort((x, y) => (y.token!.amount > x.token!.amount ? 1 : y.token!.amount < x.token!.amount ? -1 : 0));
    const spend: AccountRecord[] = [];
    let total = 0n;
    for (const c of candidates) {
      if (total >= amount || spend.length === 8) break;
      spend.push(c);
      total += c.token!.amount;
    }
    if (total < amount) throw invalid('amount', `owner ${ownerText} holds ${total} of mint ${mintText} in spendable accounts (at most 8 inputs), ${amount} requested`);
    const open = [{ ...newTokenAccount({ mint, owner: to, amount, delegate: null, frozen: false }), version }];
    if (total > amount) open.push({ ...newTokenAccount({ mint, owner, amount: total - amount, delegate: null, frozen: false }), version });
    return { spend, addresses: [], open, touched: [mint, owner, to] };
  }, o.signal);
  return { signature: r.signature, slot: r.slot, opened: r.opened, closed: r.closed };
}
