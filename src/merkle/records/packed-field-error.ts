/**
 * The field problem the main thread saw while packing an item, raised by the worker when it reaches
 * that field. Its message is the `FieldError` message the parser gives for it.
 */
import { CairnError, ErrorCodes } from '../../errors.js';

/** A packed field that does not decode (its message already names the field): an invalid item. */
export class PackedFieldError extends CairnError {
  constructor(message: string) {
    super(ErrorCodes.MERKLE_INVALID_INPUT, message);
  }
}
