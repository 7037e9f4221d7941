/**
 * The production presets: `createClient({ apiKey, cluster })` and `createSender({ apiKey, region })`
 * resolve the service's real host names, checked by redirecting those names' connections to a devnet
 * inside the test (test/support/redirect-hosts.mjs): the client really speaks TLS to the JSON-RPC,
 * REST and wallet hosts and plain http to a regional `/fast` host, with the key in the query string,
 * and nothing leaves loopback. Without an API key, loopback stays the default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_HOSTS, SENDER_REGIONS } from '../../src/clusters.js';
import { DEFAULT_DEVNET_URL, resolveEndpoints } from '../../src/config.js';
import { isCairnError } from '../../src/errors/index.js';
import { createClient } from '../../src/rpc/client/create-client.js';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createSender, generateSigner, transferInstruction } from '../../src/sender/index.js';
import { redirectHosts, type HostRedirect } from '../support/redirect-hosts.mjs';

const KEY = 'preset-test-key-7f3a';
const hostOf = (u: string) => new URL(u).hostname;

describe('resolveEndpoints: the presets', () => {
  it('without an API key every host is the devnet on loopback', () => {
    const e = resolveEndpoints({}, {});
    expect([e.baseUrl, e.restUrl, e.senderUrl, e.walletUrl]).toEqual(Array(4).fill(DEFAULT_DEVNET_URL));
  });

  it('an API key and no host means mainnet', () => {
    const { apiKey: _k, ...hosts } = resolveEndpoints({ apiKey: KEY }, {});
    expect(hosts).toEqual(CLUSTER_HOSTS.mainnet);
    // the key from the environment counts the same
    expect(resolveEndpoints({}, { CAIRN_API_KEY: KEY }).baseUrl).toBe('https://mainnet.helius-rpc.com');
  });

  it("cluster: 'devnet' picks devnet's hosts; a host given on its own still wins", () => {
    const e = resolveEndpoints({ apiKey: KEY, cluster: 'devnet', senderUrl: SENDER_REGIONS.fra }, {});
    expect(e.baseUrl).toBe('https://devnet.helius-rpc.com');
    expect(e.restUrl).toBe('https://api-devnet.helius.xyz');
    expect(e.senderUrl).toBe('http://fra-sender.helius-rpc.com');
    expect(resolveEndpoints({}, { CAIRN_CLUSTER: 'devnet' }).baseUrl).toBe('https://devnet.helius-rpc.com');
  });

  it('an API key with any host given keeps the old meaning: the rest default to loopback', () => {
    const e = resolveEndpoints({ apiKey: KEY, baseUrl: 'http://127.0.0.1:9' }, {});
    expect(e.restUrl).toBe(DEFAULT_DEVNET_URL);
    expect(resolveEndpoints({ apiKey: KEY }, { CAIRN_URL: 'http://127.0.0.1:9' }).walletUrl).toBe('http://127.0.0.1:9');
  });

  it('a bad cluster, or cluster with url, is refused naming the field', () => {
    const bad = (f: () => unknown) => {
      try {
        f();
      } catch (e) {
        return isCairnError(e, 'INPUT_INVALID') ? e.context.field : e;
      }
      return 'no error';
    };
    expect(bad(() => resolveEndpoints({ cluster: 'testnet' as 'devnet' }, {}))).toBe('cluster');
    expect(bad(() => resolveEndpoints({ cluster: 'mainnet', url: 'http://127.0.0.1:9' }, {}))).toBe('cluster');
    expect(bad(() => resolveEndpoints({}, { CAIRN_CLUSTER: 'main' }))).toBe('CAIRN_CLUSTER');
  });
});

describe('the presets against the devnet, host names redirected', () => {
  let devnet: Devnet;
  let redirect: HostRedirect;
  const hosts = [...new Set([...Object.values(CLUSTER_HOSTS).flatMap((h) => Object.values(h).map(hostOf)), ...Object.values(SENDER_REGIONS).map(hostOf)])];

  beforeAll(async () => {
    devnet = await startDevnet({ port: 0, slotMs: 50, keys: [{ key: KEY, name: 'preset' }] });
    redirect = await redirectHosts({ target: devnet.url, hosts });
  }, 60_000);
  afterAll(async () => {
    await redirect?.restore();
    await devnet?.stop();
  });

  it.each(['mainnet', 'devnet'] as const)('createClient({ apiKey, cluster: %s }) reaches its JSON-RPC, REST and wallet hosts over TLS', async (cluster) => {
    const client = createClient({ apiKey: KEY, cluster });
    try {
      const before = redirect.redirected.length;
      expect(await client.getSlot()).toBeGreaterThanOrEqual(0);
      const wallet = generateSigner().address;
      expect((await client.getWalletTransfers({ wallet })).data).toEqual([]);
      await expect(client.getTokenMetadata({ mintAccounts: [wallet] })).resolves.toBeDefined();
      const seen = new Set(redirect.redirected.slice(before));
      const h = CLUSTER_HOSTS[cluster];
      for (const u of [h.baseUrl, h.walletUrl, h.restUrl]) expect(seen).toContain(`https://${hostOf(u)}:443`);
      expect(redirect.refused).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('the key is required there: a wrong one is refused as unauthorized', async () => {
    const client = createClient({ apiKey: 'not-the-key', cluster: 'mainnet', retry: { retries: 0 } });
    try {
      const e = await client.getSlot().catch((x: unknown) => x);
      expect(isCairnError(e, 'RPC_UNAUTHORIZED')).toBe(true);
    } finally {
      await client.close();
    }
  });

  it('createSender({ apiKey, region }) lands a transfer through the regional plain-http /fast host', async () => {
    const payer = generateSigner();
    await devnet.control.airdrop(payer.address, 10n ** 9n);
    const sender = createSender({ apiKey: KEY, region: 'fra', cuPrice: 200_000, cuLimit: 1_000, pollMs: 50 });
    try {
      const before = redirect.redirected.length;
      const out = await sender.send({ instructions: [transferInstruction(payer.address, generateSigner().address, 5_000_000n)], payer });
      expect(typeof out.signature).toBe('string');
      const seen = new Set(redirect.redirected.slice(before));
      expect(seen).toContain('http://fra-sender.helius-rpc.com:80');
      expect(seen).toContain('https://mainnet.helius-rpc.com:443');
      expect(redirect.refused).toEqual([]);
    } finally {
      await sender.close();
    }
  });

  it("createSender({ apiKey, cluster: 'devnet', swqosOnly }) sends through the global https /fast host", async () => {
    const payer = generateSigner();
    await devnet.control.airdrop(payer.address, 10n ** 9n);
    const sender = createSender({ apiKey: KEY, cluster: 'devnet', swqosOnly: true, cuPrice: 200_000, cuLimit: 1_000, pollMs: 50 });
    try {
      const before = redirect.redirected.length;
      await sender.send({ instructions: [transferInstruction(payer.address, generateSigner().address, 5_000_000n)], payer });
      const seen = new Set(redirect.redirected.slice(before));
      expect(seen).toContain('https://sender.helius-rpc.com:443');
      expect(seen).toContain('https://devnet.helius-rpc.com:443');
    } finally {
      await sender.close();
    }
  });

  it('a host outside the redirect is refused, never reached', async () => {
    const client = createClient({ apiKey: KEY, baseUrl: 'https://example.invalid', retry: { retries: 0 } });
    try {
      const e = await client.getSlot().catch((x: unknown) => x);
      expect(isCairnError(e)).toBe(true);
      expect(redirect.refused.at(-1)).toBe('example.invalid:443');
    } finally {
      await client.close();
    }
  });
});
