/**
 * helius-sdk 3.2's `zk` namespace (the compression indexer's methods) against the devnet, on state
 * entered through the devnet's compression control: two compressed accounts (one with an address),
 * compressed tokens minted to a holder (part delegated) and a transfer. Each answer is checked against
 * that state; the `zk` methods the devnet does not serve are named, each refused with -32601.
 */
import { heliusOnDevnet, type HeliusOnDevnet } from '../support/helius-sdk.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newAddress } from '../support/devnet.js';
import { ADDRESS_TREE_V1, STATE_TREE_V1 } from '../../src/devnet/compression/store.js';

let h: HeliusOnDevnet;
const owner = newAddress();
const program = newAddress();
const mint = newAddress();
const holder = newAddress();
const delegate = newAddress();
let account: Record<string, any>;
let transferSig = '';

beforeAll(async () => {
  // The stand-in proof: the SDK's validity-proof answer is checked for its leaves and roots, not the proof
  // (made and verified in test/devnet/validity-proofs*.test.ts); a real one costs seconds of proving.
  h = await heliusOnDevnet({ slotMs: 20, validityProofs: 'fake' });
  const zk = h.devnet.compression!;
  account = (await zk.createCompressedAccount({ owner, lamports: 1_000n, seeds: [new TextEncoder().encode('helius-zk')], programId: program, data: { discriminator: 7n, data: Uint8Array.from([1, 2, 3]) } })).account;
  await zk.createCompressedAccount({ owner, lamports: 5n });
  await zk.mintCompressedTokens({ mint, recipients: [{ owner: holder, amount: 100n }, { owner: holder, amount: 40n, delegate }] });
  transferSig = (await zk.transferCompressedTokens({ owner: holder, mint, to: owner, amount: 30n })).signature;
});
afterAll(async () => {
  expect(h?.redirect.refused ?? []).toEqual([]);
  await h?.stop();
});

describe('helius-sdk zk against the devnet', () => {
  it('accounts and balances: by hash, by address, by owner, many', async () => {
    const byHash = await h.helius.zk.getCompressedAccount({ hash: account.hash });
    expect(byHash.value).toMatchObject({ hash: account.hash, address: account.address, lamports: 1000, owner, tree: STATE_TREE_V1 });
    expect((await h.helius.zk.getCompressedAccount({ address: account.address })).value.hash).toBe(account.hash);
    expect((await h.helius.zk.getCompressedBalance({ hash: account.hash })).value).toBe(1000);
    expect((await h.helius.zk.getCompressedBalanceByOwner({ owner })).value).toBe(1005);
    const list = await h.helius.zk.getCompressedAccountsByOwner({ owner, limit: 1 });
    expect(list.value.items).toHaveLength(1);
    const rest = await h.helius.zk.getCompressedAccountsByOwner({ owner, limit: 1, cursor: list.value.cursor });
    expect([list.value.items[0].hash, rest.value.items[0].hash]).toContain(account.hash);
    const many = await h.helius.zk.getMultipleCompressedAccounts({ hashes: [account.hash] });
    expect(many.value.items.map((a: { hash: string }) => a.hash)).toEqual([account.hash]);
  });

  it('proofs: account proofs, new-address proofs (V1 and V2 forms) and a validity proof', async () => {
    const proof = await h.helius.zk.getCompressedAccountProof({ hash: account.hash });
    expect(proof.value).toMatchObject({ hash: account.hash, merkleTree: STATE_TREE_V1, leafIndex: account.leafIndex });
    expect(proof.value.proof).toHaveLength(26);
    const proofs = await h.helius.zk.getMultipleCompressedAccountProofs([account.hash]);
    expect(proofs.value[0].root).toBe(proof.value.root);
    const fresh = h.devnet.compression!.deriveAddress([new TextEncoder().encode('not-yet')], program);
    const nap = await h.helius.zk.getMultipleNewAddressProofs([fresh]);
    expect(nap.value[0]).toMatchObject({ address: fresh, merkleTree: ADDRESS_TREE_V1 });
    const nap2 = await h.helius.zk.getMultipleNewAddressProofsV2([{ address: fresh, tree: ADDRESS_TREE_V1 }]);
    expect(nap2.value[0].address).toBe(fresh);
    const validity = await h.helius.zk.getValidityProof({ hashes: [account.hash], newAddressesWithTrees: [{ address: fresh, tree: ADDRESS_TREE_V1 }] });
    // v1's parallel arrays hold the accounts, then the new addresses
    expect(validity.value.leaves[0]).toBe(account.hash);
    expect(validity.value.leaves).toHaveLength(2);
    expect(validity.value.roots[0]).toBe(proof.value.root);
  });

  it('tokens: by owner, by delegate, balances, holders, and the compression signatures', async () => {
    const toks = await h.helius.zk.getCompressedTokenAccountsByOwner({ owner: holder, mint });
    expect(toks.value.items.map((t: { tokenData: { amount: number } }) => t.tokenData.amount).sort((a: number, b: number) => a - b)).toEqual([40, 70]);
    const del = await h.helius.zk.getCompressedTokenAccountsByDelegate({ delegate });
    expect(del.value.items.map((t: { tokenData: { amount: number } }) => t.tokenData.amount)).toEqual([40]);
    const one = toks.value.items[0];
    expect((await h.helius.zk.getCompressedTokenAccountBalance({ hash: one.account.hash })).value.amount).toBe(one.tokenData.amount);
    expect((await h.helius.zk.getCompressedTokenBalancesByOwner({ owner: holder })).value.tokenBalances).toEqual([{ mint, balance: 110 }]);
    expect((await h.helius.zk.getCompressedTokenBalancesByOwnerV2({ owner: holder })).value.items).toEqual([{ mint, balance: 110 }]);
    const holders = await h.helius.zk.getCompressedMintTokenHolders({ mint });
    expect(holders.value.items).toEqual([{ owner: holder, balance: 110 }, { owner, balance: 30 }]);
    const sigs = await h.helius.zk.getCompressionSignaturesForTokenOwner({ owner });
    expect(sigs.value.items.map((s: { signature: string }) => s.signature)).toContain(transferSig);
    const latest = await h.helius.zk.getLatestCompressionSignatures({ limit: 10 });
    expect(latest.value.items.map((s: { signature: string }) => s.signature)).toContain(transferSig);
    const info = await h.helius.zk.getTransactionWithCompressionInfo({ signature: transferSig });
    expect(info.compression_info.openedAccounts.length).toBeGreaterThan(0);
  });

  it('the indexer: health and slot', async () => {
    expect(await h.helius.zk.getIndexerHealth()).toBe('ok');
    expect(await h.helius.zk.getIndexerSlot()).toBeGreaterThan(0);
  });

  it('the signature methods: each answers, or (not served yet) is refused with -32601 and named', async () => {
    // Another part of the devnet is adding these now: a served one must answer, an unserved one
    // must be refused as a method the devnet lacks, never fail in some other way.
    const served = new Set(h.devnet.control.methods());
    const calls: [string, () => Promise<unknown>][] = [
      ['getCompressionSignaturesForAccount', () => h.helius.zk.getCompressionSignaturesForAccount({ hash: account.hash })],
      ['getCompressionSignaturesForAddress', () => h.helius.zk.getCompressionSignaturesForAddress({ address: account.address })],
      ['getCompressionSignaturesForOwner', () => h.helius.zk.getCompressionSignaturesForOwner({ owner })],
      ['getLatestNonVotingSignatures', () => h.helius.zk.getLatestNonVotingSignatures({ limit: 10 })],
    ];
    const unserved: string[] = [];
    for (const [name, call] of calls) {
      if (served.has(name)) {
        const r = (await call()) as { value: { items: unknown[] } };
        expect(r.value.items.length, name).toBeGreaterThan(0);
      } else {
        unserved.push(name);
        await expect(call(), name).rejects.toThrow(new RegExp(`RPC error \\(${name}\\)`));
      }
    }
  });

  it('getSignaturesForAsset (the DAS method the zk namespace names too): the DAS shape, empty for an asset never minted', async () => {
    // the devnet keeps each cNFT's history (the DAS file checks a minted one); an unknown id has none
    expect(h.devnet.control.methods()).toContain('getSignaturesForAsset');
    const r = await h.helius.zk.getSignaturesForAsset({ id: newAddress(), page: 1 });
    expect(r).toMatchObject({ total: 0, limit: 1000, items: [] });
  });
});
