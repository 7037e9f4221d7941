/**
 * The redirect the helius-sdk conformance tests stand on: every host the SDK's code names is either
 * redirected to the devnet or deliberately left out (and then refused); a URL of neither kind fails
 * loudly, through fetch, WebSocket and name lookup alike; and kit's websocket subscriptions, which the
 * SDK opens on wss://<rpc host>, reach the devnet's websocket on the same port.
 */
import { HELIUS_SDK_HOSTS, HELIUS_SDK_UNSERVED_HOSTS } from '../support/redirect-fetch.js';
import { heliusOnDevnet, type HeliusOnDevnet } from '../support/helius-sdk.js';
import { readdirSync, readFileSync } from 'node:fs';
import dns from 'node:dns';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCairnError } from '../../src/errors/index.js';

let h: HeliusOnDevnet;
beforeAll(async () => {
  h = await heliusOnDevnet({ slotMs: 50 });
});
afterAll(async () => {
  await h?.stop();
});

/** Every host named in a URL literal of helius-sdk's ESM build (comments and examples included). */
function sdkHosts(): Set<string> {
  const root = join(dirname(createRequire(import.meta.url).resolve('helius-sdk/package.json')), 'dist', 'esm');
  const hosts = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.js')) {
        // `${net}`/`${region}` templates are expanded by HELIUS_SDK_HOSTS itself: skip the pattern
        for (const m of readFileSync(p, 'utf8').matchAll(/\b(?:https?|wss?):\/\/([a-z0-9.-]+\.[a-z]{2,})/gi)) hosts.add(m[1]!.toLowerCase());
      }
    }
  };
  walk(root);
  return hosts;
}

describe('the redirect under the helius-sdk tests', () => {
  it("covers every host in the SDK's code: redirected, or left out with a reason", () => {
    const known = new Set([...HELIUS_SDK_HOSTS, ...Object.keys(HELIUS_SDK_UNSERVED_HOSTS)]);
    const found = sdkHosts();
    expect(found.size).toBeGreaterThan(10);
    expect([...found].filter((host) => !known.has(host))).toEqual([]);
  });

  it('refuses a URL that is neither loopback nor redirected, loudly and on record', async () => {
    const before = h.redirect.refused.length;
    const e = await fetch('https://atlas-mainnet.helius-rpc.com/?api-key=abc').catch((x: unknown) => x);
    expect(isCairnError(e, 'RPC_NETWORK')).toBe(true);
    expect((e as Error).message).toMatch(/refused/);
    expect(() => new WebSocket('wss://example.invalid/')).toThrow(/refused/);
    const lookup = await new Promise<Error | null>((resolve) => dns.lookup('example.invalid', (err) => resolve(err)));
    expect(lookup?.message).toMatch(/refused/);
    // the key's value is kept out of the record
    expect(h.redirect.refused.slice(before)).toEqual(['https://atlas-mainnet.helius-rpc.com/?api-key=…', 'wss://example.invalid/', 'dns:example.invalid']);
  });

  it("kit's subscriptions on wss://mainnet.helius-rpc.com reach the devnet's websocket", async () => {
    const before = h.redirect.refused.length;
    const ac = new AbortController();
    try {
      const slots = await h.helius.ws.slotNotifications();
      const it = (await slots.subscribe({ abortSignal: ac.signal }))[Symbol.asyncIterator]();
      const first = (await it.next()).value as { slot: bigint };
      expect(first.slot).toBeGreaterThan(0n);
    } finally {
      ac.abort();
    }
    expect(h.redirect.redirected.some((r) => r.via === 'websocket' && r.url === 'wss://mainnet.helius-rpc.com/?api-key=…')).toBe(true);
    expect(h.redirect.refused.slice(before)).toEqual([]);
  });
});
