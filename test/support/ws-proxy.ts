/**
 * A websocket proxy on 127.0.0.1 in front of a real server (the devnet's websocket), to put real
 * network faults between a client and it: `cut()` drops every connection mid-stream (the client sees
 * 1006, as on a reset), `freeze()` keeps the TCP connections open but stops answering pings and
 * forwarding anything (a half-open socket, a stuck load balancer), `refuse()` turns new connections
 * away. Every message through it is counted each way.
 */
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

export interface WsProxy {
  url: string;
  /** Messages client → server and server → client. */
  counts: { up: number; down: number; connections: number };
  /** Query strings the clients connected with (to check where the key went). */
  queries: string[];
  cut(): void;
  freeze(on: boolean): void;
  refuse(on: boolean): void;
  readonly open: number;
  close(): Promise<void>;
}

export async function startWsProxy(upstream: string): Promise<WsProxy> {
  let frozen = false;
  let refusing = false;
  const pairs = new Set<{ client: WebSocket; server: WebSocket }>();
  const counts = { up: 0, down: 0, connections: 0 };
  const queries: string[] = [];
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0, autoPong: false });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  wss.on('connection', (client, req) => {
    if (refusing) return client.terminate();
    counts.connections++;
    const q = (req.url ?? '').includes('?') ? (req.url ?? '').slice((req.url ?? '').indexOf('?')) : '';
    queries.push(q);
    const server = new WebSocket(upstream + q);
    const pair = { client, server };
    pairs.add(pair);
    const early: WebSocket.RawData[] = [];
    client.on('ping', (d) => {
      if (!frozen) client.pong(d);
    });
    client.on('message', (m, binary) => {
      if (frozen) return;
      counts.up++;
      if (server.readyState === WebSocket.OPEN) server.send(m, { binary });
      else early.push(m);
    });
    server.on('open', () => {
      for (const m of early.splice(0)) server.send(m, { binary: false });
    });
    server.on('message', (m, binary) => {
      if (frozen) return;
      counts.down++;
      if (client.readyState === WebSocket.OPEN) client.send(m, { binary });
    });
    const end = (): void => {
      pairs.delete(pair);
      client.terminate();
      server.terminate();
    };
    client.on('close', end);
    server.on('close', end);
    client.on('error', () => {});
    server.on('error', () => {});
  });
  const cut = (): void => {
    for (const p of [...pairs]) {
      p.client.terminate();
      p.server.terminate();
    }
  };
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    counts,
    queries,
    cut,
    freeze(on) {
      frozen = on;
    },
    refuse(on) {
      refusing = on;
    },
    get open() {
      return pairs.size;
    },
    async close() {
      cut();
      await new Promise<void>((r) => wss.close(() => r()));
    },
  };
}
