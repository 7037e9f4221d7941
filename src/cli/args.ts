/**
 * The one argument parser and error format of every `cairn` command. Built on `node:util`'s
 * `parseArgs`: no dependency to install or audit, a strict mode that refuses unknown options and
 * missing values, and Node 20 (our floor) has it stable. On top of it: `--help`/`--version` for every
 * command, "unknown option, did you mean", values that start with a dash (`--lamports -5` is read as
 * the value and refused by the flag's own check, not as an option), and one way to report an error:
 * `cairn <cmd>: [CODE] message` on stderr, or `{"error":{"code","message","field"}}` on stdout with
 * `--json`. Exit codes: 0 ok, 1 failed / invalid, 2 usage or unusable input.
 */
import { readFileSync } from 'node:fs';
import { parseArgs as nodeParseArgs } from 'node:util';
import { CairnError, describeError, InputError } from '../errors/index.js';
import { COMMON_FLAGS, didYouMean, helpText, type CommandSpec, type FlagSpec } from './usage.js';

/** Where a command writes. `isTTY` on stderr turns the progress line on (progress.ts). */
export interface CliWriter {
  write(s: string): unknown;
  isTTY?: boolean;
}

export interface CliStreams {
  stdout: CliWriter;
  stderr: CliWriter;
}

export type FlagValues = Record<string, string | boolean | string[] | undefined>;

export interface Parsed {
  values: FlagValues;
  positionals: string[];
  /** The flags of two values (`arity: 2`), each occurrence in order. */
  pairs: Record<string, [string, string][]>;
}

/** Codes that mean the input or the settings were unusable: exit 2 rather than 1. */
const USAGE_CODES = new Set<string>(['INPUT_INVALID', 'INPUT_TOO_LARGE', 'RPC_INSECURE_KEY', 'DEVNET_INVALID_CONFIG']);

/** cairn's version, from the package.json two levels above this file (src/cli or dist/cli). */
export function cairnVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
  return pkg.version ?? '0.0.0';
}

/** True when argv asks for help (before a `--` that ends the options). */
function wantsFlag(argv: readonly string[], long: string, short: string): boolean {
  for (const a of argv) {
    if (a === '--') return false;
    if (a === `--${long}` || a === `-${short}`) return true;
  }
  return false;
}

/**
 * Parse `argv` by the command's spec. Throws `InputError` (INPUT_INVALID) naming the flag as typed
 * (`--seller-fee-bps`) for an unknown option (with a suggestion), a missing value, a value given to
 * a switch, or too many / too few positional arguments. `--help` and `--version` are in `values`.
 *
 * @example
 * const { values, positionals } = parseCommand(spec, ['account-proof', 'p.json', '--json']);
 */
export function parseCommand(spec: CommandSpec, argv: readonly string[]): Parsed {
  const flags: Record<string, FlagSpec> = { ...spec.flags, ...COMMON_FLAGS };
  const shorts = new Map(Object.entries(flags).flatMap(([n, f]) => (f.short ? [[f.short, n] as const] : [])));
  const args: string[] = [];
  const pairs: Record<string, [string, string][]> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      args.push(...argv.slice(i));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      args.push(a);
      continue;
    }
    const long = a.startsWith('--');
    const name = long ? a.slice(2).split('=')[0]! : shorts.get(a[1]!);
    const spelled = long ? `--${a.slice(2).split('=')[0]}` : a.slice(0, 2);
    if (name === undefined || !(name in flags)) {
      const guess = long ? didYouMean(spelled.slice(2), Object.keys(flags)) : undefined;
      throw new InputError(spelled, `unknown option${guess ? `; did you mean --${guess}?` : ''}`);
    }
    const f = flags[name]!;
    if (f.arity === 2) {
      const [x, y] = [argv[i + 1], argv[i + 2]];
      if (a.includes('=') || x === undefined || y === undefined || x.startsWith('--') || y.startsWith('--')) {
        throw new InputError(spelled, `expected two values: ${f.value ?? 'A B'}`);
      }
      (pairs[name] ??= []).push([x, y]);
      i += 2;
      continue;
    }
    if (f.type === 'boolean' && long && a.includes('=')) throw new InputError(spelled, 'takes no value');
    // parseArgs reads a dash after a string option as a missing value; here it is the value (a
    // negative number, say), so the flag's own check refuses it with the message that fits.
    const next = argv[i + 1];
    if (f.type === 'string' && !a.includes('=') && a.length === (long ? spelled.length : 2) && next !== undefined && next.startsWith('-') && next !== '--' && !isKnown(next, flags, shorts)) {
      args.push(`--${name}=${next}`);
      i++;
      continue;
    }
    args.push(a);
  }
  try {
    const parsed = nodeParseArgs({
      args,
      strict: true,
      allowPositionals: true,
      options: Object.fromEntries(
        Object.entries(flags)
          .filter(([, f]) => f.arity !== 2)
          .map(([n, f]) => [n, { type: f.type, ...(f.short ? { short: f.short } : {}), ...(f.multiple ? { multiple: true } : {}) }]),
      ),
    });
    const values = parsed.values as FlagValues;
    if (values.help || values.version) return { values, positionals: parsed.positionals, pairs };
    const [min, max] = spec.positionals ?? [0, 0];
    if (parsed.positionals.length > max) {
      const extra = parsed.positionals[max]!;
      throw new InputError('argv', `unexpected argument ${JSON.stringify(extra)}`);
    }
    if (parsed.positionals.length < min) throw new InputError('argv', `expected ${spec.synopsis.split('[')[0]!.trim()}`);
    return { values, positionals: parsed.positionals, pairs };
  } catch (e) {
    if (e instanceof CairnError) throw e;
    // parseArgs' own errors (ERR_PARSE_ARGS_*): the flag is the first quoted option in the message.
    const flag = /'(-[^ ']+)/.exec((e as Error).message)?.[1] ?? 'argv';
    const missing = /argument missing/.test((e as Error).message);
    throw new InputError(flag, missing ? 'expected a value' : (e as Error).message, { cause: e });
  }
}

function isKnown(token: string, flags: Record<string, FlagSpec>, shorts: Map<string, string>): boolean {
  if (token.startsWith('--')) return token.slice(2).split('=')[0]! in flags;
  return /^-[A-Za-z]$/.test(token.slice(0, 2)) && shorts.has(token[1]!);
}

/** The exit code an error ends a command with: 2 for unusable input or settings, 1 otherwise. */
export function exitCodeOf(e: unknown): 1 | 2 {
  return e instanceof CairnError && USAGE_CODES.has(e.code) ? 2 : 1;
}

/**
 * Report an error the one way every command does: `cairn <cmd>: [CODE] message` on stderr; with
 * `json` also the object `{"error":{"code","message","field"}}` as one line on stdout, so a script
 * reading stdout gets JSON either way while a person watching the terminal still reads the line.
 */
export function reportError(cmd: string, e: unknown, io: CliStreams, json: boolean, hint?: string): void {
  const d = describeError(e);
  if (json) io.stdout.write(`${JSON.stringify({ error: { code: d.code, message: d.message, field: d.field ?? null } })}\n`);
  io.stderr.write(`cairn ${cmd}: [${d.code}] ${d.message}\n${hint && !json ? `${hint}\n` : ''}`);
}

/** What a command body gets: its values and positionals, the streams and whether output is JSON. */
export interface CommandContext extends Parsed {
  json: boolean;
}

/**
 * Run a command the shared way: parse (help and version first; a bad flag is exit 2 before
 * anything else happens), then `body`, whose throw is reported in the one format with the exit
 * code `exitFor` gives (default `exitCodeOf`).
 *
 * @example
 * return runCommand(SPEC, argv, io, async ({ values }) => { ...; return 0; });
 */
export async function runCommand(
  spec: CommandSpec,
  argv: readonly string[],
  io: CliStreams,
  body: (ctx: CommandContext) => Promise<number>,
  exitFor: (e: unknown) => number = exitCodeOf,
): Promise<number> {
  if (wantsFlag(argv, 'help', 'h')) {
    io.stdout.write(helpText(spec));
    return 0;
  }
  const json = 'json' in spec.flags && argv.includes('--json');
  let parsed: Parsed;
  try {
    parsed = parseCommand(spec, argv);
  } catch (e) {
    reportError(spec.name, e, io, json, `(see: cairn ${spec.name} --help)`);
    return 2;
  }
  if (parsed.values.version) {
    io.stdout.write(`cairn ${cairnVersion()}\n`);
    return 0;
  }
  try {
    return await body({ ...parsed, json: parsed.values.json === true });
  } catch (e) {
    reportError(spec.name, e, io, json);
    return exitFor(e);
  }
}

/** A flag's string value (undefined when absent). */
export function str(values: FlagValues, name: string): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/**
 * An integer flag in [min, max], refused naming the flag (`--threads: expected an integer 0–64`).
 *
 * @example
 * const threads = intFlag(values, 'threads', 0, 64);
 */
export function intFlag(values: FlagValues, name: string, min: number, max: number, what = ''): number | undefined {
  const v = str(values, name);
  if (v === undefined) return undefined;
  if (!/^[0-9]+$/.test(v) || Number(v) < min || Number(v) > max) {
    throw new InputError(`--${name}`, `expected an integer ${min}–${max}${what}, got ${v === '' ? 'an empty value' : JSON.stringify(v)}`, { got: v });
  }
  return Number(v);
}
