/**
 * Webhooks: created through `control`, the CLI, or `POST /v0/webhooks` (as the provider's API has);
 * read, replaced and deleted under `/v0/webhooks/{id}`; paused and resumed with the spec's PATCH
 * `{ active }`. Every executed transaction touching one of a webhook's `accountAddresses` is
 * delivered by HTTP POST to its `webhookURL` (with `authHeader` as `Authorization`), one attempt per
 * delivery, in order per webhook. After `failureLimit` consecutive failed deliveries (non-2xx,
 * network error or timeout) the webhook is disabled automatically; a PATCH re-enables it.
 *
 * Delivery bodies (the spec leaves them open): `raw*` types get `[<getTransaction json>]`,
 * `enhanced*` types get `[{ signature, slot, timestamp, type, fee, feePayer, nativeTransfers, … }]`,
 * `discord*` types get `{ content }`.
 */
import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isPlainObject } from '../../../assert.js';
import type { DevnetChain } from '../../chain/contract.js';
import { transactionJson } from '../../encoding/transaction.js';
import { DevnetRpcError, type DevnetModule, type ExecutedTransaction, type RestRequest } from '../../types.js';
import { NATIVE_MINT, transfersOf } from './wallet-transfers.js';

export const WEBHOOK_TYPES = ['enhanced', 'raw', 'discord', 'enhancedDevnet', 'rawDevnet', 'discordDevnet'] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

export interface Webhook {
  webhookID: string;
  wallet: string;
  webhookURL: string;
  transactionTypes: string[];
  accountAddresses: string[];
  webhookType: WebhookType;
  authHeader?: string;
  active: boolean;
}

export interface WebhookInput {
  webhookURL: string;
  accountAddresses: string[];
  transactionTypes?: string[];
  webhookType?: WebhookType;
  authHeader?: string;
  active?: boolean;
}

export interface DeliveryRecord {
  webhookID: string;
  signature: string;
  ok: boolean;
  status?: number;
  error?: string;
}

export interface Webhooks extends DevnetModule {
  create(input: WebhookInput, wallet?: string): Webhook;
  list(): Webhook[];
  get(id: string): Webhook | null;
  deliveries(): readonly DeliveryRecord[];
  /** Resolves once every delivery queued so far has finished. */
  idle(): Promise<void>;
  /** Register webhooks saved by a previous run (`--ledger`), with their IDs; each is checked as on create. */
  restore(saved: readonly Webhook[]): void;
}

const badRequest = (field: string, message: string) => new DevnetRpcError(-32602, `"${field}": ${message}`, 400);
const notFound = (id: string) => new DevnetRpcError(-32602, `webhook ${JSON.stringify(id)} not found`, 404);
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TYPE_RE = /^(ANY|[A-Z][A-Z0-9_]*)$/;
const ADDRESS_RE = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/;
/** Addresses one webhook may watch (the real service's documented ceiling). */
export const MAX_WEBHOOK_ADDRESSES = 100_000;
/** Webhooks one devnet keeps: each executed transaction is matched against every one. */
export const MAX_WEBHOOKS = 1_000;

function validateInput(body: unknown, partial: boolean): Partial<WebhookInput> {
  if (!isPlainObject(body)) throw badRequest('body', 'expected a JSON object');
  const b = body as Record<string, unknown>;
  const out: Partial<WebhookInput> = {};
  const known = new Set(['webhookURL', 'accountAddresses', 'transactionTypes', 'webhookType', 'authHeader', 'active', 'wallet', 'webhookID']);
  for (const k of Object.keys(b)) if (!known.has(k)) throw badRequest(k, 'unknown webhook field');
  if (b.webhookURL !== undefined || !partial) {
    if (typeof b.webhookURL !== 'string') throw badRequest('webhookURL', 'expected an http(s) URL string');
    let u: URL;
    try {
      u = new URL(b.webhookURL);
    } catch {
      throw badRequest('webhookURL', `not a URL: ${JSON.stringify(b.webhookURL)}`);
    }
    if (u.protocol !== 'http:' && u.protocol !== 'https:') throw badRequest('webhookURL', `expected http or https, got ${u.protocol}`);
    out.webhookURL = b.webhookURL;
  }
  if (b.accountAddresses !== undefined || !partial) {
    if (!Array.isArray(b.accountAddresses) || b.accountAddresses.length === 0) {
      throw badRequest('accountAddresses', 'expected a non-empty array of addresses');
    }
    if (b.accountAddresses.length > MAX_WEBHOOK_ADDRESSES) {
      throw badRequest('accountAddresses', `at most ${MAX_WEBHOOK_ADDRESSES} addresses, got ${b.accountAddresses.length}`);
    }
    b.accountAddresses.forEach((a, i) => {
      if (typeof a !== 'string' || !ADDRESS_RE.test(a)) throw badRequest(`accountAddresses[${i}]`, `expected a base58 address, got ${JSON.stringify(a)}`);
    });
    out.accountAddresses = [...b.accountAddresses] as string[];
  }
  if (b.transactionTypes !== undefined) {
    if (!Array.isArray(b.transactionTypes)) throw badRequest('transactionTypes', 'expected an array of transaction types');
    b.transactionTypes.forEach((t, i) => {
      if (typeof t !== 'string' || !TYPE_RE.test(t)) throw badRequest(`transactionTypes[${i}]`, `expected ANY or an UPPER_SNAKE_CASE type, got ${JSON.stringify(t)}`);
    });
    out.transactionTypes = [...b.transactionTypes] as string[];
  }
  if (b.webhookType !== undefined) {
    if (!WEBHOOK_TYPES.includes(b.webhookType as WebhookType)) throw badRequest('webhookType', `expected one of ${WEBHOOK_TYPES.join(', ')}`);
    out.webhookType = b.webhookType as WebhookType;
  }
  if (b.authHeader !== undefined) {
    if (typeof b.authHeader !== 'string' || /[\r\n]/.test(b.authHeader)) throw badRequest('authHeader', 'expected a single-line string');
    out.authHeader = b.authHeader;
  }
  if (b.active !== undefined) {
    if (typeof b.active !== 'boolean') throw badRequest('active', 'expected a boolean');
    out.active = b.active;
  }
  return out;
}

/** One POST without a pooled connection (`agent: false`), so that stopping the devnet leaves no
 * keep-alive socket behind. Resolves with the HTTP status. */
function postJson(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = (url.startsWith('https:') ? httpsRequest : httpRequest)(
      url,
      { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, agent: false, signal },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** Transaction type as enhanced webhooks name it (the devnet recognises transfers only). */
function typeOf(chain: DevnetChain, tx: ExecutedTransaction): string {
  return transfersOf(chain, tx).length ? 'TRANSFER' : 'UNKNOWN';
}

/** What a webhook of `hook`'s type receives for `tx`: raw JSON, a Discord message, or the enhanced shape. */
function webhookBody(chain: DevnetChain, hook: Webhook, tx: ExecutedTransaction, type: string): unknown {
  if (hook.webhookType.startsWith('raw')) return [transactionJson(chain, tx, 'json')];
  const native = transfersOf(chain, tx);
  if (hook.webhookType.startsWith('discord')) {
    return { content: `${type} ${tx.signature} in slot ${tx.slot}${tx.err ? ' (failed)' : ''}` };
  }
  return [
    {
      description: '',
      type,
      source: native.length ? 'SYSTEM_PROGRAM' : 'UNKNOWN',
      fee: tx.fee,
      feePayer: tx.accountKeys[0],
      signature: tx.signature,
      slot: tx.slot,
      timestamp: tx.blockTime,
      nativeTransfers: native.filter((t) => t.mint === NATIVE_MINT).map((t) => ({ fromUserAccount: t.from, toUserAccount: t.to, amount: Number(t.raw) })),
      tokenTransfers: native
        .filter((t) => t.mint !== NATIVE_MINT)
        .map((t) => ({ fromUserAccount: t.from, toUserAccount: t.to, mint: t.mint, tokenAmount: Number(t.raw) / 10 ** t.decimals })),
      accountData: tx.accountKeys.map((account, i) => ({ account, nativeBalanceChange: tx.postBalances[i]! - tx.preBalances[i]!, tokenBalanceChanges: [] })),
      transactionError: tx.err,
      instructions: [],
      events: {},
    },
  ];
}

/**
 * Create the webhook module.
 *
 * @example
 * const hooks = createWebhooks({ chain, defaultWallet: chain.authority.address });
 * hooks.create({ webhookURL: 'http://127.0.0.1:9000/hook', accountAddresses: [addr] });
 */
export function createWebhooks(opts: {
  chain: DevnetChain;
  defaultWallet: string;
  /** Consecutive failures before automatic disabling (default 5). */
  failureLimit?: number;
  /** Per-delivery timeout, ms (default 5,000). */
  timeoutMs?: number;
  log?: (line: string) => void;
  /** Called after a webhook is created, edited, paused, resumed, disabled or deleted (the ledger saves). */
  onChange?: () => void;
}): Webhooks {
  const { chain } = opts;
  const failureLimit = opts.failureLimit ?? 5;
  const timeoutMs = opts.timeoutMs ?? 5_000;
  const hooks = new Map<string, Webhook>();
  const failures = new Map<string, number>();
  const queues = new Map<string, Promise<void>>();
  const deliveries: DeliveryRecord[] = [];
  const controller = new AbortController();
  let closed = false;

  const changed = (): void => opts.onChange?.();

  const create = (input: WebhookInput, wallet = opts.defaultWallet): Webhook => {
    const v = validateInput(input, false);
    // Without a ceiling, repeated POSTs grow the devnet (and the work per transaction) without bound.
    if (hooks.size >= MAX_WEBHOOKS) throw badRequest('webhooks', `at most ${MAX_WEBHOOKS} webhooks; this devnet has ${hooks.size}`);
    const hook: Webhook = {
      webhookID: randomUUID(),
      wallet,
      webhookURL: v.webhookURL!,
      transactionTypes: v.transactionTypes ?? ['ANY'],
      accountAddresses: v.accountAddresses!,
      webhookType: v.webhookType ?? 'raw',
      ...(v.authHeader !== undefined ? { authHeader: v.authHeader } : {}),
      active: v.active ?? true,
    };
    hooks.set(hook.webhookID, hook);
    failures.set(hook.webhookID, 0);
    changed();
    return { ...hook };
  };

  const deliver = async (hook: Webhook, tx: ExecutedTransaction, body: unknown) => {
    if (closed || !hook.active) return;
    const signal = AbortSignal.any([controller.signal, AbortSignal.timeout(timeoutMs)]);
    let rec: DeliveryRecord;
    try {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (hook.authHeader) headers.authorization = hook.authHeader;
      const status = await postJson(hook.webhookURL, headers, JSON.stringify(body), signal);
      rec = { webhookID: hook.webhookID, signature: tx.signature, ok: status >= 200 && status < 300, status };
    } catch (e) {
      if (closed) return;
      rec = { webhookID: hook.webhookID, signature: tx.signature, ok: false, error: e instanceof Error ? e.message : String(e) };
    }
    deliveries.push(rec);
    if (deliveries.length > 10_000) deliveries.splice(0, deliveries.length - 10_000);
    if (rec.ok) {
      failures.set(hook.webhookID, 0);
      return;
    }
    const n = (failures.get(hook.webhookID) ?? 0) + 1;
    failures.set(hook.webhookID, n);
    if (n >= failureLimit && hook.active) {
      hook.active = false;
      opts.log?.(`webhook ${hook.webhookID} disabled after ${n} consecutive failed deliveries`);
      changed();
    }
  };

  const unsubscribe = chain.onTransaction((tx) => {
    if (closed || hooks.size === 0) return;
    let keys: Set<string> | null = null;
    let type: string | null = null;
    for (const hook of hooks.values()) {
      if (!hook.active) continue;
      keys ??= new Set(tx.accountKeys);
      if (!hook.accountAddresses.some((a) => keys!.has(a))) continue;
      if (hook.webhookType.startsWith('enhanced')) {
        type ??= typeOf(chain, tx);
        if (!hook.transactionTypes.includes('ANY') && !hook.transactionTypes.includes(type)) continue;
      }
      type ??= typeOf(chain, tx);
      const body = webhookBody(chain, hook, tx, type);
      const prev = queues.get(hook.webhookID) ?? Promise.resolve();
      const next = prev.then(() => deliver(hook, tx, body));
      queues.set(hook.webhookID, next);
    }
  });

  const getOr404 = (id: string | undefined): Webhook => {
    if (!id || !UUID_RE.test(id)) throw badRequest('webhookID', `expected a UUIDv4, got ${JSON.stringify(id ?? '')}`);
    const h = hooks.get(id);
    if (!h) throw notFound(id);
    return h;
  };

  return {
    methods: {},
    routes: {
      'POST /v0/webhooks': (req: RestRequest) => create(req.body as WebhookInput),
      'GET /v0/webhooks': () => [...hooks.values()].map((h) => ({ ...h })),
      'GET /v0/webhooks/:id': (req: RestRequest) => ({ ...getOr404(req.params.id) }),
      'PATCH /v0/webhooks/:id': (req: RestRequest) => {
        const h = getOr404(req.params.id);
        const body = req.body as Record<string, unknown> | null;
        if (!isPlainObject(body)) throw badRequest('body', 'expected a JSON object { "active": boolean }');
        for (const k of Object.keys(body)) if (k !== 'active') throw badRequest(k, 'PATCH changes only "active"; use PUT to edit a webhook');
        if (typeof body.active !== 'boolean') throw badRequest('active', `expected a boolean, got ${JSON.stringify(body.active)}`);
        h.active = body.active;
        if (h.active) failures.set(h.webhookID, 0);
        changed();
        return { ...h };
      },
      'PUT /v0/webhooks/:id': (req: RestRequest) => {
        const h = getOr404(req.params.id);
        const v = validateInput(req.body, true);
        Object.assign(h, v);
        if (v.active) failures.set(h.webhookID, 0);
        changed();
        return { ...h };
      },
      'DELETE /v0/webhooks/:id': (req: RestRequest) => {
        const h = getOr404(req.params.id);
        hooks.delete(h.webhookID);
        failures.delete(h.webhookID);
        changed();
        return { webhookID: h.webhookID, deleted: true };
      },
    },
    create,
    list: () => [...hooks.values()].map((h) => ({ ...h })),
    get: (id) => {
      const h = hooks.get(id);
      return h ? { ...h } : null;
    },
    deliveries: () => deliveries,
    restore(saved) {
      for (const h of saved) {
        if (typeof h?.webhookID !== 'string' || !UUID_RE.test(h.webhookID)) throw badRequest('webhookID', `expected a UUIDv4, got ${JSON.stringify(h?.webhookID)}`);
        if (typeof h.wallet !== 'string') throw badRequest('wallet', `expected an address, got ${JSON.stringify(h.wallet)}`);
        const { webhookID, wallet, ...input } = h;
        const made = create(input, wallet);
        // the saved ID, so a caller's reference to it stays good across the restart
        const hook = hooks.get(made.webhookID)!;
        hooks.delete(made.webhookID);
        failures.delete(made.webhookID);
        hooks.set(webhookID, { ...hook, webhookID });
        failures.set(webhookID, 0);
      }
    },
    idle: async () => {
      await Promise.all([...queues.values()]);
    },
    close: async () => {
      closed = true;
      unsubscribe();
      controller.abort();
      await Promise.allSettled([...queues.values()]);
    },
  };
}
