// The typed client's V2 and other indexer methods against the devnet: shapes validated by the
// client, pagination by async iterators, InputError naming the field before anything is sent, and
// the devnet's −32602 surfacing as an RpcError.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { ADDRESS_TREE_V2, STATE_TREE_V2 } from '../../src/devnet/compression/store.js';
import { InputError, RpcError } from '../../src/errors/index.js';
import { newAddress } from '../support/devnet.js';

let devnet: Devnet;
let client: CairnClient;
const enc = new TextEncoder();
const owner = newAddress();
const program = newAddress();
const mint = newAddress();
const holder = newAddress();
let account: Record<string, any>;
let mintSig = '';

beforeAll(async () => {
  // The stand-in proof: this file checks the answers' shapes, never the proof, and a real one here is the
  // v2 combined circuit, whose proving key (the largest, 18 MB) no other test uses: on a fresh clone it was
  // built for this file alone. Real proofs are made and verified in test/devnet/validity-proofs*.test.ts.
  devnet = await startDevnet({ slotMs: 20, seed: 7, validityProofs: 'fake' });
  await devnet.ready();
  client = createClient({ url: devnet.url, logger: () => {} });
  const zk = devnet.compression!;
  account = (await zk.createCompressedAccount({ owner, lamports: 2n ** 60n, seeds: [enc.encode('a')], programId: program, version: 2, data: { discriminator: 1n, data: Uint8Array.from([4, 5]) } })).account;
  for (let i = 0; i < 3; i++) await zk.createCompressedAccount({ owner, lamports: BigInt(i + 1), version: 2 });
  mintSig = (await zk.mintCompressedTokens({ mint, version: 2, recipients: [1, 2, 3].map((a) => ({ owner: holder, amount: BigInt(a) })) })).signature;
  await zk.mintCompressedTokens({ mint: newAddress(), recipients: [{ owner: holder, amount: 5n }] });
}, 60_000);
afterAll(async () => {
  await client?.close();
  await devnet?.stop();
});

describe('typed client: V2 compression methods against the devnet', () => {
  it('single account, proof, several accounts and proofs, validity proof, new addresses', async () => {
    const a = await client.getCompressedAccountV2({ hash: account.hash });
    expect(a.value?.merkleContext).toMatchObject({ treeType: 3, tree: STATE_TREE_V2 });
    expect(a.value?.lamports).toBe(2n ** 60n);
    const p = await client.getCompressedAccountProofV2({ hash: account.hash });
    expect(p.value.proof).toHaveLength(32);
    expect(p.value.proveByIndex).toBe(false);
    const many = await client.getMultipleCompressedAccountsV2({ hashes: [account.hash, '11111111111111111111111111111111'] });
    expect(many.value.items.map((x) => x?.hash ?? null)).toEqual([account.hash, null]);
    expect((await client.getMultipleCompressedAccounts({ addresses: [account.address] })).value.items[0]?.tree).toBe(STATE_TREE_V2);
    expect((await client.getMultipleCompressedAccountProofsV2([account.hash])).value[0].root).toBe(p.value.root);
    expect((await client.getMultipleCompressedAccountProofs([account.hash])).value[0].merkleTree).toBe(STATE_TREE_V2);
    const fresh = devnet.compression!.deriveAddress([enc.encode('fresh')], program, 2);
    const vp = await client.getValidityProofV2({ hashes: [account.hash], newAddressesWithTrees: [{ address: fresh, tree: ADDRESS_TREE_V2 }] });
    expect(vp.value.accounts[0].rootIndex.proveByIndex).toBe(false);
    expect(vp.value.addresses[0].merkleContext.treeType).toBe(4);
    const na = await client.getMultipleNewAddressProofsV2([{ address: fresh, tree: ADDRESS_TREE_V2 }]);
    expect(na.value[0].proof).toHaveLength(40);
    const tx = await client.getTransactionWithCompressionInfoV2({ signature: mintSig });
    expect(tx.compression_info.openedAccounts).toHaveLength(3);
  });

  it('balances, the indexer, and iterators over every cursor-paged list', async () => {
    expect((await client.getCompressedBalance({ address: account.address })).value).toBe(2n ** 60n);
    expect((await client.getCompressedBalanceByOwner({ owner })).value).toBe(2n ** 60n + 6n);
    expect(await client.getIndexerHealth()).toBe('ok');
    expect(typeof (await client.getIndexerSlot())).toBe('number');

    const accs: string[] = [];
    for await (const x of client.paginate.getCompressedAccountsByOwnerV2({ owner, limit: 1 })) accs.push(x.hash);
    expect(accs).toHaveLength(4);
    expect(new Set(accs).size).toBe(4);
    let n = 0;
    for await (const x of client.paginate.getCompressedAccountsByOwner({ owner, limit: 3 })) n += x.tree === STATE_TREE_V2 ? 1 : 0;
    expect(n).toBe(4);
    const toks: number[] = [];
    for await (const t of client.paginate.getCompressedTokenAccountsByOwnerV2({ owner: holder, mint, limit: 2 })) toks.push(Number(t.tokenData.amount));
    expect(toks.sort()).toEqual([1, 2, 3]);
    const delegated: unknown[] = [];
    for await (const t of client.paginate.getCompressedTokenAccountsByDelegateV2({ delegate: holder })) delegated.push(t);
    expect(delegated).toEqual([]);
    const bal: string[] = [];
    for await (const b of client.paginate.getCompressedTokenBalancesByOwnerV2({ owner: holder, limit: 1 })) bal.push(b.mint);
    expect(bal).toHaveLength(2);
    const bal1: string[] = [];
    for await (const b of client.paginate.getCompressedTokenBalancesByOwner({ owner: holder, limit: 1 })) bal1.push(b.mint);
    expect(bal1).toEqual(bal);
    const holders: unknown[] = [];
    for await (const h of client.paginate.getCompressedMintTokenHolders({ mint, limit: 1 })) holders.push(h);
    expect(holders).toEqual([{ owner: holder, balance: 6 }]);
    const tok = (await client.getCompressedTokenAccountsByOwnerV2({ owner: holder, mint })).value.items[0];
    expect((await client.getCompressedTokenAccountBalance({ hash: tok.account.hash })).value.amount).toBe(tok.tokenData.amount);
    const ac = new AbortController();
    ac.abort();
    const it = client.paginate.getCompressedAccountsByOwnerV2({ owner }, { signal: ac.signal });
    await expect(it.next()).rejects.toMatchObject({ code: 'RPC_ABORTED' });
  });

  it('bad params: InputError naming the field before sending; the devnet\'s -32602 as an RpcError', async () => {
    await expect(client.getCompressedAccountV2({})).rejects.toMatchObject({ context: { field: 'params' } });
    await expect(client.getCompressedAccountProofV2({ hash: 'x' })).rejects.toBeInstanceOf(InputError);
    await expect(client.getMultipleCompressedAccounts({ hashes: [], addresses: [] } as never)).rejects.toMatchObject({ context: { field: 'params' } });
    await expect(client.getMultipleCompressedAccountProofsV2([])).rejects.toMatchObject({ context: { field: 'hashes' } });
    await expect(client.getCompressedAccountsByOwner({ owner, filters: [{ memcmp: { offset: -1, bytes: '1' } }] })).rejects.toMatchObject({ context: { field: 'params.filters[0].memcmp.offset' } });
    await expect(client.getCompressedAccountsByOwnerV2({ owner, limit: 0 })).rejects.toMatchObject({ context: { field: 'params.limit' } });
    await expect(client.getValidityProofV2({})).rejects.toMatchObject({ context: { field: 'params.hashes' } });
    await expect(client.getMultipleNewAddressProofsV2([{ address: owner } as never])).rejects.toMatchObject({ context: { field: 'addresses[0].tree' } });
    await expect(client.getCompressedMintTokenHolders({ mint: 'nope' })).rejects.toMatchObject({ context: { field: 'params.mint' } });
    const e = await client.getMultipleNewAddressProofsV2([{ address: account.address, tree: ADDRESS_TREE_V2 }]).then(() => null, (x) => x);
    expect(e).toBeInstanceOf(RpcError);
    expect(e.message).toMatch(/already exists/);
  });
});
