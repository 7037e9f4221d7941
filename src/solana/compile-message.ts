/**
 * `compileMessage`: instructions into message parts, legacy (compile-legacy.ts) or v0 with lookup
 * tables (compile-v0.ts), with the exact account ordering `@solana/web3.js` 1.98 uses, so the bytes,
 * and therefore the signatures, are identical. No `PublicKey`, no `Buffer` layouts: this is the hot
 * path of every send (see bench/sender.ts).
 */
import { InputError } from '../errors/index.js';
import { checkInstructions } from './compile-input.js';
import { compileLegacy } from './compile-legacy.js';
import { compileV0 } from './compile-v0.js';
import { checkKitLookups, readInstructions } from './kit-instructions.js';
import type { CompileInput, CompileParts, MessageParts } from './wire-types.js';

/**
 * Compile instructions (web3.js's or kit's) into message parts, ordered exactly as web3.js 1.98 orders them.
 *
 * @example
 * const parts = compileMessage({ payer: payer.address, instructions, recentBlockhash, version: 0 });
 */
export function compileMessage(compile: CompileInput): MessageParts {
  // kit instructions are read into web3.js's shape once, here; a web3.js-only list is not copied
  const read = readInstructions(compile.instructions, 'instructions');
  checkKitLookups(read, compile.lookupTables, 'lookupTables');
  const input: CompileParts = read.instructions === compile.instructions ? (compile as CompileParts) : { ...compile, instructions: read.instructions };
  checkInstructions(input.instructions);
  const version = input.version ?? 'legacy';
  if (version === 'legacy') {
    if (input.lookupTables && input.lookupTables.length > 0) {
      throw new InputError('lookupTables', 'address lookup tables need a v0 transaction (version: 0)');
    }
    return compileLegacy(input);
  }
  if (version === 0) return compileV0(input);
  throw new InputError('version', `expected 'legacy' or 0, got ${JSON.stringify(version)}`);
}
