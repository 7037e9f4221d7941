/**
 * The fee methods: `getRecentPrioritizationFees` (the lowest compute-unit price per recent slot)
 * and the provider's `getPriorityFeeEstimate` (percentiles of the prices the chain executed),
 * both read from the ledger, optionally restricted to transactions touching given accounts.
 */
import { encodeBase58 } from '../../solana/index.js';
import type { DevnetChain } from '../chain/contract.js';
import { addressParam, arr, cfg, decodeOrThrow, txBytesParam } from '../params/solana.js';
import { bad } from '../params/invalid.js';

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

const LEVELS = { Min: 0, Low: 25, Medium: 50, High: 75, VeryHigh: 95, UnsafeMax: 100 } as const;

export function getRecentPrioritizationFees(chain: DevnetChain, params: unknown): { slot: number; prioritizationFee: number }[] {
  const p = arr(params, 'getRecentPrioritizationFees', 0);
  const accounts = p[0] === undefined ? undefined : Array.isArray(p[0]) ? p[0].map((a, i) => addressParam(a, `params[0][${i}]`)) : (() => { throw bad('params[0] must be an array of addresses'); })();
  const bySlot = new Map<number, number>();
  const ledger = chain.ledger();
  const from = chain.slot() - 150;
  for (let i = ledger.length - 1; i >= 0; i--) {
    const tx = ledger[i]!;
    if (tx.slot <= from) break;
    if (accounts && !tx.accountKeys.some((k) => accounts.includes(k))) continue;
    const cur = bySlot.get(tx.slot);
    if (cur === undefined || tx.computeUnitPrice < cur) bySlot.set(tx.slot, tx.computeUnitPrice);
  }
  return [...bySlot.entries()].sort((a, b) => a[0] - b[0]).map(([slot, prioritizationFee]) => ({ slot, prioritizationFee }));
}

export function getPriorityFeeEstimate(chain: DevnetChain, params: unknown): Record<string, unknown> {
  // The provider takes one object, wrapped in an array.
  const p = Array.isArray(params) ? params[0] : params;
  const c = cfg(p, 'params[0]');
  const o = cfg(c.options, 'params[0].options');
  let accounts: string[] | undefined;
  if (c.accountKeys !== undefined) {
    if (!Array.isArray(c.accountKeys)) throw bad('params[0].accountKeys must be an array of addresses');
    accounts = c.accountKeys.map((a, i) => addressParam(a, `params[0].accountKeys[${i}]`));
  }
  if (c.transaction !== undefined) {
    const enc = String(o.transactionEncoding ?? 'base58');
    const wire = txBytesParam(c.transaction, { encoding: enc });
    const d = decodeOrThrow(wire);
    accounts = [...(accounts ?? []), ...d.parts.staticKeys.map((k) => encodeBase58(k))];
  }
  const lookback = o.lookbackSlots ?? 150;
  if (typeof lookback !== 'number' || !Number.isInteger(lookback) || lookback < 1 || lookback > 150) {
    throw bad('params[0].options.lookbackSlots must be an integer in 1..150');
  }
  const level = o.priorityLevel ?? 'Medium';
  if (typeof level !== 'string' || !(level in LEVELS)) {
    throw bad(`params[0].options.priorityLevel must be one of ${Object.keys(LEVELS).join(', ')}`);
  }
  const seen = chain.recentComputeUnitPrices(lookback, accounts).sort((a, b) => a - b);
  const levels = {
    min: percentile(seen, LEVELS.Min),
    low: percentile(seen, LEVELS.Low),
    medium: percentile(seen, LEVELS.Medium),
    high: percentile(seen, LEVELS.High),
    veryHigh: percentile(seen, LEVELS.VeryHigh),
    unsafeMax: percentile(seen, LEVELS.UnsafeMax),
  };
  if (o.includeAllPriorityFeeLevels === true) return { priorityFeeLevels: levels };
  return { priorityFeeEstimate: percentile(seen, LEVELS[level as keyof typeof LEVELS]) };
}
