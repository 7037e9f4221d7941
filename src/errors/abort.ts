/** The abort error every part reports (under its own code: `RPC_ABORTED`, `SENDER_ABORTED`, `MERKLE_ABORTED`). */
import { CairnError } from './cairn-error.js';

/** The codes an abort is reported under; callers match on them, so each part keeps its own. */
export type AbortCode = 'RPC_ABORTED' | 'SENDER_ABORTED' | 'MERKLE_ABORTED';

export class AbortError<C extends AbortCode = AbortCode> extends CairnError<C> {}

/** True for an abort from an AbortSignal, whatever its shape (DOMException, AbortError, ours). */
export function isAbortError(e: unknown): boolean {
  if (e instanceof AbortError) return true;
  const name = (e as { name?: string } | null)?.name;
  return name === 'AbortError' || (e as { code?: string } | null)?.code === 'ABORT_ERR';
}
