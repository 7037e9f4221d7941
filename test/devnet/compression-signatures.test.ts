// The compression indexer's signature methods on the devnet: which transactions each one lists (by
// account hash, address, owner, token owner, all compression ones, all but votes), Photon's order
// and cursor, the `error` text of a failed transaction, and −32602 naming the field on bad params.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { createChain } from '../../src/devnet/chain/chain.js';
import type { DevnetChain } from '../../src/devnet/chain/contract.js';
import { createCompressionState, type CompressionState } from '../../src/devnet/compression/state.js';
import { signatureCursor, transactionErrorText } from '../../src/devnet/compression/signatures.js';
import { COMPRESSED_TOKEN_PROGRAM } from '../../src/devnet/compression/store.js';
import type { RequestContext } from '../../src/devnet/types.js';
import { buildTx, newAddress, newKeypair, rpcError, waitFor } from '../support/devnet.js';

const ctx: RequestContext = { signal: new AbortController().signal, endpoint: 'rpc' };
let chain: DevnetChain;
let zk: CompressionState;
const call = (method: string, params: unknown): any => zk.methods[method](params, ctx);
const sigs = (r: any): string[] => r.value.items.map((i: any) => i.signature);
const enc = new TextEncoder();

const owner = newAddress();
const program = newAddress();
const mint = newAddress();
const alice = newAddress();
const bob = newAddress();
let created: { signature: string; account: Record<string, any> };
let other: { signature: string; account: Record<string, any> };
let minted: string;
let transfer: { signature: string; closed: any[] };
let failed: string;

beforeAll(async () => {
  chain = createChain({ slotMs: 15, seed: 33 });
  zk = createCompressionState({ chain });
  created = await zk.createCompressedAccount({ owner, lamports: 5n, seeds: [enc.encode('sig')], programId: program, version: 2, data: { discriminator: 1n, data: Uint8Array.from([1]) } });
  other = await zk.createCompressedAccount({ owner, lamports: 6n });
  minted = (await zk.mintCompressedTokens({ mint, recipients: [{ owner: alice, amount: 10n }] })).signature;
  transfer = await zk.transferCompressedTokens({ owner: alice, mint, to: bob, amount: 4n });
  // A transfer of more lamports than the payer has: executes and fails with custom program error 1.
  const payer = newKeypair();
  chain.airdrop(payer.address, 10_000_000n);
  await waitFor(() => chain.balance(payer.address) > 0n);
  const blockhash = chain.latestBlockhash().blockhash;
  // submitted together, so they share a slot (with the two transfers beside it)
  failed = chain.submit(buildTx({ payer, lamports: 50_000_000, blockhash })).signature;
  const ok = [1, 2].map((n) => chain.submit(buildTx({ payer, lamports: 1_000 * n, blockhash })).signature);
  await waitFor(() => chain.transaction(failed) && ok.every((x) => chain.transaction(x)));
});
afterAll(async () => {
  await zk?.close?.();
  await chain?.stop();
});

describe('by account, address, owner and token owner', () => {
  it('getCompressionSignaturesForAccount lists the transactions that opened and closed an account, unpaged', () => {
    const r = call('getCompressionSignaturesForAccount', { hash: created.account.hash });
    expect(r).toEqual({
      context: { slot: expect.any(Number) },
      value: { items: [{ blockTime: expect.any(Number), signature: created.signature, slot: chain.transaction(created.signature)!.slot }] },
    });
    const spent = transfer.closed[0].account.hash;
    expect(sigs(call('getCompressionSignaturesForAccount', { hash: spent }))).toEqual([transfer.signature, minted]);
    expect(rpcError(() => call('getCompressionSignaturesForAccount', { hash: newAddress() })).rpcCode).toBe(-32000);
    expect(rpcError(() => call('getCompressionSignaturesForAccount', {})).message).toMatch(/"hash"/);
    expect(rpcError(() => call('getCompressionSignaturesForAccount', { hash: 'not-base58!' })).message).toMatch(/"hash"/);
  });

  it('getCompressionSignaturesForAddress and …ForOwner (the account owner: a token account is the token program\'s)', () => {
    const byAddress = call('getCompressionSignaturesForAddress', { address: created.account.address });
    expect(sigs(byAddress)).toEqual([created.signature]);
    expect(byAddress.value.cursor).toBeNull();
    expect(call('getCompressionSignaturesForAddress', { address: newAddress() }).value).toEqual({ items: [], cursor: null });
    expect(sigs(call('getCompressionSignaturesForOwner', { owner }))).toEqual([other.signature, created.signature]);
    expect(sigs(call('getCompressionSignaturesForOwner', { owner: alice }))).toEqual([]);
    expect(sigs(call('getCompressionSignaturesForOwner', { owner: COMPRESSED_TOKEN_PROGRAM }))).toEqual([transfer.signature, minted]);
    expect(sigs(call('getCompressionSignaturesForTokenOwner', { owner: alice }))).toEqual([transfer.signature, minted]);
    expect(sigs(call('getCompressionSignaturesForTokenOwner', { owner: bob }))).toEqual([transfer.signature]);
    for (const m of ['getCompressionSignaturesForAddress', 'getCompressionSignaturesForOwner', 'getCompressionSignaturesForTokenOwner']) {
      const field = m.endsWith('Address') ? 'address' : 'owner';
      expect(rpcError(() => call(m, {})).message).toMatch(new RegExp(`"${field}"`));
      expect(rpcError(() => call(m, { [field]: 7 })).rpcCode).toBe(-32602);
      expect(rpcError(() => call(m, { [field]: owner, limit: 0 })).message).toMatch(/"limit"/);
      expect(rpcError(() => call(m, { [field]: owner, cursor: 5 })).message).toMatch(/"cursor"/);
      expect(rpcError(() => call(m, { [field]: owner, cursor: 'abc' })).message).toMatch(/"cursor"/);
      expect(rpcError(() => call(m, [owner])).message).toMatch(/"params"/);
    }
  });
});

describe('latest lists', () => {
  it('getLatestCompressionSignatures: every compression transaction, newest first, paged with Photon\'s cursor', () => {
    const all = call('getLatestCompressionSignatures', {});
    expect(sigs(all)).toEqual([transfer.signature, minted, other.signature, created.signature]);
    const first = call('getLatestCompressionSignatures', { limit: 3 });
    expect(first.value.items).toEqual(all.value.items.slice(0, 3));
    const last = first.value.items[2];
    expect(first.value.cursor).toBe(signatureCursor(last));
    expect(bs58.decode(first.value.cursor)).toHaveLength(72);
    const rest = call('getLatestCompressionSignatures', { cursor: first.value.cursor, limit: 3 });
    expect(rest.value).toEqual({ items: all.value.items.slice(3), cursor: null });
    // the devnet's former cursor, a bare signature, still pages
    expect(call('getLatestCompressionSignatures', { cursor: last.signature }).value.items).toEqual(all.value.items.slice(3));
    // a cursor at a slot with nothing known: everything older
    expect(sigs(call('getLatestCompressionSignatures', { cursor: signatureCursor({ slot: 2 ** 40, signature: failed }) }))).toEqual(sigs(all));
    expect(rpcError(() => call('getLatestCompressionSignatures', { cursor: newAddress() })).message).toMatch(/"cursor"/);
    expect(rpcError(() => call('getLatestCompressionSignatures', { limit: 1001 })).message).toMatch(/"limit"/);
  });

  it('getLatestNonVotingSignatures: the whole ledger but votes, with the runtime error text, no cursor (as Photon)', () => {
    const r = call('getLatestNonVotingSignatures', {});
    expect(Object.keys(r.value)).toEqual(['items']);
    const ledger = chain.ledger();
    expect(r.value.items).toHaveLength(ledger.length);
    const slots = r.value.items.map((i: any) => i.slot);
    expect([...slots].sort((a: number, b: number) => b - a)).toEqual(slots);
    const bad = r.value.items.find((i: any) => i.signature === failed);
    expect(bad).toEqual({ signature: failed, slot: chain.transaction(failed)!.slot, blockTime: expect.any(Number), error: 'Error processing Instruction 0: custom program error: 0x1' });
    expect(r.value.items.find((i: any) => i.signature === minted).error).toBeNull();
    const two = call('getLatestNonVotingSignatures', { limit: 2 }).value.items;
    expect(two).toEqual(r.value.items.slice(0, 2));
    const next = call('getLatestNonVotingSignatures', { limit: 2, cursor: signatureCursor(two[1]) }).value.items;
    expect(next).toEqual(r.value.items.slice(2, 4));
    // page by page, one item at a time, the walk gives the whole list (slots holding several included)
    const at = r.value.items;
    const walked: any[] = [];
    for (let cursor: string | undefined; walked.length < at.length;) {
      const got = call('getLatestNonVotingSignatures', { limit: 1, cursor }).value.items;
      if (got.length === 0) break;
      walked.push(got[0]);
      cursor = signatureCursor(got[0]);
    }
    expect(walked).toEqual(at);
    expect(new Set(at.map((i: any) => i.slot)).size).toBeLessThan(at.length);
    expect(rpcError(() => call('getLatestNonVotingSignatures', { limit: -1 })).message).toMatch(/"limit"/);
    expect(rpcError(() => call('getLatestNonVotingSignatures', 'x')).message).toMatch(/"params"/);
  });

  it('error text: the runtime\'s Display for the common errors, the JSON otherwise', () => {
    expect(transactionErrorText(null)).toBeNull();
    expect(transactionErrorText('InsufficientFundsForFee')).toBe('Insufficient funds for fee');
    expect(transactionErrorText({ InstructionError: [2, 'InvalidInstructionData'] })).toBe('Error processing Instruction 2: invalid instruction data');
    expect(transactionErrorText({ InstructionError: [0, { Custom: 6001 }] })).toBe('Error processing Instruction 0: custom program error: 0x1771');
    expect(transactionErrorText({ InsufficientFundsForRent: { account_index: 1 } })).toBe('Transaction results in an account (1) with insufficient funds for rent');
    expect(transactionErrorText({ Other: 1 })).toBe('{"Other":1}');
  });
});
