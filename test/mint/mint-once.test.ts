/**
 * A mint intent, exactly once (issue 36): `mintCompressedNft(client, params, { id, journal })` against
 * the devnet. A lost answer (a proxy cuts the connection after the devnet minted) is reconciled through
 * the indexer, not minted again; so is a process that died after sending; one that died before sending
 * mints; an asset of the same content minted before the intent is not taken for it; an id already
 * minted sends nothing; an id journaled for another item is refused; a refusal is journaled and a later
 * run mints without waiting.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { mintCompressedNft } from '../../src/mint/mint-compressed-nft.js';
import { openMintJournal } from '../../src/mint/mint-journal.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { newAddress } from '../support/devnet.js';
import { startLossyProxy, type LossyProxy } from '../support/lossy-proxy.js';

let devnet: Devnet;
let proxy: LossyProxy;
let lossy: CairnClient;
let direct: CairnClient;
let dir: string;
const once = { landingSlots: 5, logger: () => {} };
let n = 0;
const journalPath = () => join(dir, `j${++n}.jsonl`);

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, slotMs: 20, seed: 363, wsPortPlusOne: false });
  proxy = await startLossyProxy(devnet.url);
  lossy = createClient({ url: proxy.url, logger: () => {}, retry: { delay: () => 0 } });
  direct = createClient({ url: devnet.url, logger: () => {}, retry: { delay: () => 0 } });
  dir = mkdtempSync(join(tmpdir(), 'cairn-mint-once-'));
});
afterAll(async () => {
  await lossy?.close();
  await direct?.close();
  await proxy?.close();
  await devnet?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

async function named(owner: string, name: string): Promise<string[]> {
  const slot = await direct.getSlot();
  while ((await direct.getSlot()) < slot + 3) await new Promise((r) => setTimeout(r, 20));
  const page = await direct.getAssetsByOwner({ ownerAddress: owner, limit: 1000 });
  return page.items.filter((a) => a.content?.metadata?.name === name).map((a) => a.id);
}
const item = (owner: string, name: string) => ({ name, symbol: 'ONCE', description: '', owner, uri: `https://x.example/${name}.json` });

describe('mintCompressedNft with { id, journal }', () => {
  it('a lost answer is found through the indexer: one mint, reported as minted', async () => {
    const owner = newAddress();
    let mints = 0;
    proxy.lose = (r) => r.rpcMethod === 'mintCompressedNft' && ++mints === 1;
    const journal = await openMintJournal(journalPath());
    try {
      const r = await mintCompressedNft(lossy, item(owner, 'Once #1'), { ...once, id: '1', journal });
      expect(r).toMatchObject({ minted: true, reconciled: true, fromJournal: false });
      expect(mints).toBe(1);
      expect(await named(owner, 'Once #1')).toEqual([r.assetId]);
      // asked again: the journal answers, nothing is sent
      const again = await mintCompressedNft(lossy, item(owner, 'Once #1'), { ...once, id: '1', journal });
      expect(again).toMatchObject({ assetId: r.assetId, fromJournal: true });
      expect(mints).toBe(1);
    } finally {
      proxy.lose = () => false;
      await journal.close();
    }
  });

  it('with verify, the reconciled asset is verified too', async () => {
    const owner = newAddress();
    let mints = 0;
    proxy.lose = (r) => r.rpcMethod === 'mintCompressedNft' && ++mints === 1;
    const journal = await openMintJournal(journalPath());
    try {
      const r = await mintCompressedNft(lossy, item(owner, 'Verified'), { ...once, id: 'v', journal, verify: true });
      expect(r.reconciled).toBe(true);
      expect(r.verification?.proof.valid && r.verification.leaf.valid && r.verification.content.valid).toBe(true);
    } finally {
      proxy.lose = () => false;
      await journal.close();
    }
  });

  it('a process that died after sending: the next run finds the asset and does not mint again', async () => {
    const owner = newAddress();
    const path = journalPath();
    const p = item(owner, 'Crash after');
    let journal = await openMintJournal(path);
    await journal.append({ op: 'intent', id: 'a', at: new Date().toISOString(), params: p });
    await journal.append({ op: 'attempt', id: 'a', n: 1, slot: await direct.getSlot({ commitment: 'processed' }) });
    await direct.mintCompressedNft(p); // sent; the process "dies" before journaling the answer
    await journal.close();
    journal = await openMintJournal(path);
    try {
      const r = await mintCompressedNft(direct, p, { ...once, id: 'a', journal });
      expect(r.reconciled).toBe(true);
      expect(await named(owner, 'Crash after')).toEqual([r.assetId]);
    } finally {
      await journal.close();
    }
  });

  it('a process that died before sending: the indexer shows nothing, so it mints once', async () => {
    const owner = newAddress();
    const path = journalPath();
    const p = item(owner, 'Crash before');
    let journal = await openMintJournal(path);
    await journal.append({ op: 'intent', id: 'b', at: new Date().toISOString(), params: p });
    await journal.append({ op: 'attempt', id: 'b', n: 1, slot: await direct.getSlot({ commitment: 'processed' }) });
    await journal.close();
    journal = await openMintJournal(path);
    try {
      const r = await mintCompressedNft(direct, p, { ...once, id: 'b', journal });
      expect(r).toMatchObject({ reconciled: false, fromJournal: false });
      expect(await named(owner, 'Crash before')).toEqual([r.assetId]);
    } finally {
      await journal.close();
    }
  });

  it('an asset of the same content minted before the intent is not taken for it', async () => {
    const owner = newAddress();
    const p = item(owner, 'Twin');
    const earlier = await direct.mintCompressedNft(p);
    await named(owner, 'Twin');
    let mints = 0;
    proxy.lose = (r) => r.rpcMethod === 'mintCompressedNft' && ++mints === 1;
    const journal = await openMintJournal(journalPath());
    try {
      const r = await mintCompressedNft(lossy, p, { ...once, id: 't', journal });
      expect(r.reconciled).toBe(true);
      expect(r.assetId).not.toBe(earlier.assetId);
      expect((await named(owner, 'Twin')).sort()).toEqual([earlier.assetId, r.assetId].sort());
    } finally {
      proxy.lose = () => false;
      await journal.close();
    }
  });

  it('an id journaled for another item is refused; a bad id or a journal without an id names the field', async () => {
    const owner = newAddress();
    const journal = await openMintJournal(journalPath());
    try {
      await mintCompressedNft(direct, item(owner, 'First'), { ...once, id: 'x', journal });
      await expect(mintCompressedNft(direct, item(owner, 'Second'), { ...once, id: 'x', journal })).rejects.toMatchObject({ code: 'MINT_JOURNAL', context: { id: 'x' } });
      await expect(mintCompressedNft(direct, item(owner, 'Third'), { ...once, journal })).rejects.toMatchObject({ context: { field: 'id' } });
      await expect(mintCompressedNft(direct, item(owner, 'Third'), { ...once, id: '', journal })).rejects.toMatchObject({ context: { field: 'id' } });
    } finally {
      await journal.close();
    }
    await expect(openMintJournal(journal.path).then((j) => j.close())).resolves.toBeUndefined();
  });

  it('a refusal is journaled as nothing minted; the next call mints at once, without waiting for the indexer', async () => {
    const owner = newAddress();
    const journal = await openMintJournal(journalPath());
    const limited = createClient({ url: devnet.url, logger: () => {}, retry: { delay: () => 0, retries: 1 } });
    try {
      devnet.control.setFaults('rpc', { rateLimitRate: 1, retryAfterSeconds: 0 });
      // getSlot is refused too: the intent is journaled, no attempt is
      await expect(mintCompressedNft(limited, item(owner, 'Refused'), { ...once, id: 'r', journal })).rejects.toMatchObject({ code: 'RPC_RATE_LIMITED' });
      devnet.control.setFaults('rpc', {});
      const r = await mintCompressedNft(limited, item(owner, 'Refused'), { ...once, id: 'r', journal, landingSlots: 10_000 });
      expect(r.reconciled).toBe(false);
      expect(await named(owner, 'Refused')).toEqual([r.assetId]);
    } finally {
      devnet.control.setFaults('rpc', {});
      await limited.close();
      await journal.close();
    }
  });

  it('under the devnet\'s lost fault, every intent is minted exactly once', async () => {
    const owner = newAddress();
    const journal = await openMintJournal(journalPath());
    try {
      devnet.control.setFaults('rpc', { lostRate: 0.3 });
      const results = [];
      for (let i = 0; i < 8; i++) results.push(await mintCompressedNft(direct, item(owner, `Lossy ${i}`), { ...once, id: `l${i}`, journal }));
      devnet.control.setFaults('rpc', {});
      expect(results.some((r) => r.reconciled)).toBe(true);
      for (let i = 0; i < 8; i++) expect(await named(owner, `Lossy ${i}`)).toEqual([results[i]!.assetId]);
    } finally {
      devnet.control.setFaults('rpc', {});
      await journal.close();
    }
  });
});
