/**
 * Which client a sender talks through: the caller's own, or one it creates from `url` / `baseUrl` /
 * `senderUrl` / `apiKey` — on a named region's host, or on the candidate sender host with the lowest
 * `/ping` round trip. The ranking runs lazily under the sender's life signal, so `createSender`
 * stays synchronous and `close()` cuts the pings short.
 */
import type { Cluster } from '../../clusters.js';
import { createClient } from '../../rpc/index.js';
import { InputError } from '../../errors/index.js';
import type { SenderRpc } from './rpc.js';
import { rankSenders, SENDER_REGIONS } from './submit.js';

/** The endpoint part of `createSender`'s config. */
export interface EndpointConfig {
  /**
   * The RPC client (`createClient(...)` from src/rpc/client/create-client.ts, or anything with the same methods).
   * When absent, the sender creates one from `url` / `baseUrl` / `senderUrl` / `apiKey` (CAIRN_*
   * environment, default: the local devnet) and closes it on `close()`.
   */
  client?: SenderRpc;
  /**
   * For a client the sender creates: the service's production hosts of this cluster (with an
   * `apiKey` and no host, `'mainnet'`); `region` or `senderUrl` still picks the `/fast` host.
   */
  cluster?: Cluster;
  url?: string;
  baseUrl?: string;
  senderUrl?: string;
  /**
   * Region choice for a client the sender creates: a region name of `SENDER_REGIONS` ('fra', 'ams',
   * …), or a list of candidate sender hosts of which the lowest `/ping` round trip wins (timed once,
   * before the first request). Ignored when `client` is given.
   */
  region?: string;
  senderUrls?: readonly string[];
  apiKey?: string;
  /** For a client the sender creates: send the key over plain http to a non-loopback host (refused otherwise). */
  allowInsecureKey?: boolean;
  /** For a client the sender creates: the overall deadline of one call, retries included (ms, default 60,000). */
  deadlineMs?: number;
  /** Close the client on `close()` (default: true only for a client the sender created). */
  ownsClient?: boolean;
}

/**
 * The client a sender uses, and whether the sender closes it. `life` is the sender's life signal:
 * the `/ping` ranking of `senderUrls` runs under it.
 */
export function senderClient(config: EndpointConfig, life: AbortSignal): { rpc: SenderRpc; owns: boolean } {
  const endpointOpts = {
    ...(config.cluster !== undefined ? { cluster: config.cluster } : {}),
    ...(config.url ? { url: config.url } : {}),
    ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
    ...(config.senderUrl ? { senderUrl: config.senderUrl } : {}),
    ...(config.apiKey ? { apiKey: config.apiKey } : {}),
    ...(config.allowInsecureKey !== undefined ? { allowInsecureKey: config.allowInsecureKey } : {}),
    ...(config.deadlineMs !== undefined ? { deadlineMs: config.deadlineMs } : {}),
  };
  let rpc: SenderRpc;
  if (config.client) rpc = config.client;
  else if (config.senderUrls !== undefined) {
    if (!Array.isArray(config.senderUrls) || config.senderUrls.length === 0) throw new InputError('senderUrls', 'expected a non-empty array of URLs');
    const urls = [...config.senderUrls];
    // Time /ping once, lazily: createSender stays synchronous, the first call waits for the choice.
    // Under the sender's life signal: close() cuts the pings short and no ping leaves after it.
    const chosen = rankSenders(urls, { samples: 3, signal: life }).then(([best]) =>
      createClient({ ...endpointOpts, senderUrl: best.rttMs === Infinity ? urls[0] : best.url }),
    );
    chosen.catch(() => undefined);
    rpc = lazyRpc(chosen);
  } else if (config.region !== undefined) {
    const url = SENDER_REGIONS[config.region];
    if (!url) throw new InputError('region', `expected one of ${Object.keys(SENDER_REGIONS).join(', ')}, got ${JSON.stringify(config.region)}`);
    rpc = createClient({ ...endpointOpts, senderUrl: url });
  } else rpc = createClient(endpointOpts);
  if (!rpc || typeof rpc.sendTransaction !== 'function' || typeof rpc.getSignatureStatuses !== 'function') {
    throw new InputError('config.client', 'expected an RPC client (createClient from cairn/rpc)');
  }
  return { rpc, owns: config.ownsClient ?? config.client === undefined };
}

/** A SenderRpc whose calls wait for a client that is still being chosen. */
function lazyRpc(p: Promise<SenderRpc>): SenderRpc {
  const fwd =
    (m: keyof SenderRpc) =>
    async (...args: unknown[]): Promise<unknown> => {
      const c = await p;
      return (c[m] as (...a: unknown[]) => Promise<unknown>).apply(c, args);
    };
  return {
    getLatestBlockhash: fwd('getLatestBlockhash'),
    getBlockHeight: fwd('getBlockHeight'),
    getSignatureStatuses: fwd('getSignatureStatuses'),
    getTransaction: fwd('getTransaction'),
    simulateTransaction: fwd('simulateTransaction'),
    getPriorityFeeEstimate: fwd('getPriorityFeeEstimate'),
    sendTransaction: fwd('sendTransaction'),
    call: fwd('call'),
    ping: fwd('ping'),
    close: async () => {
      const c = await p.catch(() => undefined);
      await c?.close?.();
    },
  } as SenderRpc;
}
