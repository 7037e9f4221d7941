/**
 * The devnet's request caps (`DevnetLimits`): defaults and validation. Batches stop at 1,000 calls,
 * as public RPC providers' do. Answers stop at 8 MiB: `getAccountInfo` of a 6 MiB account still
 * fits, while ten batches filling the cap at once peaked at 324 MB RSS in a devnet process
 * (16 MiB: 435 MB; 4 MiB: 224 MB). A test that needs more raises it.
 */
import { InputError } from '../../errors/index.js';
import type { DevnetLimits } from '../types.js';

export const DEFAULT_LIMITS: Readonly<DevnetLimits> = Object.freeze({
  maxBodyBytes: 4 * 2 ** 20,
  maxBatchLength: 1000,
  maxResponseBytes: 8 * 2 ** 20,
  maxJsonDepth: 64,
  maxSubscriptions: 100_000,
});

// Upper bounds: a body or answer must fit in one V8 string (2^29 - 24 characters), and JSON.stringify
// recurses once per level, so depths far past any real request would only re-open the stack overflow.
const MAX: Record<keyof DevnetLimits, number> = {
  maxBodyBytes: 256 * 2 ** 20,
  maxBatchLength: 1_000_000,
  maxResponseBytes: 256 * 2 ** 20,
  maxJsonDepth: 1000,
  maxSubscriptions: 10_000_000,
};

/**
 * Fill in the defaults and check every given cap is an integer in 1..its maximum.
 *
 * @example
 * resolveLimits({ maxBatchLength: 100 }) // { maxBodyBytes: 4194304, maxBatchLength: 100, … }
 */
export function resolveLimits(given: Partial<DevnetLimits> = {}): DevnetLimits {
  if (given === null || typeof given !== 'object') throw new InputError('limits', 'expected an object of caps');
  const out: DevnetLimits = { ...DEFAULT_LIMITS };
  for (const [key, value] of Object.entries(given)) {
    if (!(key in MAX)) throw new InputError(`limits.${key}`, `unknown limit; expected one of ${Object.keys(MAX).join(', ')}`);
    if (value === undefined) continue;
    const max = MAX[key as keyof DevnetLimits];
    if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > max) {
      throw new InputError(`limits.${key}`, `expected an integer in 1..${max}, got ${String(value)}`, { expected: `1..${max}`, got: value });
    }
    out[key as keyof DevnetLimits] = value;
  }
  return out;
}
