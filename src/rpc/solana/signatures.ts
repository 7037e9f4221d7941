/**
 * `getSignaturesForAddress`: the signatures of transactions that touched an address, newest first,
 * one page per call (`limit` ≤ 1,000, `before` / `until` bound the walk), and its iterator on
 * `client.paginate`, which asks for the next page `before` the last signature of the previous one
 * until a short page (or `until`) ends it.
 */
import { assertAddress, assertInt, assertObject, assertOneOf, assertSignature, optional } from '../../assert.js';
import { BadResponseError, ErrorCodes, InputError } from '../../errors/index.js';
import type { ClientContext } from '../client/context.js';
import type { CallOptions } from '../jsonrpc.js';
import { checkAbort } from '../paginate.js';
import { COMMITMENTS } from './params.js';
import type * as T from '../types.js';
import { v, type Validator } from '../validate.js';

/** The most signatures one call may ask for (the RPC's cap). */
export const MAX_SIGNATURES_PER_PAGE = 1000;

export interface GetSignaturesForAddressParams {
  /** At most this many, 1..1,000 (default 1,000). */
  limit?: number;
  /** Start searching backwards from this signature (exclusive): the last signature of the page before. */
  before?: string;
  /** Stop when this signature is reached (exclusive). */
  until?: string;
  /** `confirmed` or `finalized` (the method takes no `processed`). */
  commitment?: Exclude<T.Commitment, 'processed'>;
  /** The least slot the answering node must have reached. */
  minContextSlot?: number;
}

/** One signature in the list, as the RPC reports it. */
export interface SignatureInfo {
  signature: string;
  slot: T.U64;
  /** The transaction's error, `null` when it succeeded. */
  err: unknown;
  /** The memos, "[byte length] text" joined by "; ", or `null`. */
  memo: string | null;
  /** Unix time of the block, when known. */
  blockTime?: number | null;
  confirmationStatus?: T.Commitment | null;
}

const signatureList = v.array(
  v.object(
    { signature: v.string, slot: v.u64, err: v.unknown, memo: v.nullable(v.string) },
    { blockTime: v.nullable(v.int), confirmationStatus: v.nullable(v.string) },
  ),
) as unknown as Validator<SignatureInfo[]>;

const KEYS = new Set(['limit', 'before', 'until', 'commitment', 'minContextSlot']);

function configOf(params: GetSignaturesForAddressParams | undefined): Record<string, unknown> | undefined {
  if (params === undefined) return undefined;
  assertObject('params', params);
  for (const k of Object.keys(params)) if (!KEYS.has(k)) throw new InputError(`params.${k}`, `not a parameter of getSignaturesForAddress (takes ${[...KEYS].join(', ')})`);
  optional('params.limit', params.limit, (f, x) => assertInt(f, x, 1, MAX_SIGNATURES_PER_PAGE));
  optional('params.before', params.before, assertSignature);
  optional('params.until', params.until, assertSignature);
  optional('params.commitment', params.commitment, (f, x) => assertOneOf(f, x, COMMITMENTS.filter((c) => c !== 'processed')));
  optional('params.minContextSlot', params.minContextSlot, (f, x) => assertInt(f, x, 0, Number.MAX_SAFE_INTEGER));
  const cfg: Record<string, unknown> = {};
  for (const k of KEYS) if ((params as Record<string, unknown>)[k] !== undefined) cfg[k] = (params as Record<string, unknown>)[k];
  return Object.keys(cfg).length ? cfg : undefined;
}

/**
 * One page of the signatures of transactions that touched `address`, newest first. For every page
 * use `client.paginate.getSignaturesForAddress`.
 *
 * @example
 * const page = await client.getSignaturesForAddress(wallet, { limit: 100 });
 * const older = await client.getSignaturesForAddress(wallet, { limit: 100, before: page.at(-1)?.signature });
 */
export async function getSignaturesForAddress(
  ctx: ClientContext,
  address: string,
  params?: GetSignaturesForAddressParams,
  opts?: CallOptions,
): Promise<SignatureInfo[]> {
  assertAddress('address', address);
  const cfg = configOf(params);
  return ctx.rpc.call({ method: 'getSignaturesForAddress', params: cfg ? [address, cfg] : [address], validate: signatureList }, opts);
}

export interface SignaturePaginators {
  /**
   * Every signature of `address`, newest first, a page (`params.limit`, default 1,000) at a time, each
   * page `before` the last signature of the one before, down to `params.until` or the oldest.
   *
   * @example
   * for await (const s of client.paginate.getSignaturesForAddress(wallet, { until: lastSeen })) console.log(s.signature);
   */
  getSignaturesForAddress(address: string, params?: GetSignaturesForAddressParams, opts?: CallOptions): AsyncGenerator<SignatureInfo, void, undefined>;
}

/** The iterator for `client.paginate`. */
export function createSignaturePaginators(ctx: ClientContext): SignaturePaginators {
  return {
    async *getSignaturesForAddress(address, params, opts) {
      const limit = params?.limit ?? MAX_SIGNATURES_PER_PAGE;
      let before = params?.before;
      const seen = new Set<string>();
      for (;;) {
        checkAbort(opts);
        const page = await getSignaturesForAddress(ctx, address, { ...params, ...(before !== undefined ? { before } : {}) }, opts);
        yield* page;
        if (page.length < limit) return;
        const last = page[page.length - 1]!.signature;
        // a server that ignores `before` hands back the same page forever
        if (seen.has(last)) {
          throw new BadResponseError(ErrorCodes.RPC_BAD_RESPONSE, `getSignaturesForAddress: the server answered before=${last} with a page ending at ${last} again; stopping instead of looping`, {
            context: { method: 'getSignaturesForAddress', path: 'before' },
          });
        }
        seen.add(last);
        before = last;
      }
    },
  };
}
