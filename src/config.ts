/**
 * Where cairn talks to. The service has four hosts (JSON-RPC base, REST for /v0, the /fast sender,
 * the wallet-history REST host); each is configurable on its own. With nothing configured every host
 * points at the embedded devnet's default address, so `cairn send` and friends work out of the box.
 * Environment variables: CAIRN_RPC_URL, CAIRN_REST_URL, CAIRN_SENDER_URL, CAIRN_WALLET_URL, CAIRN_API_KEY.
 */
import { InputError, registerSecret } from './errors.js';

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
export type EndpointsInput = { [K in keyof Endpoints]?: Endpoints[K] | undefined } & { url?: string | undefined };

/**
 * Resolve endpoints: explicit values, then `url` (one host for all four, as the devnet serves),
 * then CAIRN_* environment variables, then the devnet default.
 */
export function resolveEndpoints(input: EndpointsInput = {}, env: NodeJS.ProcessEnv = process.env): Endpoints {
  const fallback = input.url ?? env.CAIRN_URL ?? DEFAULT_DEVNET_URL;
  const pick = (v: string | undefined, envName: string, field: string): string => {
    const raw = v ?? env[envName] ?? fallback;
    let u: URL;
    try {
      u = new URL(raw);
    } catch (cause) {
      throw new InputError(field, `expected an absolute http(s) URL, got ${JSON.stringify(raw)}`, { cause });
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') {
      throw new InputError(field, `expected an http(s) URL, got protocol ${u.protocol}`);
    }
    if (u.searchParams.has('api-key')) {
      throw new InputError(field, 'put the API key in the apiKey option, not in the URL');
    }
    return raw.replace(/\/+$/, '');
  };
  const apiKey = checkApiKey(input.apiKey ?? env.CAIRN_API_KEY ?? undefined);
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
export const MIN_API_KEY_CHARS = 4;

/** The key as given, or an InputError that names the field and never shows the value. */
function checkApiKey(key: unknown): string | undefined {
  if (key === undefined || key === '') return undefined;
  if (typeof key !== 'string') throw new InputError('apiKey', `expected a string, got ${key === null ? 'null' : typeof key}`, { expected: 'string' });
  if (key.length < MIN_API_KEY_CHARS) {
    throw new InputError('apiKey', `expected at least ${MIN_API_KEY_CHARS} characters, got ${key.length}`, { expected: `string of ${MIN_API_KEY_CHARS}+ characters` });
  }
  return key;
}
