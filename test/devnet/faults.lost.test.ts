/**
 * The `lostRate` fault (`--fault lost=P`): the devnet serves the request — a mint mints, a webhook is
 * made — and then cuts the connection instead of answering, so clients can test unknown outcomes. It
 * draws from the endpoint's seeded stream like the other faults (a seed replays the same losses), and
 * on the typed client it yields RPC_OUTCOME_UNKNOWN, never a second mint.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { parseFault } from '../../src/cli/devnet.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createFaults } from '../../src/devnet/faults/endpoints.js';
import type { EndpointFaults, FaultEndpoint } from '../../src/devnet/types.js';
import { createClient } from '../../src/rpc/client/create-client.js';
import { newAddress } from '../support/devnet.js';

const devnets: Devnet[] = [];
afterEach(async () => {
  await Promise.all(devnets.splice(0).map((d) => d.stop()));
});
async function start(o: Parameters<typeof startDevnet>[0]): Promise<Devnet> {
  const d = await startDevnet({ port: 0, slotMs: 20, wsPortPlusOne: false, ...o });
  devnets.push(d);
  return d;
}

describe('the lost fault', () => {
  it('draws from the seeded stream at its rate, after the other faults, and is checked naming the field', () => {
    const a = createFaults(9, { rpc: { lostRate: 0.3, serverErrorRate: 0.1 } });
    const b = createFaults(9, { rpc: { lostRate: 0.3, serverErrorRate: 0.1 } });
    let lost = 0;
    for (let i = 0; i < 4_000; i++) {
      const d = a.decide('rpc');
      expect(b.decide('rpc')).toEqual(d);
      if (d.lost) {
        lost++;
        expect(d.status).toBeUndefined();
      }
    }
    expect(lost / 4_000).toBeGreaterThan(0.27);
    expect(lost / 4_000).toBeLessThan(0.33);
    // a lost rate leaves the other faults' sequence as the seed gave it
    const plain = createFaults(9, { rpc: { serverErrorRate: 0.1 } });
    const withLost = createFaults(9, { rpc: { serverErrorRate: 0.1, lostRate: 0.5 } });
    for (let i = 0; i < 500; i++) expect(withLost.decide('rpc').status).toBe(plain.decide('rpc').status);
    expect(() => createFaults(1, { rest: { lostRate: 2 } })).toThrowError(/faults.rest.lostRate/);
    expect(() => createFaults(1, { rpc: { lostRate: 0.6, serverErrorRate: 0.6 } })).toThrowError(/lostRate must be ≤ 1/);
  });

  it('`--fault lost=P` sets it on the JSON-RPC and REST hosts', () => {
    const into: Partial<Record<FaultEndpoint, EndpointFaults>> = {};
    parseFault('rpc:serverErrorRate=0.05', into);
    parseFault('lost=0.05', into);
    expect(into).toEqual({ rpc: { serverErrorRate: 0.05, lostRate: 0.05 }, rest: { lostRate: 0.05 } });
    expect(() => parseFault('lost=1.5', {})).toThrowError(/--fault lost/);
  });

  it('a lost mint was minted, a lost webhook creation made the webhook; the answers never came', async () => {
    const devnet = await start({ seed: 5, faults: { rpc: { lostRate: 1 }, rest: { lostRate: 1 } } });
    const owner = newAddress();
    const mint = await fetch(devnet.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: '1', method: 'mintCompressedNft', params: { name: 'Lost', symbol: 'L', description: '', owner } }),
    }).then(
      () => 'answered',
      () => 'lost',
    );
    expect(mint).toBe('lost');
    const hook = await fetch(`${devnet.url}/v0/webhooks`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ webhookURL: 'http://127.0.0.1:9/h', accountAddresses: [owner] }),
    }).then(
      () => 'answered',
      () => 'lost',
    );
    expect(hook).toBe('lost');
    expect(devnet.control.webhooks().filter((h) => h.accountAddresses.includes(owner))).toHaveLength(1);
    devnet.control.setFaults('rpc', {});
    const client = createClient({ url: devnet.url, logger: () => {} });
    try {
      const slot = await client.getSlot();
      while ((await client.getSlot()) < slot + 3) await new Promise((r) => setTimeout(r, 20));
      expect((await client.getAssetsByOwner({ ownerAddress: owner })).items.map((a) => a.content?.metadata?.name)).toEqual(['Lost']);
    } finally {
      await client.close();
    }
  });

  it('under lost=0.4 the typed client mints each call at most once and says which outcomes are unknown', async () => {
    const devnet = await start({ seed: 6, faults: { rpc: { lostRate: 0.4 } } });
    const client = createClient({ url: devnet.url, logger: () => {}, retry: { delay: () => 0 } });
    try {
      const owner = newAddress();
      let unknown = 0;
      for (let i = 0; i < 20; i++) {
        await client.mintCompressedNft({ name: `L${i}`, symbol: 'L', description: '', owner }).catch((e: { code?: string }) => {
          expect(e.code).toBe('RPC_OUTCOME_UNKNOWN');
          unknown++;
        });
      }
      expect(unknown).toBeGreaterThan(2);
      devnet.control.setFaults('rpc', {});
      const slot = await client.getSlot();
      while ((await client.getSlot()) < slot + 3) await new Promise((r) => setTimeout(r, 20));
      const names = (await client.getAssetsByOwner({ ownerAddress: owner, limit: 1000 })).items.map((a) => a.content?.metadata?.name);
      expect(names.sort()).toEqual(Array.from({ length: 20 }, (_, i) => `L${i}`).sort());
    } finally {
      await client.close();
    }
  });
});
