/**
 * `describeError`: the code, message and field of any error as one plain object — what the CLI
 * prints for a failed command and what a benchmark row records for a failed send. Here rather than
 * in cli/ because both the CLI and src/bench/ use it, and bench/ imports nothing from cli/.
 */
import { CairnError } from './cairn-error.js';

/** The code, message and field of any error, as the CLI shows it (a non-cairn error keeps its own code, e.g. EPIPE). */
export function describeError(e: unknown): { code: string; message: string; field?: string } {
  if (e instanceof CairnError) {
    const field = (e.context as { field?: unknown }).field;
    return { code: e.code, message: e.message, ...(typeof field === 'string' ? { field } : {}) };
  }
  const err = e as { code?: unknown; message?: unknown };
  return { code: typeof err?.code === 'string' ? err.code : 'INTERNAL', message: typeof err?.message === 'string' ? err.message : String(e) };
}
