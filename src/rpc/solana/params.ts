/**
 * The shared parts of the standard methods' clients: the commitment config, safe-integer answers, slot validators.
 */
import { assertObject, assertOneOf, optional } from '../../assert.js';
import { BadResponseError, ErrorCodes } from '../../errors/index.js';
import type * as T from '../types.js';
import { v, type Validator } from '../validate.js';

export const COMMITMENTS = ['processed', 'confirmed', 'finalized'] as const;

export interface CommitmentParams {
  commitment?: T.Commitment;
}

export function commitmentConfig(p: CommitmentParams | undefined, field = 'params'): { commitment?: T.Commitment } | undefined {
  if (p === undefined) return undefined;
  assertObject(field, p);
  const c = p.commitment;
  optional(`${field}.commitment`, c, (f, x) => assertOneOf(f, x, COMMITMENTS));
  return c ? { commitment: c as T.Commitment } : undefined;
}

export function toNumber(x: T.U64, what: string): number {
  if (typeof x === 'number') return x;
  throw new BadResponseError(ErrorCodes.RPC_SCHEMA, `${what}: expected a safe integer, got ${x}n`, { context: { path: what } });
}

export const MAX_SLOT = Number.MAX_SAFE_INTEGER;

export const slotV = v.u64 as Validator<T.U64>;

export const intList = v.array(v.u64) as Validator<T.U64[]>;
