/**
 * A mint whose answer is lost after the service acted on it (issue 36): a forwarding proxy passes
 * the call to the devnet, which mints, then cuts the client's connection instead of passing the
 * answer on. The client must not send the call again in the dark: it fails with
 * `RPC_OUTCOME_UNKNOWN`, saying what finds the outcome, and the owner holds one cNFT, not two.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { CairnError } from '../../src/errors/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { newAddress } from '../support/devnet.js';
import { startLossyProxy, type LossyProxy } from '../support/lossy-proxy.js';

let devnet: Devnet;
let proxy: LossyProxy;
let client: CairnClient;
let direct: CairnClient;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, slotMs: 20, seed: 36, wsPortPlusOne: false });
  proxy = await startLossyProxy(devnet.url);
  client = createClient({ url: proxy.url, logger: () => {} });
  direct = createClient({ url: devnet.url, logger: () => {} });
});
afterAll(async () => {
  await client?.close();
  await direct?.close();
  await proxy?.close();
  await devnet?.stop();
});

/** The owner's assets once the mint transactions have landed (the indexer shows what executed). */
async function assetsNamed(owner: string, name: string): Promise<number> {
  const slot = await direct.getSlot();
  while ((await direct.getSlot()) < slot + 3) await new Promise((r) => setTimeout(r, 20));
  const page = await direct.getAssetsByOwner({ ownerAddress: owner, limit: 1000 });
  return page.items.filter((a) => a.content?.metadata?.name === name).length;
}

describe('an answer lost after the service acted', () => {
  it('mintCompressedNft is not sent again: one mint, not two, and the error says the outcome is unknown', async () => {
    const owner = newAddress();
    let mints = 0;
    proxy.lose = (r) => r.rpcMethod === 'mintCompressedNft' && ++mints === 1;
    const err = await client.mintCompressedNft({ name: 'Once #1', symbol: 'ONCE', description: '', owner }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(proxy.requests.filter((r) => r.rpcMethod === 'mintCompressedNft')).toHaveLength(1);
    expect(await assetsNamed(owner, 'Once #1')).toBe(1);
    expect(err).toBeInstanceOf(CairnError);
    expect((err as CairnError).code).toBe('RPC_OUTCOME_UNKNOWN');
    expect((err as Error).message).toMatch(/getAssetsByOwner/);
  });

  it('a read whose answer is lost is still retried (reads are idempotent)', async () => {
    let lost = 0;
    proxy.lose = (r) => r.rpcMethod === 'getSlot' && ++lost === 1;
    const before = proxy.requests.length;
    await expect(client.getSlot()).resolves.toBeGreaterThan(0);
    expect(proxy.requests.slice(before).filter((r) => r.rpcMethod === 'getSlot')).toHaveLength(2);
  });
});
