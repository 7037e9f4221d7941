/**
 * Suite-wide secret guard, loaded by vitest before every test file (vitest.config.ts `setupFiles`).
 * Every CairnError built anywhere in the process, every line written to stdout/stderr and every
 * process warning is scanned for the secrets registered with `registerSecret` (the client registers
 * its API key), in every encoding secret-scan.ts knows (raw, percent- and form-encoded in either hex
 * case, JSON-escaped, hex, base64/base64url, and a 6-character cut of any of them) and in every
 * serialisation (message, stack, JSON, inspect, structuredClone, property names, Maps, Sets, the cause
 * chain). A file in which a secret showed up anywhere fails in its `afterAll`, with the places and
 * encodings named but the secret itself never printed.
 */
import { afterAll } from 'vitest';
import type { CairnError } from '../../src/errors/index.js';
import { observeErrors } from '../../src/errors/internal.js';
import { registeredSecrets } from '../../src/redact.js';
import { findSecret } from './secret-scan.js';

const leaks: string[] = [];

/** Scan a value (error, string, object) for every registered secret; returns where each was found. */
export function scanForLeaks(value: unknown, label: string): string[] {
  const hits: string[] = [];
  for (const secret of registeredSecrets()) hits.push(...findSecret(value, secret, label));
  return hits;
}

observeErrors((e: CairnError) => {
  // The stack and message are final once the constructor has run; the context too.
  leaks.push(...scanForLeaks(e, `${e.name}(${e.code})`));
});

function wrapWrite(stream: NodeJS.WriteStream, name: string): void {
  const original = stream.write.bind(stream) as (...args: unknown[]) => boolean;
  stream.write = ((chunk: unknown, ...rest: unknown[]) => {
    const text = typeof chunk === 'string' ? chunk : chunk instanceof Uint8Array ? Buffer.from(chunk).toString('utf8') : '';
    if (text) leaks.push(...scanForLeaks(text, name));
    return original(chunk, ...rest);
  }) as typeof stream.write;
}
wrapWrite(process.stdout, 'stdout');
wrapWrite(process.stderr, 'stderr');

// vitest captures console output in its workers before it reaches the streams: wrap it too.
for (const level of ['log', 'info', 'warn', 'error', 'debug', 'trace'] as const) {
  const original = console[level].bind(console);
  console[level] = (...args: unknown[]) => {
    leaks.push(...scanForLeaks(args, `console.${level}`));
    original(...args);
  };
}

const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
process.emitWarning = ((warning: unknown, ...rest: unknown[]) => {
  leaks.push(...scanForLeaks(warning, 'process.emitWarning'));
  emitWarning(warning, ...rest);
}) as typeof process.emitWarning;

afterAll(() => {
  if (leaks.length) {
    const where = [...new Set(leaks)].slice(0, 20).join(', ');
    leaks.length = 0;
    throw new Error(`an API key leaked into: ${where}`);
  }
});
