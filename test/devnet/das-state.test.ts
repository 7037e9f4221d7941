import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fs from 'node:fs';
import bs58 from 'bs58';
import { Keypair } from '@solana/web3.js';
import { createChain } from '../../src/devnet/chain/chain.js';
import type { DevnetChain } from '../../src/devnet/chain/contract.js';
import { createDasState, type DasState } from '../../src/devnet/das/state.js';
import { DevnetRpcError, type RequestContext } from '../../src/devnet/types.js';
import { rpcError } from '../support/devnet.js';
import { verifyAssetProofJson } from '../../src/merkle/cnft/asset-proof.js';
import { verifyAssetLeaf } from '../../src/merkle/cnft/asset-leaf.js';
import { assetIdPda, creatorHash, dataHashV1, leafHashV1 } from '../../src/devnet/das/leaf.js';

const ctx: RequestContext = { signal: new AbortController().signal, endpoint: 'rpc' };
const addr = () => Keypair.generate().publicKey.toBase58();
const vectorAsset = JSON.parse(fs.readFileSync(new URL('../vectors/das/cnft_tests__mint_transfer_transfer.json', import.meta.url), 'utf8'));

let chain: DevnetChain;
let das: DasState;
const call = (method: string, params: unknown): any => das.methods[method](params, ctx);

/** Same nested key structure (types of leaves are checked loosely: null may stand for a value). */
function shapeOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.length ? [shapeOf(v[0])] : [];
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, shapeOf((v as Record<string, unknown>)[k])]));
  return v === null ? 'null' : typeof v;
}

beforeAll(() => {
  chain = createChain({ slotMs: 15, seed: 42 });
  das = createDasState({ chain, tree: { depth: 10, canopyDepth: 3, maxBufferSize: 16 } });
});
afterAll(async () => {
  await das.close?.();
  await chain.stop();
});

describe('mintCompressedNft', () => {
  it('mints a real Bubblegum V1 leaf behind a confirmed transaction', async () => {
    const owner = addr();
    const creator = addr();
    const collection = addr();
    const r = await call('mintCompressedNft', {
      name: 'Cairn #1',
      symbol: 'CRN',
      description: 'a devnet cNFT',
      owner,
      collection,
      uri: 'https://example.com/1.json',
      imageUrl: 'https://example.com/1.png',
      externalUrl: 'https://example.com',
      attributes: [{ trait_type: 'kind', value: 'test' }],
      sellerFeeBasisPoints: 250,
      creators: [{ address: creator, share: 100 }],
      confirmTransaction: true,
    });
    expect(r).toEqual({ signature: expect.any(String), minted: true, assetId: expect.any(String) });
    const status = chain.status(r.signature)!;
    expect(status.err).toBeNull();
    expect(['confirmed', 'finalized']).toContain(status.confirmationStatus);
    const tx = chain.transaction(r.signature)!;
    expect(tx.accountKeys).toContain(r.assetId);
    expect(tx.accountKeys).toContain(owner);

    const asset = call('getAsset', { id: r.assetId });
    // The indexer's shape (keys of the vector) plus what a mint with these params adds.
    const expected = shapeOf(vectorAsset) as Record<string, any>;
    const got = shapeOf(asset) as Record<string, any>;
    for (const k of Object.keys(expected)) expect(got, k).toHaveProperty(k);
    expect(Object.keys(got.compression)).toEqual(Object.keys(expected.compression));
    expect(Object.keys(got.ownership)).toEqual(Object.keys(expected.ownership));
    expect(asset.last_indexed_slot).toBeGreaterThanOrEqual(tx.slot);
    expect(asset.content.metadata).toMatchObject({ name: 'Cairn #1', symbol: 'CRN', description: 'a devnet cNFT', attributes: [{ trait_type: 'kind', value: 'test' }] });
    expect(asset.grouping).toEqual([{ group_key: 'collection', group_value: collection }]);
    expect(asset.royalty).toMatchObject({ basis_points: 250, percent: 0.025 });
    expect(asset.creators).toEqual([{ address: creator, share: 100, verified: false }]);
    expect(asset.ownership).toMatchObject({ owner, delegate: null, delegated: false });

    // Re-derive the leaf from first principles: id PDA, data hash, creator hash.
    const rec = das.record(r.assetId)!;
    const tree = bs58.decode(asset.compression.tree);
    expect(bs58.encode(assetIdPda(tree, BigInt(asset.compression.leaf_id)))).toBe(r.assetId);
    expect(bs58.encode(dataHashV1(rec.metadata))).toBe(asset.compression.data_hash);
    expect(bs58.encode(creatorHash(rec.metadata.creators))).toBe(asset.compression.creator_hash);
    const o = bs58.decode(owner);
    const leaf = leafHashV1({
      id: bs58.decode(r.assetId),
      owner: o,
      delegate: o,
      nonce: BigInt(asset.compression.leaf_id),
      dataHash: rec.dataHash,
      creatorHash: rec.creatorHash,
    });
    expect(bs58.encode(leaf)).toBe(asset.compression.asset_hash);

    // The proof verifies with the Merkle engine; a mutated one does not.
    const proofs = call('getAssetProofBatch', { ids: [r.assetId] });
    const p = proofs[r.assetId];
    expect(p).toMatchObject({
      leaf: asset.compression.asset_hash,
      tree_id: asset.compression.tree,
      node_index: 2 ** 10 + asset.compression.leaf_id,
      burnt: false,
    });
    expect(p.proof).toHaveLength(10);
    expect(verifyAssetProofJson(p).valid).toBe(true);
    expect(verifyAssetLeaf(asset, p)).toMatchObject({ valid: true });
    // Any change to what the leaf commits to is caught.
    expect(verifyAssetLeaf({ ...asset, ownership: { ...asset.ownership, owner: addr() } }, p).valid).toBe(false);
    const info = das.trees().find((t) => t.address === p.tree_id)!;
    expect(verifyAssetProofJson({ ...p, proof: p.proof.slice(0, 7) }, { canopy: info.canopy }).valid).toBe(true);
    const flipped = [...p.proof];
    flipped[3] = bs58.encode(bs58.decode(flipped[3]).map((b, i) => (i === 0 ? b ^ 1 : b)));
    expect(verifyAssetProofJson({ ...p, proof: flipped }).valid).toBe(false);
  });

  it('validates params before minting, naming the field', () => {
    const owner = addr();
    const base = { name: 'n', symbol: 's', description: 'd', owner };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...base, name: 'x'.repeat(33) }, /"name": at most 32 bytes/],
      [{ ...base, name: undefined }, /"name": is required/],
      [{ ...base, symbol: 'ABCDEFGHIJK' }, /"symbol": at most 10 bytes/],
      [{ ...base, uri: 'u'.repeat(201) }, /"uri": at most 200 bytes/],
      [{ ...base, owner: 'not-base58!' }, /"owner"/],
      [{ ...base, owner: bs58.encode(new Uint8Array(31)) }, /"owner": expected 32 bytes/],
      [{ ...base, sellerFeeBasisPoints: 10_001 }, /"sellerFeeBasisPoints"/],
      [{ ...base, sellerFeeBasisPoints: 1.5 }, /"sellerFeeBasisPoints"/],
      [{ ...base, creators: [{ address: addr(), share: 60 }, { address: addr(), share: 30 }] }, /"creators": shares must sum to 100, got 90/],
      [{ ...base, creators: [{ address: 'x', share: 100 }] }, /"creators\[0\]\.address"/],
      [{ ...base, attributes: [{ trait_type: 'a' }] }, /"attributes\[0\]\.value": is required/],
      [{ ...base, confirmTransaction: 'yes' }, /"confirmTransaction"/],
    ];
    const before = das.trees().reduce((n, t) => n + t.size, 0);
    const ledger = chain.ledger().length;
    return Promise.all(
      cases.map(async ([params, re]) => {
        const err = await (das.methods.mintCompressedNft(params, ctx) as Promise<unknown>).then(() => null, (x) => x);
        expect(err, JSON.stringify(params).slice(0, 80)).toBeInstanceOf(DevnetRpcError);
        expect((err as DevnetRpcError).rpcCode).toBe(-32602);
        expect((err as Error).message).toMatch(re);
      }),
    ).then(() => {
      // Nothing reserved a nonce, nothing reached the chain.
      expect(das.trees().reduce((n, t) => n + t.size, 0)).toBe(before);
      expect(chain.ledger().length).toBe(ledger);
      expect(chain.pendingCount()).toBe(0);
    });
  });
});

describe('DAS reads', () => {
  const owner = addr();
  const creator = addr();
  const collection = addr();
  let ids: string[] = [];

  beforeAll(async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        das.mintCompressedNft({
          name: `Item ${i}`,
          symbol: 'IT',
          description: '',
          owner,
          ...(i < 3 ? { collection, creators: [{ address: creator, share: 100 }] } : {}),
          confirmTransaction: true,
        }),
      ),
    );
    ids = results.map((r) => r.assetId);
  });

  it('getAsset / getAssetBatch: unknown ids are a -32000 error / null', () => {
    const unknown = addr();
    expect(rpcError(() => call('getAsset', { id: unknown })).rpcCode).toBe(-32000);
    expect(rpcError(() => call('getAsset', { id: 'zz' })).message).toMatch(/"id"/);
    const batch = call('getAssetBatch', { ids: [ids[0], unknown, ids[1]] });
    expect(batch.map((a: any) => a?.id ?? null)).toEqual([ids[0], null, ids[1]]);
    expect(batch[0].content.last_indexed_slot).toBeGreaterThan(0);
    expect(rpcError(() => call('getAssetBatch', { ids: Array(1001).fill(ids[0]) })).message).toMatch(/"ids": at most 1000/);
  });

  it('getAssetsByOwner pages by page/limit, sorts by id, and totals', () => {
    const sorted = [...ids].sort((a, b) => Buffer.compare(Buffer.from(bs58.decode(a)), Buffer.from(bs58.decode(b))));
    const seen: string[] = [];
    for (let page = 1; page <= 3; page++) {
      const r = call('getAssetsByOwner', { ownerAddress: owner, page, limit: 2 });
      expect(r).toMatchObject({ page, limit: 2, total: r.items.length });
      seen.push(...r.items.map((a: any) => a.id));
    }
    expect(seen).toEqual(sorted);
    const desc = call('getAssetsByOwner', { ownerAddress: owner, sortBy: { sortBy: 'id', sortDirection: 'desc' } });
    expect(desc.items.map((a: any) => a.id)).toEqual([...sorted].reverse());
    const created = call('getAssetsByOwner', { ownerAddress: owner, sortBy: { sortBy: 'created', sortDirection: 'asc' } });
    expect(new Set(created.items.map((a: any) => a.id))).toEqual(new Set(ids));
    const grand = call('getAssetsByOwner', { ownerAddress: owner, limit: 2, options: { showGrandTotal: true } });
    expect(grand.items).toHaveLength(2);
    expect(grand.total).toBe(5);
    expect(grand.grand_total).toBe(5);
    expect(call('getAssetsByOwner', { ownerAddress: owner, page: 4, limit: 2 }).items).toEqual([]);
  });

  it('keyset pagination with after/before/cursor over ids', () => {
    const sorted = [...ids].sort((a, b) => Buffer.compare(Buffer.from(bs58.decode(a)), Buffer.from(bs58.decode(b))));
    const after = call('getAssetsByOwner', { ownerAddress: owner, after: sorted[1], limit: 2 });
    expect(after.items.map((a: any) => a.id)).toEqual(sorted.slice(2, 4));
    expect(after.after).toBe(sorted[1]);
    const before = call('getAssetsByOwner', { ownerAddress: owner, before: sorted[3], limit: 2 });
    expect(before.items.map((a: any) => a.id)).toEqual(sorted.slice(1, 3));
    const between = call('getAssetsByOwner', { ownerAddress: owner, after: sorted[0], before: sorted[4] });
    expect(between.items.map((a: any) => a.id)).toEqual(sorted.slice(1, 4));
    const first = call('getAssetsByOwner', { ownerAddress: owner, limit: 2 });
    const walked: string[] = first.items.map((a: any) => a.id);
    let cursor: string | null = walked[walked.length - 1];
    let pages = 0;
    while (cursor !== null && pages++ < 5) {
      const r = call('getAssetsByOwner', { ownerAddress: owner, limit: 2, cursor });
      walked.push(...r.items.map((a: any) => a.id));
      cursor = r.cursor;
    }
    expect(cursor).toBeNull();
    expect(walked).toEqual(sorted);
    expect(rpcError(() => call('getAssetsByOwner', { ownerAddress: owner, page: 1, after: sorted[0] })).message).toMatch(/"page"/);
    expect(rpcError(() => call('getAssetsByOwner', { ownerAddress: owner, after: sorted[0], sortBy: { sortBy: 'created' } })).message).toMatch(/"sortBy.sortBy"/);
    expect(rpcError(() => call('getAssetsByOwner', { ownerAddress: owner, sortBy: { sortBy: 'size' } })).message).toMatch(/"sortBy.sortBy"/);
    expect(rpcError(() => call('getAssetsByOwner', { ownerAddress: owner, limit: 1001 })).message).toMatch(/"limit"/);
  });

  it('getAssetsByCreator / ByAuthority / ByGroup filter the right assets', () => {
    const byCreator = call('getAssetsByCreator', { creatorAddress: creator });
    expect(new Set(byCreator.items.map((a: any) => a.id))).toEqual(new Set(ids.slice(0, 3)));
    const byGroup = call('getAssetsByGroup', { groupKey: 'collection', groupValue: collection, limit: 10 });
    expect(new Set(byGroup.items.map((a: any) => a.id))).toEqual(new Set(ids.slice(0, 3)));
    expect(call('getAssetsByGroup', { groupKey: 'collection', groupValue: addr() }).items).toEqual([]);
    const byAuth = call('getAssetsByAuthority', { authorityAddress: chain.authority.address, options: { showGrandTotal: true } });
    expect(byAuth.total).toBeGreaterThanOrEqual(6);
    expect(call('getAssetsByAuthority', { authorityAddress: addr() }).items).toEqual([]);
    expect(rpcError(() => call('getAssetsByCreator', {})).message).toMatch(/"creatorAddress"/);
    expect(rpcError(() => call('getAssetsByGroup', { groupKey: 'collection' })).message).toMatch(/"groupValue"/);
  });

  it('getAssetProofBatch: every proof verifies against the current root; unknown ids are null', () => {
    const unknown = addr();
    const r = call('getAssetProofBatch', { ids: [...ids, unknown] });
    expect(r[unknown]).toBeNull();
    const roots = new Set<string>();
    for (const id of ids) {
      expect(verifyAssetProofJson(r[id], { label: id })).toMatchObject({ valid: true });
      roots.add(r[id].root);
    }
    expect(roots.size).toBe(1);
  });
});

describe('getTokenAccounts', () => {
  it('needs owner or mint and answers the DAS token-account shape', () => {
    expect(rpcError(() => call('getTokenAccounts', {})).message).toMatch(/"owner"/);
    const r = call('getTokenAccounts', { owner: addr(), limit: 10 });
    expect(r).toMatchObject({ total: 0, limit: 10, cursor: null, token_accounts: [] });
    expect(typeof r.last_indexed_slot).toBe('number');
  });
});

describe('getTokenAccounts over real SPL token accounts', () => {
  it('indexes token accounts that executed transactions created, with owner/mint filters and pages', async () => {
    const { PublicKey, SystemProgram, Transaction, TransactionInstruction } = await import('@solana/web3.js');
    const TOKEN = new PublicKey('TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA');
    const payer = Keypair.generate();
    const airdrop = chain.airdrop(payer.publicKey.toBase58(), 10n ** 10n);
    while (!chain.status(airdrop)) await chain.waitForSlot(chain.slot() + 1);
    const mintKp = Keypair.generate();
    const holder = Keypair.generate().publicKey;
    const accounts = [Keypair.generate(), Keypair.generate()];
    const u64 = (n: bigint) => {
      const b = Buffer.alloc(8);
      b.writeBigUInt64LE(n);
      return b;
    };
    const tx = new Transaction({ feePayer: payer.publicKey, recentBlockhash: chain.latestBlockhash().blockhash });
    tx.add(
      SystemProgram.createAccount({
        fromPubkey: payer.publicKey,
        newAccountPubkey: mintKp.publicKey,
        lamports: Number(chain.minimumBalanceForRentExemption(82)),
        space: 82,
        programId: TOKEN,
      }),
    );
    tx.add(
      new TransactionInstruction({
        programId: TOKEN,
        keys: [{ pubkey: mintKp.publicKey, isSigner: false, isWritable: true }],
        data: Buffer.concat([Buffer.from([20, 0]), payer.publicKey.toBuffer(), Buffer.from([0])]),
      }),
    );
    accounts.forEach((acc, i) => {
      tx.add(
        SystemProgram.createAccount({
          fromPubkey: payer.publicKey,
          newAccountPubkey: acc.publicKey,
          lamports: Number(chain.minimumBalanceForRentExemption(165)),
          space: 165,
          programId: TOKEN,
        }),
      );
      tx.add(
        new TransactionInstruction({
          programId: TOKEN,
          keys: [
            { pubkey: acc.publicKey, isSigner: false, isWritable: true },
            { pubkey: mintKp.publicKey, isSigner: false, isWritable: false },
          ],
          data: Buffer.concat([Buffer.from([18]), holder.toBuffer()]),
        }),
      );
      if (i === 0) {
        tx.add(
          new TransactionInstruction({
            programId: TOKEN,
            keys: [
              { pubkey: mintKp.publicKey, isSigner: false, isWritable: true },
              { pubkey: acc.publicKey, isSigner: false, isWritable: true },
              { pubkey: payer.publicKey, isSigner: true, isWritable: false },
            ],
            data: Buffer.concat([Buffer.from([7]), u64(1234n)]),
          }),
        );
      }
    });
    tx.sign(payer, mintKp, ...accounts);
    const { signature } = chain.submit(tx.serialize());
    while (!chain.status(signature)) await chain.waitForSlot(chain.slot() + 1);
    expect(chain.status(signature)!.err).toBeNull();

    const owner = holder.toBase58();
    const funded = call('getTokenAccounts', { owner });
    expect(funded.token_accounts).toEqual([
      { address: accounts[0].publicKey.toBase58(), mint: mintKp.publicKey.toBase58(), owner, amount: 1234, delegated_amount: 0, frozen: false, burnt: false },
    ]);
    const all = call('getTokenAccounts', { owner, options: { showZeroBalance: true } });
    expect(all.token_accounts).toHaveLength(2);
    const byMint = call('getTokenAccounts', { mint: mintKp.publicKey.toBase58(), limit: 1, options: { showZeroBalance: true } });
    expect(byMint.token_accounts).toHaveLength(1);
    expect(typeof byMint.cursor).toBe('string');
    const next = call('getTokenAccounts', { mint: mintKp.publicKey.toBase58(), limit: 1, cursor: byMint.cursor, options: { showZeroBalance: true } });
    expect(next.token_accounts).toHaveLength(1);
    expect(next.token_accounts[0].address).not.toBe(byMint.token_accounts[0].address);
    expect(next.cursor).toBeNull();
  });
});
