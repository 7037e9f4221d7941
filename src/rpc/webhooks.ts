/**
 * Webhook management: the spec's one operation, `PATCH {restUrl}/v0/webhooks/{webhookID}` with body
 * `{ active }`, returning the updated Webhook. The id must be a UUIDv4.
 */
import { assertBool, assertObject } from '../assert.js';
import { stringifyJson } from './json.js';
import type { ClientContext } from './context.js';
import { UUID_V4 } from './input.js';
import { InputError } from '../errors.js';
import type { CallOptions } from './jsonrpc.js';
import * as S from './shapes.js';
import type * as T from './types.js';
import { assertShape } from './validate.js';

/**
 * Enable (`active: true`) or pause (`active: false`) a webhook without deleting it.
 *
 * @example
 * const hook = await client.setWebhookActive({ webhookID, active: true }); // re-enable an auto-disabled one
 */
export async function setWebhookActive(
  ctx: ClientContext,
  params: { webhookID: string; active: boolean },
  opts: CallOptions = {},
): Promise<T.Webhook> {
  assertObject('params', params);
  if (typeof params.webhookID !== 'string' || !UUID_V4.test(params.webhookID)) {
    throw new InputError('params.webhookID', `expected a UUIDv4, got ${JSON.stringify(params.webhookID) ?? 'undefined'}`, {
      expected: 'UUIDv4',
      got: params.webhookID,
    });
  }
  assertBool('params.active', params.active);
  const res = await ctx.transport.request({
    url: `${ctx.endpoints.restUrl}/v0/webhooks/${params.webhookID}`,
    method: 'PATCH',
    body: stringifyJson({ active: params.active }),
    label: 'setWebhookActive',
    signal: opts.signal,
    timeoutMs: opts.timeoutMs,
    deadlineMs: opts.deadlineMs,
    deadlineAt: opts.deadlineAt,
    retry: opts.retry,
  });
  return assertShape(S.webhook, res.body, 'body', 'setWebhookActive');
}
