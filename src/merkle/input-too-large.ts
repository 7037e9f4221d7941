/**
 * `InputTooLargeError`: input over a byte cap (the verifier's `maxBytes`, `cairn verify --max-bytes`).
 * Code `INPUT_TOO_LARGE`; the context names the field, the limit and, when known, the size. The class
 * lives with the other errors (src/errors/input.ts).
 */
export { InputTooLargeError, type InputTooLargeContext } from '../errors/index.js';

/** The default cap on input bytes: the verifier's `maxBytes` and `cairn verify --max-bytes`. */
export const DEFAULT_MAX_BYTES = 1 << 30;
