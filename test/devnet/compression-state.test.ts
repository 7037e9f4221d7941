import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import bs58 from 'bs58';
import { Keypair } from '@solana/web3.js';
import { createChain } from '../../src/devnet/chain/chain.js';
import type { DevnetChain } from '../../src/devnet/chain/contract.js';
import { createCompressionState, type CompressionState } from '../../src/devnet/compression/state.js';
import type { RequestContext } from '../../src/devnet/types.js';
import { rpcError } from '../support/devnet.js';
import { verifyAccountHash, verifyAccountProof } from '../../src/merkle/compressed/account.js';
import { parseAccountProof, parseCompressedAccount } from '../../src/merkle/compressed/account-parse.js';
import { parseNewAddressProof, verifyNewAddressProof } from '../../src/merkle/compressed/address.js';
import { g1FromBytes, g2FromBytes } from '../../src/crypto/bn254.js';
import { ADDRESS_TREE_V1, STATE_TREE_V1 } from '../../src/devnet/compression/store.js';

const ctx: RequestContext = { signal: new AbortController().signal, endpoint: 'rpc' };
const addr = () => Keypair.generate().publicKey.toBase58();
const photon = (name: string) => JSON.parse(fs.readFileSync(new URL(`../vectors/photon/${name}`, import.meta.url), 'utf8'));

let chain: DevnetChain;
let zk: CompressionState;
const call = (method: string, params: unknown): any => zk.methods[method](params, ctx);

function keysDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [keysDeep(v[0])] : [];
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, keysDeep((v as Record<string, unknown>)[k])]));
  return 'leaf';
}

const mint = addr();
const alice = addr();
const bob = addr();
const delegate = addr();
let mintSig = '';

beforeAll(async () => {
  chain = createChain({ slotMs: 15, seed: 9 });
  zk = createCompressionState({ chain });
  const r = await zk.mintCompressedTokens({
    mint,
    recipients: [
      { owner: alice, amount: 100n },
      { owner: alice, amount: 5n },
      { owner: bob, amount: 7n, delegate },
    ],
  });
  mintSig = r.signature;
});
afterAll(async () => {
  await zk.close?.();
  await chain.stop();
});

describe('compressed token accounts', () => {
  it('answer the photon shapes, with hashes and proofs that verify', () => {
    const r = call('getCompressedTokenAccountsByOwner', { owner: alice });
    const vector = photon('e2e_tests__e2e_mint_and_transfer-bob-accounts.json');
    expect(keysDeep(r)).toEqual(keysDeep(vector));
    expect(r.value.cursor).toBeNull();
    expect(r.value.items.map((i: any) => i.tokenData.amount).sort()).toEqual([100, 5].sort());
    for (const item of r.value.items) {
      expect(item.tokenData).toMatchObject({ mint, owner: alice, delegate: null, state: 'initialized', tlv: null });
      expect(item.account).toMatchObject({ tree: STATE_TREE_V1, lamports: 0, address: null, slotCreated: chain.transaction(mintSig)!.slot });
      expect(verifyAccountHash(parseCompressedAccount(item))).toMatchObject({ valid: true });
      const proof = call('getCompressedAccountProof', { hash: item.account.hash });
      expect(keysDeep(proof.value)).toEqual(keysDeep(photon('e2e_tests__e2e_mint_and_transfer-bob-proofs.json').value[0]));
      expect(proof.value.proof).toHaveLength(26);
      expect(verifyAccountProof(parseAccountProof(proof.value))).toMatchObject({ valid: true });
    }
  });

  it('pages with limit and cursor, null at the end; filters by mint and delegate', () => {
    const p1 = call('getCompressedTokenAccountsByOwner', { owner: alice, limit: 1 });
    expect(p1.value.items).toHaveLength(1);
    expect(typeof p1.value.cursor).toBe('string');
    const p2 = call('getCompressedTokenAccountsByOwner', { owner: alice, limit: 1, cursor: p1.value.cursor });
    expect(p2.value.items).toHaveLength(1);
    expect(p2.value.items[0].account.hash).not.toBe(p1.value.items[0].account.hash);
    expect(p2.value.cursor).toBeNull();
    expect(call('getCompressedTokenAccountsByOwner', { owner: alice, mint: addr() }).value.items).toEqual([]);
    const byDelegate = call('getCompressedTokenAccountsByDelegate', { delegate });
    expect(byDelegate.value.items.map((i: any) => [i.tokenData.owner, i.tokenData.amount, i.tokenData.delegate])).toEqual([[bob, 7, delegate]]);
    expect(rpcError(() => call('getCompressedTokenAccountsByOwner', {})).message).toMatch(/"owner"/);
    expect(rpcError(() => call('getCompressedTokenAccountsByOwner', { owner: alice, limit: 0 })).message).toMatch(/"limit"/);
    expect(rpcError(() => call('getCompressedTokenAccountsByOwner', { owner: alice, cursor: addr() })).message).toMatch(/"cursor"/);
  });

  it('a transfer closes its inputs and opens outputs; the old proof no longer leads to the root', async () => {
    const before = call('getCompressedTokenAccountsByOwner', { owner: alice }).value.items;
    const big = before.find((i: any) => i.tokenData.amount === 100);
    const oldProof = call('getCompressedAccountProof', { hash: big.account.hash }).value;
    const t = await zk.transferCompressedTokens({ owner: alice, mint, to: bob, amount: 60n });
    expect(t.closed.map((c: any) => c.account.hash)).toEqual([big.account.hash]);
    expect(t.opened.map((o: any) => [o.optionalTokenData.owner, o.optionalTokenData.amount])).toEqual([[bob, 60], [alice, 40]]);
    const after = call('getCompressedTokenAccountsByOwner', { owner: alice }).value.items;
    expect(after.map((i: any) => i.tokenData.amount).sort()).toEqual([40, 5].sort());
    expect(call('getCompressedAccount', { hash: big.account.hash }).value).toBeNull();
    expect(rpcError(() => call('getCompressedAccountProof', { hash: big.account.hash })).rpcCode).toBe(-32000);
    // The stale proof still walks to the old root, which is no longer the tree's root.
    const root = zk.store.stateTree.root();
    expect(verifyAccountProof(parseAccountProof(oldProof)).valid).toBe(true);
    expect(oldProof.root).not.toBe(bs58.encode(root));
    for (const o of t.opened) {
      const p = call('getCompressedAccountProof', { hash: (o as any).account.hash }).value;
      expect(p.root).toBe(bs58.encode(root));
      expect(verifyAccountProof(parseAccountProof(p)).valid).toBe(true);
    }
    const info = call('getTransactionWithCompressionInfo', { signature: t.signature });
    expect(info.compression_info.closedAccounts.map((c: any) => c.account.hash)).toEqual([big.account.hash]);
    expect(info.compression_info.openedAccounts).toHaveLength(2);
    expect(info.transaction).toMatchObject({ slot: t.slot, meta: { err: null, status: { Ok: null } }, version: 'legacy' });
    expect(Object.keys(info.transaction.meta).sort()).toEqual(Object.keys(photon('e2e_tests__e2e_mint_and_transfer-mint-transaction.json').transaction.meta).sort());
    expect(Object.keys(info.transaction).sort()).toEqual(Object.keys(photon('e2e_tests__e2e_mint_and_transfer-mint-transaction.json').transaction).sort());
    await expect(zk.transferCompressedTokens({ owner: alice, mint, to: bob, amount: 1000n })).rejects.toThrow(/"amount"/);
  });

  it('lists compression signatures newest first, with cursors', () => {
    const all = call('getLatestCompressionSignatures', {});
    expect(all.value.items.length).toBeGreaterThanOrEqual(2);
    expect(all.value.cursor).toBeNull();
    const slots = all.value.items.map((i: any) => i.slot);
    expect([...slots].sort((a, b) => b - a)).toEqual(slots);
    expect(all.value.items.at(-1).signature).toBe(mintSig);
    for (const i of all.value.items) expect(Object.keys(i).sort()).toEqual(['blockTime', 'signature', 'slot']);
    const first = call('getLatestCompressionSignatures', { limit: 1 });
    expect(first.value.items).toEqual([all.value.items[0]]);
    const rest = call('getLatestCompressionSignatures', { limit: 10, cursor: first.value.cursor });
    expect(rest.value.items).toEqual(all.value.items.slice(1));
    expect(rest.value.cursor).toBeNull();
    const forBob = call('getCompressionSignaturesForTokenOwner', { owner: bob });
    expect(forBob.value.items.map((i: any) => i.signature)).toEqual(all.value.items.map((i: any) => i.signature));
    expect(call('getCompressionSignaturesForTokenOwner', { owner: addr() }).value.items).toEqual([]);
    expect(rpcError(() => call('getCompressionSignaturesForTokenOwner', {})).message).toMatch(/"owner"/);
  });
});

describe('compressed accounts and addresses', () => {
  it('creates an account with data and a derived address; finds it by hash and by address', async () => {
    const owner = addr();
    const programId = addr();
    const seeds = [new TextEncoder().encode('profile'), bs58.decode(owner)];
    const address = zk.deriveAddress(seeds, programId);
    const proofBefore = call('getMultipleNewAddressProofs', [address]);
    expect(keysDeep(proofBefore)).toEqual(keysDeep(photon('mock_tests__get_multiple_new_address_proofs_interop.json')));
    expect(verifyNewAddressProof(parseNewAddressProof(proofBefore.value[0]))).toMatchObject({ valid: true });
    const r = await zk.createCompressedAccount({ owner, lamports: 1_000_000n, data: { discriminator: 7n, data: new Uint8Array([1, 2, 3]) }, seeds, programId });
    expect(r.account).toMatchObject({ owner, lamports: 1_000_000, address, data: { discriminator: 7, data: 'AQID' } });
    const byHash = call('getCompressedAccount', { hash: r.account.hash });
    const byAddress = call('getCompressedAccount', { address });
    expect(byHash.value).toEqual(r.account);
    expect(byAddress.value).toEqual(r.account);
    expect(verifyAccountHash(parseCompressedAccount(byHash.value))).toMatchObject({ valid: true });
    expect(rpcError(() => call('getMultipleNewAddressProofs', [address])).message).toMatch(/already exists/);
    await expect(zk.createAddress({ address })).rejects.toThrow(/already exists/);
    expect(call('getCompressedAccount', { hash: bs58.encode(new Uint8Array(32).fill(1)) }).value).toBeNull();
    expect(rpcError(() => call('getCompressedAccount', {})).message).toMatch(/"hash"/);
  });

  it('new-address proofs: array params, many at once, all verify; range and shape errors name the item', async () => {
    const a1 = zk.deriveAddress([new Uint8Array([1])], addr());
    const a2 = zk.deriveAddress([new Uint8Array([2])], addr());
    await zk.createAddress({ address: zk.deriveAddress([new Uint8Array([3])], addr()) });
    const r = call('getMultipleNewAddressProofs', [a1, a2]);
    expect(r.value.map((p: any) => p.address)).toEqual([a1, a2]);
    for (const p of r.value) {
      expect(p.merkleTree).toBe(ADDRESS_TREE_V1);
      expect(p.proof).toHaveLength(26);
      expect(verifyNewAddressProof(parseNewAddressProof(p))).toMatchObject({ valid: true });
    }
    expect(rpcError(() => call('getMultipleNewAddressProofs', { addresses: [a1] })).message).toMatch(/ARRAY/);
    expect(rpcError(() => call('getMultipleNewAddressProofs', [a1, 'nope'])).message).toMatch(/"params\[1\]"/);
    const tooBig = bs58.encode(new Uint8Array(32).fill(0xff));
    expect(rpcError(() => call('getMultipleNewAddressProofs', [tooBig])).message).toMatch(/"params\[0\]".*2\^248/);
  });

  it('getValidityProof: roots, leaves and indices agree with the trees; points decode but are not a real proof', () => {
    const items = call('getCompressedTokenAccountsByOwner', { owner: bob }).value.items;
    const hashes = items.map((i: any) => i.account.hash).slice(0, 2);
    const newAddress = zk.deriveAddress([new Uint8Array([9])], addr());
    const r = call('getValidityProof', { hashes, newAddressesWithTrees: [{ address: newAddress, tree: ADDRESS_TREE_V1 }] });
    const v = r.value;
    expect(keysDeep({ ...v, compressedProof: null })).toEqual(keysDeep({ ...photon('e2e_tests__e2e_mint_and_transfer-bob-validity-proof.json'), compressedProof: null }));
    expect(v.leaves).toEqual([...hashes, newAddress]);
    expect(v.merkleTrees).toEqual([STATE_TREE_V1, STATE_TREE_V1, ADDRESS_TREE_V1]);
    for (let k = 0; k < 2; k++) {
      const p = call('getCompressedAccountProof', { hash: hashes[k] }).value;
      expect(v.roots[k]).toBe(p.root);
      expect(v.leafIndices[k]).toBe(p.leafIndex);
      expect(v.rootIndices[k]).toBe(p.rootSeq % 2400);
    }
    const np = call('getMultipleNewAddressProofs', [newAddress]).value[0];
    expect([v.roots[2], v.leafIndices[2], v.rootIndices[2]]).toEqual([np.root, np.lowElementLeafIndex, np.rootSeq % 2400]);
    const { a, b, c } = v.compressedProof;
    expect([a.length, b.length, c.length]).toEqual([32, 64, 32]);
    expect(() => g1FromBytes(Uint8Array.from(a), 'a')).not.toThrow();
    expect(() => g2FromBytes(Uint8Array.from(b), 'b')).not.toThrow();
    expect(() => g1FromBytes(Uint8Array.from(c), 'c')).not.toThrow();

    expect(rpcError(() => call('getValidityProof', { hashes: [] })).message).toMatch(/"hashes"/);
    const five = Array(5).fill(hashes[0]);
    expect(rpcError(() => call('getValidityProof', { hashes: five })).message).toMatch(/"hashes"/);
    expect(rpcError(() => call('getValidityProof', { hashes: [hashes[0], hashes[0]] })).message).toMatch(/"hashes\[1\]": duplicate/);
    expect(rpcError(() => call('getValidityProof', { hashes: [bs58.encode(new Uint8Array(32).fill(3))] })).rpcCode).toBe(-32000);
    expect(rpcError(() => call('getValidityProof', { newAddressesWithTrees: [{ address: newAddress, tree: addr() }] })).message).toMatch(/"newAddressesWithTrees\[0\]\.tree"/);
    expect(rpcError(() => call('getValidityProof', { newAddressesWithTrees: [1, 2, 3] })).message).toMatch(/"newAddressesWithTrees": at most 2/);
    const twice = { address: newAddress, tree: ADDRESS_TREE_V1 };
    expect(rpcError(() => call('getValidityProof', { newAddressesWithTrees: [twice, twice] })).message).toMatch(/"newAddressesWithTrees\[1\]": duplicate/);
  });

  it('getTransactionWithCompressionInfo: unknown signature is an error; a plain transaction has empty info', () => {
    expect(rpcError(() => call('getTransactionWithCompressionInfo', { signature: bs58.encode(new Uint8Array(64).fill(5)) })).rpcCode).toBe(-32000);
    expect(rpcError(() => call('getTransactionWithCompressionInfo', { signature: 'abc' })).message).toMatch(/"signature"/);
    const mintInfo = call('getTransactionWithCompressionInfo', { signature: mintSig });
    expect(mintInfo.compression_info.closedAccounts).toEqual([]);
    expect(mintInfo.compression_info.openedAccounts).toHaveLength(3);
  });
});
