/**
 * `InputTooLargeError`: input over a byte cap (the verifier's `maxBytes`, `cairn verify --max-bytes`).
 * Code `INPUT_TOO_LARGE`; the context names the field, the limit and, when known, the size.
 */
import { CairnError, ErrorCodes } from '../errors.js';

export interface InputTooLargeContext {
  field: string;
  /** The cap, in bytes. */
  limit: number;
  /** The input's size in bytes, when it is known (a stream is left as soon as it passes the cap). */
  got?: number;
}

/** The default cap on input bytes: the verifier's `maxBytes` and `cairn verify --max-bytes`. */
export const DEFAULT_MAX_BYTES = 1 << 30;

/**
 * @example
 * if (bytes.length > max) throw new InputTooLargeError('input', max, bytes.length, 'raise maxBytes to take it');
 */
export class InputTooLargeError extends CairnError<InputTooLargeContext> {
  constructor(field: string, limit: number, got: number | undefined, hint: string) {
    super(ErrorCodes.INPUT_TOO_LARGE, `"${field}": more than the limit of ${limit} bytes${got === undefined ? '' : ` (${got} bytes)`}; ${hint}`, {
      context: { field, limit, ...(got === undefined ? {} : { got }) },
    });
  }
}
