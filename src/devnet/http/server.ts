/**
 * The devnet's HTTP server: the four hosts of the spec on one loopback port — JSON-RPC on `/`,
 * `/fast` and `/ping`, the REST paths under `/v0/…` and `/v1/wallet/…` — plus the Solana
 * websocket subscriptions that `@solana/web3.js` needs to confirm. It holds the method table, the
 * route table and the request log, and listens; a request's way through (keys, faults, caps,
 * dispatch) is request.ts, the websockets are subscriptions.ts. Modules (standard methods,
 * DAS, compression, wallet history, token metadata, webhooks) plug their methods and routes in.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CairnError } from '../../errors/index.js';
import type { Auth } from './auth.js';
import type { DevnetChain } from '../chain/contract.js';
import type { ResolvedFastRules } from './fast.js';
import type { Faults } from '../faults/endpoints.js';
import { send } from './io.js';
import { DEFAULT_LIMITS } from './limits.js';
import { createRequestHandler } from './request.js';
import { createRouteTable } from './routes.js';
import { dispatchRpc } from './dispatch.js';
import { stringify } from './json-rpc.js';
import { createSubscriptions } from './subscriptions.js';
import type { DevnetLimits, DevnetModule, RequestLogEntry, RpcHandler } from '../types.js';

/** The request log keeps this many most recent entries. */
export const REQUEST_LOG_CAPACITY = 50_000;

export interface DevnetServerOptions {
  chain: DevnetChain;
  auth: Auth;
  faults: Faults;
  fastRules: ResolvedFastRules;
  modules: DevnetModule[];
  host?: string;
  port?: number;
  /** Also listen on port + 1 for websockets, where `@solana/web3.js` looks by default (best effort). */
  wsPortPlusOne?: boolean;
  /** Request caps, already validated (`resolveLimits`); default `DEFAULT_LIMITS`. */
  limits?: DevnetLimits;
  log?: (line: string) => void;
}

export interface DevnetServer {
  readonly url: string;
  readonly wsUrl: string;
  requestLog(): RequestLogEntry[];
  clearRequestLog(): void;
  /** The JSON-RPC methods served now (every mounted module's), sorted. */
  methods(): string[];
  close(): Promise<void>;
}

/**
 * Start the HTTP server. Resolves once it listens.
 *
 * @example
 * const server = await startDevnetServer({ chain, auth, faults, fastRules, modules: [solana] });
 * console.log(server.url); // http://127.0.0.1:41234
 */
export async function startDevnetServer(o: DevnetServerOptions): Promise<DevnetServer> {
  const { chain, auth, faults, fastRules } = o;
  const limits = o.limits ?? DEFAULT_LIMITS;
  const log = o.log ?? (() => {});
  const methods = new Map<string, RpcHandler>();
  const routes = createRouteTable();
  const requestLog: RequestLogEntry[] = [];
  let closing = false;

  // In order: a later module's method of the same name replaces an earlier one's.
  for (const m of o.modules) {
    for (const [name, h] of Object.entries(m.methods)) methods.set(name, h);
    for (const [key, handler] of Object.entries(m.routes ?? {})) routes.add(key, handler);
  }

  const record = (e: RequestLogEntry) => {
    requestLog.push(e);
    // Trim in chunks: one splice per 10,000 requests instead of a 50,000-element shift per request.
    if (requestLog.length > REQUEST_LOG_CAPACITY + 10_000) requestLog.splice(0, requestLog.length - REQUEST_LOG_CAPACITY);
  };

  const dispatchDeps = { chain, fastRules, methods, log };
  const handler = createRequestHandler({
    auth,
    faults,
    routes,
    limits,
    dispatch: (call, c) => dispatchRpc(dispatchDeps, call, c),
    record,
    log,
    closing: () => closing,
  });
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    if (closing) {
      send(res, 503, stringify({ error: 'devnet stopping' }), { connection: 'close' });
      return;
    }
    handler.handle(req, res).catch((e: unknown) => {
      log(`devnet: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      send(res, 500, stringify({ error: 'internal error' }));
    });
  };
  const subscriptions = createSubscriptions({ chain, auth, limits, log, closing: () => closing });

  const servers: Server[] = [];
  const listen = (port: number, host: string): Promise<Server> =>
    new Promise((resolve, reject) => {
      const s = createServer({ keepAliveTimeout: 30_000 }, onRequest);
      s.on('upgrade', subscriptions.onUpgrade);
      s.once('error', reject);
      s.listen(port, host, () => {
        s.off('error', reject);
        resolve(s);
      });
    });

  const host = o.host ?? '127.0.0.1';
  let main: Server;
  try {
    main = await listen(o.port ?? 0, host);
  } catch (cause) {
    await subscriptions.close();
    throw new CairnError('DEVNET_START_FAILED', `devnet cannot listen on ${host}:${o.port ?? 0}: ${(cause as Error).message}`, { cause, context: { host, port: o.port ?? 0 } });
  }
  servers.push(main);
  const port = (main.address() as AddressInfo).port;
  const hostInUrl = host.includes(':') ? `[${host}]` : host;
  let wsUrl = `ws://${hostInUrl}:${port}`;
  if (o.wsPortPlusOne && port < 65535) {
    try {
      servers.push(await listen(port + 1, host));
      wsUrl = `ws://${hostInUrl}:${port + 1}`;
    } catch {
      log(`devnet: port ${port + 1} is taken; websockets are served on ${port} only`);
    }
  }

  return {
    url: `http://${hostInUrl}:${port}`,
    wsUrl,
    requestLog: () => requestLog.slice(-REQUEST_LOG_CAPACITY),
    methods: () => [...methods.keys()].sort(),
    clearRequestLog: () => {
      requestLog.length = 0;
    },
    async close() {
      if (closing) return;
      closing = true;
      handler.abortAll();
      await subscriptions.close();
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((resolve) => {
              s.close(() => resolve());
              s.closeAllConnections();
            }),
        ),
      );
    },
  };
}
