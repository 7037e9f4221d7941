/**
 * `cairn devnet`: run the embedded devnet in the foreground until Ctrl-C / SIGTERM. Prints the URL
 * (one URL for JSON-RPC, `/fast`, `/ping` and the REST paths) and the websocket URL, then waits;
 * on a signal it stops the server, the slot clock and every module, and returns 0 so the process
 * exits with nothing left behind.
 */
import { readFileSync } from 'node:fs';
import { ErrorCodes, InputError, isCairnError } from '../errors.js';
import { loadKeysFile, type DevnetKey } from '../devnet/auth.js';
import { FAULT_ENDPOINTS } from '../devnet/faults.js';
import { readAccountFile, startDevnet, type DevnetAccount, type DevnetOptions, type DevnetProgram } from '../devnet/index.js';
import { DEFAULT_LIMITS, resolveLimits } from '../devnet/limits.js';
import type { DevnetLimits, EndpointFaults, FaultEndpoint } from '../devnet/types.js';
import { DEFAULT_DEVNET_PORT } from '../config.js';

/** Where the command writes and which signals stop it (the process by default; tests pass their own). */
export interface DevnetCliIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  /** Resolves when the command should stop (default: SIGINT or SIGTERM). */
  stopSignal?: Promise<unknown>;
  /** Called once the devnet listens (tests). */
  onReady?: (url: string) => void;
}

const usage = `usage: cairn devnet [--port|--rpc-port|-p ${DEFAULT_DEVNET_PORT}] [--host 127.0.0.1] [--slot-ms 400] [--finalize-slots 3] [--keys FILE]
                    [--fault endpoint:key=value[,key=value]] … [--limit key=value[,key=value]] … [--seed N]
                    [--ledger DIR] [--reset] [--bpf-program ADDR FILE] … [--account ADDR FILE] …
  --ledger DIR: keep the state in DIR (loaded at start, saved as it changes and on stop); --reset starts from genesis
  --bpf-program ADDR FILE: deploy the program's .so at ADDR; --account ADDR FILE: load \`solana account --output json\` output
  endpoints: ${FAULT_ENDPOINTS.join(', ')}
  fault keys: dropRate (fast only), rateLimitRate, retryAfterSeconds, serverErrorRate, latencyMs
  limit keys (defaults): ${Object.entries(DEFAULT_LIMITS).map(([k, v]) => `${k}=${v}`).join(', ')}
  keys file: a JSON array of { key, rps?, burst?, endpoints?, allowIps?, wallet? }
  example:   cairn devnet --slot-ms 200 --fault fast:dropRate=0.1 --fault rpc:latencyMs=50
`;

function num(v: string | undefined, flag: string, min: number, max: number): number {
  const n = Number(v);
  if (v === undefined || v === '' || !Number.isFinite(n) || n < min || n > max) {
    throw new InputError(flag, `expected a number in ${min}..${max}, got ${JSON.stringify(v ?? '')}`);
  }
  return n;
}

/** Parse `endpoint:key=value[,key=value]` into the faults map (merging repeated flags). */
export function parseFault(spec: string, into: Partial<Record<FaultEndpoint, EndpointFaults>>): void {
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
function parseLimits(spec: string | undefined, into: Partial<DevnetLimits>): void {
  if (!spec) throw new InputError('--limit', 'expected key=value[,key=value]');
  for (const pair of spec.split(',')) {
    const [k, v] = pair.split('=');
    if (!k || v === undefined) throw new InputError('--limit', `expected key=value, got ${JSON.stringify(pair)}`);
    (into as Record<string, number>)[k] = v.trim() === '' ? NaN : Number(v);
  }
  resolveLimits(into);
}

/** Parse the command line into devnet options (exported for tests). */
export function parseDevnetArgs(argv: string[]): DevnetOptions | 'help' {
  const o: DevnetOptions = { port: DEFAULT_DEVNET_PORT };
  const faults: Partial<Record<FaultEndpoint, EndpointFaults>> = {};
  const limits: Partial<DevnetLimits> = {};
  let keys: DevnetKey[] | undefined;
  const programs: DevnetProgram[] = [];
  const accounts: DevnetAccount[] = [];
  // `--flag ADDR FILE`: two values, as solana-test-validator takes them.
  const pair = (i: number, flag: string): [string, string] => {
    const addr = argv[i + 1];
    const file = argv[i + 2];
    if (!addr || addr.startsWith('-') || !file || file.startsWith('-')) throw new InputError(flag, 'expected ADDR FILE');
    return [addr, file];
  };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const flag = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const value = () => (a.startsWith('--') && eq > 0 ? a.slice(eq + 1) : argv[++i]);
    switch (flag) {
      case '-h':
      case '--help':
        return 'help';
      case '-p':
      case '--rpc-port':
      case '--port':
        o.port = num(value(), flag, 0, 65535);
        break;
      case '--ledger': {
        const d = value();
        if (!d) throw new InputError('--ledger', 'expected a directory path');
        o.ledger = d;
        break;
      }
      case '--reset':
        o.reset = true;
        break;
      case '--bpf-program': {
        const [address, file] = pair(i, '--bpf-program');
        i += 2;
        // Read now, so an unreadable file is a usage error before anything starts.
        try {
          programs.push({ address, bytes: new Uint8Array(readFileSync(file)) });
        } catch (e) {
          throw new InputError('--bpf-program', `cannot read ${file} (${e instanceof Error ? e.message : String(e)})`, { cause: e });
        }
        break;
      }
      case '--account': {
        const [address, file] = pair(i, '--account');
        i += 2;
        try {
          accounts.push(readAccountFile(file, address));
        } catch (e) {
          // readAccountFile names its field `account…`; on the command line the flag is the field.
          throw new InputError('--account', (e instanceof Error ? e.message : String(e)).replace(/^"[^"]*": /, ''), { cause: e });
        }
        break;
      }
      case '--host':
        o.host = value() ?? '';
        if (!o.host) throw new InputError('--host', 'expected a host name or IP');
        break;
      case '--slot-ms':
        o.slotMs = num(value(), '--slot-ms', 1, 60_000);
        break;
      case '--finalize-slots':
        o.finalizeSlots = num(value(), '--finalize-slots', 1, 512);
        break;
      case '--seed':
        o.seed = Math.trunc(num(value(), '--seed', 0, 2 ** 32 - 1));
        break;
      case '--keys': {
        const f = value();
        if (!f) throw new InputError('--keys', 'expected a file path');
        keys = loadKeysFile(f);
        break;
      }
      case '--fault': {
        const f = value();
        if (!f) throw new InputError('--fault', 'expected endpoint:key=value');
        parseFault(f, faults);
        break;
      }
      case '--limit':
        parseLimits(value(), limits);
        break;
      default:
        throw new InputError('argv', `unknown option ${JSON.stringify(a)}`);
    }
  }
  if (keys) o.keys = keys;
  if (programs.length) o.programs = programs;
  if (accounts.length) o.accounts = accounts;
  if (Object.keys(faults).length) o.faults = faults;
  if (Object.keys(limits).length) o.limits = limits;
  return o;
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
 * Run `cairn devnet`. Resolves with the exit code once stopped.
 *
 * @example
 * // cairn devnet --port 8899 --slot-ms 400
 * process.exitCode = await run(process.argv.slice(3));
 */
export async function run(argv: string[], io: DevnetCliIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  let options: DevnetOptions | 'help';
  try {
    options = parseDevnetArgs(argv);
  } catch (e) {
    io.stderr.write(`cairn devnet: ${e instanceof Error ? e.message : String(e)}\n${usage}`);
    return 2;
  }
  if (options === 'help') {
    io.stdout.write(usage);
    return 0;
  }
  if (options.host && !isLoopback(options.host)) {
    io.stderr.write(
      `cairn devnet: warning: --host ${options.host} is not loopback: the devnet has no TLS, and API keys travel in the query string, readable by anyone on the network\n`,
    );
  }
  const signals = io.stopSignal ? null : signalPromise();
  let devnet;
  try {
    devnet = await startDevnet({ ...options, log: (l) => io.stderr.write(`${l}\n`) });
  } catch (e) {
    signals?.dispose();
    io.stderr.write(`cairn devnet: ${e instanceof Error ? e.message : String(e)}\n`);
    // Unusable input found at start (a corrupt or other-version --ledger, a program LiteSVM cannot
    // load) is 2 like a usage error; a devnet that could not start (port taken) is 1.
    return isCairnError(e) && e.code === ErrorCodes.INPUT_INVALID ? 2 : 1;
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
}
