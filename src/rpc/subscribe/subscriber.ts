/**
 * `client.subscribe`: typed Solana subscriptions — account, program, logs, signature, slot, root —
 * on the client's one multiplexed websocket (websocket.ts), each read as an async iterator or
 * through callbacks, each with its own bounded buffer (stream.ts) and AbortSignal.
 *
 * No silent gaps. When the socket drops and comes back, every subscription is sent again and what it
 * may have missed is dealt with: an account subscription re-reads the account (`getAccountInfo`)
 * and delivers it (`reread: true`); a signature subscription re-reads the status
 * (`getSignatureStatuses` with history) and delivers it if it reached the commitment; slot and root
 * subscriptions report a gap when the first slot after it skips; program and logs subscriptions,
 * whose missed notifications cannot be re-read, report a gap. A gap goes to `onGap`; without one the
 * subscription ends with `RPC_SUBSCRIPTION_GAP`.
 */
import { abortError } from '../../abort.js';
import { assertAddress, assertInt, assertOneOf, assertSignature, isPlainObject, optional } from '../../assert.js';
import { BadResponseError, ErrorCodes, InputError } from '../../errors/index.js';
import { accountConfig, type AccountFilter, type AccountParams } from '../solana/accounts.js';
import type { ClientContext } from '../client/context.js';
import * as S from '../shapes.js';
import { createStream, type SubscriptionGap } from './stream.js';
import type * as T from '../types.js';
import type { Channel, MuxSocket } from './websocket.js';

export type { SubscriptionGap } from './stream.js';

/** Options every subscription takes. */
export interface SubscribeOptions<N> {
  signal?: AbortSignal | undefined;
  /** Notifications kept unread before the overflow policy applies (default 1,024). */
  bufferSize?: number | undefined;
  /** What a full buffer does: end with RPC_SUBSCRIPTION_OVERFLOW (default) or drop the oldest and report a gap. */
  overflow?: 'error' | 'drop-oldest' | undefined;
  /** Told of every gap; without it a gap ends the subscription with RPC_SUBSCRIPTION_GAP. */
  onGap?: ((gap: SubscriptionGap) => void) | undefined;
  /** Callback style: each notification, in order (a returned promise is awaited before the next). */
  onNotification?: ((n: N) => void | Promise<void>) | undefined;
  /** Callback style: the error that ended the subscription (abort excepted). */
  onError?: ((e: Error) => void) | undefined;
}

/**
 * Internal (not in the public options): called synchronously as each notification the server sent
 * arrives, before it is buffered, in the socket's order across every subscription. The sender's
 * watch (sender/confirm/watch.ts) orders signature notifications against slot notifications by it:
 * the consumers of two subscriptions read their buffers at their own pace, the socket does not.
 */
export const ON_ARRIVAL: unique symbol = Symbol('cairn.subscribe.onArrival');
export type ArrivalOption<N> = { [ON_ARRIVAL]?: ((n: N) => void) | undefined };

/** A live subscription: iterate it (once), or let its callbacks run; `close()` leaves. */
export interface Subscription<N> extends AsyncIterable<N> {
  close(): Promise<void>;
  readonly closed: boolean;
}

export interface AccountNotification {
  slot: number;
  value: T.AccountInfo;
  /** Read over HTTP after a reconnect, not pushed by the server. */
  reread?: true;
}
export interface ProgramNotification {
  slot: number;
  pubkey: string;
  account: T.AccountInfo;
}
export interface LogsNotification {
  slot: number;
  signature: string;
  err: unknown;
  logs: string[];
}
export interface SignatureNotification {
  slot: number;
  err: unknown;
  reread?: true;
}
export interface SlotNotification {
  slot: number;
  parent: number;
  root: number;
}
export type LogsFilter = 'all' | 'allWithVotes' | { mentions: [string] };

export interface Subscriber {
  account(address: string, opts?: SubscribeOptions<AccountNotification> & Omit<AccountParams, 'dataSlice'>): Promise<Subscription<AccountNotification>>;
  program(programId: string, opts?: SubscribeOptions<ProgramNotification> & Omit<AccountParams, 'dataSlice'> & { filters?: AccountFilter[] }): Promise<Subscription<ProgramNotification>>;
  logs(filter: LogsFilter, opts?: SubscribeOptions<LogsNotification> & { commitment?: T.Commitment }): Promise<Subscription<LogsNotification>>;
  /** One notification when the signature reaches the commitment, then the subscription ends. */
  signature(signature: string, opts?: SubscribeOptions<SignatureNotification> & { commitment?: T.Commitment }): Promise<Subscription<SignatureNotification>>;
  slot(opts?: SubscribeOptions<SlotNotification>): Promise<Subscription<SlotNotification>>;
  root(opts?: SubscribeOptions<number>): Promise<Subscription<number>>;
  /** The shared socket's counters (messages, reconnects, ping timeouts) and whether it is up. */
  readonly socket: Pick<MuxSocket, 'stats' | 'up' | 'onState' | 'url'>;
}

/** What a subscription can do after a reconnect. */
interface Resume<N> {
  push(n: N): void;
  gap(g: SubscriptionGap): void;
  readonly lastSlot: number | undefined;
  /** Look at the next notification before it is delivered. */
  checkNext(fn: (n: N) => void): void;
}

interface Kind<N> {
  what: string;
  method: string;
  params: unknown[];
  parse(result: unknown): N;
  slotOf(n: N): number | undefined;
  /** After a reconnect: re-read what may have been missed (push it), or report a gap. */
  resumed(r: Resume<N>): Promise<void> | void;
  /** The subscription ends after its first notification (signature). */
  once?: boolean;
}

const bad = (what: string, got: unknown): BadResponseError =>
  new BadResponseError(ErrorCodes.RPC_SCHEMA, `${what}: unexpected notification ${JSON.stringify(got)?.slice(0, 120)}`, { context: { method: what } });
const ctxSlot = (r: unknown): number | undefined =>
  (isPlainObject(r) && isPlainObject(r.context) && Number.isSafeInteger(r.context.slot) ? (r.context.slot as number) : undefined);
const isAccount = (a: unknown): a is T.AccountInfo => isPlainObject(a) && typeof a.owner === 'string' && typeof a.executable === 'boolean' && (typeof a.lamports === 'number' || typeof a.lamports === 'bigint');

function checkCommon(o: SubscribeOptions<unknown> | undefined): { bufferSize: number; overflow: 'error' | 'drop-oldest' } {
  if (o !== undefined && !isPlainObject(o)) throw new InputError('options', 'expected an object');
  optional('options.bufferSize', o?.bufferSize, (f, x) => assertInt(f, x, 1, 1_000_000));
  optional('options.overflow', o?.overflow, (f, x) => assertOneOf(f, x, ['error', 'drop-oldest'] as const));
  for (const k of ['onGap', 'onNotification', 'onError'] as const) {
    if (o?.[k] !== undefined && typeof o[k] !== 'function') throw new InputError(`options.${k}`, 'expected a function');
  }
  if (o?.signal !== undefined && !(o.signal instanceof AbortSignal)) throw new InputError('options.signal', 'expected an AbortSignal');
  return { bufferSize: (o?.bufferSize as number | undefined) ?? 1024, overflow: (o?.overflow as 'error' | 'drop-oldest' | undefined) ?? 'error' };
}
const commitmentOf = (o: { commitment?: unknown } | undefined): T.Commitment => {
  optional('options.commitment', o?.commitment, (f, x) => assertOneOf(f, x, ['processed', 'confirmed', 'finalized'] as const));
  return (o?.commitment as T.Commitment | undefined) ?? 'finalized';
};

/** Open one subscription of kind `k` on `sock`. */
async function open<N>(sock: MuxSocket, k: Kind<N>, o: SubscribeOptions<N> | undefined): Promise<Subscription<N>> {
  const { bufferSize, overflow } = checkCommon(o as SubscribeOptions<unknown>);
  const signal = o?.signal;
  const arrival = (o as ArrivalOption<N> | undefined)?.[ON_ARRIVAL];
  if (signal?.aborted) throw abortError(ErrorCodes.RPC_ABORTED, signal, k.what);
  let closed = false;
  /** The server ended it (a signature subscription notified once): no unsubscribe to send. */
  let serverDone = false;
  const leave = (): void => {
    if (closed) return;
    closed = true;
    signal?.removeEventListener('abort', onAbort);
    if (serverDone) sock.forget(ch);
    else sock.unsubscribe(ch);
  };
  const stream = createStream<N>({ bufferSize, overflow, onGap: o?.onGap, onEnd: leave, what: k.what, slotOf: k.slotOf });
  const onAbort = (): void => stream.fail(abortError(ErrorCodes.RPC_ABORTED, signal, k.what));
  const deliver = (n: N): void => {
    if (k.once && !n_reread(n)) serverDone = true;
    stream.push(n);
    if (k.once) stream.end();
  };
  let nextCheck: ((n: N) => void) | undefined;
  const resume: Resume<N> = {
    push: deliver,
    gap: (g) => stream.gap(g),
    get lastSlot() {
      return stream.lastSlot;
    },
    checkNext: (fn) => (nextCheck = fn),
  };
  const ch: Channel = {
    method: k.method,
    params: k.params,
    unsubscribeMethod: k.method.replace(/Subscribe$/, 'Unsubscribe'),
    onNotification(result) {
      let n: N;
      try {
        n = k.parse(result);
      } catch (e) {
        return stream.fail(e as Error);
      }
      const check = nextCheck;
      nextCheck = undefined;
      check?.(n);
      arrival?.(n);
      deliver(n);
    },
    onDown() {},
    onResubscribed() {
      Promise.resolve(k.resumed(resume)).catch((e: unknown) => stream.fail(e instanceof Error ? e : new Error(String(e))));
    },
    onFail(e) {
      stream.fail(e);
    },
  };
  await sock.subscribe(ch, signal);
  signal?.addEventListener('abort', onAbort, { once: true });
  let iterated = false;
  const sub: Subscription<N> = {
    [Symbol.asyncIterator]() {
      if (iterated) throw new InputError('subscription', 'is iterated already (or consumed by onNotification): a subscription has one reader');
      iterated = true;
      return stream;
    },
    async close() {
      stream.end();
    },
    get closed() {
      return stream.ended;
    },
  };
  if (o?.onNotification) {
    const cb = o.onNotification;
    const it = sub[Symbol.asyncIterator]() as AsyncIterableIterator<N>;
    void (async () => {
      try {
        for await (const n of it) await cb(n);
      } catch (e) {
        if (!(signal?.aborted && (e as { code?: string }).code === ErrorCodes.RPC_ABORTED)) o.onError?.(e as Error);
      }
    })();
  }
  return sub;
}

/** The subscriptions of one client, on `sock`; `ctx` serves the re-reads after a reconnect. */
export function createSubscriber(ctx: ClientContext, sock: MuxSocket): Subscriber {
  /** slot and root: a gap when the first slot after a reconnect skips. */
  const slotKind = <N>(what: string, method: string, parse: (r: unknown) => N, slotOf: (n: N) => number): Kind<N> => {
    return {
      what,
      method,
      params: [],
      parse,
      slotOf,
      resumed(r) {
        const at = r.lastSlot;
        // the next notification decides whether slots were missed
        r.checkNext((n) => {
          const slot = slotOf(n);
          if (at !== undefined && slot > at + 1) r.gap({ reason: 'reconnect', afterSlot: at, beforeSlot: slot });
        });
      },
    };
  };
  return {
    async account(address, o) {
      assertAddress('address', address);
      const cfg = accountConfig(o as AccountParams | undefined, 'options');
      if (cfg.commitment === undefined) cfg.commitment = 'finalized';
      return open<AccountNotification>(sock, {
        what: `accountSubscribe ${address}`,
        method: 'accountSubscribe',
        params: [address, cfg],
        parse(r) {
          const slot = ctxSlot(r);
          const value = isPlainObject(r) ? r.value : undefined;
          if (slot === undefined || !isAccount(value)) throw bad('accountNotification', r);
          return { slot, value };
        },
        slotOf: (n) => n.slot,
        async resumed(s) {
          const r = await ctx.rpc.call({ method: 'getAccountInfo', params: [address, cfg], validate: S.accountInfo });
          const slot = r.context?.slot;
          if (r.value) s.push({ slot: typeof slot === 'number' ? slot : 0, value: r.value, reread: true });
        },
      }, o);
    },
    async program(programId, o) {
      assertAddress('programId', programId);
      const cfg = accountConfig(o as AccountParams | undefined, 'options');
      if (cfg.commitment === undefined) cfg.commitment = 'finalized';
      if (o?.filters !== undefined) cfg.filters = o.filters;
      return open<ProgramNotification>(sock, {
        what: `programSubscribe ${programId}`,
        method: 'programSubscribe',
        params: [programId, cfg],
        parse(r) {
          const slot = ctxSlot(r);
          const v = isPlainObject(r) ? r.value : undefined;
          if (slot === undefined || !isPlainObject(v) || typeof v.pubkey !== 'string' || !isAccount(v.account)) throw bad('programNotification', r);
          return { slot, pubkey: v.pubkey, account: v.account };
        },
        slotOf: (n) => n.slot,
        resumed: (s) => s.gap({ reason: 'reconnect', ...(s.lastSlot !== undefined ? { afterSlot: s.lastSlot } : {}) }),
      }, o);
    },
    async logs(filter, o) {
      if (filter !== 'all' && filter !== 'allWithVotes') {
        if (!isPlainObject(filter) || !Array.isArray(filter.mentions) || filter.mentions.length !== 1) throw new InputError('filter', 'expected "all", "allWithVotes" or { mentions: [address] }');
        assertAddress('filter.mentions[0]', filter.mentions[0]);
      }
      const commitment = commitmentOf(o);
      return open<LogsNotification>(sock, {
        what: 'logsSubscribe',
        method: 'logsSubscribe',
        params: [filter, { commitment }],
        parse(r) {
          const slot = ctxSlot(r);
          const v = isPlainObject(r) ? r.value : undefined;
          if (slot === undefined || !isPlainObject(v) || typeof v.signature !== 'string' || !Array.isArray(v.logs)) throw bad('logsNotification', r);
          return { slot, signature: v.signature, err: v.err ?? null, logs: v.logs as string[] };
        },
        slotOf: (n) => n.slot,
        resumed: (s) => s.gap({ reason: 'reconnect', ...(s.lastSlot !== undefined ? { afterSlot: s.lastSlot } : {}) }),
      }, o);
    },
    async signature(signature, o) {
      assertSignature('signature', signature);
      const commitment = commitmentOf(o);
      return open<SignatureNotification>(sock, {
        what: `signatureSubscribe ${signature}`,
        method: 'signatureSubscribe',
        params: [signature, { commitment }],
        once: true,
        parse(r) {
          const slot = ctxSlot(r);
          const v = isPlainObject(r) ? r.value : undefined;
          if (slot === undefined || !isPlainObject(v)) throw bad('signatureNotification', r);
          return { slot, err: v.err ?? null };
        },
        slotOf: (n) => n.slot,
        async resumed(s) {
          // the notification may have gone out while the socket was down: the status says
          const r = await ctx.rpc.call({ method: 'getSignatureStatuses', params: [[signature], { searchTransactionHistory: true }], validate: S.signatureStatuses });
          const st = r.value[0];
          if (st && reached(st, commitment)) s.push({ slot: Number(st.slot), err: st.err ?? null, reread: true });
        },
      }, o);
    },
    async slot(o) {
      return open<SlotNotification>(
        sock,
        slotKind('slotSubscribe', 'slotSubscribe', (r) => {
          if (!isPlainObject(r) || !Number.isSafeInteger(r.slot)) throw bad('slotNotification', r);
          return { slot: r.slot as number, parent: Number(r.parent ?? (r.slot as number) - 1), root: Number(r.root ?? 0) };
        }, (n) => n.slot),
        o,
      );
    },
    async root(o) {
      return open<number>(
        sock,
        slotKind('rootSubscribe', 'rootSubscribe', (r) => {
          if (!Number.isSafeInteger(r)) throw bad('rootNotification', r);
          return r as number;
        }, (n) => n),
        o,
      );
    },
    socket: sock,
  };
}

/** A notification the client re-read over HTTP (the server still holds its subscription). */
const n_reread = (n: unknown): boolean => isPlainObject(n) && n.reread === true;

/** Whether a status reached `commitment` (a status without confirmations is rooted). */
function reached(s: { confirmationStatus?: string | null; confirmations?: unknown }, commitment: T.Commitment): boolean {
  if (commitment === 'processed') return true;
  const c = s.confirmationStatus;
  if (commitment === 'confirmed') return c === 'confirmed' || c === 'finalized' || s.confirmations == null;
  return c === 'finalized' || (c == null && s.confirmations == null);
}
