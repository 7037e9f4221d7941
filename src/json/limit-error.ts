/**
 * The errors cairn's JSON readers raise for a text over their limits (tape-format.ts MAX_NUMBER_CHARS
 * and MAX_DEPTH): `INPUT_TOO_LARGE`, naming the field (`json`), the limit, what was found (`got`, numbers
 * only) and where (`at`: a byte offset for the scanners, a character offset for the string parsers).
 * A number is quoted by its first characters only: the literal itself may be megabytes long.
 */
import { CairnError, ErrorCodes } from '../errors/index.js';
import { MAX_DEPTH, MAX_NUMBER_CHARS } from './tape-format.js';

/** Characters of a refused literal a message quotes. */
const QUOTED = 32;

/** Offsets into bytes (the scanners) or into a string (the parsers). */
export type OffsetUnit = 'byte' | 'character';

/**
 * A number literal of `length` characters at `at`; `head` holds its first characters (any more are
 * cut here).
 */
export function numberTooLong(at: number, length: number, head: string, unit: OffsetUnit): CairnError<'INPUT_TOO_LARGE'> {
  const shown = head.length > QUOTED ? `${head.slice(0, QUOTED)}…` : head;
  return new CairnError(
    ErrorCodes.INPUT_TOO_LARGE,
    `"json": the number at ${unit} ${at} is ${length} characters long (at most ${MAX_NUMBER_CHARS}): ${shown}`,
    { context: { field: 'json', limit: MAX_NUMBER_CHARS, got: length, at } },
  );
}

/** A container opened at `at` one level deeper than MAX_DEPTH. */
export function tooDeep(at: number, unit: OffsetUnit): CairnError<'INPUT_TOO_LARGE'> {
  return new CairnError(ErrorCodes.INPUT_TOO_LARGE, `"json": nested deeper than ${MAX_DEPTH} levels at ${unit} ${at}`, {
    context: { field: 'json', limit: MAX_DEPTH, at },
  });
}
