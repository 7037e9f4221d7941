/**
 * `cairn verify <kind> <file|-> [--json] [--only-invalid] [--threads N] [--max-bytes N] [--quiet] [--rpc URL]`
 * (validity-proof also `[--vk FILE]… [--key-set NAME]… [--accounts FILE] [--addresses FILE]`): verify, offline, every proof
 * in a file the service returned (a whole JSON-RPC response, a bare result, `{context, value}`, a
 * single item, an array, a paged list or an object keyed by id). Exit 0 when every item is valid, 1
 * when any is invalid, 2 on any error (unusable or too large input, a worker that died, an
 * interrupt), with a message saying why. The exit code is decided only once the verifier is closed.
 * With `--rpc URL` every proof's roots are also checked against the chain (anchored: a root its tree's
 * account does not hold is `unknown-root`); without, the summary says the verdicts are not anchored.
 */
import { availableParallelism } from 'node:os';
import { CairnError, createVerifier, DEFAULT_MAX_BYTES, InputError, inspectBody, InputTooLargeError, KIND_NAMES, type BodyInspection, type KindName } from '../merkle/index.js';
import { readFileBounded, readStreamBounded, readStreamHead } from './read-bounded.js';
import { intFlag, runCommand, type CliWriter, type CommandContext } from './args.js';
import { createProgress } from './progress.js';
import { didYouMean, JSON_FLAG, QUIET_FLAG, type CommandSpec } from './usage.js';
import { validityBundle, validityDetails, validityFlags } from './verify-validity.js';
import { STREAM_ABOVE, shouldStream, verifyStreamed } from './verify-stream.js';

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
  /** A terminal here (`isTTY`) gets a progress line. */
  stderr: CliWriter;
  stdin: AsyncIterable<string | Uint8Array>;
}

/** The largest --max-bytes: 1 TiB, for input read item by item (nothing of it is held but one item). */
const MAX_BYTES_CAP = 2 ** 40;
/** The most input read whole: the verifier's offsets into one input are 32-bit. */
const WHOLE_INPUT_CAP = 0xffffffff;

export const SPEC: CommandSpec = {
  name: 'verify',
  summary: 'Verify, offline, every proof in a file the service returned.',
  synopsis: '<kind> <file|-> [--json] [--only-invalid] [--threads N] [--max-bytes N] [--quiet] [--rpc URL [--commitment C]]',
  positionals: [0, 2],
  flags: {
    json: JSON_FLAG,
    'only-invalid': { type: 'boolean', describe: 'print only the invalid items (the totals still count all)' },
    threads: { type: 'string', value: 'N', describe: 'worker threads 0–64 (default: by input size; 0 = the main thread)' },
    'max-bytes': { type: 'string', value: 'N', describe: `the most input bytes read (default ${DEFAULT_MAX_BYTES}, 1 GiB; up to 2^40 for input read item by item, 2^32 - 1 read whole); more is INPUT_TOO_LARGE` },
    quiet: QUIET_FLAG,
    rpc: { type: 'string', value: 'URL', describe: "anchor: check every proof's roots against the tree accounts on chain at this JSON-RPC URL" },
    commitment: { type: 'string', value: 'C', describe: 'anchor reads at processed, confirmed (default) or finalized' },
    vk: { type: 'string', multiple: true, value: 'FILE', describe: "validity-proof: verify against the keys in FILE (Light's verifying-key JSON) instead of the shipped sets" },
    'key-set': { type: 'string', multiple: true, value: 'NAME', describe: 'validity-proof: try the shipped set NAME (light-8ddf06ba, light-338e47405, cairn-devnet-1: the devnet set is tried only so)' },
    accounts: { type: 'string', value: 'FILE', describe: "validity-proof: compressed accounts or account proofs each proof's leaves must match" },
    addresses: { type: 'string', value: 'FILE', describe: "validity-proof: new-address proofs each proof's addresses must match" },
  },
  notes: `kinds:   ${KIND_NAMES.join(', ')}
input:   a JSON-RPC response, a bare result, {context, value}, an item, an array, a paged list
         or an object keyed by id, as the service returns them
anchor:  without --rpc a verdict says only that the proof is self-consistent (its leaf and path
         hash to the root it states); with --rpc the root must also be in its tree's root history
         on chain (else unknown-root, tree-not-found or not-a-tree)
keys:    validity-proof tries Light's shipped key sets unless --vk or --key-set names others;
         cairn's devnet set (forgeable: its setup seed is public) is tried only when named
output:  a line per item (--json: one object), written as the items are verified; a progress
         line (count, rate, ETA) on stderr when it is a terminal`,
  exits: [
    [0, 'every item valid'],
    [1, 'some item invalid (its line says why)'],
    [2, 'any error: bad usage, unusable or too large input, a worker that died, an interrupt, a closed\n     stdout (stderr says why; lines already written do not speak for the rest)'],
  ],
};

/** An unusable input named by what the user typed (not a flag: the message carries no field prefix). */
function unusable(field: string, message: string, cause?: unknown): CairnError {
  return new CairnError('INPUT_INVALID', message, { context: { field }, ...(cause === undefined ? {} : { cause }) });
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
  // a function, not the check inline: the listener sets `failure` during the await below, and the
  // compiler, which does not see that, would take it for still null after the first check
  const rethrow = (): void => {
    if (failure) throw failure;
  };
  return async (s) => {
    rethrow();
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
    rethrow();
  };
}

/**
 * Run the command; resolves to the exit code.
 *
 * @example
 * process.exitCode = await run(['account-proof', 'proofs.json', '--json']);
 */
export async function run(argv: string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }): Promise<number> {
  // Every error of verify is exit 2: 1 is kept for "some item invalid", never for a failure.
  return runCommand(SPEC, argv, io, (ctx) => verify(ctx, io), () => 2);
}

async function verify({ values, positionals, json }: CommandContext, io: CliIo): Promise<number> {
  const threadsFlag = intFlag(values, 'threads', 0, 64, ' (0 = no worker threads)');
  const maxBytes = intFlag(values, 'max-bytes', 1, MAX_BYTES_CAP, ' (bytes)') ?? DEFAULT_MAX_BYTES;
  const wholeMax = Math.min(maxBytes, WHOLE_INPUT_CAP);
  if (positionals.length < 2) throw unusable('argv', 'expected a kind and a file (or - for stdin)');
  const args = { kind: positionals[0]!, file: positionals[1]!, json, onlyInvalid: values['only-invalid'] === true };
  if (!(KIND_NAMES as readonly string[]).includes(args.kind)) {
    const guess = didYouMean(args.kind, KIND_NAMES);
    throw unusable('kind', `unknown kind "${args.kind}"; expected ${guess ? `${guess}? (one of ${KIND_NAMES.join(', ')})` : `one of ${KIND_NAMES.join(', ')}`}`);
  }
  const kind = args.kind as KindName;
  const vflags = validityFlags(values);
  if (vflags.any && kind !== 'validity-proof') {
    throw unusable(vflags.vk.length ? 'vk' : vflags.keySets.length ? 'key-set' : vflags.accounts !== undefined ? 'accounts' : 'addresses', '--vk, --key-set, --accounts and --addresses apply to validity-proof only');
  }
  const rpc = typeof values.rpc === 'string' ? values.rpc : undefined;
  const commitment = typeof values.commitment === 'string' ? values.commitment : undefined;
  if (commitment !== undefined && rpc === undefined) throw unusable('commitment', '--commitment applies with --rpc only');
  const anchor = rpc === undefined ? undefined : { rpc, ...(commitment === undefined ? {} : { commitment: commitment as 'confirmed' }) };
  const put = output(io.stdout);
  const streamArgs = {
    kind,
    file: args.file,
    json: args.json,
    onlyInvalid: args.onlyInvalid,
    anchor,
    maxBytes,
    threadsFlag,
    quiet: values.quiet === true,
    put,
    io,
  };
  // Devices and large files: read item by item, memory bounded whatever the size.
  if (kind !== 'validity-proof' && !vflags.any && (await shouldStream(args.file))) return streamed(streamArgs);

  let bytes: Uint8Array;
  try {
    if (args.file === '-' && kind !== 'validity-proof' && !vflags.any) {
      // stdin and pipes by their size, as files are: past STREAM_ABOVE, item by item (memory bounded)
      const head = await readStreamHead(io.stdin, STREAM_ABOVE, maxBytes);
      if (!head.ended) return streamed({ ...streamArgs, io: { ...io, stdin: head.rest } });
      bytes = head.bytes;
    } else bytes = args.file === '-' ? await readStreamBounded(io.stdin, wholeMax) : await readFileBounded(args.file, wholeMax);
  } catch (e) {
    if (e instanceof InputTooLargeError) throw e;
    throw unusable('file', `cannot read ${args.file}: ${(e as Error).message}`, e);
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
    // Not one JSON document: NDJSON (one per line) is read as a stream.
    if (notJson && kind !== 'validity-proof' && !vflags.any && looksLikeNdjson(bytes)) {
      const read = bytes;
      // stdin is read already: its bytes are streamed from memory
      return streamed(args.file === '-' ? { ...streamArgs, io: { ...io, stdin: (async function* () { yield read; })() } } : streamArgs);
    }
    throw unusable(notJson ? 'file' : 'kind', `${notJson ? `${args.file === '-' ? 'stdin' : args.file} is not JSON` : `unusable input for ${args.kind}`}: ${(e as Error).message}`, e);
  }

  // validity-proof with keys or cross-checks chosen: the answers travel wrapped with them.
  const input: unknown = vflags.any ? await validityBundle(bytes, vflags, wholeMax) : body;
  const details = kind === 'validity-proof';

  let total = 0;
  let listed = 0;
  let invalid = 0;
  if (body.items > 0) {
    // No more threads than batches, and none at all for a single batch: starting a worker costs more
    // than verifying a few proofs.
    const threads = threadsFlag ?? (body.batches <= 1 ? 0 : Math.min(availableParallelism(), body.batches));
    const verifier = createVerifier({ threads, maxBytes: wholeMax, ...(anchor ? { anchor } : {}) });
    const progress = createProgress(io.stderr, { label: `${args.kind}: verified`, total: body.items, quiet: values.quiet === true });
    const ac = new AbortController();
    const onSignal = (): void => ac.abort(new Error('interrupted'));
    process.once('SIGINT', onSignal);
    let failed: { error: unknown } | null = null;
    try {
      // A batch at a time, printed as it comes and dropped: memory holds the batches in flight, not
      // a verdict per item (a million invalid items). Keys (objects keyed by id) name their items.
      for await (const table of verifier.verifyBatches(kind, input, { signal: ac.signal })) {
        let text = args.json ? (total === 0 ? `{"kind":${JSON.stringify(args.kind)},"items":[` : '') : '';
        for (const v of table) {
          const id = v.id ?? (args.json ? String(total) : `#${total}`);
          if (args.onlyInvalid && v.valid) {
            total++;
            continue;
          }
          if (args.json) text += `${listed++ === 0 ? '' : ','}${JSON.stringify({ id, valid: v.valid, ...(v.reason === undefined ? {} : { reason: v.reason }), ...(details ? validityFields(v) : anchor && v.status ? { status: v.status } : {}), ...(anchor ? { anchored: v.anchored === true } : {}) })}`;
          else {
            const status = v.status ? ` [${v.status}]` : '';
            text += v.valid ? `ok       ${id}${status}${details ? validityDetails(v) : ''}\n` : `INVALID  ${id}${status}: ${v.reason ?? 'invalid'}\n`;
          }
          total++;
        }
        invalid += table.invalidCount;
        progress.tick(table.length);
        await put(text);
      }
    } catch (e) {
      failed = { error: e };
    } finally {
      progress.done();
      process.off('SIGINT', onSignal);
      // Closed before the exit code is given: a verifier left open could outlive it, or (before
      // close always settled) end the process with the code not yet set.
      await verifier.close();
    }
    // A JSON document cut short stays unparseable: nothing reads it as a verdict.
    if (failed) throw failed.error;
  }

  const valid = total - invalid;
  const totals = `"total":${total},"valid":${valid},"invalid":${invalid}${anchor ? ',"anchored":true' : ''}`;
  // What "valid" rests on, said where there are valid items. The URL is not echoed: it may carry the api-key.
  const anchorNote = valid === 0 ? '' : anchor ? ' (anchored: roots checked against the chain)' : ' (not anchored: roots not checked against the chain; add --rpc URL to anchor)';
  {
    if (args.json) await put(total === 0 ? `{"kind":${JSON.stringify(args.kind)},${totals},"items":[]}\n` : `],${totals}}\n`);
    else await put(body.items === 0 ? `${args.kind}: nothing to verify (no items in the input)\n` : `${args.kind}: ${total} item(s), ${valid} valid, ${invalid} invalid${anchorNote}\n`);
  }
  return invalid > 0 ? 1 : 0;
}

/** A validity verdict's fields for `--json`: its status, circuit and the key set that verified it. */
function validityFields(v: { status?: string }): Record<string, unknown> {
  const x = v as { status?: string; circuit?: string; keySet?: string };
  return {
    ...(x.status === undefined ? {} : { status: x.status }),
    ...(x.circuit === undefined ? {} : { circuit: x.circuit }),
    ...(x.keySet === undefined ? {} : { keySet: x.keySet }),
  };
}

/** A first line that is a whole JSON object followed by another line: NDJSON. */
function looksLikeNdjson(bytes: Uint8Array): boolean {
  const nl = bytes.indexOf(0x0a);
  if (nl < 0 || nl === bytes.length - 1) return false;
  try {
    JSON.parse(Buffer.from(bytes.subarray(0, nl)).toString('utf8'));
    return true;
  } catch {
    return false;
  }
}

/** The streamed run (verify-stream.ts), printed and summed up as the whole-input path does. */
async function streamed(a: {
  kind: KindName;
  file: string;
  json: boolean;
  onlyInvalid: boolean;
  anchor: { rpc: string; commitment?: 'confirmed' } | undefined;
  maxBytes: number;
  threadsFlag: number | undefined;
  quiet: boolean;
  put: (s: string) => Promise<void>;
  io: CliIo;
}): Promise<number> {
  const progress = createProgress(a.io.stderr, { label: `${a.kind}: verified`, quiet: a.quiet });
  const ac = new AbortController();
  const onSignal = (): void => ac.abort(new Error('interrupted'));
  process.once('SIGINT', onSignal);
  let counts;
  try {
    counts = await verifyStreamed({
      kind: a.kind,
      file: a.file,
      stdin: a.io.stdin,
      maxBytes: a.maxBytes,
      threads: a.threadsFlag ?? Math.min(availableParallelism(), 2),
      ...(a.anchor ? { anchor: a.anchor } : {}),
      json: a.json,
      onlyInvalid: a.onlyInvalid,
      signal: ac.signal,
      put: a.put,
      tick: (n) => progress.tick(n),
    });
  } finally {
    progress.done();
    process.off('SIGINT', onSignal);
  }
  const { total, invalid } = counts;
  const valid = total - invalid;
  const totals = `"total":${total},"valid":${valid},"invalid":${invalid}${a.anchor ? ',"anchored":true' : ''}`;
  const note = valid === 0 ? '' : a.anchor ? ' (anchored: roots checked against the chain)' : ' (not anchored: roots not checked against the chain; add --rpc URL to anchor)';
  if (a.json) await a.put(total === 0 ? `{"kind":${JSON.stringify(a.kind)},${totals},"items":[]}\n` : `],${totals}}\n`);
  else await a.put(total === 0 ? `${a.kind}: nothing to verify (no items in the input)\n` : `${a.kind}: ${total} item(s), ${valid} valid, ${invalid} invalid${note}\n`);
  return invalid > 0 ? 1 : 0;
}
