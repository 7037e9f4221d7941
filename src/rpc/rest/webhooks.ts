/**
 * Webhook management on the REST host, as the provider's API has it: create (`POST /v0/webhooks`),
 * list (`GET /v0/webhooks`), read (`GET /v0/webhooks/{id}`), edit (`PUT`), pause or resume (the
 * spec's `PATCH { active }`) and delete (`DELETE`). Params are checked field by field before anything
 * is sent; answers are checked against the Webhook shape.
 *
 * None of the state-changing calls is sent again after a failure that leaves its outcome unknown
 * (retry/idempotency.ts). `createWebhook` finds the outcome out itself (webhook-create.ts): it lists the
 * webhooks before the first attempt and, after an unknown outcome, looks for a new webhook with the
 * same URL and addresses before it tries again — a duplicate webhook would deliver every event twice.
 */
import { assertArray, assertBool, assertObject, assertOneOf, assertString, BASE58_ADDRESS, optional } from '../../assert.js';
import { InputError } from '../../errors/index.js';
import type { ClientContext } from '../client/context.js';
import { CLIENT_METHODS } from '../retry/idempotency.js';
import { UUID_V4 } from '../input.js';
import { stringifyJson } from '../json.js';
import type { CallOptions } from '../jsonrpc.js';
import * as S from '../shapes.js';
import type { HttpMethod } from '../transport/create-transport.js';
import type * as T from '../types.js';
import { assertShape, v } from '../validate.js';

const WEBHOOK_TYPES = ['enhanced', 'raw', 'discord', 'enhancedDevnet', 'rawDevnet', 'discordDevnet'] as const;
/** The provider's ceiling on a webhook's addresses. */
const MAX_WEBHOOK_ADDRESSES = 100_000;
const TRANSACTION_TYPE = /^(ANY|[A-Z][A-Z0-9_]*)$/;

/** What a webhook is made of (create), or the part of it to change (update). */
export interface WebhookParams {
  /** Where deliveries are POSTed: an http(s) URL. */
  webhookURL: string;
  /** 1..100,000 addresses; a transaction touching any of them is delivered. */
  accountAddresses: string[];
  /** Enhanced webhooks only: `ANY` or types such as `TRANSFER`, `NFT_SALE` (default `['ANY']`). */
  transactionTypes?: string[];
  /** Default `enhanced` on the service. */
  webhookType?: T.WebhookType;
  /** Sent as the `Authorization` header of each delivery. */
  authHeader?: string;
}

const WEBHOOK_KEYS = new Set(['webhookURL', 'accountAddresses', 'transactionTypes', 'webhookType', 'authHeader']);

/** Check a webhook's fields (all of them, or with `partial` only those given), naming the field. */
export function validateWebhookParams(params: unknown, partial: boolean, field = 'params'): asserts params is WebhookParams {
  assertObject(field, params);
  for (const k of Object.keys(params)) {
    if (!WEBHOOK_KEYS.has(k) && !(partial && k === 'webhookID')) throw new InputError(`${field}.${k}`, `unknown webhook field; expected one of ${[...WEBHOOK_KEYS].join(', ')}`);
  }
  if (!partial || params.webhookURL !== undefined) {
    assertString(`${field}.webhookURL`, params.webhookURL, { nonEmpty: true });
    let u: URL | undefined;
    try {
      u = new URL(params.webhookURL);
    } catch {
      /* named below */
    }
    if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:')) {
      throw new InputError(`${field}.webhookURL`, `expected an absolute http(s) URL, got ${JSON.stringify(params.webhookURL.slice(0, 80))}`, { expected: 'http(s) URL' });
    }
  }
  if (!partial || params.accountAddresses !== undefined) {
    assertArray(`${field}.accountAddresses`, params.accountAddresses, (f, a) => {
      if (typeof a !== 'string' || !BASE58_ADDRESS.test(a)) throw new InputError(f, `expected a base58 address, got ${JSON.stringify(a)}`, { expected: 'base58 address' });
    }, 1);
    if ((params.accountAddresses as unknown[]).length > MAX_WEBHOOK_ADDRESSES) {
      throw new InputError(`${field}.accountAddresses`, `at most ${MAX_WEBHOOK_ADDRESSES} addresses, got ${(params.accountAddresses as unknown[]).length}`);
    }
  }
  optional(`${field}.transactionTypes`, params.transactionTypes, (f, x) =>
    assertArray(f, x, (g, t) => {
      if (typeof t !== 'string' || !TRANSACTION_TYPE.test(t)) throw new InputError(g, `expected ANY or an UPPER_SNAKE_CASE transaction type, got ${JSON.stringify(t)}`);
    }),
  );
  optional(`${field}.webhookType`, params.webhookType, (f, x) => assertOneOf(f, x, WEBHOOK_TYPES));
  optional(`${field}.authHeader`, params.authHeader, (f, x) => {
    assertString(f, x);
    if (/[\r\n]/.test(x)) throw new InputError(f, 'expected a single-line header value');
  });
}

/** A webhook id: the service's ids are UUIDv4. */
function checkWebhookId(field: string, id: unknown): asserts id is string {
  if (typeof id !== 'string' || !UUID_V4.test(id)) {
    throw new InputError(field, `expected a UUIDv4, got ${JSON.stringify(id) ?? 'undefined'}`, { expected: 'UUIDv4', got: id });
  }
}

/** One REST request of the webhook API; `changes` names the client method when it changes state. */
export async function webhookRequest(
  ctx: ClientContext,
  r: { method: HttpMethod; path: string; body?: unknown; label: string; changes?: boolean },
  opts: CallOptions = {},
): Promise<unknown> {
  const safety = CLIENT_METHODS[r.label];
  const res = await ctx.transport.request({
    url: `${ctx.endpoints.restUrl}/v0/webhooks${r.path}`,
    method: r.method,
    ...(r.body !== undefined ? { body: stringifyJson(r.body) } : {}),
    label: r.label,
    ...(r.method === 'DELETE' ? { responseType: 'text' as const } : {}),
    ...(safety?.changesState ? { idempotent: false, findOut: safety.findOut } : {}),
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    deadlineMs: opts.deadlineMs,
    deadlineAt: opts.deadlineAt,
    retry: opts.retry,
  });
  return res.body;
}

/**
 * Every webhook of the key's account.
 *
 * @example
 * const hooks = await client.listWebhooks();
 */
export async function listWebhooks(ctx: ClientContext, opts?: CallOptions): Promise<T.Webhook[]> {
  const body = await webhookRequest(ctx, { method: 'GET', path: '', label: 'listWebhooks' }, opts);
  return assertShape(v.array(S.webhook), body, 'body', 'listWebhooks');
}

/**
 * One webhook by id.
 *
 * @example
 * const hook = await client.getWebhook({ webhookID });
 */
export async function getWebhook(ctx: ClientContext, params: { webhookID: string }, opts?: CallOptions): Promise<T.Webhook> {
  assertObject('params', params);
  checkWebhookId('params.webhookID', params.webhookID);
  const body = await webhookRequest(ctx, { method: 'GET', path: `/${params.webhookID}`, label: 'getWebhook' }, opts);
  return assertShape(S.webhook, body, 'body', 'getWebhook');
}

/**
 * Change a webhook: the fields given replace the webhook's, the others are kept. The service's PUT
 * takes the whole webhook, so the current one is read first and the change applied over it.
 *
 * @example
 * await client.updateWebhook({ webhookID, accountAddresses: [a, b] });
 */
export async function updateWebhook(ctx: ClientContext, params: { webhookID: string } & Partial<WebhookParams>, opts?: CallOptions): Promise<T.Webhook> {
  validateWebhookParams(params, true);
  checkWebhookId('params.webhookID', params.webhookID);
  const { webhookID, ...change } = params;
  if (Object.keys(change).length === 0) throw new InputError('params', 'nothing to change: give at least one of webhookURL, accountAddresses, transactionTypes, webhookType, authHeader');
  const now = await getWebhook(ctx, { webhookID }, opts);
  const whole: Record<string, unknown> = {};
  for (const k of WEBHOOK_KEYS) {
    const val = (change as Record<string, unknown>)[k] ?? (now as unknown as Record<string, unknown>)[k];
    if (val !== undefined) whole[k] = val;
  }
  const body = await webhookRequest(ctx, { method: 'PUT', path: `/${webhookID}`, body: whole, label: 'updateWebhook' }, opts);
  return assertShape(S.webhook, body, 'body', 'updateWebhook');
}

/**
 * Enable (`active: true`) or pause (`active: false`) a webhook without deleting it.
 *
 * @example
 * const hook = await client.setWebhookActive({ webhookID, active: true }); // re-enable an auto-disabled one
 */
export async function setWebhookActive(ctx: ClientContext, params: { webhookID: string; active: boolean }, opts: CallOptions = {}): Promise<T.Webhook> {
  assertObject('params', params);
  checkWebhookId('params.webhookID', params.webhookID);
  assertBool('params.active', params.active);
  const body = await webhookRequest(ctx, { method: 'PATCH', path: `/${params.webhookID}`, body: { active: params.active }, label: 'setWebhookActive' }, opts);
  return assertShape(S.webhook, body, 'body', 'setWebhookActive');
}

/**
 * Delete a webhook: deliveries stop and its id is gone (a later `getWebhook` answers 404).
 *
 * @example
 * await client.deleteWebhook({ webhookID });
 */
export async function deleteWebhook(ctx: ClientContext, params: { webhookID: string }, opts?: CallOptions): Promise<void> {
  assertObject('params', params);
  checkWebhookId('params.webhookID', params.webhookID);
  await webhookRequest(ctx, { method: 'DELETE', path: `/${params.webhookID}`, label: 'deleteWebhook' }, opts);
}
