/**
 * `cairn proxy --upstream URL [--rpc URL] [-p PORT]`: run the verifying proxy in the foreground
 * (proxy/proxy-server.ts). Point any client at it instead of the service: proof-bearing answers arrive
 * verified and anchored, or as a JSON-RPC error naming the failing item (`--mode annotate`: passed
 * on with a `cairn` note). Until Ctrl-C / SIGTERM; exit 0 once stopped, 2 on bad usage.
 */
import { InputError } from '../errors/index.js';
import { startProxy, PROOF_REJECTED_CODE, type ProxyOptions } from '../proxy/index.js';
import { intFlag, runCommand, str, type CliWriter } from './args.js';
import { isLoopback } from './devnet.js';
import type { CommandSpec } from './usage.js';

export interface ProxyCliIo {
  stdout: CliWriter;
  stderr: CliWriter;
  /** Resolves when the command should stop (default: SIGINT or SIGTERM). */
  stopSignal?: Promise<unknown>;
  onReady?: (url: string) => void;
}

export const SPEC: CommandSpec = {
  name: 'proxy',
  summary: 'Run a JSON-RPC proxy that verifies and anchors every proof-bearing answer before passing it on.',
  synopsis: '--upstream URL [--rpc URL] [-p PORT] [--host H --token T] [--mode refuse|annotate] [--key-set NAME]…',
  flags: {
    upstream: { type: 'string', value: 'URL', describe: 'the service to forward to (its api-key stays in the proxy)' },
    rpc: { type: 'string', value: 'URL', describe: 'where tree accounts are read to anchor (default: the upstream)' },
    commitment: { type: 'string', value: 'C', describe: 'anchor reads at processed, confirmed (default) or finalized' },
    port: { type: 'string', short: 'p', value: 'N', describe: 'port to listen on (default 8898; 0 = any free port)' },
    host: { type: 'string', value: 'H', describe: 'address to listen on (default 127.0.0.1; any other needs --token)' },
    token: { type: 'string', value: 'T', describe: 'callers must send Authorization: Bearer T (default $CAIRN_PROXY_TOKEN); required off loopback' },
    mode: { type: 'string', value: 'M', describe: 'refuse (default): a failing answer becomes an error; annotate: passed with a cairn note' },
    threads: { type: 'string', value: 'N', describe: 'verifier worker threads 1–64 (default 2)' },
    'key-set': { type: 'string', multiple: true, value: 'NAME', describe: 'validity proofs: key set to verify with (cairn-devnet-1 for the devnet)' },
  },
  notes: `error:   a refused answer is the JSON-RPC error ${PROOF_REJECTED_CODE}; its data is
         { method, kind, items: [{ index, id?, reason, status? }] } (status unknown-root,
         tree-not-found, not-a-tree, or the verifier's own)
metrics: GET /metrics (Prometheus text: requests, items verified and refused by reason, added latency)
example: cairn proxy --upstream http://127.0.0.1:8899 -p 8898 --key-set cairn-devnet-1`,
  exits: [
    [0, 'stopped by a signal'],
    [1, 'could not start (the port is taken, …)'],
    [2, 'bad usage'],
  ],
};

function signalPromise(): { promise: Promise<string>; dispose: () => void } {
  let dispose = () => {};
  const promise = new Promise<string>((resolve) => {
    const int = () => resolve('SIGINT');
    const term = () => resolve('SIGTERM');
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
 * @example
 * process.exitCode = await run(['--upstream', 'http://127.0.0.1:8899']);
 */
export async function run(argv: string[], io: ProxyCliIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  return runCommand(SPEC, argv, io, async ({ values }) => {
    const upstream = str(values, 'upstream');
    if (!upstream) throw new InputError('upstream', 'expected --upstream URL (the service to forward to)');
    const mode = str(values, 'mode') ?? 'refuse';
    if (mode !== 'refuse' && mode !== 'annotate') throw new InputError('mode', `expected refuse or annotate, got ${JSON.stringify(mode)}`);
    const host = str(values, 'host') ?? '127.0.0.1';
    const token = str(values, 'token') ?? process.env.CAIRN_PROXY_TOKEN;
    if (!isLoopback(host) && !token) throw new InputError('token', `--host ${host} is not loopback: callers must bring a token of their own (--token or CAIRN_PROXY_TOKEN)`);
    const commitment = str(values, 'commitment');
    const keySets = Array.isArray(values['key-set']) ? (values['key-set'] as unknown[]).map(String) : [];
    const options: ProxyOptions = {
      upstream,
      port: intFlag(values, 'port', 0, 65535) ?? 8898,
      host,
      mode,
      threads: intFlag(values, 'threads', 1, 64) ?? 2,
      ...(str(values, 'rpc') ? { rpc: str(values, 'rpc')! } : {}),
      ...(commitment ? { commitment: commitment as 'confirmed' } : {}),
      ...(token ? { token } : {}),
      ...(keySets.length ? { keySets } : {}),
    };
    const signals = io.stopSignal ? null : signalPromise();
    let proxy;
    try {
      proxy = await startProxy(options);
    } catch (e) {
      signals?.dispose();
      throw e;
    }
    // The upstream is not echoed: it may carry the api-key.
    io.stdout.write(`proxy listening on ${proxy.url} (mode ${mode}${token ? ', token required' : ''}); metrics at ${proxy.url}/metrics\n`);
    io.onReady?.(proxy.url);
    const why = await (io.stopSignal ?? signals!.promise);
    signals?.dispose();
    await proxy.close();
    io.stdout.write(`proxy stopped${typeof why === 'string' ? ` (${why})` : ''}\n`);
    return 0;
  });
}
