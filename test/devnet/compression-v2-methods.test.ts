// The compression indexer's V2 methods and its other methods stateless.js calls, on the devnet's
// v1 and v2 trees: shapes, what the answers prove (recomputed here with the Merkle engine's
// hashing), pagination, and −32602 naming the field on bad params.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import bs58 from 'bs58';
import { createChain } from '../../src/devnet/chain/chain.js';
import type { DevnetChain } from '../../src/devnet/chain/contract.js';
import { createCompressionState, type CompressionState } from '../../src/devnet/compression/state.js';
import { ADDRESS_TREE_V1, ADDRESS_TREE_V2, OUTPUT_QUEUE_V2, STATE_TREE_V1, STATE_TREE_V2, CPI_CONTEXT_V2 } from '../../src/devnet/compression/store.js';
import type { RequestContext } from '../../src/devnet/types.js';
import { hashCompressedAccount, TreeType } from '../../src/merkle/compressed/account.js';
import { indexedLeaf } from '../../src/merkle/compressed/address.js';
import { poseidonPathRoot } from '../../src/crypto/poseidon.js';
import { newAddress, rpcError } from '../support/devnet.js';

const ctx: RequestContext = { signal: new AbortController().signal, endpoint: 'rpc' };
let chain: DevnetChain;
let zk: CompressionState;
const call = (method: string, params: unknown): any => zk.methods[method](params, ctx);
const enc = new TextEncoder();
const concat = (xs: string[]) => Buffer.concat(xs.map((x) => bs58.decode(x)));

const owner = newAddress();
const program = newAddress();
const mint = newAddress();
const alice = newAddress();
const bob = newAddress();
const delegate = newAddress();
let v2: Record<string, any>;
let v1: Record<string, any>;

beforeAll(async () => {
  chain = createChain({ slotMs: 15, seed: 21 });
  zk = createCompressionState({ chain });
  v2 = (await zk.createCompressedAccount({ owner, lamports: 2n ** 60n + 7n, seeds: [enc.encode('v2')], programId: program, version: 2, data: { discriminator: 5n, data: Uint8Array.from([9, 8, 7, 6]) } })).account;
  v1 = (await zk.createCompressedAccount({ owner, lamports: 3n, data: { discriminator: 6n, data: Uint8Array.from([1, 2, 3]) } })).account;
  await zk.mintCompressedTokens({
    mint,
    version: 2,
    recipients: [
      { owner: alice, amount: 50n },
      { owner: alice, amount: 20n, delegate },
      { owner: bob, amount: 70n },
    ],
  });
  await zk.mintCompressedTokens({ mint, recipients: [{ owner: alice, amount: 1n }] });
});
afterAll(async () => {
  await zk?.close?.();
  await chain?.stop();
});

function treeOf(version: 1 | 2) {
  return zk.store.stateTrees[version].merkle;
}

describe('v2 trees', () => {
  it('a v2 account sits in the height-32 state tree, hashed with the v2 rule, and its V2 proof walks to the root', () => {
    const r = call('getCompressedAccountV2', { hash: v2.hash });
    expect(r.value).toMatchObject({
      hash: v2.hash,
      leafIndex: 0,
      proveByIndex: false,
      merkleContext: { treeType: 3, tree: STATE_TREE_V2, queue: OUTPUT_QUEUE_V2, cpiContext: CPI_CONTEXT_V2, nextTreeContext: null },
    });
    expect(r.value.tree).toBeUndefined();
    expect(r.value.lamports).toBe(2n ** 60n + 7n);
    const d = new Uint8Array(8);
    new DataView(d.buffer).setBigUint64(0, 5n, true);
    const h = hashCompressedAccount({
      owner: bs58.decode(owner),
      tree: bs58.decode(STATE_TREE_V2),
      leafIndex: 0,
      lamports: 2n ** 60n + 7n,
      address: bs58.decode(v2.address),
      data: { discriminator: d, dataHash: bs58.decode(r.value.data.dataHash) },
      treeType: TreeType.StateV2,
    });
    expect(bs58.encode(h)).toBe(v2.hash);

    const p = call('getCompressedAccountProofV2', { hash: v2.hash }).value;
    expect(p.proof).toHaveLength(32);
    expect(p).toMatchObject({ hash: v2.hash, leafIndex: 0, proveByIndex: false, treeContext: { treeType: 3, tree: STATE_TREE_V2 } });
    expect(bs58.encode(poseidonPathRoot(h, concat(p.proof), 0))).toBe(p.root);
    expect(p.rootSeq).toBe(treeOf(2).seq);
    // The V1 method serves it too, naming its tree.
    expect(call('getCompressedAccountProof', { hash: v2.hash }).value).toMatchObject({ merkleTree: STATE_TREE_V2, root: p.root });
    // A v1 account in the V2 shape names the v1 tree.
    expect(call('getCompressedAccountV2', { hash: v1.hash }).value.merkleContext).toMatchObject({ treeType: 1, tree: STATE_TREE_V1 });
    expect(call('getCompressedAccountProofV2', { hash: v1.hash }).value.proof).toHaveLength(26);
  });

  it('v2 addresses go to the height-40 address tree; getMultipleNewAddressProofsV2 proves non-inclusion there', () => {
    expect(zk.store.addressTrees[2].merkle.has(BigInt('0x' + Buffer.from(bs58.decode(v2.address)).toString('hex')))).toBe(true);
    const fresh = zk.deriveAddress([enc.encode('fresh')], program, 2);
    const r = call('getMultipleNewAddressProofsV2', [{ address: fresh, tree: ADDRESS_TREE_V2 }]);
    const p = r.value[0];
    expect(p.merkleTree).toBe(ADDRESS_TREE_V2);
    expect(p.proof).toHaveLength(40);
    const lo = bs58.decode(p.lowerRangeAddress);
    const hi = bs58.decode(p.higherRangeAddress);
    expect(Buffer.compare(Buffer.from(lo), Buffer.from(bs58.decode(fresh)))).toBe(-1);
    expect(Buffer.compare(Buffer.from(bs58.decode(fresh)), Buffer.from(hi))).toBe(-1);
    const leaf = indexedLeaf(2, lo, BigInt(p.nextIndex), hi);
    expect(bs58.encode(poseidonPathRoot(leaf, concat(p.proof), p.lowElementLeafIndex))).toBe(p.root);
    // The same address in the v1 tree is proven at height 26.
    expect(call('getMultipleNewAddressProofsV2', [{ address: fresh, tree: ADDRESS_TREE_V1 }]).value[0].proof).toHaveLength(26);
    expect(rpcError(() => call('getMultipleNewAddressProofsV2', [{ address: v2.address, tree: ADDRESS_TREE_V2 }])).message).toMatch(/"params\[0\]\.address": .*already exists/);
    expect(rpcError(() => call('getMultipleNewAddressProofsV2', [{ address: fresh, tree: STATE_TREE_V1 }])).message).toMatch(/"params\[0\]\.tree"/);
    expect(rpcError(() => call('getMultipleNewAddressProofsV2', [fresh])).message).toMatch(/"params\[0\]"/);
    expect(rpcError(() => call('getMultipleNewAddressProofsV2', { address: fresh })).message).toMatch(/"params"/);
  });

  it('getValidityProofV2: accounts and addresses with their trees, root indices modulo each tree\'s own history', () => {
    const fresh = zk.deriveAddress([enc.encode('vp')], program, 2);
    const r = call('getValidityProofV2', { hashes: [v2.hash], newAddressesWithTrees: [{ address: fresh, tree: ADDRESS_TREE_V2 }] }).value;
    expect(r.compressedProof.a).toHaveLength(32);
    expect(r.compressedProof.b).toHaveLength(64);
    expect(r.accounts).toEqual([
      {
        hash: v2.hash,
        root: bs58.encode(treeOf(2).root()),
        rootIndex: { rootIndex: treeOf(2).seq % 200, proveByIndex: false },
        leafIndex: 0,
        merkleContext: expect.objectContaining({ treeType: 3, tree: STATE_TREE_V2 }),
      },
    ]);
    const at = zk.store.addressTrees[2].merkle;
    expect(r.addresses).toEqual([
      {
        address: fresh,
        root: bs58.encode(at.tree.root()),
        rootIndex: at.tree.seq % 200,
        merkleContext: expect.objectContaining({ treeType: 4, tree: ADDRESS_TREE_V2, queue: ADDRESS_TREE_V2 }),
      },
    ]);
    // v1 accounts in the V2 shape: root index modulo 2,400.
    const r1 = call('getValidityProofV2', { hashes: [v1.hash] }).value;
    expect(r1.accounts[0].rootIndex.rootIndex).toBe(treeOf(1).seq % 2400);
    expect(r1.addresses).toEqual([]);
    // The V1 method on a v2 account: v1 shape, v2 tree.
    expect(call('getValidityProof', { hashes: [v2.hash] }).value).toMatchObject({ merkleTrees: [STATE_TREE_V2], rootIndices: [treeOf(2).seq % 200] });
    // 5 accounts: no v1 circuit, a v2 one.
    const five = [0, 1, 2, 3, 4].map(() => v2.hash);
    expect(rpcError(() => call('getValidityProofV2', { hashes: five })).message).toMatch(/"hashes\[1\]": duplicate/);
    expect(rpcError(() => call('getValidityProofV2', { hashes: [v1.hash, v2.hash] })).message).toMatch(/"hashes": mixes v1 and v2/);
    expect(rpcError(() => call('getValidityProofV2', { hashes: [v2.hash], newAddressesWithTrees: [{ address: fresh, tree: ADDRESS_TREE_V1 }] })).message).toMatch(/"newAddressesWithTrees": mixes/);
    expect(rpcError(() => call('getValidityProofV2', { newAddresses: [fresh] })).message).toMatch(/"newAddresses"/);
    expect(rpcError(() => call('getValidityProofV2', {})).message).toMatch(/"hashes"/);
    expect(rpcError(() => call('getValidityProofV2', { hashes: 'x' })).message).toMatch(/"hashes"/);
    expect(rpcError(() => call('getValidityProofV2', { newAddressesWithTrees: [{ address: fresh }] })).message).toMatch(/"newAddressesWithTrees\[0\]\.tree"/);
    expect(rpcError(() => call('getValidityProofV2', { hashes: [bs58.encode(new Uint8Array(32).fill(1))] })).rpcCode).toBe(-32000);
  });

  it('spending from the v2 tree writes the nullifier in the leaf; getTransactionWithCompressionInfoV2 shows it', async () => {
    const t = await zk.transferCompressedTokens({ owner: bob, mint, to: alice, amount: 30n, version: 2 });
    const info = call('getTransactionWithCompressionInfoV2', { signature: t.signature });
    expect(info.compression_info.closedAccounts).toHaveLength(1);
    const closed = info.compression_info.closedAccounts[0];
    expect(closed.optionalTokenData).toMatchObject({ owner: bob, amount: 70 });
    expect(closed.account.account.merkleContext.tree).toBe(STATE_TREE_V2);
    expect(bs58.encode(treeOf(2).leaf(closed.account.account.leafIndex))).toBe(closed.account.nullifier);
    expect(typeof closed.account.txHash).toBe('string');
    expect(info.compression_info.openedAccounts.map((o: any) => o.account.merkleContext.treeType)).toEqual([3, 3]);
    expect(info.transaction.slot).toBe(t.slot);
    expect(rpcError(() => call('getTransactionWithCompressionInfoV2', { signature: 'x' })).message).toMatch(/"signature"/);
    expect(rpcError(() => call('getCompressedAccountProofV2', { hash: closed.account.account.hash })).rpcCode).toBe(-32000);
  });
});

describe('lists and balances', () => {
  it('token accounts by owner / delegate, V2 shape, paged by cursor', () => {
    const seen: string[] = [];
    let cursor: string | null | undefined;
    do {
      const r = call('getCompressedTokenAccountsByOwnerV2', { owner: alice, limit: 2, cursor });
      for (const it of r.value.items) {
        expect(it.account.merkleContext).toBeDefined();
        expect(it.tokenData.owner).toBe(alice);
        seen.push(it.account.hash);
      }
      cursor = r.value.cursor;
    } while (cursor);
    const all = call('getCompressedTokenAccountsByOwner', { owner: alice }).value.items.map((i: any) => i.account.hash);
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(seen.length);
    expect(call('getCompressedTokenAccountsByDelegateV2', { delegate }).value.items.map((i: any) => i.tokenData.amount)).toEqual([20]);
    expect(rpcError(() => call('getCompressedTokenAccountsByOwnerV2', {})).message).toMatch(/"owner"/);
    expect(rpcError(() => call('getCompressedTokenAccountsByDelegateV2', { delegate, limit: 0 })).message).toMatch(/"limit"/);
  });

  it('getCompressedAccountsByOwner (and V2): by hash order, cursor, memcmp filters, dataSlice', () => {
    const both = call('getCompressedAccountsByOwner', { owner }).value;
    expect(both.items.map((a: any) => a.hash).sort()).toEqual([v1.hash, v2.hash].sort());
    expect(both.cursor).toBeNull();
    const p1 = call('getCompressedAccountsByOwnerV2', { owner, limit: 1 }).value;
    expect(p1.items).toHaveLength(1);
    const p2 = call('getCompressedAccountsByOwnerV2', { owner, limit: 1, cursor: p1.cursor }).value;
    expect(p2.cursor).toBeNull();
    expect([p1.items[0].hash, p2.items[0].hash]).toEqual(both.items.map((a: any) => a.hash));
    const f = call('getCompressedAccountsByOwner', { owner, filters: [{ memcmp: { offset: 1, bytes: bs58.encode(Uint8Array.from([8, 7])) } }] }).value;
    expect(f.items.map((a: any) => a.hash)).toEqual([v2.hash]);
    const s = call('getCompressedAccountsByOwner', { owner, filters: [{ memcmp: { offset: 0, bytes: bs58.encode(Uint8Array.from([1])) } }], dataSlice: { offset: 1, length: 1 } }).value;
    expect(s.items).toHaveLength(1);
    expect(Buffer.from(s.items[0].data.data, 'base64')).toEqual(Buffer.from([2]));
    expect(rpcError(() => call('getCompressedAccountsByOwner', { owner, filters: [{ dataSize: 3 }] })).message).toMatch(/"filters\[0\]\.memcmp"/);
    expect(rpcError(() => call('getCompressedAccountsByOwner', { owner, filters: [{ memcmp: { offset: -1, bytes: '1' } }] })).message).toMatch(/"filters\[0\]\.memcmp\.offset"/);
    expect(rpcError(() => call('getCompressedAccountsByOwner', { owner, filters: [{ memcmp: { offset: 0, bytes: 'I0l' } }] })).message).toMatch(/"filters\[0\]\.memcmp\.bytes"/);
    expect(rpcError(() => call('getCompressedAccountsByOwner', { owner, filters: Array(6).fill({ memcmp: { offset: 0, bytes: '1' } }) })).message).toMatch(/"filters"/);
    expect(rpcError(() => call('getCompressedAccountsByOwner', { owner, dataSlice: { offset: 0 } })).message).toMatch(/"dataSlice\.length"/);
    expect(rpcError(() => call('getCompressedAccountsByOwnerV2', { owner, cursor: 5 })).message).toMatch(/"cursor"/);
    expect(rpcError(() => call('getCompressedAccountsByOwnerV2', {})).message).toMatch(/"owner"/);
  });

  it('getMultipleCompressedAccounts (and V2) by hashes or addresses, null where unknown; getMultipleCompressedAccountProofs (and V2)', () => {
    const unknown = bs58.encode(new Uint8Array(32).fill(3));
    const r = call('getMultipleCompressedAccounts', { hashes: [v1.hash, unknown, v2.hash] }).value.items;
    expect(r.map((a: any) => a?.hash ?? null)).toEqual([v1.hash, null, v2.hash]);
    expect(r[2].tree).toBe(STATE_TREE_V2);
    expect(call('getMultipleCompressedAccountsV2', { addresses: [v2.address] }).value.items[0].merkleContext.tree).toBe(STATE_TREE_V2);
    expect(rpcError(() => call('getMultipleCompressedAccounts', {})).message).toMatch(/"hashes"/);
    expect(rpcError(() => call('getMultipleCompressedAccounts', { hashes: [v1.hash], addresses: [] })).message).toMatch(/"hashes"/);
    expect(rpcError(() => call('getMultipleCompressedAccountsV2', { addresses: ['x'] })).message).toMatch(/"addresses\[0\]"/);
    const proofs = call('getMultipleCompressedAccountProofs', [v1.hash, v2.hash]).value;
    expect(proofs.map((p: any) => p.merkleTree)).toEqual([STATE_TREE_V1, STATE_TREE_V2]);
    const proofs2 = call('getMultipleCompressedAccountProofsV2', [v2.hash]).value;
    expect(proofs2[0].treeContext.tree).toBe(STATE_TREE_V2);
    expect(rpcError(() => call('getMultipleCompressedAccountProofs', { hashes: [v1.hash] })).message).toMatch(/"params"/);
    expect(rpcError(() => call('getMultipleCompressedAccountProofsV2', [])).message).toMatch(/"params"/);
    expect(rpcError(() => call('getMultipleCompressedAccountProofsV2', [v1.hash, 'x'])).message).toMatch(/"params\[1\]"/);
    expect(rpcError(() => call('getMultipleCompressedAccountProofs', [unknown])).rpcCode).toBe(-32000);
  });

  it('balances: one account, an owner, token balances (V1 and V2, paged), mint holders (paged)', () => {
    expect(call('getCompressedBalance', { hash: v2.hash }).value).toBe(2n ** 60n + 7n);
    expect(call('getCompressedBalance', { address: v2.address }).value).toBe(2n ** 60n + 7n);
    expect(call('getCompressedBalanceByOwner', { owner }).value).toBe(2n ** 60n + 10n);
    expect(call('getCompressedBalanceByOwner', { owner: newAddress() }).value).toBe(0);
    expect(rpcError(() => call('getCompressedBalance', {})).message).toMatch(/"hash"/);
    expect(rpcError(() => call('getCompressedBalance', { hash: bs58.encode(new Uint8Array(32).fill(4)) })).rpcCode).toBe(-32000);
    expect(rpcError(() => call('getCompressedBalanceByOwner', { owner: 1 })).message).toMatch(/"owner"/);
    const tok = call('getCompressedTokenAccountsByOwner', { owner: alice }).value.items[0];
    expect(call('getCompressedTokenAccountBalance', { hash: tok.account.hash }).value).toEqual({ amount: tok.tokenData.amount });
    expect(rpcError(() => call('getCompressedTokenAccountBalance', {})).message).toMatch(/"hash"/);

    const mint2 = newAddress();
    const recipients = [{ owner: alice, amount: 4n }, { owner: bob, amount: 9n }, { owner: delegate, amount: 9n }];
    return zk.mintCompressedTokens({ mint: mint2, recipients }).then(() => {
      const all = call('getCompressedTokenBalancesByOwner', { owner: alice }).value;
      expect(all.tokenBalances).toHaveLength(2);
      expect(all.cursor).toBeNull();
      const byMint = Object.fromEntries(all.tokenBalances.map((b: any) => [b.mint, b.balance]));
      expect(byMint[mint]).toBe(50 + 20 + 1 + 30);
      expect(byMint[mint2]).toBe(4);
      const a = call('getCompressedTokenBalancesByOwnerV2', { owner: alice, limit: 1 }).value;
      expect(a.items).toHaveLength(1);
      const b = call('getCompressedTokenBalancesByOwnerV2', { owner: alice, limit: 1, cursor: a.cursor }).value;
      expect(b.cursor).toBeNull();
      expect([...a.items, ...b.items]).toEqual(all.tokenBalances);
      expect(call('getCompressedTokenBalancesByOwnerV2', { owner: alice, mint: mint2 }).value.items).toEqual([{ mint: mint2, balance: 4 }]);
      expect(rpcError(() => call('getCompressedTokenBalancesByOwner', { owner: alice, mint: 'zz' })).message).toMatch(/"mint"/);

      const h1 = call('getCompressedMintTokenHolders', { mint: mint2, limit: 2 }).value;
      expect(h1.items.map((h: any) => h.balance)).toEqual([9, 9]);
      const h2 = call('getCompressedMintTokenHolders', { mint: mint2, limit: 2, cursor: h1.cursor }).value;
      expect(h2).toEqual({ items: [{ owner: alice, balance: 4 }], cursor: null });
      expect(rpcError(() => call('getCompressedMintTokenHolders', {})).message).toMatch(/"mint"/);
      expect(rpcError(() => call('getCompressedMintTokenHolders', { mint: mint2, cursor: mint2 })).message).toMatch(/"cursor"/);
    });
  });

  it('getIndexerHealth and getIndexerSlot answer at the top level', () => {
    expect(call('getIndexerHealth', undefined)).toBe('ok');
    expect(call('getIndexerSlot', undefined)).toBe(chain.slot());
  });

  it('bad params of the V2 single-item methods name the field', () => {
    expect(rpcError(() => call('getCompressedAccountV2', {})).message).toMatch(/"hash"/);
    expect(rpcError(() => call('getCompressedAccountV2', { address: 'nope' })).message).toMatch(/"address"/);
    expect(rpcError(() => call('getCompressedAccountV2', [])).message).toMatch(/"params"/);
    expect(rpcError(() => call('getCompressedAccountProofV2', {})).message).toMatch(/"hash"/);
    expect(rpcError(() => call('getCompressedAccountProofV2', { hash: '0OIl' })).rpcCode).toBe(-32602);
    expect(call('getCompressedAccountV2', { hash: bs58.encode(new Uint8Array(32).fill(5)) }).value).toBeNull();
  });
});
