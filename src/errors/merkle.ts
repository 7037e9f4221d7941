/** The Merkle engine's errors: the worker pool's, a field or point that cannot be used, a malformed validity proof. */
import { CairnError } from './cairn-error.js';
import { ErrorCodes } from './codes.js';
import type { MerkleInputContext, PointFailure, WorkerCrashedContext } from './context.js';
import { InputError } from './input.js';

/**
 * A worker died (crash, `process.exit`, uncaught exception, out of memory) while holding a batch.
 * Only that batch fails; the pool starts a replacement thread.
 *
 * @example
 * try { await verifier.verify(kind, items) } catch (e) {
 *   if (e instanceof WorkerCrashedError) retryOnce(); // e.context: { kind, items, exitCode }
 * }
 */
export class WorkerCrashedError extends CairnError<'MERKLE_WORKER_CRASHED'> {
  // built here only with a batch in hand (one rebuilt from a worker's answer is a plain CairnError)
  declare readonly context: WorkerCrashedContext & { kind: string; items: number };

  constructor(message: string, context: { kind: string; items: number; exitCode?: number; error?: string }) {
    super(ErrorCodes.MERKLE_WORKER_CRASHED, message, { context });
  }
}

/** The pool was closed before the batch finished. */
export class PoolClosedError extends CairnError<'MERKLE_POOL_CLOSED'> {
  constructor(kind?: string) {
    super(ErrorCodes.MERKLE_POOL_CLOSED, 'the verifier was closed', { context: kind === undefined ? {} : { kind } });
  }
}

/**
 * A value problem in one field of one item: the item is invalid, the input as a whole is still usable.
 *
 * @example
 * b58Field('abc', 'root'); // throws FieldError: "root": expected 32 bytes, got 2
 */
export class FieldError extends InputError {
  // A bad field is a verdict's reason, read as data: a stack would cost ~20 µs per invalid item
  // (source-mapped under tsx) and say nothing about the item.
  constructor(...args: ConstructorParameters<typeof InputError>) {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(...args);
    } finally {
      Error.stackTraceLimit = limit;
    }
  }
}

/** A packed field that does not decode (its message already names the field): an invalid item. */
export class PackedFieldError extends CairnError<'MERKLE_INVALID_INPUT'> {
  constructor(message: string) {
    super(ErrorCodes.MERKLE_INVALID_INPUT, message);
  }
}

const FAILURE_TEXT: Record<PointFailure, string> = {
  length: 'wrong length',
  flags: 'invalid flag bits',
  coordinate: 'coordinate is not below the base field modulus p',
  'not-on-curve': 'not on the curve',
  'not-in-subgroup': 'not in the prime-order subgroup',
};

/** A point that cannot be used: `context.field` names it, `context.reason` says why. */
export class PointError extends CairnError<'MERKLE_INVALID_INPUT'> {
  declare readonly context: MerkleInputContext & { field: string; reason: PointFailure };

  constructor(field: string, reason: PointFailure, detail?: string) {
    super(ErrorCodes.MERKLE_INVALID_INPUT, `"${field}": ${FAILURE_TEXT[reason]}${detail ? ` (${detail})` : ''}`, {
      context: { field, reason, ...(detail === undefined ? {} : { detail }) },
    });
  }
}

/**
 * A getValidityProof response whose structure is wrong; `context.field` is the field the message
 * names. verifyValidityProof turns it into a `malformed` verdict; `validityPublicInputs` lets it escape.
 */
export class ValidityStructureError extends CairnError<'MERKLE_INVALID_INPUT'> {
  declare readonly context: MerkleInputContext & { field: string };

  constructor(message: string) {
    super(ErrorCodes.MERKLE_INVALID_INPUT, message, { context: { field: /^"([^"]+)"/.exec(message)?.[1] ?? 'value' } });
  }
}
