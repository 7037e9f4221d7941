/**
 * `cairn verify <kind> <file|-> [--json] [--threads N]`: verify, offline, every proof in a file the
 * service returned (a whole JSON-RPC response, a bare result, `{context, value}`, a single item, an
 * array, a paged list or an object keyed by id). Exit 0 when every item is valid, 1 when any is
 * invalid, 2 when the input is unusable (with a message saying why).
 */
import { open } from 'node:fs/promises';
import { availableParallelism } from 'node:os';
import { CairnError, InputError } from '../errors.js';
import { getKind, isKindName, KIND_NAMES } from '../merkle/kinds.js';
import { extractJson } from '../merkle/json/extract.js';
import { createVerifier } from '../merkle/verifier.js';
import type { Verdict } from '../merkle/verdict.js';
import type { VerdictTable } from '../merkle/verdict-table.js';

/** Where the command reads and writes (the process by default; tests pass their own). */
export interface CliIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  stdin: AsyncIterable<string | Uint8Array>;
}

const usage = `usage: cairn verify <kind> <file|-> [--json] [--threads N]
  kinds:   ${KIND_NAMES.join(', ')}
  input:   a JSON-RPC response, a bare result, {context, value}, an item, an array, a paged list
           or an object keyed by id, as the service returns them
  threads: worker threads (default: by input size; 0 = verify on the main thread)
  exit:    0 all valid, 1 any invalid, 2 unusable input
`;

interface Args {
  kind: string;
  file: string;
  json: boolean;
  threads?: number;
}

function parseArgs(argv: string[]): Args | string {
  const pos: string[] = [];
  let json = false;
  let threads: number | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--json') json = true;
    else if (a === '--threads' || a.startsWith('--threads=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i];
      if (v === undefined || !/^[0-9]+$/.test(v) || Number(v) > 64) return `--threads: expected an integer 0–64 (0 = no worker threads), got ${v ?? 'nothing'}`;
      threads = Number(v);
    } else if (a === '-') pos.push(a);
    else if (a.startsWith('-')) return `unknown option ${a}`;
    else pos.push(a);
  }
  if (pos.length !== 2) return pos.length < 2 ? 'expected a kind and a file (or - for stdin)' : `unexpected argument ${pos[2]}`;
  return { kind: pos[0]!, file: pos[1]!, json, ...(threads === undefined ? {} : { threads }) };
}

/**
 * A file's bytes in shared memory, so the workers read them where they lie (a Buffer would be copied
 * into shared memory by the verifier). A file that grows while it is read is read again whole, and
 * anything but a regular file (a pipe, `<(…)`) is read to its end as it comes.
 */
async function readShared(path: string): Promise<Uint8Array> {
  const fh = await open(path, 'r');
  try {
    const st = await fh.stat();
    if (!st.isFile()) return await fh.readFile();
    const size = st.size;
    const view = new Uint8Array(new SharedArrayBuffer(Math.max(1, size)), 0, size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await fh.read(view, at, size - at, at);
      if (bytesRead === 0) return view.subarray(0, at);
      at += bytesRead;
    }
    const more = await fh.read(Buffer.alloc(1), 0, 1, size);
    return more.bytesRead === 0 ? view : await fh.readFile();
  } finally {
    await fh.close();
  }
}

async function readAll(stream: AsyncIterable<string | Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of stream) parts.push(typeof c === 'string' ? Buffer.from(c) : Buffer.from(c));
  return Buffer.concat(parts);
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
  if (!isKindName(args.kind)) {
    io.stderr.write(`cairn verify: unknown kind "${args.kind}"\n${usage}`);
    return 2;
  }
  const spec = getKind(args.kind);

  let bytes: Uint8Array;
  try {
    bytes = args.file === '-' ? await readAll(io.stdin) : await readShared(args.file);
  } catch (e) {
    io.stderr.write(`cairn verify: cannot read ${args.file}: ${(e as Error).message}\n`);
    return 2;
  }
  // The file's bytes go to the verifier as they are (a large file is scanned, not parsed, here and
  // its items parsed by the workers); this first look counts the items and catches unusable input.
  let count: number;
  try {
    const found = extractJson(spec, bytes);
    count = Array.isArray(found) ? found.length : found.values.length;
  } catch (e) {
    const notJson = e instanceof InputError && e.context.field === 'json';
    io.stderr.write(`cairn verify: ${notJson ? `${args.file === '-' ? 'stdin' : args.file} is not JSON` : `unusable input for ${args.kind}`}: ${(e as Error).message}\n`);
    return 2;
  }

  let table: VerdictTable | undefined;
  if (count > 0) {
    // No more threads than batches, and none at all for a single batch: starting a worker costs more
    // than verifying a few proofs.
    const batches = Math.ceil(count / spec.batchSize);
    const threads = args.threads ?? (batches <= 1 ? 0 : Math.min(availableParallelism(), batches));
    const verifier = createVerifier({ threads });
    const ac = new AbortController();
    const onSignal = (): void => ac.abort(new Error('interrupted'));
    process.once('SIGINT', onSignal);
    try {
      // Keys (objects keyed by id) name their items in the verdicts.
      // A table: counts and invalid items without a verdict object per item, whose verdicts are
      // made a batch at a time as they are printed.
      table = await verifier.verifyTable(args.kind, bytes, { signal: ac.signal });
    } catch (e) {
      io.stderr.write(`cairn verify: ${e instanceof CairnError ? `${e.code}: ` : ''}${(e as Error).message}\n`);
      return 2;
    } finally {
      process.off('SIGINT', onSignal);
      await verifier.close();
    }
  }

  const total = table?.length ?? 0;
  const invalid = table?.invalidCount ?? 0;
  const valid = total - invalid;
  const verdicts: Iterable<Verdict> = table ?? [];
  if (args.json) {
    const items: Array<{ id: string; valid: boolean; reason?: string }> = [];
    let i = 0;
    for (const v of verdicts) {
      items.push({ id: v.id ?? String(i), valid: v.valid, ...(v.reason === undefined ? {} : { reason: v.reason }) });
      i++;
    }
    io.stdout.write(JSON.stringify({ kind: args.kind, total, valid, invalid, items }) + '\n');
  } else {
    let i = 0;
    for (const v of verdicts) {
      const id = v.id ?? `#${i}`;
      i++;
      const status = v.status ? ` [${v.status}]` : '';
      io.stdout.write(v.valid ? `ok       ${id}${status}\n` : `INVALID  ${id}${status}: ${v.reason ?? 'invalid'}\n`);
    }
    io.stdout.write(count === 0 ? `${args.kind}: nothing to verify (no items in the input)\n` : `${args.kind}: ${total} item(s), ${valid} valid, ${invalid} invalid\n`);
  }
  return invalid > 0 ? 1 : 0;
}
