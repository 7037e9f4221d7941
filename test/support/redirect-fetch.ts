/**
 * Keeps a test on loopback while a client library with its hosts built in (helius-sdk: the RPC,
 * `/fast`, webhook and wallet hosts) talks to them: `fetch`, `WebSocket` and `dns.lookup` are
 * wrapped so that a request to a redirected host goes to the devnet (same path and query, `https`
 * → `http`, `wss` → `ws`), a request to loopback passes, and anything else is refused loudly — a
 * `CairnError` thrown where the library called, and an entry in `refused` the test asserts on (some
 * libraries swallow the error, e.g. helius-sdk's tip-floor fetch).
 *
 * Importing this module defines `globalThis.WebSocket` (Node 20 has none) as a `ws` subclass that
 * routes the same way. `@solana/kit` picks its WebSocket class once, when its module is evaluated,
 * so this module must be imported BEFORE anything that loads kit (helius-sdk, litesvm, src/devnet).
 */
import dns from 'node:dns';
import { WebSocket as WsWebSocket, type ClientOptions } from 'ws';
import { CairnError } from '../../src/errors/index.js';

/**
 * Every host helius-sdk 3.2 builds a URL for, that the devnet serves (its paths: JSON-RPC on `/`,
 * `/fast`, `/v0/…`, `/v1/wallet/…`, websockets on `/`). Taken from the SDK's dist; the hosts it
 * names that the devnet does not serve are `HELIUS_SDK_UNSERVED_HOSTS`, each with why.
 */
export const HELIUS_SDK_HOSTS: readonly string[] = [
  // createHelius: `https://${network}.helius-rpc.com/`, and wss:// on the same host for kit's subscriptions
  'mainnet.helius-rpc.com',
  'devnet.helius-rpc.com',
  // transactions/types.js SENDER_ENDPOINTS: Default (https) and the regional plain-http hosts
  'sender.helius-rpc.com',
  ...['slc', 'ewr', 'lon', 'fra', 'ams', 'sg', 'tyo'].map((r) => `${r}-sender.helius-rpc.com`),
  // webhooks/*.js, and enhanced/ on mainnet (`/v0/transactions`, `/v0/addresses/:a/transactions`)
  'api-mainnet.helius-rpc.com',
  // enhanced/ with network 'devnet'
  'api-devnet.helius.xyz',
  // wallet/utils.js BASE_URL https://api.helius.xyz/v1/wallet
  'api.helius.xyz',
];

/** Hosts helius-sdk names that are left unredirected (so refused), and why. */
export const HELIUS_SDK_UNSERVED_HOSTS: Readonly<Record<string, string>> = {
  'bundles.jito.wtf': "a third party's tip-floor feed (determineTipSol); the SDK falls back to the minimum tip when it fails",
  'atlas-mainnet.helius-rpc.com': 'Enhanced WebSocket (transactionSubscribe, enhanced accountSubscribe): the devnet serves the standard subscriptions only',
  'atlas-devnet.helius-rpc.com': 'Enhanced WebSocket, devnet network: as atlas-mainnet',
  'beta.helius-rpc.com': 'the pre-confirmation WebSocket (websockets/preconfWs.js): a provider-only stream with no devnet counterpart',
  'admin-api.helius.xyz': 'the account admin API (project usage): no accounts on the devnet',
  'dev-api.helius.xyz': 'the signup/auth API (projects, API keys, payments): no accounts on the devnet',
  'dashboard.helius.dev': 'payment links shown to a human, never fetched by the SDK itself',
  'helius-docs.s3.us-east-2.amazonaws.com': 'the SFDP rejects list (staking helpers): a static file of mainnet validators',
  'api.mainnet-beta.solana.com': "the public Solana RPC the auth helpers use to pay for a plan: mainnet's, not the provider's",
  'www.helius.dev': 'documentation links in error messages, never fetched',
};

export interface RedirectedRequest {
  /** `fetch` (with the HTTP method) or `websocket`. */
  via: string;
  /** The URL the library asked for, with any `api-key` value hidden. */
  url: string;
}

export interface Redirect {
  /** Every URL refused (neither loopback nor a redirected host), `api-key` values hidden, in order. */
  readonly refused: readonly string[];
  /** Every request sent to the target instead of its host, in order. */
  readonly redirected: readonly RedirectedRequest[];
  /** Put `fetch` and `dns.lookup` back; the WebSocket class then passes loopback only. */
  restore(): void;
}

export interface RedirectOptions {
  /** Where redirected requests go: an http URL on loopback (`devnet.url`). */
  target: string;
  hosts: readonly string[];
}

interface Active {
  target: URL;
  hosts: Set<string>;
  refused: string[];
  redirected: RedirectedRequest[];
}

let active: Active | null = null;

const LOOPBACK = new Set(['127.0.0.1', '[::1]', '::1', 'localhost']);

/** A URL for logs and assertions: the key's value never leaves the request. */
const hideKey = (url: string): string => url.replace(/([?&]api-key=)[^&#]*/g, '$1…');

function refuse(via: string, url: string): never {
  const shown = hideKey(url);
  active?.refused.push(shown);
  throw new CairnError('RPC_NETWORK', `redirect-fetch: ${via} to ${shown} refused: not loopback and not a redirected host (add it to the redirect, or leave it out of the test)`, {
    context: { url: shown },
  });
}

/** The URL to use instead of `url` for `via`, or a refusal. `ws` maps the scheme to ws:. */
function route(url: string, via: string, ws: boolean): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return refuse(via, url);
  }
  if (LOOPBACK.has(u.hostname)) return url;
  if (active && active.hosts.has(u.hostname)) {
    active.redirected.push({ via, url: hideKey(url) });
    const to = new URL(u.pathname + u.search, active.target);
    if (ws) to.protocol = 'ws:';
    return to.toString();
  }
  return refuse(via, url);
}

/** `globalThis.WebSocket` while this module is loaded: `ws`, through `route`. */
class RedirectingWebSocket extends WsWebSocket {
  constructor(address: string | URL, protocols?: string | string[], options?: ClientOptions) {
    super(route(String(address), 'websocket', true), protocols, options);
  }
}
(globalThis as { WebSocket?: unknown }).WebSocket = RedirectingWebSocket;

/**
 * Redirect `hosts` to `target` until `restore()`. One redirect at a time.
 *
 * @example
 * const redirect = redirectToLoopback({ target: devnet.url, hosts: HELIUS_SDK_HOSTS });
 * const helius = createHelius({ apiKey: 'k' }); // https://mainnet.helius-rpc.com/ → devnet.url
 * // …
 * expect(redirect.refused).toEqual([]);
 * redirect.restore();
 */
export function redirectToLoopback(o: RedirectOptions): Redirect {
  if (active) throw new CairnError('INPUT_INVALID', 'redirect-fetch: a redirect is active already; restore() it first', { context: { field: 'redirect' } });
  const target = new URL(o.target);
  if (!LOOPBACK.has(target.hostname)) throw new CairnError('INPUT_INVALID', `redirect-fetch: target must be on loopback, got ${target.hostname}`, { context: { field: 'target' } });
  const state: Active = { target, hosts: new Set(o.hosts), refused: [], redirected: [] };
  active = state;

  const realFetch = globalThis.fetch;
  globalThis.fetch = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    const url = input instanceof Request ? input.url : String(input);
    let to: string;
    try {
      to = route(url, `fetch ${method}`, false);
    } catch (e) {
      return Promise.reject(e);
    }
    return realFetch(input instanceof Request ? new Request(to, input) : to, init);
  };

  // The last line of defence: whatever reaches the network without fetch or WebSocket (http.request,
  // a library's own socket) resolves a name first. IP literals never get here.
  const realLookup = dns.lookup;
  const guardedLookup = ((hostname: string, ...rest: unknown[]) => {
    if (hostname === 'localhost') return (realLookup as (...a: unknown[]) => unknown)(hostname, ...rest);
    const cb = rest[rest.length - 1] as (e: Error) => void;
    const shown = `dns:${hostname}`;
    state.refused.push(shown);
    process.nextTick(() => cb(new CairnError('RPC_NETWORK', `redirect-fetch: name lookup of ${hostname} refused: tests stay on loopback`, { context: { url: shown } })));
  }) as typeof dns.lookup;
  dns.lookup = guardedLookup;

  return {
    refused: state.refused,
    redirected: state.redirected,
    restore() {
      if (active !== state) return;
      globalThis.fetch = realFetch;
      if (dns.lookup === guardedLookup) dns.lookup = realLookup;
      active = null;
    },
  };
}
