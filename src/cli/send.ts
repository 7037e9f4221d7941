/**
 * `cairn send --to ADDR --lamports N` (or `--file batch.json` for many): transfers through `/fast`,
 * rebroadcast until confirmed, printed as a line each (or JSON with `--json`). With the Solana CLI's
 * habits: the keypair is `--keypair`, else CAIRN_KEYPAIR, else `~/.config/solana/id.json` when it
 * exists; `-u/--url` names the cluster, and the command says on stderr what it talks to. Only with
 * no keypair at all and a loopback URL is a fresh keypair funded by airdrop (the embedded devnet
 * needs no set-up). Every flag and every item is checked before anything is sent or airdropped; a
 * transfer that fails for rent gets a hint naming the rent-exempt minimum.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { resolveEndpoints, type Endpoints } from '../config.js';
import { CairnError, describeError, InputError, InputTooLargeError } from '../errors/index.js';
import { createClient } from '../rpc/index.js';
import { addressText, toU64 } from '../solana/index.js';
import {
  createSender,
  generateSigner,
  signerFromSecretKey,
  transferInstruction,
  type Signer,
  resolveSenderConfig,
  type SenderOptions,
} from '../sender/index.js';
import { exitCodeOf, reportError, runCommand, str, type CliWriter, type FlagValues } from './args.js';
import { createProgress } from './progress.js';
import { JSON_FLAG, QUIET_FLAG, type CommandSpec } from './usage.js';

export interface SendCliIo {
  stdout: CliWriter;
  /** A terminal here (`isTTY`) gets a progress line for `--file`. */
  stderr: CliWriter;
  env?: NodeJS.ProcessEnv;
  /** Aborts the send (default: SIGINT / SIGTERM). */
  signal?: AbortSignal;
}

export const SPEC: CommandSpec = {
  name: 'send',
  summary: 'Send a transfer (or many, from --file) through /fast, rebroadcast until confirmed.',
  synopsis: '--to ADDRESS --lamports N [options] | --file batch.json [options]',
  flags: {
    to: { type: 'string', value: 'ADDRESS', describe: 'the recipient' },
    lamports: { type: 'string', value: 'N', describe: 'the amount, more than 0' },
    file: { type: 'string', value: 'FILE', describe: 'send many: a JSON array of {"to","lamports"}; all checked first' },
    keypair: { type: 'string', short: 'k', value: 'FILE', describe: 'the payer: a JSON array of 64 bytes (default: CAIRN_KEYPAIR, then ~/.config/solana/id.json)' },
    url: { type: 'string', short: 'u', value: 'URL', describe: 'one host for RPC and /fast (default http://127.0.0.1:8899, the local devnet)' },
    'rpc-url': { type: 'string', value: 'URL', describe: 'the JSON-RPC endpoint, when not --url' },
    'sender-url': { type: 'string', value: 'URL', describe: 'the /fast endpoint, when not --url' },
    'api-key': { type: 'string', value: 'KEY', describe: 'the API key (prefer CAIRN_API_KEY: arguments are visible to other users)' },
    'swqos-only': { type: 'boolean', describe: 'route through stake-weighted validators only (lower minimum tip)' },
    'cu-price': { type: 'string', value: 'MICROLAMPORTS', describe: 'compute-unit price' },
    'cu-limit': { type: 'string', value: 'UNITS', describe: 'compute-unit limit, 1–1400000' },
    tip: { type: 'string', value: 'LAMPORTS', describe: 'the /fast tip (default: the minimum for the routing mode)' },
    commitment: { type: 'string', value: 'LEVEL', describe: 'processed, confirmed (default) or finalized' },
    journal: { type: 'string', value: 'FILE', describe: 'journal the intents here (resumable; see cairn journal)' },
    json: JSON_FLAG,
    quiet: QUIET_FLAG,
    'allow-insecure-key': { type: 'boolean', describe: 'send the API key over plain http to a host that is not loopback (refused otherwise)' },
  },
  notes: `environment: CAIRN_URL, CAIRN_RPC_URL, CAIRN_SENDER_URL, CAIRN_API_KEY, CAIRN_KEYPAIR
default:     the local devnet at http://127.0.0.1:8899; with no keypair anywhere, a fresh one is
             funded there by airdrop (loopback URLs only)
--file:      [{"to":"ADDR","lamports":"5000"}, …]: a line per transfer (--json: one object), and a
             progress line on stderr when it is a terminal`,
  exits: [
    [0, 'sent and confirmed (with --file: every transfer)'],
    [1, 'failed on chain, expired, refused, or nothing answers at the URL'],
    [2, 'usage or unusable input (a bad flag or item, no keypair, an API key refused for plain http); nothing was sent'],
  ],
};

export interface SendArgs {
  transfers: { to: string; lamports: bigint }[];
  keypair?: string;
  /** Where the keypair came from, for the message (flag, environment or the Solana CLI's default). */
  keypairFrom?: string;
  endpoints: Endpoints;
  sender: SenderOptions;
  allowInsecureKey: boolean;
  json: boolean;
  quiet: boolean;
  many: boolean;
}

function lamportsOf(v: unknown, field: string): bigint {
  const s = typeof v === 'number' && Number.isSafeInteger(v) ? String(v) : v;
  if (typeof s !== 'string' || !/^\d+$/.test(s)) throw new InputError(field, `expected a non-negative integer, got ${JSON.stringify(v ?? '')}`);
  const n = toU64(BigInt(s), field);
  if (n === 0n) throw new InputError(field, 'expected more than 0');
  return n;
}

function intArg(values: FlagValues, name: string): bigint | undefined {
  const v = str(values, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v)) throw new InputError(`--${name}`, `expected a non-negative integer, got ${JSON.stringify(v)}`);
  return toU64(BigInt(v), `--${name}`);
}

function filePath(values: FlagValues, name: string): string | undefined {
  const v = str(values, name);
  if (v === '') throw new InputError(`--${name}`, 'expected a file path');
  return v;
}

/** The sender's option names → the flags that set them, so its checks name the flag. */
const SENDER_FLAG: Record<string, string> = { tip: '--tip', cuPrice: '--cu-price', cuLimit: '--cu-limit', commitment: '--commitment', swqosOnly: '--swqos-only', journal: '--journal' };

function renamed(e: unknown, flags: Record<string, string>): unknown {
  if (!(e instanceof InputError)) return e;
  const flag = flags[e.context.field];
  return flag ? new InputError(flag, e.message.replace(/^"[^"]*": /, ''), { cause: e }) : e;
}

/** Read and check `--file`: a JSON array of `{ to, lamports }`. */
function transfersFromFile(path: string): SendArgs['transfers'] {
  let items: unknown;
  try {
    const size = statSync(path).size;
    if (size > 64 << 20) throw new InputTooLargeError('--file', 64 << 20, size, 'split the batch into several files');
    items = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    if (e instanceof CairnError) throw e;
    throw new InputError('--file', `cannot read ${path} as JSON: ${(e as Error).message}`, { cause: e });
  }
  if (!Array.isArray(items) || items.length === 0) throw new InputError('--file', `expected a non-empty JSON array of {"to","lamports"} in ${path}`);
  return items.map((it, i) => {
    if (it === null || typeof it !== 'object') throw new InputError('--file', `item ${i}: expected an object {"to","lamports"}`);
    const o = it as { to?: unknown; lamports?: unknown };
    try {
      return { to: addressText(o.to as string, `item ${i}.to`), lamports: lamportsOf(o.lamports, `item ${i}.lamports`) };
    } catch (e) {
      throw new InputError('--file', describeError(e).message, { cause: e });
    }
  });
}

/**
 * Parse and check the whole command line, and everything it names, before anything is sent (exported
 * for tests). `env` gives CAIRN_* and HOME (for the Solana CLI's default keypair path).
 */
export function parseSendArgs(values: FlagValues, json: boolean, env: NodeJS.ProcessEnv): SendArgs {
  const file = filePath(values, 'file');
  let transfers: SendArgs['transfers'];
  if (file !== undefined) {
    for (const f of ['to', 'lamports']) if (values[f] !== undefined) throw new InputError(`--${f}`, 'not with --file (each item of the file carries its own)');
    transfers = transfersFromFile(file);
  } else {
    const to = str(values, 'to');
    if (to === undefined) throw new InputError('--to', 'required: the recipient address (or --file for many)');
    const toText = addressText(to, '--to');
    if (values.lamports === undefined) throw new InputError('--lamports', 'required: the amount in lamports');
    transfers = [{ to: toText, lamports: lamportsOf(str(values, 'lamports'), '--lamports') }];
  }
  const cuLimitBig = intArg(values, 'cu-limit');
  if (cuLimitBig !== undefined && (cuLimitBig < 1n || cuLimitBig > 1_400_000n)) throw new InputError('--cu-limit', 'expected 1..1,400,000');
  const commitment = str(values, 'commitment');
  if (commitment !== undefined && commitment !== 'processed' && commitment !== 'confirmed' && commitment !== 'finalized') {
    throw new InputError('--commitment', 'expected processed, confirmed or finalized');
  }
  const cuPrice = intArg(values, 'cu-price');
  const tip = intArg(values, 'tip');
  const journal = filePath(values, 'journal');
  const sender: SenderOptions = {
    swqosOnly: values['swqos-only'] === true,
    ...(cuPrice !== undefined ? { cuPrice } : {}),
    ...(cuLimitBig !== undefined ? { cuLimit: Number(cuLimitBig) } : {}),
    ...(tip !== undefined ? { tip } : {}),
    ...(commitment ? { commitment } : {}),
    ...(journal ? { journal } : {}),
  };
  // The sender's own checks (the tip against the routing mode's minimum, say) run here, before any
  // airdrop or request: they used to run only once the sender was built, after the airdrop.
  try {
    resolveSenderConfig(sender);
  } catch (e) {
    throw renamed(e, SENDER_FLAG);
  }
  const url = str(values, 'url');
  const rpcUrl = str(values, 'rpc-url');
  const senderUrl = str(values, 'sender-url');
  const apiKey = str(values, 'api-key');
  let endpoints: Endpoints;
  try {
    endpoints = resolveEndpoints(
      { ...(url ? { url } : {}), ...(rpcUrl ? { baseUrl: rpcUrl } : {}), ...(senderUrl ? { senderUrl } : {}), ...(apiKey ? { apiKey } : {}) },
      env,
    );
  } catch (e) {
    throw renamed(e, { baseUrl: rpcUrl ? '--rpc-url' : '--url', senderUrl: senderUrl ? '--sender-url' : '--url', apiKey: '--api-key' });
  }
  let keypair = filePath(values, 'keypair');
  let keypairFrom = keypair === undefined ? undefined : '--keypair';
  if (keypair === undefined && env.CAIRN_KEYPAIR) [keypair, keypairFrom] = [env.CAIRN_KEYPAIR, 'CAIRN_KEYPAIR'];
  const home = env.HOME ?? env.USERPROFILE;
  const solanaDefault = home ? join(home, '.config', 'solana', 'id.json') : undefined;
  if (keypair === undefined && solanaDefault && existsSync(solanaDefault)) [keypair, keypairFrom] = [solanaDefault, 'the Solana CLI default'];
  if (keypair === undefined && !isLoopback(endpoints.baseUrl)) {
    throw new InputError('--keypair', `required when not sending to a local devnet (${origin(endpoints.baseUrl)}); none in CAIRN_KEYPAIR${solanaDefault ? ` or ${solanaDefault}` : ''}`);
  }
  return {
    transfers,
    ...(keypair !== undefined ? { keypair, keypairFrom: keypairFrom! } : {}),
    endpoints,
    sender,
    allowInsecureKey: values['allow-insecure-key'] === true,
    json,
    quiet: values.quiet === true,
    many: file !== undefined,
  };
}

/** Read a keypair file: a JSON array of 64 bytes. */
export function readKeypairFile(path: string): Signer {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (cause) {
    // say why it could not be read (no such file, a directory, permissions), not "as JSON"
    const code = (cause as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a directory, not a keypair file' : code === 'EACCES' ? 'permission denied' : `cannot be read (${code ?? String(cause)})`;
    throw new InputError('--keypair', `${path}: ${why}`, { cause, ...(code ? { got: code } : {}) });
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (cause) {
    throw new InputError('--keypair', `${path} is not JSON (${(cause as Error).message}); expected a JSON array of 64 bytes, as solana-keygen writes`, { cause });
  }
  if (!Array.isArray(raw) || raw.length !== 64 || !raw.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    throw new InputError('--keypair', `expected a JSON array of 64 bytes in ${path}`);
  }
  return signerFromSecretKey(Uint8Array.from(raw as number[]), '--keypair');
}

const isLoopback = (url: string): boolean => {
  const h = new URL(url).hostname;
  return h === '127.0.0.1' || h === 'localhost' || h === '::1' || h === '[::1]';
};

/** A URL as the messages show it: scheme, host and path, never a query (where keys could hide). */
const origin = (url: string): string => {
  const u = new URL(url);
  return `${u.origin}${u.pathname === '/' ? '' : u.pathname}`;
};

/**
 * Run `cairn send`; returns the exit code (0 sent and confirmed, 1 failed on chain / expired /
 * refused / unreachable, 2 bad usage or unusable input).
 */
export async function run(argv: string[], io: SendCliIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const env = io.env ?? process.env;
  return runCommand(SPEC, argv, io, async ({ values, json }) => send(parseSendArgs(values, json, env), io));
}

async function send(args: SendArgs, io: SendCliIo): Promise<number> {
  // Read the key before anything is started: a bad file is a usage error with nothing sent.
  const fromFile = args.keypair !== undefined ? readKeypairFile(args.keypair) : undefined;
  const ac = new AbortController();
  const onSig = (): void => ac.abort(new Error('interrupted'));
  if (!io.signal) {
    process.once('SIGINT', onSig);
    process.once('SIGTERM', onSig);
  }
  const signal = io.signal ?? ac.signal;
  const { endpoints } = args;
  const talk = (s: string): void => {
    if (!args.json) io.stderr.write(`cairn send: ${s}\n`);
  };
  let client: ReturnType<typeof createClient> | undefined;
  let sender: ReturnType<typeof createSender> | undefined;
  try {
    client = createClient({ ...endpoints, ...(args.allowInsecureKey ? { allowInsecureKey: true } : {}) });
    talk(`RPC ${origin(endpoints.baseUrl)}${endpoints.senderUrl !== endpoints.baseUrl ? `, /fast ${origin(endpoints.senderUrl)}` : ''}${fromFile ? `, payer ${fromFile.address} (${args.keypairFrom})` : ''}`);
    sender = createSender({ client, ...args.sender });
    let payer: Signer;
    if (fromFile) payer = fromFile;
    else {
      payer = generateSigner();
      const total = args.transfers.reduce((s, t) => s + t.lamports, 0n);
      const need = total + BigInt(args.transfers.length) * ((args.sender.tip as bigint | undefined) ?? 1_000_000n) + 100_000_000n;
      talk(`no keypair (--keypair, CAIRN_KEYPAIR, ~/.config/solana/id.json): funding a fresh one, ${payer.address}, by airdrop from ${origin(endpoints.baseUrl)}`);
      await client.requestAirdrop(payer.address, need, undefined, { signal });
      // wait for the airdrop to execute (the devnet runs it in its next slot)
      for (let i = 0; ; i++) {
        const bal = BigInt(await client.getBalance(payer.address, { commitment: 'confirmed' }, { signal }));
        if (bal >= need) break;
        if (i > 200) throw new CairnError('SENDER_REJECTED', `the airdrop from ${origin(endpoints.baseUrl)} did not arrive within 20 s`);
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    if (!args.many) {
      const t = args.transfers[0]!;
      try {
        const out = await sender.send({ instructions: [transferInstruction(payer.address, t.to, t.lamports)], payer }, { signal });
        if (args.json) io.stdout.write(JSON.stringify({ ...out, from: payer.address, to: t.to, lamports: t.lamports.toString() }) + '\n');
        else {
          const tm = out.timings;
          io.stdout.write(
            `${out.signature}\n  ${t.lamports} lamports ${payer.address} → ${t.to}\n  ${out.commitment} in slot ${out.slot}` +
              ` after ${Math.round(tm.confirmedMs ?? 0)} ms (landed ${Math.round(tm.landedMs ?? 0)} ms, ${out.sends} send(s), ${out.attempts} signature(s))\n`,
          );
        }
        return 0;
      } catch (e) {
        const hint = await rentHint(e, client, t, signal);
        reportError('send', e, io, args.json, hint);
        const logs = (e as { context?: { logs?: string[] } }).context?.logs;
        if (logs && !args.json) io.stderr.write(logs.map((l) => `  ${l}`).join('\n') + '\n');
        return exitCodeOf(e);
      }
    }
    const progress = createProgress(io.stderr, { label: 'send: transfers', total: args.transfers.length, quiet: args.quiet });
    const items: unknown[] = [];
    let failed = 0;
    const inputs = args.transfers.map((t) => ({ instructions: [transferInstruction(payer.address, t.to, t.lamports)], payer }));
    for await (const r of sender.sendMany(inputs, { signal })) {
      const t = args.transfers[r.index]!;
      progress.tick();
      if (r.ok) {
        items.push({ index: r.index, ok: true, signature: r.outcome.signature, slot: r.outcome.slot, to: t.to, lamports: t.lamports.toString() });
        if (!args.json) io.stdout.write(`#${r.index} ${r.outcome.signature} ${t.lamports} → ${t.to} ${r.outcome.commitment} in slot ${r.outcome.slot}\n`);
      } else {
        failed++;
        const d = describeError(r.error);
        items.push({ index: r.index, ok: false, to: t.to, lamports: t.lamports.toString(), error: { code: d.code, message: d.message } });
        if (!args.json) io.stdout.write(`#${r.index} FAILED [${d.code}] ${d.message}\n`);
      }
    }
    progress.done();
    if (args.json) io.stdout.write(JSON.stringify({ from: payer.address, total: args.transfers.length, confirmed: args.transfers.length - failed, failed, items }) + '\n');
    else io.stdout.write(`${args.transfers.length - failed}/${args.transfers.length} transfers confirmed from ${payer.address}\n`);
    return failed ? 1 : 0;
  } catch (e) {
    const hint =
      e instanceof CairnError && e.code === 'RPC_NETWORK'
        ? `  (nothing answers at ${origin(endpoints.baseUrl)}${isLoopback(endpoints.baseUrl) ? ': start a devnet with `npx cairn devnet`, or pass --url' : ''})`
        : undefined;
    reportError('send', e, io, args.json, hint);
    return exitCodeOf(e);
  } finally {
    process.off('SIGINT', onSig);
    process.off('SIGTERM', onSig);
    await sender?.close();
    await client?.close();
  }
}

/**
 * For a transfer refused for rent (`InsufficientFundsForRent`): the rent-exempt minimum of an account
 * with no data and what the recipient would hold, so the user knows what to send. Best effort.
 */
async function rentHint(
  e: unknown,
  client: ReturnType<typeof createClient>,
  t: { to: string; lamports: bigint },
  signal: AbortSignal,
): Promise<string | undefined> {
  if (!(e instanceof CairnError) || !/InsufficientFundsForRent/.test(`${e.message} ${JSON.stringify(e.context)}`)) return undefined;
  try {
    const min = BigInt(await client.getMinimumBalanceForRentExemption(0, undefined, { signal }));
    const has = BigInt(await client.getBalance(t.to, { commitment: 'confirmed' }, { signal }));
    return `  hint: ${t.to} would hold ${has + t.lamports} lamports, below the rent-exempt minimum of ${min} lamports for an account with no data; send at least ${min - has > 0n ? min - has : min} lamports`;
  } catch {
    return '  hint: the recipient would hold less than the rent-exempt minimum (getMinimumBalanceForRentExemption(0) names it)';
  }
}
