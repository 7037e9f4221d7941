/**
 * `cairn verify <kind> <file|-> [--json] [--threads N] [--max-bytes N]`: verify, offline, every proof
 * in a file the service returned (a whole JSON-RPC response, a bare result, `{context, value}`, a
 * single item, an array, a paged list or an object keyed by id). Exit 0 when every item is valid, 1
 * when any is invalid, 2 on any error (unusable or too large input, a worker that died, an
 * interrupt), with a message saying why. The exit code is decided only once the verifier is closed.
 */
import { availableParallelism } from 'node:os';
import { CairnError, createVerifier, DEFAULT_MAX_BYTES, InputError, inspectBody, InputTooLargeError, KIND_NAMES, type BodyInspection, type KindName } from '../merkle/index.js';
import { readFileBounded, readStreamBounded } from './read-bounded.js';

/** Where the command reads and writes (the process by default; tests pass their own). */
export interface CliIo {
  /**
   * `write` returning false holds the output back until 'drain'; an 'error' (EPIPE: the reader went
   * away) ends the run with exit 2. Both as a Node stream has them; a plain writer needs neither.
   */
  stdout: {
    write(s: string): unknown;
    on?(event: 'drain' | 'error', fn: (e?: Error) => void): unknown;
    off?(event: 'drain' | 'error', fn: (e?: Error) => void): unknown;
  };
  stderr: { write(s: string): unknown };
  stdin: AsyncIterable<string | Uint8Array>;
}

/** The largest --max-bytes: the verifier's offsets into the input are 32-bit. */
const MAX_BYTES_CAP = 0xffffffff;

const usage = `usage: cairn verify <kind> <file|-> [--json] [--threads N] [--max-bytes N]
  kinds:     ${KIND_NAMES.join(', ')}
  input:     a JSON-RPC response, a bare result, {context, value}, an item, an array, a paged list
             or an object keyed by id, as the service returns them
  threads:   worker threads (default: by input size; 0 = verify on the main thread)
  max-bytes: the most input bytes read (default ${DEFAULT_MAX_BYTES}, 1 GiB); more is INPUT_TOO_LARGE
  output:    a line per item (--json: one object), written as the items are verified
  exit:      0 every item valid
             1 some item invalid (its line says why)
             2 any error: unusable or too large input, a worker that died, an interrupt, a closed
               stdout (stderr says why; lines already written for items verified before the error
               do not speak for the rest)
`;

interface Args {
  kind: string;
  file: string;
  json: boolean;
  threads?: number;
  maxBytes: number;
}

/** The value of `--name V` or `--name=V` at argv[i] (i moves past it); undefined when missing. */
function optionValue(argv: string[], at: { i: number }): string | undefined {
  const a = argv[at.i]!;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++at.i];
}

function parseArgs(argv: string[]): Args | string {
  const pos: string[] = [];
  let json = false;
  let threads: number | undefined;
  let maxBytes = DEFAULT_MAX_BYTES;
  for (const at = { i: 0 }; at.i < argv.length; at.i++) {
    const a = argv[at.i]!;
    if (a === '--json') json = true;
    else if (a === '--threads' || a.startsWith('--threads=')) {
      const v = optionValue(argv, at);
      if (v === undefined || !/^[0-9]+$/.test(v) || Number(v) > 64) return `--threads: expected an integer 0–64 (0 = no worker threads), got ${v ?? 'nothing'}`;
      threads = Number(v);
    } else if (a === '--max-bytes' || a.startsWith('--max-bytes=')) {
      const v = optionValue(argv, at);
      if (v === undefined || !/^[0-9]+$/.test(v) || Number(v) < 1 || Number(v) > MAX_BYTES_CAP) {
        return `--max-bytes: expected an integer 1–${MAX_BYTES_CAP} (bytes), got ${v === undefined ? 'nothing' : v === '' ? 'an empty value' : v}`;
      }
      maxBytes = Number(v);
    } else if (a === '-') pos.push(a);
    else if (a.startsWith('-')) return `unknown option ${a}`;
    else pos.push(a);
  }
  if (pos.length !== 2) return pos.length < 2 ? 'expected a kind and a file (or - for stdin)' : `unexpected argument ${pos[2]}`;
  return { kind: pos[0]!, file: pos[1]!, json, maxBytes, ...(threads === undefined ? {} : { threads }) };
}

/**
 * stdout as the command writes it: a write waits while the stream says its buffer is full (a slow
 * pipe must not fill memory), and a stream that failed makes the next write throw. Its 'error' was
 * unhandled before: `| head -1` crashed the process with exit 1, read as "some item invalid". The
 * listener stays: an error after the last write has nothing left to fail.
 */
function output(out: CliIo['stdout']): (s: string) => Promise<void> {
  let failure: Error | null = null;
  out.on?.('error', (e) => (failure ??= e ?? new Error('stdout failed')));
  return async (s) => {
    if (failure) throw failure;
    if (out.write(s) === false && out.on && out.off) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          out.off!('drain', done);
          out.off!('error', done);
          resolve();
        };
        out.on!('drain', done);
        out.on!('error', done);
      });
    }
    if (failure) throw failure;
  };
}

/**
 * Run the command; resolves to the exit code.
 *
 * @example
 * process.exitCode = await run(['account-proof', 'proofs.json', '--json']);
 */
export async function run(argv: string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout.write(usage);
    return 0;
  }
  const args = parseArgs(argv);
  if (typeof args === 'string') {
    io.stderr.write(`cairn verify: ${args}\n${usage}`);
    return 2;
  }
  if (!(KIND_NAMES as readonly string[]).includes(args.kind)) {
    io.stderr.write(`cairn verify: unknown kind "${args.kind}"\n${usage}`);
    return 2;
  }
  const kind = args.kind as KindName;
  const put = output(io.stdout);
  const fail = async (e: unknown): Promise<number> => {
    io.stderr.write(`cairn verify: ${e instanceof CairnError ? `${e.code}: ` : ''}${(e as Error).message}\n`);
    return 2;
  };

  let bytes: Uint8Array;
  try {
    bytes = args.file === '-' ? await readStreamBounded(io.stdin, args.maxBytes) : await readFileBounded(args.file, args.maxBytes);
  } catch (e) {
    if (e instanceof InputTooLargeError) return await fail(e);
    io.stderr.write(`cairn verify: cannot read ${args.file}: ${(e as Error).message}\n`);
    return 2;
  }
  // The file's bytes go to the verifier as they are (a large file is scanned, not parsed, here and
  // its items parsed by the workers); this first look counts the items and catches unusable input.
  // The inspection is what the verifier is given: it reuses the scan instead of scanning a second
  // time (twice the time, and two tapes at once: ~20 bytes each per item of a list of nulls).
  let body: BodyInspection;
  try {
    body = inspectBody(kind, bytes);
  } catch (e) {
    const notJson = e instanceof InputError && e.context.field === 'json';
    io.stderr.write(`cairn verify: ${notJson ? `${args.file === '-' ? 'stdin' : args.file} is not JSON` : `unusable input for ${args.kind}`}: ${(e as Error).message}\n`);
    return 2;
  }

  let total = 0;
  let invalid = 0;
  if (body.items > 0) {
    // No more threads than batches, and none at all for a single batch: starting a worker costs more
    // than verifying a few proofs.
    const threads = args.threads ?? (body.batches <= 1 ? 0 : Math.min(availableParallelism(), body.batches));
    const verifier = createVerifier({ threads, maxBytes: args.maxBytes });
    const ac = new AbortController();
    const onSignal = (): void => ac.abort(new Error('interrupted'));
    process.once('SIGINT', onSignal);
    let failed: { error: unknown } | null = null;
    try {
      // A batch at a time, printed as it comes and dropped: memory holds the batches in flight, not
      // a verdict per item (a million invalid items). Keys (objects keyed by id) name their items.
      for await (const table of verifier.verifyBatches(kind, body, { signal: ac.signal })) {
        let text = args.json ? (total === 0 ? `{"kind":${JSON.stringify(args.kind)},"items":[` : '') : '';
        for (const v of table) {
          const id = v.id ?? (args.json ? String(total) : `#${total}`);
          if (args.json) text += `${total === 0 ? '' : ','}${JSON.stringify({ id, valid: v.valid, ...(v.reason === undefined ? {} : { reason: v.reason }) })}`;
          else {
            const status = v.status ? ` [${v.status}]` : '';
            text += v.valid ? `ok       ${id}${status}\n` : `INVALID  ${id}${status}: ${v.reason ?? 'invalid'}\n`;
          }
          total++;
        }
        invalid += table.invalidCount;
        await put(text);
      }
    } catch (e) {
      failed = { error: e };
    } finally {
      process.off('SIGINT', onSignal);
      // Closed before the exit code is given: a verifier left open could outlive it, or (before
      // close always settled) end the process with the code not yet set.
      await verifier.close();
    }
    // A JSON document cut short stays unparseable: nothing reads it as a verdict.
    if (failed) return await fail(failed.error);
  }

  const valid = total - invalid;
  const totals = `"total":${total},"valid":${valid},"invalid":${invalid}`;
  try {
    if (args.json) await put(total === 0 ? `{"kind":${JSON.stringify(args.kind)},${totals},"items":[]}\n` : `],${totals}}\n`);
    else await put(body.items === 0 ? `${args.kind}: nothing to verify (no items in the input)\n` : `${args.kind}: ${total} item(s), ${valid} valid, ${invalid} invalid\n`);
  } catch (e) {
    return await fail(e);
  }
  return invalid > 0 ? 1 : 0;
}
