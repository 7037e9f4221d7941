/** Errors about what the caller passed in: a field that is unusable, or input over a cap. */
import { CairnError } from './cairn-error.js';
import { ErrorCodes } from './codes.js';

/** Bad caller input. `context.field` names the offending field. */
export class InputError extends CairnError<'INPUT_INVALID'> {
  constructor(field: string, message: string, extra: { expected?: string; got?: unknown; cause?: unknown } = {}) {
    super(ErrorCodes.INPUT_INVALID, `"${field}": ${message}`, {
      context: { field, expected: extra.expected, got: extra.got },
      cause: extra.cause,
    });
  }
}

/**
 * Input (bytes) over a cap: `INPUT_TOO_LARGE`, naming the field and the limit.
 *
 * @example
 * if (bytes.length > max) throw new InputTooLargeError('input', max, bytes.length, 'raise maxBytes to take it');
 */
export class InputTooLargeError extends CairnError<'INPUT_TOO_LARGE'> {
  constructor(field: string, limit: number, got: number | undefined, hint: string) {
    super(ErrorCodes.INPUT_TOO_LARGE, `"${field}": more than the limit of ${limit} bytes${got === undefined ? '' : ` (${got} bytes)`}; ${hint}`, {
      context: { field, limit, ...(got === undefined ? {} : { got }) },
    });
  }
}
