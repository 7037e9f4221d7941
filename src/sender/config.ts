/**
 * Sender configuration: every number in docs/sender.md is a default here, never a
 * constant in the code, because the provider has changed them several times. `resolveSenderConfig`
 * validates user input at the boundary (typed `InputError` naming the field) and fills defaults.
 */
import { InputError } from '../errors/index.js';
import { toAddress, type AddressInput, toU64, type Commitment, type PriorityLevel } from '../solana/index.js';
import { resolveJournalOptions, type JournalOptions } from './journal/file/journal.js';
import { resolvePostgresOptions, type PostgresJournalOptions } from './journal/postgres/journal.js';

// The tip accounts and minima are shared with the devnet's /fast rules (one source, never two).
import { DEFAULT_MIN_TIP_LAMPORTS, DEFAULT_TIP_ACCOUNTS } from '../tips.js';
export { DEFAULT_MIN_TIP_LAMPORTS, DEFAULT_TIP_ACCOUNTS };

export type { Commitment, PriorityLevel };

/**
 * Tip: a fixed amount, `'min'` (the minimum of the routing mode), or automatic from a floor the caller
 * supplies (a tip-floor feed, say) — clamped to [min, cap] because feeds spike and drain payers.
 */
export type TipSetting =
  | bigint
  | number
  | 'min'
  | { auto: (signal: AbortSignal) => Promise<bigint | number>; refreshMs?: number };

/** CU price in µlamports/CU: fixed, or from `getPriorityFeeEstimate` × multiplier (capped; fallback if unavailable). */
export type CuPriceSetting = bigint | number | { estimate: PriorityLevel; multiplier?: number; refreshMs?: number };

/** CU limit: fixed, or simulated units × margin (at least `min`). */
export type CuLimitSetting = number | { simulate: true; margin?: number; min?: number; fallback?: number };

export interface SenderOptions {
  /** Tip setting (default `'min'`). */
  tip?: TipSetting | undefined;
  /** Upper bound for any tip cairn computes (default 0.01 SOL). A fixed tip above it is refused. */
  maxTipLamports?: bigint | number | undefined;
  /** Minimum tips per routing mode (defaults: docs/sender.md). */
  minTipLamports?: { dual?: bigint | number | undefined; swqosOnly?: bigint | number | undefined } | undefined;
  /** Base58 text, kit Addresses or web3.js PublicKeys. */
  tipAccounts?: readonly AddressInput[] | undefined;
  /** CU price (default: estimate `Medium` × 1.2, capped, fallback 200,000). */
  cuPrice?: CuPriceSetting | undefined;
  /** Cap on any CU price cairn computes, µlamports/CU (default 5,000,000). */
  maxCuPrice?: bigint | number | undefined;
  /**
   * Used when the cluster does not serve `getPriorityFeeEstimate` (JSON-RPC -32601 / "not supported")
   * (default 200,000 µlamports/CU, as public examples). Any other estimate failure fails the build.
   */
  fallbackCuPrice?: bigint | number | undefined;
  /** CU limit (default: simulate × 1.1, min 1,000; 200,000 if simulation fails to report units). */
  cuLimit?: CuLimitSetting | undefined;
  /** Route through stake-weighted validators only (`swqos_only=true`, lower minimum tip). */
  swqosOnly?: boolean | undefined;
  /**
   * A transaction `/fast` refuses with 429: `'rpc'` (default) sends the same signed bytes at once
   * through the JSON-RPC host's `sendTransaction` (another service, its own quota; one metered call
   * per refusal) and gives them to `/fast` again after its `Retry-After`; `'wait'` only waits out the
   * `Retry-After` and asks `/fast` again. The same bytes either way, so nothing can pay twice. Not
   * taken with `swqosOnly` (the caller asked for stake-weighted routing only), for bundles (`/fast`
   * `sendBundle` has no JSON-RPC equivalent), nor on a client without `call` (a `SenderRpc` of the
   * caller's own, an adapted `Connection` or kit `Rpc`): those wait.
   *
   * @example
   * createSender({ client, rateLimited: 'wait' }); // keep every send on /fast
   */
  rateLimited?: 'rpc' | 'wait' | undefined;
  /** Resend the same bytes this often until an end (default 1,500 ms). */
  rebroadcastMs?: number | undefined;
  /** Tracker tick: status + block height poll period (default 400 ms). */
  pollMs?: number | undefined;
  /**
   * Race the client's websocket (`client.subscribe`) against the polls: signature notifications
   * confirm, slot notifications time the polls and the early rebroadcasts (default true; a client
   * without `subscribe`, or a socket that is down, leaves the polls alone).
   */
  websocket?: boolean | undefined;
  /**
   * Early rebroadcasts: resend after this many slots without a sign of landing, for the first 3
   * resends, then twice as long each time up to `rebroadcastMs` (default 1: the slot after the one
   * that could hold the transaction — one more where the server announces slots as they start;
   * needs the websocket, else `rebroadcastMs` alone applies). intent/rebroadcast.ts has the rules.
   */
  rebroadcastSlots?: number | undefined;
  /** Commitment a send resolves at (default `'confirmed'`). */
  commitment?: Commitment | undefined;
  /** After a proven expiry: fail, or re-sign with a fresh blockhash (default `'fail'`). */
  onExpired?: 'fail' | 'resign' | undefined;
  /** Re-signs allowed per intent with `onExpired: 'resign'` (default 3). */
  maxResigns?: number | undefined;
  /** Default concurrency of `sendMany` (default 64). */
  concurrency?: number | undefined;
  /**
   * Journal file (append-only JSONL) for exactly-once across crashes; off when absent. A path, or
   * `{ path, compactAboveBytes?, keepEndedCount?, keepEndedMs? }` to tune compaction and how long
   * ended intents stay known as idempotency keys. Or `{ postgres: url | pg.Pool, table?, leaseMs? }`:
   * the fleet journal on PostgreSQL, shared by many sender processes (journal/postgres/journal.ts).
   */
  journal?: string | ({ path: string } & JournalOptions) | PostgresJournalOptions | undefined;
  /**
   * Reuse a blockhash for this long before fetching a new one (default 1,000 ms); while that fetch
   * runs, builds still sign with the old one if it is under ten times this old.
   */
  blockhashTtlMs?: number | undefined;
  /** Fetch logs with getTransaction for failed transactions (default true). */
  fetchLogs?: boolean | undefined;
}

export interface ResolvedSenderOptions {
  tip: 'min' | bigint | { auto: (signal: AbortSignal) => Promise<bigint | number>; refreshMs: number };
  maxTipLamports: bigint;
  minTipLamports: { dual: bigint; swqosOnly: bigint };
  tipAccounts: readonly string[];
  cuPrice: bigint | { estimate: PriorityLevel; multiplier: number; refreshMs: number };
  maxCuPrice: bigint;
  fallbackCuPrice: bigint;
  cuLimit: number | { simulate: true; margin: number; min: number; fallback: number };
  swqosOnly: boolean;
  rateLimited: 'rpc' | 'wait';
  rebroadcastMs: number;
  pollMs: number;
  websocket: boolean;
  rebroadcastSlots: number;
  commitment: Commitment;
  onExpired: 'fail' | 'resign';
  maxResigns: number;
  concurrency: number;
  /** The journal's path, when there is one. */
  journal?: string;
  journalOptions?: JournalOptions;
  /** The PostgreSQL journal, when there is one (a fleet sender). */
  postgres?: ReturnType<typeof resolvePostgresOptions>;
  blockhashTtlMs: number;
  fetchLogs: boolean;
}

const LEVELS: readonly PriorityLevel[] = ['Min', 'Low', 'Medium', 'High', 'VeryHigh', 'UnsafeMax'];
const COMMITMENTS: readonly Commitment[] = ['processed', 'confirmed', 'finalized'];

function posInt(v: unknown, field: string, min = 1, max = Number.MAX_SAFE_INTEGER): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw new InputError(field, `expected an integer ${min}..${max}, got ${String(v)}`, { got: v });
  }
  return v;
}

/** Validate options and fill defaults. */
export function resolveSenderConfig(o: SenderOptions = {}): ResolvedSenderOptions {
  if (o === null || typeof o !== 'object') throw new InputError('options', 'expected an object');
  const minTip = {
    dual: toU64(o.minTipLamports?.dual ?? DEFAULT_MIN_TIP_LAMPORTS.dual, 'minTipLamports.dual'),
    swqosOnly: toU64(o.minTipLamports?.swqosOnly ?? DEFAULT_MIN_TIP_LAMPORTS.swqosOnly, 'minTipLamports.swqosOnly'),
  };
  const maxTip = toU64(o.maxTipLamports ?? 10_000_000n, 'maxTipLamports');
  const swqosOnly = o.swqosOnly ?? false;
  if (typeof swqosOnly !== 'boolean') throw new InputError('swqosOnly', 'expected a boolean');
  const floor = swqosOnly ? minTip.swqosOnly : minTip.dual;
  if (maxTip < floor) throw new InputError('maxTipLamports', `cap ${maxTip} is below the minimum tip ${floor}`);

  let tip: ResolvedSenderOptions['tip'];
  const t = o.tip ?? 'min';
  if (t === 'min') tip = 'min';
  else if (typeof t === 'bigint' || typeof t === 'number') {
    tip = toU64(t, 'tip');
    if (tip < floor) throw new InputError('tip', `${tip} lamports is below the minimum tip ${floor} for this routing mode`);
    if (tip > maxTip) throw new InputError('tip', `${tip} lamports is above the cap maxTipLamports = ${maxTip}`);
  } else if (t && typeof t === 'object' && typeof t.auto === 'function') {
    tip = { auto: t.auto, refreshMs: posInt(t.refreshMs ?? 5_000, 'tip.refreshMs', 0) };
  } else throw new InputError('tip', "expected lamports, 'min', or { auto }");

  const given = o.tipAccounts ?? DEFAULT_TIP_ACCOUNTS;
  if (!Array.isArray(given) || given.length === 0) throw new InputError('tipAccounts', 'expected a non-empty array');
  // Text from here on: the builder picks one at random and the /fast rules compare them as base58.
  const tipAccounts = given.map((a: unknown, i) => toAddress(a, `tipAccounts[${i}]`));

  const maxCuPrice = toU64(o.maxCuPrice ?? 5_000_000n, 'maxCuPrice');
  const fallbackCuPrice = toU64(o.fallbackCuPrice ?? 200_000n, 'fallbackCuPrice');
  let cuPrice: ResolvedSenderOptions['cuPrice'];
  const cp = o.cuPrice ?? { estimate: 'Medium' };
  if (typeof cp === 'bigint' || typeof cp === 'number') {
    cuPrice = toU64(cp, 'cuPrice');
    if (cuPrice > maxCuPrice) throw new InputError('cuPrice', `${cuPrice} is above the cap maxCuPrice = ${maxCuPrice}`);
  } else if (cp && typeof cp === 'object' && LEVELS.includes(cp.estimate)) {
    const multiplier = cp.multiplier ?? 1.2;
    if (typeof multiplier !== 'number' || !(multiplier > 0) || !Number.isFinite(multiplier)) {
      throw new InputError('cuPrice.multiplier', 'expected a positive number');
    }
    cuPrice = { estimate: cp.estimate, multiplier, refreshMs: posInt(cp.refreshMs ?? 2_000, 'cuPrice.refreshMs', 0) };
  } else throw new InputError('cuPrice', `expected µlamports or { estimate: ${LEVELS.join('|')} }`);

  let cuLimit: ResolvedSenderOptions['cuLimit'];
  const cl = o.cuLimit ?? { simulate: true };
  if (typeof cl === 'number') cuLimit = posInt(cl, 'cuLimit', 1, 1_400_000);
  else if (cl && typeof cl === 'object' && cl.simulate === true) {
    const margin = cl.margin ?? 1.1;
    if (typeof margin !== 'number' || !(margin >= 1) || !Number.isFinite(margin)) throw new InputError('cuLimit.margin', 'expected a number ≥ 1');
    cuLimit = {
      simulate: true,
      margin,
      min: posInt(cl.min ?? 1_000, 'cuLimit.min', 1, 1_400_000),
      fallback: posInt(cl.fallback ?? 200_000, 'cuLimit.fallback', 1, 1_400_000),
    };
  } else throw new InputError('cuLimit', 'expected units or { simulate: true }');

  const commitment = o.commitment ?? 'confirmed';
  if (!COMMITMENTS.includes(commitment)) throw new InputError('commitment', `expected one of ${COMMITMENTS.join(', ')}`);
  const onExpired = o.onExpired ?? 'fail';
  if (onExpired !== 'fail' && onExpired !== 'resign') throw new InputError('onExpired', "expected 'fail' or 'resign'");
  const postgres = typeof o.journal === 'object' && o.journal !== null && 'postgres' in o.journal ? resolvePostgresOptions(o.journal) : undefined;
  const { path: journal, ...journalOptions } = postgres ? { path: undefined } : typeof o.journal === 'object' && o.journal !== null ? (o.journal as { path: string } & JournalOptions) : { path: o.journal };
  if (o.journal !== undefined && !postgres && (typeof journal !== 'string' || journal.length === 0)) {
    throw new InputError(typeof o.journal === 'object' ? 'journal.path' : 'journal', 'expected a file path');
  }
  const rateLimited = o.rateLimited ?? 'rpc';
  if (rateLimited !== 'rpc' && rateLimited !== 'wait') throw new InputError('rateLimited', `expected 'rpc' or 'wait', got ${typeof rateLimited === 'string' ? JSON.stringify(rateLimited) : typeof rateLimited}`);
  const fetchLogs = o.fetchLogs ?? true;
  if (typeof fetchLogs !== 'boolean') throw new InputError('fetchLogs', 'expected a boolean');
  return {
    tip,
    maxTipLamports: maxTip,
    minTipLamports: minTip,
    tipAccounts,
    cuPrice,
    maxCuPrice,
    fallbackCuPrice,
    cuLimit,
    swqosOnly,
    rateLimited,
    rebroadcastMs: posInt(o.rebroadcastMs ?? 1_500, 'rebroadcastMs', 10),
    pollMs: posInt(o.pollMs ?? 400, 'pollMs', 5),
    websocket: bool(o.websocket ?? true, 'websocket'),
    rebroadcastSlots: posInt(o.rebroadcastSlots ?? 1, 'rebroadcastSlots', 1, 150),
    commitment,
    onExpired,
    maxResigns: posInt(o.maxResigns ?? 3, 'maxResigns', 0, 100),
    concurrency: posInt(o.concurrency ?? 64, 'concurrency', 1, 100_000),
    ...(journal ? { journal, journalOptions: resolveJournalOptions(journalOptions) } : {}),
    ...(postgres ? { postgres } : {}),
    blockhashTtlMs: posInt(o.blockhashTtlMs ?? 1_000, 'blockhashTtlMs', 0),
    fetchLogs,
  };
}

function bool(x: unknown, field: string): boolean {
  if (typeof x !== 'boolean') throw new InputError(field, `expected a boolean, got ${typeof x}`);
  return x;
}

/** The minimum tip of the routing mode. */
export function minimumTip(cfg: ResolvedSenderOptions): bigint {
  return cfg.swqosOnly ? cfg.minTipLamports.swqosOnly : cfg.minTipLamports.dual;
}
