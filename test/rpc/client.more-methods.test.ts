/**
 * The methods a user expects beside the spec's: the single `getAssetProof`, `getSignaturesForAddress`
 * with its `before`/`until` paging and its iterator, and `client.call` for any other method — each
 * against the devnet, each refusing bad input with an InputError naming the field before sending.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { InputError, RpcError } from '../../src/errors/index.js';
import { verifyAssetProofJson } from '../../src/merkle/cnft/asset-proof.js';
import { createClient, type CairnClientAcceptingKeys } from '../../src/rpc/client/create-client.js';
import { transferInstruction } from '../../src/solana/instructions.js';
import { generateSigner } from '../../src/solana/signer.js';
import { memoIx, sendAndWait } from '../support/spl.js';

const payer = generateSigner();
let devnet: Devnet;
let client: CairnClientAcceptingKeys;

beforeAll(async () => {
  devnet = await startDevnet({ slotMs: 20, wsPortPlusOne: false, fundedAccounts: [{ address: payer.address, lamports: 10n ** 11n }] });
  client = createClient({ url: devnet.url, logger: () => {} });
});
afterAll(async () => {
  await client?.close();
  await devnet?.stop();
});

/** The field an InputError names, or a failure when the promise settles otherwise. */
async function fieldOf(p: Promise<unknown>): Promise<string> {
  const e = await p.then(() => new Error('expected a refusal'), (x: unknown) => x);
  expect(e).toBeInstanceOf(InputError);
  return String((e as InputError).context.field);
}

describe('getAssetProof', () => {
  it('answers one proof the verifier accepts, the same as the batch', async () => {
    const owner = generateSigner().address;
    const { assetId } = await client.mintCompressedNft({ name: 'One', symbol: 'O', description: '', owner, confirmTransaction: true });
    const proof = await client.getAssetProof({ id: assetId });
    expect(verifyAssetProofJson(proof, { label: assetId }).valid).toBe(true);
    // the same proof as the batch's item (last_indexed_slot moves with the slot clock)
    const { last_indexed_slot: _a, ...one } = proof;
    const { last_indexed_slot: _b, ...batched } = (await client.getAssetProofBatch({ ids: [assetId] }))[assetId]!;
    expect(batched).toEqual(one);
  });

  it('refuses a bad id naming params.id, and an unknown asset is the service’s RpcError', async () => {
    expect(await fieldOf(client.getAssetProof({ id: 'not-an-id' }))).toBe('params.id');
    expect(await fieldOf(client.getAssetProof(undefined as never))).toBe('params');
    await expect(client.getAssetProof({ id: generateSigner().address })).rejects.toBeInstanceOf(RpcError);
  });
});

describe('getSignaturesForAddress', () => {
  const watched = generateSigner().address;
  const sent: string[] = [];
  beforeAll(async () => {
    // five transactions touching `watched`, one not touching it in between
    for (let i = 0; i < 5; i++) {
      sent.push(await sendAndWait(devnet.url, payer, [transferInstruction(payer.address, watched, 1_000_000 + i), memoIx(`n${i}`, payer.address)]));
      if (i === 2) await sendAndWait(devnet.url, payer, [transferInstruction(payer.address, generateSigner().address, 1_000_000)]);
    }
  });

  it('lists them newest first, pages with before and stops at until', async () => {
    const newestFirst = [...sent].reverse();
    const all = await client.getSignaturesForAddress(watched);
    expect(all.map((s) => s.signature)).toEqual(newestFirst);
    expect(all[0]).toMatchObject({ err: null, memo: '[2] n4' });
    expect(typeof all[0]!.slot).toBe('number');
    const first = await client.getSignaturesForAddress(watched, { limit: 2 });
    expect(first.map((s) => s.signature)).toEqual(newestFirst.slice(0, 2));
    const next = await client.getSignaturesForAddress(watched, { limit: 2, before: first[1]!.signature });
    expect(next.map((s) => s.signature)).toEqual(newestFirst.slice(2, 4));
    const upTo = await client.getSignaturesForAddress(watched, { until: sent[1]!, commitment: 'confirmed' });
    expect(upTo.map((s) => s.signature)).toEqual(newestFirst.slice(0, 3));
  });

  it('walks every page with paginate, before the last signature of each', async () => {
    const seen: string[] = [];
    for await (const s of client.paginate.getSignaturesForAddress(watched, { limit: 2 })) seen.push(s.signature);
    expect(seen).toEqual([...sent].reverse());
    const stopped: string[] = [];
    for await (const s of client.paginate.getSignaturesForAddress(watched, { limit: 1, until: sent[2]! })) stopped.push(s.signature);
    expect(stopped).toEqual([sent[4], sent[3]]);
  });

  it('refuses bad input naming the field, before sending anything', async () => {
    expect(await fieldOf(client.getSignaturesForAddress('nope'))).toBe('address');
    expect(await fieldOf(client.getSignaturesForAddress(watched, { limit: 0 }))).toBe('params.limit');
    expect(await fieldOf(client.getSignaturesForAddress(watched, { limit: 1001 }))).toBe('params.limit');
    expect(await fieldOf(client.getSignaturesForAddress(watched, { before: 'abc' }))).toBe('params.before');
    expect(await fieldOf(client.getSignaturesForAddress(watched, { until: 42 as never }))).toBe('params.until');
    expect(await fieldOf(client.getSignaturesForAddress(watched, { commitment: 'processed' as never }))).toBe('params.commitment');
    expect(await fieldOf(client.getSignaturesForAddress(watched, { limt: 5 } as never))).toBe('params.limt');
    const it = client.paginate.getSignaturesForAddress(watched, { minContextSlot: -1 });
    expect(await fieldOf(it.next())).toBe('params.minContextSlot');
  });
});

describe('client.call', () => {
  it('calls any method, positional or named, through the same transport', async () => {
    expect(await client.call<{ 'solana-core': string }>('getVersion')).toEqual({ 'solana-core': '2.2.0', 'feature-set': 3294202862 });
    const slot = await client.call<number>('getSlot', [{ commitment: 'processed' }]);
    expect(slot).toBeGreaterThan(0);
    const balance = await client.call<{ value: number }>('getBalance', [payer.address]);
    expect(balance.value).toBeGreaterThan(0);
    const assets = await client.call<{ items: unknown[] }>('getAssetsByOwner', { ownerAddress: generateSigner().address, page: 1 });
    expect(assets.items).toEqual([]);
    // a PublicKey-like in the params goes out as its base58 text, as for every method
    const key = { toBase58: () => payer.address, toBytes: () => payer.publicKey };
    expect((await client.call<{ value: number }>('getBalance', [key])).value).toBe(balance.value);
  });

  it('refuses a bad method name or params form naming the field; an unknown method is the RpcError', async () => {
    expect(await fieldOf(client.call(''))).toBe('method');
    expect(await fieldOf(client.call('get Slot'))).toBe('method');
    expect(await fieldOf(client.call(42 as never))).toBe('method');
    expect(await fieldOf(client.call('getSlot', 'confirmed'))).toBe('params');
    expect(await fieldOf(client.call('getSlot', new Uint8Array(2)))).toBe('params');
    const e = await client.call('noSuchMethod', []).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(RpcError);
    expect((e as RpcError).message).toContain('noSuchMethod');
  });

  it('takes an AbortSignal like every call', async () => {
    const ac = new AbortController();
    ac.abort();
    await expect(client.call('getSlot', [], { signal: ac.signal })).rejects.toMatchObject({ code: 'RPC_ABORTED' });
  });
});
