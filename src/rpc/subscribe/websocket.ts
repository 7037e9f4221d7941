/**
 * One multiplexed JSON-RPC websocket per endpoint: every subscription of a client shares it. It
 * connects on the first subscription and closes a moment after the last one leaves; it pings the
 * server (providers drop idle sockets after minutes) and treats a missing pong as a dead socket; a
 * socket that drops is reopened with exponential backoff and every subscription on it is sent again,
 * each told (`onDown`, then `onResubscribed`) so it can re-read or report what it may have missed.
 *
 * The API key travels only in the URL's `api-key` parameter and is never part of an error: errors
 * name the endpoint by its key-free URL, and their text goes through the redactor.
 */
import WebSocket from 'ws';
import { abortError } from '../../abort.js';
import { ErrorCodes, NetworkError, RpcError, UnauthorizedError, ForbiddenError, RateLimitedError, redact } from '../../errors/index.js';

/** A subscription's registration on the socket. */
export interface Channel {
  method: string;
  params: unknown[];
  unsubscribeMethod: string;
  onNotification(result: unknown): void;
  /** The socket dropped; the channel stays registered and is sent again on the next socket. */
  onDown(error: Error): void;
  /** Sent again on a new socket and acknowledged (not called for the first subscription). */
  onResubscribed(): void;
  /** The server refused the subscription when it was sent again: it is gone. */
  onFail(error: Error): void;
}

export interface SocketOptions {
  /** ws: or wss: URL, without the key. */
  url: string;
  apiKey?: string | undefined;
  /** Ping every this many ms (default 10,000). */
  pingMs?: number | undefined;
  /** A socket whose pong is this late is dead (default 5,000). */
  pongTimeoutMs?: number | undefined;
  /** Reconnect backoff bounds (defaults 100 and 5,000 ms). */
  reconnectMinMs?: number | undefined;
  reconnectMaxMs?: number | undefined;
  /** How long a subscribe (or the connection it waits for) may take (default 10,000). */
  requestTimeoutMs?: number | undefined;
  /** Keep the socket this long after its last subscription left (default 1,000). */
  lingerMs?: number | undefined;
  logger?: ((line: string) => void) | undefined;
}

export interface SocketStats {
  /** Websocket messages sent and received (pings and pongs excluded). */
  sent: number;
  received: number;
  connects: number;
  reconnects: number;
  /** Sockets given up because a pong did not come in time. */
  pingTimeouts: number;
}

export interface MuxSocket {
  /** Register `ch` and send its subscribe; resolves once the server acknowledged it. */
  subscribe(ch: Channel, signal?: AbortSignal): Promise<void>;
  /** Leave: the server is told when it knows the subscription. */
  unsubscribe(ch: Channel): void;
  /** Leave without telling the server: it ended the subscription itself (a signature notified). */
  forget(ch: Channel): void;
  /** Called with true when a socket opens, false when it drops. */
  onState(fn: (up: boolean) => void): () => void;
  readonly up: boolean;
  readonly stats: SocketStats;
  readonly url: string;
  /** Close the socket and forget every channel; settles once the socket is closed. */
  close(): Promise<void>;
}

interface Pending {
  resolve(v: unknown): void;
  reject(e: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

export function createMuxSocket(o: SocketOptions): MuxSocket {
  const pingMs = o.pingMs ?? 10_000;
  const pongTimeoutMs = o.pongTimeoutMs ?? 5_000;
  const minMs = o.reconnectMinMs ?? 100;
  const maxMs = o.reconnectMaxMs ?? 5_000;
  const requestTimeoutMs = o.requestTimeoutMs ?? 10_000;
  const lingerMs = o.lingerMs ?? 1_000;
  const shown = o.url;
  const target = (() => {
    const u = new URL(o.url);
    if (o.apiKey) u.searchParams.set('api-key', o.apiKey);
    return u.href;
  })();
  const stats: SocketStats = { sent: 0, received: 0, connects: 0, reconnects: 0, pingTimeouts: 0 };
  /** Channels and the id the current socket knows each by (undefined: not acknowledged on it). */
  const channels = new Map<Channel, number | undefined>();
  const byServerId = new Map<number, Channel>();
  const pending = new Map<number, Pending>();
  /** Channels waiting for their first acknowledgement. */
  const firstWaiters = new Map<Channel, { resolve(): void; reject(e: Error): void }>();
  const stateFns = new Set<(up: boolean) => void>();
  let ws: WebSocket | undefined;
  let isUp = false;
  let everUp = false;
  let attempt = 0;
  let nextId = 1;
  let closed = false;
  let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  let pingTimer: ReturnType<typeof setInterval> | undefined;
  let pongTimer: ReturnType<typeof setTimeout> | undefined;
  let lingerTimer: ReturnType<typeof setTimeout> | undefined;
  let closedSocket: Promise<void> = Promise.resolve();

  const log = (line: string): void => o.logger?.(redact(line));
  const setState = (up: boolean): void => {
    if (isUp === up) return;
    isUp = up;
    for (const fn of [...stateFns]) fn(up);
  };
  const socketError = (why: string, cause?: unknown): Error => {
    const m = /Unexpected server response: (\d{3})/.exec(why);
    const status = m ? Number(m[1]) : undefined;
    const text = `websocket ${shown}: ${why}`;
    const ctx = { context: { url: shown, method: 'websocket', ...(status ? { status } : {}) }, cause };
    if (status === 401) return new UnauthorizedError(ErrorCodes.RPC_UNAUTHORIZED, text, ctx);
    if (status === 403) return new ForbiddenError(ErrorCodes.RPC_FORBIDDEN, text, ctx);
    if (status === 429) return new RateLimitedError(ErrorCodes.RPC_RATE_LIMITED, text, ctx);
    return new NetworkError(ErrorCodes.RPC_NETWORK, text, ctx);
  };

  const send = (msg: unknown): boolean => {
    if (!ws || ws.readyState !== WebSocket.OPEN) return false;
    stats.sent++;
    ws.send(JSON.stringify(msg));
    return true;
  };
  /**
   * Send a request; `done` runs synchronously with the answer, so that a notification the server
   * sends right behind its acknowledgement (a signature already landed) finds its channel mapped.
   */
  const request = (method: string, params: unknown[], done: (e: Error | undefined, result?: unknown) => void): void => {
    const id = nextId++;
    const timer = setTimeout(() => {
      pending.delete(id);
      done(socketError(`${method} got no answer in ${requestTimeoutMs} ms`));
      // a socket that does not answer is as good as dead
      ws?.terminate();
    }, requestTimeoutMs);
    pending.set(id, { resolve: (v) => done(undefined, v), reject: (e) => done(e), timer });
    if (!send({ jsonrpc: '2.0', id, method, params })) {
      clearTimeout(timer);
      pending.delete(id);
      done(socketError('not connected'));
    }
  };

  const sendSubscribe = (ch: Channel, again: boolean): void => {
    const sock = ws;
    request(ch.method, ch.params, (e, sid) => {
      if (e) {
        if (e instanceof RpcError) failChannel(ch, e);
        // socket trouble: the close handler sends it again (or fails its first waiter)
        return;
      }
      if (ws !== sock) return; // an answer from a socket since replaced
      if (typeof sid !== 'number') return failChannel(ch, socketError(`${ch.method} answered ${JSON.stringify(sid)?.slice(0, 80)}, expected a subscription id`));
      if (!channels.has(ch)) {
        // left while the answer was on its way
        send({ jsonrpc: '2.0', id: nextId++, method: ch.unsubscribeMethod, params: [sid] });
        return;
      }
      channels.set(ch, sid);
      byServerId.set(sid, ch);
      const first = firstWaiters.get(ch);
      if (first) {
        firstWaiters.delete(ch);
        first.resolve();
      } else if (again) ch.onResubscribed();
    });
  };
  const failChannel = (ch: Channel, e: Error): void => {
    if (!channels.has(ch)) return;
    channels.delete(ch);
    const first = firstWaiters.get(ch);
    firstWaiters.delete(ch);
    if (first) first.reject(e);
    else ch.onFail(e);
    maybeLinger();
  };

  const onMessage = (data: WebSocket.RawData): void => {
    stats.received++;
    let msg: {
      id?: unknown;
      result?: unknown;
      error?: { code?: unknown; message?: unknown; data?: unknown };
      method?: unknown;
      params?: { subscription?: unknown; result?: unknown };
    };
    try {
      msg = JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : Array.isArray(data) ? Buffer.concat(data).toString('utf8') : Buffer.from(data).toString('utf8'));
    } catch {
      return log(`websocket ${shown}: dropped a message that is not JSON`);
    }
    if (msg === null || typeof msg !== 'object') return;
    if (typeof msg.id === 'number' && pending.has(msg.id)) {
      const p = pending.get(msg.id)!;
      pending.delete(msg.id);
      clearTimeout(p.timer);
      if (msg.error) {
        const code = typeof msg.error.code === 'number' ? msg.error.code : -32603;
        p.reject(new RpcError(ErrorCodes.RPC_ERROR, `websocket ${shown}: ${String(msg.error.message ?? 'error')}`, { context: { rpcCode: code, data: msg.error.data } }));
      } else p.resolve(msg.result);
      return;
    }
    if (typeof msg.method === 'string' && msg.params && typeof msg.params.subscription === 'number') {
      const ch = byServerId.get(msg.params.subscription);
      if (ch && channels.has(ch)) ch.onNotification(msg.params.result);
    }
  };

  const stopTimers = (): void => {
    if (pingTimer) clearInterval(pingTimer);
    if (pongTimer) clearTimeout(pongTimer);
    pingTimer = pongTimer = undefined;
  };

  const connect = (): void => {
    if (closed || ws) return;
    const sock = new WebSocket(target, { maxPayload: MAX_MESSAGE_BYTES, handshakeTimeout: requestTimeoutMs, perMessageDeflate: false });
    ws = sock;
    let resolveClosed!: () => void;
    closedSocket = new Promise<void>((r) => (resolveClosed = r));
    let lastError: Error | undefined;
    sock.on('open', () => {
      if (ws !== sock) return;
      stats.connects++;
      if (everUp) stats.reconnects++;
      const again = everUp;
      everUp = true;
      attempt = 0;
      setState(true);
      pingTimer = setInterval(() => {
        if (pongTimer) return;
        sock.ping();
        pongTimer = setTimeout(() => {
          stats.pingTimeouts++;
          lastError = socketError(`no pong within ${pongTimeoutMs} ms`);
          log(lastError.message);
          sock.terminate();
        }, pongTimeoutMs);
      }, pingMs);
      for (const ch of channels.keys()) sendSubscribe(ch, again && !firstWaiters.has(ch));
    });
    sock.on('pong', () => {
      if (pongTimer) clearTimeout(pongTimer);
      pongTimer = undefined;
    });
    sock.on('message', onMessage);
    sock.on('unexpected-response', (_req, res) => {
      lastError = socketError(`Unexpected server response: ${res.statusCode}`);
      res.resume();
      sock.terminate();
    });
    sock.on('error', (e) => {
      lastError ??= socketError(e.message, e);
    });
    sock.on('close', () => {
      resolveClosed();
      if (ws !== sock) return;
      ws = undefined;
      stopTimers();
      const err = lastError ?? socketError('the connection closed');
      for (const [id, p] of pending) {
        clearTimeout(p.timer);
        pending.delete(id);
        p.reject(err);
      }
      byServerId.clear();
      for (const ch of channels.keys()) channels.set(ch, undefined);
      // a subscription never acknowledged fails now rather than waiting through the backoff
      for (const [ch, w] of [...firstWaiters]) {
        firstWaiters.delete(ch);
        channels.delete(ch);
        w.reject(err);
      }
      const wasUp = isUp;
      setState(false);
      if (wasUp) for (const ch of [...channels.keys()]) ch.onDown(err);
      if (closed || channels.size === 0) return;
      const delay = Math.min(maxMs, minMs * 2 ** attempt) * (0.8 + Math.random() * 0.4);
      attempt++;
      log(`${err.message}; reconnecting in ${Math.round(delay)} ms`);
      reconnectTimer = setTimeout(() => {
        reconnectTimer = undefined;
        connect();
      }, delay);
    });
  };

  const maybeLinger = (): void => {
    if (channels.size > 0 || closed || lingerTimer) return;
    lingerTimer = setTimeout(() => {
      lingerTimer = undefined;
      if (channels.size > 0) return;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = undefined;
      ws?.close(1000);
    }, lingerMs);
    lingerTimer.unref();
  };

  const leave = (ch: Channel, tell: boolean): void => {
    if (!channels.has(ch)) return;
    const sid = channels.get(ch);
    channels.delete(ch);
    firstWaiters.delete(ch);
    if (sid !== undefined) {
      byServerId.delete(sid);
      if (tell) send({ jsonrpc: '2.0', id: nextId++, method: ch.unsubscribeMethod, params: [sid] });
    }
    maybeLinger();
  };

  return {
    subscribe(ch, signal) {
      if (closed) return Promise.reject(socketError('the client is closed'));
      if (signal?.aborted) return Promise.reject(abortError(ErrorCodes.RPC_ABORTED, signal, 'subscribe'));
      if (lingerTimer) clearTimeout(lingerTimer);
      lingerTimer = undefined;
      return new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          firstWaiters.delete(ch);
          channels.delete(ch);
          reject(abortError(ErrorCodes.RPC_ABORTED, signal, 'subscribe'));
          maybeLinger();
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        const done = (): void => signal?.removeEventListener('abort', onAbort);
        firstWaiters.set(ch, {
          resolve: () => (done(), resolve()),
          reject: (e) => (done(), reject(e)),
        });
        channels.set(ch, undefined);
        if (isUp) sendSubscribe(ch, false);
        else if (!ws && !reconnectTimer) connect();
      });
    },
    unsubscribe(ch) {
      leave(ch, true);
    },
    forget(ch) {
      leave(ch, false);
    },
    onState(fn) {
      stateFns.add(fn);
      return () => stateFns.delete(fn);
    },
    get up() {
      return isUp;
    },
    stats,
    url: shown,
    async close() {
      if (closed) return closedSocket;
      closed = true;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      if (lingerTimer) clearTimeout(lingerTimer);
      stopTimers();
      const err = socketError('the client is closed');
      for (const [ch, w] of [...firstWaiters]) {
        firstWaiters.delete(ch);
        w.reject(err);
      }
      channels.clear();
      byServerId.clear();
      const sock = ws;
      if (sock) {
        const t = setTimeout(() => sock.terminate(), 250);
        sock.once('close', () => clearTimeout(t));
        if (sock.readyState === WebSocket.CONNECTING) sock.terminate();
        else sock.close(1000);
      }
      stateFns.clear();
      await closedSocket;
    },
  };
}
