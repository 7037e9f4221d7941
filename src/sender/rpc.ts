/**
 * The slice of the RPC client the sender uses, as a structural interface: the real client from
 * `src/rpc/client.ts` satisfies it, and tests may hand in the same client pointed at the devnet.
 * `normalize*` helpers accept both bare results and `{ context, value }` envelopes so the sender does
 * not depend on which of the two a client returns.
 */

export type Commitment = 'processed' | 'confirmed' | 'finalized';

export interface StatusLike {
  slot: number;
  confirmations: number | null;
  err: unknown;
  confirmationStatus?: Commitment | null;
}

/** Per-call options (the client's `CallOptions`): always last. */
export interface CallOpts {
  signal?: AbortSignal;
}

/** The methods of `createClient(...)` the sender calls, with the client's argument order. */
export interface SenderRpc {
  getLatestBlockhash(params?: { commitment?: Commitment }, opts?: CallOpts): Promise<unknown>;
  getBlockHeight(params?: { commitment?: Commitment }, opts?: CallOpts): Promise<unknown>;
  getSignatureStatuses(signatures: string[], config?: { searchTransactionHistory?: boolean }, opts?: CallOpts): Promise<unknown>;
  getTransaction(signature: string, config?: { commitment?: Commitment }, opts?: CallOpts): Promise<unknown>;
  simulateTransaction(wire: Uint8Array, config?: { sigVerify?: boolean; replaceRecentBlockhash?: boolean }, opts?: CallOpts): Promise<unknown>;
  getPriorityFeeEstimate(
    params: { accountKeys?: string[]; options?: { priorityLevel?: PriorityLevelName; includeAllPriorityFeeLevels?: boolean } },
    opts?: CallOpts,
  ): Promise<unknown>;
  sendTransaction(wire: Uint8Array, config?: { swqosOnly?: boolean }, opts?: CallOpts): Promise<unknown>;
  ping?(opts?: CallOpts): Promise<unknown>;
  close?(): Promise<void> | void;
}

export type PriorityLevelName = 'Min' | 'Low' | 'Medium' | 'High' | 'VeryHigh' | 'UnsafeMax';

function valueOf(x: unknown): unknown {
  if (x && typeof x === 'object' && !Array.isArray(x) && 'value' in x && 'context' in x) return (x as { value: unknown }).value;
  return x;
}

export function toNumber(x: unknown, what: string): number {
  const v = valueOf(x);
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'bigint') return Number(v);
  throw new TypeError(`${what}: expected a number, got ${typeof v}`);
}

export function normalizeBlockhash(x: unknown): { blockhash: string; lastValidBlockHeight: number } {
  const v = valueOf(x) as { blockhash?: unknown; lastValidBlockHeight?: unknown } | null;
  if (!v || typeof v.blockhash !== 'string') throw new TypeError('getLatestBlockhash: no blockhash in the answer');
  return { blockhash: v.blockhash, lastValidBlockHeight: toNumber(v.lastValidBlockHeight, 'lastValidBlockHeight') };
}

export function normalizeStatuses(x: unknown, n: number): (StatusLike | null)[] {
  const v = valueOf(x);
  if (!Array.isArray(v) || v.length !== n) throw new TypeError(`getSignatureStatuses: expected ${n} entries`);
  return v.map((s) => {
    if (s === null || s === undefined) return null;
    const o = s as { slot: unknown; confirmations: unknown; err: unknown; confirmationStatus?: unknown };
    return {
      slot: toNumber(o.slot, 'status.slot'),
      confirmations: o.confirmations === null || o.confirmations === undefined ? null : toNumber(o.confirmations, 'status.confirmations'),
      err: o.err ?? null,
      confirmationStatus: (o.confirmationStatus ?? null) as Commitment | null,
    };
  });
}

/** Whether a status has reached `commitment` (null confirmations means rooted). */
export function reached(s: StatusLike, commitment: Commitment): boolean {
  if (commitment === 'processed') return true;
  const c = s.confirmationStatus;
  if (commitment === 'confirmed') return c === 'confirmed' || c === 'finalized' || s.confirmations === null;
  return c === 'finalized' || (c == null && s.confirmations === null);
}

/** Logs (and error) from a getTransaction answer, whatever its exact envelope. */
export function logsOf(x: unknown): { logs?: string[]; err?: unknown; slot?: number } {
  const v = valueOf(x) as { meta?: { logMessages?: unknown; err?: unknown } | null; slot?: unknown } | null;
  if (!v || typeof v !== 'object') return {};
  const logs = Array.isArray(v.meta?.logMessages) ? (v.meta!.logMessages as string[]) : undefined;
  return {
    ...(logs ? { logs } : {}),
    ...(v.meta && 'err' in v.meta ? { err: v.meta.err } : {}),
    ...(typeof v.slot === 'number' ? { slot: v.slot } : {}),
  };
}
