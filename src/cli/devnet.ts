/**
 * `cairn devnet`: run the embedded devnet in the foreground until Ctrl-C / SIGTERM. Prints the URL
 * (one URL for JSON-RPC, `/fast`, `/ping` and the REST paths) and the websocket URL, then waits;
 * on a signal it stops the server, the slot clock and every module, and returns 0 so the process
 * exits with nothing left behind. Its flags go through the shared parser (args.ts), as every
 * command's do, and are all checked — the files they name read — before anything starts.
 */
import { readFileSync } from 'node:fs';
import { InputError } from '../errors/index.js';
import { loadKeysFile, FAULT_ENDPOINTS, resolveLimits } from '../devnet/internal.js';
import {
  readAccountFile,
  startDevnet,
  type DevnetOptions,
  DEFAULT_LIMITS,
  type DevnetLimits,
  type EndpointFaults,
  type FaultEndpoint,
} from '../devnet/index.js';
import { DEFAULT_DEVNET_PORT } from '../config.js';
import { parseCommand, runCommand, str, type CliWriter, type Parsed } from './args.js';
import type { CommandSpec } from './usage.js';
/** Where the command writes and which signals stop it (the process by default; tests pass their own). */
export interface DevnetCliIo {
  stdout: CliWriter;
  stderr: CliWriter;
  /** Resolves when the command should stop (default: SIGINT or SIGTERM). */
  stopSignal?: Promise<unknown>;
  /** Called once the devnet listens (tests). */
  onReady?: (url: string) => void;
}

const PORT_DESCRIBE = `the JSON-RPC port (default ${DEFAULT_DEVNET_PORT}; 0 = any free port)`;

export const SPEC: CommandSpec = {
  name: 'devnet',
  summary: 'Run the embedded LiteSVM devnet (JSON-RPC, /fast, DAS, compression, websocket) in the foreground.',
  synopsis: '[--port|--rpc-port|-p N] [--host H] [--ledger DIR [--reset]] [--bpf-program ADDR FILE] … [--account ADDR FILE] … [options]',
  flags: {
    'rpc-port': { type: 'string', short: 'p', value: 'N', describe: PORT_DESCRIBE },
    port: { type: 'string', value: 'N', describe: 'the same as --rpc-port' },
    host: { type: 'string', value: 'H', describe: 'the address to listen on (default 127.0.0.1; anything else is warned about: no TLS)' },
    ledger: { type: 'string', value: 'DIR', describe: 'keep the state in DIR: loaded at start, saved as it changes and on stop' },
    reset: { type: 'boolean', describe: 'with --ledger: start from genesis, discarding what DIR holds' },
    'bpf-program': { type: 'string', arity: 2, value: 'ADDR FILE', describe: "deploy the program's .so at ADDR" },
    account: { type: 'string', arity: 2, value: 'ADDR FILE', describe: 'load an account from `solana account --output json` output' },
    'slot-ms': { type: 'string', value: 'N', describe: 'slot length in ms, 1–60000 (default 400)' },
    'finalize-slots': { type: 'string', value: 'N', describe: 'slots from confirmed to finalized, 1–512 (default 3)' },
    seed: { type: 'string', value: 'N', describe: 'seed of the generated keys and faults, 0–2^32-1' },
    keys: { type: 'string', value: 'FILE', describe: 'API keys (JSON array of { key, rps?, burst?, endpoints?, allowIps?, wallet? }); none: no key needed' },
    fault: { type: 'string', multiple: true, value: 'endpoint:key=value[,…]', describe: 'inject faults on an endpoint (repeatable; lost=P for lost answers)' },
    limit: { type: 'string', multiple: true, value: 'key=value[,…]', describe: 'request caps (repeatable)' },
  },
  notes: `endpoints:  ${FAULT_ENDPOINTS.join(', ')}
fault keys: dropRate (fast only), rateLimitRate, retryAfterSeconds, serverErrorRate, latencyMs, lostRate
            (lost=P alone: lostRate P on the JSON-RPC and REST hosts — served, then the answer lost)
            lieRate (rpc only; lie=P alone: a share of proof items answered with self-consistent fabrications)
limit keys (defaults): ${Object.entries(DEFAULT_LIMITS).map(([k, v]) => `${k}=${v}`).join(', ')}
example:    cairn devnet --slot-ms 200 --fault fast:dropRate=0.1 --fault rpc:latencyMs=50`,
  exits: [
    [0, 'stopped by Ctrl-C or SIGTERM'],
    [1, 'the devnet could not start (the port is taken, or litesvm is not installed)'],
    [2, 'bad usage or unusable input: a bad flag, an unreadable --keys/--account/--bpf-program file,\n     a corrupt or other-version --ledger, a program LiteSVM cannot load'],
  ],
};

function num(v: string | undefined, flag: string, min: number, max: number): number {
  const n = Number(v);
  if (v === undefined || v === '' || !Number.isFinite(n) || n < min || n > max) {
    throw new InputError(flag, `expected a number in ${min}..${max}, got ${JSON.stringify(v ?? '')}`);
  }
  return n;
}

/** Parse `endpoint:key=value[,key=value]` into the faults map (merging repeated flags). */
export function parseFault(spec: string, into: Partial<Record<FaultEndpoint, EndpointFaults>>): void {
  // `lost=P`: answers lost after the request was served, on the JSON-RPC and REST hosts at once
  const lost = /^lost=(.*)$/.exec(spec);
  if (lost) {
    const p = num(lost[1], '--fault lost', 0, 1);
    for (const e of ['rpc', 'rest'] as const) into[e] = { ...(into[e] ?? {}), lostRate: p };
    return;
  }
  // `lie=P` is short for `rpc:lieRate=P`: only the JSON-RPC host answers proofs.
  if (/^lie=/.test(spec)) spec = `rpc:lieRate=${spec.slice(4)}`;
  const m = /^([a-z]+):(.+)$/.exec(spec);
  if (!m) throw new InputError('--fault', `expected endpoint:key=value, got ${JSON.stringify(spec)}`);
  const endpoint = m[1] as FaultEndpoint;
  if (!FAULT_ENDPOINTS.includes(endpoint)) {
    throw new InputError('--fault', `unknown endpoint ${JSON.stringify(m[1])}; expected one of ${FAULT_ENDPOINTS.join(', ')}`);
  }
  const f: Record<string, number> = { ...(into[endpoint] ?? {}) } as Record<string, number>;
  for (const pair of m[2]!.split(',')) {
    const [k, v] = pair.split('=');
    if (!k || v === undefined) throw new InputError('--fault', `expected key=value, got ${JSON.stringify(pair)}`);
    f[k] = num(v, `--fault ${endpoint}:${k}`, 0, 1e9);
  }
  into[endpoint] = f as EndpointFaults;
}

/** Parse `key=value[,key=value]` into request caps (merging repeated flags); resolveLimits checks them. */
function parseLimits(spec: string, into: Partial<DevnetLimits>): void {
  if (!spec) throw new InputError('--limit', 'expected key=value[,key=value]');
  for (const pair of spec.split(',')) {
    const [k, v] = pair.split('=');
    if (!k || v === undefined) throw new InputError('--limit', `expected key=value, got ${JSON.stringify(pair)}`);
    (into as Record<string, number>)[k] = v.trim() === '' ? NaN : Number(v);
  }
  resolveLimits(into);
}

/** The last of `spellings` typed on the command line: a message names the flag as the user wrote it. */
function spelled(argv: readonly string[], spellings: readonly string[]): string {
  let last = spellings[0]!;
  for (const a of argv) {
    if (a === '--') break;
    const s = spellings.find((x) => a === x || a.startsWith(`${x}=`) || (x.length === 2 && a.startsWith(x) && !a.startsWith('--')));
    if (s) last = s;
  }
  return last;
}

/**
 * A file's error as the flag that named it: the readers name their own field (`keys[0].rps`,
 * `account`); on the command line the flag is the field, and a part inside the file stays in the
 * message (`"--keys": keys[0].rps: expected a number > 0`).
 */
function asFlag(flag: string, e: unknown): unknown {
  if (!(e instanceof InputError)) return e;
  const inner = e.context.field;
  const text = e.message.replace(/^"[^"]*": /, '');
  return new InputError(flag, inner && inner !== 'keys' && inner !== 'account' ? `${inner}: ${text}` : text, { cause: e });
}

/**
 * The devnet options from parsed flags, every value checked and every file named read (so an
 * unreadable one is a usage error before anything starts).
 */
function devnetOptions({ values, pairs }: Parsed, argv: readonly string[]): DevnetOptions {
  const o: DevnetOptions = { port: DEFAULT_DEVNET_PORT };
  const rpcPort = str(values, 'rpc-port');
  const port = str(values, 'port');
  if (rpcPort !== undefined && port !== undefined && rpcPort !== port) {
    throw new InputError('--port', `and --rpc-port name the same port; got ${JSON.stringify(port)} and ${JSON.stringify(rpcPort)}`);
  }
  if (rpcPort !== undefined || port !== undefined) o.port = num(rpcPort ?? port, spelled(argv, ['--rpc-port', '--port', '-p']), 0, 65535);
  const ledger = str(values, 'ledger');
  if (ledger !== undefined) {
    if (!ledger) throw new InputError('--ledger', 'expected a directory path');
    o.ledger = ledger;
  }
  if (values.reset === true) o.reset = true;
  const host = str(values, 'host');
  if (host !== undefined) {
    if (!host) throw new InputError('--host', 'expected a host name or IP');
    o.host = host;
  }
  const slotMs = str(values, 'slot-ms');
  if (slotMs !== undefined) o.slotMs = num(slotMs, '--slot-ms', 1, 60_000);
  const finalize = str(values, 'finalize-slots');
  if (finalize !== undefined) o.finalizeSlots = num(finalize, '--finalize-slots', 1, 512);
  const seed = str(values, 'seed');
  if (seed !== undefined) o.seed = Math.trunc(num(seed, '--seed', 0, 2 ** 32 - 1));
  const keys = str(values, 'keys');
  if (keys !== undefined) {
    if (!keys) throw new InputError('--keys', 'expected a file path');
    try {
      o.keys = loadKeysFile(keys);
    } catch (e) {
      throw asFlag('--keys', e);
    }
  }
  const faults: Partial<Record<FaultEndpoint, EndpointFaults>> = {};
  for (const f of (values.fault as string[] | undefined) ?? []) parseFault(f, faults);
  if (Object.keys(faults).length) o.faults = faults;
  const limits: Partial<DevnetLimits> = {};
  for (const l of (values.limit as string[] | undefined) ?? []) parseLimits(l, limits);
  if (Object.keys(limits).length) o.limits = limits;
  const programs = (pairs['bpf-program'] ?? []).map(([address, file]) => {
    try {
      return { address, bytes: new Uint8Array(readFileSync(file)) };
    } catch (e) {
      throw new InputError('--bpf-program', `cannot read ${file} (${e instanceof Error ? e.message : String(e)})`, { cause: e });
    }
  });
  if (programs.length) o.programs = programs;
  const accounts = (pairs.account ?? []).map(([address, file]) => {
    try {
      return readAccountFile(file, address);
    } catch (e) {
      throw asFlag('--account', e);
    }
  });
  if (accounts.length) o.accounts = accounts;
  return o;
}

/**
 * Parse the command line into devnet options, or 'help' (for tests and callers that start the
 * devnet themselves). Throws the InputError `cairn devnet` would report.
 *
 * @example
 * const o = parseDevnetArgs(['-p', '0', '--ledger', 'state']);
 */
export function parseDevnetArgs(argv: readonly string[]): DevnetOptions | 'help' {
  const parsed = parseCommand(SPEC, argv);
  return parsed.values.help ? 'help' : devnetOptions(parsed, argv);
}

/** Whether `host` only listens on this machine (the loopback names and addresses). */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h) || h === '::ffff:127.0.0.1';
}

function signalPromise(): { promise: Promise<string>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<string>((resolve) => {
    const on = (s: string) => () => resolve(s);
    const int = on('SIGINT');
    const term = on('SIGTERM');
    process.once('SIGINT', int);
    process.once('SIGTERM', term);
    dispose = () => {
      process.off('SIGINT', int);
      process.off('SIGTERM', term);
    };
  });
  return { promise, dispose };
}

/**
 * Run `cairn devnet`. Resolves with the exit code once stopped: 0 stopped by a signal, 1 could not
 * start, 2 bad usage or unusable input (reported as every command reports, `cairn devnet: [CODE] …`).
 *
 * @example
 * // cairn devnet --port 8899 --slot-ms 400
 * process.exitCode = await run(process.argv.slice(3));
 */
export async function run(argv: string[], io: DevnetCliIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  return runCommand(SPEC, argv, io, async (parsed) => {
    const options = devnetOptions(parsed, argv);
    if (options.host && !isLoopback(options.host)) {
      io.stderr.write(
        `cairn devnet: warning: --host ${options.host} is not loopback: the devnet has no TLS, and API keys travel in the query string, readable by anyone on the network\n`,
      );
    }
    const signals = io.stopSignal ? null : signalPromise();
    let devnet;
    try {
      // Unusable input found at start (a corrupt or other-version --ledger, a program LiteSVM cannot
      // load) is INPUT_INVALID, exit 2 like a usage error; a devnet that could not start is 1.
      devnet = await startDevnet({ ...options, log: (l) => io.stderr.write(`${l}\n`) });
    } catch (e) {
      signals?.dispose();
      throw e;
    }
    io.stdout.write(
      `devnet listening on ${devnet.url}\n` +
        `  websocket ${devnet.wsUrl}\n` +
        `  slot ${devnet.chain.slotMs()} ms, ${options.keys?.length ? `${options.keys.length} API key(s)` : 'no API key needed'}\n` +
        `  faucet: requestAirdrop on ${devnet.url}\n` +
        (options.ledger ? `  ledger: ${options.ledger}\n` : ''),
    );
    io.onReady?.(devnet.url);
    const why = await (io.stopSignal ?? signals!.promise);
    signals?.dispose();
    await devnet.stop();
    io.stdout.write(`devnet stopped${typeof why === 'string' ? ` (${why})` : ''}\n`);
    return 0;
  });
}
