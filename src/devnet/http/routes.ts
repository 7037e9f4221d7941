/**
 * The REST routes the modules plug in ("GET /v0/assets/:id"), matched against a request's method
 * and path: a match with its decoded `:params`, the methods allowed on the path (405), or nothing.
 */
import { CairnError } from '../../errors/index.js';
import type { FaultEndpoint, RestRequest } from '../types.js';

export interface Route {
  method: string;
  parts: string[];
  endpoint: FaultEndpoint;
  handler: (req: RestRequest) => unknown | Promise<unknown>;
}

export type RouteMatch = { route: Route; params: Record<string, string> } | { allowed: string[] } | null;

export interface RouteTable {
  /** Add a route keyed "METHOD /path"; paths under /v1/wallet count as the `wallet` endpoint. */
  add(key: string, handler: Route['handler']): void;
  match(method: string, path: string): RouteMatch;
}

export function createRouteTable(): RouteTable {
  const routes: Route[] = [];
  return {
    add(key, handler) {
      const [method, path] = key.split(' ');
      if (!method || !path) throw new CairnError('DEVNET_INVALID_CONFIG', `bad route key ${JSON.stringify(key)}`);
      routes.push({ method, parts: path.split('/').filter(Boolean), endpoint: path.startsWith('/v1/wallet') ? 'wallet' : 'rest', handler });
    },
    match(method, path) {
      const parts = path.split('/').filter(Boolean);
      const allowed: string[] = [];
      for (const r of routes) {
        if (r.parts.length !== parts.length) continue;
        const params: Record<string, string> = {};
        let ok = true;
        for (let i = 0; i < parts.length; i++) {
          const rp = r.parts[i]!;
          if (rp.startsWith(':')) {
            try {
              params[rp.slice(1)] = decodeURIComponent(parts[i]!);
            } catch {
              ok = false;
            }
          } else if (rp !== parts[i]) ok = false;
          if (!ok) break;
        }
        if (!ok) continue;
        if (r.method === method) return { route: r, params };
        allowed.push(r.method);
      }
      return allowed.length ? { allowed } : null;
    },
  };
}
