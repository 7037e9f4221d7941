/**
 * The compression module's control functions (`createCompressedAccount`, `createAddress`,
 * `mintCompressedTokens`, `transferCompressedTokens`): each submits a real authority-signed
 * transaction (das-transaction.ts) and applies its change to the store when that transaction has
 * executed, so every compression signature is a real, confirmable one with a slot and a block time.
 * Accounts and addresses an operation claims are reserved until then.
 */
import bs58 from 'bs58';
import { deriveAddressSeedV1, deriveAddressV1 } from '../merkle/address.js';
import { bytesIn, checkAddressValue, u64In, type Bytesish } from './compression-inputs.js';
import { accountJson, openedClosedJson } from './compression-json.js';
import { newTokenAccount, plainDataHash, unspentTokenAccounts, type AccountRecord, type CompressionStore, type NewAccount } from './compression-store.js';
import type { AuthorityTxSender } from './das-transaction.js';
import { describe, invalid, withSignal } from './das-params.js';
import { fromBytes32 } from './merkle-tree.js';
import { DevnetRpcError } from './types.js';

export interface CreateCompressedAccountInput {
  owner: Bytesish;
  lamports?: bigint | number;
  data?: { discriminator: Uint8Array | bigint | number; data: Uint8Array; dataHash?: Uint8Array };
  /** An address (already derived) or seeds + programId to derive a v1 address in the devnet's tree. */
  address?: Bytesish;
  seeds?: Uint8Array[];
  programId?: Bytesish;
}

export interface AddressInput {
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

/** What the operations share: the store, the authority's sender, and what is claimed but not executed. */
export interface CompressionOps {
  store: CompressionStore;
  sender: AuthorityTxSender;
  reservedHashes: Set<string>;
  reservedAddresses: Set<string>;
}

interface Prepared {
  spend: AccountRecord[];
  addresses: Uint8Array[];
  open: NewAccount[];
  touched: Uint8Array[];
}

/** Prepare an operation (its checks throw before anything is sent), send it, and apply it once executed. */
async function runOperation(ops: CompressionOps, prepare: () => Prepared, signal?: AbortSignal) {
  const { store, reservedHashes, reservedAddresses } = ops;
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
    sent = ops.sender.send([store.stateTreeBytes, ...(p.addresses.length ? [store.addressTreeBytes] : []), ...p.touched]);
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

function claimAddress(ops: CompressionOps, a: Uint8Array, field: string): void {
  checkAddressValue(a, field);
  const t = bs58.encode(a);
  if (ops.store.addressTree.has(fromBytes32(a)) || ops.reservedAddresses.has(t)) throw invalid(field, `address ${t} already exists`);
}

/** The v1 address `seeds` + `programId` give in the store's address tree. */
export function deriveAddress(store: CompressionStore, seeds: Uint8Array[], programId: Bytesish): string {
  const seed = deriveAddressSeedV1(seeds, bytesIn(programId, 'programId'));
  return bs58.encode(deriveAddressV1(seed, store.addressTreeBytes));
}

function resolveAddress(store: CompressionStore, input: AddressInput): Uint8Array | null {
  if (input.address !== undefined) return bytesIn(input.address, 'address');
  if (input.seeds !== undefined) {
    if (!Array.isArray(input.seeds) || !input.seeds.every((s) => s instanceof Uint8Array)) throw invalid('seeds', 'expected an array of Uint8Array');
    return bs58.decode(deriveAddress(store, input.seeds, input.programId as Bytesish));
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

export async function createCompressedAccount(ops: CompressionOps, input: CreateCompressedAccountInput, o: { signal?: AbortSignal } = {}): Promise<CompressionOpResult & { account: Record<string, unknown> }> {
  const r = await runOperation(ops, () => {
    const owner = bytesIn(input.owner, 'owner');
    const lamports = u64In(input.lamports, 'lamports', 0n);
    const address = resolveAddress(ops.store, input);
    if (address) claimAddress(ops, address, 'address');
    const data = input.data !== undefined ? accountData(input.data) : null;
    return { spend: [], addresses: address ? [address] : [], open: [{ owner, lamports, address, data, token: null }], touched: [owner] };
  }, o.signal);
  return { signature: r.signature, slot: r.slot, opened: r.opened, closed: r.closed, account: accountJson(r.records[0]) };
}

export async function createAddress(ops: CompressionOps, input: AddressInput, o: { signal?: AbortSignal } = {}): Promise<{ signature: string; address: string }> {
  let text = '';
  const r = await runOperation(ops, () => {
    const address = resolveAddress(ops.store, input);
    if (!address) throw invalid('address', 'give an address, or seeds and programId');
    claimAddress(ops, address, 'address');
    text = bs58.encode(address);
    return { spend: [], addresses: [address], open: [], touched: [] };
  }, o.signal);
  return { signature: r.signature, address: text };
}

export async function mintCompressedTokens(ops: CompressionOps, input: MintCompressedTokensInput, o: { signal?: AbortSignal } = {}): Promise<CompressionOpResult> {
  const r = await runOperation(ops, () => {
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

export async function transferCompressedTokens(ops: CompressionOps, input: TransferCompressedTokensInput, o: { signal?: AbortSignal } = {}): Promise<CompressionOpResult> {
  const r = await runOperation(ops, () => {
    const owner = bytesIn(input.owner, 'owner');
    const mint = bytesIn(input.mint, 'mint');
    const to = bytesIn(input.to, 'to');
    const amount = u64In(input.amount, 'amount');
    const ownerText = bs58.encode(owner);
    const mintText = bs58.encode(mint);
    // Largest first, at most 8 inputs (the biggest inclusion circuit).
    const candidates = unspentTokenAccounts(ops.store, (t) => bs58.encode(t.owner) === ownerText && bs58.encode(t.mint) === mintText && !t.frozen)
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
    const open = [newTokenAccount({ mint, owner: to, amount, delegate: null, frozen: false })];
    if (total > amount) open.push(newTokenAccount({ mint, owner, amount: total - amount, delegate: null, frozen: false }));
    return { spend, addresses: [], open, touched: [mint, owner, to] };
  }, o.signal);
  return { signature: r.signature, slot: r.slot, opened: r.opened, closed: r.closed };
}
