/**
 * `PackedFieldError`: the field problem the main thread saw while packing an item, raised by the
 * worker when it reaches that field. The class lives with the other errors (src/errors/merkle.ts).
 */
export { PackedFieldError } from '../../errors/index.js';
