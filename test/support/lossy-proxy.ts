/**
 * A forwarding proxy on 127.0.0.1 that loses answers: it forwards every request to the upstream as
 * it is, waits for the upstream's whole answer, and for the requests `lose` picks cuts the client's
 * connection instead of passing the answer on. The upstream has acted on the request by then, which
 * is what a timeout, a reset or a proxy restart looks like from the client: the outcome is unknown.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ProxiedRequest {
  method: string;
  path: string;
  body: string;
  /** The JSON-RPC method, when the body is a JSON-RPC call. */
  rpcMethod?: string;
  /** The answer was lost (the client's connection cut after the upstream answered). */
  lost: boolean;
}

export interface LossyProxy {
  url: string;
  requests: ProxiedRequest[];
  /** Decides per request whether its answer is lost (set it at any time). */
  lose: (r: ProxiedRequest, index: number) => boolean;
  close(): Promise<void>;
}

/**
 * Start a proxy in front of `upstream` (an http URL).
 *
 * @example
 * const proxy = await startLossyProxy(devnet.url, (r) => r.rpcMethod === 'mintCompressedNft');
 */
export async function startLossyProxy(upstream: string, lose: LossyProxy['lose'] = () => false): Promise<LossyProxy> {
  const up = new URL(upstream);
  const requests: ProxiedRequest[] = [];
  const sockets = new Set<Socket>();
  const agent = new http.Agent({ keepAlive: true });
  const state = { lose };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let rpcMethod: string | undefined;
      try {
        const j = JSON.parse(body) as { method?: unknown };
        if (typeof j?.method === 'string') rpcMethod = j.method;
      } catch {
        /* not JSON-RPC */
      }
      const rec: ProxiedRequest = { method: req.method ?? 'GET', path: req.url ?? '/', body, ...(rpcMethod ? { rpcMethod } : {}), lost: false };
      const index = requests.push(rec) - 1;
      const headers = { ...req.headers, host: up.host };
      const fwd = http.request({ host: up.hostname, port: up.port, path: req.url, method: req.method, headers, agent }, (ures) => {
        const out: Buffer[] = [];
        ures.on('data', (c: Buffer) => out.push(c));
        ures.on('end', () => {
          if (state.lose(rec, index)) {
            rec.lost = true;
            req.socket.destroy();
            return;
          }
          res.writeHead(ures.statusCode ?? 502, ures.headers);
          res.end(Buffer.concat(out));
        });
      });
      fwd.on('error', () => req.socket.destroy());
      fwd.end(body);
    });
  });
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get lose() {
      return state.lose;
    },
    set lose(f) {
      state.lose = f;
    },
    async close() {
      for (const s of sockets) s.destroy();
      agent.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
