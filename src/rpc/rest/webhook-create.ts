/**
 * `createWebhook`, once. Creating a webhook is not idempotent: two POSTs make two webhooks, and a
 * duplicate delivers every event twice. So the transport never sends the POST again in the dark
 * (`RPC_OUTCOME_UNKNOWN`), and this reconciles instead: the webhook list is read before the first
 * attempt, and after an unknown outcome it is read again — a webhook with the same URL and the same
 * addresses that was not there before is the one the lost attempt made, and is returned. Only when
 * the list proves no attempt made one is the POST sent again. A list that cannot be read leaves the
 * outcome unknown, and the caller gets that error, not a second webhook.
 */
import { CairnError, ErrorCodes } from '../../errors/index.js';
import type { ClientContext } from '../client/context.js';
import type { CallOptions } from '../jsonrpc.js';
import * as S from '../shapes.js';
import type * as T from '../types.js';
import { assertShape } from '../validate.js';
import { listWebhooks, validateWebhookParams, webhookRequest, type WebhookParams } from './webhooks.js';

/** POSTs at most, each one sent only after the list proved the ones before made nothing. */
const MAX_CREATE_ATTEMPTS = 4;

/** Same URL and the same set of addresses. */
function sameHook(h: T.Webhook, p: WebhookParams): boolean {
  if (h.webhookURL !== p.webhookURL) return false;
  const a = new Set(h.accountAddresses ?? []);
  const b = new Set(p.accountAddresses);
  if (a.size !== b.size) return false;
  for (const x of b) if (!a.has(x)) return false;
  return true;
}

/**
 * Create a webhook; after a failure that leaves the outcome unknown, find the webhook the attempt
 * made (same URL and addresses, new since the call began) before trying again.
 *
 * @example
 * const hook = await client.createWebhook({ webhookURL: 'https://bot.example/hook', accountAddresses: [wallet], webhookType: 'enhanced' });
 */
export async function createWebhook(ctx: ClientContext, params: WebhookParams, opts: CallOptions = {}): Promise<T.Webhook> {
  validateWebhookParams(params, false);
  const body: Record<string, unknown> = { transactionTypes: ['ANY'], webhookType: 'enhanced', ...params };
  const before = new Set((await listWebhooks(ctx, opts)).filter((h) => sameHook(h, params)).map((h) => h.webhookID));
  for (let attempt = 1; ; attempt++) {
    try {
      const made = await webhookRequest(ctx, { method: 'POST', path: '', body, label: 'createWebhook' }, opts);
      return assertShape(S.webhook, made, 'body', 'createWebhook');
    } catch (e) {
      if (!(e instanceof CairnError) || e.code !== ErrorCodes.RPC_OUTCOME_UNKNOWN) throw e;
      // what did the lost attempt do? the list tells; if it cannot be read, the outcome stays unknown
      let now: T.Webhook[];
      try {
        now = await listWebhooks(ctx, opts);
      } catch {
        throw e;
      }
      const mine = now.find((h) => sameHook(h, params) && !before.has(h.webhookID));
      if (mine) return mine;
      if (attempt >= MAX_CREATE_ATTEMPTS) throw e;
    }
  }
}
