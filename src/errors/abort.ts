/** The abort error every part reports (under its own code: `RPC_ABORTED`, `SENDER_ABORTED`, `MERKLE_ABORTED`). */
import { CairnError } from './cairn-error.js';
import type { AbortContext } from './context.js';

export class AbortError extends CairnError<AbortContext> {}

/** True for an abort from an AbortSignal, whatever its shape (DOMException, AbortError, ours). */
export function isAbortError(e: unknown): boolean {
  if (e instanceof AbortError) return true;
  const name = (e as { name?: string } | null)?.name;
  return name === 'AbortError' || (e as { code?: string } | null)?.code === 'ABORT_ERR';
}
