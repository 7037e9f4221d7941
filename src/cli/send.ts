/**
 * `cairn send --to ADDR --lamports N [--keypair FILE] [--swqos-only] [--url URL]`: one transfer
 * through `/fast`, rebroadcast until confirmed, printed as one line (or JSON with `--json`).
 * Endpoints and key come from flags, then `CAIRN_*` environment variables, then the local devnet's
 * default address. Without `--keypair` against a loopback devnet, a fresh keypair is funded by
 * airdrop first (the embedded devnet needs no set-up); anywhere else a keypair is required.
 */
import { readFileSync } from 'node:fs';
import { resolveEndpoints } from '../config.js';
import { CairnError, InputError } from '../errors.js';
import { createClient } from '../rpc/client.js';
import { addressText } from '../solana/address.js';
import { createSender, generateSigner, signerFromSecretKey, transferInstruction, type Signer } from '../sender/index.js';
import { toU64 } from '../solana/instructions.js';

export interface SendCliIo {
  stdout: { write(s: string): unknown };
  stderr: { write(s: string): unknown };
  env?: NodeJS.ProcessEnv;
  /** Aborts the send (default: SIGINT / SIGTERM). */
  signal?: AbortSignal;
}

const usage = `usage: cairn send --to ADDRESS --lamports N [--keypair FILE] [--swqos-only]
                  [--url URL | --rpc-url URL --sender-url URL] [--api-key KEY]
                  [--cu-price MICROLAMPORTS] [--cu-limit UNITS] [--tip LAMPORTS] [--commitment confirmed]
                  [--journal FILE] [--json] [--allow-insecure-key]
  --allow-insecure-key  send the API key over plain http to a host that is not loopback (refused otherwise)
  keypair file: the usual JSON array of 64 bytes
  environment:  CAIRN_URL, CAIRN_RPC_URL, CAIRN_SENDER_URL, CAIRN_API_KEY, CAIRN_KEYPAIR
  default:      the local devnet at http://127.0.0.1:8899 (a fresh keypair is airdropped there)
`;

export interface SendArgs {
  to: string;
  lamports: bigint;
  keypair?: string;
  swqosOnly: boolean;
  url?: string;
  rpcUrl?: string;
  senderUrl?: string;
  apiKey?: string;
  cuPrice?: bigint;
  cuLimit?: number;
  tip?: bigint;
  commitment?: 'processed' | 'confirmed' | 'finalized';
  journal?: string;
  json: boolean;
  allowInsecureKey?: boolean;
}

function intArg(v: string | undefined, flag: string): bigint {
  if (v === undefined || !/^\d+$/.test(v)) throw new InputError(flag, `expected a non-negative integer, got ${JSON.stringify(v ?? '')}`);
  return toU64(BigInt(v), flag);
}

/** Parse the command line (exported for tests). */
export function parseSendArgs(argv: string[], env: NodeJS.ProcessEnv = process.env): SendArgs | 'help' {
  const o: Partial<SendArgs> & { swqosOnly: boolean; json: boolean } = { swqosOnly: false, json: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const eq = a.indexOf('=');
    const flag = a.startsWith('--') && eq > 0 ? a.slice(0, eq) : a;
    const value = (): string | undefined => (a.startsWith('--') && eq > 0 ? a.slice(eq + 1) : argv[++i]);
    const filePath = (): string => {
      const path = value();
      if (!path) throw new InputError(flag, 'expected a file path');
      return path;
    };
    switch (flag) {
      case '-h':
      case '--help':
        return 'help';
      case '--to':
        o.to = addressText(value() ?? '', '--to');
        break;
      case '--lamports':
        o.lamports = intArg(value(), '--lamports');
        if (o.lamports === 0n) throw new InputError('--lamports', 'expected more than 0');
        break;
      case '--keypair':
        o.keypair = filePath();
        break;
      case '--swqos-only':
        o.swqosOnly = true;
        break;
      case '--url':
        o.url = value();
        break;
      case '--rpc-url':
        o.rpcUrl = value();
        break;
      case '--sender-url':
        o.senderUrl = value();
        break;
      case '--api-key':
        o.apiKey = value();
        break;
      case '--cu-price':
        o.cuPrice = intArg(value(), '--cu-price');
        break;
      case '--cu-limit': {
        const n = Number(intArg(value(), '--cu-limit'));
        if (n < 1 || n > 1_400_000) throw new InputError('--cu-limit', 'expected 1..1,400,000');
        o.cuLimit = n;
        break;
      }
      case '--tip':
        o.tip = intArg(value(), '--tip');
        break;
      case '--commitment': {
        const c = value();
        if (c !== 'processed' && c !== 'confirmed' && c !== 'finalized') throw new InputError('--commitment', 'expected processed, confirmed or finalized');
        o.commitment = c;
        break;
      }
      case '--journal':
        o.journal = filePath();
        break;
      case '--json':
        o.json = true;
        break;
      case '--allow-insecure-key':
        o.allowInsecureKey = true;
        break;
      default:
        throw new InputError(flag, `unknown option ${JSON.stringify(a)}`);
    }
  }
  if (!o.to) throw new InputError('--to', 'required: the recipient address');
  if (o.lamports === undefined) throw new InputError('--lamports', 'required: the amount in lamports');
  o.keypair ??= env.CAIRN_KEYPAIR || undefined;
  return o as SendArgs;
}

/** Read a keypair file: a JSON array of 64 bytes. */
export function readKeypairFile(path: string): Signer {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (cause) {
    throw new InputError('--keypair', `cannot read ${path} as JSON`, { cause });
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

/**
 * Run `cairn send`; returns the exit code (0 sent and confirmed, 1 failed on chain / expired /
 * refused, 2 bad usage).
 */
export async function run(argv: string[], io: SendCliIo = { stdout: process.stdout, stderr: process.stderr }): Promise<number> {
  const env = io.env ?? process.env;
  let args: SendArgs | 'help';
  try {
    args = parseSendArgs(argv, env);
  } catch (e) {
    io.stderr.write(`cairn send: ${(e as Error).message}\n${usage}`);
    return 2;
  }
  if (args === 'help') {
    io.stdout.write(usage);
    return 0;
  }
  const ac = new AbortController();
  const onSig = (): void => ac.abort(new Error('interrupted'));
  if (!io.signal) {
    process.once('SIGINT', onSig);
    process.once('SIGTERM', onSig);
  }
  const signal = io.signal ?? ac.signal;
  let client: ReturnType<typeof createClient> | undefined;
  let sender: ReturnType<typeof createSender> | undefined;
  try {
    const endpoints = resolveEndpoints(
      {
        ...(args.url ? { url: args.url } : {}),
        ...(args.rpcUrl ? { baseUrl: args.rpcUrl } : {}),
        ...(args.senderUrl ? { senderUrl: args.senderUrl } : {}),
        ...(args.apiKey ? { apiKey: args.apiKey } : {}),
      },
      env,
    );
    client = createClient({ ...endpoints, ...(args.allowInsecureKey ? { allowInsecureKey: true } : {}) });
    let payer: Signer;
    if (args.keypair) payer = readKeypairFile(args.keypair);
    else if (isLoopback(endpoints.baseUrl)) {
      payer = generateSigner();
      const need = args.lamports + (args.tip ?? 1_000_000n) + 100_000_000n;
      io.stderr.write(`cairn send: no --keypair: funding a fresh keypair ${payer.address} on the local devnet\n`);
      await client.requestAirdrop(payer.address, need, undefined, { signal });
      // wait for the airdrop to execute (the devnet runs it in its next slot)
      for (let i = 0; ; i++) {
        const bal = BigInt(await client.getBalance(payer.address, { commitment: 'confirmed' }, { signal }));
        if (bal >= need) break;
        if (i > 200) throw new CairnError('SENDER_REJECTED', 'the devnet airdrop did not arrive within 20 s');
        await new Promise((r) => setTimeout(r, 100));
      }
    } else {
      throw new InputError('--keypair', 'required when not sending to the local devnet');
    }
    sender = createSender({
      client,
      swqosOnly: args.swqosOnly,
      ...(args.cuPrice !== undefined ? { cuPrice: args.cuPrice } : {}),
      ...(args.cuLimit !== undefined ? { cuLimit: args.cuLimit } : {}),
      ...(args.tip !== undefined ? { tip: args.tip } : {}),
      ...(args.commitment ? { commitment: args.commitment } : {}),
      ...(args.journal ? { journal: args.journal } : {}),
    });
    const out = await sender.send({ instructions: [transferInstruction(payer.address, args.to, args.lamports)], payer }, { signal });
    if (args.json) {
      io.stdout.write(JSON.stringify({ ...out, from: payer.address, to: args.to, lamports: args.lamports.toString() }) + '\n');
    } else {
      const t = out.timings;
      io.stdout.write(
        `${out.signature}\n  ${args.lamports} lamports ${payer.address} → ${args.to}\n  ${out.commitment} in slot ${out.slot}` +
          ` after ${Math.round(t.confirmedMs ?? 0)} ms (landed ${Math.round(t.landedMs ?? 0)} ms, ${out.sends} send(s), ${out.attempts} signature(s))\n`,
      );
    }
    return 0;
  } catch (e) {
    const err = e as Error & { code?: string; context?: { logs?: string[] } };
    io.stderr.write(`cairn send: ${err.code ? `[${err.code}] ` : ''}${err.message}\n`);
    if (err.context?.logs) io.stderr.write(err.context.logs.map((l) => `  ${l}`).join('\n') + '\n');
    // Unusable input or settings (a bad flag, a key refused for plain http) are usage errors.
    return err instanceof InputError || err.code === 'RPC_INSECURE_KEY' ? 2 : 1;
  } finally {
    process.off('SIGINT', onSig);
    process.off('SIGTERM', onSig);
    await sender?.close();
    await client?.close();
  }
}
