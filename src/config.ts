/**
 * Where cairn talks to. The service has four hosts (JSON-RPC base, REST for /v0, the /fast sender,
 * the wallet-history REST host); each is configurable on its own, or all four at once by `cluster`
 * (the production hosts, src/clusters.ts). With no host and no API key every host points at the
 * embedded devnet's default address, so `cairn send` and friends work out of the box; an API key
 * with no host means production (mainnet), as a helius-sdk user expects of `createHelius({ apiKey })`.
 * Environment variables: CAIRN_URL, CAIRN_RPC_URL, CAIRN_REST_URL, CAIRN_SENDER_URL, CAIRN_WALLET_URL,
 * CAIRN_CLUSTER, CAIRN_API_KEY.
 */
import { CLUSTER_HOSTS, isCluster, type Cluster } from './clusters.js';
import { InputError, registerSecret } from './errors/index.js';

export const DEFAULT_DEVNET_PORT = 8899;
export const DEFAULT_DEVNET_URL = `http://127.0.0.1:${DEFAULT_DEVNET_PORT}`;

export interface Endpoints {
  /** JSON-RPC host ({base_url}). */
  baseUrl: string;
  /** REST host for /v0 paths ({rest_url}). */
  restUrl: string;
  /** Transaction submission host ({sender_url}); `/fast` and `/ping` live under it. */
  senderUrl: string;
  /** Wallet-history REST host ({wallet_url}). */
  walletUrl: string;
  /** API key, sent only as the `api-key` query parameter. */
  apiKey?: string | undefined;
}

/** Every field optional, and `undefined` taken as absent (so `apiKey: process.env.KEY` type-checks under exactOptionalPropertyTypes). */
export type EndpointsInput = { [K in keyof Endpoints]?: Endpoints[K] | undefined } & {
  /** One host for all four (the devnet serves every path on one port). */
  url?: string | undefined;
  /**
   * The service's production hosts for this cluster (README, "Production hosts"); a host given on
   * its own (`baseUrl`, `senderUrl`, …) still wins over the preset. Cannot be combined with `url`.
   */
  cluster?: Cluster | undefined;
};

// The hosts that say which chain a key is for. A `/fast` host alone does not (a region is picked
// for mainnet's chain), so `createSender({ apiKey, region })` still means production.
const CHAIN_HOST_ENV = ['CAIRN_URL', 'CAIRN_RPC_URL', 'CAIRN_REST_URL', 'CAIRN_WALLET_URL'] as const;

/**
 * Resolve endpoints, per host: the explicit value, then `url` (one host for all four, as the devnet
 * serves), then its CAIRN_* environment variable, then CAIRN_URL, then the `cluster` preset (or
 * CAIRN_CLUSTER), then — when an API key is set and no JSON-RPC, REST, wallet or common host was
 * given anywhere — mainnet's hosts, else the devnet default on loopback.
 *
 * @example
 * resolveEndpoints({ apiKey: process.env.KEY, cluster: 'devnet' }).baseUrl; // 'https://devnet.helius-rpc.com'
 */
export function resolveEndpoints(input: EndpointsInput = {}, env: NodeJS.ProcessEnv = process.env): Endpoints {
  const cluster = checkCluster(input.cluster, env.CAIRN_CLUSTER);
  if (cluster !== undefined && input.url !== undefined) {
    throw new InputError('cluster', 'give either cluster (the production hosts) or url (one host for all), not both');
  }
  const apiKey = checkApiKey(input.apiKey ?? env.CAIRN_API_KEY ?? undefined);
  const chainHost =
    input.url !== undefined ||
    input.baseUrl !== undefined ||
    input.restUrl !== undefined ||
    input.walletUrl !== undefined ||
    CHAIN_HOST_ENV.some((k) => env[k] !== undefined && env[k] !== '');
  const preset = cluster !== undefined ? CLUSTER_HOSTS[cluster] : apiKey !== undefined && !chainHost ? CLUSTER_HOSTS.mainnet : undefined;
  const common = input.url ?? env.CAIRN_URL;
  const pick = (v: string | undefined, envName: string, key: keyof typeof CLUSTER_HOSTS.mainnet): string => {
    const raw = v ?? env[envName] ?? common ?? preset?.[key] ?? DEFAULT_DEVNET_URL;
    // blame what the caller wrote: `url` (or CAIRN_URL) when the host came from it, not a field never given
    const field = v !== undefined ? key : env[envName] !== undefined ? envName : input.url !== undefined ? 'url' : env.CAIRN_URL !== undefined ? 'CAIRN_URL' : key;
    // `localhost:8899` parses as a URL of protocol "localhost:": say what is missing instead
    const schemeless = /^[a-z0-9.-]+:\d+(\/.*)?$/i.test(raw) || !raw.includes('://');
    const hint = schemeless ? ` (a URL needs its scheme: did you mean http://${raw}?)` : '';
    let u: URL;
    try {
      u = new URL(raw);
    } catch (cause) {
      throw new InputError(field, `expected an absolute http(s) URL, got ${JSON.stringify(raw)}${hint}`, { cause });
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      throw new InputError(field, `expected an http(s) URL, got ${JSON.stringify(raw)}${hint || ` (protocol ${u.protocol})`}`);
    }
    if (u.searchParams.has('api-key')) {
      throw new InputError(field, 'put the API key in the apiKey option, not in the URL');
    }
    return raw.replace(/\/+$/, '');
  };
  registerSecret(apiKey);
  return {
    baseUrl: pick(input.baseUrl, 'CAIRN_RPC_URL', 'baseUrl'),
    restUrl: pick(input.restUrl, 'CAIRN_REST_URL', 'restUrl'),
    senderUrl: pick(input.senderUrl, 'CAIRN_SENDER_URL', 'senderUrl'),
    walletUrl: pick(input.walletUrl, 'CAIRN_WALLET_URL', 'walletUrl'),
    ...(apiKey ? { apiKey } : {}),
  };
}

/** Shortest key accepted: a shorter one could not be told apart from ordinary text, so logs could not be kept free of it. */
const MIN_API_KEY_CHARS = 4;

/** The key as given, or an InputError that names the field and never shows the value. */
function checkApiKey(key: unknown): string | undefined {
  if (key === undefined || key === '') return undefined;
  if (typeof key !== 'string') throw new InputError('apiKey', `expected a string, got ${key === null ? 'null' : typeof key}`, { expected: 'string' });
  if (key.length < MIN_API_KEY_CHARS) {
    throw new InputError('apiKey', `expected at least ${MIN_API_KEY_CHARS} characters, got ${key.length}`, { expected: `string of ${MIN_API_KEY_CHARS}+ characters` });
  }
  return key;
}

/** The cluster asked for (the option, else CAIRN_CLUSTER), or an InputError naming the field. */
function checkCluster(v: unknown, fromEnv: string | undefined): Cluster | undefined {
  if (v === undefined) {
    if (fromEnv === undefined || fromEnv === '') return undefined;
    if (!isCluster(fromEnv)) throw new InputError('CAIRN_CLUSTER', `expected 'mainnet' or 'devnet', got ${JSON.stringify(fromEnv)}`, { expected: "'mainnet' | 'devnet'" });
    return fromEnv;
  }
  if (!isCluster(v)) throw new InputError('cluster', `expected 'mainnet' or 'devnet', got ${JSON.stringify(v)}`, { expected: "'mainnet' | 'devnet'" });
  return v;
}
