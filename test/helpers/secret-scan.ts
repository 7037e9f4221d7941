/**
 * Look for a secret everywhere an error or a log could carry it: message, stack, `JSON.stringify`,
 * `String(e)`, `util.inspect` (what console.log prints), context, and the whole cause chain.
 * Returns the places it was found (empty = clean), so a test can `expect(findSecret(e, key)).toEqual([])`.
 */
import { inspect } from 'node:util';

export function findSecret(value: unknown, secret: string, where = '$', seen = new Set<unknown>()): string[] {
  const hits: string[] = [];
  const variants = [secret, encodeURIComponent(secret)];
  const check = (label: string, text: string | undefined): void => {
    if (text && variants.some((s) => text.includes(s))) hits.push(label);
  };
  if (typeof value === 'string') {
    check(where, value);
    return hits;
  }
  if (value === null || typeof value !== 'object' || seen.has(value)) return hits;
  seen.add(value);
  if (value instanceof Error) {
    check(`${where}.message`, value.message);
    check(`${where}.stack`, value.stack);
    check(`${where} String()`, String(value));
  }
  try {
    check(`${where} JSON`, JSON.stringify(value, (_k, x) => (typeof x === 'bigint' ? x.toString() : x)));
  } catch {
    /* circular: inspect below covers it */
  }
  check(`${where} inspect`, inspect(value, { depth: 8, showHidden: false }));
  for (const key of Object.getOwnPropertyNames(value)) {
    if (key === 'stack' || key === 'message') continue;
    hits.push(...findSecret((value as Record<string, unknown>)[key], secret, `${where}.${key}`, seen));
  }
  const cause = (value as { cause?: unknown }).cause;
  if (cause !== undefined) hits.push(...findSecret(cause, secret, `${where}.cause`, seen));
  return hits;
}

/** A logger that keeps every line, for scanning afterwards. */
export function recordingLogger(): { lines: string[]; log: (line: string) => void } {
  const lines: string[] = [];
  return { lines, log: (line) => lines.push(line) };
}
