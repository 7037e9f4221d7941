/**
 * A submit `/fast` refuses with 429 (`Retry-After: 1`), against the devnet under an API key: by
 * default the same signed bytes go at once through the JSON-RPC host's `sendTransaction` and are
 * confirmed before `/fast`'s Retry-After has passed; with `rateLimited: 'wait'`, with `swqosOnly`,
 * on a client of the caller's own without `call`, and for bundles, nothing goes to the JSON-RPC host
 * and `/fast` gets the bytes again after the wait. Assertions are on the order of events and on which
 * host carried the bytes (the devnet's request log), never on durations. The suite's leak guard
 * scans every error built here for the key.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevnet, type Devnet } from '../../src/devnet/index.js';
import { createClient, type CairnClient } from '../../src/rpc/client/create-client.js';
import { createSender, generateSigner, resolveSenderConfig, transferInstruction, type SenderConfig } from '../../src/sender/index.js';
import type { SenderRpc } from '../../src/sender/client/rpc.js';
import { RateLimitedError } from '../../src/errors/index.js';
import { sleep } from '../support/sender.js';

const KEY = 'rate-limited-test-key-0123456789abcdef';
let devnet: Devnet;
let client: CairnClient;
const payer = generateSigner();
// rebroadcasts far apart: the only /fast requests of a send are its first submit and the Retry-After resend
const quiet = { cuPrice: 200_000, cuLimit: 1_000, pollMs: 50, rebroadcastMs: 10_000 } as const;

beforeAll(async () => {
  devnet = await startDevnet({ port: 0, slotMs: 50, seed: 11, wsPortPlusOne: false, keys: [{ key: KEY }] });
  await devnet.control.airdrop(payer.address, 100n * 10n ** 9n);
  for (const t of resolveSenderConfig({}).tipAccounts) await devnet.control.airdrop(t, 10n ** 9n);
  // the key goes to /fast too, so that every refusal below is an error built around a keyed URL
  client = createClient({ url: devnet.url, apiKey: KEY, allowInsecureKey: true, senderApiKey: true });
});
afterAll(async () => {
  await client?.close();
  await devnet?.stop();
});

// Every /fast request is a send (a refused one is logged by its host, not its method); the JSON-RPC
// host's by their method (no faults there in this file).
const sends = (endpoint: 'fast' | 'rpc') =>
  devnet.control.requestLog().filter((e) => e.endpoint === endpoint && (endpoint === 'fast' || e.method === 'sendTransaction'));
const transfer = (lamports: bigint) => ({ instructions: [transferInstruction(payer.address, generateSigner().address, lamports)], payer });

describe('a submit /fast refuses with 429', () => {
  it('goes at once through the JSON-RPC host and is confirmed before /fast gets it again', async () => {
    const sender = createSender({ client, ...quiet });
    const seen: string[] = [];
    let atConfirmed: { fast: ReturnType<typeof sends>; rpc: ReturnType<typeof sends> } | undefined;
    sender.on('rerouted', (e) => seen.push(`rerouted ${e.retryAfterMs}`));
    sender.on('sent', () => seen.push('sent'));
    sender.on('confirmed', () => {
      seen.push('confirmed');
      atConfirmed = { fast: sends('fast'), rpc: sends('rpc') };
    });
    devnet.control.clearRequestLog();
    devnet.control.setFaults('fast', { rateLimitRate: 1, retryAfterSeconds: 1 });
    try {
      // bounded, so that a sender that only waits fails here instead of hanging the file
      const out = await sender.send(transfer(1_000_001n), { signal: AbortSignal.timeout(8_000) });
      expect(devnet.chain.transaction(out.signature)?.err).toBeNull();
    } finally {
      devnet.control.setFaults('fast', {});
    }
    expect(seen).toEqual(['rerouted 1000', 'sent', 'confirmed']);
    // /fast refused once; the JSON-RPC host carried the bytes; /fast's Retry-After resend had not come
    expect(atConfirmed!.fast.map((e) => e.status)).toEqual([429]);
    expect(atConfirmed!.rpc.map((e) => e.status)).toEqual([200]);
    await sender.close();
    // the resend waiting out the Retry-After ended with the intent: nothing reaches /fast after close
    await sleep(1_300);
    expect(sends('fast')).toHaveLength(1);
    expect(sender.stats.submits).toBe(1);
    expect(sender.stats.rerouted).toBe(1);
  });

  it('when the JSON-RPC host refuses them too, /fast gets the bytes again once its Retry-After has passed, not before', async () => {
    // the second route refused (a 429 of its own), and /fast willing again by the time it is asked
    const refusing = new Proxy(client, {
      get(target, prop, recv) {
        if (prop !== 'call') return Reflect.get(target, prop, recv) as unknown;
        return async () => {
          devnet.control.setFaults('fast', {});
          throw new RateLimitedError('RPC_RATE_LIMITED', 'sendTransaction was rate limited (429)', { context: { status: 429 } });
        };
      },
    });
    const sender = createSender({ client: refusing, ...quiet });
    const seen: string[] = [];
    sender.on('rerouted', (e) => seen.push(`rerouted ${e.accepted}`));
    sender.on('rebroadcast', () => seen.push('rebroadcast'));
    sender.on('confirmed', () => seen.push('confirmed'));
    devnet.control.clearRequestLog();
    devnet.control.setFaults('fast', { rateLimitRate: 1, retryAfterSeconds: 1 });
    try {
      await sender.send(transfer(1_000_005n));
    } finally {
      devnet.control.setFaults('fast', {});
    }
    expect(seen).toEqual(['rerouted false', 'rebroadcast', 'confirmed']);
    const [refused, again] = sends('fast');
    expect([refused?.status, again?.status]).toEqual([429, 200]);
    // held for the Retry-After: no slot-paced rebroadcast went to /fast before it ended
    expect(again!.at - refused!.at).toBeGreaterThanOrEqual(950);
    expect(sends('rpc')).toHaveLength(0);
    await sender.close();
  });

  it("rateLimited takes 'rpc' or 'wait'", () => {
    expect(() => createSender({ client, rateLimited: 'never' as 'wait' })).toThrowError(/"rateLimited"/);
  });

  const waiting: [string, Partial<SenderConfig>, () => SenderRpc][] = [
    ["rateLimited: 'wait'", { rateLimited: 'wait' }, () => client],
    ['swqosOnly (the caller asked for stake-weighted routing only)', { swqosOnly: true }, () => client],
    ["a client of the caller's own without call", {}, () => withoutCall(client)],
  ];
  it.each(waiting)('%s: /fast gets the bytes again after its Retry-After, the JSON-RPC host never', async (_, options, rpc) => {
    const sender = createSender({ client: rpc(), ...quiet, ...options });
    let rerouted = 0;
    sender.on('rerouted', () => rerouted++);
    devnet.control.clearRequestLog();
    devnet.control.setFaults('fast', { rateLimitRate: 1, retryAfterSeconds: 1 });
    let out: Promise<unknown>;
    try {
      out = sender.send(transfer(1_000_002n));
      out.catch(() => undefined);
      // the client waits out Retry-After and asks /fast again: the second refusal proves it waited
      for (let i = 0; i < 100 && sends('fast').length < 2; i++) await sleep(25);
      expect(sends('fast').map((e) => e.status)).toEqual([429, 429]);
    } finally {
      devnet.control.setFaults('fast', {});
    }
    await out;
    expect(sends('rpc')).toHaveLength(0);
    expect(rerouted).toBe(0);
    await sender.close();
  });

  it('a bundle keeps waiting: /fast sendBundle has no JSON-RPC equivalent', async () => {
    const sender = createSender({ client, ...quiet });
    devnet.control.clearRequestLog();
    devnet.control.setFaults('fast', { rateLimitRate: 1, retryAfterSeconds: 1 });
    let out: Promise<unknown>;
    try {
      out = sender.sendBundle([transfer(1_000_003n), transfer(1_000_004n)]);
      out.catch(() => undefined);
      for (let i = 0; i < 100 && sends('fast').length < 2; i++) await sleep(25);
      expect(sends('fast').map((e) => e.status)).toEqual([429, 429]);
    } finally {
      devnet.control.setFaults('fast', {});
    }
    await out;
    expect(sends('rpc')).toHaveLength(0);
    await sender.close();
  });
});

/** The client as a caller's own SenderRpc would be: the sender's methods, no `call`. */
function withoutCall(c: CairnClient): SenderRpc {
  const m = <K extends keyof SenderRpc>(k: K): SenderRpc[K] => (c[k as keyof CairnClient] as (...a: unknown[]) => unknown).bind(c) as SenderRpc[K];
  return {
    getLatestBlockhash: m('getLatestBlockhash'),
    getBlockHeight: m('getBlockHeight'),
    getSignatureStatuses: m('getSignatureStatuses'),
    getTransaction: m('getTransaction'),
    simulateTransaction: m('simulateTransaction'),
    getPriorityFeeEstimate: m('getPriorityFeeEstimate'),
    sendTransaction: m('sendTransaction'),
  };
}
