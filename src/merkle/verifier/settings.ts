/**
 * The verifier's options, checked and with their defaults: what the rest of it reads instead of the
 * caller's object. A bad option is an `InputError` naming it, thrown before any worker starts.
 */
import { InputError } from '../../errors/index.js';
import { DEFAULT_MAX_BYTES } from '../input.js';
import { FIRST_PART, HEAD_START_FROM } from './raw/head-start.js';
import type { InternalVerifierOptions } from './types.js';

/** The largest `maxBytes`: the batches' offsets into a response are 32-bit. */
const MAX_BYTES_CAP = 0xffffffff;

export interface VerifierSettings {
  /** The caller's fixed batch size, if any (else per kind, and smaller for short lists). */
  readonly batchSize: number | undefined;
  readonly inflightPerThread: number;
  readonly maxBytes: number;
  readonly jsonOptions: { parseBelow?: number };
  /** When a raw response is scanned a part at a time (raw/head-start.ts), or `false`: never. */
  readonly headStart: { from: number; firstPart: number } | false;
}

/**
 * `options` checked, in the order the verifier has always checked them.
 *
 * @example
 * verifierSettings({ batchSize: 0 }); // throws InputError (field batchSize)
 */
export function verifierSettings(options: InternalVerifierOptions): VerifierSettings {
  if (options.batchSize !== undefined && (!Number.isInteger(options.batchSize) || options.batchSize < 1)) {
    throw new InputError('batchSize', `expected a positive integer, got ${String(options.batchSize)}`);
  }
  const inflightPerThread = options.inflightPerThread ?? 2;
  if (!Number.isInteger(inflightPerThread) || inflightPerThread < 1 || inflightPerThread > 64) {
    throw new InputError('inflightPerThread', `expected an integer 1–64, got ${String(inflightPerThread)}`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  if (!Number.isInteger(maxBytes) || maxBytes < 1 || maxBytes > MAX_BYTES_CAP) {
    throw new InputError('maxBytes', `expected an integer 1–${MAX_BYTES_CAP}, got ${String(options.maxBytes)}`);
  }
  return {
    batchSize: options.batchSize,
    inflightPerThread,
    maxBytes,
    jsonOptions: options.jsonParseBelow === undefined ? {} : { parseBelow: options.jsonParseBelow },
    headStart: options.jsonHeadStart ?? { from: HEAD_START_FROM, firstPart: FIRST_PART },
  };
}
