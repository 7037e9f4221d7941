import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { Keypair } from '@solana/web3.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { CairnError, InputError } from '../../src/errors/index.js';
import { mintCompressedNft, validateMintInput, type MintCompressedNftParams } from '../../src/mint/mint-compressed-nft.js';
import { resetDeprecationWarnings as resetMintDeprecationWarning } from '../../src/internal.js';

const addr = () => Keypair.generate().publicKey.toBase58();
let devnet: Devnet;
let client: CairnClient;

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, seed: 5 });
  client = createClient({ url: devnet.url, logger: () => {} });
});
afterAll(async () => {
  await client?.close();
  await devnet?.stop();
});

const base = (): MintCompressedNftParams => ({ name: 'Ticket #1', symbol: 'TIX', description: 'entry', owner: addr() });

describe('mintCompressedNft (src/mint)', () => {
  it('mints on the devnet and verifies leaf, proof and content offline', async () => {
    const lines: string[] = [];
    const creator = addr();
    const collection = addr();
    const params = { ...base(), uri: 'https://example.com/t1.json', sellerFeeBasisPoints: 500, creators: [{ address: creator, share: 100 }], collection };
    const r = await mintCompressedNft(client, params, { verify: true, logger: (l) => lines.push(l) });
    expect(r).toMatchObject({ minted: true, assetId: expect.any(String), signature: expect.any(String) });
    expect(r.verification).toEqual({
      leaf: expect.objectContaining({ valid: true, status: 'matches' }),
      proof: expect.objectContaining({ valid: true }),
      content: expect.objectContaining({ valid: true }),
    });
    // The signature is a real one on the chain.
    expect(devnet.chain.status(r.signature)?.err).toBeNull();
    const asset = await client.getAsset({ id: r.assetId });
    expect(asset.ownership?.owner).toBe(params.owner);
  });

  it('without verify it returns as soon as the service answers', async () => {
    const r = await mintCompressedNft(client, base(), { logger: () => {} });
    expect(r.verification).toBeUndefined();
    expect(r.minted).toBe(true);
  });

  it('warns once per process, in its own words, through the logger or stderr (never a Node DeprecationWarning)', async () => {
    resetMintDeprecationWarning();
    const lines: string[] = [];
    await mintCompressedNft(client, base(), { logger: (l) => lines.push(l) });
    await mintCompressedNft(client, base(), { logger: (l) => lines.push(l) });
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/deprecated/);
    expect(lines[0]).toMatch(/compression/);
    resetMintDeprecationWarning();
    const seen: unknown[] = [];
    const original = process.emitWarning;
    process.emitWarning = ((w: unknown, o: unknown) => void seen.push([w, o])) as typeof process.emitWarning;
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await mintCompressedNft(client, base());
      await mintCompressedNft(client, base());
      // One line in all: ours (which names the replacement), not repeated by the client.
      const ours = stderr.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('deprecated'));
      expect(ours).toHaveLength(1);
      expect(ours[0]).toMatch(/^cairn: mintCompressedNft is deprecated.*getValidityProof/);
      expect(seen).toEqual([]);
      // told to be quiet: nothing, from the workflow or the client call it makes
      resetMintDeprecationWarning();
      stderr.mockClear();
      await mintCompressedNft(client, base(), { deprecationWarnings: false });
      await mintCompressedNft(client, base());
      expect(stderr.mock.calls.map((c) => String(c[0])).filter((l) => l.includes('deprecated'))).toEqual([]);
    } finally {
      process.emitWarning = original;
      stderr.mockRestore();
    }
  });

  it('refuses bad input before sending anything, naming the field', async () => {
    const cases: [Partial<MintCompressedNftParams> & Record<string, unknown>, RegExp][] = [
      [{ name: 'é'.repeat(17) }, /"name": at most 32 bytes/],
      [{ name: '' }, /"name"/],
      [{ symbol: 'ELEVENCHARS' }, /"symbol": at most 10 bytes/],
      [{ uri: 'u'.repeat(201) }, /"uri": at most 200 bytes/],
      [{ sellerFeeBasisPoints: 10_001 }, /"sellerFeeBasisPoints"/],
      [{ sellerFeeBasisPoints: 12.5 }, /"sellerFeeBasisPoints"/],
      [{ owner: 'O0Il' }, /"owner"/],
      [{ owner: '1111' }, /"owner": expected 32 bytes/],
      [{ delegate: 'x' }, /"delegate"/],
      [{ creators: [{ address: addr(), share: 50 }, { address: addr(), share: 49 }] }, /"creators": shares must sum to 100, got 99/],
      [{ creators: Array.from({ length: 6 }, () => ({ address: addr(), share: 0 })) }, /"creators": at most 5/],
      [{ creators: [{ address: 'bad', share: 100 }] }, /"creators\[0\]\.address"/],
      [{ attributes: [{ trait_type: 't', value: 3 as unknown as string }] }, /"attributes\[0\]\.value"/],
    ];
    devnet.control.clearRequestLog();
    for (const [patch, re] of cases) {
      const p = { ...base(), ...patch } as MintCompressedNftParams;
      expect(() => validateMintInput(p)).toThrow(re);
      const err = await mintCompressedNft(client, p, { logger: () => {} }).then(() => null, (e) => e);
      expect(err).toBeInstanceOf(InputError);
      expect((err as Error).message).toMatch(re);
    }
    expect(devnet.control.requestLog().filter((e) => e.method === 'mintCompressedNft')).toEqual([]);
  });

  it('a service that lies is caught: MINT_VERIFY_FAILED names what differs', async () => {
    const owner = addr();
    // A client whose service answers with another owner's view of the asset (an indexer bug).
    const lying: Pick<CairnClient, 'mintCompressedNft' | 'getAsset' | 'getAssetProofBatch'> = {
      mintCompressedNft: (p, o) => client.mintCompressedNft(p, o),
      getAsset: async (p, o) => {
        const a = await client.getAsset(p, o);
        return { ...a, ownership: { ...a.ownership!, owner: addr() } };
      },
      getAssetProofBatch: (p, o) => client.getAssetProofBatch(p, o),
    };
    const err = await mintCompressedNft(lying, { ...base(), owner }, { verify: true, logger: () => {} }).then(() => null, (e) => e);
    expect(err).toBeInstanceOf(CairnError);
    expect((err as CairnError).code).toBe('MINT_VERIFY_FAILED');
    expect((err as Error).message).toMatch(/leaf: .*content: ownership\.owner/);

    // A proof from another asset does not prove this one.
    const other = await mintCompressedNft(client, base(), { verify: true, logger: () => {} });
    const swapped: typeof lying = {
      ...lying,
      getAsset: (p, o) => client.getAsset(p, o),
      getAssetProofBatch: async (p, o) => {
        const r = await client.getAssetProofBatch({ ids: [other.assetId] }, o);
        return { [p.ids[0]]: r[other.assetId] };
      },
    };
    const err2 = await mintCompressedNft(swapped, base(), { verify: true, logger: () => {} }).then(() => null, (e) => e);
    expect((err2 as CairnError).code).toBe('MINT_VERIFY_FAILED');
    expect((err2 as Error).message).toMatch(/leaf:/);
  });

  it('honours an aborted signal', async () => {
    const ac = new AbortController();
    ac.abort();
    const err = await mintCompressedNft(client, base(), { signal: ac.signal, logger: () => {} }).then(() => null, (e) => e);
    expect(err).toBeInstanceOf(CairnError);
  });
});
