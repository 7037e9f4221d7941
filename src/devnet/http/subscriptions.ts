/**
 * The devnet's websockets: the Solana subscriptions `@solana/web3.js` and kit use to confirm
 * (`signatureSubscribe`, `slotSubscribe`) and to watch state (`accountSubscribe`, `logsSubscribe`,
 * `programSubscribe`, `rootSubscribe`: watches.ts), with their unsubscribes, served on the
 * HTTP server's upgrade path behind the same API-key check as JSON-RPC, and notified at every slot.
 */
import { parseLossless } from '../../json/index.js';
import { asksZstd, ensureZstd, zstdReady } from '../encoding/zstd.js';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Auth } from './auth.js';
import type { DevnetChain } from '../chain/contract.js';
import { createChainWatches, UNWATCH_METHODS, WATCH_METHODS } from './watches.js';
import { jsonShape } from './json-shape.js';
import { cfg, commitmentOf } from '../params/solana.js';
import { isRpcId, MAX_METHOD_NAME, rpcError, stringify } from './json-rpc.js';
import { DevnetRpcError, type Commitment, type DevnetLimits } from '../types.js';

/** Websocket messages above this size close the connection (1009): subscriptions are a few hundred bytes. */
const WS_MAX_MESSAGE_BYTES = 1024 * 1024;
/** How long a client has to answer the close handshake on stop() before its socket is cut. */
const CLOSE_GRACE_MS = 250;
const BASE58_SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/;
const COMMITMENT_RANK: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 };

export interface SubscriptionsOptions {
  chain: DevnetChain;
  auth: Auth;
  limits: DevnetLimits;
  log: (line: string) => void;
  /** True once the server is stopping: upgrades are refused. */
  closing(): boolean;
}

export interface Subscriptions {
  /** The HTTP server's `upgrade` listener. */
  onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  /** Stop notifying, and end every connection. */
  close(): Promise<void>;
}

export function createSubscriptions(o: SubscriptionsOptions): Subscriptions {
  const { chain, auth, limits, log } = o;
  const wss = new WebSocketServer({ noServer: true, maxPayload: WS_MAX_MESSAGE_BYTES });
  let nextSub = 1;
  interface SigSub { id: number; ws: WebSocket; signature: string; commitment: Commitment }
  const sigSubs = new Map<number, SigSub>();
  const slotSubs = new Map<number, WebSocket>();
  const wsSend = (ws: WebSocket, v: unknown) => {
    if (ws.readyState !== ws.OPEN) return;
    // A client that stops reading would make the devnet hold every answer for it: once more than
    // maxResponseBytes wait unsent, it is dropped.
    if (ws.bufferedAmount > limits.maxResponseBytes) return ws.terminate();
    ws.send(stringify(v));
  };
  const checkSig = (s: SigSub) => {
    const st = chain.status(s.signature);
    if (!st || COMMITMENT_RANK[st.confirmationStatus] < COMMITMENT_RANK[s.commitment]) return;
    sigSubs.delete(s.id);
    wsSend(s.ws, { jsonrpc: '2.0', method: 'signatureNotification', params: { result: { context: { slot: chain.slot() }, value: { err: st.err } }, subscription: s.id } });
  };
  const watches = createChainWatches(chain, (ws, v) => wsSend(ws as WebSocket, v));
  const unsubscribeSlot = chain.onSlot((slot) => {
    for (const s of [...sigSubs.values()]) checkSig(s);
    for (const [id, ws] of slotSubs) wsSend(ws, { jsonrpc: '2.0', method: 'slotNotification', params: { result: { parent: slot - 1, root: Math.max(0, slot - chain.finalizeSlots), slot }, subscription: id } });
  });
  const onWsMessage = (ws: WebSocket, data: RawData) => {
    const bytes = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
    if (jsonShape(bytes, limits.maxJsonDepth).tooDeep) {
      return wsSend(ws, rpcError(null, -32600, `Invalid request: JSON nested deeper than ${limits.maxJsonDepth} levels (the devnet's maxJsonDepth)`));
    }
    let msg: unknown;
    try {
      msg = parseLossless(bytes.toString('utf8'), 'bigint');
    } catch {
      return wsSend(ws, rpcError(null, -32700, 'Parse error'));
    }
    if (Array.isArray(msg)) return wsSend(ws, rpcError(null, -32600, 'Invalid request: the websocket takes one request per message, not a batch'));
    if (msg === null || typeof msg !== 'object') return wsSend(ws, rpcError(null, -32600, 'Invalid request: expected a JSON-RPC 2.0 object'));
    const { id, method, params } = msg as { id?: unknown; method?: unknown; params?: unknown };
    if (!isRpcId(id)) return wsSend(ws, rpcError(null, -32600, 'Invalid request: "id" must be a string, a number or null'));
    if (id === undefined || id === null) return; // notifications (web3.js sends "ping") need no answer
    const p = Array.isArray(params) ? params : [];
    // an accountSubscribe / programSubscribe in base64+zstd waits for the wasm once, then runs as any
    if (asksZstd(p) && !zstdReady()) {
      void ensureZstd().then(() => onWsMessage(ws, data), () => wsSend(ws, rpcError(id, -32603, 'Internal error: zstd did not load')));
      return;
    }
    const subscribing = method === 'signatureSubscribe' || method === 'slotSubscribe' || (typeof method === 'string' && Object.hasOwn(WATCH_METHODS, method));
    if (subscribing && sigSubs.size + slotSubs.size + watches.size() >= limits.maxSubscriptions) {
      return wsSend(ws, rpcError(id, -32603, `Internal error: subscription refused: ${limits.maxSubscriptions} subscriptions are open (the devnet's maxSubscriptions)`));
    }
    switch (method) {
      case 'signatureSubscribe': {
        // checked on every slot until it lands: only a real signature is worth keeping
        if (typeof p[0] !== 'string' || !BASE58_SIGNATURE.test(p[0])) return wsSend(ws, rpcError(id, -32602, 'Invalid params: params[0] must be a base58 signature'));
        let commitment: Commitment;
        try {
          commitment = commitmentOf(cfg(p[1], 'params[1]'), 'finalized');
        } catch (e) {
          if (e instanceof DevnetRpcError) return wsSend(ws, rpcError(id, e.rpcCode, e.message));
          throw e;
        }
        const sub: SigSub = { id: nextSub++, ws, signature: p[0], commitment };
        sigSubs.set(sub.id, sub);
        wsSend(ws, { jsonrpc: '2.0', id, result: sub.id });
        return checkSig(sub);
      }
      case 'slotSubscribe': {
        const sid = nextSub++;
        slotSubs.set(sid, ws);
        return wsSend(ws, { jsonrpc: '2.0', id, result: sid });
      }
      case 'signatureUnsubscribe':
      case 'slotUnsubscribe': {
        const sid = p[0];
        const had = typeof sid === 'number' && (method === 'signatureUnsubscribe' ? sigSubs.delete(sid) : slotSubs.delete(sid));
        return wsSend(ws, { jsonrpc: '2.0', id, result: had });
      }
      default:
        if (typeof method === 'string' && Object.hasOwn(WATCH_METHODS, method)) {
          const sid = nextSub++;
          try {
            watches.subscribe(WATCH_METHODS[method]!, params, ws, sid);
          } catch (e) {
            if (e instanceof DevnetRpcError) return wsSend(ws, rpcError(id, e.rpcCode, e.message));
            throw e;
          }
          return wsSend(ws, { jsonrpc: '2.0', id, result: sid });
        }
        if (typeof method === 'string' && Object.hasOwn(UNWATCH_METHODS, method)) {
          // a u64 id past 2^53 (read exactly) was never issued: unknown, as any other
          if (typeof p[0] === 'bigint' && p[0] >= 0n) return wsSend(ws, { jsonrpc: '2.0', id, result: false });
          if (typeof p[0] !== 'number') return wsSend(ws, rpcError(id, -32602, 'Invalid params: params[0] must be a subscription id'));
          return wsSend(ws, { jsonrpc: '2.0', id, result: watches.unsubscribe(UNWATCH_METHODS[method]!, p[0]) });
        }
        return wsSend(ws, rpcError(id, -32601, typeof method === 'string' && method.length <= MAX_METHOD_NAME ? `Method not found: ${method}` : 'Method not found'));
    }
  };
  wss.on('connection', (ws) => {
    ws.on('message', (data) => {
      // A throw here would escape into ws' socket handler and take the whole process down.
      try {
        onWsMessage(ws, data);
      } catch (e) {
        log(`devnet: internal error on the websocket: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
        wsSend(ws, rpcError(null, -32603, 'Internal error'));
      }
    });
    ws.on('close', () => {
      for (const [sid, s] of sigSubs) if (s.ws === ws) sigSubs.delete(sid);
      for (const [sid, w] of slotSubs) if (w === ws) slotSubs.delete(sid);
      watches.dropSocket(ws);
    });
    ws.on('error', () => {});
  });
  return {
    onUpgrade(req, socket, head) {
      if (o.closing()) return socket.destroy();
      const q = (req.url ?? '').indexOf('?');
      const verdict = auth.check('rpc', new URLSearchParams(q < 0 ? '' : (req.url ?? '').slice(q + 1)).get('api-key'), req.socket.remoteAddress ?? '');
      if (!verdict.ok) {
        socket.end(`HTTP/1.1 ${verdict.status} ${verdict.status === 401 ? 'Unauthorized' : verdict.status === 403 ? 'Forbidden' : 'Too Many Requests'}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
    },
    async close() {
      unsubscribeSlot();
      watches.close();
      // 1000 (normal closure) is what tells web3.js' socket client not to reconnect; 1006 from a
      // bare terminate() makes it retry forever. A client that does not answer the close handshake
      // is cut after a short grace.
      const open = [...wss.clients];
      await Promise.all(
        open.map(
          (ws) =>
            new Promise<void>((resolve) => {
              if (ws.readyState === ws.CLOSED) return resolve();
              const t = setTimeout(() => ws.terminate(), CLOSE_GRACE_MS);
              ws.once('close', () => {
                clearTimeout(t);
                resolve();
              });
              ws.close(1000, 'devnet stopping');
            }),
        ),
      );
      await new Promise<void>((r) => wss.close(() => r()));
    },
  };
}
